// Boots the build's Pyodide as dist/ serves it (dist/pyodide/: its
// pyodide.asm.mjs with tools/dist.py's edits) from the build's memory
// snapshot under Node.js, and counts the one-function wasm modules that
// Emscripten's glue makes to put JS functions in the wasm function table
// (convertJsFunctionToWasm): the modules compiled, the distinct ones among
// them, the functions wrapped (instances). Then checks the restored engine
// answers. Writes the figures as JSON.
//
// usage: node tests/wrapper_modules.mjs <dist dir> <out.json>

import { readFile, writeFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [distDir, outPath] = process.argv.slice(2);
if (!distDir || !outPath) {
  console.error("usage: node tests/wrapper_modules.mjs <dist dir> <out.json>");
  process.exit(2);
}

// A wrapper module: its type, then its only import (function e.f) exported as f.
const WRAPPER_END = [2, 7, 1, 1, 101, 1, 102, 0, 0, 7, 5, 1, 1, 102, 0, 0];
const isWrapper = (bytes) => bytes.byteLength < 64 && bytes.slice(-WRAPPER_END.length).every((b, i) => b === WRAPPER_END[i]);
const seen = { compiled: 0, distinct: new Set(), wrapped: 0 };
const { Module, Instance } = WebAssembly;
WebAssembly.Module = new Proxy(Module, {
  construct(target, args) {
    const bytes = new Uint8Array(ArrayBuffer.isView(args[0]) ? args[0].buffer.slice(args[0].byteOffset, args[0].byteOffset + args[0].byteLength) : args[0]);
    const module = Reflect.construct(target, args);
    if (isWrapper(bytes)) {
      seen.compiled++;
      seen.distinct.add(bytes.join(","));
    }
    return module;
  },
});
WebAssembly.Instance = new Proxy(Instance, {
  construct(target, args) {
    const imports = args[1];
    if (imports && imports.e && typeof imports.e.f === "function" && Object.keys(imports).length === 1) seen.wrapped++;
    return Reflect.construct(target, args);
  },
});

const pyodideDir = path.resolve(distDir, "pyodide");
const manifest = JSON.parse(await readFile(path.join(distDir, "manifest.json"), "utf8"));
const shared = {};
new Function("self", await readFile(path.join(distDir, "runtime", "wasmdata.js"), "utf8"))(shared);
const wasm = await readFile(path.join(pyodideDir, "pyodide.asm.wasm"));
const snapshot = shared.ginWasmData.xorWasmData(new Uint8Array(gunzipSync(await readFile(path.join(distDir, manifest.snapshot.url)))), new Uint8Array(wasm));
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL: pyodideDir + path.sep,
  stdLibURL: path.join(distDir, manifest.build.stdlib_stub),
  _loadSnapshot: snapshot,
  stdout: () => {},
  stderr: () => {},
});
const bridge = pyodide.pyimport("gin.bridge");
const answer = JSON.parse(bridge.new_match(JSON.stringify({ seed: "K7Q2-M9XD", profile: "traditional", options: {}, level: "easy" })));
await writeFile(outPath, JSON.stringify({ compiled: seen.compiled, distinct: seen.distinct.size, wrapped: seen.wrapped, ok: answer.ok, hand: answer.ok ? answer.view.hand.length : null }));
