// The game controller: the one queue of engine calls, the computer's turns,
// autosave (the match, and the selection or open knock panel beside it),
// opening or resuming a match, and boot. It changes the shared state and
// asks the composition root to draw; it never touches the DOM itself.

import { createHistory } from "./history.js";
import { createEngine, EngineError, REVIEW_ROLE } from "./runtime/engine.js";
import { newSeed, normalizeSeed, seedFromHash } from "./seed.js";
import { newMatchRules, rulesFromHash, rulesHash } from "./variants.js";
import { computerMove } from "./words.js";
import { restoredKnock } from "./knock.js";
import { DEFAULT_SETTINGS, SPEED_DELAY_MS } from "./settings.js";
import { askCoach, askSummary, coaching } from "./coach.js";
import { guided } from "./tutorial.js";
import { createTabs } from "./tabs.js";
import { askElsewhere, askLink } from "./asks.js";

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

export function createController({ state, storage, draw, announce, notify, onReady, settled = async () => {} }) {
  let engine = null;
  let generation = 0; // bumps on every new match: stale computer loops stop
  let work = Promise.resolve(); // the chain of engine calls; idle() waits on it
  let keptUi = "";
  let counted = ""; // the match and deals last handed to history.count
  // Finished matches and statistics (history.js); engine calls outside the
  // match's queue, since they never touch the current match.
  const finished = createHistory(storage, (method, params) => engine.call(method, params));
  // One tab plays a match at a time (tabs.js); a tab that lost it writes
  // nothing of the match (storage.js asks before every write).
  const tabs = createTabs({ onLost: (seed) => lostMatch(seed) });
  storage.setOwner(tabs.owns);
  let elsewhere = null; // the sheet saying the match is open in another tab

  // The selection and an open knock panel (with the player's edits) are kept
  // beside the save, for the position they belong to, so a reload comes back
  // to the same screen.
  function keepUi() {
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
    if (text !== keptUi && storage.writeUi(value)) keptUi = text;
  }

  function restoreUi() {
    const kept = storage.readUi();
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

  function persistSettings() {
    if (!storage.writeSettings(state.settings) && storage.available) notify("storage.full", "warning");
  }

  function persistMatch(save) {
    if (!save) return;
    state.save = save;
    // told once at start-up; another tab plays it; the guided deal is not kept
    if (!storage.available || guided(state) || !tabs.owns()) return;
    if (!storage.writeMatch(save)) notify("storage.full", "warning");
  }

  // Keep the URL naming the current match's seed, so a reload (or a shared
  // link) lands on the same match.
  function showSeedInUrl(seed, rules) {
    const hash = `#seed=${encodeURIComponent(seed)}${rules ? rulesHash(rules) : ""}`;
    if (guided(state)) return; // a reload leaves the guided deal
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  function accept(result) {
    pendingStep = null; // a step asked before this answer belongs to an older position
    if (result.view) state.view = result.view;
    if (result.save) persistMatch(result.save);
    if (state.view) showSeedInUrl(state.view.seed, state.view.rules);
    noticeFinishedDeal();
    // Statistics count each deal when it ends and the match when it ends (a
    // finished match is kept too). history.js knows each by its seed, rules
    // and actions: a reload, the end screen again or an older save adds
    // nothing, so the page's first view of a match counts it too (a deal
    // that ended just before the page was closed).
    if (!state.view || !result.save || guided(state) || !tabs.owns()) return; // the guided deal never counts
    const ended = state.view.history.length;
    const key = ended ? `${state.view.seed}:${ended}` : ""; // "" again at a new match's first deal
    if (ended && (key !== counted || state.view.over)) {
      const save = result.save;
      enqueue(() => finished.count(save)).catch((err) => console.warn("history:", err));
    }
    counted = key;
  }

  // A deal that ends starts the next at once: the result panel shows the
  // finished one (history grows) and holds the computer until "Siguiente".
  function noticeFinishedDeal() {
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
      if (coaching(state)) askSummary((m, p) => engine.call(m, p), state, draw);
    } else if (count < state.ui.seenDeals) {
      state.ui.seenDeals = count; // a new match
    }
  }

  // A fresh view from a new or loaded match: nothing selected, nothing to
  // replay. A deal result the player has not closed yet (the page reloaded
  // while it was shown, or before it could be) opens again; a finished match
  // shows its result.
  function resetUi(acknowledged = Infinity) {
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
    });
  }

  // The player closed the result of deal `number` (0: a new match): a reload
  // must not show it again, nor miss one not closed yet.
  function acknowledge(number) {
    if (state.view && storage.available && !guided(state)) storage.writeAcknowledged(state.view.seed, number);
  }

  // Every engine call goes through here, one at a time, in order.
  function enqueue(task) {
    const run = work.then(task, task);
    work = run.catch(() => {});
    return run;
  }

  // rules: {profile, options} (a link's, or the match replayed), else the
  // settings'; with a level (the guided deal: fixed rules and level).
  async function startMatch(seed, rules = null) {
    generation++;
    if (!rules || !rules.level) state.ui.tutorial = null; // any other match ends the guided deal
    const { profile, options = {} } = rules || newMatchRules(state.settings);
    const level = (rules && rules.level) || state.settings.level;
    await tabs.claim(seed);
    const result = await engine.call("new_match", { seed, profile, options, level });
    state.ui.seenDeals = 0;
    accept(result);
    acknowledge(0);
    resetUi();
    state.ui.profileNote = false;
  }

  // The save kept for `seed`: the current one, or one left unfinished.
  function savedFor(seed, stored = storage.readMatch()) {
    if (stored.status === "ok" && String(stored.save.seed).toUpperCase() === seed) return stored.save;
    const open = storage.openMatches().find((m) => m.seed.toUpperCase() === seed);
    return open ? open.save : null;
  }

  // Load a save into the engine and the page; false when the engine refuses
  // it (then it goes aside, never lost).
  async function resume(save, raw = JSON.stringify(save)) {
    try {
      const loaded = await engine.call("load", { save });
      generation++;
      tellLostMoves(loaded.view.seed, (save.actions || []).length); // before accept() saves again
      state.ui.seenDeals = loaded.view.history.length;
      accept(loaded);
      // A save from before this was kept has nothing pending.
      resetUi(storage.readAcknowledged(loaded.view.seed) ?? Infinity);
      restoreUi();
      return true;
    } catch (err) {
      // bad_save, or any other failure to replay it: a save must never keep
      // the page from opening, so it goes aside and a new match starts.
      if (!(err instanceof EngineError) || err.code === "not_ready" || err.code === "engine_dead") throw err;
      storage.setAsideMatch(raw);
      notify("storage.broken", "warning");
      return false;
    }
  }

  // After a reload: the match could not be saved at its last moves.
  function tellLostMoves(seed, saved) {
    const lost = storage.lost();
    if (!lost || lost.seed !== String(seed)) return;
    storage.forgetLost();
    if (lost.reached > saved) notify("storage.lost_moves", "warning", { n: lost.reached - saved });
  }

  // Play `seed` in this tab: its kept save if there is one, else from its
  // first deal. Another tab playing it: shown, with "Jugar aquí".
  // A kept save the engine refuses goes aside and `seed` starts from its
  // first deal (a new seed instead when `orNew`: the seed came from that save).
  // rules: the link's {profile, options} for a match not kept here (else the settings').
  async function openSeed(seed, stored = storage.readMatch(), orNew = false, rules = null) {
    if (!(await tabs.claim(seed))) {
      const save = savedFor(seed, stored);
      if (save) await resume(save).catch(() => {});
      showElsewhere(seed);
      return;
    }
    const save = savedFor(seed, stored);
    if (save && (await resume(save, stored.status === "ok" && stored.save === save ? stored.raw : undefined))) return;
    await startMatch(orNew ? newSeed() : seed, orNew ? null : rules);
  }

  // Resume the saved match if there is one (and it is the URL's seed, when
  // the URL names one); otherwise the URL's match (kept or new) or a new one.
  // A link to another match while this one is unfinished asks first.
  async function openMatch() {
    const wanted = seedFromHash(location.hash);
    const stored = storage.readMatch();
    if (stored.status === "corrupt") {
      storage.setAsideMatch(stored.raw);
      notify("storage.broken", "warning");
    }
    const current = stored.status === "ok" ? normalizeSeed(String(stored.save.seed)) : null;
    if (stored.status === "ok" && !current) {
      storage.setAsideMatch(stored.raw); // no seed to play it by
      notify("storage.broken", "warning");
    }
    if (current && (!wanted || current === wanted)) return openSeed(current, stored, !wanted);
    if (current && wanted && (await tabs.claim(current)) && (await resume(stored.save, stored.raw)) && !state.view.over) {
      linkAsked = wanted; // asked once the table is up (boot)
      return;
    }
    try {
      await openSeed(wanted || newSeed(), storage.readMatch(), false, wanted ? rulesFromHash(location.hash) : null);
    } catch (err) {
      if (!wanted || !(err instanceof EngineError) || err.code === "engine_dead") throw err;
      await startMatch(newSeed()); // the URL's seed was refused by the engine
    }
  }
  let linkAsked = null;

  // A link (or a typed hash) names another match than the one on the table.
  // With a match in progress it asks: open it (this one is kept and can be
  // resumed from "Partidas"), open it and drop this one, or stay.
  function followLink(wanted, rules = null) {
    if (!state.view || wanted === state.view.seed) return;
    const current = state.view.seed;
    const go = (drop) => {
      play(async () => {
        await openSeed(wanted, undefined, false, rules);
        if (drop) storage.dropOpen(current);
      });
    };
    if (state.view.over || !tabs.owns()) return go(false);
    askLink({
      t: () => state.t,
      current,
      wanted,
      onOpen: () => go(false),
      onDrop: () => go(true),
      onStay: () => showSeedInUrl(current),
    });
  }

  // The other tab took this match over (or had it first): the table waits
  // behind a sheet that says so until "Jugar aquí", which takes it back with
  // what the other tab saved.
  function showElsewhere(seed) {
    generation++; // the computer's loop stops here
    if (elsewhere && !elsewhere.closed) return;
    elsewhere = askElsewhere({
      t: () => state.t,
      onTake: () =>
        enqueue(async () => {
          await tabs.claim(seed, { steal: true });
          const save = savedFor(seed);
          if (!save || !(await resume(save))) await startMatch(seed);
          draw();
        }).then(() => play(async () => {})),
    });
    draw();
  }
  function lostMatch(seed) {
    if (state.view && state.view.seed === seed) showElsewhere(seed);
  }

  // Unfinished matches kept besides this one, for "Partidas": [{seed, at, save}].
  function openMatches() {
    const seed = state.view && state.view.seed;
    return storage.openMatches().filter((m) => m.seed !== seed).reverse();
  }

  const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // What the computer just did, as a move words.js can tell in either language.
  function computerMoveOf(action, events, before) {
    const seen = (events || []).find((e) => e.seat === 1 && e.type === action.type) || {};
    const showdown = (events || []).find((e) => e.type === "showdown");
    const card = seen.card || action.card || (action.type === "take" ? before.discard.at(-1) : null) || null;
    return { type: action.type, from: action.from || null, card, gin: Boolean(showdown && showdown.kind === "gin") };
  }

  // The computer plays its turns one step at a time, drawing after each. The
  // table paces it: a step shows once the pause of its speed has passed and
  // the animation in front of it (the deal, the upcard turning, the player's
  // discard, its own last move) has finished. The engine is asked at the
  // start of the pause, so a slow decision costs the player nothing more.
  // While the menu or any dialog is open it waits (leaves the queue, the
  // step it was given kept for later) and goes on when it closes (the
  // closing intents play on).
  let pendingStep = null; // {mine, before, answer}: asked of the engine, not shown yet
  const paused = () => state.ui.menuOpen || Boolean(state.ui.panel);

  async function computerTurns() {
    const mine = generation;
    while (state.view && !state.view.over && state.view.to_act === 1 && mine === generation && !paused()) {
      const pause = delay(SPEED_DELAY_MS[state.settings.speed] ?? SPEED_DELAY_MS.normal);
      if (!pendingStep || pendingStep.mine !== mine) {
        const answer = engine.call("computer_step", {});
        answer.catch(() => {}); // awaited below; a failure reaches play()
        pendingStep = { mine, before: state.view, answer };
      }
      const step = pendingStep;
      try {
        await Promise.all([pause, settled(), step.answer]);
      } catch (err) {
        if (pendingStep === step) pendingStep = null;
        throw err;
      }
      await settled(); // anything that began meanwhile
      if (mine !== generation || step !== pendingStep) return;
      if (paused()) return; // shown when the menu or the dialog closes
      pendingStep = null;
      const result = await step.answer;
      accept(result);
      const move = computerMoveOf(result.action, result.events, step.before);
      state.ui.lastComputer = move;
      // "Wait: it is the computer's turn" no longer holds.
      if (state.view.to_act !== 1 && state.ui.message && state.ui.message.code === "not_your_turn") state.ui.message = null;
      announce(computerMove(state.t, move));
      draw();
    }
  }

  // text: (t) => string, so the message follows a change of language.
  function setMessage(kind, code, text) {
    state.ui.message = { kind, code, text };
    if (kind !== "hint") announce(text(state.t));
  }

  function refusalText(code) {
    const limit = state.view ? state.view.knock_limit ?? state.view.rules.knock_limit : 10;
    return (t) => {
      const key = `error.${code}`;
      const text = t(key, { limit });
      return text === key ? t("error.generic") : text;
    };
  }

  // Every engine call that changes the game: one at a time, the table busy
  // meanwhile, then the computer's turns. Refusals become a short message and
  // leave the table exactly as it was.
  function play(task) {
    return enqueue(async () => {
      state.busy = true;
      // The player's own move: nothing on the table changes yet (the render
      // comes with the engine's answer), only the busy mark.
      draw(Boolean(state.view && state.view.to_act === 0 && !state.ui.panel && !state.ui.menuOpen));
      try {
        await task();
        await computerTurns();
      } catch (err) {
        if (err.code === "engine_dead") {
          engineDied();
        } else if (err.code && REFUSALS.has(err.code)) {
          setMessage("refusal", err.code, refusalText(err.code));
        } else {
          notify(
            err.code && state.t(`error.${err.code}`) !== `error.${err.code}` ? `error.${err.code}` : "error.generic",
            "error",
          );
          console.error(err);
        }
      } finally {
        state.busy = false;
        draw("settle");
      }
    });
  }

  function refuseLocally(code) {
    setMessage("refusal", code, refusalText(code));
    draw();
  }

  // The human's move. While the computer is playing, say so instead.
  function act(action, after = () => {}) {
    if (!state.view || state.ui.panel === "deal" || state.ui.panel === "match") return;
    if (state.busy) {
      if (state.view.to_act === 1) refuseLocally("not_your_turn");
      return;
    }
    const before = state.view;
    return play(async () => {
      const coached = coaching(state);
      const result = await engine.call("act", coached ? { action, coach: true } : { action });
      state.ui.message = null;
      state.ui.hintTarget = null;
      state.ui.selected = null;
      state.ui.lastComputer = null;
      accept(result);
      if (action.type === "draw" || action.type === "take") {
        const drawn = state.view.hand.find((c) => !before.hand.includes(c));
        state.ui.focus = drawn ? `card:${drawn}` : null;
      }
      after();
      draw();
      if (coached) askCoach((m, p) => engine.call(m, p), state, result, draw, announce); // not awaited
    });
  }

  // The worker died or stopped answering: a new one, and the match resumes
  // from its autosave (what the table showed was saved move by move).
  let restart = null;
  function engineDied() {
    restart = restart || replaceEngine();
  }
  function replaceEngine() {
    generation++;
    notify("engine.restarted", "warning");
    if (engine) engine.terminate();
    engine = createEngine({ fresh: true, onDead: engineDied });
    const done = engine.ready
      .then(() => enqueue(async () => {
        const stored = storage.readMatch();
        const seed = state.view ? state.view.seed : stored.status === "ok" ? String(stored.save.seed) : newSeed();
        await openSeed(seed, stored);
      }))
      .then(() => {
        restart = null;
        play(async () => {});
      })
      .catch((err) => {
        restart = null;
        state.boot.error = { code: err.code || "boot_failed", stage: err.stage || "start", detail: err.detail || String(err) };
        draw();
      });
    return done;
  }

  async function boot() {
    if (engine) engine.terminate();
    state.boot = { stage: "start", error: null };
    draw();
    engine = createEngine({
      onProgress(stage) {
        state.boot.stage = stage;
        draw();
      },
      onDead: engineDied,
    });
    try {
      const { timings } = await engine.ready;
      await enqueue(openMatch);
      enqueue(() => finished.reconcile()).catch((err) => console.warn("history:", err));
      state.boot.stage = "ready";
      draw();
      play(async () => {}); // the computer may be the one to move
      if (linkAsked) followLink(linkAsked);
      linkAsked = null;
      Promise.resolve(navigator.storage?.persist?.()).catch(() => {}); // ask to keep our data under pressure
      onReady({ timings, seed: state.view.seed, at: performance.now() });
      engine.playable();
      registerServiceWorker();
    } catch (err) {
      console.error(err);
      state.boot.error = {
        code: err.code || "boot_failed",
        stage: err.stage || state.boot.stage,
        detail: err.detail || String(err),
      };
      draw();
    }
  }

  // After the first boot, so precaching never competes with it.
  function registerServiceWorker() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register("./sw.js").catch((err) => console.warn("service worker:", err));
  }

  return {
    act,
    play,
    accept,
    acknowledge,
    startMatch,
    // What the page would open at boot (the guided deal's end).
    reopen: () => {
      generation++;
      return openMatch();
    },
    setMessage,
    refuseLocally,
    persistSettings,
    keepUi,
    boot,
    call: (method, params) => engine.call(method, params),
    // An extra engine for the viewer's review (the caller terminates it).
    reviewEngine: () => createEngine({ role: REVIEW_ROLE }),
    history: finished,
    followLink,
    openMatches,
    storage,
    resumeMatch: (seed) => play(() => openSeed(seed)),
    idle: () => (restart ? restart.then(() => work) : work),
  };
}
