// Finished matches and the player's record, kept in this browser only
// (behind storage.js, so a blocked or full localStorage never breaks play).
// The module's state is one record (createFinished); its functions take it.
//
// Two keys:
//   gin.finished.v1  [{at, save}]  the last KEEP finished matches (oldest
//                    dropped): what the "Partidas" list and the viewer show.
//   gin.records.v2   [line]        one small line per deal ever ended and per
//                    match ever finished, as the engine's `stats` counts them
//                    (gin/stats.py `records`). Statistics are summed from these
//                    lines, so they outlive the 50-match history.
// A deal counts when it ends, under the level it was played at (the save's
// meta.levels), whether its match is finished later or left half-way; a match
// counts (won / lost / drawn, best result, streaks) when it ends. A line is
// known by its seed, rules and the actions up to its end (lineId): the end
// screen shown again, a reload, an older autosave, an import or the match
// replayed from its seed with the same moves never count anything twice.

import { KEYS } from "./keys.js";
import { splitEntries } from "./formats.js";
import { isDailyLine } from "../model/daily.js";

export const KEEP = 50;
// Statistics lines kept one by one (about 235 matches); older ones are summed
// into gin.totals.v1 (bounded: 9 groups, 16 bests and streaks, and the
// digests of the summed lines that may still come back, below).
export const RECENT_LINES = 2000;
// The summed lines' digests (12 digits of each line's id) tell a line
// counted already when it comes back: a kept match resumed or recounted, an
// import. They are kept by the seed of their match (totals.ids: [[seed, at,
// digests]], the group last summed to last). Those of a match still here
// (the current one, the unfinished ones, the finished ones kept: the only
// saves whose lines are counted again) are always kept; of the others the
// newest MAX_DIGESTS at least, whole groups going oldest first, and
// `forgotten` (the latest date of a line whose digest went) stays: an
// import's line or summed totals dated before it may be counted already and
// are refused (data.old_record, data.old_totals), never counted twice. A
// match no longer here played again from its seed with the very same moves
// counts again once its digests went. About 15 characters a digest.
// Before (totals version 1, builds up to 287f3da) every digest was kept:
// those stay, as one group of no seed, and no longer grow.
export const MAX_DIGESTS = 2000;
export const TOTALS_VERSION = 2;
export const EXPORT_FORMAT = "gin-local-data";
// 3: totals of version 2 (digests by seed). 2: a line per deal and per
// match, totals of version 1 (read and converted). 1 (build e365d9b): a
// line per finished match, of a shape no longer kept; such a file imports
// its matches, whose lines are counted again from their saves (fileOf).
export const EXPORT_VERSION = 3;
export const LEVELS = ["easy", "normal", "hard"];
export { STATS_PROFILES as PROFILES } from "../model/variants.js";
import { STATS_PROFILES as PROFILES } from "../model/variants.js";
// The integer counters of a record (and of a sum of records), as gin/stats.py.
export const COUNTERS = [
  "matches",
  "won",
  "lost",
  "drawn",
  "deals",
  "deals_won",
  "gins",
  "big_gins",
  "knocks",
  "undercuts_made",
  "undercuts_suffered",
];

// Two FNV-1a hashes of the text: 64 bits, enough to tell matches apart.
function hash(text) {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193 + 2) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

export function matchId(save) {
  const seed = String(save && save.seed);
  const actions = (save && save.actions) || [];
  return `${seed}:${actions.length}:${hash(canonical([save && save.rules, actions]))}`;
}

// A line's identity: a match's is its matchId (the "Partidas" list finds a
// kept match's result by it); a deal's is the number of the deal and the
// matchId of the match as it was when that deal ended.
export function lineId(save, line) {
  const upTo = { seed: save.seed, rules: save.rules, actions: (save.actions || []).slice(0, line.actions) };
  return line.kind === "match" ? matchId(upTo) : `deal${line.deal}:${matchId(upTo)}`;
}

const isCount = (n) => Number.isInteger(n) && n >= 0;
const FIELDS = ["kind", "seed", "deal", "actions", "level", "profile", ...COUNTERS, "knock_count", "knock_deadwood"];

// The lines of one save, as the engine's `stats` counts them, with their ids.
function linesOf(save, stats, at) {
  return stats.records.map((r) => {
    const line = { id: lineId(save, r), at };
    for (const key of FIELDS) line[key] = r[key];
    if (r.kind === "match") line.totals = [...r.totals];
    return line;
  });
}

