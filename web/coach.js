// Entrenador (the coach): after each of the player's decisions, when the
// setting is on, the engine's `coach` (gin/coach.py) says whether Difícil
// thinks it cost more than its threshold; if so a short note appears near
// the hand: the better move, why, and the seeds' advice that applies. It
// never holds the game up: the request goes after the move, beside the
// computer's turn, and the note is a status line, not a dialog. The same
// advice is not given twice in a deal. The note can be dismissed or the
// coach turned off from it. When a deal ends, the deal result lists the
// deal's costliest decisions (Difícil's review of that deal), each opening
// the replay viewer at its step.

import { checkField, el, intentButton } from "./dom.js";
import { hintAction, points, reasonText, theCard } from "./words.js";
import { dealEnded, noteSeen } from "./coachlog.js";
import { guided } from "./tutorial.js";

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

const given = new Map(); // "seed:deal" -> the advice codes already given in that deal
let asking = Promise.resolve(); // the last coach request (for tests: ginApp.idle waits on it)

export const coachIdle = () => asking;

// On by the setting, and always in the guided deal (tutorial.js).
export function coaching(state) {
  return state.settings.coach === true || Boolean(state.ui.tutorial);
}

const on = (ui) => ui.settings.coach === true || Boolean(ui.tutorial);

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
      if (note && !guided(state)) noteSeen(seed, deal, note.kind); // the statistics count every one
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

// The player's move of a review entry, in the past ("Descartaste el 4 de tréboles").
const PLAYED_KEYS = {
  take: "coach.played.take",
  pass: "coach.played.pass",
  draw_stock: "coach.played.draw_stock",
  draw_discard: "coach.played.draw_discard",
  discard: "coach.played.discard",
  knock: "coach.played.knock",
};

function playedText(t, action) {
  const kind = action.type === "draw" ? `draw_${action.from}` : action.type;
  return PLAYED_KEYS[kind] ? t(PLAYED_KEYS[kind], { card: action.card ? theCard(t, action.card) : "" }) : "";
}

// Decisions under a point are matters of taste: not listed.
const SUMMARY_MIN = 1;
const SUMMARY_SIZE = 3;

// A deal just ended with the coach on: Difícil's review of that deal (not
// queued: the computer waits for "Siguiente" anyway), its costliest decisions.
export function askSummary(call, state, draw) {
  const result = state.ui.result;
  if (!result || !state.save || !state.view) return;
  const seed = state.view.seed;
  const save = state.save;
  const summary = { seed, deal: result.number, items: null, failed: false };
  state.ui.coachSummary = summary;
  if (!guided(state)) dealEnded(seed, result.number);
  asking = call("review", { save, deals: [result.number, result.number] })
    .then((review) => {
      summary.items = review.differing
        .filter((d) => d.cost !== null && d.cost >= SUMMARY_MIN)
        .sort((a, b) => b.cost - a.cost || a.step - b.step)
        .slice(0, SUMMARY_SIZE);
    })
    .catch((err) => {
      console.warn("coach summary:", err);
      summary.failed = true;
    })
    .then(() => draw());
}

// The summary on the deal result, or null.
export function coachSummary(view, ui) {
  const s = ui.coachSummary;
  if (!s || !on(ui) || !ui.result || s.seed !== view.seed || s.deal !== ui.result.number) return null;
  const { t } = ui;
  const head = el("h3", { text: t("coach.summary_title") });
  let body;
  if (s.failed) body = el("p", { text: t("review.failed") });
  else if (!s.items) body = el("p", { role: "status", text: t("coach.summary_loading") });
  else if (!s.items.length) body = el("p", { text: t("coach.summary_none") });
  else
    body = el(
      "ol",
      { class: "coach-summary-list" },
      s.items.map((d) => {
        const gin = d.hard.type === "knock" && d.reason === "gin_available";
        const text = t("coach.summary_item", {
          played: playedText(t, d.human),
          better: hintAction(t, d.hard, gin),
          cost: points(t, Math.round(d.cost)),
        });
        return el(
          "li",
          { dataset: { step: d.step, cost: d.cost } },
          el("span", { text }),
          " ",
          intentButton(t("coach.summary_watch"), "coachWatch", {
            class: "btn ghost",
            key: `coach-watch:${d.step}`,
            dataset: { step: d.step, deal: s.deal },
            "aria-label": `${t("coach.summary_watch")}: ${text}`,
          }),
        );
      }),
    );
  return el("section", { class: "coach-summary", dataset: { key: "coach-summary" } }, head, body);
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

// The coach's intents: dismiss the note, turn the coach off (from the note),
// and the menu's switch.
// watchAt(deal, step, key): the replay viewer on that deal at that step,
// the focus back on `key` when it closes.
export function coachIntents({ state, draw, persistSettings, watchAt }) {
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
    coachWatch({ step, deal }) {
      if (!state.save || state.ui.panel !== "deal") return;
      watchAt(Number(deal), Number(step), `coach-watch:${step}`);
    },
  };
}

// The menu's switch.
export function coachSwitch(t, settings) {
  return checkField("menu-coach", "coach", "coach", t("menu.coach"), settings.coach);
}
