// The day's match and challenges by link, what the game does with them:
// opening a day (the calendar, the start's offer, the match result's
// button) through the controller's link path, so a match in progress is
// never replaced without asking; receiving a challenge from the address;
// recording a day's result and answering the challenges when a match ends;
// "Compartir" (the Web Share sheet where the browser has one, else the
// clipboard, else the text to copy by hand). What it keeps is
// data/daily.js's; what the table shows of it, table/daily-views.js; the
// calendar, screens/daily.js.
//
// The page's state (app.js) carries, in state.ui:
//   followed    the match last looked at ("key|over"): followMatch works once per change
//   fixed       {day, level} when the match on the table is the day's or a
//               challenge's: its level is the same for everyone (the menu's
//               level applies to the next free match)
//   challenges  the challenges received for the match on the table
//   daily       {today, done, open}: today's day, finished here, under way
//   dailyOffer  the seed of the match the start's offer was shown over, or null:
//               answered, or the player began that match (controller.js act):
//               an offer to play another match instead, moot once this one is
//               under way (not declined: it may come at another visit's start)
//   shared      {kind: "shared"|"copied"|"manual", text} after Compartir, or null

import { DAILY_RULES, dailySeed, dayOf, dayOfSeed, levelOfSave } from "../model/daily.js";
import { challengeFromHash, isDailyMatch, keyOfSave, linkHash, matchKey, rulesParam, summaryOf } from "../model/challenge.js";
import { rulesFromHash } from "../model/variants.js";
import { answerChallenges, challengesFor, declineDay, readDaily, receiveChallenge, recordDay } from "../data/daily.js";
import { shareLine } from "../text/daily-words.js";
import { openDailySheet } from "../screens/daily.js";
import { backToMenu, fromMenu, sheetContext } from "./menu-intents.js";

// --- the match on the table --------------------------------------------------------

// Today's day, finished here or under way (the current save, or one left unfinished).
export function todayOf(state, storage, now = new Date()) {
  const today = dayOf(now);
  const seed = dailySeed(today);
  const done = readDaily(storage).days.some((d) => d.day === today);
  const current = state.save && String(state.save.seed) === seed && state.view && !state.view.over;
  const open = current || storage.openMatches().some((m) => m.seed === seed);
  return { today, done, open };
}

// After every engine answer (controller.accept): when the match or its
// end changed, the day's result and the challenges' answers are kept
// (`keep`: by the tab that owns the match, never for the guided deal), and
// what the table shows of them is read.
export function followMatch(state, storage, keep = true, at = Date.now()) {
  const { view, save } = state;
  if (!view || !save || !save.rules) return;
  const key = keyOfSave(save, save.rules);
  const mark = `${key}|${view.over}`;
  if (state.ui.followed === mark) return;
  if (!state.ui.followed || !state.ui.followed.startsWith(`${key}|`)) state.ui.shared = null;
  state.ui.followed = mark;
  const day = isDailyMatch(save, save.rules) ? dayOfSeed(String(save.seed)) : null;
  if (view.over && view.final && key && keep) {
    const result = summaryOf(view);
    if (day) recordDay(storage, day, result, at);
    answerChallenges(storage, key, result);
  }
  state.ui.challenges = key ? challengesFor(storage, key) : [];
  state.ui.fixed = day || state.ui.challenges.length ? { day, level: levelOfSave(save) } : null;
  state.ui.daily = todayOf(state, storage);
}

// A link with a challenge (the page's address at start, or a new hash):
// kept with the challenges received, answered at once when the player has
// already finished that day's match here. Returns the notice's key, or null.
export function receiveLink(storage, hash) {
  const challenge = challengeFromHash(hash);
  if (!challenge) return null;
  const day = dayOfSeed(challenge.seed);
  const daily = day && matchKey(challenge.seed, challenge.rules, challenge.level) === matchKey(dailySeed(day), DAILY_RULES.profile, DAILY_RULES.level);
  const played = daily ? readDaily(storage).days.find((d) => d.day === day) : null;
  const kept = receiveChallenge(storage, challenge, played || null);
  if (!kept) return null;
  return kept.mine ? "challenge.received_done" : "challenge.received";
}

