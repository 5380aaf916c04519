// The page's side of the engine worker: one promise per call, boot progress
// as events. Callers see the bridge's result ({view, save, ...}) or an
// EngineError carrying a stable code the UI translates.

import { BOOT_STAGES, BootError, REVIEW_ROLE } from "./protocol.js";

export { BOOT_STAGES, BootError, REVIEW_ROLE };

// details: what else the bridge said of a refusal (parse_text: {kind, line, text}).
export class EngineError extends Error {
  constructor(code, message, details = {}) {
    super(message || code);
    this.name = "EngineError";
    this.code = code;
    this.details = { kind: details.kind ?? null, line: details.line ?? null, text: details.text ?? null };
  }
}

// How long the worker may stay silent after it was started (see below).
const START_TIMEOUT_MS = 30_000;
// Once it has spoken, the rest of the start (issue 36): a start that goes
// this long without a word from the worker (a fetch nobody answers, a
// restore that never returns, a worker gone without an error event) fails
// with "stalled", so the page offers "Reintentar" instead of its loading
// screen forever. Re-armed by each word (progress stage, ready): the
// longest silence of a normal start is the first visit's download of
// ~8 MB (bench/README.md), about a minute at 1 Mbit/s; a slower link is
// told to retry, and the retry finds what was fetched in the caches.
export const START_STALL_MS = 120_000;
// The watchdog, once the engine is up (issue 36, item 10). The worker says
// "busy" as it begins each call, so the page tells a busy engine from a dead
// one (a terminated or crashed worker never says so):
//   CALL_TIMEOUT_MS  a call waiting while the worker has said nothing for this
//                    long and is not busy with a call: the worker is dead
//   BUSY_TIMEOUT_MS  a call the worker began and never answered: it is stuck.
//                    Inputs are capped (a match's actions: gin.match
//                    MAX_ACTIONS; a pasted text: gin.notation MAX_CHARS; an
//                    import file: data/finished.js MAX_IMPORT_BYTES) so that the
//                    longest call (a 10,000-action match loaded, ~2 s in CPython)
//                    stays well inside this on a slow phone.
export const CALL_TIMEOUT_MS = 15_000;
export const BUSY_TIMEOUT_MS = 120_000;

// This page's build ({id, gin_integrity, ...}, put in by build.py; null
// outside a build): the engine's worker must be of the same build (it says
// its id in its first word and in `ready`), else the tab would run an
// engine of another build (a replacement worker fetched after a newer build
// took over).
const PAGE_BUILD = typeof self === "undefined" ? null : self.__GIN_BUILD;

// One engine as the page holds it (createEngine's record; every function
// below takes it first):
//   worker       the Worker; null once terminated or dead
//   startedAt    when it was started (ms since navigation)
//   calls        id -> {resolve, reject, method, begun}: the calls awaiting an
//                answer; begun: when the worker said it began it (ms), or null
//   watchdog     the timer that finds the worker dead or stuck (watch)
//   build        the build id the engine must have (PAGE_BUILD's), or null
//   nextId       the next call's id
//   ready        the promise createEngine gives (settled by resolveReady /
//                rejectReady), of {timings} once the engine has started
//   settled      ready has resolved or rejected
//   failed       the start failed or the worker died: nothing more is taken from it
//   heard        the worker has said something (its script runs)
//   silence      the timer that fails a worker that never says anything,
//                then one whose start stalls (stallWatch)
//   onProgress(stage), onDead(detail)   createEngine's callbacks

// The start failed (or the engine was terminated): ready rejects if it has
// not settled, and every pending call fails with "not_ready".
function failStart(engine, error) {
  engine.failed = true;
  clearTimeout(engine.watchdog);
  clearTimeout(engine.silence);
  if (!engine.settled) {
    engine.settled = true;
    engine.rejectReady(error);
  }
  for (const { reject } of engine.calls.values()) reject(new EngineError("not_ready", error.message));
  engine.calls.clear();
}

