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
function watchWasm() {
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
      result.catch((err) => {
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
  const ginName = ginURL.slice(ginURL.lastIndexOf("/") + 1);

  // Our wheel downloads while Pyodide boots; micropip loads during the boot
  // too (loadPyodide's `packages` run alongside its own start-up).
  const ginBytes = fetchBytes(ginURL, "engine");
  ginBytes.catch(() => {}); // reported when awaited below

  let loadPyodide;
  try {
    ({ loadPyodide } = await import(indexURL + "pyodide.mjs"));
  } catch (err) {
    throw new BootError("runtime", "missing_file", `${indexURL}pyodide.mjs: ${err}`);
  }
  const messages = [];
  const wasm = watchWasm();
  let pyodide;
  try {
    pyodide = await Promise.race([
      loadPyodide({
        indexURL,
        packageBaseUrl: indexURL,
        packages: [micropipURL],
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

  // loadPackage reports a failed wheel on the console instead of throwing;
  // importing is the check that counts.
  post({ type: "progress", stage: "installer" });
  let micropip;
  try {
    micropip = pyodide.pyimport("micropip");
  } catch (err) {
    throw new BootError("installer", "missing_file", `micropip (${micropipURL}): ${err}`);
  }
  mark("installer");

  post({ type: "progress", stage: "engine" });
  const bytes = await ginBytes;
  // Hand micropip the bytes we already have, through Pyodide's file system,
  // instead of a second request for the same wheel.
  const wheelPath = `/tmp/${ginName}`;
  pyodide.FS.writeFile(wheelPath, bytes);
  const install = micropip.install;
  try {
    await install.callKwargs(`emfs:${wheelPath}`, { deps: false });
  } catch (err) {
    throw new BootError("engine", "boot_failed", `micropip.install(${ginURL}): ${err}`);
  } finally {
    install.destroy();
    micropip.destroy();
  }
  try {
    pyodide.FS.unlink(wheelPath);
  } catch {
    // nothing to clean up
  }
  let module;
  try {
    module = pyodide.pyimport("gin.bridge");
  } catch (err) {
    throw new BootError("engine", "boot_failed", `import gin.bridge: ${err}`);
  }
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
