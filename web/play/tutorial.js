// The guided first deal: one fixed deal (seed GUIDE_SEED against Fácil)
// whose cards show each idea once when the player follows the guide: the
// upcard choice, a draw from the pile that completes a meld, a safe discard,
// a knock (tests/e2e/test_tutorial.py plays it; the seed was found by a
// search in CPython, see bench/README.md). At each of the player's decisions
// a bar says what the step is about in one sentence, with Difícil's hint and
// its mark on the move; the coach is on. Offered once, on the first visit
// (no settings, no match, no seed in the address), and from the rules page.
// Skippable at any moment; once finished or skipped it is not offered again.
// The guided match is never saved over the player's match, never put in
// the address and never counted in the statistics (controller.js asks
// guided()); when it ends the page opens what it would have opened before.
// Its bar over the table is table/tutorial-bar.js.

import { GUIDE_SEED } from "../model/seed.js";
import { KEYS } from "../data/keys.js";
import { localBackend, readText, writeText } from "../data/local.js";
import { hintTargetOf } from "./hints.js";

const GUIDE_RULES = { profile: "traditional", level: "easy" };

// "done" | "skipped" (keys.js); blocked storage: it may be offered again next time.
const readFlag = () => readText(localBackend(), KEYS.tutorial);
const writeFlag = (value) => writeText(localBackend(), KEYS.tutorial, value);

// At boot, before anything is written: is this the first visit?
export function firstVisit(storage, hash) {
  if (readFlag() || /(^|[#&])seed=/.test(hash || "")) return false;
  return Object.keys(storage.readSettings() || {}).length === 0 && storage.readMatch().status === "none";
}

export const guided = (state) => Boolean(state.ui.tutorial);

export function stepKind(view, hint) {
  if (view.phase.startsWith("upcard")) return "upcard";
  if (view.phase === "draw") return hint.reason === "completes_meld" ? "pile_meld" : "draw";
  if (hint.action.type === "knock" || hint.action.type === "big_gin") return "knock";
  return hint.reason === "safe_discard" || hint.reason === "opponent_picked" ? "safe" : "discard";
}

// deps: {state (app.js), controller (runTask, call, startMatch, reopen), render, notify}.
// Returns {start, end, tick, intents, finish}.
export function createTutorial({ state, controller, render, notify }) {
  const tut = {
    state, // the page's shared state (app.js); state.ui.tutorial is the deal under way
    controller, // play/controller.js
    render, // app.js's render funnel
    notify, // a notice over the felt (play/notices.js)
    asked: "", // the decision the bar's hint was asked for ("seed:actions")
  };
  return {
    start: () => start(tut),
    end: (flag) => end(tut, flag),
    tick: () => tick(tut),
    intents: {
      tutorialStart: () => start(tut),
      tutorialSkip: () => end(tut, "skipped"),
      tutorialNo: () => turnDown(tut),
    },
    finish: () => end(tut, "done"),
  };
}

function start(tut) {
  const { state } = tut;
  state.ui.menuOpen = false;
  state.ui.panel = null;
  state.ui.tutorialOffer = false;
  state.ui.tutorial = { step: 0, kind: null, hint: null, finished: false };
  tut.asked = "";
  tut.controller.runTask(() => tut.controller.startMatch(GUIDE_SEED, GUIDE_RULES));
}

function end(tut, flag) {
  const { state } = tut;
  if (!state.ui.tutorial) return;
  writeFlag(flag);
  state.ui.tutorial = null;
  if (flag === "done") tut.notify("tutorial.finished", "info");
  state.ui.hintTarget = null;
  state.ui.message = null;
  tut.controller.runTask(() => tut.controller.reopen());
}

function turnDown(tut) {
  tut.state.ui.tutorialOffer = false;
  writeFlag("skipped");
  tut.render();
}

// After each render: at a new decision of the player, Difícil's hint for the
// bar (not queued: it only reads; a stale answer is dropped).
function tick(tut) {
  const { state } = tut;
  const guide = state.ui.tutorial;
  const view = state.view;
  if (!guide || !view || state.busy || view.over || view.to_act !== 0 || view.seed !== GUIDE_SEED) return;
  if (view.deal_number !== 1 || state.ui.panel) return;
  const key = `${view.seed}:${state.save ? state.save.actions.length : 0}`;
  if (key === tut.asked) return;
  tut.asked = key;
  tut.controller
    .call("hint", {})
    .then(({ hint }) => {
      if (state.ui.tutorial !== guide || tut.asked !== key) return;
      guide.step += 1;
      guide.hint = hint;
      guide.kind = stepKind(view, hint);
      const a = hint.action;
      state.ui.hintTarget = hintTargetOf(a, view.discard_deadwood || {});
      // Marked, not chosen (as Pista): the hand's Tab stop is the card marked.
      if (a.type === "discard") state.ui.rover = a.card;
      tut.render();
    })
    .catch(() => {
      tut.asked = ""; // e.g. the computer's turn after all: asked again later
    });
}
