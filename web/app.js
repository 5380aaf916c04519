// Composition root: wires the engine worker, storage, seeds, input and the
// renderer. It owns the one current view; render.js only draws it and
// input.js only turns DOM events into intents.

import { createEngine, EngineError } from "./engine.js";
import { createStorage } from "./storage.js";
import { newSeed, seedFromHash } from "./seed.js";
import { pickLanguage, translator } from "./i18n.js";
import { render, cardWithArticle } from "./render.js";
import { bindInput } from "./input.js";
import { cardName, cardPoints, isMeld, orderMeld } from "./cards.js";

const SPEED_DELAY_MS = { instant: 0, fast: 150, normal: 450, slow: 900 };
const DEFAULT_SETTINGS = {
  lang: null,
  level: "normal",
  speed: "normal",
  sort: "melds",
  profile: "traditional",
  custom: { gin_bonus: 20, undercut_bonus: 10, big_gin_bonus: null, target: 100 },
  fourColour: false,
};
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

const root = document.getElementById("app");
const storage = createStorage();

const state = {
  settings: { ...DEFAULT_SETTINGS, ...storage.readSettings() },
  lang: "es",
  t: null,
  boot: { stage: "start", error: null },
  view: null,
  save: null,
  busy: false,
  notices: [], // [{key, kind}] shown once each, dismissible
  // UI state (never saved with the match): what is selected, which panel is
  // open, the last message, and what just moved (for the animations).
  ui: {
    selected: null,
    panel: null, // "knock" | "deal" | "match" | "confirmNew" | "help"
    menuOpen: false,
    knock: null, // {type, card, melds, deadwood, proposed}
    result: null, // the deal result the panel shows
    seenDeals: 0,
    message: null, // {kind: "refusal"|"hint"|"info", code, text}
    hintTarget: null,
    lastComputer: "",
    levelNote: false,
    profileNote: false,
    fresh: {},
    focus: null,
  },
};
const announcer = document.getElementById("announcer");

let engine = null;
let generation = 0; // bumps on every new match: stale computer loops stop
let work = Promise.resolve(); // the chain of engine calls; idle() waits on it

let resolveReady;
window.ginReady = new Promise((resolve) => {
  resolveReady = resolve;
});

function setLanguage(lang) {
  state.lang = pickLanguage(lang);
  state.t = translator(state.lang);
  document.documentElement.lang = state.lang;
  document.title = state.t("title");
}

function notify(key, kind = "info") {
  if (!state.notices.some((n) => n.key === key)) state.notices.push({ key, kind });
}

function draw() {
  root.dataset.boot = state.boot.error ? "failed" : state.boot.stage;
  root.dataset.busy = String(state.busy);
  root.dataset.phase = state.view ? state.view.phase : "";
  root.dataset.toAct = state.view && state.view.to_act !== null ? String(state.view.to_act) : "";
  root.style.setProperty("--anim", `${ANIM_MS[state.settings.speed] ?? ANIM_MS.normal}ms`);
  render(root, state.view, {
    ...state.ui,
    t: state.t,
    lang: state.lang,
    boot: state.boot,
    busy: state.busy,
    notices: state.notices,
    settings: state.settings,
    canSave: storage.writable,
  });
  // Animations and focus requests play once, on the render right after.
  state.ui.fresh = {};
  state.ui.focus = null;
}

const ANIM_MS = { instant: 0, fast: 140, normal: 280, slow: 480 };

function announce(text) {
  if (!announcer || !text) return;
  // Re-setting the same text would not be read again: clear first.
  announcer.textContent = "";
  announcer.textContent = text;
}

function persistSettings() {
  if (!storage.writeSettings(state.settings) && storage.available) notify("storage.full", "warning");
}

function persistMatch(save) {
  if (!save) return;
  state.save = save;
  if (!storage.available) return; // told once at start-up
  if (!storage.writeMatch(save)) notify("storage.full", "warning");
}

