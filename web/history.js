// Finished matches and the player's record, kept in this browser only
// (behind storage.js, so a blocked or full localStorage never breaks play).
//
// Two keys:
//   gin.finished.v1  [{at, save}]  the last KEEP finished matches (oldest
//                    dropped): what the "Partidas" list and the viewer show.
//   gin.records.v1   [record]      one small line per finished match ever
//                    counted, computed by the engine's `stats` from its save
//                    when it is kept. Statistics are summed from these lines,
//                    so they outlive the 50-match history (a line is ~300
//                    bytes; a save is the seed plus its actions, a few KB).
// A match is identified by its seed, rules and actions (matchId): the end
// screen shown again, a reload or an import never counts it twice.
// Statistics are counted when a match ends (its deals included): the deals of
// a match left unfinished are not counted.

import { KEYS } from "./storage.js";

export const KEEP = 50;
export const EXPORT_FORMAT = "gin-local-data";
export const LEVELS = ["easy", "normal", "hard"];
export const PROFILES = ["traditional", "standard", "custom"];
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

const isCount = (n) => Number.isInteger(n) && n >= 0;

// A record from the engine's `stats` of one finished save.
function recordOf(save, stats, at) {
  const group = stats.groups.find((g) => g.level !== null && g.profile !== null);
  const all = stats.all;
  const record = { id: matchId(save), seed: String(save.seed), at, level: group.level, profile: group.profile };
  for (const key of COUNTERS) record[key] = all[key];
  record.knock_count = all.knock_deadwood_count;
  // The engine gives the mean to 2 decimals; a match has few knocks, so the
  // integer sum comes back exactly.
  record.knock_deadwood = all.knock_deadwood_count ? Math.round(all.knock_deadwood_avg * all.knock_deadwood_count) : 0;
  record.totals = [...all.best_match.totals];
  return record;
}

// A record read from storage or a file: every field of the right kind.
function validRecord(r) {
  if (!r || typeof r !== "object" || Array.isArray(r)) return false;
  if (typeof r.id !== "string" || typeof r.seed !== "string" || typeof r.at !== "number" || !Number.isFinite(r.at)) return false;
  if (!LEVELS.includes(r.level) || !PROFILES.includes(r.profile)) return false;
  if (!COUNTERS.every((k) => isCount(r[k])) || r.matches !== 1 || r.won + r.lost + r.drawn !== 1) return false;
  if (!isCount(r.knock_count) || !isCount(r.knock_deadwood) || r.knock_deadwood > 10 * r.knock_count) return false;
  if (r.deals_won > r.deals || r.gins + r.big_gins + r.knocks > r.deals) return false;
  return Array.isArray(r.totals) && r.totals.length === 2 && r.totals.every(isCount);
}

function sameRecord(a, b) {
  return [...COUNTERS, "level", "profile", "seed", "knock_count", "knock_deadwood"].every((k) => a[k] === b[k]) && a.totals[0] === b.totals[0] && a.totals[1] === b.totals[1];
}