// A line read from storage or a file: every field of the right kind, and the
// counters of one deal or of one match.
function validRecord(r) {
  if (!r || typeof r !== "object" || Array.isArray(r)) return false;
  if (typeof r.id !== "string" || typeof r.seed !== "string" || typeof r.at !== "number" || !Number.isFinite(r.at)) return false;
  if (!LEVELS.includes(r.level) || !PROFILES.includes(r.profile)) return false;
  if (!COUNTERS.every((k) => isCount(r[k])) || !isCount(r.knock_count) || !isCount(r.knock_deadwood)) return false;
  if (!Number.isInteger(r.deal) || r.deal < 1 || !Number.isInteger(r.actions) || r.actions < 1) return false;
  const dealCounters = r.deals + r.deals_won + r.gins + r.big_gins + r.knocks + r.undercuts_made + r.undercuts_suffered + r.knock_count;
  if (r.kind === "deal") {
    if (r.matches || r.won || r.lost || r.drawn || r.deals !== 1 || r.deals_won > 1) return false;
    if (r.gins + r.big_gins + r.knocks > 1 || r.undercuts_made + r.undercuts_suffered > 1) return false;
    if (r.knock_count !== r.gins + r.knocks || r.undercuts_suffered > r.knocks || r.undercuts_made > 1 - r.knock_count - r.big_gins) return false;
    // A knock has 1 to 10 points of deadwood, a gin none.
    if (r.knocks ? r.knock_deadwood < 1 || r.knock_deadwood > 10 : r.knock_deadwood !== 0) return false;
    // Won: by the human's gin, big gin or knock not undercut, or by undercutting.
    if (r.deals_won !== r.gins + r.big_gins + r.knocks - r.undercuts_suffered + r.undercuts_made) return false;
    return r.totals === undefined;
  }
  if (r.kind !== "match" || r.matches !== 1 || r.won + r.lost + r.drawn !== 1 || dealCounters || r.knock_deadwood) return false;
  return Array.isArray(r.totals) && r.totals.length === 2 && r.totals.every(isCount);
}

// A line of a newer build (a rule profile, a level or a kind added since):
// well formed, kept untouched where it is, never counted here (formats.js).
function foreignRecord(r) {
  if (!r || typeof r !== "object" || Array.isArray(r) || typeof r.id !== "string" || typeof r.seed !== "string") return false;
  if (typeof r.at !== "number" || !Number.isFinite(r.at) || typeof r.kind !== "string") return false;
  return !LEVELS.includes(r.level) || !PROFILES.includes(r.profile) || (r.kind !== "deal" && r.kind !== "match");
}

function sameRecord(a, b) {
  const same = FIELDS.every((k) => a[k] === b[k]);
  return same && (a.kind !== "match" || (a.totals[0] === b.totals[0] && a.totals[1] === b.totals[1]));
}

// --- the sum of the older lines ------------------------------------------------

const FILTER_ANY = "*";
const filterKey = (level, profile) => `${level || FILTER_ANY}|${profile || FILTER_ANY}`;
// The four filters a line counts under: any/any, its level, its profile, both.
const filtersOf = (r) => [filterKey(null, null), filterKey(r.level, null), filterKey(null, r.profile), filterKey(r.level, r.profile)];
const digest = (id) => hash(id).slice(0, 12);
const zeroGroup = () => ({ ...Object.fromEntries(COUNTERS.map((k) => [k, 0])), knock_deadwood: 0, knock_count: 0 });

export function emptyTotals() {
  return { version: TOTALS_VERSION, groups: {}, best: {}, streaks: {}, ids: [], until: 0, forgotten: 0 };
}

// The digests of totals.ids (a group's are 12 hexadecimal digits each, run together).
function digestsOf(t) {
  const out = [];
  for (const [, , run] of t.ids) for (let i = 0; i < run.length; i += 12) out.push(run.slice(i, i + 12));
  return out;
}

// Totals of version 1 (a flat list of digests) as version 2: their digests
// in one group of no seed (never dropped: which match they are of is not
// known), nothing forgotten. Version 2 as it is.
export function currentTotals(t) {
  if (t.version === TOTALS_VERSION) return t;
  const ids = t.ids.length ? [["", t.until, t.ids.join("")]] : [];
  return { ...t, version: TOTALS_VERSION, ids, forgotten: 0 };
}

// The digest `d` of a line of `seed` dated `at` joins its seed's group,
// which becomes the last (`index`: seed -> group, built by fold).
function addDigest(t, index, seed, d, at) {
  let group = index.get(seed);
  if (group) t.ids.splice(t.ids.indexOf(group), 1);
  else index.set(seed, (group = [seed, at, ""]));
  group[1] = Math.max(group[1], at);
  group[2] += d;
  t.ids.push(group);
}

