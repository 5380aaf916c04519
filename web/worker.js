// The engine's home: a module Web Worker that boots the self-hosted Pyodide,
// installs the gin wheel with micropip and answers {id, method, params}
// messages by calling gin.bridge (JSON string in, JSON string out).
//
// Messages to the page:
//   {type: "progress", stage}                  stage: runtime | installer | engine
//   {type: "ready", timings}
//   {type: "boot_error", stage, code, detail}   code: no_wasm | missing_file | boot_failed
//   {id, ok: true, result}                      result: the bridge's parsed answer
//   {id, ok: false, error: {code, message}}     the call never reached the engine

// Replaced by build.py with the paths of this build's Pyodide and wheels.
const BUILD = self.__GIN_BUILD;

const base = new URL("./", self.location.href);
const abs = (path) => new URL(path, base).href;

let bridge = null;
let booting = null;
const pending = [];

function post(message) {
  self.postMessage(message);
}

class BootError extends Error {
  constructor(stage, code, detail) {
    super(`${stage}: ${code}: ${detail}`);
    this.stage = stage;
    this.code = code;
    this.detail = String(detail);
  }
}

// Fetch a file we ship, failing with the file's name when it is not there.
async function fetchBytes(url, stage) {
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

// Pyodide logs a failed WebAssembly instantiation (e.g. a missing
// pyodide.asm.wasm) and then waits forever. Watching the two entry points lets
// the boot fail with a reason instead of hanging.
function watchWasm(onInstantiated = () => {}) {
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

function syncfs(FS, populate) {
  return new Promise((resolve, reject) => FS.syncfs(populate, (err) => (err ? reject(err) : resolve())));
}

function readText(FS, path) {
  try {
    return FS.readFile(path, { encoding: "utf8" });
  } catch {
    return null;
  }
}

// site-packages lives in IndexedDB (Emscripten's IDBFS), so what micropip
// installs survives the page: later boots import gin straight away and never
// pay for loading and importing micropip. Any failure (IndexedDB blocked,
// private mode) falls back to the in-memory file system.
async function mountPersistentSite(FS, site) {
  if (typeof indexedDB === "undefined" || !FS.filesystems || !FS.filesystems.IDBFS) return false;
  try {
    FS.mount(FS.filesystems.IDBFS, {}, site);
  } catch {
    return false;
  }
  try {
    await syncfs(FS, true);
    return true;
  } catch {
    try {
      FS.unmount(site);
    } catch {
      // already gone
    }
    return false;
  }
}

function clearDirectory(pyodide, path) {
  pyodide.runPython(`
import os, shutil, sys
for _name in os.listdir(${JSON.stringify(path)}):
    _p = os.path.join(${JSON.stringify(path)}, _name)
    if os.path.isdir(_p) and not os.path.islink(_p):
        shutil.rmtree(_p)
    else:
        os.remove(_p)
for _name in [m for m in sys.modules if m == "gin" or m.startswith("gin.") or m == "micropip" or m.startswith("micropip.")]:
    del sys.modules[_name]
`);
}

function importBridge(pyodide) {
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
  return pyodide.pyimport("gin.bridge");
}

// micropip from our own copy of its wheel, then our wheel through micropip.
async function installWithMicropip(pyodide, micropipURL, ginURL, ginBytes) {
  post({ type: "progress", stage: "installer" });
  const errors = [];
  await pyodide.loadPackage(micropipURL, { messageCallback: () => {}, errorCallback: (m) => errors.push(m) });
  // loadPackage reports a failed wheel instead of throwing: importing is the
  // check that counts.
  let micropip;
  try {
    micropip = pyodide.pyimport("micropip");
  } catch (err) {
    throw new BootError("installer", "missing_file", `micropip (${micropipURL}): ${errors.join(" ") || err}`);
  }
  post({ type: "progress", stage: "engine" });
  const bytes = await ginBytes;
  // Hand micropip the bytes fetched during the boot, through Pyodide's file
  // system, instead of a second request for the same wheel.
  const name = ginURL.slice(ginURL.lastIndexOf("/") + 1);
  const wheelPath = `/tmp/${name}`;
  pyodide.FS.writeFile(wheelPath, bytes);
  const install = micropip.install;
  try {
    await install.callKwargs(`emfs:${wheelPath}`, { deps: false });
  } catch (err) {
    throw new BootError("engine", "boot_failed", `micropip.install(${ginURL}): ${err}`);
  } finally {
    install.destroy();
    micropip.destroy();
    try {
      pyodide.FS.unlink(wheelPath);
    } catch {
      // nothing to clean up
    }
  }
}

async function boot() {
  const t0 = performance.now();
  const timings = {};
  const mark = (name) => {
    timings[name] = Math.round(performance.now() - t0);
  };
  if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
    throw new BootError("runtime", "no_wasm", "WebAssembly is not available");
  }
  post({ type: "progress", stage: "runtime" });
  const indexURL = abs(BUILD.pyodide);
  const micropipURL = abs(BUILD.micropip);
  const ginURL = abs(BUILD.gin);

  // Our wheel downloads while Pyodide boots.
  const ginBytes = fetchBytes(ginURL, "engine");
  ginBytes.catch(() => {}); // reported when awaited below

  let loadPyodide;
  try {
    ({ loadPyodide } = await import(indexURL + "pyodide.mjs"));
  } catch (err) {
    throw new BootError("runtime", "missing_file", `${indexURL}pyodide.mjs: ${err}`);
  }
  mark("loader");
  const messages = [];
  const wasm = watchWasm(() => mark("wasm"));
  let pyodide;
  try {
    pyodide = await Promise.race([
      loadPyodide({
        indexURL,
        packageBaseUrl: indexURL,
        stdout: (line) => messages.push(line),
        stderr: (line) => messages.push(line),
      }),
      wasm.failed,
    ]);
  } catch (err) {
    if (err instanceof BootError) throw err;
    const text = String(err && err.message ? err.message : err);
    const code = /fetch|404|not found|failed to load|status/i.test(text) ? "missing_file" : "boot_failed";
    throw new BootError("runtime", code, text);
  } finally {
    wasm.restore();
  }
  mark("runtime");

  const site = pyodide.runPython("import site; site.getsitepackages()[0]");
  const persistent = await mountPersistentSite(pyodide.FS, site);
  const stampPath = `${site}/.gin-wheel`;
  let module = null;
  if (persistent && readText(pyodide.FS, stampPath) === BUILD.gin_integrity) {
    // micropip installed this very wheel on an earlier visit.
    post({ type: "progress", stage: "engine" });
    try {
      module = importBridge(pyodide);
      timings.reused = 1;
    } catch {
      module = null; // a damaged copy: install afresh below
    }
  }
  if (!module) {
    if (persistent) clearDirectory(pyodide, site); // another build's packages
    await installWithMicropip(pyodide, micropipURL, ginURL, ginBytes);
    mark("installer");
    try {
      module = importBridge(pyodide);
    } catch (err) {
      throw new BootError("engine", "boot_failed", `import gin.bridge: ${err}`);
    }
    if (persistent) pyodide.FS.writeFile(stampPath, BUILD.gin_integrity);
  }
  // Persist the installed files (and the bytecode the imports just wrote)
  // without holding up readiness.
  if (persistent) syncfs(pyodide.FS, false).catch(() => {});
  mark("engine");
  return { pyodide, module, timings };
}

function callBridge(method, params) {
  if (typeof method !== "string" || method.startsWith("_")) {
    return { ok: false, error: { code: "unknown_method", message: `no bridge method ${method}` } };
  }
  let fn;
  try {
    fn = bridge.module[method];
  } catch {
    fn = undefined;
  }
  if (typeof fn !== "function") {
    if (fn && typeof fn.destroy === "function") fn.destroy();
    return { ok: false, error: { code: "unknown_method", message: `no bridge method ${method}` } };
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

function handle(message) {
  const { id, method, params } = message;
  post({ id, ...callBridge(method, params) });
}

self.addEventListener("message", (event) => {
  const message = event.data;
  if (!message || message.id === undefined) return;
  if (bridge) {
    handle(message);
  } else {
    pending.push(message);
  }
});

booting = boot().then(
  (result) => {
    bridge = result;
    post({ type: "ready", timings: result.timings });
    for (const message of pending.splice(0)) handle(message);
  },
  (err) => {
    const e = err instanceof BootError ? err : new BootError("runtime", "boot_failed", err && err.stack ? err.stack : err);
    post({ type: "boot_error", stage: e.stage, code: e.code, detail: e.detail });
    for (const message of pending.splice(0)) {
      post({ id: message.id, ok: false, error: { code: "not_ready", message: e.message } });
    }
  },
);
