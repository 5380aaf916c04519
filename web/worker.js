// The engine's home: a module Web Worker that boots the self-hosted Pyodide
// and answers {id, method, params} messages by calling gin.bridge (JSON
// string in, JSON string out). Two ways to boot:
//   snapshot  restore the build's memory snapshot of an interpreter that has
//             already imported gin.bridge: read decoded (and sparse) from
//             Cache Storage (every visit after the first), or fetched
//             gzip-compressed beside the wasm (a first visit, or after a bad
//             copy was deleted);
//   normal    boot Pyodide and install the gin wheel with micropip (or import
//             the copy an earlier visit kept in IndexedDB), whenever the
//             snapshot cannot be used.
// ready's timings say which: boot = "snapshot" | "cache" | "micropip", and
// snapshot_fallback the reason a snapshot was not used; wheel is the
// integrity of this build's gin wheel, snapshot the snapshot booted and
// snapshot_source where it was read from (cache | network). Marks in ms
// since the worker started: loader (pyodide.mjs), asm (pyodide.asm.mjs),
// wasm_compiled, snapshot_read, wasm (instantiated), module (Pyodide's
// module created, before it waits for the snapshot), runtime, engine.
//
// A worker started with the name REVIEWER (new Worker(url, {name}): the same
// URL, so the service worker's cache answers it offline) is an extra engine
// for Difícil's review of a long match, running beside the page's own. It
// only reads shared storage: it boots from the cached snapshot or not at all
// (boot_error no_snapshot; the page's engine then reviews alone), so it never
// stages fetches in Cache Storage nor mounts or writes the IDBFS cache, and
// it answers `review` only.
//
// Messages to the page:
//   {type: "progress", stage}                  stage: runtime | installer | engine
//   {type: "ready", timings}
//   {type: "boot_error", stage, code, detail}   code: no_wasm | missing_file | boot_failed | no_snapshot
//   {id, ok: true, result}                      result: the bridge's parsed answer
//   {id, ok: false, error: {code, message}}     the call never reached the engine

// Replaced by build.py with the paths of this build's Pyodide and wheels.
const BUILD = self.__GIN_BUILD;

const REVIEWER = self.name === "gin-review"; // engine.js REVIEW_ROLE

const base = new URL("./", self.location.href);
const abs = (path) => new URL(path, base).href;

let bridge = null;
let booting = null;
const pending = [];

function post(message) {
  self.postMessage(message);
}

class BootError extends Error {
  constructor(stage, code, detail) {
    super(`${stage}: ${code}: ${detail}`);
    this.stage = stage;
    this.code = code;
    this.detail = String(detail);
  }
}

// Fetch a file we ship, failing with the file's name when it is not there.
async function fetchBytes(url, stage) {
  let response;
  try {
    response = await fetch(url);
  } catch (err) {
    throw new BootError(stage, "missing_file", `${url}: ${err}`);
  }
  if (!response.ok) {
    throw new BootError(stage, "missing_file", `${url}: HTTP ${response.status}`);
  }
  return new Uint8Array(await response.arrayBuffer());
}

// Pyodide logs a failed WebAssembly instantiation (e.g. a missing
// pyodide.asm.wasm) and then waits forever. Watching the two entry points lets
// the boot fail with a reason instead of hanging.
function watchWasm(onInstantiated = () => {}) {
  let fail;
  const failed = new Promise((_, reject) => {
    fail = reject;
  });
  const originals = {};
  for (const name of ["instantiateStreaming", "instantiate"]) {
    const original = WebAssembly[name];
    if (typeof original !== "function") continue;
    originals[name] = original;
    WebAssembly[name] = function (...args) {
      const result = original.apply(this, args);
      result.then(onInstantiated, (err) => {
        const text = String(err && err.message ? err.message : err);
        fail(new BootError("runtime", /status|fetch|MIME/i.test(text) ? "missing_file" : "boot_failed", `pyodide.asm.wasm: ${text}`));
      });
      return result;
    };
  }
  return {
    failed,
    restore() {
      Object.assign(WebAssembly, originals);
    },
  };
}

// ------------------------------------------------------------------ snapshot

const SNAPSHOT = BUILD.snapshot || null;

async function integrityOf(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return "sha256-" + btoa(binary);
}

class SnapshotUnusable extends Error {
  constructor(reason, detail = "") {
    super(`${reason}${detail ? `: ${detail}` : ""}`);
    this.reason = reason;
  }
}