// The start's offer: on a visit that opens on a match the player has not
// begun yet (or one over), when today's is neither finished nor under way and was not turned
// down today; never over the guided deal's offer nor a challenge's link,
// nor beside a notice of the start (a setting reset, a saved match set
// aside: what became of the player's things is told first, and the offer,
// which takes the felt's room on a phone, waits for another visit).
export function offerAtStart(state, storage, hash) {
  const d = state.ui.daily;
  if (!d || !state.view || !state.save || state.ui.tutorialOffer || state.ui.tutorial || challengeFromHash(hash)) return;
  if (state.notices && state.notices.length) return;
  if (d.done || d.open || readDaily(storage).declined === d.today) return;
  const view = state.view;
  const fresh = view.over || (view.deal_number === 1 && !(view.events || []).some((e) => e.seat === 0));
  if (fresh && state.view.seed !== dailySeed(d.today)) state.ui.dailyOffer = state.view.seed;
}

// --- opening a day or a challenge ---------------------------------------------------

// Through the controller's link path (a match in progress is kept, after
// asking); the same seed already on the table: played again when over.
function openLinked(ctx, seed, rules, ask = null) {
  const { state, controller } = ctx;
  state.ui.dailyOffer = null;
  state.ui.menuOpen = false;
  if (state.view && state.view.seed === seed) {
    if (state.ui.panel === "match") state.ui.panel = null;
    if (state.view.over) return controller.runTask(() => controller.startMatch(seed, rules));
    ctx.render();
    return controller.playOn();
  }
  ctx.render();
  controller.followLink(seed, rules, ask);
}

export function playDay(ctx, day) {
  openLinked(ctx, dailySeed(day), DAILY_RULES, "daily");
}

function playChallenge(ctx, challenge) {
  const rules = rulesFromHash(`#rules=${challenge.rules}`);
  openLinked(ctx, challenge.seed, { ...rules, level: challenge.level });
}

// "Partida del día" in the menu: the calendar, which comes back to the menu.
function openDaily(ctx) {
  fromMenu(ctx, "sheet");
  const { state, controller } = ctx;
  openDailySheet({
    ...sheetContext(ctx),
    now: new Date(),
    current: () => ({ view: state.view, save: state.save }),
    readDaily: () => readDaily(controller.storage),
    playDay: (day) => playDay(ctx, day),
    playChallenge: (challenge) => playChallenge(ctx, challenge),
    onClose: backToMenu(ctx, "daily"),
  });
}

function declineOffer(ctx) {
  const { state, controller } = ctx;
  state.ui.dailyOffer = null;
  if (state.ui.daily) declineDay(controller.storage, state.ui.daily.today);
  ctx.render();
}

// --- Compartir ------------------------------------------------------------------------

// "shared", "copied", "manual" (nothing could send it: the text is shown to
// copy by hand), or null (the player closed the share sheet).
export async function sendShare(title, text, url, nav = globalThis.navigator) {
  const data = { title, text, url };
  if (nav && typeof nav.share === "function" && (typeof nav.canShare !== "function" || nav.canShare(data))) {
    try {
      await nav.share(data);
      return "shared";
    } catch (err) {
      if (err && err.name === "AbortError") return null;
    }
  }
  try {
    await nav.clipboard.writeText(`${text}\n${url}`);
    return "copied";
  } catch {
    return "manual";
  }
}

// The match just finished: a short line (result, deals, gins, undercuts)
// and a link that opens the same match and carries this result.
function share(ctx) {
  const { state } = ctx;
  const { view, save } = state;
  if (!view || !view.over || !view.final || !save) return;
  const level = levelOfSave(save) || view.level;
  const summary = summaryOf(view);
  const url = new URL(linkHash(view.seed, save.rules, level, summary), location.href).href;
  const text = shareLine(state.t, state.lang, summary, { seed: view.seed, rules: rulesParam(save.rules), level });
  return sendShare(state.t("share.title"), text, url).then((kind) => {
    state.ui.shared = kind ? { kind, text: `${text}\n${url}` } : null;
    state.ui.focus = kind === "manual" ? "share-text" : "share";
    ctx.render();
  });
}

export const DAILY_INTENTS = {
  daily: openDaily,
  playToday: (ctx) => ctx.state.ui.daily && playDay(ctx, ctx.state.ui.daily.today),
  dailyNo: declineOffer,
  share,
};
