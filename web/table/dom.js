// DOM helpers shared by the renderer and the panels: element creation with
// text only (never HTML from strings) and the non-interactive face card.

import { cardClasses, cardFace } from "./card-faces.js";
import { cardName } from "../text/words.js";

function append(node, child) {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) for (const c of child) append(node, c);
  else node.append(child);
}

// el("p", {class, text, dataset: {...}, "aria-label": ...}, ...children).
// Children may be nested arrays at any depth; null/false are skipped.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else if (name === "class") node.className = value;
    else if (name === "dataset") {
      for (const [key, v] of Object.entries(value)) {
        if (v !== null && v !== undefined) node.dataset[key] = v;
      }
    } else node.setAttribute(name, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

// A button that does an intent (input.js reads data-intent): class "btn" and
// key the intent's name unless given; other attributes as for el().
export function intentButton(text, intent, { key = intent, dataset = {}, ...attrs } = {}) {
  return el("button", { type: "button", class: "btn", ...attrs, dataset: { intent, key, ...dataset }, text });
}

// A button with a click handler of its own (the sheets: statistics, the viewer).
export function button(text, key, onClick, attrs = {}) {
  const node = el("button", { type: "button", class: "btn", dataset: { key }, text, ...attrs });
  node.addEventListener("click", onClick);
  return node;
}

// A labelled <select> of [value, text] options that calls onChange(value) (the sheets).
export function choice(id, label, value, options, onChange) {
  const node = el(
    "select",
    { id, dataset: { key: id } },
    options.map(([v, text]) => el("option", { value: String(v), selected: String(v) === String(value), text })),
  );
  node.addEventListener("change", () => onChange(node.value));
  return el("div", { class: "field" }, el("label", { for: id, text: label }), node);
}

// A labelled <select> that does an intent with the chosen value (the menu's
// fields); its id and key are "menu-<intent>[-<name>]", `extra` its data-*.
export function intentSelect(intent, label, value, options, extra = {}) {
  const id = `menu-${intent}${extra.name ? `-${extra.name}` : ""}`;
  return el(
    "div",
    { class: "field" },
    el("label", { for: id, text: label }),
    el(
      "select",
      { id, dataset: { intent, key: id, ...extra } },
      options.map(([v, text]) => el("option", { value: String(v), selected: String(v) === String(value), text })),
    ),
  );
}

// A labelled checkbox that does an intent (the menu's switches); key is its data-key.
export function checkField(id, intent, key, label, checked) {
  return el(
    "div",
    { class: "field check" },
    el("input", { type: "checkbox", id, checked: Boolean(checked), dataset: { intent, key } }),
    el("label", { for: id, text: label }),
  );
}

// A face-up card that is not a control (piles, panels, the opponent's known cards).
export function faceCard(card, t, extra = "") {
  return el(
    "span",
    {
      class: `${cardClasses(card)}${extra ? ` ${extra}` : ""}`,
      role: "img",
      "aria-label": cardName(card, t),
      dataset: { face: card, key: `face:${card}` },
    },
    cardFace(card),
  );
}

// Under a panel or the menu the table is held: out of the screen reader's
// reach (aria-hidden) and of the keyboard's (each of its controls
// tabindex -1, the one it had kept in data-tabindex; the overlay takes the
// pointer), the panel being aria-modal. Not `inert`: in Chromium inertness
// is an inherited computed style, so setting or clearing it restyled every
// element of the table (357 as the deal result panel showed, 200 at
// "Siguiente": 6-10 ms a toggle unthrottled, ~40 at a phone's x4), where
// these attributes restyle nothing (issue 33). Done on the live page after
// each render (the memo'd sections are not rebuilt, render.js): hold(page,
// true) holds it, hold(page, false) gives back what it held.
// HELD: what a tap, a key or the focus must leave alone (a sheet's #app is
// still inert, screens/sheet.js).
export const HELD = '[inert], .page[aria-hidden="true"]';
const CONTROLS = 'button, [tabindex], a[href], input, select, textarea, summary, [contenteditable]';
export function holdPage(page, held = true) {
  if (held) {
    // As inert would: no control under the panel keeps the focus (a key would press it).
    if (page.contains(document.activeElement)) document.activeElement.blur();
    page.setAttribute("aria-hidden", "true");
    for (const node of page.querySelectorAll(CONTROLS)) {
      if (node.hasAttribute("data-tabindex")) continue; // held already (a section kept as it was)
      node.setAttribute("data-tabindex", node.getAttribute("tabindex") ?? "");
      node.setAttribute("tabindex", "-1");
    }
    return;
  }
  page.removeAttribute("aria-hidden");
  for (const node of page.querySelectorAll("[data-tabindex]")) {
    const was = node.getAttribute("data-tabindex");
    if (was) node.setAttribute("tabindex", was);
    else node.removeAttribute("tabindex");
    node.removeAttribute("data-tabindex");
  }
}

// A modal panel over the table, titled, keyed so a render keeps it.
export function panel(id, title, ...children) {
  return el(
    "div",
    { class: "overlay", dataset: { key: `panel:${id}` } },
    el(
      "section",
      {
        class: `panel ${id}`,
        role: "dialog",
        "aria-modal": "true",
        "aria-labelledby": `${id}-title`,
        dataset: { panel: id },
      },
      el("h2", { id: `${id}-title`, text: title }),
      children,
    ),
  );
}
