// The table before the engine (issue 33): the quiet mark on a saved table
// drawn while the engine wakes up, and the first visit's frame (the felt,
// the piles and the hand's empty places before the first deal).

import { el } from "./dom.js";
import { cardBack } from "./card-faces.js";

// "Despertando el juego…": a small status line over the felt, never a
// blocking overlay (pointer events pass through it).
export function wakingMark(ui) {
  if (!ui.waking) return null;
  return el("p", { class: "waking-mark", role: "status", dataset: { key: "waking" }, text: ui.t("waking.mark") });
}

// The first visit's table before the first deal: the felt (the page's own
// background), the computer's and the player's empty places, the stock and
// the empty pile. index.html carries the same markup, so it is there at
// the first paint, before any script has run.
export function tableFrame() {
  const places = (n, cls) => Array.from({ length: n }, () => el("span", { class: `card empty${cls}` }));
  return el(
    "div",
    { class: "frame", "aria-hidden": "true" },
    el("div", { class: "frame-opp" }, ...places(10, " small")),
    el("div", { class: "frame-piles" }, cardBack(), el("span", { class: "card empty" })),
    el("div", { class: "frame-hand" }, ...places(10, "")),
  );
}
