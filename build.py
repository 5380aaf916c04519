#!/usr/bin/env python3
"""One entry point for gin: build | serve [--port N] | test [pytest args] | bench.

`build` assembles dist/ from the source tree: the pinned Pyodide core (npm ci in
web/) with its standard library compiled to bytecode, micropip's wheel from PyPI
(pinned by sha256, cached in .cache/), a `gin` wheel written from gin/ with its
bytecode, a memory snapshot of Pyodide with gin installed (made under Node,
cached in .cache/), the web files, gzip siblings of the large ones, and a
precache manifest with content hashes that the service worker installs from.
`serve` builds and serves dist/ on 127.0.0.1 with the headers the page needs
(gzip when accepted).
`test` prepares a virtual environment, the build and a Chromium, then runs pytest.
`bench` runs every bench/*.py after the build.

Only the standard library is used here, so a fresh Python 3.11 can run it.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import http.server
import io
import json
import math
import os
import shutil
import socketserver
import struct
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
# GIN_DIST builds into another directory (tests build changed sources there).
DIST = Path(os.environ.get("GIN_DIST", ROOT / "dist")).resolve()
CACHE = ROOT / ".cache"
VENV = ROOT / ".venv"

PYODIDE_VERSION = "314.0.7"
# What loadPyodide() fetches from indexURL in a browser, and nothing more:
# the loader module, the Emscripten module it imports, the WebAssembly binary,
# the standard library and the package lock file it reads at start-up.
PYODIDE_CORE = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# Pyodide's lock file pins a different build of micropip than PyPI serves, so
# loading it by name fails; we ship PyPI's wheel and load it by URL instead.
MICROPIP_WHEEL = "micropip-0.11.1-py3-none-any.whl"
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"

# The memory snapshot and the compiled bytecode are made by Pyodide itself,
# under Node, by PYODIDE_TOOL below; bump this when that recipe changes so the
# cached results in .cache/ are made again.
TOOL_VERSION = "2"
# The snapshot freezes Python's string-hash secret; a declared constant instead
# of whatever random one the build machine drew (see the README).
SNAPSHOT_HASHSEED = "0"
# An empty zip archive (its end-of-central-directory record alone).
EMPTY_ZIP = b"PK\x05\x06" + bytes(18)
STDLIB_STUB = "pyodide/python_stdlib.empty.zip"
# Files the server may send gzip-compressed (precompressed by the build).
COMPRESSIBLE = (".wasm", ".mjs", ".js", ".json", ".html", ".css", ".svg", ".txt", ".webmanifest")
COMPRESS_MIN = 1024

# Source files in web/ that are not part of the page.
WEB_EXCLUDE = {"package.json", "package-lock.json"}
WEB_EXCLUDE_DIRS = {"node_modules"}
# Tokens in web sources that the build replaces with JSON (as workbox does).
MANIFEST_TOKEN = "self.__GIN_MANIFEST"
BUILD_TOKEN = "self.__GIN_BUILD"
# The web app manifest (install as an app); its icons are drawn by app_icons().
APP_MANIFEST = "app.webmanifest"
# A fixed timestamp makes the gin wheel byte-for-byte reproducible.
ZIP_EPOCH = (2020, 1, 1, 0, 0, 0)

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".woff2": "font/woff2",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".txt": "text/plain; charset=utf-8",
}
# Only our own origin. Pyodide compiles WebAssembly (wasm-unsafe-eval) and
# needs nothing else: no eval, no inline scripts, no other hosts.
CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "worker-src 'self'",
        "connect-src 'self'",
        "img-src 'self' data:",
        "style-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def sri(data: bytes) -> str:
    """Subresource-integrity form of a SHA-256, as fetch({integrity}) checks it."""
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


def run(cmd: list[str], **kw) -> None:
    log("$ " + " ".join(str(c) for c in cmd))
    subprocess.run(cmd, check=True, **kw)


# --------------------------------------------------------------------------- build


def ensure_pyodide() -> Path:
    """npm ci in web/ when the lock file changed since the last install."""
    pkg = WEB / "node_modules" / "pyodide"
    stamp = WEB / "node_modules" / ".gin-lock-sha256"
    lock_hash = sha256_file(WEB / "package-lock.json")
    if not (stamp.exists() and stamp.read_text() == lock_hash and (pkg / "package.json").exists()):
        npm = shutil.which("npm")
        if npm is None:
            sys.exit("build: npm is needed to install the pinned pyodide (node 20 + npm)")
        run([npm, "ci", "--no-audit", "--no-fund"], cwd=WEB)
        stamp.write_text(lock_hash)
    version = json.loads((pkg / "package.json").read_text())["version"]
    if version != PYODIDE_VERSION:
        sys.exit(f"build: web/node_modules has pyodide {version}, build.py pins {PYODIDE_VERSION}")
    return pkg


def ensure_micropip() -> Path:
    """PyPI's micropip wheel, downloaded once with pip and checked by sha256."""
    cached = CACHE / "wheels" / MICROPIP_WHEEL
    if cached.exists() and sha256_file(cached) == MICROPIP_SHA256:
        return cached
    cached.parent.mkdir(parents=True, exist_ok=True)
    name, version = MICROPIP_WHEEL.split("-")[:2]
    with tempfile.TemporaryDirectory() as tmp:
        run(
            [
                sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                "--only-binary=:all:", "--python-version", "3.14",
                "--dest", tmp, f"{name}=={version}",
            ]
        )
        got = Path(tmp) / MICROPIP_WHEEL
        if not got.exists():
            sys.exit(f"build: pip did not produce {MICROPIP_WHEEL}")
        digest = sha256_file(got)
        if digest != MICROPIP_SHA256:
            sys.exit(f"build: {MICROPIP_WHEEL} has sha256 {digest}, expected {MICROPIP_SHA256}")
        shutil.move(str(got), cached)
    return cached


