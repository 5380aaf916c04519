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
import { isDailyLine } from "../model/daily.js";

export const KEEP = 50;
// Statistics lines kept one by one (about 235 matches); older ones are summed
// into gin.totals.v1 (bounded: 9 groups, 16 bests and streaks, and a 12-digit
// digest of each summed line's id so that it is never counted again).
export const RECENT_LINES = 2000;
export const EXPORT_FORMAT = "gin-local-data";
// 2: a line per deal and per match. 1 (build e365d9b): a line per finished
// match, of a shape no longer kept; such a file imports its matches, whose
// lines are counted again from their saves (fileOf).
export const EXPORT_VERSION = 2;
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
  return { version: 1, groups: {}, best: {}, streaks: {}, ids: [], until: 0 };
}

const FILTER_KEYS = new Set(
  [null, ...LEVELS].flatMap((level) => [null, ...PROFILES].map((profile) => filterKey(level, profile))),
);
const GROUP_KEYS = new Set(LEVELS.flatMap((level) => PROFILES.map((profile) => filterKey(level, profile))));

// Stored or imported totals: every part of the right kind and within bounds.
export function validTotals(t) {
  if (!t || typeof t !== "object" || Array.isArray(t) || t.version !== 1) return false;
  if (!Number.isFinite(t.until) || !Array.isArray(t.ids) || !t.ids.every((id) => typeof id === "string" && /^[0-9a-f]{12}$/.test(id))) return false;
  const plain = (o) => o && typeof o === "object" && !Array.isArray(o);
  if (!plain(t.groups) || !plain(t.best) || !plain(t.streaks)) return false;
  for (const [key, g] of Object.entries(t.groups)) {
    if (!GROUP_KEYS.has(key) || !plain(g) || ![...COUNTERS, "knock_deadwood", "knock_count"].every((k) => isCount(g[k]))) return false;
  }
  for (const [key, b] of Object.entries(t.best)) {
    if (!FILTER_KEYS.has(key) || !plain(b) || !Array.isArray(b.totals) || b.totals.length !== 2 || !b.totals.every(isCount)) return false;
    if (b.margin !== b.totals[0] - b.totals[1] || typeof b.seed !== "string") return false;
  }
  for (const [key, v] of Object.entries(t.streaks)) {
    if (!FILTER_KEYS.has(key) || !plain(v) || !isCount(v.streak) || !isCount(v.best_streak) || v.streak > v.best_streak) return false;
  }
  return true;
}

// `mine` plus another browser's totals (none of whose lines `mine` or the
// lines `recs` have), or null when all of them are here already.
function mergeTotals(mine, theirs, recs) {
  const known = new Set([...mine.ids, ...recs.map((r) => digest(r.id))]);
  const shared = theirs.ids.filter((id) => known.has(id)).length;
  if (shared === theirs.ids.length) return null;
  if (shared) throw new ImportRefused("data.totals_overlap");
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
  out.ids.push(...theirs.ids);
  out.until = Math.max(out.until, theirs.until);
  return out;
}

