"""Time to playable and bytes moved: the gin page against a bare Pyodide module worker of the same files, in headless Chromium.

Both are served by build.py's server (gzip when accepted) from one directory:
dist/ plus, under /bench/, a bare page whose module worker boots the same
Pyodide core (the npm package's own files, python_stdlib.zip with sources)
and runs `1 + 1`. The gin page counts until `window.ginReady` resolves: the
engine booted in its worker, a match on screen and playable.

Rounds alternate bare, gin, bare, gin ... in one run; each round is, per page:
  first visit    a new browser context (empty HTTP cache, no service worker)
  first reload   the same page reloaded (gin: once the service worker has
                 installed the build and cached the snapshot in the background)
  repeat visit   a new tab in the same profile, three times; the third counts
                 (steady: every cache, Chrome's WebAssembly code cache included)
  offline        gin only: a repeat visit with the network off
Each is shown as median and range (ms since navigation start), and as the
ratio of the gin median to the bare median of the same kind. Bytes are counted
at the server (bodies as sent, compressed): before the page was playable, and
in all (gin: the service worker's precache and snapshot included).

A second part compares gin's normal boot (first visits) with the compiled
bytecode (python_stdlib.pyc.zip, gin's .pyc) against a build without it
(GIN_BYTECODE=0), to show what the compiled files save.

Targets (issue 11): repeat <= 0.25x bare repeat; first visit <= 0.6x bare
first; bytes before the first visit is playable <= bare + 2.5 MB.
Run with `python3 build.py bench`. BENCH_ROUNDS sets the rounds (default 5);
BENCH_BYTECODE=0 skips the second part.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TARGET_REPEAT = 0.25
TARGET_FIRST = 0.6
TARGET_EXTRA_BYTES = 2.5e6
REPEATS = 3

BARE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare Pyodide</title>
<script type="module" src="bare.js"></script></head><body>bare Pyodide</body></html>
"""
BARE_JS = """const worker = new Worker(new URL("bare-worker.js", import.meta.url), { type: "module" });
worker.onmessage = () => { window.bareReady = performance.now(); };
"""
BARE_WORKER = """import { loadPyodide } from "./pyodide/pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
pyodide.runPython("1 + 1");
postMessage("ready");
"""
GIN_READY = "() => window.__v || (window.ginReady && window.ginReady.then(v => { window.__v = v; }), null)"
BARE_READY = "() => window.bareReady ? { at: window.bareReady } : null"


