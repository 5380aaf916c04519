// The player's data in localStorage (through local.js, which never throws:
// the game plays on when storage is blocked, missing or full, and the page is
// told so): the match's save and what is kept beside it, settings, values
// kept aside, unfinished matches. The keys are keys.js's. The module's
// state is one record (createStorage); its functions take it first.

import { matchId } from "./finished.js";
import { isNewer } from "./formats.js";
import { KEYS, LOST_KEY } from "./keys.js";
import { canWrite, openBackend, openSession, readJsonText, readText, removeKey, writeText } from "./local.js";

// Bounds (documented in docs/history.md).
export const ASIDE_SLOTS = 5; // unreadable values kept aside; the oldest goes first
export const OPEN_KEEP = 8; // unfinished matches kept besides the current one
export const ENDED_KEEP = 20; // ids of the last matches seen to end (KEYS.ended)
// A stored save longer or deeper than this is set aside before it reaches the
// worker (the engine refuses deeper than 32 levels; a real save nests 4 deep
// and a 500-point match is well under 200,000 characters).
export const MAX_SAVE_CHARS = 1_000_000;
export const MAX_SAVE_DEPTH = 32;

// How deep the lists and objects of a JSON text nest, without parsing it
// (a 5,000-deep text would overflow a recursive reader).
export function jsonDepth(text) {
  let depth = 0;
  let most = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) most = Math.max(most, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return most;
}

// A parsed save as the engine wants one (an object), or null: too long, too
// deep, not JSON or not an object.
export function parseSave(raw) {
  if (typeof raw !== "string" || raw.length > MAX_SAVE_CHARS || jsonDepth(raw) > MAX_SAVE_DEPTH) return null;
  try {
    const save = JSON.parse(raw);
    return save !== null && typeof save === "object" && !Array.isArray(save) ? save : null;
  } catch {
    return null;
  }
}

// getBackend/getSession: where localStorage and sessionStorage come from
// (the page's own by default); locks: the Web Locks (navigator.locks), or
// null where the page has none (plain HTTP, Node).
export function createStorage(getBackend = undefined, getSession = undefined, locks = globalThis.navigator && navigator.locks) {
  const store = {
    backend: openBackend(getBackend), // localStorage (readable, maybe full), or null where it is blocked or missing
    session: openSession(getSession), // sessionStorage, or null
    // Becomes false after any failed write (quota, blocked), so the page can
    // say "cannot save" once instead of pretending.
    writable: false,
    owns: () => true, // does this tab own the match in progress (tabs.js)?
    hooks: { aside: () => {}, evicted: () => {} }, // aside(key): newly kept aside; evicted(n): replays dropped for room
    lastWritten: { text: null, seed: null, over: false }, // what this page last wrote under KEYS.match
    locks: locks || null, // Web Locks: one tab at a time changes the shared collections (exclusive)
  };
  store.writable = canWrite(store.backend);
  // Values of the legacy single slot join the slots.
  const legacy = read(store, KEYS.brokenMatch);
  if (legacy !== null && setAside(store, KEYS.match, legacy)) remove(store, KEYS.brokenMatch);
  return {
    get available() {
      return store.backend !== null;
    },
    get writable() {
      return store.writable;
    },
    // owner(): does this tab own the match in progress (tabs.js)?
    setOwner(owner) {
      store.owns = owner;
    },
    // onAside(key): a value was newly kept aside; onEvicted(n): replays dropped for room.
    on(name, fn) {
      store.hooks[name] = fn;
    },
    readMatch: () => readMatch(store),
    // over: the match has ended (it is then never kept among the unfinished ones).
    writeMatch: (save, over = false) => writeMatch(store, save, over),
    clearMatch: () => remove(store, KEYS.match),
    setAsideMatch: (raw) => setAsideMatch(store, raw),
    lost: () => lost(store),
    forgetLost: () => noteLost(store, null),
    // Unfinished matches left for another: [{seed, at, save}], newest last.
    openMatches: () => openList(store),
    // The player dropped one.
    dropOpen: (seed) => writeOpen(store, openList(store).filter((m) => m.seed !== seed)),
    // The raw settings object (model/settings.js checks each field), or null.
    readSettings: () => readChecked(store, KEYS.settings, (v) => v !== null && typeof v === "object" && !Array.isArray(v)),
    writeSettings: (settings) => write(store, KEYS.settings, JSON.stringify(settings)),
    readAcknowledged: (seed) => readAcknowledged(store, seed),
    writeAcknowledged: (seed, deal) => write(store, KEYS.acknowledged, JSON.stringify({ seed, deal })),
    readUi: () => readUi(store),
    writeUi: (value) => write(store, KEYS.ui, JSON.stringify(value)),
    // The table last shown for the save (issue 33): {seed, actions, view}, or null.
    readShown: () => readShown(store),
    writeShown: (seed, actions, view) => writeShown(store, seed, actions, view),
    // Any JSON value under one of KEYS; null when missing or unreadable.
    readJson: (key) => readJsonText(store.backend, key),
    // The same, but a value there that cannot be read or fails `check` is
    // kept aside first (finished.js: the collections).
    readChecked: (key, check) => readChecked(store, key, check),
    setAside: (key, raw) => setAside(store, key, raw),
    // The value under `key` is of a newer build's format (formats.js): never rewritten.
    newer: (key) => newerStored(store, key),
    // fn() run while no other tab runs one: a read-modify-write of the
    // collections every tab shares (finished.js, duplicates.js). Resolves to fn's result.
    exclusive: (fn) => exclusive(store, fn),
    read: (key) => read(store, key),
    writeJson: (key, value) => write(store, key, JSON.stringify(value)),
    writeAll: (entries, options) => writeAll(store, entries, options),
    remove: (key) => remove(store, key),
    asideList: () => asideList(store),
    used: () => used(store),
  };
}

