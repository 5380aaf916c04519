// Composition root: wiring only. It creates the shared state, the storage,
// the controller (engine queue, computer turns, autosave), the intents, the
// motion layer and the one render funnel render(), and binds input to them.

import { KEYS } from "./data/keys.js";
import { createStorage } from "./data/storage.js";
import { seedFromHash } from "./model/seed.js";
import { linkRules } from "./model/challenge.js";
import { pickLanguage, translator } from "./text/i18n.js";
import { buildPanel, renderPage, revealPanel } from "./table/render.js";
import { dealResultSample } from "./table/panels.js";
import { createMotion } from "./table/motion.js";
import { closePanel, createDealEnd, dropVeil } from "./table/deal-end.js";
import { whenIdle } from "./table/idle.js";
import { createFeedback } from "./table/feedback.js";
import { bindInput } from "./table/input.js";
import { bindDrag } from "./table/drag.js";
import { createController } from "./play/controller.js";
import { createIntents } from "./play/intents.js";
import { ANIM_MS, checkSettings, settingsResetNotice } from "./model/settings.js";
import { onFullscreenChange } from "./table/fullscreen.js";
import { coachIdle } from "./play/coach.js";
import { createTutorial, firstVisit } from "./play/tutorial.js";
import { createNotices } from "./play/notices.js";
import { bindNoticeHold, placeNotices } from "./table/notices.js";
import { offerAtStart, receiveLink } from "./play/daily.js";

const root = document.getElementById("app");
const openedAt = location.hash; // the address the page was opened with (the controller rewrites it)
const announcer = document.getElementById("announcer");
const motion = createMotion(root);
const storage = createStorage();
// Each field checked: a bad one falls back to its default (told below).
const checked = checkSettings(storage.readSettings());
// The table's sounds and vibration, after each render (issue 30).
const feedback = createFeedback(() => state.settings);

// The page's one state record: everything a render is made from. The
// controller and the intents change it; render() describes the page from it.
const state = {
  settings: checked.settings, // the player's settings (model/settings.js), kept by data/storage.js
  lang: "es", // the language shown: "es" | "en" (setLanguage)
  t: null, // the translator of that language (text/i18n.js)
  boot: { stage: "start", error: null }, // the engine's boot stage (runtime), or why it failed
  view: null, // the engine's view of the match for the player (gin.view), replaced, never changed in place
  save: null, // the match's save as the engine last gave it (gin.save)
  busy: false, // an engine call that changes the match is under way (controller.runTask)
  notices: [], // [{key, kind, vars, actions}] on the felt or waiting for room (play/notices.js)
  // UI state: what is selected, which panel is open, the last message. The
  // selection and an open knock panel are kept beside the save (controller).
  ui: {
    selected: null,
    panel: null, // "knock" | "deal" | "match" | "confirmNew" | "confirmReplay" | "help"
    menuOpen: false,
    knock: null, // {type, card, melds, deadwood, proposed}
    result: null, // the deal result the panel shows
    seenDeals: 0,
    opened: 0, // bumps each time a match is put on the table (controller.resetUi): its deal is dealt anew
    // {kind: "refusal"|"hint"|"info", code, text: (t) => string}: built in
    // the current language at each render, so a language switch retells it.
    message: null,
    hintTarget: null,
    lastComputer: null, // the computer's last move {type, from, card, gin}
    rover: null, // the hand's Tab stop (roving tabindex)
    modality: null, // how the player last pressed: "touch", "mouse", "pen" or "key" (input.js)
    order: null, // {seed, deal, cards}: the player's hand order ("manual" sort)
    levelNote: false,
    profileNote: false,
    coach: null, // the coach's note on the last decision {note, seed, deal, index} (coach.js)
    coachSummary: null, // the costliest decisions of the deal just ended {seed, deal, items} (coach.js)
    duplicate: null, // Difícil with your cards on the deal just ended {seed, deal, points, played, replayed, failed} (luck.js)
    tutorial: null, // the guided deal under way {step, kind, hint} (tutorial.js)
    tutorialOffer: firstVisit(storage, location.hash),
    // The day's match and challenges (play/daily.js says what each holds).
    followed: null,
    fixed: null,
    challenges: [],
    daily: null,
    dailyOffer: null,
    shared: null,
    focus: null,
    waking: false, // the table drawn is the saved one, the engine not up yet (play/controller.js wake)
  },
};