def load_build_module():
    spec = importlib.util.spec_from_file_location("gin_build_script", ROOT / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_site(build, dist: Path, into: Path) -> Path:
    """dist/ plus the bare page and the npm package's core files (with the
    same precompressed siblings the build makes) under bench/."""
    shutil.copytree(dist, into)
    bench = into / "bench"
    (bench / "pyodide").mkdir(parents=True)
    (bench / "bare.html").write_text(BARE_HTML)
    (bench / "bare.js").write_text(BARE_JS)
    (bench / "bare-worker.js").write_text(BARE_WORKER)
    pkg = ROOT / "web" / "node_modules" / "pyodide"
    for name in build.PYODIDE_CORE:
        data = (pkg / name).read_bytes()
        (bench / "pyodide" / name).write_bytes(data)
        if name.endswith(build.COMPRESSIBLE):
            (bench / "pyodide" / (name + ".gz")).write_bytes(build.gzip_cached(data))
    return into


class Meter:
    """Bytes of response bodies the server sent, with when."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sent: list[tuple[float, str, int]] = []

    def add(self, path: str, n: int) -> None:
        with self.lock:
            self.sent.append((time.monotonic(), path, n))

    def since(self, start: float, until: float | None = None) -> int:
        with self.lock:
            return sum(n for t, _, n in self.sent if t >= start and (until is None or t <= until))


def bench_server(build, site: Path, meter: Meter):
    class Handler(build.Handler):
        quiet = True

        def copyfile(self, source, outputfile):  # noqa: D102
            while chunk := source.read(1 << 16):
                outputfile.write(chunk)
                meter.add(self.path, len(chunk))

    def factory(*args, **kw):
        return Handler(*args, directory=str(site), **kw)

    server = build.Server(("127.0.0.1", 0), factory)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def wait_value(page, expression: str, timeout_ms: int = 180_000):
    return page.wait_for_function(expression, timeout=timeout_ms, polling=20).json_value()


def wait_snapshot(page, name: str) -> None:
    page.evaluate(
        """async (name) => {
             await navigator.serviceWorker.ready;
             while (!navigator.serviceWorker.controller) await new Promise(r => setTimeout(r, 20));
             for (let i = 0; i < 3000; i++) {
               for (const key of await caches.keys()) {
                 const cache = await caches.open(key);
                 if ((await cache.keys()).some(r => r.url.endsWith("/snapshot/" + name))) return;
               }
               await new Promise(r => setTimeout(r, 50));
             }
           }""",
        name,
    )


def visit(context, url: str, ready: str, meter: Meter, page=None):
    """Open (or reload) a page; returns (page, ms to ready, bytes before ready, ready value)."""
    start = time.monotonic()
    if page is None:
        page = context.new_page()
        page.goto(url)
    else:
        page.reload()
    value = wait_value(page, ready)
    return page, value["at"], meter.since(start, time.monotonic()), value


def round_of(browser, url: str, meter: Meter, kind: str, snapshot: str) -> dict:
    gin = kind == "gin"
    target = url if gin else url + "bench/bare.html"
    ready = GIN_READY if gin else BARE_READY
    out: dict = {"paths": {}}
    context = browser.new_context()
    try:
        start = time.monotonic()
        page, out["first"], out["first_bytes"], value = visit(context, target, ready, meter)
        out["paths"]["first"] = value.get("timings", {}).get("boot", "-")
        if gin:
            wait_snapshot(page, snapshot)
        time.sleep(0.5)
        out["first_total_bytes"] = meter.since(start)
        page, out["reload"], _, value = visit(context, target, ready, meter, page)
        out["paths"]["reload"] = value.get("timings", {}).get("boot", "-")
        for _ in range(REPEATS):
            page.close()
            page, out["repeat"], out["repeat_bytes"], value = visit(context, target, ready, meter)
        out["paths"]["repeat"] = value.get("timings", {}).get("boot", "-")
        if gin:
            page.close()
            context.set_offline(True)
            page, out["offline"], _, value = visit(context, target, ready, meter)
            out["paths"]["offline"] = value.get("timings", {}).get("boot", "-")
    finally:
        context.close()
    return out


def first_visit(browser, url: str) -> tuple[float, str]:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        value = wait_value(page, GIN_READY)
        return value["at"], value["timings"].get("boot", "-")
    finally:
        context.close()


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):7.0f}  [{min(values):.0f}-{max(values):.0f}]"


def main() -> int:
    from playwright.sync_api import sync_playwright

    if not (DIST / "manifest.json").exists():
        print("dist/ is not built: run `python3 build.py bench`", file=sys.stderr)
        return 1
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if not chromium:
        print("no Chromium: run through `python3 build.py bench` or set CHROMIUM", file=sys.stderr)
        return 1
    build = load_build_module()
    manifest = json.loads((DIST / "manifest.json").read_text())
    snapshot = Path(manifest["snapshot"]["url"]).name
    meter = Meter()
    results: dict[str, list[dict]] = {"bare": [], "gin": []}
    plain_results: dict[str, list] = {"compiled": [], "source": []}
    with tempfile.TemporaryDirectory() as tmp:
        site = make_site(build, DIST, Path(tmp) / "site")
        server, url = bench_server(build, site, meter)
        servers = [server]
        plain_url = None
        if os.environ.get("BENCH_BYTECODE", "1") != "0":
            plain = Path(tmp) / "plain"
            env = {**os.environ, "GIN_DIST": str(plain), "GIN_BYTECODE": "0"}
            subprocess.run([sys.executable, str(ROOT / "build.py"), "build"], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
            plain_server, plain_url = bench_server(build, plain, Meter())
            servers.append(plain_server)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
                # One throwaway round so disk caches and the browser itself are
                # warm for both pages alike.
                round_of(browser, url, meter, "bare", snapshot)
                round_of(browser, url, meter, "gin", snapshot)
                for i in range(ROUNDS):
                    for kind in (("bare", "gin") if i % 2 == 0 else ("gin", "bare")):
                        results[kind].append(round_of(browser, url, meter, kind, snapshot))
                if plain_url:
                    for i in range(ROUNDS):
                        for kind in (("compiled", "source") if i % 2 == 0 else ("source", "compiled")):
                            plain_results[kind].append(first_visit(browser, url if kind == "compiled" else plain_url))
                browser.close()
        finally:
            for srv in servers:
                srv.shutdown()
                srv.server_close()

    def verdict(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    bare, gin = results["bare"], results["gin"]
    print(f"time to playable, ms since navigation start: median [range] of {ROUNDS} alternating rounds")
    print(f"  {'visit':<14} {'bare Pyodide':>22} {'gin':>22}   gin/bare   boot paths (gin)")
    for key, label in (("first", "first visit"), ("reload", "first reload"), ("repeat", "repeat (steady)")):
        b = [r[key] for r in bare]
        g = [r[key] for r in gin]
        ratio = statistics.median(g) / statistics.median(b)
        paths = dict(Counter(r["paths"][key] for r in gin))
        print(f"  {label:<14} {spread(b):>22} {spread(g):>22}   {ratio:6.2f}x   {paths}")
    off = [r["offline"] for r in gin]
    print(f"  {'offline':<14} {'':>22} {spread(off):>22}            {dict(Counter(r['paths']['offline'] for r in gin))}")
    first_ratio = statistics.median(r["first"] for r in gin) / statistics.median(r["first"] for r in bare)
    repeat_ratio = statistics.median(r["repeat"] for r in gin) / statistics.median(r["repeat"] for r in bare)
    print(f"  repeat visit: {repeat_ratio:.2f}x bare repeat, target <= {TARGET_REPEAT}  {verdict(repeat_ratio <= TARGET_REPEAT)}")
    print(f"  first visit : {first_ratio:.2f}x bare first, target <= {TARGET_FIRST}  {verdict(first_ratio <= TARGET_FIRST)}")
    offline_paths = {r["paths"]["offline"] for r in gin}
    print(f"  offline visits boot from the snapshot: {verdict(offline_paths == {'snapshot'})} {sorted(offline_paths)}")

    print("bytes sent by the server (bodies, as compressed on the wire), median:")
    bb = statistics.median(r["first_bytes"] for r in bare)
    gb = statistics.median(r["first_bytes"] for r in gin)
    print(f"  first visit, before playable: bare {bb / 1e6:6.2f} MB   gin {gb / 1e6:6.2f} MB   "
          f"(+{(gb - bb) / 1e6:.2f} MB, target <= +{TARGET_EXTRA_BYTES / 1e6:.1f})  {verdict(gb - bb <= TARGET_EXTRA_BYTES)}")
    bt = statistics.median(r["first_total_bytes"] for r in bare)
    gt = statistics.median(r["first_total_bytes"] for r in gin)
    print(f"  first visit, in all         : bare {bt / 1e6:6.2f} MB   gin {gt / 1e6:6.2f} MB   (gin: precache + snapshot)")
    br = statistics.median(r["repeat_bytes"] for r in bare)
    gr = statistics.median(r["repeat_bytes"] for r in gin)
    print(f"  repeat visit                : bare {br / 1e6:6.2f} MB   gin {gr / 1e6:6.2f} MB")
    sizes = manifest.get("gzip_sizes", {})
    print(f"  snapshot: {manifest['snapshot']['size'] / 1e6:.2f} MB gzip ({manifest['snapshot']['raw_size'] / 1e6:.1f} MB raw); "
          f"wasm {sizes.get('pyodide/pyodide.asm.wasm', 0) / 1e6:.2f} MB gzip")

    if plain_results["compiled"]:
        c = [t for t, _ in plain_results["compiled"]]
        s = [t for t, _ in plain_results["source"]]
        print("normal boot (first visits), compiled bytecode against sources:")
        print(f"  with python_stdlib.pyc.zip + gin .pyc: {spread(c)}")
        print(f"  with python_stdlib.zip (sources)     : {spread(s)}")
        print(f"  compiled/source: {statistics.median(c) / statistics.median(s):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
