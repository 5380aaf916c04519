// What the table shows of the day's match and of challenges (play/daily.js
// runs them): the start's offer over the table, and in the match result
// the day's name, the player's result beside each challenge's, Compartir
// and what became of it. Built from the view and the UI state only.

import { el, intentButton } from "./dom.js";
import { summaryOf, outcomeOf } from "../model/challenge.js";
import { dayText, resultText } from "../text/daily-words.js";

// At most this many challenges beside the player's result (the newest).
const SHOWN = 3;

// The start's offer: today's match, over the match it was offered on.
export function dailyBar(view, ui) {
  const { t } = ui;
  if (!ui.dailyOffer || ui.dailyOffer !== view.seed || ui.tutorial || ui.tutorialOffer) return null;
  // A question, so a dialog (not modal: the table stays playable beside it):
  // render.js moves the focus into it and back, input.js closes it with Escape.
  return el(
    "section",
    {
      class: "tutorial-bar daily-bar",
      role: "dialog",
      "aria-label": t("daily.offer_title"),
      "aria-describedby": "daily-offer-text",
      dataset: { key: "daily-offer" },
    },
    el("p", { id: "daily-offer-text", text: t("daily.offer") }),
    el(
      "div",
      { class: "coach-buttons" },
      intentButton(t("daily.offer_play"), "playToday", { class: "btn primary", key: "daily-play" }),
      intentButton(t("tutorial.no"), "dailyNo", { class: "btn ghost", key: "daily-no" }),
    ),
  );
}

// The top bar's name of the rules: the day's match and a challenge's say so.
export function profileMark(t, ui, rules) {
  const profile = t(`profile.${rules.profile}`);
  if (ui.fixed && ui.fixed.day) return t("daily.title");
  return ui.fixed ? `${t("challenge.mark")} · ${profile}` : profile;
}

const margin = (s) => s.totals[0] - s.totals[1];

// The player's result and each challenge's side by side: one column each.
function compareTable(view, ui) {
  const { t } = ui;
  const mine = summaryOf(view);
  const theirs = ui.challenges.slice(-SHOWN);
  const people = [
    { who: "you", name: t("challenge.you"), s: mine, told: "you" },
    ...theirs.map((c, i) => ({ who: "them", name: theirs.length > 1 ? t("challenge.them_n", { n: i + 1 }) : t("challenge.them"), s: c.from, told: "them" })),
  ];
  const row = (label, cell) => el("tr", {}, el("th", { scope: "row", text: label }), people.map((p) => el("td", { dataset: { who: p.who } }, cell(p))));
  const verdict = theirs.length === 1 ? (margin(mine) > margin(theirs[0].from) ? "challenge.better" : margin(mine) < margin(theirs[0].from) ? "challenge.worse" : "challenge.same") : null;
  return el(
    "section",
    { class: "challenge-compare", "aria-labelledby": "challenge-compare-title", dataset: { key: "challenge-compare" } },
    el("h3", { id: "challenge-compare-title", text: t("challenge.compare_title") }),
    el(
      "table",
      { class: "compare-table" },
      el("caption", { class: "sr-only", text: t("challenge.compare_label") }),
      el("thead", {}, el("tr", {}, el("td", {}), people.map((p) => el("th", { scope: "col", dataset: { who: p.who }, text: p.name })))),
      el(
        "tbody",
        {},
        row(t("challenge.result"), (p) => el("span", { class: `outcome ${outcomeOf(p.s)}`, text: resultText(t, p.s, p.told) })),
        row(t("challenge.deals"), (p) => String(p.s.deals)),
        row(t("challenge.gins"), (p) => String(p.s.gins)),
        row(t("challenge.undercuts"), (p) => String(p.s.undercuts)),
      ),
    ),
    verdict ? el("p", { class: "challenge-verdict", text: t(verdict) }) : null,
  );
}

// What Compartir did: sent, copied, or the text to copy by hand.
function shareStatus(ui) {
  const { t, shared } = ui;
  if (!shared) return null;
  const line = { shared: "share.shared", copied: "share.copied", manual: "share.manual" }[shared.kind];
  return el(
    "div",
    { class: "share-status", dataset: { key: "share-status", kind: shared.kind } },
    el("p", { class: "message info", role: "status", text: t(line) }),
    shared.kind === "manual"
      ? el("textarea", { class: "share-text", readonly: true, rows: 4, "aria-label": t("share.text_label"), dataset: { key: "share-text" }, text: shared.text })
      : null,
  );
}

// Under the match result's headline: the day's name.
export function matchDay(ui) {
  const day = ui.fixed && ui.fixed.day;
  return day ? el("p", { class: "daily-title", text: ui.t("daily.match_title", { date: dayText(ui.lang, day) }) }) : null;
}

// Under the match result's lines: the challenges, and what came of Compartir.
export function matchResultExtras(view, ui) {
  return [view.final && ui.challenges && ui.challenges.length ? compareTable(view, ui) : null, shareStatus(ui)];
}

// Compartir, and today's match when it is neither this one nor finished.
export function matchResultButtons(view, ui) {
  const { t } = ui;
  const d = ui.daily;
  const today = d && !d.done && !(ui.fixed && ui.fixed.day === d.today);
  return [
    intentButton(t("share.button"), "share", { key: "share" }),
    today ? intentButton(t("btn.daily"), "playToday", { key: "result-daily" }) : null,
  ];
}