// --- reading and writing one key --------------------------------------------------

// The keys of the match in progress are written only by the tab that owns
// it (tabs.js); the collections merge what is stored, so any tab may.
const GUARDED = new Set([KEYS.match, KEYS.ui, KEYS.acknowledged, KEYS.open, KEYS.shown]);

const read = (store, key) => readText(store.backend, key);

// formats.js's rule, for every key: a value of a newer build's format is
// never rewritten by a write of this build (only "Borrar" removes it, on the
// player's word).
function newerStored(store, key) {
  const raw = read(store, key);
  if (raw === null || !raw.includes('"version"')) return false;
  try {
    return isNewer(key, JSON.parse(raw));
  } catch {
    return false;
  }
}

// The collections every tab of this origin shares are read, changed and
// written back inside one Web Lock, with no await between the read and the
// write; where the page has no Web Locks the same section runs at once (a
// section with no await in it is one step of this tab's event loop).
const DATA_LOCK = "gin.data";
async function exclusive(store, fn) {
  if (!store.locks) return fn();
  return store.locks.request(DATA_LOCK, () => fn());
}
const tryWrite = (store, key, value) => writeText(store.backend, key, value);

// Room is made by dropping the oldest kept replays, one at a time; never
// the current match, the statistics or what was kept aside. The oldest is
// the first stored: the list's order is the order they were kept in
// (finished.js), whatever the clock said (issue 36, path 5).
function evictOldestReplay(store) {
  const raw = read(store, KEYS.finished);
  let list;
  try {
    list = JSON.parse(raw);
  } catch {
    return false;
  }
  if (!Array.isArray(list) || !list.length) return false;
  list.shift();
  if (!tryWrite(store, KEYS.finished, JSON.stringify(list))) return false;
  store.hooks.evicted(1);
  return true;
}

// evict: whether old replays may go to make room (not for an import,
// which must never remove a local match).
function write(store, key, value, evict = true) {
  if (!store.backend) return false;
  if (GUARDED.has(key) && !store.owns()) return false;
  if (newerStored(store, key)) return false;
  let ok = tryWrite(store, key, value);
  while (!ok && evict && key !== KEYS.finished && key !== KEYS.aside && evictOldestReplay(store)) ok = tryWrite(store, key, value);
  store.writable = ok;
  return ok;
}

function remove(store, key) {
  if (GUARDED.has(key) && !store.owns()) return false;
  return removeKey(store.backend, key);
}

