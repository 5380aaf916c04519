// What the table shows of the coach (play/coach.js): the note near the
// hand, the costliest decisions on the deal result, the menu's switch.
// Built from the UI state only.

import { checkField, el, intentButton } from "./dom.js";
import { coachText, playedText, undercutText } from "../text/coach-words.js";
import { hintAction, pointsText } from "../text/words.js";

// On by the setting, and always in the guided deal (play/tutorial.js).
const on = (ui) => ui.settings.coach === true || Boolean(ui.tutorial);

// The summary on the deal result, or null.
export function coachSummary(view, ui) {
  const s = ui.coachSummary;
  if (!s || !on(ui) || !ui.result || s.seed !== view.seed || s.deal !== ui.result.number) return null;
  const { t } = ui;
  const head = el("h3", { text: t("coach.summary_title") });
  let body;
  if (s.failed) body = el("p", { text: t("review.failed") });
  else if (!s.items) body = el("p", { role: "status", text: t("coach.summary_loading") });
  else if (!s.items.length && !(s.undercut || []).length) body = el("p", { text: t("coach.summary_none") });
  else {
    const undercut = (s.undercut || []).map((k) => summaryItem(t, s, k.step, k.points, undercutText(t, k)));
    const priced = new Set((s.undercut || []).map((k) => k.step));
    const items = s.items.filter((d) => !priced.has(d.step)).map((d) => {
      const gin = d.hard.type === "knock" && d.reason === "gin_available";
      const text = t("coach.summary_item", {
        played: playedText(t, d.human),
        better: hintAction(t, d.hard, gin),
        cost: pointsText(t, Math.round(d.cost)),
      });
      return summaryItem(t, s, d.step, d.cost, text);
    });
    body = el("ol", { class: "coach-summary-list" }, undercut, items);
  }
  return el("section", { class: "coach-summary", dataset: { key: "coach-summary" } }, head, body);
}

// One decision of the summary, with the button that shows it in the replay.
function summaryItem(t, s, step, cost, text) {
  return el(
    "li",
    { dataset: { step, cost } },
    el("span", { text }),
    " ",
    intentButton(t("coach.summary_watch"), "coachWatch", {
      class: "btn ghost",
      key: `coach-watch:${step}`,
      dataset: { step, deal: s.deal },
      "aria-label": `${t("coach.summary_watch")}: ${text}`,
    }),
  );
}

// The note near the hand, or null.
export function coachNote(view, ui) {
  const c = ui.coach;
  if (!c || !on(ui) || c.seed !== view.seed || c.deal !== view.deal_number) return null;
  const { t } = ui;
  return el(
    "aside",
    {
      class: "coach-note",
      role: "status",
      "aria-label": t("coach.title"),
      dataset: { key: "coach-note", advice: c.note.advice, kind: c.note.kind },
    },
    el("p", {}, el("strong", { text: `${t("coach.title")}: ` }), el("span", { class: "coach-text", text: coachText(t, c.note) })),
    el(
      "div",
      { class: "coach-buttons" },
      intentButton(t("coach.dismiss"), "coachDismiss", { class: "btn ghost" }),
      intentButton(t("coach.off"), "coachOff", { class: "btn ghost" }),
    ),
  );
}

// The menu's switch.
export function coachSwitch(t, settings) {
  return checkField("menu-coach", "coach", "coach", t("menu.coach"), settings.coach);
}
