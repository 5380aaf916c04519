// The browser's localStorage (and sessionStorage) behind one adapter that
// never throws: where storage is blocked, missing or full the game plays on,
// a read gives null and a write false. Every module that keeps something in
// the browser goes through these functions (storage.js, coachlog.js, the
// guided deal's flag), each over a backend opened once.

import { KEYS } from "./keys.js";

// A backend that can be read, or null: merely reading window.localStorage
// throws where storage is blocked. A full storage still reads (what the
// player has must show even when nothing more fits): canWrite tells.
export function openBackend(getBackend = () => window.localStorage) {
  try {
    const backend = getBackend();
    backend.getItem(KEYS.probe);
    return backend;
  } catch {
    return null;
  }
}

// True when something can be written there now (a probe written and removed).
export function canWrite(backend) {
  if (!backend) return false;
  try {
    backend.setItem(KEYS.probe, "1");
    backend.removeItem(KEYS.probe);
    return true;
  } catch {
    return false;
  }
}

// sessionStorage, or null (never probed: a failed write is told by its result).
export function openSession(getSession = () => window.sessionStorage) {
  try {
    return getSession();
  } catch {
    return null;
  }
}

// The page's localStorage as it is (not probed: a full storage still
// reads), for the small keys beside the match's (coachlog.js, the guided
// deal's flag); null where it is blocked.
export function localBackend() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

// The text under `key`, or null (missing, or storage unreadable).
export function readText(backend, key) {
  if (!backend) return null;
  try {
    return backend.getItem(key);
  } catch {
    return null;
  }
}

// True when `text` is now stored under `key`.
export function writeText(backend, key, text) {
  if (!backend) return false;
  try {
    backend.setItem(key, text);
    return true;
  } catch {
    return false;
  }
}

// True when nothing is stored under `key` any more.
export function removeKey(backend, key) {
  if (!backend) return false;
  try {
    backend.removeItem(key);
    return true;
  } catch {
    return false;
  }
}

// The parsed JSON under `key`, or null (missing, unreadable or not JSON).
export function readJsonText(backend, key) {
  const raw = readText(backend, key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
