// The page's side of the engine worker: one promise per call, boot progress
// as events. Callers see the bridge's result ({view, save, ...}) or an
// EngineError carrying a stable code the UI translates.

// details: what else the bridge said of a refusal (parse_text: {kind, line, text}).
export class EngineError extends Error {
  constructor(code, message, details = {}) {
    super(message || code);
    this.name = "EngineError";
    this.code = code;
    this.details = { kind: details.kind ?? null, line: details.line ?? null, text: details.text ?? null };
  }
}

export class BootError extends Error {
  constructor(stage, code, detail) {
    super(`${stage}: ${code}${detail ? `: ${detail}` : ""}`);
    this.name = "BootError";
    this.stage = stage;
    this.code = code;
    this.detail = detail || "";
  }
}

// Boot stages in order, as the worker reports them.
export const BOOT_STAGES = ["start", "runtime", "installer", "engine", "ready"];

// How long the worker may stay silent after it was started (see below).
const START_TIMEOUT_MS = 30_000;
// How long a call may go unanswered once the engine is up before the worker
// counts as dead (a terminated or crashed worker never says so). The longest
// calls (a 500-point match replayed, one range of the review) take a few
// seconds in Pyodide on a slow phone.
export const CALL_TIMEOUT_MS = 15_000;

// The worker name of an extra engine for Difícil's review (worker.js REVIEWER):
// it boots only from the cached snapshot and only reads shared storage.
export const REVIEW_ROLE = "gin-review";

// role: null for the page's engine (it adopts the worker boot.js started,
// unless `fresh`: a replacement), REVIEW_ROLE for an extra one, always a
// worker of its own. onDead(): the worker errored or stopped answering after
// it was ready; every pending call fails with "engine_dead".
export function createEngine({ workerUrl = null, role = null, fresh = false, onProgress = () => {}, onDead = () => {} } = {}) {
  const calls = new Map();
  let nextId = 1;
  let worker;
  let settled = false;
  let resolveReady;
  let rejectReady;
  const ready = new Promise((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });

  let failed = false;
  function failBoot(error) {
    failed = true;
    if (!settled) {
      settled = true;
      rejectReady(error);
    }
    for (const { reject } of calls.values()) reject(new EngineError("not_ready", error.message));
    calls.clear();
  }

  onProgress("start");
  let startedAt = 0;
  let early = [];
  const adopted = workerUrl || role || fresh ? null : globalThis.ginEarlyWorker; // started by boot.js, once
  try {
    if (adopted) {
      worker = adopted.worker;
      startedAt = adopted.startedAt;
      early = adopted.adopt();
    } else {
      // A role goes in the worker's name, not in its URL: the service worker
      // caches worker.js by URL, so a query string would miss it offline.
      const options = role ? { type: "module", name: role } : { type: "module" };
      worker = new Worker(workerUrl || new URL("./worker.js", import.meta.url), options);
      startedAt = performance.now();
    }
  } catch (err) {
    failBoot(new BootError("start", "no_worker", String(err)));
    return { ready, call: () => Promise.reject(new EngineError("not_ready")), terminate() {} };
  }

  // The worker says "runtime" as soon as its script runs. Silence past this
  // means worker.js itself never arrived (a request nobody answers): fail
  // with the retry screen rather than wait forever.
  let heard = early.some((event) => event.type !== "error");
  const silence = setTimeout(() => {
    if (!heard) failBoot(new BootError("start", "stalled", "worker.js did not start"));
  }, START_TIMEOUT_MS - Math.max(0, performance.now() - startedAt));

  function onMessage(event) {
    heard = true;
    clearTimeout(silence);
    const message = event.data;
    if (failed && (message.type === "progress" || message.type === "ready")) return; // too late: the page said why
    if (message.type === "progress") {
      onProgress(message.stage);
    } else if (message.type === "ready") {
      settled = true;
      onProgress("ready");
      // Page-clock times (ms since navigation) beside the worker's own stages.
      // page_worker_boot: when worker.js, fetched and run, began to boot.
      const page = { page_worker_start: Math.round(startedAt), page_engine_ready: Math.round(performance.now()) };
      if (typeof message.timings.boot_at === "number") page.page_worker_boot = Math.round(message.timings.boot_at - performance.timeOrigin);
      resolveReady({ timings: { ...message.timings, ...page } });
    } else if (message.type === "boot_error") {
      failBoot(new BootError(message.stage, message.code, message.detail));
    } else if (message.id !== undefined && calls.has(message.id)) {
      const { resolve, reject, timer } = calls.get(message.id);
      clearTimeout(timer);
      calls.delete(message.id);
      if (!message.ok) {
        reject(new EngineError(message.error.code, message.error.message));
      } else if (message.result && message.result.ok === false) {
        const error = message.result.error || {};
        reject(new EngineError(error.code || "engine_error", error.message, error));
      } else {
        resolve(message.result);
      }
    }
  }

  // A worker script that cannot load (missing file, syntax error, no module
  // workers) only ever says so through this event.
  function onError(event) {
    clearTimeout(silence);
    if (event.preventDefault) event.preventDefault();
    if (settled && !failed) return die(event.message || "worker error");
    failBoot(new BootError("start", "missing_file", event.message || "worker.js did not load"));
  }

  // After the boot: the worker is gone for good; the page starts another.
  function die(detail) {
    if (failed) return;
    failed = true;
    for (const { reject, timer } of calls.values()) {
      clearTimeout(timer);
      reject(new EngineError("engine_dead", detail));
    }
    calls.clear();
    if (worker) worker.terminate();
    worker = null;
    onDead(detail);
  }

  worker.addEventListener("message", onMessage);
  worker.addEventListener("error", onError);
  for (const event of early) (event.type === "error" ? onError : onMessage)(event);

  function call(method, params = {}) {
    if (!worker) return Promise.reject(new EngineError("not_ready"));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = settled ? setTimeout(() => die(`${method} unanswered for ${CALL_TIMEOUT_MS} ms`), CALL_TIMEOUT_MS) : null;
      calls.set(id, { resolve, reject, timer });
      worker.postMessage({ id, method, params });
    });
  }

  // The page is playable: the worker's work for later visits (and the
  // standard library a restored snapshot did without) may start now.
  function playable() {
    if (worker) worker.postMessage({ type: "playable" });
  }

  function terminate() {
    clearTimeout(silence);
    for (const { timer } of calls.values()) clearTimeout(timer);
    if (worker) worker.terminate();
    worker = null;
    failBoot(new BootError("start", "terminated", ""));
  }

  return { ready, call, playable, terminate };
}