// The digests of the matches not here (`present`: their seeds), beyond
// MAX_DIGESTS, go, whole groups oldest first; `forgotten` keeps their date.
function pruneDigests(t, present) {
  const loose = (g) => g[0] !== "" && !present.has(g[0]);
  let n = t.ids.reduce((sum, g) => sum + (loose(g) ? g[2].length / 12 : 0), 0);
  while (n > MAX_DIGESTS) {
    const i = t.ids.findIndex(loose);
    const [group] = t.ids.splice(i, 1);
    n -= group[2].length / 12;
    t.forgotten = Math.max(t.forgotten, group[1]);
  }
  return t;
}

const FILTER_KEYS = new Set(
  [null, ...LEVELS].flatMap((level) => [null, ...PROFILES].map((profile) => filterKey(level, profile))),
);
const GROUP_KEYS = new Set(LEVELS.flatMap((level) => PROFILES.map((profile) => filterKey(level, profile))));
// A group or filter of a newer build (a profile added since): kept as it is, not shown here.
const FOREIGN_KEY = /^[a-z0-9_*-]{1,40}\|[a-z0-9_*-]{1,40}$/;

const validGroup = (g) => Array.isArray(g) && g.length === 3 && typeof g[0] === "string" && g[0].length <= 200 && Number.isFinite(g[1]) && typeof g[2] === "string" && /^(?:[0-9a-f]{12})+$/.test(g[2]);
const validIds = (t) =>
  t.version === 1 ? t.ids.every((id) => typeof id === "string" && /^[0-9a-f]{12}$/.test(id)) : t.ids.every(validGroup) && new Set(t.ids.map((g) => g[0])).size === t.ids.length && Number.isFinite(t.forgotten);

// Stored or imported totals (version 1 or 2: currentTotals converts): every
// part of the right kind and within bounds.
export function validTotals(t) {
  if (!t || typeof t !== "object" || Array.isArray(t) || (t.version !== 1 && t.version !== TOTALS_VERSION)) return false;
  if (!Number.isFinite(t.until) || !Array.isArray(t.ids) || !validIds(t)) return false;
  const plain = (o) => o && typeof o === "object" && !Array.isArray(o);
  if (!plain(t.groups) || !plain(t.best) || !plain(t.streaks)) return false;
  for (const [key, g] of Object.entries(t.groups)) {
    if (!(GROUP_KEYS.has(key) || (FOREIGN_KEY.test(key) && !key.includes(FILTER_ANY))) || !plain(g) || ![...COUNTERS, "knock_deadwood", "knock_count"].every((k) => isCount(g[k]))) return false;
  }
  for (const [key, b] of Object.entries(t.best)) {
    if (!(FILTER_KEYS.has(key) || FOREIGN_KEY.test(key)) || !plain(b) || !Array.isArray(b.totals) || b.totals.length !== 2 || !b.totals.every(isCount)) return false;
    if (b.margin !== b.totals[0] - b.totals[1] || typeof b.seed !== "string") return false;
  }
  for (const [key, v] of Object.entries(t.streaks)) {
    if (!(FILTER_KEYS.has(key) || FOREIGN_KEY.test(key)) || !plain(v) || !isCount(v.streak) || !isCount(v.best_streak) || v.streak > v.best_streak) return false;
  }
  return true;
}

// `mine` plus another browser's totals (none of whose lines `mine` or the
// lines `recs` have), or null when all of them are here already. Totals
// whose lines may be among those `mine` forgot are refused (MAX_DIGESTS).
function mergeTotals(mine, file, recs) {
  const theirs = currentTotals(file);
  const known = new Set([...digestsOf(mine), ...recs.map((r) => digest(r.id))]);
  const ids = digestsOf(theirs);
  const shared = ids.filter((id) => known.has(id)).length;
  if (shared === ids.length) return null;
  if (shared) throw new ImportRefused("data.totals_overlap");
  if (mine.forgotten && theirs.until <= mine.forgotten) throw new ImportRefused("data.old_totals");
  const out = structuredClone(mine);
  for (const [key, g] of Object.entries(theirs.groups)) {
    const group = (out.groups[key] ||= zeroGroup());
    for (const k of Object.keys(group)) group[k] += g[k];
  }
  for (const [key, b] of Object.entries(theirs.best)) if (!out.best[key] || b.margin > out.best[key].margin) out.best[key] = structuredClone(b);
  for (const [key, v] of Object.entries(theirs.streaks)) {
    const s = (out.streaks[key] ||= { streak: 0, best_streak: 0 });
    s.best_streak = Math.max(s.best_streak, v.best_streak);
  }
  for (const group of theirs.ids) {
    const here = out.ids.find((g) => g[0] === group[0]);
    if (here) here.splice(1, 2, Math.max(here[1], group[1]), here[2] + group[2]);
    else out.ids.unshift([...group]); // older than what was summed here: dropped first
  }
  out.until = Math.max(out.until, theirs.until);
  out.forgotten = Math.max(out.forgotten, theirs.forgotten);
  return out;
}