// The worker boot.js started (with the events it kept), unless this engine
// needs one of its own. Gives the events to replay.
function startWorker(engine, { workerUrl, role, fresh }) {
  const adopted = workerUrl || role || fresh ? null : globalThis.ginEarlyWorker; // started by boot.js, once
  if (adopted) {
    engine.worker = adopted.worker;
    engine.startedAt = adopted.startedAt;
    return adopted.adopt();
  }
  // A role goes in the worker's name, not in its URL: the service worker
  // caches worker.js by URL, so a query string would miss it offline.
  // worker.js sits beside the page (index.html), and a relative URL is the
  // page's: this module's own URL would not say where (the build serves it
  // inside app.js, tools/dist.py BUNDLED).
  const options = role ? { type: "module", name: role } : { type: "module" };
  engine.worker = new Worker(workerUrl || "./worker.js", options);
  engine.startedAt = performance.now();
  return [];
}

// A worker of another build: never used (its protocol and engine may differ).
function refuseOtherBuild(engine, build) {
  if (engine.worker) engine.worker.terminate();
  engine.worker = null;
  return failStart(engine, new BootError("start", "other_build", `page ${engine.build}, engine ${build}`));
}

function onReady(engine, timings) {
  if (engine.build && timings.build !== engine.build) return refuseOtherBuild(engine, timings.build);
  engine.settled = true;
  clearTimeout(engine.silence);
  engine.onProgress("ready");
  // Page-clock times (ms since navigation) beside the worker's own stages.
  // page_worker_boot: when worker.js, fetched and run, began its start.
  const page = { page_worker_start: Math.round(engine.startedAt), page_engine_ready: Math.round(performance.now()) };
  if (typeof timings.boot_at === "number") page.page_worker_boot = Math.round(timings.boot_at - performance.timeOrigin);
  engine.resolveReady({ timings: { ...timings, ...page } });
  watch(engine); // calls made during the start
}

// The watchdog, re-armed whenever the worker says something and whenever a
// call is made: the first begun call (the worker answers in order) may run
// BUSY_TIMEOUT_MS from when it began; otherwise, with calls waiting, the
// worker may stay silent CALL_TIMEOUT_MS.
function watch(engine) {
  clearTimeout(engine.watchdog);
  engine.watchdog = null;
  if (!engine.settled || engine.failed || !engine.calls.size) return;
  let running = null;
  for (const c of engine.calls.values()) {
    if (c.begun !== null) {
      running = c;
      break;
    }
  }
  const wait = running ? Math.max(0, BUSY_TIMEOUT_MS - (performance.now() - running.begun)) : CALL_TIMEOUT_MS;
  const detail = running ? `${running.method} busy for ${BUSY_TIMEOUT_MS} ms` : `the engine silent for ${CALL_TIMEOUT_MS} ms with calls waiting`;
  engine.watchdog = setTimeout(() => die(engine, detail), wait);
}

function onAnswer(engine, message) {
  const { resolve, reject } = engine.calls.get(message.id);
  engine.calls.delete(message.id);
  if (!message.ok) {
    reject(new EngineError(message.error.code, message.error.message));
  } else if (message.result && message.result.ok === false) {
    const error = message.result.error || {};
    reject(new EngineError(error.code || "engine_error", error.message, error));
  } else {
    resolve(message.result);
  }
}

function onMessage(engine, event) {
  engine.heard = true;
  clearTimeout(engine.silence);
  if (!engine.settled) stallWatch(engine);
  const message = event.data;
  if (engine.failed && (message.type === "progress" || message.type === "ready")) return; // too late: the page said why
  if (message.type === "progress") {
    // Its first word ("runtime") says which build it is: another build's worker is stopped
    // there, before its start downloads and restores anything (`ready` says it too: a worker
    // of a build before this word carried it is refused there).
    if (engine.build && message.build !== undefined && message.build !== engine.build) refuseOtherBuild(engine, message.build);
    else engine.onProgress(message.stage);
  } else if (message.type === "ready") {
    onReady(engine, message.timings);
  } else if (message.type === "boot_error") {
    failStart(engine, new BootError(message.stage, message.code, message.detail));
  } else if (message.type === "busy") {
    const begun = engine.calls.get(message.id);
    if (begun) begun.begun = performance.now();
  } else if (message.id !== undefined && engine.calls.has(message.id)) {
    onAnswer(engine, message);
  }
  watch(engine); // it spoke: alive
}

