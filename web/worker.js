// The engine's home: a module Web Worker that starts the self-hosted Pyodide
// and answers {id, method, params} messages by calling gin.bridge (JSON
// string in, JSON string out; the messages: runtime/protocol.js). Two ways
// to start:
//   snapshot  restore the build's memory snapshot of an interpreter that has
//             already imported gin.bridge: read decoded (and sparse) from
//             Cache Storage (every visit after the first), or fetched
//             gzip-compressed beside the wasm (a first visit, or after a bad
//             copy was deleted);
//   wheel     start Pyodide and install the gin wheel with micropip (or import
//             the copy an earlier visit kept in IndexedDB), whenever the
//             snapshot cannot be used.
// ready's timings say which build this is (build: the id the page checks at
// the handshake, runtime/engine.js) and which way it started: boot = "snapshot" | "cache" | "micropip", and
// snapshot_fallback the reason a snapshot was not used; wheel is the
// integrity of this build's gin wheel, snapshot the snapshot started from and
// snapshot_source where it was read from (cache | network). Marks in ms
// since the worker's start began: loader (pyodide.mjs), asm
// (pyodide.asm.mjs), wasm_compiled, snapshot_read, wasm (instantiated),
// module (Pyodide's module created, before it waits for the snapshot),
// runtime, engine.
//
// A worker started with the name REVIEW_ROLE (new Worker(url, {name}): the
// same URL, so the service worker's cache answers it offline) is an extra
// engine for Difícil's review of a long match, running beside the page's own.
// It only reads shared storage: it starts from the cached snapshot or not at
// all (boot_error no_snapshot; the page's engine then reviews alone), so it
// never stages fetches in Cache Storage nor mounts or writes IndexedDB's
// copy, and it answers `review` and `duplicate` only (Difícil with your
// cards after each deal: play/luck.js).
//
// The stages live in runtime/, one module each, and import nothing but the
// two modules they share, which this file imports first so that every module
// of the worker is fetched at once, one level below this one.

import "./runtime/snapshotformat.js";
import { BootError, REVIEW_ROLE } from "./runtime/protocol.js";
import { importPyodide, loadPyodideOf, startWasm, startPyodide, wasmBytes } from "./runtime/pyodide.js";
import { findSnapshot, needsWasmBytes, readSnapshotInto, restoreFailed, enterRestored, unusableReason } from "./runtime/snapshot.js";
import { deferStdlib } from "./runtime/stdlib.js";
import { stageFirstVisit, endStaging } from "./runtime/staging.js";
import { beginWheel, importFromWheel } from "./runtime/wheel.js";
import { answerCalls } from "./runtime/calls.js";

// Replaced by build.py with the paths of this build's Pyodide and wheels.
const BUILD = self.__GIN_BUILD;

// The start-up record every stage takes first:
//   build     this build's paths and hashes (BUILD)
//   reviewer  an extra engine for the review (REVIEW_ROLE)
//   urls      every URL the start fetches or looks up, absolute
//   caches    the names of this copy's caches (snapshotformat.js cacheNames)
//   options   loadPyodide's options
//   timings   what ready reports: which build, the way taken, the marks
//   mark(name)  timings[name] = ms since the start began
function newStartup(build) {
  const t0 = performance.now();
  // which build this worker is, and when its start began (ms since the epoch,
  // for the page to put the marks on its own clock)
  const timings = { build: build.id, wheel: build.gin_integrity, boot_at: performance.timeOrigin + t0 };
  const url = (path) => new URL(path, self.location.href).href;
  const snapshot = build.snapshot;
  const urls = {
    pyodide: url(build.pyodide),
    stdlib: url(build.stdlib || `${build.pyodide}python_stdlib.zip`),
    stdlibStub: build.stdlib_stub ? url(build.stdlib_stub) : null,
    micropip: url(build.micropip),
    gin: url(build.gin),
    snapshot: snapshot ? url(snapshot.url) : null,
    snapshotKept: snapshot ? url(snapshot.raw_url) : null, // decoded, as the service worker keeps it
    snapshotNote: snapshot ? url(self.ginSnapshotFormat.notePath(snapshot.url)) : null,
  };
  const options = { indexURL: urls.pyodide, packageBaseUrl: urls.pyodide, stdLibURL: urls.stdlib, stdout: () => {}, stderr: () => {} };
  const mark = (name) => {
    timings[name] = Math.round(performance.now() - t0);
  };
  // Cache Storage's names of this copy of the game (worker.js sits at the service worker's scope).
  const cacheNames = self.ginSnapshotFormat.cacheNames(url("./"));
  return { build, reviewer: self.name === REVIEW_ROLE, urls, caches: cacheNames, options, timings, mark };
}

