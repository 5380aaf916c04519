// The memory snapshot of an interpreter that has already imported gin.bridge:
// found (in Cache Storage, where the service worker keeps it decoded and
// sparse, or fetched gzip-compressed beside the wasm: a first visit, or the
// visit after a bad copy was deleted), read and checked against this build's
// hashes into the memory Pyodide restores, and entered once restored. A copy
// that fails is noted and deleted, so the next visit fetches a fresh one.
// The forms and their hashes: snapshotformat.js.
//
// Every function takes the start-up record first (worker.js newStartup).

import { BootError } from "./protocol.js";
import "./snapshotformat.js";

const {
  SnapshotUnusable,
  integrityOf,
  isGzip,
  gunzip,
  isSparse,
  expandSparse,
  INTEGRITY_HEADER,
  SPARSE_INTEGRITY_HEADER,
  MAX_FAILURES,
} = self.ginSnapshotFormat;

// Reasons that say the copy read is bad (deleted, fetched again next time),
// and those that are no fault at all (not worth a console warning).
const SNAPSHOT_DAMAGE = new Set(["hash_mismatch", "corrupt", "restore_failed"]);
const SNAPSHOT_QUIET = new Set(["none", "not_cached", "save_data", "slow_network"]);

// What the snapshot froze that must differ per visit: `random`'s state (the
// build played a warm-up match). Python's string-hash secret cannot change in
// a running interpreter; the build fixes it (PYTHONHASHSEED=0) and the engine
// does not depend on it (tests/test_pyodide_node.py).
const AFTER_RESTORE = `
import random, sys
random.seed()
if "tempfile" in sys.modules:
    sys.modules["tempfile"]._name_sequence = None
import gin.bridge
`;

async function failureNote(startup) {
  try {
    const response = await caches.match(startup.urls.snapshotNote, { cacheName: startup.caches.notes });
    return response ? await response.json() : null;
  } catch {
    return null;
  }
}

// Note the failure and delete every cached copy, so the next visit fetches
// a fresh one (and never boots the bad one again).
async function forgetSnapshot(startup, reason) {
  const note = (await failureNote(startup)) || { count: 0 };
  const notes = await caches.open(startup.caches.notes);
  await notes.put(startup.urls.snapshotNote, new Response(JSON.stringify({ count: note.count + 1, reason })));
  for (const name of await caches.keys()) {
    if (!name.startsWith("gin-")) continue;
    const cache = await caches.open(name);
    await cache.delete(startup.urls.snapshotKept);
    await cache.delete(startup.urls.snapshot);
  }
}

// A first visit downloads the snapshot (6 MB gzip more than the normal start,
// which then needs neither micropip nor the wheel) unless the browser says
// the player saves data or is on a slow network (navigator.connection:
// Chromium only; elsewhere the snapshot is fetched).
function networkWanted() {
  const connection = self.navigator && self.navigator.connection;
  if (!connection) return null;
  if (connection.saveData) return "save_data";
  if (/(^|-)2g$|^3g$/.test(connection.effectiveType || "")) return "slow_network";
  return null;
}

// The snapshot found: {source: "cache" | "network", xored, response}. From
// Cache Storage, where the service worker keeps it decoded, else from the
// network, fetched at once, beside Pyodide's wasm. Rejects with
// SnapshotUnusable when there is none to use.
export async function findSnapshot(startup) {
  if (!startup.build.snapshot) throw new SnapshotUnusable("none");
  if (typeof caches === "undefined") throw new SnapshotUnusable("no_cache_storage");
  const note = await failureNote(startup);
  if (note && note.count >= MAX_FAILURES) throw new SnapshotUnusable(note.reason, `failed ${note.count} times`);
  let response;
  let whole;
  try {
    response = await caches.match(startup.urls.snapshotKept);
    whole = Boolean(response);
    response ||= await caches.match(startup.urls.snapshot);
  } catch (err) {
    throw new SnapshotUnusable("no_cache_storage", err);
  }
  // The service worker keeps it not XORed, sparse (raw_url); as served (url) it is XORed.
  if (response) return { source: "cache", xored: !whole, response };
  // An extra engine only reads what is shared; a slow network waits.
  if (startup.reviewer) throw new SnapshotUnusable("not_cached");
  const unwanted = networkWanted();
  if (unwanted) throw new SnapshotUnusable(unwanted);
  try {
    response = await fetch(startup.urls.snapshot);
  } catch (err) {
    throw new SnapshotUnusable("not_cached", err); // offline
  }
  if (!response.ok) throw new SnapshotUnusable("not_cached", `HTTP ${response.status}`);
  return { source: "network", xored: true, response };
}

// Whether the copy found (a promise) still needs the wasm's bytes to undo its XOR.
export function needsWasmBytes(found) {
  return found.then((snapshot) => snapshot.xored, () => false);
}

