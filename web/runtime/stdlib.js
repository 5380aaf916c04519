// The standard library, deferred: a restored snapshot starts with an empty
// zip in the standard library's place (BUILD.stdlib_stub: everything the
// engine uses is already imported, so the page is playable without the
// 4.5 MB zip); the zip is fetched once the page says it is playable and
// written where the snapshot expects it (the snapshot's zipimport directory
// describes these very bytes). An import that comes before it, should one
// ever, fetches it there and then (a synchronous request, which a worker may
// make) instead of failing.

import { fetchShipped } from "./protocol.js";

const STDLIB_GUARD = `
import sys

_stdlib_zip = next(p for p in sys.path if p.endswith(".zip"))

class _StdlibGuard:
    def __init__(self, fetch):
        self.fetch = fetch
    def find_spec(self, name, path=None, target=None):
        fetch, self.fetch = self.fetch, None  # once; it stays in meta_path until the page's fetch lands
        if fetch is not None:
            fetch()
        return None

def _guard_stdlib(fetch):
    sys.meta_path.insert(0, _StdlibGuard(fetch))

def _unguard_stdlib():
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_StdlibGuard"]
`;

// The zip's state in one restored interpreter:
//   pyodide    the interpreter
//   url        the real zip's URL
//   zipPath    where the snapshot expects it in Pyodide's file system
//   installed  written there already (by whichever way came first)
//   timings    ready's timings: stdlib (how it came), stdlib_ms (when, since deferStdlib)
//   t0         performance.now() at deferStdlib
function install(stdlib, bytes, how) {
  if (stdlib.installed) return;
  stdlib.installed = true;
  stdlib.pyodide.FS.writeFile(stdlib.zipPath, new Uint8Array(bytes));
  // Not in the middle of an import (the synchronous way): the guard, spent, stays.
  if (how !== "sync") stdlib.pyodide.runPython("_unguard_stdlib()");
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
  const stdlib = { pyodide, url, zipPath: null, installed: false, timings, t0: performance.now() };
  pyodide.runPython(STDLIB_GUARD);
  stdlib.zipPath = pyodide.globals.get("_stdlib_zip");
  const guard = pyodide.globals.get("_guard_stdlib");
  guard(() => fetchNow(stdlib));
  guard.destroy();
  return () => fetchDeferred(stdlib);
}
