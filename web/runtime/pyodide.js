// Pyodide, begun early: what every start needs is begun as soon as the worker
// knows what to read, side by side, instead of one after another inside
// loadPyodide (which imports pyodide.asm.mjs only once pyodide.mjs has run,
// and compiles the wasm only once the snapshot is read): Pyodide's Emscripten
// module (pyodide.asm.mjs, 1.25 MB of JavaScript) is imported, and the wasm
// fetched and compiled by streaming (WebAssembly.compileStreaming of its
// Response, so an engine's wasm code cache serves it as it served Pyodide's
// own instantiateStreaming), while the snapshot is read. loadPyodide is
// handed the module factory (createPyodideModule), its fetch of the wasm this
// fetch's response (nothing is fetched twice) and its instantiateStreaming an
// instance of the module compiled here (answerWasm).
//
// The snapshot as served has its memory XORed with the wasm's data segments
// (wasmdata.js): for such a copy the wasm's bytes are read beside the
// compilation (a clone of the same response) and XORed back in. The service
// worker keeps the snapshot not XORed, so a repeat visit clones nothing.
//
// Every function takes the start-up record first (worker.js newStartup).

import { BootError } from "./protocol.js";
import "./snapshotformat.js";

const { SnapshotUnusable } = self.ginSnapshotFormat;

// Pyodide's two modules: imported before anything else is decided (an import
// does not pass through fetch, so there is nothing to stage).
export function importPyodide(startup) {
  const indexURL = startup.urls.pyodide;
  const loader = import(indexURL + "pyodide.mjs");
  const asm = import(indexURL + "pyodide.asm.mjs").then((imported) => {
    startup.mark("asm");
    return imported.default;
  });
  loader.catch(() => {}); // reported where loadPyodideOf awaits it
  asm.catch(() => {}); // reported by loadPyodide, which awaits it
  return { loader, asm };
}

// loadPyodide, once pyodide.mjs has arrived.
export async function loadPyodideOf(startup, modules) {
  let loadPyodide;
  try {
    ({ loadPyodide } = await modules.loader);
  } catch (err) {
    throw new BootError("runtime", "missing_file", `${startup.urls.pyodide}pyodide.mjs: ${err}`);
  }
  startup.mark("loader");
  return loadPyodide;
}

// The wasm fetched and compiled by streaming. `needBytes`: a promise of
// whether the snapshot will want the wasm's bytes too (a copy still XORed).
// Returns the early start's record:
//   url       the wasm's URL
//   response  a promise of its Response (loadPyodide's fetch of url gets it)
//   module    a promise of the compiled WebAssembly.Module
//   asm       a promise of pyodide.asm.mjs's module factory
//   bytes     null, or a promise of the wasm's bytes (a clone of the
//             response, read beside the compilation)
export function startWasm(startup, asm, needBytes) {
  const url = startup.urls.pyodide + "pyodide.asm.wasm";
  const early = { url, response: null, module: null, asm, bytes: null };
  early.response = Promise.all([self.fetch(url), needBytes]).then(([fetched, need]) => {
    // Cloned before the compilation reads the body.
    if (need && fetched.ok) early.bytes = fetched.clone().arrayBuffer().catch(() => null);
    return fetched;
  });
  early.module = WebAssembly.compileStreaming(early.response).then((compiled) => {
    startup.mark("wasm_compiled");
    return compiled;
  });
  early.module.catch(() => {}); // reported through Pyodide's instantiation (watchWasm)
  return early;
}

// The wasm's bytes, for a snapshot still XORed; null when none were read.
export function wasmBytes(early) {
  return early.response.then(() => early.bytes, () => null);
}

// Pyodide's module, created once the wasm is compiled; handed to Pyodide
// once `before` (the snapshot's read) is done.
async function createPyodideModule(startup, early, settings, before) {
  const created = await early.asm.then((create) => create(settings));
  startup.mark("module");
  await before;
  return created;
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

// Pyodide logs a failed WebAssembly instantiation (e.g. a missing
// pyodide.asm.wasm) and then waits forever. Watching the two entry points lets
// the start fail with a reason instead of hanging.
function watchWasm(onInstantiated) {
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

// loadPyodide with the early start's wasm and module (before: a promise the
// module waits for, the snapshot's read), the wasm watched (watchWasm), its
// failures as BootErrors.
export async function startPyodide(startup, loadPyodide, options, early, before = null) {
  const unanswer = answerWasm(early);
  const wasm = watchWasm(() => startup.mark("wasm"));
  try {
    const createModule = (settings) => createPyodideModule(startup, early, settings, before);
    return await Promise.race([loadPyodide({ ...options, createPyodideModule: createModule }), wasm.failed]);
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