def engine_source() -> Path:
    # GIN_ENGINE_SRC lets a developer point the build at another checkout of the
    # engine (a directory containing gin/); the default is this tree.
    return Path(os.environ.get("GIN_ENGINE_SRC", ROOT)).resolve()


def project_metadata() -> tuple[str, str, str]:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return meta["name"], meta["version"], meta.get("description", "")


def _zip_write(zf: zipfile.ZipFile, arcname: str, data: bytes) -> None:
    info = zipfile.ZipInfo(arcname, date_time=ZIP_EPOCH)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    zf.writestr(info, data)


def gin_wheel_bytes(sources: dict[str, bytes], pycs: dict[str, bytes]) -> tuple[str, bytes]:
    """A pure-Python wheel of gin/, written directly (no build backend: fast and
    reproducible), with each module's bytecode for Pyodide's Python beside it
    in __pycache__ (so the page never compiles gin). micropip installs it like
    any wheel."""
    name, version, summary = project_metadata()
    files: list[tuple[str, bytes]] = sorted({**sources, **pycs}.items())
    dist_info = f"{name}-{version}.dist-info"
    metadata = (
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        f"Summary: {summary}\nRequires-Python: >=3.11\n"
    ).encode()
    wheel = (
        "Wheel-Version: 1.0\nGenerator: gin-build.py\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n"
    ).encode()
    files += [(f"{dist_info}/METADATA", metadata), (f"{dist_info}/WHEEL", wheel)]
    record = io.StringIO()
    for arcname, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.write(f"{arcname},sha256={digest},{len(data)}\n")
    record.write(f"{dist_info}/RECORD,,\n")
    files.append((f"{dist_info}/RECORD", record.getvalue().encode()))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for arcname, data in files:
            _zip_write(zf, arcname, data)
    data = buf.getvalue()
    # A name per build: the wheel's build tag (PEP 427: it starts with a
    # digit) is its content hash, so no cache can hand one build's wheel to
    # another's worker.
    return f"{name}-{version}-0{hashlib.sha256(data).hexdigest()[:12]}-py3-none-any.whl", data


# ----------------------------------------------------------- Pyodide under Node

# Run as `node tool.mjs job.json`. Compiles Python sources to bytecode with
# Pyodide's own interpreter, and makes the memory snapshot of an interpreter
# that has unpacked the gin wheel, imported every gin module and played a few
# bridge calls.
PYODIDE_TOOL = r"""
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
"""


def run_pyodide_tool(job: dict) -> None:
    node = shutil.which("node")
    if node is None:
        sys.exit("build: node is needed to run Pyodide for the build (node 20 + npm)")
    with tempfile.TemporaryDirectory() as tmp:
        tool = Path(tmp) / "tool.mjs"
        tool.write_text(PYODIDE_TOOL)
        (Path(tmp) / "job.json").write_text(json.dumps(job))
        t0 = time.monotonic()
        subprocess.run([node, str(tool), str(Path(tmp) / "job.json")], check=True)
        log(f"Pyodide under Node: {', '.join(k for k in ('compile', 'snapshot') if job.get(k))} ({time.monotonic() - t0:.1f}s)")


