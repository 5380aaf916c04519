// What the player can do from the menu: open and close it and the rules
// page, start a new match or replay this one, change a setting, and open
// the sheets (statistics, the kept matches, the replay viewer), which come
// back here when they close. Each takes the intents' record first
// (play/intents.js createIntents).

import { newSeed } from "../model/seed.js";
import { CUSTOM_CHOICES, DEFAULT_SETTINGS, SPEED_DELAY_MS } from "../model/settings.js";
import { DEFAULT_SWITCHES, PROFILES, rulesOf } from "../model/variants.js";
import { matchId } from "../data/finished.js";
import { toggleFullscreen } from "../table/fullscreen.js";
import { openMatchesSheet } from "../screens/matches.js";
import { openStatsSheet } from "../screens/stats.js";
import { openViewer } from "../screens/viewer.js";
import { LOOK_SETTINGS } from "./look-intents.js";

// --- the menu and the rules page ----------------------------------------------------

// Leaves the menu for a panel (and the focus to `focus`, when given).
export function fromMenu(ctx, panel, focus) {
  const { state } = ctx;
  state.ui.menuOpen = false;
  state.ui.panel = panel;
  if (focus) state.ui.focus = focus;
  ctx.render();
}

function openMenu(ctx) {
  ctx.state.ui.menuOpen = true;
  ctx.state.ui.focus = "closeMenu";
  ctx.render();
}

export function closeMenu(ctx) {
  ctx.state.ui.menuOpen = false;
  ctx.state.ui.focus = "menu";
  ctx.render();
  ctx.controller.playOn();
}

// "Volver a la mesa" on the rules page: to the table (the menu closed
// too); "Volver al menú" and Escape: one step back, to the menu.
function closeHelp(ctx) {
  const { state } = ctx;
  state.ui.panel = null;
  state.ui.menuOpen = false;
  state.ui.focus = "menu";
  ctx.render();
  ctx.controller.playOn();
}

export function helpToMenu(ctx) {
  const { state } = ctx;
  state.ui.panel = null;
  state.ui.menuOpen = true;
  state.ui.focus = "help";
  ctx.render();
}

// --- a new match, the same match again -----------------------------------------------

function confirmNew(ctx) {
  const { state, controller } = ctx;
  state.ui.panel = null;
  // The match left joins the unfinished ones ("Partidas"), as when a link
  // opens another: nothing the player has is lost (confirm.new says so).
  controller.runTask(() => controller.startMatch(newSeed()));
}

// "Repetir": after a finished match at once; in the middle of one, only
// once the player confirms (like "Nueva partida").
function replay(ctx) {
  const { state } = ctx;
  if (!state.view) return;
  if (!state.view.over) return fromMenu(ctx, "confirmReplay", "confirmReplay");
  state.ui.menuOpen = false;
  confirmReplay(ctx);
}

function confirmReplay(ctx) {
  const { state, controller } = ctx;
  if (!state.view) return;
  const seed = state.view.seed;
  state.ui.panel = null;
  // The same seed from its first deal, under the rules the menu names; the
  // day's match or a challenge's, under its own rules and level (play/daily.js).
  const fixed = state.ui.fixed ? { ...rulesOf(state.view.rules), level: state.ui.fixed.level } : undefined;
  controller.runTask(() => controller.startMatch(seed, fixed));
}

// --- settings -------------------------------------------------------------------------

function changed(ctx) {
  ctx.controller.persistSettings();
  ctx.render();
}

// "Acelerar" toggles between fast and normal play of the computer's turns.
function faster(ctx) {
  const { settings } = ctx.state;
  settings.speed = settings.speed === "fast" || settings.speed === "instant" ? "normal" : "fast";
  changed(ctx);
}

function level(ctx, { value }) {
  const { state, controller } = ctx;
  if (!["easy", "normal", "hard"].includes(value)) return;
  state.settings.level = value;
  controller.persistSettings();
  state.ui.levelNote = true;
  // The day's match or a challenge's keeps its level (the menu says so).
  if (state.view && !state.ui.fixed) controller.runTask(async () => controller.accept(await controller.call("set_level", { level: value })));
  else ctx.render();
}

function profile(ctx, { value }) {
  if (!PROFILES.includes(value)) return;
  ctx.state.settings.profile = value;
  ctx.state.ui.profileNote = true;
  changed(ctx);
}

// Oklahoma's ace and spade, Hollywood: yes/no for the next match.
function variantOption(ctx, { name, value }) {
  const { state } = ctx;
  if (!Object.hasOwn(DEFAULT_SWITCHES, name) || !["yes", "no"].includes(value)) return;
  state.settings.variant = { ...DEFAULT_SWITCHES, ...(state.settings.variant || {}), [name]: value === "yes" };
  state.ui.profileNote = true;
  changed(ctx);
}

