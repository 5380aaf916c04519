// Every key this game keeps in the browser's storage, in one place: what
// each holds, which module reads and writes it. A key not listed here is
// not ours. Formats carry a version in the key (".v1"); docs/history.md
// tells what each holds and how it is kept aside when it cannot be read.

export const KEYS = Object.freeze({
  match: "gin.match.v1", // the current match's save (gin.save format)
  brokenMatch: "gin.match.broken", // (before gin.aside.v1) one unreadable save; moved into the slots
  settings: "gin.settings.v1", // language, level, speed, sort...
  acknowledged: "gin.acknowledged.v1", // {seed, deal}: the last deal result the player closed
  ui: "gin.ui.v1", // {seed, actions, selected, order, knock}: the selection, the hand order, an open knock panel
  shown: "gin.shown.v1", // {version, seed, actions, view}: the table last shown for the save, drawn before the engine is up (issue 33)
  finished: "gin.finished.v1", // [{at, save}]: the last 50 finished matches, oldest first (finished.js)
  records: "gin.records.v2", // [line]: one per deal ever ended and per match ever finished (finished.js)
  cleared: "gin.cleared.v2", // [line id | {seed, actions, id}]: what "Borrar" cleared of the matches not finished then (finished.js)
  clearedV1: "gin.cleared.v1", // (before v2) [line id]: read as v2's ids, removed at the next "Borrar"
  totals: "gin.totals.v1", // the statistics lines older than the last RECENT_LINES, summed (finished.js)
  open: "gin.open.v1", // [{seed, at, save}]: matches left unfinished for another one, newest last
  ended: "gin.ended.v1", // [matchId]: the last matches a tab saw end, newest last (storage.js: never kept as unfinished, even after "Borrar")
  aside: "gin.aside.v1", // [{key, at, raw}]: unreadable stored values kept aside, oldest first
  coach: "gin.coach.v1", // [{seed, deal, at, kinds: {upcard, draw, discard, knock}}]: the coach's notes per deal, oldest first (coachlog.js)
  tutorial: "gin.tutorial.v1", // "done" | "skipped": the guided first deal was played or turned down (play/tutorial.js)
  duplicate: "gin.duplicate.v1", // {version, records, totals}: Difícil with your cards per deal, the oldest summed (duplicates.js)
  // The day's match and challenges by link (data/daily.js).
  daily: "gin.daily.v1", // {version, days: [{day, at, totals, deals, gins, undercuts}], older, declined}: each day's first result, oldest first
  challenges: "gin.challenges.v2", // {version, challenges: [{at, seed, rules, level, from, mine}]}: the challenges received by link, oldest first
  challengesV1: "gin.challenges.v1", // (before v2) the bare list: read with v2's, never written (an older build's tab may still use it)
  probe: "gin.probe", // written and removed once at start-up: is localStorage writable? (local.js)
});

// In sessionStorage (a quota of its own, and it survives a reload of the
// tab): {seed, saved, reached} when the match could not be saved.
export const LOST_KEY = "gin.lost.v1";
// In sessionStorage, written only by a test: the engine of the next page
// load waits for window.ginReleaseEngine() (play/controller.js, heldByTest).
export const HOLD_ENGINE_KEY = "gin.test.holdEngine";

// Not storage but a Web Lock's name, + the match's seed: the tab that holds
// it plays that match (tabs.js).
export const MATCH_LOCK_PREFIX = "gin.match.";
