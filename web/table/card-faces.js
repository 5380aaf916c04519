// Playing cards drawn with our own SVG suits and CSS: faces and backs.
// Everything is built with createElement; the suits are in style.css.

import { rankOf, rankText, suitOf } from "../model/cards.js";

function span(className, ...children) {
  const node = document.createElement("span");
  node.className = className;
  node.append(...children);
  return node;
}

// The face of a card: one element, its two corner indices and its centre's
// pip drawn by CSS (style.css .face: the suits are background images, the
// ranks its ::before and ::after); a court card adds its framed centre, the
// letter drawn by that frame's ::before. The ranks come from data-rank, not
// DOM text: a card is an image (named by its control or its role="img"), so
// no stray letters sit in a button's visible text beside its name (WCAG
// 2.5.3).
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
  const rank = rankOf(card);
  const face = span("face");
  if ("JQK".includes(rank)) {
    const court = span("court");
    court.dataset.rank = rank;
    face.append(court);
  }
  face.setAttribute("aria-hidden", "true");
  face.dataset.rank = rankText(card);
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