// Several keys at once or none: on a failure the old texts go back.
// evict: old replays may be dropped for room (never for an import).
function writeAll(store, entries, { evict = false } = {}) {
  const before = entries.map(([key]) => [key, read(store, key)]);
  for (const [key, value] of entries) {
    if (write(store, key, JSON.stringify(value), evict)) continue;
    for (const [k, raw] of before) if (raw === null) remove(store, k);
    else tryWrite(store, k, raw);
    return false;
  }
  return true;
}

// Characters this game keeps in localStorage (2 bytes each in Chromium's count).
function used(store) {
  const { backend } = store;
  if (!backend) return 0;
  let n = 0;
  try {
    for (let i = 0; i < backend.length; i++) {
      const key = backend.key(i);
      if (key && key.startsWith("gin.")) n += key.length + (backend.getItem(key) || "").length;
    }
  } catch {
    // unreadable storage: nothing counted
  }
  return n;
}

// --- values kept aside --------------------------------------------------------------

function asideList(store) {
  const value = readJsonText(store.backend, KEYS.aside);
  return Array.isArray(value) ? value.filter((v) => v && typeof v.key === "string" && typeof v.raw === "string") : [];
}

// Keeps `raw` (the text found under `key`) in the slots, the oldest slot
// dropped first when there are too many or no room; a copy already kept is
// not kept twice. Returns true when it is newly kept (the caller tells the
// player, once). With `free`, the key is emptied afterwards.
function setAside(store, key, raw, { free = false } = {}) {
  if (!store.backend || typeof raw !== "string") return false;
  const slots = asideList(store);
  if (slots.some((s) => s.key === key && s.raw === raw)) {
    if (free) remove(store, key);
    return false;
  }
  slots.push({ key, at: Date.now(), raw });
  while (slots.length > ASIDE_SLOTS) slots.shift();
  let kept = tryWrite(store, KEYS.aside, JSON.stringify(slots));
  while (!kept && slots.length > 1) {
    slots.shift();
    kept = tryWrite(store, KEYS.aside, JSON.stringify(slots));
  }
  if (!kept && read(store, key) === raw) {
    // The copy does not fit beside the original: free the original first
    // (the text is in hand), and put it back if even then it does not fit.
    remove(store, key);
    kept = tryWrite(store, KEYS.aside, JSON.stringify(slots));
    if (!kept) tryWrite(store, key, raw);
  }
  if (kept && free) remove(store, key);
  if (kept) store.hooks.aside(key);
  return kept;
}

// A stored value that is there but unreadable, or not what `check` wants:
// kept aside (never overwritten unseen), and null returned. A value of a
// newer build's format (formats.js) is not ours to read: null, left as it is.
function readChecked(store, key, check) {
  const raw = read(store, key);
  if (raw === null) return null;
  let value;
  try {
    value = JSON.parse(raw);
  } catch {
    setAside(store, key, raw);
    return null;
  }
  if (isNewer(key, value)) return null;
  if (!check(value)) {
    setAside(store, key, raw);
    return null;
  }
  return value;
}

// Keep an unreadable save aside (never delete a player's data) and free
// the main key for a new match.
// `raw` is the match on the key, or a kept unfinished one (Partidas, a
// link, "Jugar aquí"): that one goes aside and off the list, and the match
// on the key, another one, stays where it is.
function setAsideMatch(store, raw) {
  if (raw === null || raw === undefined) return true;
  if (read(store, KEYS.match) === raw) return setAside(store, KEYS.match, raw, { free: true });
  const kept = setAside(store, KEYS.open, raw) || asideList(store).some((s) => s.raw === raw);
  if (!kept) return false;
  const list = openList(store);
  const left = list.filter((m) => JSON.stringify(m.save) !== raw);
  return left.length === list.length || writeOpen(store, left);
}

// --- unfinished matches kept besides the current one ----------------------------------

// A finished match is no unfinished one: one filed there by an older build
// (or by a tab that did not know it was over) is left out, and dropped at the
// list's next write; finished.js keeps it with the finished matches.
function openList(store) {
  const raw = read(store, KEYS.open);
  if (raw === null) return [];
  const list = readChecked(store, KEYS.open, Array.isArray) || [];
  const good = list.filter((m) => m && typeof m.seed === "string" && m.save && typeof m.save === "object" && !Array.isArray(m.save));
  if (good.length !== list.length) setAside(store, KEYS.open, raw);
  const finished = finishedIds(store);
  return finished.size ? good.filter((m) => !finished.has(matchId(m.save))) : good;
}

