// Playing cards drawn with our own SVG suits and CSS: faces and backs.
// Everything is built with createElement(NS) and textContent.

import { rankOf, rankText, suitOf } from "../model/cards.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// Suit shapes on a 100×100 box; clubs is three leaves on a stem.
const SUIT_SHAPES = {
  H: [["path", { d: "M50 90C22 66 5 50 5 29 5 15 16 5 29 5c10 0 17 6 21 14 4-8 11-14 21-14 13 0 24 10 24 24 0 21-17 37-45 61Z" }]],
  D: [["path", { d: "M50 3 87 50 50 97 13 50Z" }]],
  S: [
    ["path", { d: "M50 4C38 24 7 38 7 61c0 13 10 22 22 22 8 0 14-4 18-10-1 10-6 17-15 23h36c-9-6-14-13-15-23 4 6 10 10 18 10 12 0 22-9 22-22C93 38 62 24 50 4Z" }],
  ],
  C: [
    ["circle", { cx: "50", cy: "27", r: "20" }],
    ["circle", { cx: "27", cy: "60", r: "20" }],
    ["circle", { cx: "73", cy: "60", r: "20" }],
    ["path", { d: "M44 40h12v18c2 16 7 28 16 38H28c9-10 14-22 16-38Z" }],
  ],
};

export function suitIcon(suit, className = "suit") {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const [tag, attrs] of SUIT_SHAPES[suit]) {
    const shape = document.createElementNS(SVG_NS, tag);
    for (const [name, value] of Object.entries(attrs)) shape.setAttribute(name, value);
    svg.append(shape);
  }
  return svg;
}

function span(className, ...children) {
  const node = document.createElement("span");
  node.className = className;
  node.append(...children);
  return node;
}

// The face of a card: two corner indices and a middle (a big pip, or the
// letter of a court card over its suit). Not "centre": that is the table's
// piles' area, whose gap (8-16 px) squeezed a court card's pip to 1-10 px.
// Built once per card and cloned (a render describes the whole table each
// time); data-static lets the keyed update skip it (morph.js).
const FACES = new Map();

export function cardFace(card) {
  let face = FACES.get(card);
  if (!face) {
    face = buildFace(card);
    FACES.set(card, face);
  }
  return face.cloneNode(true);
}

function buildFace(card) {
  const suit = suitOf(card);
  const rank = rankOf(card);
  // The rank is drawn by CSS from data-rank, not DOM text: a card is an
  // image (named by its control or its role="img"), so no stray letters
  // sit in a button's visible text beside its name (WCAG 2.5.3).
  const copy = (className, text) => {
    const node = span(className);
    node.dataset.rank = text;
    return node;
  };
  const corner = (where) => span(`corner ${where}`, copy("rank", rankText(card)), suitIcon(suit, "suit"));
  const middle = "JQK".includes(rank)
    ? span("middle court", copy("court-letter", rank), suitIcon(suit, "pip small"))
    : span("middle", suitIcon(suit, "pip"));
  const face = span("face", corner("tl"), middle, corner("br"));
  face.setAttribute("aria-hidden", "true");
  face.dataset.static = card;
  return face;
}

// Classes every face card carries: its suit (for colour) and rank.
export function cardClasses(card) {
  return `card suit-${suitOf(card)}${"JQK".includes(rankOf(card)) ? " court" : ""}`;
}

export function cardBack(extraClass = "") {
  const node = document.createElement("span");
  node.className = `card back${extraClass ? ` ${extraClass}` : ""}`;
  node.setAttribute("aria-hidden", "true");
  node.append(span("back-inner"));
  return node;
}