// Sums `lines` (oldest first) into `totals` (changed in place).
function fold(totals, lines) {
  const index = new Map(totals.ids.map((g) => [g[0], g]));
  for (const r of lines) {
    if (isDailyLine(r)) {
      // The day's matches are counted apart (data/daily.js): only known, never summed.
      addDigest(totals, index, r.seed, digest(r.id), r.at);
      totals.until = Math.max(totals.until, r.at);
      continue;
    }
    const group = (totals.groups[filterKey(r.level, r.profile)] ||= zeroGroup());
    for (const k of COUNTERS) group[k] += r[k];
    group.knock_deadwood += r.knock_deadwood;
    group.knock_count += r.knock_count;
    if (r.kind === "match") {
      const margin = r.totals[0] - r.totals[1];
      for (const key of filtersOf(r)) {
        const best = totals.best[key];
        if (!best || margin > best.margin) totals.best[key] = { totals: [...r.totals], margin, seed: r.seed };
        const s = (totals.streaks[key] ||= { streak: 0, best_streak: 0 });
        s.streak = r.won ? s.streak + 1 : 0;
        s.best_streak = Math.max(s.best_streak, s.streak);
      }
    }
    addDigest(totals, index, r.seed, digest(r.id), r.at);
    totals.until = Math.max(totals.until, r.at);
  }
  return totals;
}

// The sum of lines (oldest first) whose level and profile match the filter
// (null: any), with the same fields as gin/stats.py's groups: the counters of
// every line; the best match and the streaks from the match lines. `totals`:
// the older lines already summed (gin.totals.v1), which come first.
export function summarize(records, { level = null, profile = null } = {}, totals = null) {
  const sum = Object.fromEntries(COUNTERS.map((k) => [k, 0]));
  let knockDeadwood = 0;
  let knockCount = 0;
  let best = null;
  let streak = 0;
  let bestStreak = 0;
  if (totals) {
    for (const [key, g] of Object.entries(totals.groups)) {
      if (!GROUP_KEYS.has(key)) continue; // a newer build's profile: kept, not shown
      const [l, p] = key.split("|");
      if ((level && l !== level) || (profile && p !== profile)) continue;
      for (const k of COUNTERS) sum[k] += g[k];
      knockDeadwood += g.knock_deadwood;
      knockCount += g.knock_count;
    }
    const key = filterKey(level, profile);
    if (totals.best[key]) best = { ...totals.best[key], totals: [...totals.best[key].totals] };
    if (totals.streaks[key]) ({ streak, best_streak: bestStreak } = totals.streaks[key]);
  }
  for (const r of records) {
    if ((level && r.level !== level) || (profile && r.profile !== profile)) continue;
    for (const k of COUNTERS) sum[k] += r[k];
    knockDeadwood += r.knock_deadwood;
    knockCount += r.knock_count;
    if (r.kind !== "match") continue;
    const margin = r.totals[0] - r.totals[1];
    if (!best || margin > best.margin) best = { totals: [...r.totals], margin, seed: r.seed };
    streak = r.won ? streak + 1 : 0;
    bestStreak = Math.max(bestStreak, streak);
  }
  return {
    ...sum,
    knock_deadwood_avg: knockCount ? Math.round((knockDeadwood / knockCount) * 100) / 100 : null,
    knock_deadwood_count: knockCount,
    best_match: best,
    streak,
    best_streak: bestStreak,
  };
}

// The statistics or a finished match could not be written (storage full or
// blocked): the page tells the player, as it does for the match's own save.
export class NotSaved extends Error {
  constructor() {
    super("storage.stats_full");
    this.key = "storage.stats_full";
  }
}

// A refusal of an import, told in words by the panel: {key, vars}.
export class ImportRefused extends Error {
  constructor(key, vars = {}) {
    super(key);
    this.key = key;
    this.vars = vars;
  }
}

// Import bounds: a real save is a few tens of KB and a line ~300 characters;
// a date more than a day ahead of this clock is refused (it would sort after
// every match played later).
export const MAX_MATCH_CHARS = 300_000;
export const MAX_LINE_CHARS = 2_000;
// A whole import file (issue 36, item 10): an export holds at most what
// localStorage does (~5 MB); a larger file is refused before it is read.
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
const FUTURE_SLACK_MS = 24 * 3600 * 1000;