// The engine, started: {pyodide, module (gin.bridge), timings, afterReady
// (null, or the work for later, once the page is playable)}.
async function startEngine() {
  const startup = newStartup(BUILD);
  if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
    throw new BootError("runtime", "no_wasm", "WebAssembly is not available");
  }
  self.postMessage({ type: "progress", stage: "runtime", build: BUILD.id }); // the page refuses another build's here
  const modules = importPyodide(startup);
  const staging = await stageFirstVisit(startup);
  const found = findSnapshot(startup);
  found.catch(() => {}); // reported by startFromSnapshot
  const early = startWasm(startup, modules.asm, needsWasmBytes(found));
  const loadPyodide = await loadPyodideOf(startup, modules);
  try {
    const restored = await startFromSnapshot(startup, loadPyodide, early, found).catch((err) => ({ unusable: unusableReason(startup, err) }));
    if (!restored.unusable) return deferStdlibIfStubbed(startup, restored, staging);
    const installed = await startFromWheel(startup, loadPyodide, early, staging);
    startup.timings.snapshot_fallback = restored.unusable;
    return installed;
  } catch (err) {
    endStaging(staging);
    throw err;
  }
}

// The snapshot found, read into Pyodide's memory as the wasm compiles, restored.
async function startFromSnapshot(startup, loadPyodide, early, found) {
  const snapshot = await found;
  startup.timings.snapshot_source = snapshot.source;
  const { memory, read } = readSnapshotInto(startup, snapshot, wasmBytes(early));
  const stdLibURL = startup.urls.stdlibStub || startup.urls.stdlib;
  const options = { ...startup.options, stdLibURL, _loadSnapshot: memory };
  const pyodide = await startPyodide(startup, loadPyodide, options, early, read).catch(restoreFailed);
  startup.mark("runtime");
  const module = enterRestored(pyodide);
  startup.mark("engine");
  startup.timings.boot = "snapshot";
  startup.timings.snapshot = startup.build.snapshot.url.slice(startup.build.snapshot.url.lastIndexOf("/") + 1);
  return { pyodide, module, timings: startup.timings, afterReady: null };
}

// Started with the empty zip in the stdlib's place: the real one is fetched
// once the page is playable, still staged on a first visit (the service
// worker's precache takes it from there).
function deferStdlibIfStubbed(startup, restored, staging) {
  if (!startup.urls.stdlibStub) {
    endStaging(staging);
    return restored;
  }
  startup.timings.stdlib = "deferred";
  const fetchStdlib = deferStdlib(restored.pyodide, startup.urls.stdlib, startup.timings);
  return { ...restored, afterReady: () => fetchStdlib().finally(() => endStaging(staging)) };
}

// Pyodide started with micropip alongside (unless IndexedDB holds this very
// wheel installed), then gin imported from that copy or installed.
async function startFromWheel(startup, loadPyodide, early, staging) {
  const wheel = await beginWheel(startup);
  const options = { ...startup.options, packages: wheel.installed ? [] : [startup.urls.micropip] };
  const pyodide = await startPyodide(startup, loadPyodide, options, early).finally(() => endStaging(staging));
  startup.mark("runtime");
  const installed = await importFromWheel(startup, pyodide, wheel);
  return { ...installed, timings: startup.timings };
}

answerCalls(startEngine());
