// Entrenador (the coach): after each of the player's decisions, when the
// setting is on, the engine's `coach` (gin/coach.py) says whether Difícil
// thinks it cost more than its threshold; if so a short note appears near
// the hand: the better move, why, and the seeds' advice that applies. It
// never holds the game up: the request goes after the move, beside the
// computer's turn, and the note is a status line, not a dialog. The same
// advice is not given twice in a deal. The note can be dismissed or the
// coach turned off from it.

import { el, intentButton } from "./dom.js";
import { hintAction, points, reasonText } from "./words.js";

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
};

const given = new Map(); // "seed:deal" -> the advice codes already given in that deal
let asking = Promise.resolve(); // the last coach request (for tests: ginApp.idle waits on it)

export const coachIdle = () => asking;

export function coaching(state) {
  return state.settings.coach === true;
}

// The note in words: the better move and its cost, Difícil's reason, the advice.
export function coachText(t, note) {
  const gin = note.better.type === "knock" && note.reason === "gin_available";
  const head = t("coach.better", { action: hintAction(t, note.better, gin), cost: points(t, Math.round(note.cost)) });
  const advice = ADVICE_KEYS[note.advice] ? t(ADVICE_KEYS[note.advice]) : "";
  return [head, reasonText(t, note.reason, note.why), advice].filter(Boolean).join(" ");
}

// After an `act` sent with {coach: true}: ask for the note of that decision
// (not queued behind the computer's turn: the worker answers it first) and
// show it if there is one and its advice was not given yet in this deal.
export function askCoach(call, state, result, draw, announce) {
  state.ui.coach = null;
  if (typeof result.coach_index !== "number") return Promise.resolve(null);
  const seed = state.view.seed;
  const deal = state.view.deal_number;
  asking = call("coach", { index: result.coach_index })
    .then(({ note }) => {
      const key = `${seed}:${deal}`;
      const seen = given.get(key) || new Set();
      if (!note || seen.has(note.advice) || !coaching(state)) return null;
      if (!state.view || state.view.seed !== seed || state.view.deal_number !== deal) return null;
      seen.add(note.advice);
      given.set(key, seen);
      state.ui.coach = { note, seed, deal, index: result.coach_index };
      announce(coachText(state.t, note));
      draw();
      return note;
    })
    .catch((err) => {
      console.warn("coach:", err);
      return null;
    });
  return asking;
}

// The note near the hand, or null.
export function coachNote(view, ui) {
  const c = ui.coach;
  if (!c || !ui.settings.coach || c.seed !== view.seed || c.deal !== view.deal_number) return null;
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

// The coach's intents: dismiss the note, turn the coach off (from the note),
// and the menu's switch.
export function coachIntents({ state, draw, persistSettings }) {
  // The note's buttons go away with it: the focus goes back to the hand.
  const back = () => (state.ui.rover ? `card:${state.ui.rover}` : "menu");
  const set = (on) => {
    state.settings.coach = on;
    if (!on) state.ui.coach = null;
    persistSettings();
    draw();
  };
  return {
    coachDismiss() {
      state.ui.coach = null;
      state.ui.focus = back();
      draw();
    },
    coachOff() {
      state.ui.focus = back();
      set(false);
    },
    coach({ value }) {
      set(Boolean(value));
    },
  };
}

// The menu's switch.
export function coachSwitch(t, settings) {
  return el(
    "div",
    { class: "field check" },
    el("input", {
      type: "checkbox",
      id: "menu-coach",
      checked: Boolean(settings.coach),
      dataset: { intent: "coach", key: "coach" },
    }),
    el("label", { for: "menu-coach", text: t("menu.coach") }),
  );
}