// storage: storage.js's adapter; call(method, params): the engine.
export function createFinished(storage, call) {
  const fin = {
    storage, // the player's data (storage.js): readChecked, writeAll, remove, exclusive...
    call, // the engine (its `stats` counts a save's lines)
  };
  return {
    matches: () => matches(fin),
    records: () => records(fin),
    totals: () => totals(fin),
    count: (save, at) => count(fin, save, at),
    reconcile: () => reconcile(fin),
    exportData: (settings) => exportData(fin, settings),
    importData: (data, onProgress) => importData(fin, data, onProgress),
    clear: (current) => clear(fin, current),
  };
}

// A collection that cannot be read, or holds entries that are not what
// they should be, is kept aside (storage.js) before anything is written
// over it; what is readable is used. Entries of a newer build (`foreign`)
// are neither used nor a reason to set the list aside (formats.js).
function readList(fin, key, valid = () => true, foreign = () => false) {
  const value = fin.storage.readChecked(key, Array.isArray);
  if (!value) return [];
  const { known, bad } = splitEntries(value, valid, foreign);
  if (bad.length) fin.storage.setAside(key, fin.storage.read(key));
  return known;
}

const isKept = (m) => m && typeof m === "object" && m.save && typeof m.save === "object" && !Array.isArray(m.save);
const byTime = (a, b) => a.at - b.at;

// The kept finished matches [{at, save}], in the order they were kept
// (the stored order is the sequence: never the clock, issue 36 path 5).
function matches(fin) {
  return readList(fin, KEYS.finished, isKept);
}

// The statistics lines kept one by one, in the order they were counted.
function records(fin) {
  return readList(fin, KEYS.records, validRecord, foreignRecord);
}

// The older lines, summed (empty when a newer build's totals are there:
// those are left as they are, formats.js).
function totals(fin) {
  const t = fin.storage.readChecked(KEYS.totals, validTotals);
  return t ? currentTotals(t) : emptyTotals();
}

// The seeds of the matches whose lines may be counted again (pruneDigests):
// the finished ones kept (`list`), the current one and the unfinished ones.
function presentSeeds(fin, list) {
  const stored = fin.storage.readMatch();
  const saves = [...list.map((m) => m.save), stored.status === "ok" ? stored.save : null, ...fin.storage.openMatches().map((m) => m.save)];
  return new Set(saves.filter((s) => s && typeof s === "object").map((s) => String(s.seed)));
}

// `recs` (this build's lines, in order) with the stored lines of a newer
// build put back where they were among them, untouched.
function withForeign(fin, recs) {
  const stored = fin.storage.readJson(KEYS.records);
  if (!Array.isArray(stored) || !stored.some(foreignRecord)) return recs;
  const out = [];
  let i = 0;
  for (const r of stored) {
    if (foreignRecord(r)) out.push(r);
    else if (i < recs.length) out.push(recs[i++]);
  }
  return out.concat(recs.slice(i));
}

// `fresh` (imported, each with its own `at`) merged into `list` (in stored
// order): each goes before the first entry kept later than it. Only an
// import uses the dates to place entries; what this page counts is appended.
function mergeByTime(list, fresh) {
  const out = [...list];
  for (const entry of [...fresh].sort(byTime)) {
    const at = out.findIndex((e) => typeof e.at === "number" && e.at > entry.at);
    if (at < 0) out.push(entry);
    else out.splice(at, 0, entry);
  }
  return out;
}

// The lists written back in their stored order, the last KEEP matches and
// RECENT_LINES lines kept; the older lines summed into the totals, unless
// a newer build's totals are there (then no line is summed: they all stay).
// evict: room may be made by dropping old replays (a match played here;
// never an import).
function write(fin, list, recs, evict = false, sums = null) {
  const newer = fin.storage.newer(KEYS.totals);
  const cut = newer ? 0 : Math.max(0, recs.length - RECENT_LINES);
  const kept = list.slice(-KEEP);
  const entries = [
    [KEYS.finished, kept],
    [KEYS.records, withForeign(fin, recs.slice(cut))],
  ];
  if (!newer && (cut || sums)) entries.push([KEYS.totals, pruneDigests(fold(sums || totals(fin), recs.slice(0, cut)), presentSeeds(fin, kept))]);
  return fin.storage.writeAll(entries, { evict });
}

// The engine's lines of one save (finished or not); throws on a bad save.
async function linesFor(fin, save, at) {
  const stats = await fin.call("stats", { saves: [save] });
  return { over: stats.counted === 1, lines: linesOf(save, stats, at) };
}

// Adds the lines not counted yet (one by one or in the totals); returns how many.
function addLines(fin, recs, lines, folded = new Set(digestsOf(totals(fin)))) {
  const known = new Set(recs.map((r) => r.id));
  let added = 0;
  for (const line of lines) {
    if (known.has(line.id) || folded.has(digest(line.id))) continue;
    recs.push(line);
    known.add(line.id);
    added++;
  }
  return added;
}

