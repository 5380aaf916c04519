
import { readFile, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";

const job = JSON.parse(await readFile(process.argv[2], "utf8"));
const { loadPyodide } = await import(pathToFileURL(job.indexURL + "pyodide.mjs").href);
const quiet = { stdout: () => {}, stderr: (line) => console.error(line) };

// Unchecked hash-based .pyc files (PEP 552): imported as they are, never
// compared with a source's timestamp (which micropip does not preserve).
const COMPILE = `
import importlib.util, io, json, marshal, sys, zipfile

def pyc(source, filename):
    code = compile(source, filename, "exec", dont_inherit=True)
    return (importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little")
            + importlib.util.source_hash(source) + marshal.dumps(code))

def put(zf, name, data):
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    zf.writestr(info, data, compresslevel=9)

spec = json.loads(job_json)
if spec.get("stdlib"):
    # The standard library as sourceless .pyc (zipimport loads foo.pyc in
    # place of foo.py), compiled under the path the zip is mounted at.
    zpath = next(p for p in sys.path if p.endswith(".zip"))
    out = io.BytesIO()
    with zipfile.ZipFile(zpath) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.endswith(".py"):
                put(dst, info.filename[:-3] + ".pyc", pyc(data, f"{zpath}/{info.filename}"))
            else:
                put(dst, info.filename, data)
    with open("/tmp/stdlib.zip", "wb") as f:
        f.write(out.getvalue())
compiled = {}
tag = sys.implementation.cache_tag
for rel in spec.get("modules", []):
    with open("/tmp/src/" + rel, "rb") as f:
        source = f.read()
    folder, _, name = rel.rpartition("/")
    compiled[rel] = f"{folder}/__pycache__/{name[:-3]}.{tag}.pyc"
    with open("/tmp/out/" + compiled[rel].replace("/", "|"), "wb") as f:
        f.write(pyc(source, "/lib/python3.14/site-packages/" + rel))
result = json.dumps(compiled)
`;

// Every gin module imported (after a snapshot nothing can be imported from
// site-packages: its files live outside the WebAssembly memory), the bridge
// warmed up, then everything micropip left behind that holds JavaScript
// objects dropped: a snapshot can only keep references it knows how to rebuild.
const WARM = `
import gc, importlib, json, pkgutil, sys
import gin, gin.bridge as bridge
for mod in pkgutil.walk_packages(gin.__path__, "gin."):
    importlib.import_module(mod.name)
def call(method, params):
    answer = json.loads(getattr(bridge, method)(json.dumps(params)))
    assert answer.get("ok"), (method, answer)
    return answer
answer = call("new_match", {"seed": "WARM-UP22", "profile": "traditional", "options": {}, "level": "hard"})
for _ in range(12):
    if answer["view"]["over"]:
        break
    if answer["view"]["to_act"] == 0:
        hint = json.loads(bridge.hint("{}"))
        action = hint["hint"]["action"] if hint.get("ok") else answer["view"]["legal"][0]
        answer = call("act", {"action": action})
    else:
        answer = call("computer_step", {})
saved = call("save", {})["save"]
call("load", {"save": saved})
call("view", {})
# A restored interpreter should start with no match, as a fresh one does.
session = getattr(bridge, "_session", None)
if session is not None and hasattr(session, "match"):
    session.match = None
del session
for name in [m for m in sys.modules if m.split(".")[0] in ("micropip", "pyodide_js")]:
    del sys.modules[name]
del call, answer, saved
gc.collect()
`;

async function compile(spec) {
  const py = await loadPyodide({ indexURL: job.indexURL, ...quiet });
  py.FS.mkdirTree("/tmp/src");
  py.FS.mkdirTree("/tmp/out");
  for (const rel of spec.modules) {
    py.FS.mkdirTree("/tmp/src/" + rel.slice(0, rel.lastIndexOf("/")));
    py.FS.writeFile("/tmp/src/" + rel, await readFile(spec.srcDir + "/" + rel));
  }
  py.globals.set("job_json", JSON.stringify(spec));
  py.runPython(COMPILE);
  const compiled = JSON.parse(py.globals.get("result"));
  for (const [rel, out] of Object.entries(compiled)) {
    await writeFile(spec.outDir + "/" + out.replaceAll("/", "|"), py.FS.readFile("/tmp/out/" + out.replaceAll("/", "|")));
  }
  if (spec.stdlib) await writeFile(spec.stdlib, py.FS.readFile("/tmp/stdlib.zip"));
  await writeFile(spec.outDir + "/compiled.json", JSON.stringify(compiled));
}

// Every free chunk of the C heap (dlmalloc: Python's objects live there,
// Pyodide builds CPython without pymalloc) overwritten with zeros: what was
// freed still holds old bytes, which compress as badly as live ones. Blocks
// up to 64 KB are taken while the heap need not grow, zeroed and given back.
function zeroFreeMemory(M) {
  const size = M.HEAP8.length;
  const taken = [];
  for (let n = 1 << 16; n >= 16; n >>= 1) {
    for (;;) {
      const top = M._sbrk(0);
      const p = M._malloc(n);
      if (!p) break;
      if (M._sbrk(0) !== top || M.HEAP8.length !== size) {
        M._free(p);
        break;
      }
      M.HEAPU8.fill(0, p, p + n);
      taken.push(p);
    }
  }
  for (const p of taken) M._free(p);
  if (M.HEAP8.length !== size) throw new Error("zeroing the free memory grew the heap");
}

async function snapshot(spec) {
  const options = { indexURL: job.indexURL, stdLibURL: spec.stdLibURL, ...quiet };
  const py = await loadPyodide({ ...options, _makeSnapshot: true, env: { PYTHONHASHSEED: spec.hashSeed } });
  // The wheel unpacked into site-packages, not installed with micropip: the
  // snapshot keeps only what is in memory, and micropip's imports (email,
  // tarfile, ssl, argparse's helpers, importlib.metadata ...) would be a
  // quarter of it; whatever the unpacking imported goes again.
  const name = spec.gin.slice(spec.gin.lastIndexOf("/") + 1);
  py.FS.writeFile("/tmp/" + name, await readFile(spec.gin));
  py.runPython(`
import gc, sys
_before = set(sys.modules)
import site, zipfile
with zipfile.ZipFile("/tmp/${name}") as _wheel:
    _wheel.extractall(site.getsitepackages()[0])
for _name in set(sys.modules) - _before:
    del sys.modules[_name]
del _before, _wheel, _name, site, zipfile
gc.collect()
`);
  py.FS.unlink("/tmp/" + name);
  py.runPython(WARM);
  // loadPackage's record of what it loaded is a JavaScript object the
  // snapshot requires to be empty.
  for (const key of Object.keys(py.loadedPackages)) delete py.loadedPackages[key];
  zeroFreeMemory(py._module);
  const bytes = py.makeMemorySnapshot();
  // Check it restores and answers before the build ships it.
  const again = await loadPyodide({ ...options, _loadSnapshot: bytes });
  const answer = JSON.parse(again.runPython(`
import gin.bridge
gin.bridge.new_match('{"seed": "K7Q2-M9XD", "profile": "traditional", "options": {}, "level": "normal"}')
`));
  if (!answer.ok) throw new Error("the snapshot restores but does not answer: " + JSON.stringify(answer));
  await writeFile(spec.out, bytes);
}

if (job.compile) await compile(job.compile);
if (job.snapshot) await snapshot(job.snapshot);