// Where a snapshot's failures are noted (sw.js SNAPSHOT_NOTES): a copy that
// fails to restore is deleted and fetched again on the next visit, but a
// build whose snapshot fails twice is not downloaded again (the next build
// has a new snapshot and a clean note).
const NOTES = "gin-snapshot-notes";
const MAX_FAILURES = 2;
const noteURL = () => abs(`snapshot-failures/${SNAPSHOT.url.slice(SNAPSHOT.url.lastIndexOf("/") + 1)}`);

async function failureNote() {
  try {
    const response = await caches.match(noteURL(), { cacheName: NOTES });
    return response ? await response.json() : null;
  } catch {
    return null;
  }
}

// Note the failure and delete every cached copy, so the next visit fetches
// a fresh one (and never boots the bad one again).
async function forgetSnapshot(reason) {
  const note = (await failureNote()) || { count: 0 };
  const notes = await caches.open(NOTES);
  await notes.put(noteURL(), new Response(JSON.stringify({ count: note.count + 1, reason })));
  for (const name of await caches.keys()) {
    if (!name.startsWith("gin-")) continue;
    const cache = await caches.open(name);
    await cache.delete(abs(SNAPSHOT.raw_url));
    await cache.delete(abs(SNAPSHOT.url));
  }
}

// A first visit downloads the snapshot (6 MB gzip more than the normal boot,
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

// The snapshot ({source, read}): read() gives its bytes checked against this
// build's hashes (and decompressed when it came gzip-compressed). From Cache
// Storage, where the service worker keeps it decoded, else from the network
// (a first visit, or the visit after a bad copy was deleted), fetched at
// once, beside Pyodide's wasm.
async function findSnapshot() {
  if (!SNAPSHOT) throw new SnapshotUnusable("none");
  if (typeof caches === "undefined") throw new SnapshotUnusable("no_cache_storage");
  const note = await failureNote();
  if (note && note.count >= MAX_FAILURES) throw new SnapshotUnusable(note.reason, `failed ${note.count} times`);
  let response;
  let whole;
  try {
    response = await caches.match(abs(SNAPSHOT.raw_url));
    whole = Boolean(response);
    response ||= await caches.match(abs(SNAPSHOT.url));
  } catch (err) {
    throw new SnapshotUnusable("no_cache_storage", err);
  }
  // The service worker keeps it not XORed, sparse (raw_url); as served (url) it is XORed.
  if (response) return { source: "cache", xored: !whole, read: (memory) => readSnapshot(response, memory) };
  // An extra engine only reads what is shared; a slow network waits.
  if (REVIEWER) throw new SnapshotUnusable("not_cached");
  const unwanted = networkWanted();
  if (unwanted) throw new SnapshotUnusable(unwanted);
  try {
    response = await fetch(abs(SNAPSHOT.url));
  } catch (err) {
    throw new SnapshotUnusable("not_cached", err); // offline
  }
  if (!response.ok) throw new SnapshotUnusable("not_cached", `HTTP ${response.status}`);
  return { source: "network", xored: true, read: (memory) => readSnapshot(response, memory) };
}