let resolveReady;
window.ginReady = new Promise((resolve) => {
  resolveReady = resolve;
});
// For the boot bench (issue 33): the player's hand first on screen, every
// card of it landed (the saved table's at once, or the first deal's):
// {at: ms since navigation, waking: drawn before the engine was up}.
const handShown = { noted: false, resolve: null };
window.ginHand = new Promise((resolve) => {
  handShown.resolve = resolve;
});
function noteHand() {
  if (handShown.noted || !state.view || !root.querySelector(".hand .hand-card")) return;
  handShown.noted = true;
  const waking = state.ui.waking;
  motion.landed().then(() => requestAnimationFrame(() => handShown.resolve({ at: performance.now(), waking })));
}

function setLanguage(lang) {
  state.lang = pickLanguage(lang);
  state.t = translator(state.lang);
  document.documentElement.lang = state.lang;
  document.title = state.t("title");
}

// Every notice goes through here (how long it stays: model/notices.js).
const notices = createNotices({ state, render: () => render(), announce });
const notify = (key, kind = "info", vars = {}, actions = []) => notices.notify(key, kind, vars, actions);
// A stored value that could not be read is kept aside (storage.js), told
// once. The match and settings reset field by field say so with their own
// notice (storage.broken, settings.reset): one notice for one value.
let quietAside = null;
storage.on("aside", (key) => {
  if (key !== quietAside && key !== KEYS.match) notify("data.aside", "warning");
});
storage.on("evicted", () => notify("storage.evicted", "warning"));

// The live region is a log: each announcement is a new line, so quick
// computer moves queue up and each is read; old lines go after a few.
function announce(text) {
  if (!announcer || !text) return;
  const line = document.createElement("p");
  line.textContent = text;
  announcer.append(line);
  while (announcer.childElementCount > 6) announcer.firstElementChild.remove();
}

// The log's old lines are in the other language after a switch.
function clearLog() {
  if (announcer) announcer.replaceChildren();
}

// What the last full render was made from: the view (replaced, never
// changed in place) and the rest as text.
let shown = null;
function shownFrom() {
  const rest = [state.ui, state.lang, state.boot, state.notices, state.settings, storage.writable];
  try {
    return { view: state.view, rest: JSON.stringify(rest) };
  } catch {
    return null; // never equal: a full render
  }
}

// Only the busy mark: the page's data-busy and the table's aria-busy, as
// renderPage() writes them.
function renderBusy() {
  root.dataset.busy = String(state.busy);
  const table = root.querySelector(".table");
  if (table && state.view) table.setAttribute("aria-busy", String(state.busy && state.view.to_act === 1));
}

// The deal's end (issue 33): the deal result panel over three frames (table/deal-end.js).
const dealEnd = createDealEnd(root, {
  render: () => render(),
  reveal: revealDealResult,
  sample: () => state.view && dealResultSample(state.view, { ...state.ui, t: state.t, lang: state.lang }),
});

// The deal result panel laid out hidden is shown: its showdown reads the
// positions first (the page is laid out), then the mark comes off.
function revealDealResult() {
  if (state.ui.panel !== "deal") return render();
  const speed = ANIM_MS[state.settings.speed] ?? ANIM_MS.normal;
  motion.animate(state.view, state.ui, state.boot.stage === "ready" ? speed : 0);
  if (!revealPanel(root, state.ui)) return render();
  state.ui.focus = null;
}

// "Siguiente" closed the deal result panel without a render: the page's
// full render is due (at an idle moment, dealEnd.closed); a "settle" render
// waits for it.
let closing = false;

