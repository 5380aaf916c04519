// What the table shows of Difícil with your cards (play/luck.js): the line on
// the deal result. Built from the UI state only.

import { el } from "./dom.js";
import { duplicateLine } from "../text/luck-words.js";

// The line under the deal's headline, or null: while Difícil plays the deal
// again, a quiet placeholder of the same height (the panel's buttons do not
// move under a finger when the answer comes); nothing if there is no answer.
export function duplicateResult(view, ui) {
  const d = ui.duplicate;
  if (!d || d.failed || !ui.result || d.seed !== view.seed || d.deal !== ui.result.number) return null;
  const { t } = ui;
  if (!d.points) return el("p", { class: "duplicate pending", text: t("luck.pending") });
  return el("p", {
    class: "duplicate",
    dataset: { player: d.points.player, hard: d.points.hard, difference: d.points.difference },
    text: duplicateLine(t, d),
  });
}