// --- what "Borrar" cleared (KEYS.cleared) -------------------------------------------

// At "Borrar", every match not finished then (the one on the table and the
// unfinished ones kept) is marked {seed, actions, id}: a line of that match
// up to that move is cleared, whichever tab or build counts it later, so
// resuming it never brings back what was cleared (issue 36, path 9). A
// plain id is a line cleared by an earlier build (gin.cleared.v1).
export const CLEARED_KEEP = 100;
const isMark = (c) => c && typeof c === "object" && typeof c.seed === "string" && Number.isInteger(c.actions) && c.actions >= 0 && typeof c.id === "string";
const markOf = (save) => ({ seed: String(save.seed), actions: (save.actions || []).length, id: matchId(save) });

function readCleared(fin) {
  const list = readList(fin, KEYS.cleared, (c) => typeof c === "string" || isMark(c));
  const legacy = readList(fin, KEYS.clearedV1, (c) => typeof c === "string");
  return { ids: new Set([...legacy, ...list.filter((c) => typeof c === "string")]), marks: list.filter(isMark) };
}

// Is the line of `save` ending after `actions` moves, known as `id`, cleared?
function isCleared(cleared, save, actions, id) {
  if (cleared.ids.has(id)) return true;
  const seed = String(save.seed);
  const moves = save.actions || [];
  return cleared.marks.some((m) => m.seed === seed && actions <= m.actions && moves.length >= m.actions && matchId({ seed: save.seed, rules: save.rules, actions: moves.slice(0, m.actions) }) === m.id);
}

// --- counting ------------------------------------------------------------------------

// The current match's save after a deal ended (or on opening the page):
// its ended deals are counted, each once, and the match too once it is
// over (then it is kept as well). Returns the number of new lines. The
// engine is asked first; the lists are read and written after, in one
// section no other tab's runs through (issue 36, path 8).
async function count(fin, save, at = Date.now()) {
  if (!fin.storage.available || !save) return 0;
  const { over, lines: all } = await linesFor(fin, save, at);
  return fin.storage.exclusive(() => {
    const cleared = readCleared(fin);
    const lines = all.filter((line) => !isCleared(cleared, save, line.actions, line.id));
    const list = matches(fin);
    const recs = records(fin);
    const added = addLines(fin, recs, lines);
    const id = matchId(save);
    const keepIt = over && !isCleared(cleared, save, (save.actions || []).length, id) && !list.some((m) => matchId(m.save) === id);
    if (keepIt) list.push({ at, save });
    if ((added || keepIt) && !write(fin, list, recs, true)) throw new NotSaved();
    return added;
  });
}

// Kept matches whose lines are missing (put there by hand, or lines
// lost): counted now, so the record can always be rebuilt from the saves.
// The engine's answers are gathered first; the lists are read again after
// them and written in one section (another tab may have written meanwhile).
async function reconcile(fin) {
  const folded = new Set(digestsOf(totals(fin)));
  const known = new Set(records(fin).map((r) => r.id));
  const found = [];
  for (const m of matches(fin)) {
    if (known.has(matchId(m.save)) || folded.has(digest(matchId(m.save)))) continue;
    try {
      const { over, lines } = await linesFor(fin, m.save, typeof m.at === "number" ? m.at : Date.now());
      if (over) found.push(...lines);
      for (const line of lines) known.add(line.id);
    } catch {
      // an unreadable kept save is shown as such by the list, not counted
    }
  }
  if (!found.length) return 0;
  return fin.storage.exclusive(() => {
    const list = matches(fin);
    const recs = records(fin);
    const added = addLines(fin, recs, found);
    if (added && !write(fin, list, recs)) throw new NotSaved();
    return added;
  });
}

// Everything local in one object (the file "Exportar" writes).
function exportData(fin, settings) {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported: new Date().toISOString(),
    settings: { ...settings },
    records: records(fin),
    totals: totals(fin),
    matches: matches(fin),
  };
}

// A file's parsed JSON as an export (one match's save becomes one), its
// parts checked for their shape; throws ImportRefused.
function fileOf(data) {
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new ImportRefused("data.bad_file");
  let file = data;
  if (data.format === "gin-save") file = { format: EXPORT_FORMAT, version: EXPORT_VERSION, records: [], matches: [{ at: Date.now(), save: data }] };
  if (file.format !== EXPORT_FORMAT) throw new ImportRefused("data.bad_format");
  if (file.version === 1) file = { ...file, version: EXPORT_VERSION, records: [] }; // its matches, recounted (tests/fixtures/stored/e365d9b-played)
  if (file.version !== EXPORT_VERSION && file.version !== 2) throw new ImportRefused("data.bad_version");
  // Version 2's totals are of version 1 (validTotals takes either; mergeTotals converts).
  if (file.totals !== undefined && file.totals && file.totals.version !== (file.version === 2 ? 1 : TOTALS_VERSION)) throw new ImportRefused("data.bad_totals");
  const fileMatches = file.matches === undefined ? [] : file.matches;
  const fileRecords = file.records === undefined ? [] : file.records;
  if (!Array.isArray(fileMatches) || !Array.isArray(fileRecords)) throw new ImportRefused("data.bad_file");
  if (file.settings !== undefined && (!file.settings || typeof file.settings !== "object" || Array.isArray(file.settings))) throw new ImportRefused("data.bad_file");
  if (file.totals !== undefined && !validTotals(file.totals)) throw new ImportRefused("data.bad_totals");
  return { file, fileMatches, fileRecords };
}