// "Siguiente" (play/intents.js next, render("close")): the deal result panel
// closes over the next deal's table, drawn under it already, without the
// page built again: in the tap's own task the panel goes (its veil stays),
// the focus is given, the deal sounds (table/deal-end.js closePanel); in
// the next, the veil goes and the deal flies, read from the page as it is
// laid out; the full render at an idle moment after (dealEnd.closed). At
// a quarter of a phone's CPU all of it in the tap's task was a frame of
// 150-330 ms (issue 33). False when there is no such panel to close (or
// the page is hidden: no frame comes): a full render then.
function closeDealResult() {
  const { view, ui } = state;
  if (!view || ui.panel || ui.menuOpen || document.hidden) return false;
  if (!closePanel(root, ui.focus)) return false;
  if (state.boot.stage === "ready") feedback.shown(view, ui);
  ui.focus = null;
  closing = true;
  const deal = () => {
    motion.measure();
    const speed = ANIM_MS[state.settings.speed] ?? ANIM_MS.normal;
    motion.animate(state.view, state.ui, state.boot.stage === "ready" ? speed : 0);
    dropVeil(root);
  };
  dealEnd.closed(deal, () => {
    closing = false;
    render("settle");
  });
  return true;
}

// The one render funnel: the page from the current view and UI state, the
// motion from where the cards were to where they are. render("busy"): only
// the busy mark changed (controller.runTask, before the engine answers);
// render("settle"): the end of a task, a full render only if something
// besides the busy mark changed since the last one (a phone pays a whole
// frame for a render that changes nothing); render("boot"): the engine's
// boot went a stage further: while the saved table waits for it (issue 33)
// only the page's boot mark changes (the stage shows on the boot screen
// alone), so the table is not built again at each stage: on a phone that
// was a frame of 40-90 ms each time, on the core the worker boots on.
// render("close"): "Siguiente" closed the deal result panel (closeDealResult).
function render(mode = "full") {
  if (mode === "busy") return renderBusy();
  if (mode === "close" && closeDealResult()) return;
  if (mode === "settle" && closing) return renderBusy(); // the close's own render is due
  if (mode === "boot" && state.view && state.ui.waking && !state.boot.error) {
    root.dataset.boot = state.boot.stage;
    return;
  }
  if (mode === "settle") {
    const now = shownFrom();
    if (now && shown && now.view === shown.view && now.rest === shown.rest) {
      renderBusy();
      tutorial.tick();
      return;
    }
  }
  closing = false;
  // Where the cards are, read first: a read after the writes below would
  // lay the page out for them alone.
  motion.measure();
  root.dataset.busy = String(state.busy);
  const speed = ANIM_MS[state.settings.speed] ?? ANIM_MS.normal;
  root.dataset.boot = state.boot.error ? "failed" : state.boot.stage;
  root.dataset.phase = state.view ? state.view.phase : "";
  root.dataset.toAct = state.view && state.view.to_act !== null ? String(state.view.to_act) : "";
  root.style.setProperty("--anim", `${speed}ms`);
  const message = state.ui.message && { ...state.ui.message, text: state.ui.message.text(state.t) };
  const animated = speed > 0 && state.boot.stage === "ready" && !matchMedia("(prefers-reduced-motion: reduce)").matches;
  const stage = dealEnd.stageOf(state, animated);
  const shownUi =
    stage === "held" ? { ...state.ui, panel: null, focus: null } : stage === "building" ? { ...state.ui, focus: null, building: true } : state.ui;
  const pageUi = {
    ...shownUi,
    message,
    t: state.t,
    lang: state.lang,
    boot: state.boot,
    busy: state.busy,
    notices: state.notices,
    settings: state.settings,
    canSave: storage.writable,
  };
  // The deal result panel laid out hidden: over the table the move's render
  // ("held") has just drawn, only the panel is built (table/deal-end.js).
  if (stage !== "building" || !buildPanel(root, state.view, pageUi)) renderPage(root, state.view, pageUi);
  if (!stage) motion.animate(state.view, shownUi, state.boot.stage === "ready" ? speed : 0);
  notices.shown(placeNotices(root));
  if (state.boot.stage === "ready") feedback.shown(state.view, state.ui);
  // Focus requests play once, on the render right after (a deal result panel's, when it is shown).
  if (!stage) state.ui.focus = null;
  controller.keepUi();
  shown = shownFrom();
  tutorial.tick();
  noteHand();
}

// Settles once what was just rendered has been painted: the task after the
// next frame's paint. A hidden page paints no frame: at once then.
function afterPaint() {
  if (document.hidden) return Promise.resolve();
  return new Promise((resolve) => {
    const hidden = () => {
      if (!document.hidden) return;
      document.removeEventListener("visibilitychange", hidden);
      resolve();
    };
    document.addEventListener("visibilitychange", hidden);
    requestAnimationFrame(() =>
      setTimeout(() => {
        document.removeEventListener("visibilitychange", hidden);
        resolve();
      }, 0),
    );
  });
}