// The sum of records (oldest first) whose level and profile match the filter
// (null: any), with the same fields as gin/stats.py's groups.
export function summarize(records, { level = null, profile = null } = {}) {
  const sum = Object.fromEntries(COUNTERS.map((k) => [k, 0]));
  let knockDeadwood = 0;
  let knockCount = 0;
  let best = null;
  let streak = 0;
  let bestStreak = 0;
  for (const r of records) {
    if ((level && r.level !== level) || (profile && r.profile !== profile)) continue;
    for (const k of COUNTERS) sum[k] += r[k];
    knockDeadwood += r.knock_deadwood;
    knockCount += r.knock_count;
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

// A refusal of an import, told in words by the panel: {key, vars}.
export class ImportRefused extends Error {
  constructor(key, vars = {}) {
    super(key);
    this.key = key;
    this.vars = vars;
  }
}

// storage: storage.js's adapter; call(method, params): the engine.
export function createHistory(storage, call) {
  function readList(key) {
    const value = storage.readJson(key);
    return Array.isArray(value) ? value : [];
  }
  function matches() {
    return readList(KEYS.finished).filter((m) => m && typeof m === "object" && m.save && typeof m.save === "object");
  }
  function records() {
    return readList(KEYS.records).filter(validRecord);
  }
  const byTime = (a, b) => a.at - b.at;

  function write(list, recs) {
    const kept = [...list].sort(byTime).slice(-KEEP);
    const okMatches = storage.writeJson(KEYS.finished, kept);
    const okRecords = storage.writeJson(KEYS.records, [...recs].sort(byTime));
    return okMatches && okRecords;
  }

  async function countOne(save) {
    const stats = await call("stats", { saves: [save] });
    if (stats.counted !== 1) return null; // unfinished
    return stats;
  }

  return {
    matches,
    records,

    // A finished match (its save): kept and counted, once. Returns true when
    // it was new.
    async keep(save, at = Date.now()) {
      if (!storage.available || !save) return false;
      const id = matchId(save);
      const list = matches();
      const recs = records();
      const haveMatch = list.some((m) => matchId(m.save) === id);
      const haveRecord = recs.some((r) => r.id === id);
      if (haveMatch && haveRecord) return false;
      const stats = await countOne(save);
      if (!stats) return false;
      if (!haveRecord) recs.push(recordOf(save, stats, at));
      if (!haveMatch) list.push({ at, save });
      write(list, recs);
      return !haveRecord;
    },

    // Kept matches without a record (put there by hand, or a record lost):
    // counted now, so the record can always be rebuilt from the saves.
    async reconcile() {
      const list = matches();
      const recs = records();
      const known = new Set(recs.map((r) => r.id));
      let added = 0;
      for (const m of list) {
        if (known.has(matchId(m.save))) continue;
        try {
          const stats = await countOne(m.save);
          if (!stats) continue;
          recs.push(recordOf(m.save, stats, typeof m.at === "number" ? m.at : Date.now()));
          known.add(matchId(m.save));
          added++;
        } catch {
          // an unreadable kept save is shown as such by the list, not counted
        }
      }
      if (added) write(list, recs);
      return added;
    },

    // Everything local in one object (the file "Exportar" writes).
    exportData(settings) {
      return {
        format: EXPORT_FORMAT,
        version: 1,
        exported: new Date().toISOString(),
        settings: { ...settings },
        records: records(),
        matches: matches(),
      };
    },

    // Reads a file's parsed JSON: a whole export, or one match's save.
    // Everything is checked before anything is written: each match must load
    // and be finished (the engine replays it), a record of a match in the
    // file must equal that match's recount, every other record must be well
    // formed. Throws ImportRefused; on success merges (nothing counted twice)
    // and returns {matches, records, settings} (new ones; settings or null).
    async importData(data, onProgress = () => {}) {
      if (!data || typeof data !== "object" || Array.isArray(data)) throw new ImportRefused("data.bad_file");
      let file = data;
      if (data.format === "gin-save") file = { format: EXPORT_FORMAT, version: 1, records: [], matches: [{ at: Date.now(), save: data }] };
      if (file.format !== EXPORT_FORMAT) throw new ImportRefused("data.bad_format");
      if (file.version !== 1) throw new ImportRefused("data.bad_version");
      const fileMatches = file.matches === undefined ? [] : file.matches;
      const fileRecords = file.records === undefined ? [] : file.records;
      if (!Array.isArray(fileMatches) || !Array.isArray(fileRecords)) throw new ImportRefused("data.bad_file");
      if (file.settings !== undefined && (!file.settings || typeof file.settings !== "object" || Array.isArray(file.settings))) throw new ImportRefused("data.bad_file");
      const recounted = new Map();
      for (let i = 0; i < fileMatches.length; i++) {
        onProgress(i, fileMatches.length);
        const m = fileMatches[i];
        if (!m || typeof m !== "object" || !m.save || typeof m.save !== "object" || typeof m.at !== "number") throw new ImportRefused("data.bad_match", { n: i + 1 });
        let stats;
        try {
          stats = await countOne(m.save);
        } catch {
          throw new ImportRefused("data.bad_match", { n: i + 1 });
        }
        if (!stats) throw new ImportRefused("data.unfinished_match", { n: i + 1 });
        recounted.set(matchId(m.save), recordOf(m.save, stats, m.at));
      }
      const seen = new Set();
      for (let i = 0; i < fileRecords.length; i++) {
        const r = fileRecords[i];
        if (!validRecord(r) || seen.has(r.id)) throw new ImportRefused("data.bad_record", { n: i + 1 });
        seen.add(r.id);
        const again = recounted.get(r.id);
        if (again && !sameRecord(r, again)) throw new ImportRefused("data.record_mismatch", { n: i + 1 });
      }
      // Merge: what is here stays; what is new is added.
      const list = matches();
      const recs = records();
      const haveMatch = new Set(list.map((m) => matchId(m.save)));
      const haveRecord = new Set(recs.map((r) => r.id));
      let newMatches = 0;
      let newRecords = 0;
      for (const m of fileMatches) {
        const id = matchId(m.save);
        if (!haveMatch.has(id)) {
          list.push({ at: m.at, save: m.save });
          haveMatch.add(id);
          newMatches++;
        }
        if (!haveRecord.has(id) && !seen.has(id)) {
          recs.push(recounted.get(id));
          haveRecord.add(id);
          newRecords++;
        }
      }
      for (const r of fileRecords) {
        if (!haveRecord.has(r.id)) {
          recs.push(r);
          haveRecord.add(r.id);
          newRecords++;
        }
      }
      if (!write(list, recs)) throw new ImportRefused("data.cannot_save");
      return { matches: newMatches, records: newRecords, settings: file.settings || null };
    },

    // "Borrar": the statistics and the kept matches (not the current match,
    // not the settings).
    clear() {
      const a = storage.remove(KEYS.finished);
      const b = storage.remove(KEYS.records);
      return a && b;
    },
  };
}
