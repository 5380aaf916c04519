// The worker's side of the protocol (protocol.js): the page's calls answered
// by gin.bridge (JSON string in, JSON string out), held until the engine has
// started; `ready` or `boot_error` once it has or could not; the work for
// later visits run once the page is playable.

import { BootError, REVIEW_ROLE } from "./protocol.js";

// Once, when the page says it is playable (engine.js playable()), so nothing
// for later competes with the first match's way to the screen; or a while
// after ready, for a page that never says so.
const AFTER_READY_FALLBACK_MS = 5000;

// The calls' state in this worker:
//   reviewer  an extra engine (REVIEW_ROLE): it answers REVIEWER_METHODS only
//   engine    null until started: {module (gin.bridge), afterReady (null, or
//             the work for later, run once), timings}
//   pending   the calls that came before the engine had started (those that
//             come after a failed start are never answered: the page has
//             been told, with boot_error)
const calls = { reviewer: self.name === REVIEW_ROLE, engine: null, pending: [] };

// What an extra engine answers: the bridge's pure functions of what they are
// given, which never touch a current match (the viewer's review; Difícil
// with your cards after each deal, play/luck.js).
const REVIEWER_METHODS = new Set(["review", "duplicate"]);

function unknownMethod(method) {
  return { ok: false, error: { code: "unknown_method", message: `no bridge method ${method}` } };
}

function callBridge(method, params) {
  if (typeof method !== "string" || method.startsWith("_") || (calls.reviewer && !REVIEWER_METHODS.has(method))) {
    return unknownMethod(method);
  }
  let fn;
  try {
    fn = calls.engine.module[method];
  } catch {
    fn = undefined;
  }
  if (typeof fn !== "function") {
    if (fn && typeof fn.destroy === "function") fn.destroy();
    return unknownMethod(method);
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

function answer(message) {
  const { id, method, params } = message;
  self.postMessage({ id, ...callBridge(method, params) });
}

function runAfterReady() {
  const task = calls.engine && calls.engine.afterReady;
  if (!task) return;
  calls.engine.afterReady = null;
  setTimeout(task, 0);
}

function onMessage(event) {
  const message = event.data;
  if (message && message.type === "playable") {
    runAfterReady();
    return;
  }
  if (!message || message.id === undefined) return;
  if (calls.engine) {
    answer(message);
  } else {
    calls.pending.push(message);
  }
}

function started(engine) {
  calls.engine = engine;
  self.postMessage({ type: "ready", timings: engine.timings });
  for (const message of calls.pending.splice(0)) answer(message);
  setTimeout(runAfterReady, AFTER_READY_FALLBACK_MS);
}

function notStarted(err) {
  const e = err instanceof BootError ? err : new BootError("runtime", "boot_failed", err && err.stack ? err.stack : err);
  self.postMessage({ type: "boot_error", stage: e.stage, code: e.code, detail: e.detail });
  for (const message of calls.pending.splice(0)) {
    self.postMessage({ id: message.id, ok: false, error: { code: "not_ready", message: e.message } });
  }
}

// Listen to the page at once (calls may come before the engine has
// started); `starting`: the promise of the started engine.
export function answerCalls(starting) {
  self.addEventListener("message", onMessage);
  starting.then(started, notStarted);
}
