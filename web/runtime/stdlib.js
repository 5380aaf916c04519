// The standard library, deferred: a restored snapshot starts with an empty
// zip in the standard library's place (BUILD.stdlib_stub: everything the
// engine uses is already imported, so the page is playable without the
// 4.5 MB zip); the zip is fetched once the page says it is playable and
// written where the snapshot expects it (the snapshot's zipimport directory
// describes these very bytes). An import that comes before it, should one
// ever, fetches it there and then (a synchronous request, which a worker may
// make) instead of failing.

import { fetchShipped } from "./protocol.js";

// The guard: a JS object first in sys.meta_path, whose find_spec Python's
// import system calls for every import (undefined is None: "not mine, ask
// the next finder"); the first call fetches the zip. A JS object and not
// Python source: compiling a class at every start cost 45-70 ms of the way
// to playable (bench/README.md, "Where a repeat visit's CPU goes").
function guard(stdlib) {
  let fetch = () => fetchNow(stdlib);
  stdlib.guard = {
    find_spec() {
      const now = fetch;
      fetch = null; // once; it stays in meta_path until the page's fetch lands
      if (now) now();
      return undefined;
    },
  };
  const metaPath = stdlib.sys.meta_path;
  metaPath.insert(0, stdlib.guard);
  metaPath.destroy();
}

function unguard(stdlib) {
  const metaPath = stdlib.sys.meta_path;
  const at = metaPath.toJs({ depth: 1 }).indexOf(stdlib.guard);
  if (at >= 0) metaPath.pop(at);
  metaPath.destroy();
}

// Where the snapshot expects the zip: the .zip on sys.path.
function zipPath(stdlib) {
  const path = stdlib.sys.path;
  const found = path.toJs().find((entry) => entry.endsWith(".zip"));
  path.destroy();
  return found;
}

// The zip's state in one restored interpreter:
//   pyodide    the interpreter
//   url        the real zip's URL
//   sys        Python's sys module (a PyProxy)
//   guard      the finder in sys.meta_path (guard)
//   installed  written there already (by whichever way came first)
//   timings    ready's timings: stdlib (how it came), stdlib_ms (when, since deferStdlib)
//   t0         performance.now() at deferStdlib
function install(stdlib, bytes, how) {
  if (stdlib.installed) return;
  stdlib.installed = true;
  stdlib.pyodide.FS.writeFile(zipPath(stdlib), new Uint8Array(bytes));
  // Not in the middle of an import (the synchronous way): the guard, spent, stays.
  if (how !== "sync") unguard(stdlib);
  stdlib.timings.stdlib = how;
  stdlib.timings.stdlib_ms = Math.round(performance.now() - stdlib.t0);
}

// For an import before the deferred fetch has landed: the zip, now.
function fetchNow(stdlib) {
  if (stdlib.installed) return;
  const xhr = new XMLHttpRequest();
  xhr.open("GET", stdlib.url, false);
  xhr.responseType = "arraybuffer";
  xhr.send(null);
  if (xhr.status === 200) install(stdlib, xhr.response, "sync");
}

async function fetchDeferred(stdlib) {
  try {
    const bytes = await fetchShipped(stdlib.url, "stdlib");
    install(stdlib, bytes, "deferred");
  } catch (err) {
    stdlib.timings.stdlib = `failed: ${err.message}`; // imports fetch it then
  }
}

// Guards `pyodide`'s imports and gives the fetch to run once the page is
// playable (a function returning a promise that never rejects).
export function deferStdlib(pyodide, url, timings) {
  const stdlib = { pyodide, url, sys: pyodide.pyimport("sys"), guard: null, installed: false, timings, t0: performance.now() };
  guard(stdlib);
  return () => fetchDeferred(stdlib);
}
