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

// game: the controller (play, call, startMatch, reopen); the rest as intents.
export function createTutorial({ state, game, draw }) {
  let asked = ""; // the decision the hint was asked for

  function start() {
    state.ui.menuOpen = false;
    state.ui.panel = null;
    state.ui.tutorialOffer = false;
    state.ui.tutorial = { step: 0, kind: null, hint: null, finished: false };
    asked = "";
    game.play(() => game.startMatch(GUIDE_SEED, GUIDE_RULES));
  }

  function end(flag) {
    if (!state.ui.tutorial) return;
    writeFlag(flag);
    state.ui.tutorial = null;
    if (flag === "done" && !state.notices.some((n) => n.key === "tutorial.finished"))
      state.notices.push({ key: "tutorial.finished", kind: "info" });
    state.ui.hintTarget = null;
    state.ui.message = null;
    game.play(() => game.reopen());
  }

  // After each draw: at a new decision of the player, Difícil's hint for the
  // bar (not queued: it only reads; a stale answer is dropped).
  function tick() {
    const tut = state.ui.tutorial;
    const view = state.view;
    if (!tut || !view || state.busy || view.over || view.to_act !== 0 || view.seed !== GUIDE_SEED) return;
    if (view.deal_number !== 1 || state.ui.panel) return;
    const key = `${view.seed}:${state.save ? state.save.actions.length : 0}`;
    if (key === asked) return;
    asked = key;
    game
      .call("hint", {})
      .then(({ hint }) => {
        if (state.ui.tutorial !== tut || asked !== key) return;
        tut.step += 1;
        tut.hint = hint;
        tut.kind = stepKind(view, hint);
        const a = hint.action;
        const targets = { take: "take", pass: "pass", big_gin: "big_gin", discard: `card:${a.card}` };
        let target = targets[a.type] || null;
        if (a.type === "draw") target = a.from === "discard" ? "discard" : "stock";
        if (a.type === "knock") target = (view.discard_deadwood || {})[a.card] === 0 ? "gin" : "knock";
        state.ui.hintTarget = target;
        if (a.type === "discard" || a.type === "knock") state.ui.selected = a.card;
        draw();
      })
      .catch(() => {
        asked = ""; // e.g. the computer's turn after all: asked again later
      });
  }

  const intents = {
    tutorialStart: start,
    tutorialSkip: () => end("skipped"),
    tutorialNo() {
      state.ui.tutorialOffer = false;
      writeFlag("skipped");
      draw();
    },
  };
  return { start, end, tick, intents, finish: () => end("done") };
}
