"""The build of dist/: the pinned Pyodide core (npm ci in web/) with its standard
library compiled to bytecode, micropip's wheel from PyPI (pinned by sha256,
cached in .cache/), a `gin` wheel written from gin/ with its bytecode, the
memory snapshot (tools/pyodide.py), the web files, the card font and icons,
gzip siblings of the large files, and a precache manifest with content hashes
that the service worker installs from."""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
import tomllib
import zipfile
from pathlib import Path

from .common import CACHE, DIST, ROOT, WEB, log, run, sha256_file, sri, write_if_changed
from .font import card_font
from .icons import app_icons
from .pyodide import compiled_bytecode, memory_snapshot
from .wasmdata import xor_wasm_data

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
# Edits to Pyodide's Emscripten module (pyodide.asm.mjs as dist/ serves it),
# each (what it does, the text, its replacement); the build stops if a text is
# not found exactly once (a new Pyodide: look again). Same behaviour, less work:
#   Every JS function Pyodide puts in the wasm function table at each start
#   (reportUndefinedSymbols, ~260 on a snapshot boot) gets a one-function wasm
#   module of its own compiled to wrap it (convertJsFunctionToWasm), though the
#   module's bytes depend on the signature alone: compiled once per signature,
#   each function still its own instance, table slots in the same order (the
#   snapshot's function pointers). 40 ms of the worker's start on the way to
#   playable, 15 ms of its CPU (bench/README.md, "A repeat visit's CPU by
#   thread").
PYODIDE_ASM_EDITS = (
    (
        "wrapper modules compiled once per signature",
        "var module=new WebAssembly.Module(bytes);var instance=new WebAssembly.Instance(module,{e:{f:func}});",
        "var key=bytes.join();var module=(convertJsFunctionToWasm.modules??=new Map).get(key);"
        "if(!module){module=new WebAssembly.Module(bytes);convertJsFunctionToWasm.modules.set(key,module)}"
        "var instance=new WebAssembly.Instance(module,{e:{f:func}});",
    ),
)
# Pyodide's lock file pins a different build of micropip than PyPI serves, so
# loading it by name fails; we ship PyPI's wheel and load it by URL instead.
MICROPIP_WHEEL = "micropip-0.11.1-py3-none-any.whl"
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
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
# A fixed timestamp makes the gin wheel byte-for-byte reproducible.
ZIP_EPOCH = (2020, 1, 1, 0, 0, 0)
# The page's entry modules, each served as one file with every module of its
# static import graph inside (esbuild, pinned in web/package.json): the page's
# ~70 modules came in ~5 import waves, a request and a compile each, and on a
# phone-class CPU a returning player's saved hand waited 2.3 s for them; one
# file brings it under 1 s (issue 33; bench/README). Not minified: the served
# code reads as the sources do. The modules stay in dist/ as they are (the
# worker's and the service worker's own, the others unused by the page).
BUNDLED = ("boot.js", "app.js")


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
        sys.exit(f"build: web/node_modules has pyodide {version}, tools/dist.py pins {PYODIDE_VERSION}")
    return pkg


def edited_pyodide_asm(source: bytes) -> bytes:
    """pyodide.asm.mjs with PYODIDE_ASM_EDITS made."""
    text = source.decode()
    for what, old, new in PYODIDE_ASM_EDITS:
        if text.count(old) != 1:
            sys.exit(f"build: pyodide.asm.mjs has {text.count(old)} places for the edit '{what}' (tools/dist.py PYODIDE_ASM_EDITS), not 1")
        text = text.replace(old, new)
    return text.encode()


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



def gzip_cached(data: bytes) -> bytes:
    """gzip -9 of data, cached by content (the wasm takes a second to compress)."""
    path = CACHE / "gzip" / (hashlib.sha256(data).hexdigest()[:32] + ".gz")
    if path.exists():
        return path.read_bytes()
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(packed)
    return packed


def page_bundles() -> dict[str, bytes]:
    """BUNDLED, each with its static imports inside, as ES modules."""
    esbuild = WEB / "node_modules" / "esbuild"
    node = shutil.which("node")
    if node is None or not esbuild.is_dir():
        sys.exit("build: node and web/node_modules/esbuild are needed to bundle the page (npm ci in web/)")
    with tempfile.TemporaryDirectory() as tmp:
        # Through esbuild's JavaScript API (it finds its platform's binary).
        # ES syntax as written (no target: nothing is transformed), text as UTF-8.
        options = {"entryPoints": list(BUNDLED), "absWorkingDir": str(WEB), "outdir": tmp, "bundle": True,
                   "format": "esm", "charset": "utf8", "logLevel": "warning"}
        script = "require(process.argv[1]).buildSync(JSON.parse(process.argv[2]))"
        run([node, "-e", script, str(esbuild), json.dumps(options)])
        return {name: (Path(tmp) / name).read_bytes() for name in BUNDLED}


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



def build() -> dict:
    """Assemble dist/ and return the manifest."""
    t0 = time.monotonic()
    pyodide = ensure_pyodide()
    micropip = ensure_micropip()
    outputs: dict[str, bytes] = {}
    for name in PYODIDE_CORE:
        outputs[f"pyodide/{name}"] = (pyodide / name).read_bytes()
    outputs["pyodide/pyodide.asm.mjs"] = edited_pyodide_asm(outputs["pyodide/pyodide.asm.mjs"])
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
    # The build's id, which the page and its engine's worker both carry (the
    # handshake: runtime/engine.js): every source of the page and the engine,
    # taken before the id is put into them.
    identity = hashlib.sha256()
    for path in web_sources():
        identity.update(path.relative_to(WEB).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    identity.update(build_info["gin_integrity"].encode() + snapshot["raw_integrity"].encode())
    build_info["id"] = identity.hexdigest()[:16]
    sw_source = None
    bundles = page_bundles()
    for path in web_sources():
        rel = path.relative_to(WEB).as_posix()
        data = bundles.get(rel) or path.read_bytes()
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
        write_if_changed(DIST / rel, data)
    # Remove whatever an earlier build left that this one did not produce.
    for path in sorted(DIST.rglob("*"), reverse=True):
        rel = path.relative_to(DIST).as_posix()
        if path.is_file() and rel not in written:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    log(f"dist/ ready: {len(outputs)} files + snapshot, build {version} ({time.monotonic() - t0:.2f}s)")
    return manifest