// Settles at an idle moment once the deal result panel just asked for is
// shown (its stages are set by the render the move's paint follows:
// table/deal-end.js). Not in the move's own task: that one draws the next
// deal's table, the longest frame of a deal's end on a phone (issue 33).
function afterDealShown() {
  return afterPaint()
    .then(() => dealEnd.done())
    .then(() => new Promise((resolve) => whenIdle(resolve, 0, 1000)));
}

const controller = createController({
  state,
  storage,
  render,
  announce,
  notify,
  onReady: (value) => {
    offerAtStart(state, storage, openedAt); // the day's match, offered at the start
    if (state.ui.dailyOffer) render();
    resolveReady(value);
  },
  settled: () => motion.settled(), // the computer waits for the motion in front of it
  painted: afterPaint, // the saved table on screen before the engine's worker starts
  quiet: afterDealShown, // the extra engine (Difícil with your cards) starts then
});
const tutorial = createTutorial({ state, controller, render, notify });
const intents = createIntents({ state, controller, render, announce, setLanguage, clearLog, tutorial, notices });

// Entering or leaving fullscreen (the menu's button, Escape, the system)
// only relabels the button: the match stays exactly where it was.
onFullscreenChange(() => render());

// A challenge in the link is kept first (and told), whatever is asked next.
function receive(hash) {
  const told = receiveLink(storage, hash);
  if (told) notify(told, "info");
  return told;
}

window.addEventListener("hashchange", () => {
  const wanted = seedFromHash(location.hash);
  const challenged = receive(location.hash);
  if (state.view && state.boot.stage === "ready" && wanted && wanted !== state.view.seed) {
    controller.followLink(wanted, linkRules(location.hash));
  } else if (challenged && state.view) {
    controller.followMatch(); // a challenge for the match on the table
    render();
  }
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
  // Every notice told since the page opened (shown, waiting or gone).
  get notices() {
    return notices.told();
  },
  get ui() {
    const { selected, panel, menuOpen, knock, result, hintTarget, waking } = state.ui;
    const message = state.ui.message && { ...state.ui.message, text: state.ui.message.text(state.t) };
    return JSON.parse(JSON.stringify({ selected, panel, menuOpen, knock, result, message, hintTarget, waking }));
  },
  // Ready for the player: the engine's work done, the coach quiet and the
  // deal landed (a tap while it lands only lands it: table/input.js).
  idle: () =>
    controller
      .idle()
      .then(coachIdle)
      .then(() => motion.landed())
      .then(() => dealEnd.done())
      .then(() => (state.busy ? new Promise((r) => setTimeout(r, 20)).then(() => window.ginApp.idle()) : undefined)),
};

setLanguage(state.settings.lang);
if (!storage.available) notify("storage.unavailable", "warning");
// Plain HTTP on a LAN address (issue 36, item 11): no offline copy, no Web
// Locks (data/tabs.js talks over a BroadcastChannel instead); said once per page.
if (!window.isSecureContext) notify("storage.insecure", "warning");
if (checked.bad.length) {
  // The text as it was goes aside (quietly: the one notice says what was
  // reset); then the checked settings replace it.
  const raw = storage.read(KEYS.settings);
  quietAside = KEYS.settings;
  if (storage.setAside(KEYS.settings, raw) || storage.asideList().some((s) => s.key === KEYS.settings && s.raw === raw)) storage.writeSettings(state.settings);
  quietAside = null;
  const [key, vars] = settingsResetNotice(checked.bad);
  notify(key, "warning", vars);
}
receive(location.hash);
// A tap or a key while a deal lands lands it (table/input.js).
bindInput(root, { ...intents, skipDeal: () => motion.skipDeal() });
bindNoticeHold(root, (reason, on) => notices.hold(reason, on));
// A hidden page holds the notices' clocks; a new size places them again.
document.addEventListener("visibilitychange", () => notices.hold("hidden", document.hidden));
window.addEventListener("resize", () => notices.shown(placeNotices(root)));
bindDrag(root, intents);
controller.start();