// Keep the URL naming the current match's seed, so a reload (or a shared
// link) lands on the same match.
function showSeedInUrl(seed) {
  const hash = `#seed=${encodeURIComponent(seed)}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

function accept(result) {
  if (result.view) state.view = result.view;
  if (result.save) persistMatch(result.save);
  if (state.view) showSeedInUrl(state.view.seed);
  noticeFinishedDeal();
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
    lastComputer: "",
    levelNote: false,
  });
}

// The player closed the result of deal `number` (0: a new match): a reload
// must not show it again, nor miss one not closed yet.
function acknowledge(number) {
  if (state.view && storage.available) storage.writeAcknowledged(state.view.seed, number);
}

// Every engine call goes through here, one at a time, in order.
function enqueue(task) {
  const run = work.then(task, task);
  work = run.catch(() => {});
  return run;
}

async function startMatch(seed) {
  generation++;
  const result = await engine.call("new_match", {
    seed,
    profile: state.settings.profile,
    options: state.settings.profile === "custom" ? customOptions() : {},
    level: state.settings.level,
  });
  state.ui.seenDeals = 0;
  accept(result);
  acknowledge(0);
  resetUi();
  state.ui.profileNote = false;
}

// Resume the saved match if there is one (and it is the URL's seed, when the
// URL names one); otherwise start the URL's match or a new one.
async function openMatch() {
  const wanted = seedFromHash(location.hash);
  const stored = storage.readMatch();
  if (stored.status === "corrupt") {
    storage.setAsideMatch(stored.raw);
    notify("storage.broken", "warning");
  } else if (stored.status === "ok" && (!wanted || String(stored.save.seed).toUpperCase() === wanted)) {
    try {
      const loaded = await engine.call("load", { save: stored.save });
      state.ui.seenDeals = loaded.view.history.length;
      accept(loaded);
      // A save from before this was kept has nothing pending.
      resetUi(storage.readAcknowledged(loaded.view.seed) ?? Infinity);
      return;
    } catch (err) {
      // bad_save, or any other failure to replay it: a save must never keep
      // the page from opening, so it goes aside and a new match starts.
      if (!(err instanceof EngineError) || err.code === "not_ready") throw err;
      storage.setAsideMatch(stored.raw);
      notify("storage.broken", "warning");
    }
  }
  try {
    await startMatch(wanted || newSeed());
  } catch (err) {
    if (!wanted) throw err;
    await startMatch(newSeed()); // the URL's seed was refused by the engine
  }
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function customOptions() {
  const c = { ...DEFAULT_SETTINGS.custom, ...(state.settings.custom || {}) };
  const options = { gin_bonus: c.gin_bonus, undercut_bonus: c.undercut_bonus, target: c.target };
  if (c.big_gin_bonus) options.big_gin_bonus = c.big_gin_bonus;
  return options;
}

// What the computer just did, in words (also read by screen readers).
function describeComputer(action, events) {
  const t = state.t;
  const seen = (events || []).find((e) => e.seat === 1 && e.type === action.type) || {};
  switch (action.type) {
    case "take":
      return t("opp.take", { card: cardWithArticle(seen.card || action.card || state.view.discard.at(-1) || "", t) });
    case "pass":
      return t("opp.pass");
    case "draw":
      return action.from === "discard" ? t("opp.draw_discard", { card: cardWithArticle(seen.card || action.card, t) }) : t("opp.draw_stock");
    case "discard":
      return t("opp.discard", { card: cardWithArticle(action.card, t) });
    case "knock": {
      const showdown = (events || []).find((e) => e.type === "showdown");
      return showdown && showdown.kind === "gin" ? t("opp.gin") : t("opp.knock");
    }
    case "big_gin":
      return t("opp.big_gin");
    default:
      return "";
  }
}

// The computer plays its turns one step at a time, drawing after each; it
// waits while a result panel is open.
async function computerTurns() {
  const mine = generation;
  while (state.view && !state.view.over && state.view.to_act === 1 && mine === generation && !state.ui.panel) {
    await delay(SPEED_DELAY_MS[state.settings.speed] ?? SPEED_DELAY_MS.normal);
    if (mine !== generation || state.ui.panel) return;
    const before = state.view;
    const result = await engine.call("computer_step", {});
    accept(result);
    const text = describeComputer(result.action, result.events);
    state.ui.lastComputer = text;
    announce(text);
    if (result.action.type === "discard") state.ui.fresh = { discard: "top" };
    else if (result.action.type === "draw" || result.action.type === "take") state.ui.fresh = { oppDraw: true };
    if (before.deal_number !== state.view.deal_number) state.ui.lastComputer = text;
    draw();
  }
}

function setMessage(kind, code, text) {
  state.ui.message = { kind, code, text };
  if (kind !== "hint") announce(text);
}

function refusalText(code) {
  const key = `error.${code}`;
  const text = state.t(key, { limit: state.view ? state.view.rules.knock_limit : 10 });
  return text === key ? state.t("error.generic") : text;
}

// Every engine call that changes the game: one at a time, the table busy
// meanwhile, then the computer's turns. Refusals become a short message and
// leave the table exactly as it was.
function play(task) {
  return enqueue(async () => {
    state.busy = true;
    draw();
    try {
      await task();
      await computerTurns();
    } catch (err) {
      if (err.code && REFUSALS.has(err.code)) {
        setMessage("refusal", err.code, refusalText(err.code));
      } else {
        notify(err.code && state.t(`error.${err.code}`) !== `error.${err.code}` ? `error.${err.code}` : "error.generic", "error");
        console.error(err);
      }
    } finally {
      state.busy = false;
      draw();
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
  play(async () => {
    const result = await engine.call("act", { action });
    state.ui.message = null;
    state.ui.hintTarget = null;
    state.ui.selected = null;
    state.ui.lastComputer = "";
    accept(result);
    if (action.type === "draw" || action.type === "take") {
      const drawn = state.view.hand.find((c) => !before.hand.includes(c));
      state.ui.fresh = { draw: drawn, drawFrom: action.type === "take" || action.from === "discard" ? "pile" : "stock" };
      state.ui.focus = drawn ? `card:${drawn}` : null;
    } else if (action.type === "discard") {
      state.ui.fresh = { discard: "hand" };
    }
    after();
    draw();
  });
}

// The knock (or gin) proposed for a discard: the engine's legal action
// carries the best arrangement of the other ten cards.
function knockDraft(action) {
  const hand = state.view.hand.filter((c) => c !== action.card);
  const melded = new Set(action.melds.flat());
  const melds = action.melds.map((m) => orderMeld(m));
  return {
    type: action.type,
    card: action.card || null,
    melds,
    deadwood: hand.filter((c) => !melded.has(c)),
    proposed: { melds: melds.map((m) => [...m]), deadwood: hand.filter((c) => !melded.has(c)) },
  };
}

function points(cards) {
  return cards.reduce((sum, c) => sum + cardPoints(c), 0);
}

const intents = {
  select({ card }) {
    if (!state.view || state.ui.panel) return;
    if (state.ui.selected === card) {
      act({ type: "discard", card });
      return;
    }
    state.ui.selected = card;
    if (state.ui.message && state.ui.message.kind === "refusal") state.ui.message = null;
    state.ui.focus = `card:${card}`;
    draw();
  },
  discardSelected() {
    if (!state.view) return;
    if (!state.ui.selected || !state.view.hand.includes(state.ui.selected)) {
      if (state.view.phase === "discard" || state.view.to_act !== 0) refuseLocally(state.view.to_act === 0 ? "select_first" : "not_your_turn");
      else act({ type: "discard", card: state.view.hand[0] }); // the engine says why not
      return;
    }
    act({ type: "discard", card: state.ui.selected });
  },
  take() {
    act({ type: "take" });
  },
  pass() {
    act({ type: "pass" });
  },
  drawStock() {
    act({ type: "draw", from: "stock" });
  },
  drawDiscard() {
    act({ type: "draw", from: "discard" });
  },
  knock({ kind }) {
    const view = state.view;
    if (!view || state.busy || view.to_act !== 0) return;
    const dd = view.discard_deadwood || {};
    const options = view.legal.filter((a) => a.type === "knock" && (kind === "gin" ? dd[a.card] === 0 : dd[a.card] > 0));
    if (!options.length) return;
    // The selected card if it allows this, else the best discard for it:
    // least deadwood left, then the highest card thrown.
    let action = options.find((a) => a.card === state.ui.selected);
    if (!action) {
      action = [...options].sort((a, b) => dd[a.card] - dd[b.card] || cardPoints(b.card) - cardPoints(a.card))[0];
      state.ui.selected = action.card;
    }
    state.ui.knock = knockDraft(action);
    state.ui.panel = "knock";
    state.ui.message = null;
    state.ui.focus = "confirm";
    draw();
  },
  bigGin() {
    const view = state.view;
    const action = view && view.legal.find((a) => a.type === "big_gin");
    if (!action || state.busy) return;
    state.ui.knock = knockDraft(action);
    state.ui.panel = "knock";
    state.ui.focus = "confirm";
    draw();
  },
  // Move one card between melds and deadwood while the knock stays legal.
  knockMove({ card }) {
    const draft = state.ui.knock;
    if (!draft || draft.type === "big_gin") return;
    const limit = state.view.rules.knock_limit;
    const index = draft.melds.findIndex((m) => m.includes(card));
    if (index === -1) {
      const target = draft.melds.findIndex((m) => isMeld([...m, card]));
      if (target === -1) {
        setMessage("info", "cannot_add", state.t("knock.cannot_add"));
      } else {
        draft.melds[target] = orderMeld([...draft.melds[target], card]);
        draft.deadwood = draft.deadwood.filter((c) => c !== card);
        state.ui.message = null;
      }
    } else {
      const rest = draft.melds[index].filter((c) => c !== card);
      const freed = isMeld(rest) ? [card] : draft.melds[index];
      if (points(draft.deadwood) + points(freed) > limit) {
        setMessage("info", "cannot_move", state.t("knock.cannot_move"));
      } else {
        if (isMeld(rest)) draft.melds[index] = rest;
        else draft.melds.splice(index, 1);
        draft.deadwood = [...draft.deadwood, ...freed];
        state.ui.message = null;
      }
    }
    state.ui.focus = `knock:${card}`;
    draw();
  },
  resetKnock() {
    const draft = state.ui.knock;
    if (!draft) return;
    draft.melds = draft.proposed.melds.map((m) => [...m]);
    draft.deadwood = [...draft.proposed.deadwood];
    state.ui.message = null;
    draw();
  },
  confirmKnock() {
    const draft = state.ui.knock;
    if (!draft || state.busy) return;
    const action = draft.type === "big_gin" ? { type: "big_gin", melds: draft.melds } : { type: "knock", card: draft.card, melds: draft.melds };
    // On a refusal the panel stays open with the message.
    play(async () => {
      const result = await engine.call("act", { action });
      state.ui.message = null;
      state.ui.hintTarget = null;
      state.ui.panel = null;
      state.ui.knock = null;
      accept(result);
    });
  },
  hint() {
    if (!state.view || state.busy || state.view.to_act !== 0 || state.view.over) {
      if (state.view && state.view.to_act === 1) refuseLocally("not_your_turn");
      return;
    }
    play(async () => {
      const { hint } = await engine.call("hint", {});
      const t = state.t;
      const a = hint.action;
      let text;
      let target = null;
      const dd = state.view.discard_deadwood || {};
      if (a.type === "take") [text, target] = [t("hint.take"), "take"];
      else if (a.type === "pass") [text, target] = [t("hint.pass"), "pass"];
      else if (a.type === "draw") [text, target] = a.from === "discard" ? [t("hint.draw_discard"), "discard"] : [t("hint.draw_stock"), "stock"];
      else if (a.type === "discard") [text, target] = [t("hint.discard", { card: cardName(a.card, t) }), `card:${a.card}`];
      else if (a.type === "knock") [text, target] = dd[a.card] === 0 ? [t("hint.gin", { card: cardName(a.card, t) }), "gin"] : [t("hint.knock", { card: cardName(a.card, t) }), "knock"];
      else if (a.type === "big_gin") [text, target] = [t("hint.big_gin"), "big_gin"];
      // the facts behind the reason (gin/ai: the hint's "why"), cards by name
      const facts = {};
      for (const [key, value] of Object.entries(hint.why || {})) {
        if (Array.isArray(value)) facts[key] = value.map((c) => cardName(c, t)).join(", ");
        else facts[key] = ["card", "avoid", "picked"].includes(key) ? cardName(value, t) : value;
      }
      const reason = t(`reason.${hint.reason}`, facts);
      setMessage("hint", hint.reason, t("hint.label", { action: text, reason: reason === `reason.${hint.reason}` ? "" : reason }).trim());
      state.ui.hintTarget = target;
      if (a.card && (a.type === "discard" || a.type === "knock")) state.ui.selected = a.card;
    });
  },
  next() {
    if (state.ui.panel !== "deal") return;
    if (state.ui.result) acknowledge(state.ui.result.number);
    state.ui.result = null;
    state.ui.panel = state.view && state.view.over ? "match" : null;
    state.ui.focus = state.ui.panel === "match" ? "again" : null;
    state.ui.lastComputer = "";
    if (!state.ui.panel) {
      const t = state.t;
      const text = t("you.new_deal", { number: state.view.deal_number, dealer: state.view.dealer === 0 ? t("bar.you") : t("bar.opponent") });
      announce(text);
      state.ui.focus = state.view.to_act === 0 ? (state.view.phase.startsWith("upcard") ? "act:take" : "stock") : null;
    }
    draw();
    play(async () => {}); // the computer may deal the first move
  },
  again() {
    state.ui.panel = null;
    play(() => startMatch(newSeed()));
  },
  openMenu() {
    state.ui.menuOpen = true;
    state.ui.focus = "closeMenu";
    draw();
  },
  closeMenu() {
    state.ui.menuOpen = false;
    state.ui.focus = "menu";
    draw();
    play(async () => {});
  },
  help() {
    state.ui.menuOpen = false;
    state.ui.panel = "help";
    state.ui.focus = "closeHelp";
    draw();
  },
  closeHelp() {
    state.ui.panel = null;
    state.ui.menuOpen = true;
    state.ui.focus = "help";
    draw();
  },
  newMatch() {
    state.ui.menuOpen = false;
    state.ui.panel = "confirmNew";
    state.ui.focus = "confirmNew";
    draw();
  },
  confirmNew() {
    state.ui.panel = null;
    play(() => startMatch(newSeed()));
  },
  cancel() {
    if (state.ui.panel === "knock") {
      state.ui.knock = null;
      state.ui.focus = state.ui.selected ? `card:${state.ui.selected}` : null;
    }
    if (state.ui.panel === "knock" || state.ui.panel === "confirmNew" || state.ui.panel === "help") state.ui.panel = null;
    state.ui.message = null;
    draw();
    play(async () => {});
  },
  escape() {
    if (state.ui.menuOpen) return intents.closeMenu();
    if (state.ui.panel === "help") return intents.closeHelp();
    if (state.ui.panel === "knock" || state.ui.panel === "confirmNew") return intents.cancel();
    if (state.ui.panel) return;
    const focused = state.ui.selected;
    state.ui.selected = null;
    state.ui.hintTarget = null;
    state.ui.message = null;
    if (focused) state.ui.focus = `card:${focused}`;
    draw();
  },
  replay() {
    if (!state.view) return;
    const seed = state.view.seed;
    state.ui.menuOpen = false;
    state.ui.panel = null;
    play(() => startMatch(seed));
  },
  faster() {
    // "Acelerar" toggles between fast and normal play of the computer's turns.
    state.settings.speed = state.settings.speed === "fast" || state.settings.speed === "instant" ? "normal" : "fast";
    persistSettings();
    draw();
  },
  level({ value }) {
    if (!["easy", "normal", "hard"].includes(value)) return;
    state.settings.level = value;
    persistSettings();
    state.ui.levelNote = true;
    if (state.view) play(async () => accept(await engine.call("set_level", { level: value })));
    else draw();
  },
  profile({ value }) {
    if (!["traditional", "standard", "custom"].includes(value)) return;
    state.settings.profile = value;
    state.ui.profileNote = true;
    persistSettings();
    draw();
  },
  customOption({ name, value }) {
    const allowed = { gin_bonus: [20, 25], undercut_bonus: [10, 20, 25], big_gin_bonus: [null, 25, 31, 50], target: [100, 250, 500] };
    if (!(name in allowed)) return;
    const parsed = value === "off" ? null : Number(value);
    if (!allowed[name].includes(parsed)) return;
    state.settings.custom = { ...DEFAULT_SETTINGS.custom, ...(state.settings.custom || {}), [name]: parsed };
    state.ui.profileNote = true;
    persistSettings();
    draw();
  },
  lang({ value }) {
    if (!["es", "en"].includes(value)) return;
    state.settings.lang = value;
    setLanguage(value);
    persistSettings();
    state.ui.message = null;
    draw();
  },
  language() {
    intents.lang({ value: state.lang === "es" ? "en" : "es" });
  },
  speed({ value }) {
    if (!(value in SPEED_DELAY_MS)) return;
    state.settings.speed = value;
    persistSettings();
    draw();
  },
  sort({ value }) {
    if (!["melds", "suit", "rank"].includes(value)) return;
    state.settings.sort = value;
    persistSettings();
    draw();
  },
  fourColour({ value }) {
    state.settings.fourColour = Boolean(value);
    persistSettings();
    draw();
  },
  dismiss({ index }) {
    state.notices.splice(Number(index), 1);
    draw();
  },
  retry() {
    boot();
  },
};

async function boot() {
  if (engine) engine.terminate();
  state.boot = { stage: "start", error: null };
  draw();
  engine = createEngine({
    onProgress(stage) {
      state.boot.stage = stage;
      draw();
    },
  });
  try {
    const { timings } = await engine.ready;
    await enqueue(openMatch);
    state.boot.stage = "ready";
    draw();
    play(async () => {}); // the computer may be the one to move
    resolveReady({ timings, seed: state.view.seed, at: performance.now() });
    registerServiceWorker();
  } catch (err) {
    console.error(err);
    state.boot.error = { code: err.code || "boot_failed", stage: err.stage || state.boot.stage, detail: err.detail || String(err) };
    draw();
  }
}

// After the first boot, so precaching never competes with it.
function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("./sw.js").catch((err) => console.warn("service worker:", err));
}

window.addEventListener("hashchange", () => {
  const wanted = seedFromHash(location.hash);
  if (engine && state.view && wanted && wanted !== state.view.seed) play(() => startMatch(wanted));
});

// For tests and the console: the current state, and a promise that settles
// when every queued engine call (computer turns included) is done.
window.ginApp = {
  get view() {
    return state.view;
  },
  get save() {
    return state.save;
  },
  get settings() {
    return { ...state.settings };
  },
  get notices() {
    return state.notices.map((n) => n.key);
  },
  get ui() {
    const { selected, panel, menuOpen, knock, result, message, hintTarget } = state.ui;
    return JSON.parse(JSON.stringify({ selected, panel, menuOpen, knock, result, message, hintTarget }));
  },
  idle: () => work.then(() => (state.busy ? new Promise((r) => setTimeout(r, 20)).then(() => window.ginApp.idle()) : undefined)),
};

setLanguage(state.settings.lang);
if (!storage.available) notify("storage.unavailable", "warning");
bindInput(root, intents);
boot();
