// The guided first deal's bar over the table (the offer, or the step under
// way, with Difícil's hint) and the rules page's way in (play/tutorial.js
// runs the deal).

import { el, intentButton } from "./dom.js";
import { GUIDE_SEED } from "../model/seed.js";
import { hintAction, reasonText } from "../text/words.js";

// The step's sentence (literal keys: the i18n tests look for them).
const STEP_KEYS = {
  upcard: "tutorial.upcard",
  pile_meld: "tutorial.pile_meld",
  draw: "tutorial.draw",
  safe: "tutorial.safe",
  discard: "tutorial.discard",
  knock: "tutorial.knock",
};

// The bar over the table: the offer, or the step of the guided deal.
export function tutorialBar(view, ui) {
  const { t } = ui;
  if (ui.tutorialOffer && !ui.tutorial) {
    return el(
      "aside",
      { class: "tutorial-bar", role: "region", "aria-label": t("tutorial.title"), dataset: { key: "tutorial-offer" } },
      el("p", { text: t("tutorial.offer") }),
      el(
        "div",
        { class: "coach-buttons" },
        intentButton(t("tutorial.start"), "tutorialStart", { class: "btn primary" }),
        intentButton(t("tutorial.no"), "tutorialNo", { class: "btn ghost" }),
      ),
    );
  }
  const tut = ui.tutorial;
  if (!tut || view.seed !== GUIDE_SEED) return null;
  // The rival's turn; the player's, its step not told yet (the deal, before its first hint).
  let text = view.to_act === 0 ? t("tutorial.dealt") : t("tutorial.wait");
  if (tut.hint && tut.kind && view.to_act === 0 && !view.over) {
    const a = tut.hint.action;
    const gin = a.type === "knock" && tut.hint.reason === "gin_available";
    const hint = t("hint.label", { action: hintAction(t, a, gin), reason: reasonText(t, tut.hint.reason, tut.hint.why) }).trim();
    text = `${t(STEP_KEYS[tut.kind])} ${hint}`;
  }
  return el(
    "aside",
    { class: "tutorial-bar", role: "region", "aria-label": t("tutorial.title"), dataset: { key: "tutorial-bar", step: tut.step, kind: tut.kind || "" } },
    // The button first: it floats at the top right, the text around it (style.css).
    el("div", { class: "coach-buttons" }, intentButton(t("tutorial.skip"), "tutorialSkip", { class: "btn ghost" })),
    el("p", {}, el("strong", { text: tut.step ? `${t("tutorial.title")} · ${t("tutorial.step", { n: tut.step })}: ` : `${t("tutorial.title")}: ` }), el("span", { class: "tutorial-text", role: "status", text })),
  );
}

// The rules page's way in.
export function tutorialButton(t) {
  return intentButton(t("tutorial.start"), "tutorialStart", { key: "tutorial-from-help" });
}
