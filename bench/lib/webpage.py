"""The page in headless Chromium, for the benchmarks that open it (boot, review, smooth).

dist/ (or BENCH_DIST: another build's, for before/after figures) served by the
build's own server (tools/serve.py: its headers, gzip when accepted) with a
meter of the bytes it sends; the Chromium of `build.py bench` (CHROMIUM); and
the waits every such bench needs (a value from the page, the snapshot cached
by the service worker).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tools import serve  # noqa: E402
from tools.testenv import CHROMIUM_ARGS  # noqa: E402,F401  (the benches' launch flags)

DIST = Path(os.environ.get("BENCH_DIST", ROOT / "dist")).resolve()
GIN_READY = "() => window.__v || (window.ginReady && window.ginReady.then(v => { window.__v = v; }), null)"


class Meter:
    """Bytes of response bodies the server sent, with when."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sent: list[tuple[float, str, int]] = []

    def add(self, path: str, n: int) -> None:
        with self.lock:
            self.sent.append((time.time(), path, n))

    def since(self, start: float, until: float | None = None) -> int:
        return sum(self.files(start, until).values())

    def files(self, start: float, until: float | None = None) -> dict[str, int]:
        """Bytes per path (query dropped) sent between the two wall-clock times."""
        out: Counter = Counter()
        with self.lock:
            for t, path, n in self.sent:
                if t >= start and (until is None or t <= until):
                    out[path.split("?")[0]] += n
        return dict(out)



@contextlib.contextmanager
def serving(site: Path = DIST, meter: Meter | None = None):
    """The build's server on a free port, in a thread, with `meter` counting
    every body it sends; yields its URL."""
    meter = meter or Meter()

    class Handler(serve.Handler):
        quiet = True

        def copyfile(self, source, outputfile):  # noqa: D102
            while chunk := source.read(1 << 16):
                outputfile.write(chunk)
                meter.add(self.path, len(chunk))

    def factory(*args, **kw):
        return Handler(*args, directory=str(site), **kw)

    server = serve.Server(("127.0.0.1", 0), factory)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def bench_chromium() -> str | None:
    """The Chromium to bench with, once dist/ is built; None (and why, on stderr) otherwise."""
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if not (DIST / "manifest.json").exists() or not chromium:
        print("dist/ is not built or no Chromium: run `python3 build.py bench`", file=sys.stderr)
        return None
    return chromium


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
                 // kept decoded (name without .gz), or as served by an older build
                 if ((await cache.keys()).some(r => r.url.endsWith("/snapshot/" + name) || r.url.endsWith("/snapshot/" + name.replace(/\.gz$/, "")))) return;
               }
               await new Promise(r => setTimeout(r, 50));
             }
           }""",
        name,
    )
