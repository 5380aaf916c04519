// Times the computer opponent inside real Pyodide under Node.js (what players feel).
// Boots the self-hosted Pyodide from web/node_modules (as tests/pyodide_runner.mjs
// does), copies the current gin/ sources into Pyodide's file system (so the
// numbers are for this tree, not for an older wheel) and runs a Python snippet
// that plays matches and prints one JSON line of timings.
//
// usage: node bench/ai_pyodide.mjs <out.json> <python code file>

import { readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const [outPath, codePath] = process.argv.slice(2);
if (!outPath || !codePath) {
  console.error("usage: node bench/ai_pyodide.mjs <out.json> <python code file>");
  process.exit(2);
}

const pyodideDir = path.join(root, "web", "node_modules", "pyodide");
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const log = [];
const pyodide = await loadPyodide({
  indexURL: pyodideDir + path.sep,
  stdout: (line) => log.push(line),
  stderr: (line) => log.push(line),
});

async function copyTree(src, dst) {
  pyodide.FS.mkdirTree(dst);
  for (const entry of await readdir(src, { withFileTypes: true })) {
    const from = path.join(src, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "__pycache__") await copyTree(from, `${dst}/${entry.name}`);
    } else if (entry.name.endsWith(".py")) {
      pyodide.FS.writeFile(`${dst}/${entry.name}`, await readFile(from));
    }
  }
}
await copyTree(path.join(root, "gin"), "/bench/gin");
pyodide.runPython("import sys; sys.path.insert(0, '/bench')");
const result = pyodide.runPython(await readFile(codePath, "utf8"));
await writeFile(outPath, JSON.stringify({ result, python: pyodide.runPython("import sys; sys.version"), log }));