function customOption(ctx, { name, value }) {
  const { state } = ctx;
  const allowed = CUSTOM_CHOICES;
  if (!Object.hasOwn(allowed, name)) return;
  const parsed = value === "off" ? null : Number(value);
  if (!allowed[name].includes(parsed)) return;
  state.settings.custom = { ...DEFAULT_SETTINGS.custom, ...(state.settings.custom || {}), [name]: parsed };
  state.ui.profileNote = true;
  changed(ctx);
}

function lang(ctx, { value }) {
  if (!["es", "en"].includes(value)) return;
  ctx.state.settings.lang = value;
  ctx.setLanguage(value);
  ctx.controller.persistSettings();
  ctx.clearLog(); // the log's old lines are in the other language
  ctx.render();
}

function speed(ctx, { value }) {
  if (!Object.hasOwn(SPEED_DELAY_MS, value)) return;
  ctx.state.settings.speed = value;
  changed(ctx);
}

function sort(ctx, { value }) {
  if (!["melds", "suit", "rank", "manual"].includes(value)) return;
  ctx.state.settings.sort = value;
  changed(ctx);
}

function fourColour(ctx, { value }) {
  ctx.state.settings.fourColour = Boolean(value);
  changed(ctx);
}

// The intents an imported file's settings go through (the menu's checks).
const SETTINGS = { lang, speed, sort, fourColour, profile, level, ...LOOK_SETTINGS };

// Settings from an imported file go through the same checks as the menu's.
function importSettings(ctx, settings) {
  for (const name of Object.keys(SETTINGS)) {
    if (name in settings && settings[name] !== null && settings[name] !== ctx.state.settings[name]) {
      SETTINGS[name](ctx, { value: settings[name] });
    }
  }
}

// --- the sheets -----------------------------------------------------------------------

// What a sheet may see and do (screens/).
export function sheetContext(ctx) {
  const { state, controller } = ctx;
  return {
    t: () => state.t,
    lang: () => state.lang,
    call: controller.call,
    reviewEngine: controller.reviewEngine,
    speed: state.settings.speed,
    settings: () => ({ ...state.settings }),
    matchId,
    finished: controller.finished,
    currentSave: () => state.save,
    storage: controller.storage,
    openMatches: controller.openMatches,
    resume(seed) {
      state.ui.menuOpen = false;
      ctx.render();
      controller.resumeMatch(seed);
    },
  };
}

export function backToMenu(ctx, key) {
  return () => {
    const { state } = ctx;
    if (state.ui.panel === "sheet") state.ui.panel = null;
    state.ui.menuOpen = true;
    state.ui.focus = key;
    ctx.render();
  };
}

// Statistics, the kept matches and the replay viewer open in sheets of
// their own (screens/) and come back here.
function stats(ctx) {
  fromMenu(ctx, "sheet"); // the table waits (and the computer with it)
  openStatsSheet({ ...sheetContext(ctx), applySettings: (settings) => importSettings(ctx, settings), onClose: backToMenu(ctx, "stats") });
}

function games(ctx) {
  fromMenu(ctx, "sheet");
  openMatchesSheet({
    ...sheetContext(ctx),
    watch: (save, back) => openViewer(save, { ...sheetContext(ctx), onClose: back }),
    onClose: backToMenu(ctx, "games"),
  });
}

function watch(ctx) {
  const { state } = ctx;
  if (!state.view || !state.view.over || !state.save) return;
  openViewer(state.save, {
    ...sheetContext(ctx),
    onClose: () => {
      state.ui.focus = "watch";
      ctx.render();
    },
  });
}

// The coach's deal summary: the viewer on a deal just ended, at a step.
export function watchAt(ctx, deal, step, key) {
  openViewer(ctx.state.save, {
    ...sheetContext(ctx),
    deal,
    step,
    onClose: () => {
      ctx.state.ui.focus = key;
      ctx.render();
    },
  });
}

export const MENU_INTENTS = {
  openMenu,
  closeMenu,
  help: (ctx) => fromMenu(ctx, "help", "closeHelp"),
  closeHelp,
  helpToMenu,
  newMatch: (ctx) => fromMenu(ctx, "confirmNew", "confirmNew"),
  confirmNew,
  replay,
  confirmReplay,
  faster,
  level,
  profile,
  variantOption,
  customOption,
  lang,
  language: (ctx) => lang(ctx, { value: ctx.state.lang === "es" ? "en" : "es" }),
  speed,
  sort,
  fourColour,
  // A notice's × (play/notices.js).
  dismiss: (ctx, { notice }) => ctx.notices.dismiss(notice),
  // An engine of another build (a newer one took over): only a reload brings this page's own.
  retry: (ctx) => (ctx.state.boot.error && ctx.state.boot.error.code === "other_build" ? location.reload() : ctx.controller.start()),
  // A success renders on fullscreenchange, a refusal through render.
  fullscreen: (ctx) => toggleFullscreen(() => ctx.render()),
  stats,
  games,
  watch,
};
