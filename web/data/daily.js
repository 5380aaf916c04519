// The day's matches played and the challenges received, kept in this
// browser only (through storage.js: a value that cannot be read is kept
// aside, never overwritten unseen; a blocked or full storage never stops
// the game). Two keys (keys.js), each bounded:
//   gin.daily.v1       {days: [{day, at, totals, deals, gins, undercuts}],
//                       older, declined}: the first result of each day's
//                       match finished here, oldest first (DAYS_KEEP; older
//                       days are summed into `older`), and the day the
//                       start's offer was turned down
//   gin.challenges.v1  [{at, seed, rules, level, from, mine}]: the
//                       challenges received by link, oldest first
//                       (CHALLENGES_KEEP), with the sender's result (`from`)
//                       and, once the match is over here, the player's own
// A result is model/challenge.js's summary: {totals, deals, gins, undercuts}.

import { KEYS } from "./keys.js";
import { ImportRefused } from "./finished.js";
import { dateOfDay } from "../model/daily.js";
import { encodeSummary, LEVELS, matchKey, outcomeOf, validSummary } from "../model/challenge.js";
import { normalizeSeed } from "../model/seed.js";
import { rulesFromHash } from "../model/variants.js";

export const DAYS_KEEP = 400;
export const CHALLENGES_KEEP = 50;

const plain = (v) => Boolean(v) && typeof v === "object" && !Array.isArray(v);
const isCount = (n) => Number.isInteger(n) && n >= 0;
const TALLY = ["days", "won", "lost", "drawn", "deals", "gins", "undercuts"];

const validDay = (d) => plain(d) && dateOfDay(d.day) !== null && Number.isFinite(d.at) && validSummary(d);
const validOlder = (o) => o === null || (plain(o) && TALLY.every((k) => isCount(o[k])) && (o.best === null || validSummary(o.best)));

export function validChallenge(c) {
  if (!plain(c) || !Number.isFinite(c.at) || typeof c.seed !== "string" || normalizeSeed(c.seed) !== c.seed) return false;
  if (typeof c.rules !== "string" || !rulesFromHash(`#rules=${c.rules}`) || !LEVELS.includes(c.level)) return false;
  return validSummary(c.from) && (c.mine === null || validSummary(c.mine));
}

// A stored summary with only its own fields (a day's entry carries more).
const summary = (s) => ({ totals: [s.totals[0], s.totals[1]], deals: s.deals, gins: s.gins, undercuts: s.undercuts });
const margin = (s) => s.totals[0] - s.totals[1];

// --- the days --------------------------------------------------------------------

const emptyDaily = () => ({ days: [], older: null, declined: null });

// {days, older, declined}; entries that are not what they should be are
// dropped after the whole value was kept aside.
export function readDaily(storage) {
  const value = storage.readChecked(KEYS.daily, plain);
  if (!value) return emptyDaily();
  const list = Array.isArray(value.days) ? value.days : [];
  const days = list.filter(validDay);
  const older = validOlder(value.older ?? null) ? value.older ?? null : null;
  const declined = dateOfDay(value.declined) ? value.declined : null;
  if (days.length !== list.length || !Array.isArray(value.days) || (value.older ?? null) !== older) storage.setAside(KEYS.daily, storage.read(KEYS.daily));
  return { days, older, declined };
}

// The days beyond DAYS_KEEP, the oldest, summed into `older`.
function bounded(daily) {
  const days = [...daily.days].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const gone = days.splice(0, Math.max(0, days.length - DAYS_KEEP));
  if (!gone.length) return { ...daily, days };
  return { ...daily, days, older: addTally(daily.older, gone) };
}

function addTally(older, days) {
  const out = older ? { ...older } : { ...Object.fromEntries(TALLY.map((k) => [k, 0])), best: null };
  for (const d of days) {
    out.days += 1;
    out[outcomeOf(d)] += 1;
    out.deals += d.deals;
    out.gins += d.gins;
    out.undercuts += d.undercuts;
    if (!out.best || margin(d) > margin(out.best)) out.best = summary(d);
  }
  return out;
}

// The day's match of `day` ended here with `result`: kept if it is the
// first result of that day (playing a day again changes nothing). True
// when it was written now.
export function recordDay(storage, day, result, at = Date.now()) {
  const daily = readDaily(storage);
  if (daily.days.some((d) => d.day === day)) return false;
  daily.days.push({ day, at, ...summary(result) });
  return storage.writeJson(KEYS.daily, bounded(daily));
}