// Whether the unfinished matches' list may hold `seed`, from the list as
// stored: the list itself (openList) leaves out the finished ones, which
// reads every kept replay, and writeMatch asks at every move (a player with
// the day's match left unfinished has a list). Unreadable: maybe.
function mayListOpen(store, seed) {
  const list = readJsonText(store.backend, KEYS.open);
  return Array.isArray(list) ? list.some((m) => m && m.seed === seed) : read(store, KEYS.open) !== null;
}

// The ids (finished.js's matchId) of the finished matches kept, and of
// the last ones a tab saw end (KEYS.ended: after "Borrar" emptied the
// finished ones, or when they could not be kept, a match that ended is
// still no unfinished one).
function finishedIds(store) {
  const list = readJsonText(store.backend, KEYS.finished);
  const ended = readJsonText(store.backend, KEYS.ended);
  const ids = new Set(Array.isArray(ended) ? ended.filter((id) => typeof id === "string") : []);
  if (!Array.isArray(list)) return ids;
  for (const m of list) if (m && m.save && typeof m.save === "object" && !Array.isArray(m.save)) ids.add(matchId(m.save));
  return ids;
}

// This tab saw the match of `save` end.
function noteEnded(store, save) {
  const id = matchId(save);
  const ended = readJsonText(store.backend, KEYS.ended);
  const list = Array.isArray(ended) ? ended.filter((e) => typeof e === "string" && e !== id) : [];
  list.push(id);
  write(store, KEYS.ended, JSON.stringify(list.slice(-ENDED_KEEP)), false);
}

// At most OPEN_KEEP, the oldest dropped first; `spare`: the seed about to
// take the key, which leaves the list once it has (not counted, not dropped).
function writeOpen(store, list, spare = null) {
  while (list.filter((m) => m.seed !== spare).length > OPEN_KEEP) list.splice(list.findIndex((m) => m.seed !== spare), 1);
  return list.length ? write(store, KEYS.open, JSON.stringify(list)) : remove(store, KEYS.open);
}

// Before another match's save takes the key, the one there (written by
// this or another tab) joins the unfinished ones, unless it is the same
// match or a finished one ("Otra vez", a link followed from a match's end:
// finished.js keeps those, and eight of them must not push out a match the
// player left unfinished).
function keepOtherMatch(store, seed) {
  const raw = read(store, KEYS.match);
  if (raw === null || (raw === store.lastWritten.text && seed === store.lastWritten.seed)) return true;
  if (raw === store.lastWritten.text && store.lastWritten.over) return true;
  const other = parseSave(raw);
  if (!other || typeof other.seed !== "string") return setAside(store, KEYS.match, raw) || asideList(store).some((s) => s.key === KEYS.match && s.raw === raw);
  if (String(other.seed) === seed) return true;
  if (finishedIds(store).has(matchId(other))) return true;
  const list = openList(store).filter((m) => m.seed !== String(other.seed));
  list.push({ seed: String(other.seed), at: Date.now(), save: other });
  return writeOpen(store, list, seed);
}

// --- the match in progress ---------------------------------------------------------

// {status: "none"} | {status: "ok", save, raw} | {status: "corrupt", raw}
// (too long or too deep counts as corrupt: it never reaches the worker).
function readMatch(store) {
  const raw = read(store, KEYS.match);
  if (raw === null) return { status: "none" };
  const save = parseSave(raw);
  return save ? { status: "ok", save, raw } : { status: "corrupt", raw };
}

// The save of the match in progress (`reached`: how many actions it has
// in the page, for the after-reload notice when it cannot be written).
function writeMatch(store, save, over) {
  if (!store.backend || !store.owns()) return false;
  const seed = String(save.seed);
  // The match on the key is never replaced before it is kept elsewhere: if
  // there is no room to keep it, this one is not saved (and the page says so).
  const text = JSON.stringify(save);
  const ok = keepOtherMatch(store, seed) && write(store, KEYS.match, text);
  if (ok) {
    store.lastWritten = { text, seed, over: Boolean(over) };
    if (over) noteEnded(store, save);
    if (mayListOpen(store, seed)) {
      const list = openList(store);
      if (list.some((m) => m.seed === seed)) writeOpen(store, list.filter((m) => m.seed !== seed));
    }
    noteLost(store, null);
  } else {
    let saved = 0;
    const stored = parseSave(read(store, KEYS.match));
    if (stored && String(stored.seed) === seed && Array.isArray(stored.actions)) saved = stored.actions.length;
    const before = lost(store);
    const since = before && before.seed === seed ? Math.min(before.saved, saved) : saved;
    noteLost(store, { seed, saved: since, reached: (save.actions || []).length });
  }
  return ok;
}

