// Entrenador (the coach): after each of the player's decisions, when the
// setting is on, the engine's `coach` (gin/coach.py) says whether Difícil
// thinks it cost more than its threshold; if so a short note appears near
// the hand: the better move, why, and the seeds' advice that applies. It
// never holds the game up: the request goes after the move, beside the
// computer's turn, and the note is a status line, not a dialog. The same
// advice is not given twice in a deal. The note can be dismissed or the
// coach turned off from it. When a deal ends, the deal result lists the
// deal's costliest decisions (Difícil's review of that deal), each opening
// the replay viewer at its step. What the table shows of it:
// table/coach-views.js; its sentences: text/coach-words.js.

import { coachText } from "../text/coach-words.js";
import { dealEnded, noteSeen } from "../data/coachlog.js";
import { guided } from "./tutorial.js";

const given = new Map(); // "seed:deal" -> the advice codes already given in that deal
let asking = Promise.resolve(); // the last coach request (for tests: ginApp.idle waits on it)

export const coachIdle = () => asking;

// On by the setting, and always in the guided deal (tutorial.js).
export function coaching(state) {
  return state.settings.coach === true || Boolean(state.ui.tutorial);
}

// After an `act` sent with {coach: true}: ask for the note of that decision
// (not queued behind the computer's turn: the worker answers it first) and
// show it if there is one and its advice was not given yet in this deal.
export function askCoach(call, state, result, render, announce) {
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
      render();
      return note;
    })
    .catch((err) => {
      console.warn("coach:", err);
      return null;
    });
  return asking;
}

// Decisions under a point are matters of taste: not listed.
const SUMMARY_MIN = 1;
const SUMMARY_SIZE = 3;

// A deal just ended with the coach on: Difícil's review of that deal (not
// queued: the computer waits for "Siguiente" anyway), its costliest decisions.
export function askSummary(call, state, render) {
  const result = state.ui.result;
  if (!result || !state.save || !state.view) return;
  const seed = state.view.seed;
  const save = state.save;
  const summary = { seed, deal: result.number, items: null, undercut: [], failed: false };
  state.ui.coachSummary = summary;
  if (!guided(state)) dealEnded(seed, result.number);
  asking = call("review", { save, deals: [result.number, result.number] })
    .then((review) => {
      summary.items = review.differing
        .filter((d) => d.cost !== null && d.cost >= SUMMARY_MIN)
        .sort((a, b) => b.cost - a.cost || a.step - b.step)
        .slice(0, SUMMARY_SIZE);
      // A knock undercut is priced even when Difícil advised it (its estimates say it cost nothing).
      summary.undercut = review.undercut_knocks || [];
    })
    .catch((err) => {
      console.warn("coach summary:", err);
      summary.failed = true;
    })
    .then(() => render());
}

// The coach's intents (play/intents.js): dismiss the note, turn the coach
// off (from the note), the menu's switch, and a decision of the deal summary
// opened in the replay viewer (ctx.watchAt(deal, step, key): the focus back on
// `key` when it closes).

// The note's buttons go away with it: the focus goes back to the hand.
const backToHand = (state) => (state.ui.rover ? `card:${state.ui.rover}` : "menu");

function setCoach(ctx, on) {
  ctx.state.settings.coach = on;
  if (!on) ctx.state.ui.coach = null;
  ctx.controller.persistSettings();
  ctx.render();
}

export const COACH_INTENTS = {
  coachDismiss(ctx) {
    ctx.state.ui.coach = null;
    ctx.state.ui.focus = backToHand(ctx.state);
    ctx.render();
  },
  coachOff(ctx) {
    ctx.state.ui.focus = backToHand(ctx.state);
    setCoach(ctx, false);
  },
  coach: (ctx, { value }) => setCoach(ctx, Boolean(value)),
  coachWatch(ctx, { step, deal }) {
    if (!ctx.state.save || ctx.state.ui.panel !== "deal") return;
    ctx.watchAt(Number(deal), Number(step), `coach-watch:${step}`);
  },
};