// Each match of the file replayed by the engine, which must find it
// finished: its lines, id -> line. A match that is not (or is dated ahead
// of this clock, or oversized) is refused alone, never the whole file
// (issue 36, path 5): {recounted, refused: [{key, vars, seed}]}.
async function recountMatches(fin, fileMatches, now, onProgress) {
  const recounted = new Map();
  const refused = [];
  for (let i = 0; i < fileMatches.length; i++) {
    onProgress(i, fileMatches.length);
    const m = fileMatches[i];
    const refuse = (key) => refused.push({ key, vars: { n: i + 1 }, seed: isKept(m) ? String(m.save.seed) : null });
    if (!isKept(m) || typeof m.at !== "number") refuse("data.bad_match");
    else if (!Number.isFinite(m.at) || m.at > now + FUTURE_SLACK_MS) refuse("data.future_match");
    else if (JSON.stringify(m.save).length > MAX_MATCH_CHARS) refuse("data.oversized_match");
    else {
      let counted = null;
      try {
        counted = await linesFor(fin, m.save, m.at);
      } catch {
        refuse("data.bad_match");
      }
      if (counted && !counted.over) refuse("data.unfinished_match");
      else if (counted) for (const line of counted.lines) if (!recounted.has(line.id)) recounted.set(line.id, line);
    }
  }
  return { recounted, refused };
}

// The file's lines that are well formed, once, not ahead of this clock,
// not oversized, equal to their match's recount when their match is in the
// file, and not of a match refused; the others refused one by one.
function checkRecords(fileRecords, recounted, now, refused) {
  const seen = new Set();
  const refusedSeeds = new Set(refused.map((r) => r.seed).filter(Boolean));
  const good = [];
  for (let i = 0; i < fileRecords.length; i++) {
    const r = fileRecords[i];
    const refuse = (key) => refused.push({ key, vars: { n: i + 1 }, seed: null });
    if (!validRecord(r) || seen.has(r.id)) refuse("data.bad_record");
    else if (r.at > now + FUTURE_SLACK_MS) refuse("data.future_record");
    else if (JSON.stringify(r).length > MAX_LINE_CHARS) refuse("data.oversized_record");
    else if (recounted.has(r.id) && !sameRecord(r, recounted.get(r.id))) refuse("data.record_mismatch");
    else if (refusedSeeds.has(r.seed)) refuse("data.record_of_refused");
    else good.push(r);
    if (r && typeof r.id === "string") seen.add(r.id);
  }
  return good;
}

// Reads a file's parsed JSON: a whole export, or one match's save.
// Everything is checked before anything is written: each match must load
// and be finished (the engine replays it), a line of a match in the file
// must equal that match's recount, every line must be well formed (a deal
// line of a match never finished has no save here to check it against),
// no date ahead of this clock, no oversized match or line. A bad entry is
// refused alone; a file whose every entry is refused, or that is not an
// export at all, or that brings nothing new beside a refused entry, throws
// ImportRefused (the first reason). On success merges
// (nothing counted twice) and returns {matches, duplicates, notKept,
// records, unchecked, refused, refusal, settings}: the matches kept,
// already here, not kept for want of room (KEEP), the new lines, how many
// of them came without their match (not replayed), how many entries were
// refused and the first one's {key, vars}, and the file's settings or null.
async function importData(fin, data, onProgress = () => {}) {
  const { file, fileMatches, fileRecords } = fileOf(data);
  const now = Date.now();
  const { recounted, refused } = await recountMatches(fin, fileMatches, now, onProgress);
  const goodRecords = checkRecords(fileRecords, recounted, now, refused);
  const refusedMatches = new Set(refused.filter((r) => r.key.endsWith("_match")).map((r) => r.vars.n - 1));
  const goodMatches = fileMatches.filter((m, i) => !refusedMatches.has(i));
  if (refused.length && !goodMatches.length && !goodRecords.length && !file.totals) throw new ImportRefused(refused[0].key, refused[0].vars);
  const done = await fin.storage.exclusive(() => mergeFile(fin, file, goodMatches, goodRecords, recounted, refused));
  return { ...done, refused: refused.length, refusal: refused.length ? { key: refused[0].key, vars: refused[0].vars } : null };
}

