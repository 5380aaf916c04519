// Starts the engine worker as early as the page allows, before the UI's
// modules have loaded, so Pyodide's download and start-up begin at once.
// engine.js adopts this worker together with the messages it already sent.
// Not when a saved table will be drawn (issue 33): the controller starts the
// worker once that table is painted, so a slow phone shows the hand first.
import { KEYS } from "./data/keys.js";

// A saved table is kept beside the save while a match is in progress.
function savedTable() {
  try {
    return localStorage.getItem(KEYS.shown) !== null;
  } catch {
    return false; // no storage: no saved table either
  }
}

if (!savedTable()) {
  try {
    const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    const early = [];
    const keep = (event) => early.push(event);
    worker.addEventListener("message", keep);
    worker.addEventListener("error", keep);
    window.ginEarlyWorker = {
      worker,
      startedAt: performance.now(),
      adopt() {
        worker.removeEventListener("message", keep);
        worker.removeEventListener("error", keep);
        delete window.ginEarlyWorker;
        return early;
      },
    };
  } catch {
    // engine.js tries again and reports why it cannot.
  }
}
