// The game controller: the one queue of engine calls, the computer's turns,
// autosave (the match, and the selection or open knock panel beside it),
// opening or resuming a match, and the page's start. It changes the shared
// state and asks the composition root to render; it never touches the DOM.
// Its state is one record (createController below); every function here
// takes it first, and the factory only wires them.

import { createFinished, NotSaved } from "../data/finished.js";
import { createEngine, EngineError, REVIEW_ROLE } from "../runtime/engine.js";
import { GUIDE_SEED, newSeed, normalizeSeed, seedFromHash } from "../model/seed.js";
import { newMatchRules, rulesHash } from "../model/variants.js";
import { linkRules } from "../model/challenge.js";
import { computerMove } from "../text/words.js";
import { restoredKnock } from "../model/knock.js";
import { SPEED_DELAY_MS } from "../model/settings.js";
import { askCoach, askSummary, coaching } from "./coach.js";
import { guided } from "./tutorial.js";
import { askDuplicate } from "./luck.js";
import { followMatch } from "./daily.js";
import { dayOfSeed } from "../model/daily.js";
import { createTabs } from "../data/tabs.js";
import { HOLD_ENGINE_KEY } from "../data/keys.js";
import { keepDuplicate } from "../data/duplicates.js";
import { openElsewhereSheet, openLinkSheet } from "../screens/questions.js";

// Engine refusals: shown as a short message, the table stays as it was.
const REFUSALS = new Set([
  "must_draw_first",
  "cannot_discard_taken_upcard",
  "deadwood_too_high",
  "not_your_turn",
  "invalid_melds",
  "game_over",
  "must_take_or_pass",
  "must_draw_from_stock",
  "already_drawn",
  "card_not_in_hand",
  "not_upcard_phase",
  "big_gin_not_allowed",
  "not_big_gin",
  "bad_action",
  "empty_discard_pile",
]);

// deps: {state (app.js's shared state), storage (data/storage.js), render(mode),
// announce(text), notify(key, kind, vars), onReady(value), settled(), painted(), quiet()}.
export function createController({ state, storage, render, announce, notify, onReady, settled = async () => {}, painted = async () => {}, quiet = async () => {} }) {
  const ctrl = {
    state, // the page's shared state (app.js): view, save, ui, settings...
    storage, // the player's data (data/storage.js)
    render, // app.js's render funnel: render(), render("busy"), render("settle"), render("boot")
    announce, // a line for the screen reader's log
    notify, // a notice over the table, once per key
    onReady, // resolves window.ginReady once a match is on screen
    settled, // resolves once no card moves on the table (table/motion.js)
    painted, // resolves once what was rendered is on screen (app.js)
    quiet, // resolves at an idle moment once the deal result panel is shown (app.js)
    engine: null, // the page's engine (runtime), replaced when it dies
    generation: 0, // bumps on every new match: stale computer loops stop
    work: Promise.resolve(), // the chain of engine calls; idle() waits on it
    keptUi: "", // the UI state last written beside the save (keepUi)
    counted: "", // the match and deals last handed to finished.count
    finished: null, // finished matches and statistics (data/finished.js)
    tabs: null, // which tab plays the match (data/tabs.js)
    elsewhere: null, // the sheet saying the match is open in another tab
    linkAsked: null, // a link to ask about once the table is up (start): {seed, rules, elsewhere}
    pendingStep: null, // {mine, before, answer}: the computer's step asked of the engine, not shown yet
    restart: null, // the engine's replacement under way (engineDied)
    // The saves (their text) an engine died loading: set aside, never loaded
    // again (a save that kills the engine would kill its replacement too).
    killers: new Set(),
    // The table before the engine (issue 33): {json, opened} of the saved
    // view drawn while the engine starts, until the engine's view replaces it.
    waking: null,
    wakeAgreed: false, // the engine's view was the one drawn while waking (a queued move may play)
    queued: null, // the move asked while waking, until it is played or refused (moveTask)
  };
  // Engine calls outside the match's queue, since they never touch the current match.
  ctrl.finished = createFinished(storage, (method, params) => ctrl.engine.call(method, params));
  // A tab that lost the match writes nothing of it (data/storage.js asks before every write).
  ctrl.tabs = createTabs({ onLost: (seed) => lostMatch(ctrl, seed) });
  storage.setOwner(ctrl.tabs.owns);
  return {
    act: (action, after) => act(ctrl, action, after),
    runTask: (task) => runTask(ctrl, task),
    // A move that needs the engine (a knock confirmed...): queued while waking.
    moveTask: (task) => moveTask(ctrl, task),
    playOn: () => playOn(ctrl),
    accept: (result) => accept(ctrl, result),
    acknowledge: (number) => acknowledge(ctrl, number),
    startMatch: (seed, rules) => startMatch(ctrl, seed, rules),
    // What the page would open at start (the guided deal's end).
    reopen: () => {
      ctrl.generation++;
      return openMatch(ctrl);
    },
    setMessage: (kind, code, text) => setMessage(ctrl, kind, code, text),
    refuseLocally: (code) => refuseLocally(ctrl, code),
    persistSettings: () => persistSettings(ctrl),
    keepUi: () => keepUi(ctrl),
    start: () => start(ctrl),
    call: (method, params) => ctrl.engine.call(method, params),
    // An extra engine for the viewer's review (the caller terminates it).
    reviewEngine: () => createEngine({ role: REVIEW_ROLE }),
    finished: ctrl.finished,
    followLink: (wanted, rules, ask) => followLink(ctrl, wanted, rules, ask),
    // The match on the table looked at again (a challenge just received for it).
    followMatch: () => {
      ctrl.state.ui.followed = null;
      followMatch(ctrl.state, storage, ctrl.tabs.owns());
    },
    openMatches: () => openMatches(ctrl),
    storage,
    resumeMatch: (seed) => runTask(ctrl, () => openSeed(ctrl, seed)),
    idle: () => (ctrl.restart ? ctrl.restart.then(() => ctrl.work) : ctrl.work),
  };
}

