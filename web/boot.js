// Starts the engine worker as early as the page allows, before the UI's
// modules have loaded, so Pyodide's download and start-up begin at once.
// engine.js adopts this worker together with the messages it already sent.
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