// Sums `lines` (oldest first) into `totals` (changed in place).
function fold(totals, lines) {
  for (const r of lines) {
    if (isDailyLine(r)) {
      // The day's matches are counted apart (data/daily.js): only known, never summed.
      totals.ids.push(digest(r.id));
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
    totals.ids.push(digest(r.id));
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
    storage, // the player's data (storage.js): readChecked, writeAll, remove...
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
// over it; what is readable is used.
function readList(fin, key, valid = () => true) {
  const value = fin.storage.readChecked(key, Array.isArray);
  if (!value) return [];
  const good = value.filter(valid);
  if (good.length !== value.length) fin.storage.setAside(key, fin.storage.read(key));
  return good;
}

const isKept = (m) => m && typeof m === "object" && m.save && typeof m.save === "object" && !Array.isArray(m.save);
const byTime = (a, b) => a.at - b.at;

// The kept finished matches [{at, save}], oldest first.
function matches(fin) {
  return readList(fin, KEYS.finished, isKept);
}

// The statistics lines kept one by one.
function records(fin) {
  return readList(fin, KEYS.records, validRecord);
}

// The older lines, summed.
function totals(fin) {
  return fin.storage.readChecked(KEYS.totals, validTotals) || emptyTotals();
}

// evict: room may be made by dropping old replays (a match played here;
// never an import).
// Lines beyond RECENT_LINES, the oldest, are summed into the totals.
function write(fin, list, recs, evict = false, sums = null) {
  const kept = [...list].sort(byTime).slice(-KEEP);
  const lines = [...recs].sort(byTime);
  const entries = [
    [KEYS.finished, kept],
    [KEYS.records, lines.slice(-RECENT_LINES)],
  ];
  if (lines.length > RECENT_LINES || sums) entries.push([KEYS.totals, fold(sums || totals(fin), lines.slice(0, Math.max(0, lines.length - RECENT_LINES)))]);
  return fin.storage.writeAll(entries, { evict });
}

// The engine's lines of one save (finished or not); throws on a bad save.
async function linesFor(fin, save, at) {
  const stats = await fin.call("stats", { saves: [save] });
  return { over: stats.counted === 1, lines: linesOf(save, stats, at) };
}

// Adds the lines not counted yet (one by one or in the totals); returns how many.
function addLines(fin, recs, lines, folded = new Set(totals(fin).ids)) {
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

// The current match's save after a deal ended (or on opening the page):
// its ended deals are counted, each once, and the match too once it is
// over (then it is kept as well). Returns the number of new lines.
async function count(fin, save, at = Date.now()) {
  if (!fin.storage.available || !save) return 0;
  const { over, lines: all } = await linesFor(fin, save, at);
  const cleared = new Set(readList(fin, KEYS.cleared));
  const lines = all.filter((line) => !cleared.has(line.id));
  const list = matches(fin);
  const recs = records(fin);
  const added = addLines(fin, recs, lines);
  const id = matchId(save);
  const keepIt = over && !cleared.has(id) && !list.some((m) => matchId(m.save) === id);
  if (keepIt) list.push({ at, save });
  if ((added || keepIt) && !write(fin, list, recs, true)) throw new NotSaved();
  return added;
}

// Kept matches whose lines are missing (put there by hand, or lines
// lost): counted now, so the record can always be rebuilt from the saves.
async function reconcile(fin) {
  const list = matches(fin);
  const recs = records(fin);
  const folded = new Set(totals(fin).ids);
  const known = new Set(recs.map((r) => r.id));
  let added = 0;
  for (const m of list) {
    if (known.has(matchId(m.save)) || folded.has(digest(matchId(m.save)))) continue;
    try {
      const { over, lines } = await linesFor(fin, m.save, typeof m.at === "number" ? m.at : Date.now());
      if (over) added += addLines(fin, recs, lines);
      for (const line of lines) known.add(line.id);
    } catch {
      // an unreadable kept save is shown as such by the list, not counted
    }
  }
  if (added && !write(fin, list, recs)) throw new NotSaved();
  return added;
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
  if (file.version !== EXPORT_VERSION) throw new ImportRefused("data.bad_version");
  const fileMatches = file.matches === undefined ? [] : file.matches;
  const fileRecords = file.records === undefined ? [] : file.records;
  if (!Array.isArray(fileMatches) || !Array.isArray(fileRecords)) throw new ImportRefused("data.bad_file");
  if (file.settings !== undefined && (!file.settings || typeof file.settings !== "object" || Array.isArray(file.settings))) throw new ImportRefused("data.bad_file");
  if (file.totals !== undefined && !validTotals(file.totals)) throw new ImportRefused("data.bad_totals");
  return { file, fileMatches, fileRecords };
}

// Each match of the file replayed by the engine, which must find it
// finished: its lines, id -> line. Throws ImportRefused.
async function recountMatches(fin, fileMatches, now, onProgress) {
  const recounted = new Map();
  for (let i = 0; i < fileMatches.length; i++) {
    onProgress(i, fileMatches.length);
    const m = fileMatches[i];
    if (!m || typeof m !== "object" || !m.save || typeof m.save !== "object" || typeof m.at !== "number") throw new ImportRefused("data.bad_match", { n: i + 1 });
    if (!Number.isFinite(m.at) || m.at > now + FUTURE_SLACK_MS) throw new ImportRefused("data.future_match", { n: i + 1 });
    if (JSON.stringify(m.save).length > MAX_MATCH_CHARS) throw new ImportRefused("data.oversized_match", { n: i + 1 });
    let counted;
    try {
      counted = await linesFor(fin, m.save, m.at);
    } catch {
      throw new ImportRefused("data.bad_match", { n: i + 1 });
    }
    if (!counted.over) throw new ImportRefused("data.unfinished_match", { n: i + 1 });
    for (const line of counted.lines) if (!recounted.has(line.id)) recounted.set(line.id, line);
  }
  return recounted;
}

// Every line of the file well formed, once, not ahead of this clock, not
// oversized, and equal to its match's recount when its match is in the file.
function checkRecords(fileRecords, recounted, now) {
  const seen = new Set();
  for (let i = 0; i < fileRecords.length; i++) {
    const r = fileRecords[i];
    if (!validRecord(r) || seen.has(r.id)) throw new ImportRefused("data.bad_record", { n: i + 1 });
    if (r.at > now + FUTURE_SLACK_MS) throw new ImportRefused("data.future_record", { n: i + 1 });
    if (JSON.stringify(r).length > MAX_LINE_CHARS) throw new ImportRefused("data.oversized_record", { n: i + 1 });
    seen.add(r.id);
    const again = recounted.get(r.id);
    if (again && !sameRecord(r, again)) throw new ImportRefused("data.record_mismatch", { n: i + 1 });
  }
}

// Reads a file's parsed JSON: a whole export, or one match's save.
// Everything is checked before anything is written: each match must load
// and be finished (the engine replays it), a line of a match in the file
// must equal that match's recount, every line must be well formed (a deal
// line of a match never finished has no save here to check it against),
// no date ahead of this clock, no oversized match or line. Throws
// ImportRefused; on success merges (nothing counted twice)
// and returns {matches, duplicates, notKept, records, unchecked,
// settings}: the matches kept, already here, not kept for want of room
// (KEEP), the new lines, how many of them came without their match (not
// replayed), and the file's settings or null.
async function importData(fin, data, onProgress = () => {}) {
  const { file, fileMatches, fileRecords } = fileOf(data);
  const now = Date.now();
  const recounted = await recountMatches(fin, fileMatches, now, onProgress);
  checkRecords(fileRecords, recounted, now);
  // Merge: what is here stays (an import never removes a local match);
  // what is new is added while there is room under KEEP, the newest
  // first, and the rest is reported as not kept.
  const list = matches(fin);
  const recs = records(fin);
  const haveMatch = new Set(list.map((m) => matchId(m.save)));
  const fresh = [];
  let duplicates = 0;
  for (const m of fileMatches) {
    const id = matchId(m.save);
    if (haveMatch.has(id)) duplicates++;
    else {
      fresh.push({ at: m.at, save: m.save });
      haveMatch.add(id);
    }
  }
  fresh.sort(byTime);
  const room = Math.max(0, KEEP - list.length);
  const kept = room ? fresh.slice(-room) : [];
  list.push(...kept);
  // The file's own lines first (they keep their times), then any line of
  // its matches that it lacks.
  // The file's summed older lines: added when none of them is here yet,
  // nothing when all are; a file that shares only some is refused (a sum
  // cannot be split to tell which).
  const sums = file.totals ? mergeTotals(totals(fin), file.totals, recs) : null;
  const folded = new Set((sums || totals(fin)).ids);
  const before = new Set(recs.map((r) => r.id));
  const newRecords = addLines(fin, recs, fileRecords, folded) + addLines(fin, recs, [...recounted.values()], folded);
  // New lines the file gives without their match (finished beyond the 50
  // kept, or left half-way): well formed, but nothing here can replay them.
  const unchecked = fileRecords.filter((r) => !before.has(r.id) && !folded.has(digest(r.id)) && !recounted.has(r.id)).length;
  if ((kept.length || newRecords || sums) && !write(fin, list, recs, false, sums)) throw new ImportRefused("data.cannot_save");
  return { matches: kept.length, duplicates, notKept: fresh.length - kept.length, records: newRecords, unchecked, settings: file.settings || null };
}

// "Borrar": the statistics and the kept matches (not the current match,
// not the settings).
// The lines of the match in progress (`current`, its save) are
// remembered as cleared: its ended deals stay uncounted when it is next
// counted (the next deal's end, a reload); its later deals count.
function clear(fin, current = null) {
  const { storage } = fin;
  const cleared = current ? records(fin).filter((r) => r.seed === String(current.seed) && r.id === lineId(current, r)).map((r) => r.id) : [];
  const a = storage.remove(KEYS.finished);
  const b = storage.remove(KEYS.records) && storage.remove(KEYS.totals);
  const c = cleared.length ? storage.writeJson(KEYS.cleared, cleared) : storage.remove(KEYS.cleared);
  return a && b && c;
}