// --- what is kept beside the save -----------------------------------------------

// The selection and an open knock panel (with the player's edits) are kept
// beside the save, for the position they belong to, so a reload comes back
// to the same screen.
function keepUi(ctrl) {
  const { state, storage } = ctrl;
  if (guided(state)) return; // the guided deal keeps nothing (tutorial.js)
  if (!state.view || !state.save || !Array.isArray(state.save.actions) || !storage.available) return;
  const draft = state.ui.panel === "knock" ? state.ui.knock : null;
  const value = {
    seed: state.view.seed,
    actions: state.save.actions.length,
    selected: state.ui.selected,
    order: state.ui.order,
    knock: draft ? { type: draft.type, card: draft.card, melds: draft.melds } : null,
  };
  const text = JSON.stringify(value);
  if (text !== ctrl.keptUi && storage.writeUi(value)) ctrl.keptUi = text;
}

function restoreUi(ctrl) {
  const { state } = ctrl;
  const kept = ctrl.storage.readUi();
  const view = state.view;
  // The hand order belongs to the deal, whoever is to move.
  const order = kept && kept.order;
  if (view && order && order.seed === view.seed && order.deal === view.deal_number && Array.isArray(order.cards))
    state.ui.order = { seed: order.seed, deal: order.deal, cards: order.cards.filter((c) => typeof c === "string") };
  if (!kept || !view || !state.save || state.ui.panel || view.over || view.to_act !== 0) return;
  if (kept.seed !== view.seed || kept.actions !== (state.save.actions || []).length) return;
  if (typeof kept.selected === "string" && view.hand.includes(kept.selected)) {
    state.ui.selected = kept.selected;
    state.ui.focus = `card:${kept.selected}`;
  }
  const draft = kept.knock ? restoredKnock(state.view, kept.knock) : null;
  if (draft) {
    state.ui.knock = draft;
    state.ui.panel = "knock";
    state.ui.focus = "confirm";
  }
}

function persistSettings(ctrl) {
  if (!ctrl.storage.writeSettings(ctrl.state.settings) && ctrl.storage.available) ctrl.notify("storage.full", "warning");
}

function persistMatch(ctrl, save) {
  if (!save) return;
  const { state, storage } = ctrl;
  state.save = save;
  // told once at start-up; another tab plays it; the guided deal is not kept
  if (!storage.available || guided(state) || !ctrl.tabs.owns()) return;
  if (!storage.writeMatch(save, Boolean(state.view && state.view.over))) ctrl.notify("storage.full", "warning");
  else if (state.view && Array.isArray(save.actions)) storage.writeShown(save.seed, save.actions.length, state.view);
}