// Stored sparse (the service worker's copy), whole (an older build's copy),
// gzip-compressed as served, or decoded by a host that sent it with
// Content-Encoding (both still XORed with the wasm's data segments): each is
// checked against the build's hash of that form, the sparse copy against the
// hash the service worker computed of it when it had checked what it
// rebuilds to against this build's (kept beside it). Gives {bytes, xored}.
async function readSnapshot(startup, response, memory) {
  const expected = startup.build.snapshot;
  const stored = new Uint8Array(await response.arrayBuffer());
  if (isSparse(stored)) {
    const sparse = response.headers.get(SPARSE_INTEGRITY_HEADER);
    if (response.headers.get(INTEGRITY_HEADER) !== expected.raw_integrity || !sparse) throw new SnapshotUnusable("hash_mismatch");
    if ((await integrityOf(stored)) !== sparse) throw new SnapshotUnusable("hash_mismatch");
    return { bytes: expandSparse(stored, memory), xored: false };
  }
  if (!isGzip(stored)) {
    const integrity = await integrityOf(stored);
    if (integrity === expected.raw_integrity) return { bytes: stored, xored: false };
    if (integrity === expected.xor_integrity) return { bytes: stored, xored: true };
    throw new SnapshotUnusable("hash_mismatch");
  }
  if (typeof DecompressionStream !== "function") throw new SnapshotUnusable("no_decompression");
  const [integrity, raw] = await Promise.all([integrityOf(stored), gunzip(stored)]).catch((err) => {
    throw new SnapshotUnusable("corrupt", err);
  });
  if (integrity !== expected.integrity) throw new SnapshotUnusable("hash_mismatch");
  if (raw.byteLength !== expected.raw_size) throw new SnapshotUnusable("corrupt", `size ${raw.byteLength}`);
  return { bytes: new Uint8Array(raw), xored: true };
}

// Only a copy still XORed needs the code (a repeat visit's copy is whole):
// imported then, beside the wasm's download, not before the start.
async function undoXor(snapshot, wasmBytes) {
  try {
    await import("./wasmdata.js"); // sets self.ginWasmData
  } catch (err) {
    throw new SnapshotUnusable("not_cached", `wasmdata.js: ${err}`);
  }
  const wasm = wasmBytes && (await wasmBytes);
  if (!wasm) throw new SnapshotUnusable("no_wasm_bytes");
  try {
    return self.ginWasmData.xorWasmData(snapshot, new Uint8Array(wasm));
  } catch (err) {
    throw new SnapshotUnusable("corrupt", err);
  }
}

// The memory Pyodide restores, handed to it at once (it sizes the wasm's
// memory by it) and filled as the snapshot is read: Pyodide creates its
// module before anything is read, not after (loadPyodide awaits
// _loadSnapshot first), and restores from these bytes only once they are all
// there (its module waits for `read`). A fresh buffer is all zeros, so the
// sparse copy writes only its pages. wasmBytes: a promise of the wasm's
// bytes, for a copy still XORed.
export function readSnapshotInto(startup, snapshot, wasmBytes) {
  const memory = new Uint8Array(startup.build.snapshot.raw_size);
  const read = readSnapshot(startup, snapshot.response, memory)
    .then(({ bytes, xored }) => (xored ? undoXor(bytes, wasmBytes) : bytes))
    .then((bytes) => {
      if (bytes !== memory) {
        if (bytes.length !== memory.length) throw new SnapshotUnusable("corrupt", `size ${bytes.length}`);
        memory.set(bytes);
      }
      startup.mark("snapshot_read");
    });
  // Reported through loadPyodide, which may await it only later: without a
  // handler now, a quick failure (a corrupt copy) is an unhandled rejection.
  read.catch(() => {});
  return { memory, read };
}

// A failure of Pyodide's start from the snapshot, as the reason to start
// from the wheel instead: a missing file is not (that start would fail too).
export function restoreFailed(err) {
  if (err instanceof SnapshotUnusable) throw err;
  if (err instanceof BootError && err.code === "missing_file") throw err;
  throw new SnapshotUnusable("restore_failed", err);
}

// gin.bridge from the restored interpreter, `random` reseeded first. A
// Pyodide that ignored _loadSnapshot has no gin.bridge in sys.modules, and an
// empty site-packages: this import fails.
export function enterRestored(pyodide) {
  try {
    pyodide.runPython(AFTER_RESTORE);
    return pyodide.pyimport("gin.bridge");
  } catch (err) {
    throw new SnapshotUnusable("restore_failed", err);
  }
}

// The snapshot could not be used (err: a SnapshotUnusable; anything else is
// thrown on): the reason, for ready's timings. A copy that was read and is
// bad is noted and deleted, not on this start's way. An extra engine for the
// review stops here: starting from the wheel may write shared storage.
export function unusableReason(startup, err) {
  if (!(err instanceof SnapshotUnusable)) throw err;
  if (startup.reviewer) throw new BootError("runtime", "no_snapshot", err.message);
  if (startup.timings.snapshot_source && SNAPSHOT_DAMAGE.has(err.reason)) {
    forgetSnapshot(startup, err.reason).catch(() => {});
  }
  if (!SNAPSHOT_QUIET.has(err.reason)) console.warn(`gin: snapshot not used (${err.message}); booting normally`);
  return err.reason;
}
