"""Time-to-ready of the gin page against a bare Pyodide page, cold and warm, in headless Chromium.

Both pages are served from the same dist/ by build.py's server. The bare page
only loads the same self-hosted Pyodide (main thread, `loadPyodide` + `1 + 1`).
Our page counts until `window.ginReady` resolves: Pyodide booted in the worker,
micropip and the gin wheel installed, gin.bridge imported, a match on screen.

  cold: a new browser context (empty HTTP cache, no service worker)
  warm: the same context reloaded once the service worker has precached the build
        (first reload; "steady" is the third reload, once Chrome's WebAssembly code
        cache, which it fills from a module it has already run, serves too)

Targets: cold <= 1.2x bare cold; warm <= 0.8x bare cold; our files add <= 300 KB
to Pyodide's core. Run with `python3 build.py bench` (it builds and finds Chromium).
Set BENCH_ROUNDS to change the number of rounds (default 5).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import statistics
import sys
import threading
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
TARGET_COLD = 1.2
TARGET_WARM = 0.8
TARGET_BYTES = 300 * 1024

BARE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare Pyodide</title>
<script type="module" src="bare.js"></script></head><body>bare Pyodide</body></html>
"""
BARE_JS = """import { loadPyodide } from "../pyodide/pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: new URL("../pyodide/", location.href).href });
pyodide.runPython("1 + 1");
window.bareReady = performance.now();
"""


def load_build_module():
    spec = importlib.util.spec_from_file_location("gin_build_script", ROOT / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench_server(build):
    """build.py's server for dist/, plus the bare page under /bench/ (kept in
    memory: dist/ belongs to the build, which removes files it did not make)."""
    extra = {"/bench/bare.html": (BARE_HTML, "text/html; charset=utf-8"), "/bench/bare.js": (BARE_JS, "text/javascript")}

    class Handler(build.Handler):
        quiet = True

        def do_GET(self):  # noqa: N802
            page = extra.get(self.path.split("?")[0])
            if page is None:
                return super().do_GET()
            body = page[0].encode()
            self.send_response(200)
            self.send_header("Content-Type", page[1])
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return None

    def factory(*args, **kw):
        return Handler(*args, directory=str(DIST), **kw)

    return build.Server(("127.0.0.1", 0), factory)


def wait_value(page, expression: str, timeout_ms: int = 120_000):
    handle = page.wait_for_function(expression, timeout=timeout_ms, polling=20)
    return handle.json_value()


def bare_cold(browser, url: str) -> float:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url + "bench/bare.html")
        return wait_value(page, "() => window.bareReady")
    finally:
        context.close()


def gin_cold_and_warm(browser, url: str) -> tuple[float, float, float, dict]:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        script = "() => window.__v || (window.ginReady && window.ginReady.then(v => { window.__v = v; }), null)"
        cold = wait_value(page, script)
        page.evaluate(
            """async () => {
                 await navigator.serviceWorker.ready;
                 while (!navigator.serviceWorker.controller) await new Promise(r => setTimeout(r, 20));
               }"""
        )
        page.reload()
        warm = wait_value(page, script)
        for _ in range(3):
            page.reload()
            steady = wait_value(page, script)
        timings = {"cold": cold.get("timings", {}), "warm": warm.get("timings", {}), "steady": steady.get("timings", {})}
        return cold["at"], warm["at"], steady["at"], timings
    finally:
        context.close()


def sizes() -> tuple[int, int, dict[str, int]]:
    manifest = json.loads((DIST / "manifest.json").read_text())
    core = {k: v for k, v in manifest["sizes"].items() if k.startswith("pyodide/")}
    ours = {k: v for k, v in manifest["sizes"].items() if not k.startswith("pyodide/")}
    for extra in ("sw.js", "manifest.json"):
        ours[extra] = (DIST / extra).stat().st_size
    return sum(core.values()), sum(ours.values()), ours


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
    server = bench_server(build)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    bare, cold, warm, steady = [], [], [], []
    stages = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            # One throwaway round so disk caches and the browser itself are warm
            # for both pages alike.
            bare_cold(browser, url)
            gin_cold_and_warm(browser, url)
            for _ in range(ROUNDS):
                bare.append(bare_cold(browser, url))
                c, w, st, timings = gin_cold_and_warm(browser, url)
                cold.append(c)
                warm.append(w)
                steady.append(st)
                stages.append(timings)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()

    b, c, w = statistics.median(bare), statistics.median(cold), statistics.median(warm)
    st = statistics.median(steady)
    core_bytes, our_bytes, ours = sizes()

    def verdict(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    print(f"time to ready, median of {ROUNDS} rounds (ms since navigation start):")
    print(f"  bare Pyodide page, cold : {b:7.0f}   runs {[round(x) for x in bare]}")
    print(f"  gin page, cold          : {c:7.0f}   runs {[round(x) for x in cold]}")
    print(f"  gin page, warm (SW)     : {w:7.0f}   runs {[round(x) for x in warm]}")
    print(f"  gin page, warm, steady  : {st:7.0f}   runs {[round(x) for x in steady]}")
    print(f"  cold ratio gin/bare     : {c / b:7.2f}   target <= {TARGET_COLD}  {verdict(c / b <= TARGET_COLD)}")
    print(f"  warm ratio gin/bare cold: {w / b:7.2f}   target <= {TARGET_WARM}  {verdict(w / b <= TARGET_WARM)}")
    print(f"  steady warm / bare cold : {st / b:7.2f}   target <= {TARGET_WARM}  {verdict(st / b <= TARGET_WARM)}")
    if stages:
        print(f"  worker stages, last round (ms since the worker started): {stages[-1]}")
    print("size (bytes, uncompressed):")
    print(f"  Pyodide core            : {core_bytes:9d}")
    print(f"  gin's own files         : {our_bytes:9d}   target <= {TARGET_BYTES}  {verdict(our_bytes <= TARGET_BYTES)}")
    for name, size in sorted(ours.items(), key=lambda kv: -kv[1]):
        print(f"    {name:<40} {size:8d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