def _key(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def gin_sources() -> dict[str, bytes]:
    """The files of the gin wheel's package, by path inside the wheel."""
    name = project_metadata()[0]
    src = engine_source()
    pkg_dir = src / name
    if not pkg_dir.is_dir():
        sys.exit(f"build: no package directory {pkg_dir}")
    files = {}
    for path in sorted(pkg_dir.rglob("*")):
        rel = path.relative_to(src)
        if path.is_dir() or "__pycache__" in rel.parts:
            continue
        if path.suffix in (".py", ".typed", ".json"):
            files[rel.as_posix()] = path.read_bytes()
    return files


def compiled_bytecode(pyodide: Path, sources: dict[str, bytes]) -> tuple[bytes, dict[str, bytes]]:
    """python_stdlib.zip as .pyc and gin's modules as .pyc, both compiled by
    Pyodide's own Python; cached in .cache/ by what they are made from."""
    core = sha256_file(pyodide / "pyodide.asm.wasm") + sha256_file(pyodide / "python_stdlib.zip")
    stdlib_key = _key("stdlib", TOOL_VERSION, core)[:24]
    gin_key = _key("gin", TOOL_VERSION, core, json.dumps({k: sri(v) for k, v in sources.items()}))[:24]
    stdlib_out = CACHE / "bytecode" / f"stdlib-{stdlib_key}.zip"
    gin_out = CACHE / "bytecode" / f"gin-{gin_key}"
    modules = [rel for rel in sources if rel.endswith(".py")]
    need_stdlib = not stdlib_out.exists()
    need_gin = not (gin_out / "compiled.json").exists()
    if need_stdlib or need_gin:
        with tempfile.TemporaryDirectory() as tmp:
            src_dir = Path(tmp) / "src"
            out_dir = Path(tmp) / "out"
            out_dir.mkdir()
            for rel in modules:
                (src_dir / rel).parent.mkdir(parents=True, exist_ok=True)
                (src_dir / rel).write_bytes(sources[rel])
            job = {
                "indexURL": str(pyodide) + "/",
                "compile": {
                    "srcDir": str(src_dir),
                    "outDir": str(out_dir),
                    "modules": modules,
                    "stdlib": str(Path(tmp) / "stdlib.zip") if need_stdlib else None,
                },
            }
            run_pyodide_tool(job)
            stdlib_out.parent.mkdir(parents=True, exist_ok=True)
            if need_stdlib:
                shutil.move(str(Path(tmp) / "stdlib.zip"), stdlib_out)
            if need_gin:
                shutil.rmtree(gin_out, ignore_errors=True)
                shutil.copytree(out_dir, gin_out)
        _prune(CACHE / "bytecode", {stdlib_out.name, gin_out.name})
    compiled = json.loads((gin_out / "compiled.json").read_text())
    pycs = {out: (gin_out / out.replace("/", "|")).read_bytes() for out in compiled.values()}
    return stdlib_out.read_bytes(), pycs


def _prune(folder: Path, keep: set[str], spare: int = 3) -> None:
    """Forget cached results of earlier inputs but the `spare` most recent
    (keeps .cache/ from growing; a test's build of changed sources does not
    evict the tree's own)."""
    for path in keep:
        os.utime(folder / path)
    others = sorted((p for p in folder.iterdir() if p.name not in keep), key=lambda p: p.stat().st_mtime, reverse=True)
    for path in others[spare:]:
        shutil.rmtree(path) if path.is_dir() else path.unlink()


def _leb128(data: bytes, i: int, signed: bool = False) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            if signed and byte & 0x40:
                value -= 1 << shift
            return value, i


def wasm_data_segments(wasm: bytes) -> list[tuple[int, bytes]]:
    """The active data segments of a WebAssembly module, (memory offset,
    bytes): what instantiating it writes into a fresh memory."""
    if wasm[:4] != b"\0asm":
        raise ValueError("not a WebAssembly module")
    segments = []
    i = 8
    while i < len(wasm):
        section = wasm[i]
        size, i = _leb128(wasm, i + 1)
        end = i + size
        if section == 11:  # data
            count, j = _leb128(wasm, i)
            for _ in range(count):
                flags, j = _leb128(wasm, j)
                if flags == 1:  # passive: not written at instantiation
                    length, j = _leb128(wasm, j)
                    j += length
                    continue
                if flags == 2:
                    _, j = _leb128(wasm, j)  # memory index
                if wasm[j] != 0x41:  # i32.const
                    raise ValueError(f"data segment offset by opcode {wasm[j]:#x}")
                offset, j = _leb128(wasm, j + 1, signed=True)
                if wasm[j] != 0x0B:
                    raise ValueError("data segment offset is not a constant")
                length, j = _leb128(wasm, j + 1)
                segments.append((offset, wasm[j:j + length]))
                j += length
        i = end
    return segments


def snapshot_header_size(snapshot: bytes) -> int:
    """Where the memory starts in a Pyodide memory snapshot (its second
    32-bit word, as Pyodide's restoreSnapshot reads it)."""
    if snapshot[:4] != b"\0snp":
        raise ValueError("not a Pyodide memory snapshot")
    return struct.unpack_from("<I", snapshot, 4)[0]


def xor_wasm_data(snapshot: bytes, wasm: bytes) -> bytes:
    """The snapshot with its memory XORed with the wasm's data segments: the
    static data a running interpreter barely changes (3.8 MB, 1.5 MB of the
    snapshot's gzip) become zeros, and the page, which has the wasm anyway,
    undoes it (worker.js). The same call undoes it here."""
    out = bytearray(snapshot)
    base = snapshot_header_size(snapshot)
    for offset, data in wasm_data_segments(wasm):
        start = base + offset
        part = int.from_bytes(out[start:start + len(data)], "little") ^ int.from_bytes(data, "little")
        out[start:start + len(data)] = part.to_bytes(len(data), "little")
    return bytes(out)


def memory_snapshot(pyodide: Path, stdlib: bytes, gin_name: str, gin_bytes: bytes) -> tuple[str, bytes, bytes]:
    """The memory snapshot made under Node, XORed with the wasm's data
    segments (xor_wasm_data) as it is served (gzip); rebuilt only when the
    Pyodide core, the stdlib, the gin wheel or the recipe change. Returns its
    key (which names it in dist/), the decoded XORed form and the gzip."""
    key = _key(
        "snapshot", TOOL_VERSION, PYODIDE_TOOL, SNAPSHOT_HASHSEED,
        sha256_file(pyodide / "pyodide.asm.wasm"), sha256_file(pyodide / "pyodide.asm.mjs"),
        sri(stdlib), gin_name, sri(gin_bytes),
    )[:24]
    folder = CACHE / "snapshot"
    gz_path = folder / f"{key}.bin.gz"
    if not gz_path.exists():
        with tempfile.TemporaryDirectory() as tmp:
            stdlib_path = Path(tmp) / "python_stdlib.zip"
            stdlib_path.write_bytes(stdlib)
            wheel = Path(tmp) / gin_name
            wheel.write_bytes(gin_bytes)
            raw_path = Path(tmp) / "snapshot.bin"
            run_pyodide_tool(
                {
                    "indexURL": str(pyodide) + "/",
                    "snapshot": {
                        "stdLibURL": str(stdlib_path),
                        "gin": str(wheel),
                        "hashSeed": SNAPSHOT_HASHSEED,
                        "out": str(raw_path),
                    },
                }
            )
            raw = xor_wasm_data(raw_path.read_bytes(), (pyodide / "pyodide.asm.wasm").read_bytes())
            folder.mkdir(parents=True, exist_ok=True)
            tmp_gz = gz_path.with_suffix(".tmp")
            tmp_gz.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
            tmp_gz.replace(gz_path)
        _prune(folder, {gz_path.name})
    packed = gz_path.read_bytes()
    return key, gzip.decompress(packed), packed


def gzip_cached(data: bytes) -> bytes:
    """gzip -9 of data, cached by content (the wasm takes a second to compress)."""
    path = CACHE / "gzip" / (hashlib.sha256(data).hexdigest()[:32] + ".gz")
    if path.exists():
        return path.read_bytes()
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(packed)
    return packed


def web_sources() -> list[Path]:
    out = []
    for path in sorted(WEB.rglob("*")):
        rel = path.relative_to(WEB)
        if path.is_dir() or rel.parts[0] in WEB_EXCLUDE_DIRS or rel.as_posix() in WEB_EXCLUDE:
            continue
        if path.name.startswith("."):
            continue
        out.append(path)
    return out


def _write_if_changed(path: Path, data: bytes) -> None:
    if path.exists() and path.stat().st_size == len(data) and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def build() -> dict:
    """Assemble dist/ and return the manifest."""
    t0 = time.monotonic()
    pyodide = ensure_pyodide()
    micropip = ensure_micropip()
    outputs: dict[str, bytes] = {}
    for name in PYODIDE_CORE:
        outputs[f"pyodide/{name}"] = (pyodide / name).read_bytes()
    outputs[f"wheels/{MICROPIP_WHEEL}"] = micropip.read_bytes()
    sources = gin_sources()
    # GIN_BYTECODE=0 builds with Pyodide's source-only stdlib and a wheel
    # without bytecode (to measure what the compiled files save).
    if os.environ.get("GIN_BYTECODE", "1") == "0":
        stdlib, pycs = outputs.pop("pyodide/python_stdlib.zip"), {}
        stdlib_path = "pyodide/python_stdlib.zip"
    else:
        stdlib, pycs = compiled_bytecode(pyodide, sources)
        del outputs["pyodide/python_stdlib.zip"]  # never fetched: the page asks for the compiled one
        stdlib_path = "pyodide/python_stdlib.pyc.zip"
    outputs[stdlib_path] = stdlib
    # A restored snapshot has imported all it needs before the page is
    # playable: it boots with an empty zip in the stdlib's place, and the
    # worker writes the real one there afterwards (worker.js).
    outputs[STDLIB_STUB] = EMPTY_ZIP
    gin_name, gin_bytes = gin_wheel_bytes(sources, pycs)
    outputs[f"wheels/{gin_name}"] = gin_bytes
    outputs.update(app_icons())
    outputs.update(card_font())
    snap_key, snap_xored, snap_packed = memory_snapshot(pyodide, stdlib, gin_name, gin_bytes)
    snap_raw = xor_wasm_data(snap_xored, (pyodide / "pyodide.asm.wasm").read_bytes())
    # The snapshot is not precached with the rest: a first visit's worker
    # fetches it beside the wasm and boots from it, and the service worker
    # keeps it decoded (from what the page fetched, or fetched in the
    # background). Its name changes with everything it was made from.
    snapshot = {
        "url": f"snapshot/{snap_key}.bin.gz",
        # Where Cache Storage keeps it decoded (never served): a repeat visit
        # reads it as the engine needs it, with no gunzip on its way.
        "raw_url": f"snapshot/{snap_key}.bin",
        "integrity": sri(snap_packed),
        # gunzipped but still XORed (a host that decoded it on the way)
        "xor_integrity": sri(snap_xored),
        "raw_integrity": sri(snap_raw),
        "size": len(snap_packed),
        "raw_size": len(snap_raw),
        # Its memory is XORed with this file's data segments (xor_wasm_data).
        "xor_wasm": "pyodide/pyodide.asm.wasm",
    }

    build_info = {
        "pyodide": "pyodide/",
        "pyodide_version": PYODIDE_VERSION,
        "stdlib": stdlib_path,
        "stdlib_stub": STDLIB_STUB,
        "micropip": f"wheels/{MICROPIP_WHEEL}",
        "gin": f"wheels/{gin_name}",
        "gin_integrity": sri(gin_bytes),
        "snapshot": snapshot,
    }
    sw_source = None
    for path in web_sources():
        rel = path.relative_to(WEB).as_posix()
        data = path.read_bytes()
        if rel == "sw.js":
            sw_source = data.decode()
            continue
        if BUILD_TOKEN.encode() in data:
            data = data.replace(BUILD_TOKEN.encode(), json.dumps(build_info).encode())
        outputs[rel] = data
    if sw_source is None or MANIFEST_TOKEN not in sw_source:
        sys.exit(f"build: web/sw.js must contain {MANIFEST_TOKEN}")

    files = {rel: sri(data) for rel, data in sorted(outputs.items())}
    version = hashlib.sha256(json.dumps([files, snapshot], sort_keys=True).encode()).hexdigest()[:16]
    sw_snapshot = {
        "path": snapshot["url"], "raw_path": snapshot["raw_url"],
        "integrity": snapshot["integrity"], "raw_integrity": snapshot["raw_integrity"], "raw_size": snapshot["raw_size"],
        "xor_integrity": snapshot["xor_integrity"], "xor_wasm": snapshot["xor_wasm"],
    }
    sw_manifest = {"version": version, "files": files, "snapshot": sw_snapshot}
    outputs["sw.js"] = sw_source.replace(MANIFEST_TOKEN, json.dumps(sw_manifest)).encode()
    # What a host should send gzip-compressed: precompressed siblings (.gz),
    # which build.py serve sends when the browser accepts gzip.
    compressed = {}
    for rel, data in outputs.items():
        if rel.endswith(COMPRESSIBLE) and len(data) >= COMPRESS_MIN:
            packed = gzip_cached(data)
            if len(packed) < 0.9 * len(data):
                compressed[rel] = packed
    manifest = {
        "version": version,
        "build": build_info,
        "files": files,
        "sizes": {rel: len(data) for rel, data in sorted(outputs.items())},
        "gzip_sizes": {rel: len(data) for rel, data in sorted(compressed.items())},
        "snapshot": snapshot,
    }
    outputs["manifest.json"] = (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode()
    compressed["manifest.json"] = gzip.compress(outputs["manifest.json"], compresslevel=9, mtime=0)
    written = dict(outputs)
    written.update({rel + ".gz": data for rel, data in compressed.items()})
    written[snapshot["url"]] = snap_packed

    DIST.mkdir(exist_ok=True)
    for rel, data in written.items():
        _write_if_changed(DIST / rel, data)
    # Remove whatever an earlier build left that this one did not produce.
    for path in sorted(DIST.rglob("*"), reverse=True):
        rel = path.relative_to(DIST).as_posix()
        if path.is_file() and rel not in written:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    log(f"dist/ ready: {len(outputs)} files + snapshot, build {version} ({time.monotonic() - t0:.2f}s)")
    return manifest


# --------------------------------------------------------------------------- card font

# The ranks and court letters on the cards are drawn in a font the page ships
# (web/style.css, "Gin Card"), so every engine draws the same glyphs: npm's
# @fontsource/noto-serif (pinned in web/package.json), its Latin subset in bold,
# with the font's licence beside it.
CARD_FONT_PACKAGE = "@fontsource/noto-serif"
CARD_FONT = {
    "fonts/noto-serif-latin-700-normal.woff2": "files/noto-serif-latin-700-normal.woff2",
    "fonts/noto-serif-LICENSE.txt": "LICENSE",
}


def card_font() -> dict[str, bytes]:
    package = WEB / "node_modules" / CARD_FONT_PACKAGE
    if not (package / "package.json").exists():
        sys.exit(f"build: web/node_modules has no {CARD_FONT_PACKAGE} (npm ci in web/)")
    return {rel: (package / source).read_bytes() for rel, source in CARD_FONT.items()}


# --------------------------------------------------------------------------- icons

# The app's icons are drawn here, at build time, from a few signed distance
# functions (one evaluation per pixel, edges antialiased by distance): two
# fanned playing cards, a heart and a spade, on the felt of the table. Colours
# are the ones of web/style.css. Every size is drawn, not scaled, so even the
# 32 px favicon has crisp edges.
ICON_FELT = ((0x2F, 0x8A, 0x52), (0x1D, 0x6B, 0x3C), (0x0F, 0x44, 0x24))  # light, felt, dark
ICON_PAPER, ICON_EDGE = (0xFF, 0xFD, 0xF6), (0xD9, 0xD1, 0xBA)
ICON_RED, ICON_INK = (0xC6, 0x28, 0x28), (0x1A, 0x1C, 0x1E)
# The cards in "content units": a card is 1 wide and 1.4 high (5:7, as on the
# table); (centre x, centre y, rotation in degrees, suit, pip's shift to the
# right, so the back card's spade shows beside the front card). y points down.
ICON_CARDS = ((0.27, -0.05, 14.0, "S", 0.14), (-0.22, 0.08, -10.0, "H", 0.0))
ICON_CARD_HALF, ICON_CARD_RADIUS = (0.5, 0.7), 0.09
ICON_SHADOW = (0.035, 0.06, 0.07)  # offset x, offset y, blur
# Where the artwork may reach, as a fraction of the icon's size measured from
# its centre. A maskable icon keeps everything in the safe zone, the circle of
# radius 0.4 that every launcher mask leaves visible.
MASKABLE_SAFE_RADIUS = 0.4
# file -> (size, layout, radius of the artwork): "any" is a rounded felt tile
# on transparency; "full" fills the square (maskable, and Apple's touch icon,
# which iOS rounds itself).
ICONS = {
    "icons/icon-192.png": (192, "any", 0.45),
    "icons/icon-512.png": (512, "any", 0.45),
    "icons/maskable-512.png": (512, "full", MASKABLE_SAFE_RADIUS - 0.02),
    "icons/apple-touch-icon.png": (180, "full", 0.43),
    "icons/favicon-32.png": (32, "any", 0.47),
}


def _png(width: int, height: int, rows: list[bytes], alpha: bool) -> bytes:
    """A PNG (8-bit RGB or RGBA, no filtering) from raw rows."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    raw = b"".join(b"\x00" + row for row in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def _sd_round_box(x: float, y: float, hw: float, hh: float, r: float) -> float:
    qx, qy = abs(x) - hw + r, abs(y) - hh + r
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r


def _sd_heart(x: float, y: float) -> float:
    """Exact distance to a heart with its point at the origin and its lobes
    upwards (y up), about 1.2 wide and 1.1 high (Inigo Quilez's formula)."""
    x = abs(x)
    if y + x > 1.0:
        return math.hypot(x - 0.25, y - 0.75) - math.sqrt(2.0) / 4.0
    m = 0.5 * max(x + y, 0.0)
    d = math.sqrt(min(x * x + (y - 1.0) ** 2, (x - m) ** 2 + (y - m) ** 2))
    return d if x > y else -d


def _sd_triangle(x: float, y: float, qx: float, qy: float) -> float:
    """Distance to an isosceles triangle, apex at the origin, base at y = qy of
    half-width qx."""
    x = abs(x)
    t = min(max((x * qx + y * qy) / (qx * qx + qy * qy), 0.0), 1.0)
    ax, ay = x - qx * t, y - qy * t
    u = min(max(x / qx, 0.0), 1.0)
    bx, by = x - qx * u, y - qy
    s = -1.0 if qy > 0 else 1.0
    d = min(ax * ax + ay * ay, bx * bx + by * by)
    sign = min(s * (x * qy - y * qx), s * (y - qy))
    return -math.sqrt(d) if sign > 0 else math.sqrt(d)


def _sd_suit(suit: str, x: float, y: float) -> float:
    """Distance to a pip of height about 0.62, centred at the origin (y down)."""
    k = 0.56  # heart units -> content units
    if suit == "H":
        return _sd_heart(x / k, 0.56 - y / k) * k
    lobes = _sd_heart(x / k, 0.7 + y / k) * k  # the heart upside down
    stem = _sd_triangle(x, y - 0.04, 0.13, 0.33)
    return min(lobes, stem)


def _artwork_extent() -> float:
    """How far from the centre (content units) the cards and their shadows reach."""
    hw, hh = ICON_CARD_HALF
    far = 0.0
    for cx, cy, deg, *_ in ICON_CARDS:
        a = math.radians(deg)
        for sx, sy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            x, y = sx * hw, sy * hh
            px = cx + x * math.cos(a) - y * math.sin(a)
            py = cy + x * math.sin(a) + y * math.cos(a)
            far = max(far, math.hypot(px, py), math.hypot(px + ICON_SHADOW[0], py + ICON_SHADOW[1]) + ICON_SHADOW[2])
    return far


def _felt_row(size: int, v: float) -> list[tuple[float, float, float]]:
    """One row of the table's radial gradient (style.css, body): light at the
    top centre, the felt at 48 %, dark at the edge."""
    (lr, lg, lb), (mr, mg, mb), (dr, dg, db) = ICON_FELT
    out = []
    for i in range(size):
        t = min(math.hypot((i + 0.5) / size - 0.5, v - 0.38) / 0.72, 1.0)
        if t < 0.48:
            f = t / 0.48
            out.append((lr + (mr - lr) * f, lg + (mg - lg) * f, lb + (mb - lb) * f))
        else:
            f = (t - 0.48) / 0.52
            out.append((mr + (dr - mr) * f, mg + (dg - mg) * f, mb + (db - mb) * f))
    return out


def draw_icon(size: int, layout: str, radius: float) -> bytes:
    """One icon as PNG bytes: the artwork scaled to reach `radius` (a fraction
    of the size, from the centre)."""
    scale = radius / _artwork_extent()  # content units -> unit square
    px = 1.0 / (size * scale)  # one pixel in content units
    hw, hh = ICON_CARD_HALF
    corner = ICON_CARD_RADIUS
    ox, oy, blur = ICON_SHADOW
    border = max(0.018, px)
    reach = math.hypot(hw, hh) + math.hypot(ox, oy) + blur
    cards = []
    for cx, cy, deg, suit, shift in ICON_CARDS:
        a = math.radians(deg)
        cards.append((cx, cy, math.cos(a), math.sin(a), suit, shift, ICON_RED if suit == "H" else ICON_INK))
    pr, pg, pb = ICON_PAPER
    er, eg, eb = ICON_EDGE
    inner = 0.47 - 1.0 / size
    rows = []
    for j in range(size):
        row = bytearray()
        v = (j + 0.5) / size
        y = (v - 0.5) / scale
        felt = _felt_row(size, v)
        for i in range(size):
            u = (i + 0.5) / size
            x = (u - 0.5) / scale
            r, g, b = felt[i]
            for cx, cy, c, s, suit, shift, (ir, ig, ib) in cards:
                dx, dy = x - cx, y - cy
                if dx > reach or dx < -reach or dy > reach or dy < -reach:
                    continue
                # Into the card's own frame (rotated by -angle).
                lx, ly = dx * c + dy * s, dy * c - dx * s
                qx, qy = abs(lx) - hw + corner, abs(ly) - hh + corner
                if qx > 0.0 and qy > 0.0:
                    edge = math.sqrt(qx * qx + qy * qy) - corner
                else:
                    edge = (qx if qx > qy else qy) - corner
                if edge > -px:  # the felt (or a card below) shows: add this card's shadow
                    sx, sy = lx - ox * c - oy * s, ly - oy * c + ox * s
                    shadow = _sd_round_box(sx, sy, hw, hh, corner)
                    if shadow < blur:
                        t = min(max(0.5 - shadow / (2 * blur), 0.0), 1.0)
                        k = 1.0 - 0.38 * t * t * (3 - 2 * t)
                        r, g, b = r * k, g * k, b * k
                cover = 0.5 - edge / px
                if cover <= 0.0:
                    continue
                cover = min(cover, 1.0)
                f = min(max(0.5 + (edge + border) / px, 0.0), 1.0)
                fr, fg, fb = pr + (er - pr) * f, pg + (eg - pg) * f, pb + (eb - pb) * f
                if -0.4 < lx - shift < 0.4 and -0.45 < ly < 0.45:
                    ink = min(max(0.5 - _sd_suit(suit, lx - shift, ly + 0.02) / px, 0.0), 1.0)
                    if ink > 0.0:
                        fr, fg, fb = fr + (ir - fr) * ink, fg + (ig - fg) * ink, fb + (ib - fb) * ink
                r, g, b = r + (fr - r) * cover, g + (fg - g) * cover, b + (fb - b) * cover
            row += bytes((round(r), round(g), round(b)))
            if layout == "any":
                ax, ay = abs(u - 0.5), abs(v - 0.5)
                if (ax < 0.27 and ay < inner) or (ay < 0.27 and ax < inner):
                    row.append(255)  # well inside the tile: no need to measure
                else:
                    d = _sd_round_box(u - 0.5, v - 0.5, 0.47, 0.47, 0.2) * size
                    row.append(round(min(max(0.5 - d, 0.0), 1.0) * 255))
        rows.append(bytes(row))
    return _png(size, size, rows, alpha=layout == "any")


def _check_app_manifest() -> None:
    """web/app.webmanifest must name only icons drawn here, at their real sizes,
    and a maskable one only if its artwork stays in the safe zone."""
    manifest = json.loads((WEB / APP_MANIFEST).read_text())
    for icon in manifest.get("icons", []):
        src = icon["src"].removeprefix("./")
        if src not in ICONS:
            sys.exit(f"build: {APP_MANIFEST} names {src}, which build.py does not draw")
        size, layout, radius = ICONS[src]
        if icon.get("sizes") != f"{size}x{size}" or icon.get("type") != "image/png":
            sys.exit(f"build: {APP_MANIFEST}: {src} is a {size}x{size} image/png")
        if "maskable" in icon.get("purpose", "").split() and (layout != "full" or radius > MASKABLE_SAFE_RADIUS):
            sys.exit(f"build: {APP_MANIFEST}: {src} is not drawn to be maskable")


def app_icons() -> dict[str, bytes]:
    """Every icon of ICONS as {path in dist/: PNG bytes}. Drawing takes a few
    seconds of pure Python, so the PNGs are kept in .cache/icons/ under the
    hash of this file: any change here draws them again."""
    _check_app_manifest()
    key = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    cache = CACHE / "icons" / key
    out = {}
    for path, spec in ICONS.items():
        cached = cache / Path(path).name
        if cached.exists():
            out[path] = cached.read_bytes()
            continue
        out[path] = draw_icon(*spec)
        cache.mkdir(parents=True, exist_ok=True)
        cached.write_bytes(out[path])
    for old in (CACHE / "icons").iterdir():
        if old != cache:
            shutil.rmtree(old, ignore_errors=True)
    return out


# --------------------------------------------------------------------------- serve


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: a page load is a few dozen requests
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    quiet = False

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        # Revalidate everything (cheap on loopback, never stale); the service
        # worker script in particular must never come from the HTTP cache.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):
        """The precompressed sibling (name + ".gz") when the browser accepts
        gzip; the file as it is otherwise."""
        path = Path(self.translate_path(self.path))
        packed = path.with_name(path.name + ".gz")
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        # A sibling older than its file is stale (the file was edited by hand).
        if not (accepts and path.is_file() and packed.is_file()) or packed.stat().st_mtime < path.stat().st_mtime:
            return super().send_head()
        stat = packed.stat()
        last_modified = self.date_time_string(int(stat.st_mtime))
        ctype = self.guess_type(str(path))
        if self.headers.get("If-Modified-Since") == last_modified:
            self.send_response(http.HTTPStatus.NOT_MODIFIED)
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return None
        f = packed.open("rb")
        self.send_response(http.HTTPStatus.OK)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(stat.st_size))
        self.send_header("Last-Modified", last_modified)
        self.end_headers()
        return f

    def log_message(self, format: str, *args) -> None:  # noqa: A002
        if not self.quiet:
            super().log_message(format, *args)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address) -> None:
        # A browser that closes a connection mid-download is not our error.
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


def make_server(port: int, directory: Path = DIST, quiet: bool = False) -> Server:
    handler = type("GinHandler", (Handler,), {"quiet": quiet})

    def factory(*args, **kw):
        return handler(*args, directory=str(directory), **kw)

    return Server(("127.0.0.1", port), factory)


def serve(port: int, quiet: bool, directory: Path = DIST) -> None:
    server = make_server(port, directory=directory, quiet=quiet)
    print(f"Serving gin at http://127.0.0.1:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


# --------------------------------------------------------------------------- test


def venv_python() -> Path:
    return VENV / "bin" / "python"


def ensure_venv() -> Path:
    """A virtual environment with gin (editable) and the test extra; reinstalled
    only when pyproject.toml or the interpreter changed."""
    stamp = VENV / ".gin-stamp"
    want = hashlib.sha256(
        (ROOT / "pyproject.toml").read_bytes() + sys.version.encode()
    ).hexdigest()
    if venv_python().exists() and stamp.exists() and stamp.read_text() == want:
        return venv_python()
    if not venv_python().exists():
        run([sys.executable, "-m", "venv", str(VENV)])
    py = str(venv_python())
    run([py, "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    run([py, "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[test]"])
    stamp.write_text(want)
    return venv_python()


def _playwright_chromium(py: Path) -> str | None:
    code = (
        "from playwright.sync_api import sync_playwright\n"
        "with sync_playwright() as p: print(p.chromium.executable_path)"
    )
    try:
        out = subprocess.run([str(py), "-c", code], capture_output=True, text=True, check=True)
    except subprocess.CalledProcessError:
        return None
    path = out.stdout.strip()
    return path if path and Path(path).exists() else None


def apt_install(packages: list[str], why: str) -> bool:
    """Debian's `packages` via apt-get, when we are root on Debian (the package
    lists are refreshed only if the first try fails); False when not installed."""
    if not (hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get")):
        log(f"{why}; not root with apt-get, so {' '.join(packages)} cannot be installed here")
        return False
    log(f"{why}; installing Debian's {' '.join(packages)}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "--no-install-recommends", *packages]
    try:
        run(install, env=env)
    except subprocess.CalledProcessError:
        try:
            run(["apt-get", "update"], env=env)
            run(install, env=env)
        except subprocess.CalledProcessError as exc:
            log(f"apt-get failed ({exc})")
            return False
    return True


def find_chromium(py: Path) -> str:
    """CHROMIUM, else a system Chromium/Chrome, else Debian's chromium (as root),
    else Playwright's own download."""
    env = os.environ.get("CHROMIUM")
    if env:
        if not Path(env).exists() and not shutil.which(env):
            sys.exit(f"build: CHROMIUM={env} does not exist")
        return shutil.which(env) or env
    names = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
    for name in names:
        if found := shutil.which(name):
            return found
    if apt_install(["chromium"], "no Chromium found"):
        for name in names:
            if found := shutil.which(name):
                return found
    if found := _playwright_chromium(py):
        return found
    try:
        run([str(py), "-m", "playwright", "install", "chromium"])
    except subprocess.CalledProcessError:
        pass
    if found := _playwright_chromium(py):
        return found
    sys.exit("build: no Chromium available (set CHROMIUM to a Chromium or Chrome binary)")


def video_env(py: Path) -> dict[str, str]:
    """Playwright's video recording needs its ffmpeg, a download this machine
    may not reach: use the system's ffmpeg (else Debian's, as root), linked
    where Playwright looks for its own (<browsers path>/ffmpeg-<revision>/
    ffmpeg-linux, the revision from the installed driver's browsers.json),
    in a browsers path of ours. {} when there is no ffmpeg: the recording
    tests then say so."""
    if not shutil.which("ffmpeg"):
        apt_install(["ffmpeg"], "no ffmpeg found (for the test videos)")
    ffmpeg = shutil.which("ffmpeg")
    if not ffmpeg:
        return {}
    code = "import json, pathlib, playwright; p = pathlib.Path(playwright.__file__).parent / 'driver/package/browsers.json'; "
    code += "print(next(b['revision'] for b in json.loads(p.read_text())['browsers'] if b['name'] == 'ffmpeg'))"
    try:
        revision = subprocess.run([str(py), "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    except subprocess.CalledProcessError:
        return {}
    browsers = ROOT / ".cache" / "ms-playwright"
    link = browsers / f"ffmpeg-{revision}" / "ffmpeg-linux"
    link.parent.mkdir(parents=True, exist_ok=True)
    if not link.exists() or link.resolve() != Path(ffmpeg).resolve():
        link.unlink(missing_ok=True)
        link.symlink_to(ffmpeg)
    return {"PLAYWRIGHT_BROWSERS_PATH": str(browsers)}


# The other engines of the cross-engine set (tests/e2e/test_engines.py), from
# Debian: variable -> (how to tell it is there, the package that brings it).
# WebKitWebDriver drives a window of ours (tests/e2e/webkit_window.py), a GTK
# WebKit view run by the system's Python with PyGObject, under Xvfb.
WEBKIT_GI = "import gi; gi.require_version('Gtk', '3.0'); gi.require_version('WebKit2', '4.1'); from gi.repository import Gtk, WebKit2"
ENGINE_TOOLS = {
    "GIN_FIREFOX": ("firefox-esr", "firefox-esr"),
    "GIN_WEBKIT_DRIVER": ("WebKitWebDriver", "webkit2gtk-driver"),
    "GIN_XVFB": ("Xvfb", "xvfb"),
    "GIN_WEBKIT_PYTHON": (WEBKIT_GI, "gir1.2-webkit2-4.1 python3-gi"),
}


def _engine_tool(var: str) -> str | None:
    """The tool's path (the variable's value when it is set), or None."""
    probe, _ = ENGINE_TOOLS[var]
    if var != "GIN_WEBKIT_PYTHON":
        return shutil.which(os.environ.get(var) or probe)
    python = os.environ.get(var) or "/usr/bin/python3"
    if Path(python).exists() and subprocess.run([python, "-c", probe], capture_output=True).returncode == 0:
        return python
    return None


def find_engines() -> dict[str, str]:
    """Firefox ESR, WebKitWebDriver, Xvfb and a Python with WebKit's GObject
    bindings: found, else installed from Debian (as root). A missing one is
    passed as "" so the cross-engine tests fail and say which."""
    found = {var: _engine_tool(var) for var in ENGINE_TOOLS}
    missing = [var for var, path in found.items() if path is None]
    if missing:
        packages = " ".join(ENGINE_TOOLS[var][1] for var in missing).split()
        if apt_install(packages, "missing for the cross-engine tests: " + ", ".join(missing)):
            found.update({var: _engine_tool(var) for var in missing})
    for var, path in found.items():
        log(f"{var}: {path or 'MISSING (its tests will fail)'}")
    return {var: path or "" for var, path in found.items()}


def prepare() -> tuple[Path, str]:
    py = ensure_venv()
    build()
    chromium = find_chromium(py)
    log(f"Chromium: {chromium}")
    return py, chromium


def test(pytest_args: list[str]) -> int:
    py, chromium = prepare()
    env = {**os.environ, "CHROMIUM": chromium, **video_env(py), **find_engines()}
    cmd = [str(py), "-m", "pytest", *pytest_args]
    log("$ " + " ".join(cmd))
    code = subprocess.run(cmd, cwd=ROOT, env=env).returncode
    if code == 5:
        log("pytest collected no tests: that is a failure")
        return 1
    return code


def bench() -> int:
    py, chromium = prepare()
    env = {**os.environ, "CHROMIUM": chromium}
    scripts = sorted((ROOT / "bench").glob("*.py"))
    if not scripts:
        log("no bench/*.py")
        return 1
    worst = 0
    for script in scripts:
        print(f"\n== {script.relative_to(ROOT)}", flush=True)
        code = subprocess.run([str(py), str(script)], cwd=ROOT, env=env).returncode
        worst = worst or code
    return worst


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["test"]:
        # Everything after `test` belongs to pytest, untouched.
        return test(argv[1:])
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("build", help="assemble dist/")
    p_serve = sub.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    p_serve.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    p_serve.add_argument("--no-build", action="store_true", help="serve dist/ as it is")
    p_serve.add_argument("--quiet", action="store_true", help="do not log requests")
    p_serve.add_argument("--dir", type=Path, help="serve this directory as it is (implies --no-build)")
    sub.add_parser("test", help="venv + build + Chromium, then pytest [args]", add_help=False)
    sub.add_parser("bench", help="build, then run bench/*.py")
    args = parser.parse_args(argv)
    if args.command == "build":
        build()
        return 0
    if args.command == "serve":
        if not (args.no_build or args.dir):
            build()
        serve(args.port, args.quiet, (args.dir or DIST).resolve())
        return 0
    if args.command == "bench":
        return bench()
    return 2


if __name__ == "__main__":
    sys.exit(main())
