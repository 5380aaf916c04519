// Plays a seeded match through gin.bridge inside real Pyodide under Node.js,
// the way the browser's worker does (micropip installs the gin wheel), and
// writes the transcript as JSON. tests/test_pyodide_node.py plays the same
// match in CPython and compares.
//
// With "snapshot" it boots from the build's memory snapshot instead, as the
// worker does on later visits.
//
// usage: node tests/pyodide_runner.mjs <dist dir> <out.json> <seed> [level] [max steps] [micropip|snapshot]

import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const [distDir, outPath, seed, level = "normal", maxSteps = "4000", boot = "micropip"] = process.argv.slice(2);
if (!distDir || !outPath || !seed) {
  console.error("usage: node tests/pyodide_runner.mjs <dist dir> <out.json> <seed> [level] [max steps] [micropip|snapshot]");
  process.exit(2);
}

const pyodideDir = path.resolve(here, "..", "web", "node_modules", "pyodide");
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const manifest = JSON.parse(await readFile(path.join(distDir, "manifest.json"), "utf8"));

const log = [];
const quiet = { stdout: (line) => log.push(line), stderr: (line) => log.push(line) };
const options = { indexURL: pyodideDir + path.sep, stdLibURL: path.join(distDir, manifest.build.stdlib), ...quiet };
let pyodide;
let bridge;
const extra = {};
if (boot === "snapshot") {
  // The browser's fast path: the build's snapshot (checked against the
  // manifest), then what the worker runs after a restore, taken from its
  // modules (runtime/snapshot.js, runtime/stdlib.js).
  const packed = await readFile(path.join(distDir, manifest.snapshot.url));
  const integrity = "sha256-" + createHash("sha256").update(packed).digest("base64");
  if (integrity !== manifest.snapshot.integrity) throw new Error("the snapshot in dist/ does not match the manifest");
  const restore = await readFile(path.join(distDir, "runtime", "snapshot.js"), "utf8");
  // The page's own code: the XOR with the wasm's data segments undone, and
  // the guard that fetches the stdlib for an import that comes before it.
  const shared = {};
  new Function("self", await readFile(path.join(distDir, "runtime", "wasmdata.js"), "utf8"))(shared);
  const { xorWasmData } = shared.ginWasmData;
  const wasm = await readFile(path.join(pyodideDir, "pyodide.asm.wasm"));
  const snapshot = xorWasmData(new Uint8Array(gunzipSync(packed)), new Uint8Array(wasm));
  // As the worker boots it: an empty zip in the stdlib's place.
  pyodide = await loadPyodide({ ...options, stdLibURL: path.join(distDir, manifest.build.stdlib_stub), _loadSnapshot: snapshot });
  const afterRestore = /const AFTER_RESTORE = `([^`]*)`/.exec(restore)[1];
  pyodide.runPython(afterRestore);
  // The worker's own guard (runtime/stdlib.js), its synchronous fetch served
  // from dist/ and counted.
  extra.stdlib_fetches = 0;
  const stdlib = await readFile(path.join(distDir, manifest.build.stdlib));
  globalThis.XMLHttpRequest = class {
    open(method, url, async) {
      if (async !== false || !url.endsWith(manifest.build.stdlib)) throw new Error(`unexpected request ${url}`);
    }
    send() {
      extra.stdlib_fetches += 1;
      this.status = 200;
      this.response = stdlib.buffer.slice(stdlib.byteOffset, stdlib.byteOffset + stdlib.byteLength);
    }
  };
  const { deferStdlib } = await import(pathToFileURL(path.join(distDir, "runtime", "stdlib.js")).href);
  const timings = {};
  deferStdlib(pyodide, manifest.build.stdlib, timings);
  extra.early_import = () => {
    // After the match, a module the snapshot never imported, the stdlib not yet there.
    extra.stdlib_fetches_for_the_match = extra.stdlib_fetches;
    return pyodide.runPython("import tarfile; tarfile.__name__");
  };
  extra.random = pyodide.runPython("import random; random.random()");
  extra.site_packages = pyodide.runPython("import os, site; os.listdir(site.getsitepackages()[0])").toJs();
  bridge = pyodide.pyimport("gin.bridge");
} else {
  pyodide = await loadPyodide(options);
  // micropip from its wheel in dist/ (never from a CDN), then the gin wheel.
  await pyodide.loadPackage(path.join(distDir, manifest.build.micropip), {
    messageCallback: (m) => log.push(m),
    errorCallback: (m) => log.push(m),
  });
  const micropip = pyodide.pyimport("micropip"); // throws if the wheel did not load
  const ginWheel = path.join(distDir, manifest.build.gin);
  const inFs = `/tmp/${path.basename(ginWheel)}`;
  pyodide.FS.writeFile(inFs, await readFile(ginWheel));
  await micropip.install.callKwargs(`emfs:${inFs}`, { deps: false });
  bridge = pyodide.pyimport("gin.bridge");
}
extra.hash_randomization = pyodide.runPython("import sys; sys.flags.hash_randomization");

const transcript = [];
function call(method, params) {
  const fn = bridge[method];
  try {
    const answer = JSON.parse(fn(JSON.stringify(params)));
    transcript.push({ method, params, answer });
    return answer;
  } finally {
    fn.destroy();
  }
}

// The same policy as the CPython side: the human follows the hint (first legal
// action if there is none), the computer plays through computer_step.
let answer = call("new_match", { seed, profile: "traditional", options: {}, level });
let steps = 0;
while (answer.ok && !answer.view.over && steps < Number(maxSteps)) {
  steps++;
  const view = answer.view;
  if (view.to_act === 0) {
    const hint = call("hint", {});
    const action = hint.ok ? hint.hint.action : view.legal[0];
    answer = call("act", { action });
  } else {
    answer = call("computer_step", {});
  }
}
const save = call("save", {}).save;
// The match as text, printed and read back (gin.notation): the same text and save as in CPython.
call("parse_text", { text: call("match_text", {}).text });
// Issue 32 on the finished match: a deal played again by Difícil, and a part of Comprobar.
call("duplicate", { save, deal: 1 });
call("verify", { save, count: 12, samples: 2 });
if (extra.early_import) extra.early_import = extra.early_import();

await writeFile(outPath, JSON.stringify({ transcript, steps, python: pyodide.runPython("import sys; sys.version"), ...extra }));