// Keep the URL naming the current match's seed, so a reload (or a shared
// link) lands on the same match.
function showSeedInUrl(ctrl, seed, rules) {
  const hash = `#seed=${encodeURIComponent(seed)}${rules ? rulesHash(rules) : ""}`;
  if (guided(ctrl.state)) return; // a reload leaves the guided deal
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

// --- the engine's answers -------------------------------------------------------

function accept(ctrl, result) {
  const { state } = ctrl;
  ctrl.pendingStep = null; // a step asked before this answer belongs to an older position
  if (result.view) state.view = result.view;
  if (result.save) persistMatch(ctrl, result.save);
  if (state.view) showSeedInUrl(ctrl, state.view.seed, state.view.rules);
  noticeFinishedDeal(ctrl);
  followMatch(state, ctrl.storage, ctrl.tabs.owns() && !guided(state)); // the day's result, the challenges (play/daily.js)
  // Statistics count each deal when it ends and the match when it ends (a
  // finished match is kept too). finished.js knows each by its seed, rules
  // and actions: a reload, the end screen again or an older save adds
  // nothing, so the page's first view of a match counts it too (a deal
  // that ended just before the page was closed).
  if (!state.view || !result.save || guided(state) || !ctrl.tabs.owns()) return; // the guided deal never counts
  const ended = state.view.history.length;
  const key = ended ? `${state.view.seed}:${ended}` : ""; // "" again at a new match's first deal
  if (ended && (key !== ctrl.counted || state.view.over)) {
    const save = result.save;
    enqueue(ctrl, () => ctrl.finished.count(save)).catch((err) => finishedFailed(ctrl, err));
  }
  ctrl.counted = key;
}

// The statistics or a finished match could not be written: told like the
// match's own failed save; anything else is the engine's (a dead worker is
// told by its replacement).
function finishedFailed(ctrl, err) {
  if (err instanceof NotSaved) ctrl.notify(err.key, "warning");
  else console.warn("finished:", err);
}

// A deal that ends starts the next at once: the result panel shows the
// finished one (history grows) and holds the computer until "Siguiente".
function noticeFinishedDeal(ctrl) {
  const { state } = ctrl;
  const view = state.view;
  if (!view) return;
  const count = view.history.length;
  if (count > state.ui.seenDeals) {
    state.ui.seenDeals = count;
    state.ui.result = view.history[count - 1];
    state.ui.panel = "deal";
    state.ui.knock = null;
    state.ui.selected = null;
    state.ui.focus = "next";
    if (coaching(state)) askSummary((m, p) => ctrl.engine.call(m, p), state, ctrl.render);
    replayByHard(ctrl);
  } else if (count < state.ui.seenDeals) {
    state.ui.seenDeals = count; // a new match
  }
}

// A fresh view from a new or loaded match: nothing selected, nothing to
// replay. A deal result the player has not closed yet (the page reloaded
// while it was shown, or before it could be) opens again; a finished match
// shows its result.
function resetUi(ctrl, acknowledged = Infinity) {
  const { state } = ctrl;
  const view = state.view;
  const count = view ? view.history.length : 0;
  const pending = count && view.history[count - 1].number > acknowledged ? view.history[count - 1] : null;
  const panel = pending ? "deal" : view && view.over ? "match" : null;
  Object.assign(state.ui, {
    selected: null,
    panel,
    knock: null,
    result: pending,
    seenDeals: count,
    focus: panel === "deal" ? "next" : panel === "match" ? "again" : null,
    message: null,
    hintTarget: null,
    lastComputer: null,
    rover: null,
    order: null,
    levelNote: false,
    duplicate: null,
    opened: (state.ui.opened || 0) + 1, // a deal on the table now is dealt anew (table/motion.js, table/cues.js)
  });
  // Not while the saved table waits for the engine: an extra engine would
  // compete with the page's own boot (wakeUp asks once the match is open).
  if (pending && !state.ui.waking) replayByHard(ctrl);
}

// Difícil with your cards on the deal result just shown (play/luck.js), on
// an extra engine: the page's own stays free for the player's moves.
// Its record is kept for Estadísticas (data/duplicates.js) by the tab that
// plays the match.
function replayByHard(ctrl) {
  const onRecord = (record) => {
    if (!ctrl.tabs.owns()) return;
    keepDuplicate(ctrl.storage, (m, p) => ctrl.engine.call(m, p), record).catch((err) => console.warn("duplicate kept:", err));
  };
  askDuplicate({ makeEngine: () => createEngine({ role: REVIEW_ROLE }), later: ctrl.quiet, state: ctrl.state, render: ctrl.render, onRecord });
}

// The player closed the result of deal `number` (0: a new match): a reload
// must not show it again, nor miss one not closed yet.
function acknowledge(ctrl, number) {
  const { state, storage } = ctrl;
  if (state.view && storage.available && !guided(state)) storage.writeAcknowledged(state.view.seed, number);
}

// Every engine call goes through here, one at a time, in order.
function enqueue(ctrl, task) {
  const run = ctrl.work.then(task, task);
  ctrl.work = run.catch(() => {});
  return run;
}

// --- opening a match ------------------------------------------------------------

// rules: {profile, options} (a link's, or the match replayed), else the
// settings'; with a level (the guided deal: fixed rules and level).
async function startMatch(ctrl, seed, rules = null) {
  const { state } = ctrl;
  ctrl.generation++;
  if (seed !== GUIDE_SEED) state.ui.tutorial = null; // any other match ends the guided deal
  const { profile, options = {} } = rules || newMatchRules(state.settings);
  const level = (rules && rules.level) || state.settings.level;
  await ctrl.tabs.claim(seed);
  const result = await ctrl.engine.call("new_match", { seed, profile, options, level });
  state.ui.seenDeals = 0;
  accept(ctrl, result);
  acknowledge(ctrl, 0);
  resetUi(ctrl);
  state.ui.profileNote = false;
}

// The save kept for `seed`: the current one, or one left unfinished.
function savedFor(ctrl, seed, stored = ctrl.storage.readMatch()) {
  if (stored.status === "ok" && String(stored.save.seed).toUpperCase() === seed) return stored.save;
  const open = ctrl.storage.openMatches().find((m) => m.seed.toUpperCase() === seed);
  return open ? open.save : null;
}

// Load a save into the engine and the page; false when the engine refuses
// it (then it goes aside, never lost).
async function resume(ctrl, save, raw = JSON.stringify(save)) {
  const { state, storage } = ctrl;
  if (ctrl.killers.has(raw)) {
    // It killed the engine before: aside (kept, told), not loaded again.
    storage.setAsideMatch(raw);
    ctrl.notify("storage.broken", "warning");
    return false;
  }
  try {
    const loaded = await ctrl.engine.call("load", { save });
    ctrl.generation++;
    tellLostMoves(ctrl, loaded.view.seed, (save.actions || []).length); // before accept() saves again
    state.ui.seenDeals = loaded.view.history.length;
    accept(ctrl, loaded);
    // A save from before this was kept has nothing pending.
    resetUi(ctrl, storage.readAcknowledged(loaded.view.seed) ?? Infinity);
    restoreUi(ctrl);
    return true;
  } catch (err) {
    // bad_save, or any other failure to replay it: a save must never keep
    // the page from opening, so it goes aside and a new match starts. The
    // engine died on it: its replacement sets it aside (above).
    if (err instanceof EngineError && err.code === "engine_dead") ctrl.killers.add(raw);
    if (!(err instanceof EngineError) || err.code === "not_ready" || err.code === "engine_dead") throw err;
    storage.setAsideMatch(raw);
    ctrl.notify("storage.broken", "warning");
    return false;
  }
}

// After a reload: the match could not be saved at its last moves.
function tellLostMoves(ctrl, seed, saved) {
  const lost = ctrl.storage.lost();
  if (!lost || lost.seed !== String(seed)) return;
  ctrl.storage.forgetLost();
  if (lost.reached > saved) ctrl.notify("storage.lost_moves", "warning", { n: lost.reached - saved });
}

// Play `seed` in this tab: its kept save if there is one, else from its
// first deal. Another tab playing it: shown, with "Jugar aquí".
// A kept save the engine refuses goes aside and `seed` starts from its
// first deal (a new seed instead when `orNew`: the seed came from that save).
// rules: the link's {profile, options} for a match not kept here (else the settings').
async function openSeed(ctrl, seed, stored = ctrl.storage.readMatch(), orNew = false, rules = null) {
  if (!(await ctrl.tabs.claim(seed))) {
    const save = savedFor(ctrl, seed, stored);
    if (save) await resume(ctrl, save).catch(() => {});
    showElsewhere(ctrl, seed);
    return;
  }
  const save = savedFor(ctrl, seed, stored);
  if (save && (await resume(ctrl, save, stored.status === "ok" && stored.save === save ? stored.raw : undefined))) return;
  await startMatch(ctrl, orNew ? newSeed() : seed, orNew ? null : rules);
}

// Resume the saved match if there is one (and it is the URL's seed, when
// the URL names one); otherwise the URL's match (kept or new) or a new one.
// A link to another match while this one is unfinished asks first.
async function openMatch(ctrl) {
  const { storage } = ctrl;
  const wanted = seedFromHash(location.hash);
  const stored = storage.readMatch();
  if (stored.status === "corrupt") {
    storage.setAsideMatch(stored.raw);
    ctrl.notify("storage.broken", "warning");
  }
  const current = stored.status === "ok" ? normalizeSeed(String(stored.save.seed)) : null;
  if (stored.status === "ok" && !current) {
    storage.setAsideMatch(stored.raw); // no seed to play it by
    ctrl.notify("storage.broken", "warning");
  }
  if (current && (!wanted || current === wanted)) return openSeed(ctrl, current, stored, !wanted);
  const rules = wanted ? linkRules(location.hash) : null;
  if (current && wanted && (await ctrl.tabs.claim(current)) && (await resume(ctrl, stored.save, stored.raw)) && !ctrl.state.view.over) {
    ctrl.linkAsked = { seed: wanted, rules }; // asked once the table is up (start)
    return;
  }
  // A link opened in a new tab while another tab plays an unfinished match:
  // that match is shown here (not played) and the link asks too.
  if (current && wanted && !ctrl.tabs.owns() && (await resume(ctrl, stored.save, stored.raw).catch(() => false)) && !ctrl.state.view.over) {
    ctrl.generation++; // not this tab's to play
    ctrl.linkAsked = { seed: wanted, rules, elsewhere: true };
    return;
  }
  try {
    await openSeed(ctrl, wanted || newSeed(), storage.readMatch(), false, rules);
  } catch (err) {
    if (!wanted || !(err instanceof EngineError) || err.code === "engine_dead") throw err;
    await startMatch(ctrl, newSeed()); // the URL's seed was refused by the engine
  }
}

// A link (or a typed hash, or a day of the calendar) names another match
// than the one on the table. With a match in progress it asks: open it
// (this one is kept and can be resumed from "Partidas"), open it and drop
// this one, or stay. rules: {profile, options, level?}; ask: "daily" for a
// day of the calendar (the question names it so). `elsewhere`: the match on
// the table is another tab's (a link opened in a new tab): it asks too,
// without "drop" (that tab plays it); staying shows "Jugar aquí".
function followLink(ctrl, wanted, rules = null, ask = null, elsewhere = false) {
  const { state } = ctrl;
  if (!state.view || wanted === state.view.seed) return;
  // A day's link (#seed=DIA-…), at the start or typed, asks as the day's.
  if (!ask && dayOfSeed(wanted)) ask = "daily";
  const current = state.view.seed;
  const go = (drop) => {
    runTask(ctrl, async () => {
      await openSeed(ctrl, wanted, undefined, false, rules);
      if (drop) ctrl.storage.dropOpen(current);
    });
  };
  if (state.view.over || (!elsewhere && !ctrl.tabs.owns())) return go(false);
  openLinkSheet({
    t: () => state.t,
    current,
    wanted,
    elsewhere,
    ask,
    onOpen: () => go(false),
    onDrop: elsewhere ? null : () => go(true),
    onStay: () => (elsewhere ? showElsewhere(ctrl, current) : showSeedInUrl(ctrl, current)),
  });
}

// The other tab took this match over (or had it first): the table waits
// behind a sheet that says so until "Jugar aquí", which takes it back with
// what the other tab saved.
function showElsewhere(ctrl, seed) {
  ctrl.generation++; // the computer's loop stops here
  if (ctrl.elsewhere && !ctrl.elsewhere.closed) return;
  ctrl.elsewhere = openElsewhereSheet({
    t: () => ctrl.state.t,
    onTake: () =>
      enqueue(ctrl, async () => {
        await ctrl.tabs.claim(seed, { steal: true });
        const save = savedFor(ctrl, seed);
        if (!save || !(await resume(ctrl, save))) await startMatch(ctrl, seed);
        ctrl.render();
      }).then(() => playOn(ctrl)),
  });
  ctrl.render();
}

function lostMatch(ctrl, seed) {
  if (ctrl.state.view && ctrl.state.view.seed === seed) showElsewhere(ctrl, seed);
}

// Unfinished matches kept besides this one, for "Partidas": [{seed, at, save}].
function openMatches(ctrl) {
  const seed = ctrl.state.view && ctrl.state.view.seed;
  return ctrl.storage.openMatches().filter((m) => m.seed !== seed).reverse();
}

// --- the computer's turns -------------------------------------------------------

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// What the computer just did, as a move words.js can tell in either language:
// {type, from, card, gin}, from its action, the step's events and the view
// before it (the upcard it took was on the pile).
export function computerMoveOf(action, events, before) {
  const seen = (events || []).find((e) => e.seat === 1 && e.type === action.type) || {};
  const showdown = (events || []).find((e) => e.type === "showdown");
  const card = seen.card || action.card || (action.type === "take" ? before.discard.at(-1) : null) || null;
  return { type: action.type, from: action.from || null, card, gin: Boolean(showdown && showdown.kind === "gin") };
}

// While the menu or any dialog is open the computer waits.
const paused = (state) => state.ui.menuOpen || Boolean(state.ui.panel);

// The computer plays its turns one step at a time, rendering after each. The
// table paces it: a step shows once the pause of its speed has passed and
// the animation in front of it (the deal, the upcard turning, the player's
// discard, its own last move) has finished. The engine is asked at the
// start of the pause, so a slow decision costs the player nothing more.
// While the menu or any dialog is open it waits (leaves the queue, the
// step it was given kept for later) and goes on when it closes (the
// closing intents play on).
async function computerTurns(ctrl) {
  const { state } = ctrl;
  const mine = ctrl.generation;
  while (state.view && !state.view.over && state.view.to_act === 1 && mine === ctrl.generation && !paused(state)) {
    const pause = delay(SPEED_DELAY_MS[state.settings.speed] ?? SPEED_DELAY_MS.normal);
    if (!ctrl.pendingStep || ctrl.pendingStep.mine !== mine) {
      // Asked once what was just rendered (the player's move, the
      // computer's draw) is painted: not in that render's task, a phone's
      // frame already (issue 33); the pause covers it. Not asked of an
      // engine replaced meanwhile, nor for a match no longer on the table
      // (the loop stops below).
      const answer = ctrl.painted().then(() => (mine === ctrl.generation ? ctrl.engine.call("computer_step", {}) : null));
      answer.catch(() => {}); // awaited below; a failure reaches runTask()
      ctrl.pendingStep = { mine, before: state.view, answer };
    }
    const step = ctrl.pendingStep;
    try {
      await Promise.all([pause, ctrl.settled(), step.answer]);
    } catch (err) {
      if (ctrl.pendingStep === step) ctrl.pendingStep = null;
      throw err;
    }
    await ctrl.settled(); // anything that began meanwhile
    if (mine !== ctrl.generation || step !== ctrl.pendingStep) return;
    if (paused(state)) return; // shown when the menu or the dialog closes
    ctrl.pendingStep = null;
    showComputerStep(ctrl, step, await step.answer);
  }
}

function showComputerStep(ctrl, step, result) {
  const { state } = ctrl;
  accept(ctrl, result);
  const move = computerMoveOf(result.action, result.events, step.before);
  state.ui.lastComputer = move;
  // "Wait: it is the computer's turn" no longer holds.
  if (state.view.to_act !== 1 && state.ui.message && state.ui.message.code === "not_your_turn") state.ui.message = null;
  ctrl.render();
  // Told after the render: a line put in the live region first made the
  // render's first read (motion's) lay the page out for it alone (issue 33).
  ctrl.announce(computerMove(state.t, move));
}

// --- the player's moves and their refusals ----------------------------------------

// text: (t) => string, so the message follows a change of language.
function setMessage(ctrl, kind, code, text) {
  ctrl.state.ui.message = { kind, code, text };
  if (kind !== "hint") ctrl.announce(text(ctrl.state.t));
}

function refusalText(ctrl, code) {
  const view = ctrl.state.view;
  const limit = view ? view.knock_limit ?? view.rules.knock_limit : 10;
  return (t) => {
    const key = `error.${code}`;
    const text = t(key, { limit });
    return text === key ? t("error.generic") : text;
  };
}

// Every engine call that changes the game: one at a time, the table busy
// meanwhile, then the computer's turns. Refusals become a short message and
// leave the table exactly as it was.
function runTask(ctrl, task) {
  const { state } = ctrl;
  return enqueue(ctrl, async () => {
    state.busy = true;
    // The player's own move: nothing on the table changes yet (the render
    // comes with the engine's answer), only the busy mark. Else (the
    // computer to play on: the start, a panel closed) a full render only if
    // something besides the busy mark changed since the last one: at the
    // engine's first answer the table was just drawn (issue 33).
    ctrl.render(state.view && state.view.to_act === 0 && !state.ui.panel && !state.ui.menuOpen ? "busy" : "settle");
    try {
      await task();
      // What the task changed is on the table before the computer plays on
      // it: a new match's deal is dealt (and flies) first, and the computer
      // waits for it like for any motion in front of it.
      ctrl.render("settle");
      await computerTurns(ctrl);
    } catch (err) {
      failedTask(ctrl, err);
    } finally {
      state.busy = false;
      ctrl.render("settle");
    }
  });
}

// The computer moves if it is its turn (after a dialog closed, a new deal...).
function playOn(ctrl) {
  return runTask(ctrl, async () => {});
}

function failedTask(ctrl, err) {
  const { state } = ctrl;
  if (err.code === "engine_dead") {
    engineDied(ctrl);
  } else if (err.code && REFUSALS.has(err.code)) {
    setMessage(ctrl, "refusal", err.code, refusalText(ctrl, err.code));
  } else {
    ctrl.notify(err.code && state.t(`error.${err.code}`) !== `error.${err.code}` ? `error.${err.code}` : "error.generic", "error");
    console.error(err);
  }
}

function refuseLocally(ctrl, code) {
  setMessage(ctrl, "refusal", code, refusalText(ctrl, code));
  ctrl.render();
}

// The human's move. While the computer is playing, say so instead.
function act(ctrl, action, after = () => {}) {
  const { state } = ctrl;
  if (!state.view || state.ui.panel === "deal" || state.ui.panel === "match") return;
  if (state.busy) {
    if (state.view.to_act === 1) refuseLocally(ctrl, "not_your_turn");
    return;
  }
  return moveTask(ctrl, async () => {
    const before = state.view;
    const coached = coaching(state);
    const result = await ctrl.engine.call("act", coached ? { action, coach: true } : { action });
    state.ui.message = null;
    state.ui.hintTarget = null;
    state.ui.selected = null;
    state.ui.lastComputer = null;
    state.ui.dailyOffer = null; // the match is begun: the start's offer goes (play/daily.js)
    accept(ctrl, result);
    if (action.type === "draw" || action.type === "take") {
      const drawn = state.view.hand.find((c) => !before.hand.includes(c));
      state.ui.focus = drawn ? `card:${drawn}` : null;
    }
    after();
    ctrl.render();
    if (coached) askCoach((m, p) => ctrl.engine.call(m, p), state, result, ctrl.render, ctrl.announce); // not awaited
  });
}

// --- the engine's start and its replacement ---------------------------------------

// The worker died or stopped answering: a new one, and the match resumes
// from its autosave (what the table showed was saved move by move), unless
// that save is what killed it (ctrl.killers): then it goes aside and a new
// match starts. Gives the replacement's promise (settled once it is over).
function engineDied(ctrl) {
  ctrl.restart = ctrl.restart || replaceEngine(ctrl);
  return ctrl.restart;
}

function replaceEngine(ctrl) {
  const { state } = ctrl;
  const killers = ctrl.killers.size;
  ctrl.generation++;
  ctrl.notify("engine.restarted", "warning");
  if (ctrl.engine) ctrl.engine.terminate();
  ctrl.engine = createEngine({ fresh: true, onDead: () => engineDied(ctrl) });
  return ctrl.engine.ready
    .then(() =>
      enqueue(ctrl, async () => {
        const stored = ctrl.storage.readMatch();
        const seed = state.view ? state.view.seed : stored.status === "ok" ? String(stored.save.seed) : newSeed();
        // A save that killed an engine: aside, and a new match (not its seed again).
        await openSeed(ctrl, seed, stored, stored.status === "ok" && ctrl.killers.has(stored.raw));
      }),
    )
    .then(() => {
      ctrl.restart = null;
      playOn(ctrl);
    })
    .catch((err) => {
      ctrl.restart = null;
      // This one died loading the save: once more, and that save goes aside.
      if (err.code === "engine_dead" && ctrl.killers.size > killers) return engineDied(ctrl);
      state.boot.error = { code: err.code || "boot_failed", stage: err.stage || "start", detail: err.detail || String(err) };
      ctrl.render();
    });
}

// The page's start (and "Reintentar"): the engine boots, then the match
// the page opens (kept, linked or new) is put on the table.
async function start(ctrl) {
  const { state } = ctrl;
  if (ctrl.engine) ctrl.engine.terminate();
  state.boot = { stage: "start", error: null };
  // The saved table at once (wake draws it), else the boot screen: not the
  // boot screen first and the table over it in the same task (a phone's
  // first frame paid for both).
  wake(ctrl);
  if (!state.ui.waking) ctrl.render();
  const make = () =>
    createEngine({
      onProgress(stage) {
        state.boot.stage = stage;
        ctrl.render("boot");
      },
      onDead: () => engineDied(ctrl),
    });
  // A saved table drawn while boot.js held the worker back: the worker
  // starts once that table is on screen (on a slow phone the page and the
  // worker share one core, and the worker's start delayed the hand by
  // seconds). Otherwise it starts now (boot.js's, if it started one).
  ctrl.engine =
    state.ui.waking && !globalThis.ginEarlyWorker ? engineAfter(Promise.all([ctrl.painted(), heldByTest()]), make) : make();
  try {
    // The opening is first in the queue from the start, so a move asked
    // while waking (moveTask) is played after it, on the engine's view.
    const opened = enqueue(ctrl, async () => {
      await ctrl.engine.ready;
      const drawn = wokeUi(ctrl);
      await openMatch(ctrl);
      wakeUp(ctrl, drawn);
    });
    opened.catch(() => {}); // a failed start is told below
    const { timings } = await ctrl.engine.ready;
    if (!(await openedOrReplaced(ctrl, opened))) return;
    enqueue(ctrl, () => ctrl.finished.reconcile()).catch((err) => finishedFailed(ctrl, err));
    state.boot.stage = "ready";
    ctrl.render();
    const asked = ctrl.linkAsked;
    ctrl.linkAsked = null;
    if (!asked || !asked.elsewhere) playOn(ctrl); // the computer may be the one to move
    if (asked) followLink(ctrl, asked.seed, asked.rules, null, asked.elsewhere);
    Promise.resolve(navigator.storage?.persist?.()).catch(() => {}); // ask to keep our data under pressure
    ctrl.onReady({ timings, seed: state.view.seed, at: performance.now() });
    ctrl.engine.playable();
    registerServiceWorker();
  } catch (err) {
    console.error(err);
    unwake(ctrl); // the error screen, not a table that cannot play
    state.boot.error = { code: err.code || "boot_failed", stage: err.stage || state.boot.stage, detail: err.detail || String(err) };
    ctrl.render();
  }
}

// The start's match is open (true), or the engine died opening it and its
// replacement opened one (true) or said why not (false: the boot screen
// shows it). Any other failure is thrown.
async function openedOrReplaced(ctrl, opened) {
  try {
    await opened;
    return true;
  } catch (err) {
    if (err.code !== "engine_dead" || !ctrl.restart) throw err;
    unwake(ctrl); // the saved table was the save that killed it, maybe
    ctrl.render();
    await ctrl.restart;
    return Boolean(ctrl.state.view) && !ctrl.state.boot.error;
  }
}

// An engine whose worker starts once `first` settles (start): its calls,
// made before, wait for it, as a starting worker's do.
function engineAfter(first, make) {
  let engine = null;
  let stopped = false;
  const started = Promise.resolve(first).then(() => {
    if (stopped) throw new EngineError("not_ready", "terminated before it started");
    engine = make();
    return engine;
  });
  return {
    ready: started.then((e) => e.ready),
    call: (method, params) => started.then((e) => e.call(method, params)),
    playable: () => engine && engine.playable(),
    terminate() {
      stopped = true;
      if (engine) engine.terminate();
    },
  };
}

// A test hook, for the browsers whose drivers cannot hold a request back
// (tests/e2e/test_engines.py: Firefox over WebDriver BiDi, WebKit over
// WebDriver): when the tab's sessionStorage holds HOLD_ENGINE_KEY as the page
// opens, a saved table's engine worker starts only once the test calls
// window.ginReleaseEngine() — the engine of a very slow phone. One page
// load only (the key is taken out at once); nothing else reads it.
function heldByTest() {
  let held = null;
  try {
    held = sessionStorage.getItem(HOLD_ENGINE_KEY);
    if (held !== null) sessionStorage.removeItem(HOLD_ENGINE_KEY);
  } catch {
    return null; // no storage: nothing held
  }
  if (held === null) return null;
  return new Promise((resolve) => {
    window.ginReleaseEngine = () => {
      delete window.ginReleaseEngine;
      resolve();
    };
  });
}

// After the first boot, so precaching never competes with it.
function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("./sw.js").catch((err) => console.warn("service worker:", err));
}

