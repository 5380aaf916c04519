"""Pyodide under Node, for the build: the standard library and gin's modules
compiled to bytecode by Pyodide's own Python, and the memory snapshot of an
interpreter that has unpacked the gin wheel, imported every gin module and
played a few bridge calls. The program is pyodide_tool.mjs beside this file,
run as `node pyodide_tool.mjs job.json`; both results are cached in .cache/
under keys of what they are made from (the program's text included).
"""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import CACHE, cache_key, log, prune, sha256_file, sri
from .wasmdata import xor_wasm_data

TOOL = Path(__file__).resolve().with_name("pyodide_tool.mjs")
# Bump when the recipe changes in a way the program's text does not show, so
# the cached results in .cache/ are made again.
TOOL_VERSION = "2"
# The snapshot freezes Python's string-hash secret; a declared constant instead
# of whatever random one the build machine drew (see the README).
SNAPSHOT_HASHSEED = "0"


def run_pyodide_tool(job: dict) -> None:
    node = shutil.which("node")
    if node is None:
        sys.exit("build: node is needed to run Pyodide for the build (node 20 + npm)")
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "job.json").write_text(json.dumps(job))
        t0 = time.monotonic()
        subprocess.run([node, str(TOOL), str(Path(tmp) / "job.json")], check=True)
        log(f"Pyodide under Node: {', '.join(k for k in ('compile', 'snapshot') if job.get(k))} ({time.monotonic() - t0:.1f}s)")


def compiled_bytecode(pyodide: Path, sources: dict[str, bytes]) -> tuple[bytes, dict[str, bytes]]:
    """python_stdlib.zip as .pyc and gin's modules as .pyc, both compiled by
    Pyodide's own Python; cached in .cache/ by what they are made from."""
    core = sha256_file(pyodide / "pyodide.asm.wasm") + sha256_file(pyodide / "python_stdlib.zip")
    stdlib_key = cache_key("stdlib", TOOL_VERSION, TOOL.read_text(), core)[:24]
    gin_key = cache_key("gin", TOOL_VERSION, TOOL.read_text(), core, json.dumps({k: sri(v) for k, v in sources.items()}))[:24]
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
        prune(CACHE / "bytecode", {stdlib_out.name, gin_out.name})
    compiled = json.loads((gin_out / "compiled.json").read_text())
    pycs = {out: (gin_out / out.replace("/", "|")).read_bytes() for out in compiled.values()}
    return stdlib_out.read_bytes(), pycs



def memory_snapshot(pyodide: Path, stdlib: bytes, gin_name: str, gin_bytes: bytes) -> tuple[str, bytes, bytes]:
    """The memory snapshot made under Node, XORed with the wasm's data
    segments (xor_wasm_data) as it is served (gzip); rebuilt only when the
    Pyodide core, the stdlib, the gin wheel or the recipe change. Returns its
    key (which names it in dist/), the decoded XORed form and the gzip."""
    key = cache_key(
        "snapshot", TOOL_VERSION, TOOL.read_text(), SNAPSHOT_HASHSEED,
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
        prune(folder, {gz_path.name})
    packed = gz_path.read_bytes()
    return key, gzip.decompress(packed), packed