// In sessionStorage: {seed, saved, reached} when the match could not be saved.
function noteLost(store, value) {
  // no session storage: only the notice at once
  if (value) writeText(store.session, LOST_KEY, JSON.stringify(value));
  else removeKey(store.session, LOST_KEY);
}

// {seed, saved, reached}: the last time this tab could not save its match.
function lost(store) {
  try {
    const value = JSON.parse(readText(store.session, LOST_KEY));
    return value && typeof value.seed === "string" && Number.isInteger(value.saved) && Number.isInteger(value.reached) ? value : null;
  } catch {
    return null;
  }
}

// The number of the last deal whose result the player closed with
// "Siguiente", for the match on `seed`; null when unknown.
function readAcknowledged(store, seed) {
  const value = readJsonText(store.backend, KEYS.acknowledged);
  return value && value.seed === seed && Number.isInteger(value.deal) ? value.deal : null;
}

// What the player had selected or open at the position after `actions`
// moves of the match on `seed`; null when unreadable.
function readUi(store) {
  const value = readJsonText(store.backend, KEYS.ui);
  return value && typeof value === "object" && !Array.isArray(value) ? value : null;
}

// --- the table last shown (issue 33) ------------------------------------------------

// The version of KEYS.shown's value this build reads and writes (formats.js lists it).
export const SHOWN_VERSION = 1;
// A view longer than this is not kept (a real one is a few kilobytes).
export const MAX_SHOWN_CHARS = 200_000;

// The view the engine last gave for the save of `seed` after `actions`
// moves, kept so the next visit draws the table before the engine is up.
// Written only by the tab that owns the match (GUARDED); only a copy of
// what the save already holds, so a failed write is nothing lost.
function writeShown(store, seed, actions, view) {
  let text;
  try {
    text = JSON.stringify({ version: SHOWN_VERSION, seed: String(seed), actions, view });
  } catch {
    return false;
  }
  if (text.length > MAX_SHOWN_CHARS) return false;
  // Not write(): a copy must never drop a kept replay for room, nor make
  // the page say it cannot save when the save itself was written.
  if (!store.backend || !store.owns() || newerStored(store, KEYS.shown)) return false;
  return tryWrite(store, KEYS.shown, text);
}

// {seed, actions, view} or null. An unreadable, foreign or malformed copy
// is ignored (it is derived from the save and rewritten at the next move);
// it is never trusted over the save: the caller checks it names the save's
// seed and number of moves.
function readShown(store) {
  const raw = read(store, KEYS.shown);
  if (raw === null || raw.length > MAX_SHOWN_CHARS || jsonDepth(raw) > MAX_SAVE_DEPTH) return null;
  let value;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!value || value.version !== SHOWN_VERSION || typeof value.seed !== "string" || !Number.isInteger(value.actions)) return null;
  return shownViewOk(value.view, value.seed) ? { seed: value.seed, actions: value.actions, view: value.view } : null;
}

const strings = (list) => Array.isArray(list) && list.every((c) => typeof c === "string");

// Enough of a view for the table to be drawn from it (table/render.js reads
// these fields without checking them).
function shownViewOk(view, seed) {
  if (!view || typeof view !== "object" || Array.isArray(view) || String(view.seed) !== seed) return false;
  if (!strings(view.hand) || !strings(view.discard) || !Array.isArray(view.history) || !Array.isArray(view.events)) return false;
  if (!Array.isArray(view.legal) || typeof view.phase !== "string" || !view.rules || typeof view.rules !== "object") return false;
  if (!Array.isArray(view.scores) || !view.opponent || !Number.isInteger(view.opponent.count)) return false;
  return Number.isInteger(view.deal_number) && (view.to_act === 0 || view.to_act === 1 || view.to_act === null);
}
