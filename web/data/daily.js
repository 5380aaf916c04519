// The day's matches played and the challenges received, kept in this
// browser only (through storage.js: a value that cannot be read is kept
// aside, never overwritten unseen; a blocked or full storage never stops
// the game). Two keys (keys.js), each bounded, each with its format's
// version (formats.js: a value of a newer one is neither read nor rewritten):
//   gin.daily.v1       {version, days: [{day, at, totals, deals, gins,
//                       undercuts}], older, declined}: the first result of
//                       each day's match finished here, oldest first
//                       (DAYS_KEEP; older days are summed into `older`), and
//                       the day the start's offer was turned down
//   gin.challenges.v2  {version, challenges: [{at, seed, rules, level, from,
//                       mine}]}: the challenges received by link, oldest
//                       first (CHALLENGES_KEEP), with the sender's result
//                       (`from`) and, once the match is over here, the
//                       player's own
// A result is model/challenge.js's summary: {totals, deals, gins, undercuts}.
//
// Before they carried a version (build 287f3da and earlier,
// tests/fixtures/stored/287f3da-daily): gin.daily.v1 was the same object
// without `version` (read as version 1 and written back with it: the same
// fields, which those builds still read); the challenges were a bare list
// under gin.challenges.v1. That key is never written here: its entries are
// read with this build's (an older build's tab may still add to it) and
// kept where they are, for the builds that read only it.

import { KEYS } from "./keys.js";
import { ImportRefused } from "./finished.js";
import { dateOfDay } from "../model/daily.js";
import { encodeSummary, LEVELS, matchKey, outcomeOf, validSummary } from "../model/challenge.js";
import { normalizeSeed } from "../model/seed.js";
import { rulesFromHash } from "../model/variants.js";

export const DAYS_KEEP = 400;
export const CHALLENGES_KEEP = 50;
// The formats' versions (formats.js OBJECT_VERSIONS lists them).
export const DAILY_VERSION = 1;
export const CHALLENGES_VERSION = 2; // 1: the bare list under gin.challenges.v1

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

// Today's version, or none (the builds before it: the same fields).
const dailyFormat = (v) => plain(v) && (v.version === undefined || v.version === DAILY_VERSION);

// {days, older, declined}; entries that are not what they should be are
// dropped after the whole value was kept aside. A value of a newer format
// reads as nothing here (and is never written over: storage.js).
export function readDaily(storage) {
  const value = storage.readChecked(KEYS.daily, dailyFormat);
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
  return writeDaily(storage, bounded(daily));
}

// {days, older, declined} stored with its version.
function writeDaily(storage, daily) {
  return storage.writeJson(KEYS.daily, dailyValue(daily));
}

const dailyValue = (daily) => ({ version: DAILY_VERSION, days: daily.days, older: daily.older, declined: daily.declined });

// "Ahora no" on the start's offer: not offered again that day.
export function declineDay(storage, day) {
  return writeDaily(storage, { ...readDaily(storage), declined: day });
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

const challengesFormat = (v) => plain(v) && v.version === CHALLENGES_VERSION && Array.isArray(v.challenges);

// The entries of `list` that are what they should be; when some are not,
// the value under `key` is kept aside first.
function goodChallenges(storage, key, list) {
  const good = list.filter(validChallenge);
  if (good.length !== list.length) storage.setAside(key, storage.read(key));
  return good;
}

// The challenges received, oldest first: this build's, with those an
// older build keeps in gin.challenges.v1 (bare list) that are not among
// them (and the player's result there where this build's has none).
export function readChallenges(storage) {
  const value = storage.readChecked(KEYS.challenges, challengesFormat);
  const list = value ? goodChallenges(storage, KEYS.challenges, value.challenges) : [];
  const legacy = goodChallenges(storage, KEYS.challengesV1, storage.readChecked(KEYS.challengesV1, Array.isArray) || []);
  if (!legacy.length) return list;
  for (const c of legacy) {
    const here = list.find((h) => sameChallenge(h, c));
    if (!here) list.push(c);
    else if (!here.mine && c.mine) here.mine = c.mine;
  }
  return list.sort((a, b) => a.at - b.at).slice(-CHALLENGES_KEEP);
}

export const challengeKey = (c) => matchKey(c.seed, c.rules, c.level);
const sameChallenge = (a, b) => challengeKey(a) === challengeKey(b) && encodeSummary(a.from) === encodeSummary(b.from);

const challengesValue = (list) => ({ version: CHALLENGES_VERSION, challenges: list.slice(-CHALLENGES_KEEP) });

function writeChallenges(storage, list) {
  return storage.writeJson(KEYS.challenges, challengesValue(list));
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
  if (storage.newer(KEYS.daily) || storage.newer(KEYS.challenges)) throw new ImportRefused("data.newer_here");
  const merged = bounded({ ...daily, days: [...daily.days, ...days], older });
  const all = [...list, ...fresh].sort((a, b) => a.at - b.at);
  if (!storage.writeAll([[KEYS.daily, dailyValue(merged)], [KEYS.challenges, challengesValue(all)]])) throw new ImportRefused("data.cannot_save");
  return { days: days.length, challenges: fresh.length };
}