// "Ahora no" on the start's offer: not offered again that day.
export function declineDay(storage, day) {
  return storage.writeJson(KEYS.daily, { ...readDaily(storage), declined: day });
}

// The record of the days kept and summed: {days, won, lost, drawn, deals, gins, undercuts, best}.
export function dayTally(daily) {
  return addTally(daily.older, daily.days);
}

// "Borrar" in Estadísticas: the days' results go with the rest of the record.
export function clearDays(storage) {
  return storage.remove(KEYS.daily);
}

// --- the challenges received ----------------------------------------------------------

export function readChallenges(storage) {
  const list = storage.readChecked(KEYS.challenges, Array.isArray);
  if (!list) return [];
  const good = list.filter(validChallenge);
  if (good.length !== list.length) storage.setAside(KEYS.challenges, storage.read(KEYS.challenges));
  return good;
}

export const challengeKey = (c) => matchKey(c.seed, c.rules, c.level);
const sameChallenge = (a, b) => challengeKey(a) === challengeKey(b) && encodeSummary(a.from) === encodeSummary(b.from);

function writeChallenges(storage, list) {
  return storage.writeJson(KEYS.challenges, list.slice(-CHALLENGES_KEEP));
}

// A challenge read from a link ({seed, rules, level, from}); `mine`: the
// player's own result when they have already played that match. Kept once
// (the same link again adds nothing). Returns the entry as kept, or null
// when it could not be written.
export function receiveChallenge(storage, challenge, mine = null, at = Date.now()) {
  const list = readChallenges(storage);
  const here = list.find((c) => sameChallenge(c, challenge));
  if (here) return here;
  const entry = { at, seed: challenge.seed, rules: challenge.rules, level: challenge.level, from: summary(challenge.from), mine: mine && summary(mine) };
  if (!validChallenge(entry)) return null;
  list.push(entry);
  return writeChallenges(storage, list) ? entry : null;
}

// The challenges received for the match `key` (model/challenge.js matchKey).
export function challengesFor(storage, key) {
  return readChallenges(storage).filter((c) => challengeKey(c) === key);
}

// The match `key` is over here: its challenges not answered yet get the
// player's result (the first one: playing it again changes nothing).
export function answerChallenges(storage, key, result) {
  const list = readChallenges(storage);
  let n = 0;
  for (const c of list) {
    if (challengeKey(c) !== key || c.mine) continue;
    c.mine = summary(result);
    n++;
  }
  return n && writeChallenges(storage, list) ? n : 0;
}

// --- Exportar / Importar ----------------------------------------------------------------

export function exportDaily(storage) {
  return { daily: readDaily(storage), challenges: readChallenges(storage) };
}

// The parts of an export file this module keeps, checked before anything
// is written: {daily, challenges} (each may be missing); throws ImportRefused.
export function readImport(file) {
  const daily = file.daily === undefined ? null : file.daily;
  const challenges = file.challenges === undefined ? [] : file.challenges;
  if (daily !== null && (!plain(daily) || !Array.isArray(daily.days) || !daily.days.every(validDay) || !validOlder(daily.older ?? null))) throw new ImportRefused("data.bad_daily");
  if (!Array.isArray(challenges) || !challenges.every(validChallenge)) throw new ImportRefused("data.bad_daily");
  return { days: daily ? daily.days : [], older: daily ? daily.older ?? null : null, challenges };
}

// Adds what is new: days not played here (a day played here keeps its
// result), the file's older sums when none are here, challenges not
// received here. Returns {days, challenges}: how many were added. Never
// evicts anything for room (ImportRefused "data.cannot_save").
export function mergeImport(storage, parts) {
  const daily = readDaily(storage);
  const known = new Set(daily.days.map((d) => d.day));
  const days = parts.days.filter((d) => !known.has(d.day));
  const list = readChallenges(storage);
  const fresh = parts.challenges.filter((c) => !list.some((here) => sameChallenge(here, c)));
  const older = daily.older || parts.older;
  if (!days.length && !fresh.length && older === daily.older) return { days: 0, challenges: 0 };
  const merged = bounded({ ...daily, days: [...daily.days, ...days], older });
  const all = [...list, ...fresh].sort((a, b) => a.at - b.at).slice(-CHALLENGES_KEEP);
  if (!storage.writeAll([[KEYS.daily, merged], [KEYS.challenges, all]])) throw new ImportRefused("data.cannot_save");
  return { days: days.length, challenges: fresh.length };
}