// Stored whole and sparse (the service worker's copy: {bytes, xored: false}),
// whole (an older build's copy), gzip-compressed as served, or decoded by a
// host that sent it with Content-Encoding (both still XORed with the wasm's
// data segments): each is checked against the build's hash of that form, the
// sparse copy against the hash the service worker computed of it when it had
// checked what it rebuilds to against this build's (kept beside it).
async function readSnapshot(response, memory) {
  const stored = new Uint8Array(await response.arrayBuffer());
  if (isSparse(stored)) {
    const sparse = response.headers.get("x-gin-sparse-integrity");
    if (response.headers.get("x-gin-integrity") !== SNAPSHOT.raw_integrity || !sparse) throw new SnapshotUnusable("hash_mismatch");
    if ((await integrityOf(stored)) !== sparse) throw new SnapshotUnusable("hash_mismatch");
    return { bytes: expandSparse(stored, memory), xored: false };
  }
  const packed = stored[0] === 0x1f && stored[1] === 0x8b;
  if (!packed) {
    const integrity = await integrityOf(stored);
    if (integrity === SNAPSHOT.raw_integrity) return { bytes: stored, xored: false };
    if (integrity === SNAPSHOT.xor_integrity) return { bytes: stored, xored: true };
    throw new SnapshotUnusable("hash_mismatch");
  }
  if (typeof DecompressionStream !== "function") throw new SnapshotUnusable("no_decompression");
  const [integrity, raw] = await Promise.all([
    integrityOf(stored),
    new Response(new Blob([stored]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer(),
  ]).catch((err) => {
    throw new SnapshotUnusable("corrupt", err);
  });
  if (integrity !== SNAPSHOT.integrity) throw new SnapshotUnusable("hash_mismatch");
  if (raw.byteLength !== SNAPSHOT.raw_size) throw new SnapshotUnusable("corrupt", `size ${raw.byteLength}`);
  return { bytes: new Uint8Array(raw), xored: true };
}

// The service worker's sparse copy (sw.js sparseOf) made whole again in
// `whole` (all zeros, SNAPSHOT.raw_size long): each run of pages copied to its place.
const SPARSE_MAGIC = "GINSPARS"; // sw.js SPARSE_MAGIC

function isSparse(stored) {
  if (stored.length < 20) return false;
  for (let i = 0; i < SPARSE_MAGIC.length; i++) if (stored[i] !== SPARSE_MAGIC.charCodeAt(i)) return false;
  return true;
}

function expandSparse(stored, whole) {
  const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
  const size = view.getUint32(8, true);
  const page = view.getUint32(12, true);
  const runs = view.getUint32(16, true);
  if (size !== whole.length || !page || 20 + 8 * runs > stored.length) throw new SnapshotUnusable("corrupt", "sparse header");
  let at = 20 + 8 * runs;
  let next = 0; // runs come in order and never overlap
  for (let i = 0; i < runs; i++) {
    const start = view.getUint32(20 + 8 * i, true) * page;
    const end = Math.min(size, start + view.getUint32(24 + 8 * i, true) * page);
    if (start < next || end <= start || at + end - start > stored.length) throw new SnapshotUnusable("corrupt", `sparse run ${i}`);
    whole.set(stored.subarray(at, at + end - start), start);
    at += end - start;
    next = end;
  }
  if (at !== stored.length) throw new SnapshotUnusable("corrupt", "sparse length");
  return whole;
}

// ---------------------------------------------------------- early start

// What every boot needs is begun as soon as the worker knows what to read,
// side by side, instead of one after another inside loadPyodide (which
// imports pyodide.asm.mjs only once pyodide.mjs has run, and compiles the wasm
// only once the snapshot is read): Pyodide's Emscripten module
// (pyodide.asm.mjs, 1.25 MB of JavaScript) is imported, and the wasm fetched
// and compiled by streaming (WebAssembly.compileStreaming of its Response, so
// an engine's wasm code cache serves it as it served Pyodide's own
// instantiateStreaming), while the snapshot is read. loadPyodide is handed the
// module factory (createPyodideModule), its fetch of the wasm this fetch's
// response (nothing is fetched twice) and its instantiateStreaming an
// instance of the module compiled here (answerWasm).
//
// The snapshot as served has its memory XORed with the wasm's data segments
// (wasmdata.js): for such a copy the wasm's bytes are read beside the
// compilation (a clone of the same response) and XORed back in. The service
// worker keeps the snapshot not XORed, so a repeat visit clones nothing.
// Pyodide's two modules: imported before anything else is decided (an import
// does not pass through fetch, so there is nothing to stage).
function importPyodide(indexURL, mark) {
  const loader = import(indexURL + "pyodide.mjs");
  const asm = import(indexURL + "pyodide.asm.mjs").then((imported) => {
    mark("asm");
    return imported.default;
  });
  loader.catch(() => {}); // reported where boot() awaits it
  asm.catch(() => {}); // reported by loadPyodide, which awaits it
  return { loader, asm };
}

function startEarly(indexURL, asm, needBytes, mark) {
  const url = indexURL + "pyodide.asm.wasm";
  let bytes = null;
  const response = Promise.all([self.fetch(url), needBytes]).then(([fetched, need]) => {
    // Cloned before the compilation reads the body.
    if (need && fetched.ok) bytes = fetched.clone().arrayBuffer().catch(() => null);
    return fetched;
  });
  const module = WebAssembly.compileStreaming(response).then((compiled) => {
    mark("wasm_compiled");
    return compiled;
  });
  module.catch(() => {}); // reported through Pyodide's instantiation (watchWasm)
  return {
    url,
    response,
    module,
    // The module, created once the wasm is compiled; handed to Pyodide once
    // `before` (the snapshot's read) is done.
    createPyodideModule: (settings, before) =>
      asm
        .then((create) => create(settings))
        .then(async (created) => {
          mark("module");
          await before;
          return created;
        }),
    // The wasm's bytes, for a snapshot still XORed; null when none was read.
    bytes: () => response.then(() => bytes, () => null),
  };
}

// While loadPyodide runs: its fetch of the wasm gets the early response and
// its instantiateStreaming of that response an instance of the early module.
function answerWasm(early) {
  const fetch = self.fetch;
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  const sameURL = (input) => new URL(typeof input === "string" ? input : input.url || String(input), self.location.href).href === early.url;
  self.fetch = function (input, init) {
    return sameURL(input) ? early.response : fetch.call(this, input, init);
  };
  WebAssembly.instantiateStreaming = function (source, imports) {
    if (source !== early.response) return instantiateStreaming.call(this, source, imports);
    return early.module.then(async (module) => ({ module, instance: await WebAssembly.instantiate(module, imports) }));
  };
  return () => {
    self.fetch = fetch;
    WebAssembly.instantiateStreaming = instantiateStreaming;
  };
}

// Only a copy still XORed needs the code (a repeat visit's copy is whole):
// imported then, beside the wasm's download, not before the boot starts.
async function undoXor(snapshot, wasmBytes) {
  try {
    await import("./runtime/wasmdata.js"); // sets self.ginWasmData
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

// ------------------------------------------------------- deferred stdlib

// A restored snapshot boots with an empty zip in the standard library's
// place (BUILD.stdlib_stub: everything the engine uses is already imported,
// so the page is playable without the 4.5 MB zip); the zip is fetched once
// the page says it is playable and written where the snapshot expects it
// (the snapshot's zipimport directory describes these very bytes). An import
// that comes before it, should one ever, fetches it there and then (a
// synchronous request, which a worker may make) instead of failing.
const STDLIB_GUARD = `
import sys

_stdlib_zip = next(p for p in sys.path if p.endswith(".zip"))

class _StdlibGuard:
    def __init__(self, fetch):
        self.fetch = fetch
    def find_spec(self, name, path=None, target=None):
        fetch, self.fetch = self.fetch, None  # once; it stays in meta_path until the page's fetch lands
        if fetch is not None:
            fetch()
        return None

def _guard_stdlib(fetch):
    sys.meta_path.insert(0, _StdlibGuard(fetch))

def _unguard_stdlib():
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_StdlibGuard"]
`;

function deferStdlib(pyodide, url, timings) {
  const t0 = performance.now();
  let installed = false;
  let zipPath;
  const install = (bytes, how) => {
    if (installed) return;
    installed = true;
    pyodide.FS.writeFile(zipPath, new Uint8Array(bytes));
    // Not in the middle of an import (the synchronous way): the guard, spent, stays.
    if (how !== "sync") pyodide.runPython("_unguard_stdlib()");
    timings.stdlib = how;
    timings.stdlib_ms = Math.round(performance.now() - t0);
  };
  const now = () => {
    if (installed) return;
    const xhr = new XMLHttpRequest();
    xhr.open("GET", url, false);
    xhr.responseType = "arraybuffer";
    xhr.send(null);
    if (xhr.status === 200) install(xhr.response, "sync");
  };
  pyodide.runPython(STDLIB_GUARD);
  zipPath = pyodide.globals.get("_stdlib_zip");
  const guard = pyodide.globals.get("_guard_stdlib");
  guard(now);
  guard.destroy();
  return async () => {
    try {
      const bytes = await fetchBytes(url, "stdlib");
      install(bytes, "deferred");
    } catch (err) {
      timings.stdlib = `failed: ${err.message}`; // imports fetch it then
    }
  };
}

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

// ------------------------------------------------------- precache staging

// On a visit no service worker controls yet, keep what Pyodide fetched for
// the service worker's precache (it checks every file against the manifest
// and moves it into its own cache), so nothing is downloaded twice.
// The service worker waits for STAGED_MARK before it looks there.
const STAGING = "gin-staging";
const STAGED_MARK = "gin-staging-complete";

function stageFetches() {
  const original = self.fetch;
  const staged = [caches.open(STAGING)]; // its existence says "staging under way"
  staged[0].catch(() => {});
  self.fetch = function (input, init) {
    const result = original.call(this, input, init);
    const url = new URL(typeof input === "string" ? input : input.url || String(input), self.location.href);
    if (url.origin === self.location.origin && (!init || !init.method || init.method === "GET")) {
      staged.push(
        result.then(async (response) => {
          if (!response.ok || response.type !== "basic") return;
          const copy = response.clone(); // now, before Pyodide reads the body
          // Never bring back a staging cache the service worker has already
          // used and deleted (a slow boot can outlast its wait for the mark).
          if (await caches.has(STAGING)) await (await caches.open(STAGING)).put(url.href, copy);
        }).catch(() => {}), // the service worker downloads it instead
      );
    }
    return result;
  };
  return {
    restore() {
      self.fetch = original;
    },
    // After the boot's fetches: mark the staging cache complete.
    finish() {
      Promise.all(staged)
        .then(async () => {
          if (await caches.has(STAGING)) await (await caches.open(STAGING)).put(abs(STAGED_MARK), new Response("1"));
        })
        .catch(() => {});
    },
  };
}

async function controlledBuild() {
  // The gin wheel is precached with every file of this build: if it is in
  // Cache Storage, this build's service worker has done its work.
  try {
    return typeof caches === "undefined" || Boolean(await caches.match(abs(BUILD.gin)));
  } catch {
    return true;
  }
}

// ------------------------------------------------------------- normal boot

function syncfs(FS, populate) {
  return new Promise((resolve, reject) => FS.syncfs(populate, (err) => (err ? reject(err) : resolve())));
}

function readText(FS, path) {
  try {
    return FS.readFile(path, { encoding: "utf8" });
  } catch {
    return null;
  }
}

// What micropip installed is kept in IndexedDB (Emscripten's IDBFS mounted on
// CACHE_DIR), so a later visit with the same build imports gin straight away
// and never pays for loading and importing micropip. Any failure (IndexedDB
// blocked, private mode, a damaged copy) falls back to installing afresh.
const CACHE_DIR = "/gin-installed";
const STAMP = `${CACHE_DIR}/.gin-wheel`; // the integrity of the wheel installed there

// Read the stamp straight from IDBFS's database before the runtime exists, so
// the boot knows whether to load micropip alongside Pyodide's own start-up.
async function stampInIndexedDB() {
  if (typeof indexedDB === "undefined") return null;
  try {
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open(CACHE_DIR);
      request.onupgradeneeded = () => request.transaction.abort(); // no such database: create nothing
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      const entry = await new Promise((resolve, reject) => {
        const request = db.transaction("FILE_DATA", "readonly").objectStore("FILE_DATA").get(STAMP);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      return entry && entry.contents ? new TextDecoder().decode(entry.contents) : null;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

async function mountCache(FS) {
  if (typeof indexedDB === "undefined" || !FS.filesystems || !FS.filesystems.IDBFS) return false;
  try {
    FS.mkdirTree(CACHE_DIR);
    FS.mount(FS.filesystems.IDBFS, {}, CACHE_DIR);
  } catch {
    return false;
  }
  try {
    await syncfs(FS, true);
    return true;
  } catch {
    try {
      FS.unmount(CACHE_DIR);
    } catch {
      // already gone
    }
    return false;
  }
}

function importFromCache(pyodide) {
  pyodide.runPython(`
import importlib, sys
sys.path.insert(0, ${JSON.stringify(CACHE_DIR)})
importlib.invalidate_caches()
`);
  return pyodide.pyimport("gin.bridge");
}

// Forget a failed attempt: the cache directory leaves sys.path and whatever
// it imported leaves sys.modules.
function forgetCache(pyodide) {
  pyodide.runPython(`
import sys
while ${JSON.stringify(CACHE_DIR)} in sys.path:
    sys.path.remove(${JSON.stringify(CACHE_DIR)})
for _name in [m for m in sys.modules if m == "gin" or m.startswith("gin.")]:
    del sys.modules[_name]
`);
}

// Replace the cache's contents with gin as micropip installed it (package,
// dist-info and the bytecode its import just wrote), then the stamp.
function fillCache(pyodide, integrity) {
  pyodide.runPython(`
import os, shutil, site
import gin
_cache = ${JSON.stringify(CACHE_DIR)}
for _name in os.listdir(_cache):
    _p = os.path.join(_cache, _name)
    shutil.rmtree(_p) if os.path.isdir(_p) and not os.path.islink(_p) else os.remove(_p)
_site = os.path.dirname(os.path.dirname(gin.__file__))
for _name in os.listdir(_site):
    if _name == "gin" or (_name.startswith("gin-") and _name.endswith(".dist-info")):
        shutil.copytree(os.path.join(_site, _name), os.path.join(_cache, _name))
`);
  pyodide.FS.writeFile(STAMP, integrity);
}

function importBridge(pyodide) {
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
  return pyodide.pyimport("gin.bridge");
}

// micropip from our own copy of its wheel (unless the boot loaded it already),
// then our wheel through micropip.
async function installWithMicropip(pyodide, micropipURL, ginURL, ginBytes, micropipLoaded) {
  post({ type: "progress", stage: "installer" });
  const errors = [];
  if (!micropipLoaded) {
    await pyodide.loadPackage(micropipURL, { messageCallback: () => {}, errorCallback: (m) => errors.push(m) });
  }
  // loadPackage reports a failed wheel instead of throwing: importing is the
  // check that counts.
  let micropip;
  try {
    micropip = pyodide.pyimport("micropip");
  } catch (err) {
    throw new BootError("installer", "missing_file", `micropip (${micropipURL}): ${errors.join(" ") || err}`);
  }
  post({ type: "progress", stage: "engine" });
  const bytes = await ginBytes;
  // Hand micropip the bytes fetched during the boot, through Pyodide's file
  // system, instead of a second request for the same wheel.
  const name = ginURL.slice(ginURL.lastIndexOf("/") + 1);
  const wheelPath = `/tmp/${name}`;
  pyodide.FS.writeFile(wheelPath, bytes);
  const install = micropip.install;
  try {
    await install.callKwargs(`emfs:${wheelPath}`, { deps: false });
  } catch (err) {
    throw new BootError("engine", "boot_failed", `micropip.install(${ginURL}): ${err}`);
  } finally {
    install.destroy();
    micropip.destroy();
    try {
      pyodide.FS.unlink(wheelPath);
    } catch {
      // nothing to clean up
    }
  }
}

// loadPyodide with the wasm watched (see watchWasm), its failures as BootErrors.
async function startPyodide(loadPyodide, options, early, mark, before = null) {
  const unanswer = answerWasm(early);
  const wasm = watchWasm(() => mark("wasm"));
  try {
    const createPyodideModule = (settings) => early.createPyodideModule(settings, before);
    return await Promise.race([loadPyodide({ ...options, createPyodideModule }), wasm.failed]);
  } catch (err) {
    if (err instanceof BootError || err instanceof SnapshotUnusable) throw err;
    const text = String(err && err.message ? err.message : err);
    const code = /fetch|404|not found|failed to load|status/i.test(text) ? "missing_file" : "boot_failed";
    throw new BootError("runtime", code, text);
  } finally {
    wasm.restore();
    unanswer();
  }
}

async function boot() {
  const t0 = performance.now();
  // which build this worker is, and when its boot began (ms since the epoch,
  // for the page to put the marks below on its own clock)
  const timings = { wheel: BUILD.gin_integrity, boot_at: performance.timeOrigin + t0 };
  const mark = (name) => {
    timings[name] = Math.round(performance.now() - t0);
  };
  if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
    throw new BootError("runtime", "no_wasm", "WebAssembly is not available");
  }
  post({ type: "progress", stage: "runtime" });
  const indexURL = abs(BUILD.pyodide);
  const options = {
    indexURL,
    packageBaseUrl: indexURL,
    stdLibURL: abs(BUILD.stdlib || `${BUILD.pyodide}python_stdlib.zip`),
    stdout: () => {},
    stderr: () => {},
  };

  const modules = importPyodide(indexURL, mark);
  // A first visit (no service worker of this build yet) keeps what it
  // fetches for the service worker's precache, the snapshot included.
  let staging = REVIEWER || (await controlledBuild()) ? null : stageFetches();
  const unstage = () => {
    if (!staging) return;
    staging.restore();
    staging.finish();
    staging = null;
  };
  const found = findSnapshot();
  found.catch(() => {}); // reported below
  const early = startEarly(indexURL, modules.asm, found.then((snapshot) => snapshot.xored, () => false), mark);
  let loadPyodide;
  try {
    ({ loadPyodide } = await modules.loader);
  } catch (err) {
    throw new BootError("runtime", "missing_file", `${indexURL}pyodide.mjs: ${err}`);
  }
  mark("loader");

  let reason;
  try {
    // Found in the cache or requested (quick to know); its bytes are read,
    // checked (and decompressed when they came from the network) while the
    // wasm is fetched and compiled and Pyodide's module imported.
    const snapshot = await found;
    timings.snapshot_source = snapshot.source;
    // The memory Pyodide restores, handed to it at once (it sizes the wasm's
    // memory by it) and filled as the snapshot is read: Pyodide creates its
    // module before anything is read, not after (loadPyodide awaits
    // _loadSnapshot first), and restores from these bytes only once they
    // are all there (createPyodideModule waits for `read`). A fresh buffer
    // is all zeros, so the sparse copy writes only its pages.
    const memory = new Uint8Array(SNAPSHOT.raw_size);
    const read = snapshot
      .read(memory)
      .then(({ bytes, xored }) => (xored ? undoXor(bytes, early.bytes()) : bytes))
      .then((bytes) => {
        if (bytes !== memory) {
          if (bytes.length !== memory.length) throw new SnapshotUnusable("corrupt", `size ${bytes.length}`);
          memory.set(bytes);
        }
        mark("snapshot_read");
      });
    // Reported through loadPyodide, which may await it only later: without a
    // handler now, a quick failure (a corrupt copy) is an unhandled rejection.
    read.catch(() => {});
    let pyodide;
    try {
      const stdLibURL = BUILD.stdlib_stub ? abs(BUILD.stdlib_stub) : options.stdLibURL;
      pyodide = await startPyodide(loadPyodide, { ...options, stdLibURL, _loadSnapshot: memory }, early, mark, read);
    } catch (err) {
      if (err instanceof SnapshotUnusable) throw err;
      if (err instanceof BootError && err.code === "missing_file") throw err; // the normal boot would fail too
      throw new SnapshotUnusable("restore_failed", err);
    }
    mark("runtime");
    let module;
    try {
      // A Pyodide that ignored _loadSnapshot has no gin.bridge in sys.modules,
      // and an empty site-packages: this import fails.
      pyodide.runPython(AFTER_RESTORE);
      module = pyodide.pyimport("gin.bridge");
    } catch (err) {
      throw new SnapshotUnusable("restore_failed", err);
    }
    mark("engine");
    timings.boot = "snapshot";
    timings.snapshot = SNAPSHOT.url.slice(SNAPSHOT.url.lastIndexOf("/") + 1);
    if (!BUILD.stdlib_stub) {
      unstage();
      return { pyodide, module, timings, afterReady: null };
    }
    timings.stdlib = "deferred";
    // Still staged (a first visit): the service worker's precache takes the
    // zip from there.
    const fetchStdlib = deferStdlib(pyodide, options.stdLibURL, timings);
    return { pyodide, module, timings, afterReady: () => fetchStdlib().finally(unstage) };
  } catch (err) {
    if (!(err instanceof SnapshotUnusable)) {
      unstage();
      throw err;
    }
    reason = err.reason;
    // The normal boot may write shared storage: not for a second worker.
    if (REVIEWER) throw new BootError("runtime", "no_snapshot", err.message);
    if (timings.snapshot_source && SNAPSHOT_DAMAGE.has(reason)) {
      // Not on this boot's way: the next visit fetches a fresh copy.
      forgetSnapshot(reason).catch(() => {});
    }
    if (!SNAPSHOT_QUIET.has(reason)) console.warn(`gin: snapshot not used (${err.message}); booting normally`);
  }
  let result;
  try {
    result = await normalBoot(loadPyodide, options, early, timings, mark, unstage);
  } finally {
    unstage();
  }
  timings.snapshot_fallback = reason;
  return result;
}

// Reasons that say the copy read is bad (deleted, fetched again next time),
// and those that are no fault at all (not worth a console warning).
const SNAPSHOT_DAMAGE = new Set(["hash_mismatch", "corrupt", "restore_failed"]);
const SNAPSHOT_QUIET = new Set(["none", "not_cached", "save_data", "slow_network"]);

async function normalBoot(loadPyodide, options, early, timings, mark, unstage) {
  const micropipURL = abs(BUILD.micropip);
  const ginURL = abs(BUILD.gin);
  const stamp = stampInIndexedDB();
  // Our wheel downloads while Pyodide boots.
  const ginBytes = fetchBytes(ginURL, "engine");
  ginBytes.catch(() => {}); // reported when awaited below
  // First visit of this build: micropip loads during Pyodide's start-up.
  const expectCache = (await stamp) === BUILD.gin_integrity;
  let pyodide;
  try {
    pyodide = await startPyodide(loadPyodide, { ...options, packages: expectCache ? [] : [micropipURL] }, early, mark);
  } finally {
    unstage();
  }
  mark("runtime");

  const persistent = await mountCache(pyodide.FS);
  let module = null;
  if (persistent && readText(pyodide.FS, STAMP) === BUILD.gin_integrity) {
    // micropip installed this very wheel on an earlier visit.
    post({ type: "progress", stage: "engine" });
    try {
      module = importFromCache(pyodide);
      timings.boot = "cache";
    } catch {
      forgetCache(pyodide); // a damaged copy: install afresh below
      module = null;
    }
  }
  if (!module) {
    await installWithMicropip(pyodide, micropipURL, ginURL, ginBytes, !expectCache);
    mark("installer");
    try {
      module = importBridge(pyodide);
    } catch (err) {
      throw new BootError("engine", "boot_failed", `import gin.bridge: ${err}`);
    }
    timings.boot = "micropip";
  }
  // Filling and persisting the cache waits until the first match is served:
  // it is for the next visit, not this one.
  const fill = persistent && timings.boot !== "cache";
  const afterReady = () => {
    if (!persistent) return;
    try {
      if (fill) fillCache(pyodide, BUILD.gin_integrity);
    } catch {
      return; // the next visit installs again
    }
    syncfs(pyodide.FS, false).catch(() => {});
  };
  mark("engine");
  return { pyodide, module, timings, afterReady };
}

function callBridge(method, params) {
  if (typeof method !== "string" || method.startsWith("_") || (REVIEWER && method !== "review")) {
    return { ok: false, error: { code: "unknown_method", message: `no bridge method ${method}` } };
  }
  let fn;
  try {
    fn = bridge.module[method];
  } catch {
    fn = undefined;
  }
  if (typeof fn !== "function") {
    if (fn && typeof fn.destroy === "function") fn.destroy();
    return { ok: false, error: { code: "unknown_method", message: `no bridge method ${method}` } };
  }
  try {
    const answer = fn(JSON.stringify(params ?? {}));
    return { ok: true, result: JSON.parse(answer) };
  } catch (err) {
    // The bridge never raises; getting here is an engine bug or a broken runtime.
    const isPython = err && err.constructor && err.constructor.name === "PythonError";
    return {
      ok: false,
      error: { code: isPython ? "python_error" : "js_error", message: String(err && err.message ? err.message : err) },
    };
  } finally {
    fn.destroy();
  }
}

function handle(message) {
  const { id, method, params } = message;
  post({ id, ...callBridge(method, params) });
}

// Once, when the page says it is playable (engine.js playable()), so nothing
// for later competes with the first match's way to the screen; or a while
// after ready, for a page that never says so.
const AFTER_READY_FALLBACK_MS = 5000;
function runAfterReady() {
  const task = bridge && bridge.afterReady;
  if (!task) return;
  bridge.afterReady = null;
  setTimeout(task, 0);
}

self.addEventListener("message", (event) => {
  const message = event.data;
  if (message && message.type === "playable") {
    runAfterReady();
    return;
  }
  if (!message || message.id === undefined) return;
  if (bridge) {
    handle(message);
  } else {
    pending.push(message);
  }
});

booting = boot().then(
  (result) => {
    bridge = result;
    post({ type: "ready", timings: result.timings });
    for (const message of pending.splice(0)) handle(message);
    setTimeout(runAfterReady, AFTER_READY_FALLBACK_MS);
  },
  (err) => {
    const e = err instanceof BootError ? err : new BootError("runtime", "boot_failed", err && err.stack ? err.stack : err);
    post({ type: "boot_error", stage: e.stage, code: e.code, detail: e.detail });
    for (const message of pending.splice(0)) {
      post({ id: message.id, ok: false, error: { code: "not_ready", message: e.message } });
    }
  },
);
