// Difícil with your cards, kept (issue 32): one record per deal the player
// ended, the engine's `duplicate` record (the deal's points for the player
// and for Difícil on the same cards, the computer's level, the profile),
// from which the bridge's `duplicate_stats` gives Estadísticas its mean
// difference per deal, its 95 % interval and its chart. Kept in its own key
// (keys.js), through storage.js's adapter (an unreadable value goes aside,
// never overwritten), bounded: beyond RECENT records the oldest are summed
// by the engine into `totals` (exact: same figures, fewer lines), as
// docs/bridge.md's duplicate_stats says. Exported and imported with the
// statistics (screens/stats.js), cleared by Borrar.
//
// The stored value (KEYS.duplicate):
//   {version: 1, records: [record], totals: <duplicate_stats totals> | null}
//   record = {id, seed, deal, actions, match, level, profile, player, hard}
//   id: "seed:deal:actions", so a deal shown again (a reload) counts once.

import { KEYS } from "./keys.js";

export const DUPLICATE_VERSION = 1;
export const RECENT = 2000;
const LEVELS = ["easy", "normal", "hard"];
const MAX_POINTS = 300;

const plain = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const points = (n) => Number.isInteger(n) && Math.abs(n) <= MAX_POINTS;

export function validRecord(r) {
  if (!plain(r) || typeof r.id !== "string" || typeof r.seed !== "string" || typeof r.match !== "string") return false;
  if (!Number.isInteger(r.deal) || r.deal < 1 || !Number.isInteger(r.actions) || r.actions < 1) return false;
  return LEVELS.includes(r.level) && typeof r.profile === "string" && points(r.player) && points(r.hard);
}

const validStore = (v) => plain(v) && v.version === DUPLICATE_VERSION && Array.isArray(v.records) && (v.totals === null || plain(v.totals));
const empty = () => ({ version: DUPLICATE_VERSION, records: [], totals: null });

// What is kept: {version, records, totals} (empty when nothing or unreadable).
export function readDuplicates(storage) {
  const value = storage.readChecked(KEYS.duplicate, validStore);
  if (!value) return empty();
  const good = value.records.filter(validRecord);
  if (good.length !== value.records.length) storage.setAside(KEYS.duplicate, storage.read(KEYS.duplicate));
  return { version: DUPLICATE_VERSION, records: good, totals: value.totals };
}

// The engine's record of one deal (play/luck.js), kept once; the oldest
// records beyond RECENT summed into totals by call("duplicate_stats").
export async function keepDuplicate(storage, call, record) {
  if (!storage.available || !plain(record)) return false;
  const line = {
    id: `${record.seed}:${record.deal}:${record.actions}`,
    seed: String(record.seed),
    deal: record.deal,
    actions: record.actions,
    match: String(record.match),
    level: record.level,
    profile: record.profile,
    player: record.player,
    hard: record.hard,
  };
  if (!validRecord(line)) return false;
  return storage.exclusive(() => addRecords(storage, call, [line]).then((n) => n > 0));
}

// Adds the records not kept yet (by id); the oldest beyond RECENT summed by
// the engine. Runs inside storage.exclusive (one tab at a time); after the
// engine's answer the value is read again, and written only if no other
// writer changed it meanwhile (issue 36, path 8): else the sum is made again.
// Returns how many were added (0 also when nothing could be written).
async function addRecords(storage, call, fresh) {
  for (let tries = 0; tries < 3; tries++) {
    const raw = storage.read(KEYS.duplicate);
    const kept = readDuplicates(storage);
    const have = new Set(kept.records.map((r) => r.id));
    const added = fresh.filter((r) => !have.has(r.id));
    if (!added.length) return 0;
    kept.records.push(...added);
    if (kept.records.length > RECENT) {
      const dropped = kept.records.slice(0, kept.records.length - RECENT);
      const summed = await call("duplicate_stats", { records: dropped, ...(kept.totals ? { totals: kept.totals } : {}) });
      if (storage.read(KEYS.duplicate) !== raw) continue;
      kept.totals = summed.totals;
      kept.records = kept.records.slice(-RECENT);
    }
    return storage.writeJson(KEYS.duplicate, kept) ? added.length : 0;
  }
  return 0;
}

// "Borrar" in Estadísticas (false: storage refused).
export function clearDuplicates(storage) {
  return storage.remove(KEYS.duplicate);
}

// An imported file's part, checked before anything is written: its shape,
// each record (validRecord), and the engine's own check (duplicate_stats
// refuses a bad record). Throws on a part that is not ours.
export async function checkDuplicates(call, part) {
  if (part === undefined) return;
  if (!validStore(part) || !part.records.every(validRecord)) throw new Error("bad_duplicates");
  if (part.records.length) await call("duplicate_stats", { records: part.records });
}

// The checked part merged: records already here skipped; a file's totals are
// not merged (a sum cannot be told apart from ours), only its records.
// Returns how many were added.
export async function mergeDuplicates(storage, call, part) {
  if (part === undefined) return 0;
  return storage.exclusive(() => addRecords(storage, call, part.records));
}
