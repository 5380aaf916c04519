// The coach's sentences (Entrenador, play/coach.js): the note on a costly
// decision and the player's move of a review entry, in the past.

import { hintAction, pointsText, reasonText, theCard } from "./words.js";

// Advice codes gin/coach.py gives (literal keys: the i18n tests look for them).
export const ADVICE_KEYS = {
  high_cards_first: "coach.advice.high_cards_first",
  two_way: "coach.advice.two_way",
  watch_pickups: "coach.advice.watch_pickups",
  remember_discards: "coach.advice.remember_discards",
  knock_early: "coach.advice.knock_early",
  no_gin_chase: "coach.advice.no_gin_chase",
  take_meld: "coach.advice.take_meld",
  keep_low: "coach.advice.keep_low",
  feed_not: "coach.advice.feed_not",
  pile_public: "coach.advice.pile_public",
};

// The note in words: the better move and its cost, Difícil's reason, the advice.
export function coachText(t, note) {
  const gin = note.better.type === "knock" && note.reason === "gin_available";
  const head = t("coach.better", { action: hintAction(t, note.better, gin), cost: pointsText(t, Math.round(note.cost)) });
  const advice = ADVICE_KEYS[note.advice] ? t(ADVICE_KEYS[note.advice]) : "";
  return [head, reasonText(t, note.reason, note.why), advice].filter(Boolean).join(" ");
}

// The player's move of a review entry, in the past ("Descartaste el 4 de tréboles").
const PLAYED_KEYS = {
  take: "coach.played.take",
  pass: "coach.played.pass",
  draw_stock: "coach.played.draw_stock",
  draw_discard: "coach.played.draw_discard",
  discard: "coach.played.discard",
  knock: "coach.played.knock",
};

export function playedText(t, action) {
  const kind = action.type === "draw" ? `draw_${action.from}` : action.type;
  return PLAYED_KEYS[kind] ? t(PLAYED_KEYS[kind], { card: action.card ? theCard(t, action.card) : "" }) : "";
}

// A knock the computer undercut (gin/replay.py _undercut_knock): its risk,
// what it cost, and whether Difícil would have knocked too (issue 35 item 7).
export function undercutText(t, k) {
  const vars = { card: theCard(t, k.human.card), risk: k.undercut, points: pointsText(t, k.points) };
  const what = t(k.undercut === null || k.undercut === undefined ? "coach.undercut_knock" : "coach.undercut_knock_risk", vars);
  return `${what} ${t(k.advised ? "coach.undercut_advised" : "coach.undercut_not_advised")}`;
}