// --- the table before the engine (issue 33) -----------------------------------------

// A returning player's table, drawn at once from the view kept beside the
// save (data/storage.js, KEYS.shown) while the engine starts: only when it
// names the save's seed and number of moves, and the page opens that match
// (no link to another). Input works on it (selection, arranging; a move is
// queued: moveTask); the engine's view replaces it when the match is open.
function wake(ctrl) {
  const { state, storage } = ctrl;
  if (state.view || guided(state)) return;
  const stored = storage.readMatch();
  if (stored.status !== "ok" || !Array.isArray(stored.save.actions)) return;
  const seed = normalizeSeed(String(stored.save.seed));
  const wanted = seedFromHash(location.hash);
  if (!seed || (wanted && wanted !== seed)) return;
  const shown = storage.readShown();
  if (!shown || shown.seed !== String(stored.save.seed) || shown.actions !== stored.save.actions.length) return;
  state.view = shown.view;
  state.save = stored.save;
  state.ui.waking = true;
  try {
    resetUi(ctrl, storage.readAcknowledged(shown.view.seed) ?? Infinity);
    restoreUi(ctrl);
    ctrl.render();
  } catch (err) {
    // A kept view the table cannot be drawn from never keeps the page from opening.
    console.warn("saved table:", err);
    unwake(ctrl);
    ctrl.render();
    return;
  }
  ctrl.waking = { json: JSON.stringify(shown.view), opened: state.ui.opened };
}

