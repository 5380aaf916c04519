// Composition root: wires the engine worker, storage, seeds, input and the
// renderer. It owns the one current view; render.js only draws it and
// input.js only turns DOM events into intents.

import { createEngine, EngineError } from "./engine.js";
import { createStorage } from "./storage.js";
import { newSeed, seedFromHash } from "./seed.js";
import { pickLanguage, translator } from "./i18n.js";
import { render } from "./render.js";
import { bindInput } from "./input.js";

const SPEED_DELAY_MS = { instant: 0, fast: 150, normal: 450, slow: 900 };
const DEFAULT_SETTINGS = { lang: null, level: "normal", speed: "normal", sort: "rank", profile: "traditional" };

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
};

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
  render(root, state.view, {
    t: state.t,
    lang: state.lang,
    boot: state.boot,
    busy: state.busy,
    notices: state.notices,
    settings: state.settings,
    canSave: storage.writable,
  });
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
    options: {},
    level: state.settings.level,
  });
  accept(result);
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
      accept(await engine.call("load", { save: stored.save }));
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

// The computer plays its turns one step at a time, drawing after each.
async function computerTurns() {
  const mine = generation;
  while (state.view && !state.view.over && state.view.to_act === 1 && mine === generation) {
    await delay(SPEED_DELAY_MS[state.settings.speed] ?? SPEED_DELAY_MS.normal);
    if (mine !== generation) return;
    accept(await engine.call("computer_step", {}));
    draw();
  }
}

function busyWhile(task) {
  return enqueue(async () => {
    state.busy = true;
    draw();
    try {
      await task();
      await computerTurns();
    } catch (err) {
      notify(err.code && state.t(`error.${err.code}`) !== `error.${err.code}` ? `error.${err.code}` : "error.generic", "error");
      console.error(err);
    } finally {
      state.busy = false;
      draw();
    }
  });
}

const intents = {
  act({ index }) {
    if (state.busy || !state.view) return;
    const action = state.view.legal[Number(index)];
    if (!action) return;
    busyWhile(async () => accept(await engine.call("act", { action })));
  },
  newMatch() {
    busyWhile(() => startMatch(newSeed()));
  },
  replay() {
    if (!state.view) return;
    const seed = state.view.seed;
    busyWhile(() => startMatch(seed));
  },
  level({ value }) {
    if (!["easy", "normal", "hard"].includes(value)) return;
    state.settings.level = value;
    persistSettings();
    if (state.view) busyWhile(async () => accept(await engine.call("set_level", { level: value })));
    else draw();
  },
  language() {
    state.settings.lang = state.lang === "es" ? "en" : "es";
    setLanguage(state.settings.lang);
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
    busyWhile(async () => {}); // the computer may be the one to move
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
  if (engine && state.view && wanted && wanted !== state.view.seed) busyWhile(() => startMatch(wanted));
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
  idle: () => work.then(() => (state.busy ? new Promise((r) => setTimeout(r, 20)).then(() => window.ginApp.idle()) : undefined)),
};

setLanguage(state.settings.lang);
if (!storage.available) notify("storage.unavailable", "warning");
bindInput(root, intents);
boot();
