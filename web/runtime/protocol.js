// What the page and the engine's worker say to each other: one vocabulary for
// both sides (engine.js on the page, worker.js and its stages in the worker).
//
// The page to the worker:
//   {id, method, params}                        a call to gin.bridge's `method`
//   {type: "playable"}                          the first match is on screen: the
//                                               worker's work for later may start
// The worker to the page:
//   {type: "progress", stage, build}            stage: runtime | installer | engine; the first
//                                               ("runtime") carries the worker's build id: the
//                                               page refuses another build's at once (other_build)
//   {type: "ready", timings}                    timings.build: the worker's build id (the
//                                               page refuses another build's: other_build)
//   {type: "boot_error", stage, code, detail}   code: no_wasm | missing_file | boot_failed | no_snapshot
//   {type: "busy", id}                          the worker begins call `id` (the page's
//                                               watchdog: busy, not dead)
//   {id, ok: true, result}                      result: the bridge's parsed answer
//   {id, ok: false, error: {code, message}}     the call never reached the engine
//                                               (not_ready: every call after a failed start)

// The engine's start as the page shows it, in order: the worker's progress
// stages between the page's own start and ready.
export const BOOT_STAGES = ["start", "runtime", "installer", "engine", "ready"];

// The worker name of an extra engine for Difícil's review (new Worker(url,
// {name}): the same URL as the page's engine, so the service worker's cache
// answers it offline). It boots only from the cached snapshot and only reads
// shared storage, and answers `review` and `duplicate` only (calls.js).
export const REVIEW_ROLE = "gin-review";

// The engine could not start: at which stage, a stable code the page
// translates, and the technical detail it shows under them.
export class BootError extends Error {
  constructor(stage, code, detail = "") {
    const text = detail === undefined || detail === null ? "" : String(detail);
    super(`${stage}: ${code}${text ? `: ${text}` : ""}`);
    this.name = "BootError";
    this.stage = stage;
    this.code = code;
    this.detail = text;
  }
}

// A file the build ships, fetched: its bytes, or a BootError (missing_file)
// that names it, at `stage`.
export async function fetchShipped(url, stage) {
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