// The saved table goes (the start failed): the boot screen says why.
function unwake(ctrl) {
  if (!ctrl.state.ui.waking) return;
  ctrl.state.ui.waking = false;
  ctrl.waking = null;
  ctrl.state.view = null;
  ctrl.state.save = null;
  resetUi(ctrl);
}

// What the player did on the saved table while it waited (taken just before
// the engine's view replaces it).
function wokeUi(ctrl) {
  const { selected, order, panel, knock, result } = ctrl.state.ui;
  return ctrl.waking ? { selected, order, panel, knock, result } : null;
}

// The engine's view is on the table. If it is the view drawn while waking,
// what the player did meanwhile stays (selection, order, a panel opened or
// closed) and the deal is not dealt again; if not, the engine's wins and a
// queued move is refused (moveTask).
function wakeUp(ctrl, drawn) {
  const { state } = ctrl;
  const woke = ctrl.waking;
  ctrl.waking = null;
  if (!state.ui.waking) return;
  state.ui.waking = false;
  ctrl.wakeAgreed = Boolean(woke && drawn && state.view && JSON.stringify(state.view) === woke.json);
  const pending = state.ui.panel === "deal" && state.ui.result;
  if (ctrl.wakeAgreed) Object.assign(state.ui, drawn, { opened: woke.opened });
  // "Siguiente" pressed while waking could not be written then (the tab did not hold the match yet).
  if (pending && state.ui.panel !== "deal") acknowledge(ctrl, pending.number);
  else if (pending) replayByHard(ctrl);
}

// A move that needs the engine. While waking it is queued: one at a time,
// said so at once, and played after the opening (the queue keeps the
// order) only on the table it was chosen on, by the tab that plays the
// match; else refused with a message. Never played twice: it leaves the
// queue before it is played.
function moveTask(ctrl, task) {
  const { state } = ctrl;
  if (!state.ui.waking) return runTask(ctrl, task);
  if (!ctrl.queued) ctrl.queued = task;
  setMessage(ctrl, "info", "waking_queued", (t) => t("waking.queued"));
  ctrl.render();
  if (ctrl.queued !== task) return undefined; // one move waits already
  return runTask(ctrl, async () => {
    ctrl.queued = null;
    if (state.ui.waking) return; // the start failed: its error screen says so
    if (!ctrl.wakeAgreed || !ctrl.tabs.owns()) {
      setMessage(ctrl, "refusal", "waking_changed", refusalText(ctrl, "waking_changed"));
      return;
    }
    if (state.ui.message && state.ui.message.code === "waking_queued") state.ui.message = null;
    await task();
  });
}