// The checked parts merged into what is stored (read now, inside the
// section): what is here stays (an import never removes a local match);
// what is new is added while there is room under KEEP, the newest first,
// and the rest is reported as not kept. When nothing new comes in and some
// entry was refused, the file is refused with that entry's reason.
function mergeFile(fin, file, fileMatches, fileRecords, recounted, refused) {
  const list = matches(fin);
  const recs = records(fin);
  // The file's summed older lines: added when none of them is here yet,
  // nothing when all are; a file that shares only some is refused (a sum
  // cannot be split to tell which), and so is one where a newer build's
  // totals are here (this build does not rewrite them).
  const newerHere = fin.storage.newer(KEYS.totals);
  if (newerHere && file.totals && file.totals.ids.length) throw new ImportRefused("data.newer_here");
  const sums = file.totals && !newerHere ? mergeTotals(totals(fin), file.totals, recs) : null;
  const summed = sums || totals(fin);
  const folded = new Set(digestsOf(summed));
  const before = new Set(recs.map((r) => r.id));
  // A line (or a match: its match line) not known here but dated no later
  // than a digest this browser forgot (MAX_DIGESTS) may be counted already:
  // refused, once per match, never counted twice (nor kept, to be recounted
  // by reconcile).
  const reported = new Set();
  const old = (r) => {
    if (!summed.forgotten || r.at > summed.forgotten || before.has(r.id) || folded.has(digest(r.id))) return false;
    if (!reported.has(r.seed)) refused.push({ key: "data.old_record", vars: { n: r.seed }, seed: null });
    reported.add(r.seed);
    return true;
  };
  const haveMatch = new Set(list.map((m) => matchId(m.save)));
  const fresh = [];
  let duplicates = 0;
  for (const m of fileMatches) {
    const id = matchId(m.save);
    if (haveMatch.has(id)) duplicates++;
    else if (!old({ id, at: m.at, seed: String(m.save.seed) })) {
      fresh.push({ at: m.at, save: m.save });
      haveMatch.add(id);
    }
  }
  fresh.sort(byTime);
  const room = Math.max(0, KEEP - list.length);
  const kept = room ? fresh.slice(-room) : [];
  const fileLines = [...fileRecords, ...recounted.values()].filter((r) => !old(r));
  const own = new Set(fileRecords);
  // The file's own lines first (they keep their times), then any line of
  // its matches that it lacks; placed among the local ones by their dates.
  const added = [];
  const newRecords = addLines(fin, added, fileLines, new Set([...folded, ...[...before].map(digest)]));
  // New lines the file gives without their match (finished beyond the 50
  // kept, or left half-way): well formed, but nothing here can replay them.
  const unchecked = fileLines.filter((r) => own.has(r) && !before.has(r.id) && !folded.has(digest(r.id)) && !recounted.has(r.id)).length;
  if (refused.length && !kept.length && !newRecords && !sums) throw new ImportRefused(refused[0].key, refused[0].vars);
  if ((kept.length || newRecords || sums) && !write(fin, mergeByTime(list, kept), mergeByTime(recs, added), false, sums)) throw new ImportRefused("data.cannot_save");
  return { matches: kept.length, duplicates, notKept: fresh.length - kept.length, records: newRecords, unchecked, settings: file.settings || null };
}

// "Borrar": the statistics and the kept matches (not the current match,
// not the settings). The match in progress (`current`, its save), the one
// on the key (another tab's) and the unfinished ones kept are marked (KEYS.cleared): their lines up to now
// stay uncounted whenever they are counted again (the next deal's end, a
// reload, resuming one from Partidas); their later deals count.
function clear(fin, current = null) {
  const { storage } = fin;
  const before = readCleared(fin);
  // The match on the key too: another tab's, when this tab wrote last before it.
  const onKey = storage.readMatch();
  const saves = [current, onKey.status === "ok" ? onKey.save : null, ...storage.openMatches().map((m) => m.save)].filter((s) => s && typeof s === "object");
  const marks = [...before.marks, ...saves.map(markOf)].slice(-CLEARED_KEEP);
  const kept = [...before.ids, ...marks];
  const a = storage.remove(KEYS.finished);
  const b = storage.remove(KEYS.records) && storage.remove(KEYS.totals);
  const c = kept.length ? storage.writeJson(KEYS.cleared, kept) && storage.remove(KEYS.clearedV1) : storage.remove(KEYS.cleared);
  return a && b && c;
}