// The start's watchdog once the worker has spoken (START_STALL_MS): the
// hung worker is stopped, ready rejects and every waiting call settles.
function stallWatch(engine) {
  clearTimeout(engine.silence);
  engine.silence = setTimeout(() => {
    if (engine.settled) return;
    if (engine.worker) engine.worker.terminate();
    engine.worker = null;
    failStart(engine, new BootError("start", "stalled", `the engine's start silent for ${START_STALL_MS} ms`));
  }, START_STALL_MS);
}

// A worker script that cannot load (missing file, syntax error, no module
// workers) only ever says so through this event.
function onError(engine, event) {
  clearTimeout(engine.silence);
  if (event.preventDefault) event.preventDefault();
  if (engine.settled && !engine.failed) return die(engine, event.message || "worker error");
  failStart(engine, new BootError("start", "missing_file", event.message || "worker.js did not load"));
}

// After the start: the worker is gone for good; the page starts another.
function die(engine, detail) {
  if (engine.failed) return;
  engine.failed = true;
  clearTimeout(engine.watchdog);
  for (const { reject } of engine.calls.values()) reject(new EngineError("engine_dead", detail));
  engine.calls.clear();
  if (engine.worker) engine.worker.terminate();
  engine.worker = null;
  engine.onDead(detail);
}

// A call settles whatever happens: answered, refused, or failed with
// not_ready (the start failed: at once) or engine_dead (the watchdog).
function call(engine, method, params = {}) {
  if (!engine.worker || engine.failed) return Promise.reject(new EngineError("not_ready"));
  const id = engine.nextId++;
  return new Promise((resolve, reject) => {
    engine.calls.set(id, { resolve, reject, method, begun: null });
    engine.worker.postMessage({ id, method, params });
    if (engine.calls.size === 1) watch(engine); // else the watchdog already runs for the calls before it
  });
}

// The page is playable: the worker's work for later visits (and the
// standard library a restored snapshot did without) may start now.
function playable(engine) {
  if (engine.worker) engine.worker.postMessage({ type: "playable" });
}

function terminate(engine) {
  clearTimeout(engine.silence);
  clearTimeout(engine.watchdog);
  if (engine.worker) engine.worker.terminate();
  engine.worker = null;
  failStart(engine, new BootError("start", "terminated", ""));
}

// role: null for the page's engine (it adopts the worker boot.js started,
// unless `fresh`: a replacement), REVIEW_ROLE for an extra one, always a
// worker of its own. onDead(): the worker errored or stopped answering after
// it was ready; every pending call fails with "engine_dead".
export function createEngine({ workerUrl = null, role = null, fresh = false, build = PAGE_BUILD && PAGE_BUILD.id, onProgress = () => {}, onDead = () => {} } = {}) {
  const engine = {
    worker: null,
    startedAt: 0,
    calls: new Map(),
    watchdog: null,
    build: build || null,
    nextId: 1,
    ready: null,
    resolveReady: null,
    rejectReady: null,
    settled: false,
    failed: false,
    heard: false,
    silence: null,
    onProgress,
    onDead,
  };
  engine.ready = new Promise((resolve, reject) => {
    engine.resolveReady = resolve;
    engine.rejectReady = reject;
  });
  onProgress("start");
  let early;
  try {
    early = startWorker(engine, { workerUrl, role, fresh });
  } catch (err) {
    failStart(engine, new BootError("start", "no_worker", String(err)));
    return { ready: engine.ready, call: () => Promise.reject(new EngineError("not_ready")), terminate() {} };
  }
  // The worker says "runtime" as soon as its script runs. Silence past this
  // means worker.js itself never arrived (a request nobody answers): fail
  // with the retry screen rather than wait forever.
  engine.heard = early.some((event) => event.type !== "error");
  engine.silence = setTimeout(() => {
    if (!engine.heard) failStart(engine, new BootError("start", "stalled", "worker.js did not start"));
  }, START_TIMEOUT_MS - Math.max(0, performance.now() - engine.startedAt));
  engine.worker.addEventListener("message", (event) => onMessage(engine, event));
  engine.worker.addEventListener("error", (event) => onError(engine, event));
  for (const event of early) (event.type === "error" ? onError : onMessage)(engine, event);
  return {
    ready: engine.ready,
    call: (method, params) => call(engine, method, params),
    playable: () => playable(engine),
    terminate: () => terminate(engine),
  };
}
