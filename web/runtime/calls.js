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
//   dispatch  gin.bridge.call once started: the only way in, so only the
//             bridge's own list of methods (its _METHODS) can be called
//   pending   the calls that came before the engine had started
//   failure   the BootError of a failed start, or null: every call after it
//             is answered not_ready at once (every call settles)
const calls = { reviewer: self.name === REVIEW_ROLE, engine: null, dispatch: null, pending: [], failure: null };

// What an extra engine answers: the bridge's pure functions of what they are
// given, which never touch a current match (the viewer's review; Difícil
// with your cards after each deal, play/luck.js).
const REVIEWER_METHODS = new Set(["review", "duplicate"]);

function unknownMethod(method) {
  return { ok: false, error: { code: "unknown_method", message: `no bridge method ${method}` } };
}

function callBridge(method, params) {
  if (typeof method !== "string" || (calls.reviewer && !REVIEWER_METHODS.has(method))) return unknownMethod(method);
  try {
    // gin.bridge.call answers unknown_method for a name not on its list.
    const answer = calls.dispatch(method, JSON.stringify(params ?? {}));
    return { ok: true, result: JSON.parse(answer) };
  } catch (err) {
    // The bridge never raises; getting here is an engine bug or a broken runtime.
    const isPython = err && err.constructor && err.constructor.name === "PythonError";
    return {
      ok: false,
      error: { code: isPython ? "python_error" : "js_error", message: String(err && err.message ? err.message : err) },
    };
  }
}

// "busy" first: the page's watchdog then knows the engine is working on this
// call, not dead (runtime/engine.js), however long the call takes.
function answer(message) {
  const { id, method, params } = message;
  self.postMessage({ type: "busy", id });
  self.postMessage({ id, ...callBridge(method, params) });
}

function notReady(message) {
  self.postMessage({ id: message.id, ok: false, error: { code: "not_ready", message: calls.failure.message } });
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
  } else if (calls.failure) {
    notReady(message);
  } else {
    calls.pending.push(message);
  }
}

function started(engine) {
  calls.engine = engine;
  calls.dispatch = engine.module.call;
  self.postMessage({ type: "ready", timings: engine.timings });
  for (const message of calls.pending.splice(0)) answer(message);
  setTimeout(runAfterReady, AFTER_READY_FALLBACK_MS);
}

function notStarted(err) {
  const e = err instanceof BootError ? err : new BootError("runtime", "boot_failed", err && err.stack ? err.stack : err);
  calls.failure = e;
  self.postMessage({ type: "boot_error", stage: e.stage, code: e.code, detail: e.detail });
  for (const message of calls.pending.splice(0)) notReady(message);
}

// Listen to the page at once (calls may come before the engine has
// started); `starting`: the promise of the started engine.
export function answerCalls(starting) {
  self.addEventListener("message", onMessage);
  starting.then(started, notStarted);
}
