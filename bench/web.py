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

A second part compares gin's normal boot (first visits, the snapshot's
request refused) with the compiled
bytecode (python_stdlib.pyc.zip, gin's .pyc) against a build without it
(GIN_BYTECODE=0), to show what the compiled files save.

Targets (issue 11): repeat <= 0.25x bare repeat; first visit <= 0.6x bare
first; bytes before the first visit is playable <= bare + 2.5 MB.
A third part ("review", alone with `python3 bench/web.py review`) times
Difícil's review of a finished match in the viewer with 1, 2 and 3 engine
workers (the page's own and 0-2 extra ones, chosen by the viewer from
navigator.hardwareConcurrency, which the bench sets per tab, deviceMemory
set to 8 GB): from the click
on the match in "Partidas" to the review shown, for a 53-deal and a 42-deal
match, alternating the worker counts in each round; as the median and as the
ratio to the one-worker median of the same run (the machine may be shared).
It also times an extra engine's boot from the cached snapshot and the memory
the extra workers add (proportional set size of the browser's renderer
processes, peak while three engines review against the page at rest).

The same rounds are then run on a phone-class CPU (bench/throttle.py: the
browser's processes, page and worker alike, in a CPU cgroup with a quarter of
one core), first visit and repeat only, beside the unthrottled figures. For
each kind of visit of gin the page's own timings (ms since the worker started:
loader, wasm, snapshot_read, runtime, installer, engine; page_*: ms since
navigation) show where the time goes.

Run with `python3 build.py bench`. BENCH_ROUNDS sets the rounds (default 7);
BENCH_THROTTLED_ROUNDS the throttled ones (default BENCH_ROUNDS; 0 skips
them); BENCH_BYTECODE=0 skips the second part; BENCH_REVIEW_ROUNDS the
third's rounds (default 3; 0 skips it); BENCH_DIST benches another build's
dist/ (an older commit's, for before/after figures).
"""

from __future__ import annotations

import gzip
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
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
DIST = Path(os.environ.get("BENCH_DIST", ROOT / "dist")).resolve()
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "7"))
THROTTLED_ROUNDS = int(os.environ.get("BENCH_THROTTLED_ROUNDS", str(ROUNDS)))
# In the browser's command line, so bench/throttle.py finds its processes.
THROTTLE_MARKER = "--gin-bench-browser"
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
    sys.path.insert(0, str(ROOT))
    from tools import dist, serve

    return SimpleNamespace(Handler=serve.Handler, Server=serve.Server, PYODIDE_CORE=dist.PYODIDE_CORE,
                           COMPRESSIBLE=dist.COMPRESSIBLE, gzip_cached=dist.gzip_cached)


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
                 // kept decoded (name without .gz), or as served by an older build
                 if ((await cache.keys()).some(r => r.url.endsWith("/snapshot/" + name) || r.url.endsWith("/snapshot/" + name.replace(/\.gz$/, "")))) return;
               }
               await new Promise(r => setTimeout(r, 50));
             }
           }""",
        name,
    )


def visit(context, url: str, ready: str, meter: Meter, page=None):
    """Open (or reload) a page; returns (page, ms to ready, bytes before ready, ready value).
    Bytes count until the page's own ready moment (its time origin plus the
    ready time, on the same wall clock as the server's), not until the bench
    saw it: what is fetched once the page is playable is not before it."""
    start = time.time()
    if page is None:
        page = context.new_page()
        page.console_lines = []
        page.on("console", lambda msg: page.console_lines.append(f"{msg.type}: {msg.text}"))
        page.goto(url)
    else:
        page.reload()
    try:
        value = wait_value(page, ready)
    except Exception:
        # Say where a boot that never became playable stopped.
        try:
            state = page.evaluate("() => JSON.stringify({boot: window.ginApp && window.ginApp.state && window.ginApp.state.boot, "
                                  "app: document.getElementById('app') && document.getElementById('app').dataset})")
        except Exception as exc:  # noqa: BLE001
            state = f"(page unreadable: {exc})"
        print(f"  [not playable: {url}: {state}; console: {getattr(page, 'console_lines', [])[-20:]}; "
              f"requests since: {sorted(meter.files(start))}]", file=sys.stderr, flush=True)
        raise
    until = (page.evaluate("performance.timeOrigin") + value["at"]) / 1000
    value["files_before_ready"] = meter.files(start, until)
    return page, value["at"], meter.since(start, until), value


def round_of(browser, url: str, meter: Meter, kind: str, snapshot: str, short: bool = False) -> dict:
    """One round of visits of one page; `short`: first visit and repeat only."""
    gin = kind == "gin"
    target = url if gin else url + "bench/bare.html"
    ready = GIN_READY if gin else BARE_READY
    out: dict = {"paths": {}, "timings": {}}

    def note(key: str, value: dict) -> None:
        timings = value.get("timings", {})
        out["paths"][key] = timings.get("boot", "-")
        out["timings"][key] = {**timings, "page_ready": value["at"]}

    context = browser.new_context()
    began = time.monotonic()
    try:
        start = time.time()
        page, out["first"], out["first_bytes"], value = visit(context, target, ready, meter)
        out["first_files"] = value["files_before_ready"]
        note("first", value)
        if gin:
            wait_snapshot(page, snapshot)
        time.sleep(0.5)
        out["first_total_bytes"] = meter.since(start)
        if not short:
            page, out["reload"], _, value = visit(context, target, ready, meter, page)
            note("reload", value)
        for _ in range(REPEATS):
            page.close()
            page, out["repeat"], out["repeat_bytes"], value = visit(context, target, ready, meter)
        note("repeat", value)
        if gin and not short:
            page.close()
            context.set_offline(True)
            page, out["offline"], _, value = visit(context, target, ready, meter)
            note("offline", value)
    finally:
        context.close()
    print(f"  [{kind}{' short' if short else ''} round: first {out['first']:.0f} ms, repeat {out.get('repeat', 0):.0f} ms, "
          f"{time.monotonic() - began:.0f} s]", file=sys.stderr, flush=True)
    return out


def first_visit(browser, url: str) -> tuple[float, str]:
    """A first visit that boots the normal way (the snapshot's request
    refused), to time what the compiled bytecode saves there."""
    context = browser.new_context()
    try:
        page = context.new_page()
        context.route("**/snapshot/**", lambda route: route.abort())
        page.goto(url)
        value = wait_value(page, GIN_READY)
        return value["at"], value["timings"].get("boot", "-")
    finally:
        context.close()


# ---------------------------------------------------------------- the review

REVIEW_ROUNDS = int(os.environ.get("BENCH_REVIEW_ROUNDS", "3"))
REVIEW_WORKERS = (1, 2, 3)
# (seed, custom target): finished matches of normal against normal, 53 and 42 deals.
REVIEW_MATCHES = (("REVIEW-LONG", 500), ("REVIEW-40-1", 500))
FINISHED_KEY = "gin.finished.v1"


def review_saves() -> list[tuple[dict, int]]:
    sys.path.insert(0, str(ROOT))
    import gin
    import gin.arena
    from gin.rules import Rules

    saves = []
    for seed, target in REVIEW_MATCHES:
        rules = Rules.profile("custom", target=target)
        st = gin.arena.play_match("normal", "normal", seed, a_seat=0, rules=rules, keep_actions=True)
        m = gin.Match.new(seed=seed, rules=rules)
        m.meta["level"] = "normal"
        for action in st.actions:
            m.apply(action)
        assert m.over
        saves.append((m.to_save(), len(m.results)))
    return saves


def renderer_pids(exclude: set[int] = frozenset()) -> set[int]:
    pids = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) in exclude:
            continue
        try:
            cmd = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if b"--type=renderer" in cmd:
            pids.add(int(proc.name))
    return pids


def pss_mb(pids: set[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def open_with_cores(context, url: str, cores: int):
    page = context.new_page()
    page.add_init_script("Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', {get: () => %d});"
                         "Object.defineProperty(Navigator.prototype, 'deviceMemory', {get: () => 8});" % cores)
    page.goto(url + "#seed=BENCH-0001")
    wait_value(page, GIN_READY)
    page.evaluate("window.ginApp.idle()")
    return page


def review_once(context, url: str, which: int, workers: int, others: set[int] | None = None) -> dict:
    """One review in a new tab whose navigator says `workers` cores: seconds, engines used and, given
    `others` (renderer processes not this browser's), the peak memory it adds to this browser's."""
    page = open_with_cores(context, url, workers)
    pids = renderer_pids(exclude=others) if others is not None else None
    try:
        page.get_by_role("button", name="Menú", exact=True).click()
        page.get_by_role("button", name="Partidas", exact=True).click()
        items = page.get_by_role("dialog", name="Partidas").get_by_role("listitem")
        rest = pss_mb(pids) if pids else 0.0
        peak = rest
        start = time.monotonic()
        items.nth(which).get_by_role("button").click()
        while not page.evaluate("() => document.querySelector('.panel.viewer')?.dataset.reviewed === 'true'"):
            if pids:
                peak = max(peak, pss_mb(pids))
            page.wait_for_timeout(20)
        took = time.monotonic() - start
        engines = int(page.evaluate("() => document.querySelector('.panel.viewer').dataset.reviewEngines"))
        left = 0.0
        if pids:
            page.wait_for_timeout(2000)  # the extra workers terminated, their memory returned
            left = pss_mb(pids) - rest
        return {"seconds": took, "engines": engines, "extra_mb": peak - rest, "left_mb": left}
    finally:
        page.close()


def extra_engine_boot(context, url: str) -> float:
    page = open_with_cores(context, url, 1)
    try:
        return page.evaluate(
            """() => new Promise((resolve, reject) => {
                 const t0 = performance.now();
                 const w = new Worker(new URL("worker.js", location.href), {type: "module", name: "gin-review"});
                 w.onmessage = (e) => {
                   if (e.data.type === "ready") { w.terminate(); resolve(performance.now() - t0); }
                   if (e.data.type === "boot_error") { w.terminate(); reject(new Error(e.data.code)); }
                 };
               })"""
        )
    finally:
        page.close()


def review_bench(browser, url: str, snapshot: str, others: set[int]) -> None:
    matches = review_saves()
    saves = [save for save, _ in matches]
    context = browser.new_context(locale="es-ES")
    try:
        page = context.new_page()
        page.goto(url)
        wait_value(page, GIN_READY)
        wait_snapshot(page, snapshot)  # extra engines boot only from it
        items = [{"at": 1_700_000_000_000 + i * 60_000, "save": s} for i, s in enumerate(saves)]
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [FINISHED_KEY, json.dumps(items)])
        page.close()
        boots = [extra_engine_boot(context, url) for _ in range(3)]
        # The list shows the newest first: the last save is item 0.
        order = {i: len(saves) - 1 - i for i in range(len(saves))}
        times: dict[tuple[int, int], list[float]] = {}
        used: dict[tuple[int, int], set[int]] = {}
        review_once(context, url, order[1], 1)  # warm-up
        for r in range(REVIEW_ROUNDS):
            for i in range(len(saves)):
                for workers in (REVIEW_WORKERS if r % 2 == 0 else REVIEW_WORKERS[::-1]):
                    out = review_once(context, url, order[i], workers)
                    times.setdefault((i, workers), []).append(out["seconds"])
                    used.setdefault((i, workers), set()).add(out["engines"])
        # Memory: the renderer processes of this browser (those that appeared
        # since it started), at rest and at the peak of a review by three engines.
        memory = review_once(context, url, order[0], 3, others=others)
    finally:
        context.close()
    print(f"Difícil's review in the viewer, seconds from the click to the review shown: median [range] of {REVIEW_ROUNDS} rounds")
    print(f"  an extra engine boots from the cached snapshot in {statistics.median(boots):.0f} ms (median of 3)")
    for i, (seed, _) in enumerate(REVIEW_MATCHES):
        n = matches[i][1]
        one = statistics.median(times[(i, 1)])
        cells = []
        for workers in REVIEW_WORKERS:
            t = times[(i, workers)]
            cells.append(f"{workers} worker{'s' if workers > 1 else ''}: {statistics.median(t):5.1f} s [{min(t):.1f}-{max(t):.1f}] "
                         f"{statistics.median(t) / one:.2f}x (engines used {sorted(used[(i, workers)])})")
        print(f"  {seed} ({n} deals)")
        for cell in cells:
            print(f"    {cell}")
    print(f"  memory: three engines reviewing add {memory['extra_mb']:.0f} MB PSS to the renderer at its peak "
          f"(two extra workers, about {memory['extra_mb'] / 2:.0f} MB each); {memory['left_mb']:+.0f} MB 2 s after it ended")


def bench_chromium() -> str | None:
    """The Chromium to bench with, once dist/ is built; None (and why, on stderr) otherwise."""
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if not (DIST / "manifest.json").exists() or not chromium:
        print("dist/ is not built or no Chromium: run `python3 build.py bench`", file=sys.stderr)
        return None
    return chromium


def review_main() -> int:
    from playwright.sync_api import sync_playwright

    chromium = bench_chromium()
    if not chromium:
        return 1
    build = load_build_module()
    manifest = json.loads((DIST / "manifest.json").read_text())
    server, url = bench_server(build, DIST, Meter())
    try:
        with sync_playwright() as pw:
            others = renderer_pids()  # other browsers' (the machine may be shared)
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            review_bench(browser, url, Path(manifest["snapshot"]["url"]).name, others)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return 0


# ------------------------------------------------ smoothness on a phone-class CPU (issue 20)

SMOOTH_MOVES = int(os.environ.get("BENCH_SMOOTH_MOVES", "32"))  # the player's draws and discards
SMOOTH_RATE = 4  # CPU throttling: a phone-class CPU
LOAF_MS = 50  # a long animation frame (the Long Animation Frames API's own threshold)
GAP_TARGET_MS = 100
# Before the page's own scripts: long animation frames, every frame's time, the inputs, the
# times the computer's move line changes; and a way to make the engine's worker k times
# slower (each reply held back k - 1 times what it took), for a browser that cannot throttle
# a worker itself (Chromium refuses Emulation.setCPUThrottlingRate on worker targets).
SMOOTH_PROBE = r"""(() => {
  const w = window.__smooth = { loaf: [], frames: [], inputs: [], computer: [] };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.loaf.push({ start: e.startTime, duration: e.duration, blocking: e.blockingDuration,
        render: e.renderStart ? e.startTime + e.duration - e.renderStart : 0,
        style: e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0,
        scripts: (e.scripts || []).map(s => ({ what: `${s.invoker} ${s.sourceFunctionName || ''} ${(s.sourceURL || '').split('/').pop()}:${s.sourceCharPosition}`.trim(), ms: Math.round(s.duration), forced: Math.round(s.forcedStyleAndLayoutDuration || 0) })) });
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch (e) { w.noLoaf = String(e); }
  const tick = (t) => { w.frames.push(t); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  document.addEventListener('pointerdown', (e) => w.inputs.push(e.timeStamp), true);
  // The first change of the page after each input: the frame after it shows the move.
  w.changed = [];
  new MutationObserver(() => {
    if (w.inputs.length && w.changed.length < w.inputs.length) {
      while (w.changed.length < w.inputs.length - 1) w.changed.push(null);
      w.changed.push(performance.now());
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  let last = '';
  new MutationObserver(() => {
    const line = document.querySelector('.opp-last');
    const text = line ? line.textContent.trim() : '';
    if (text && text !== last) w.computer.push(performance.now());
    last = text;
  }).observe(document, { subtree: true, childList: true, characterData: true });
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      const sent = new Map();
      const post = this.postMessage.bind(this);
      this.postMessage = (message, ...rest) => {
        if (message && message.id !== undefined) sent.set(message.id, performance.now());
        return post(message, ...rest);
      };
      this.addEventListener('message', (event) => {
        const factor = window.__slowEngine || 1;
        const id = event.data && event.data.id;
        if (event.__late || !sent.has(id)) return;
        const took = performance.now() - sent.get(id);
        sent.delete(id);
        if (factor <= 1) return;
        event.stopImmediatePropagation();
        setTimeout(() => {
          const again = new MessageEvent('message', { data: event.data });
          again.__late = true;
          this.dispatchEvent(again);
        }, took * (factor - 1));
      });
    }
  };
})();"""
# A card in flight carries data-flying for exactly its flight (motion.js, tested
# in test_table_motion). The bench asks that, not document.getAnimations():
# that call brings the page's style up to date, and asked at every frame it
# put its own 2 ms (x4) into each frame it measured.
SETTLED = """() => { const v = window.ginApp && window.ginApp.view, ui = window.ginApp && window.ginApp.ui;
  if (!v || document.getElementById('app').dataset.busy !== 'false') return null;
  if (!ui.panel && !v.over && v.to_act !== 0) return null;
  if (document.querySelector('[data-flying]')) return null;
  return { phase: v.phase, panel: ui.panel, over: v.over, hand: v.hand.length, now: performance.now() }; }"""


def throttle(browser, page, cdp, rate: int) -> str:
    """CPU throttling on the page; on the engine's worker target too where the browser allows it,
    else the probe's slower replies. Says which."""
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    session = browser.new_browser_cdp_session()
    answers = []
    session.on("Target.receivedMessageFromTarget", lambda e: answers.append(json.loads(e["message"])))
    workers = [t for t in session.send("Target.getTargets")["targetInfos"] if t["type"] == "worker"]
    how = "no worker target"
    for target in workers:
        sid = session.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": False})["sessionId"]
        message = {"id": 1, "method": "Emulation.setCPUThrottlingRate", "params": {"rate": rate}}
        session.send("Target.sendMessageToTarget", {"sessionId": sid, "message": json.dumps(message)})
        page.wait_for_timeout(300)
        reply = next((a for a in answers if a.get("id") == 1), None)
        if reply and "error" not in reply:
            how = f"worker throttled x{rate} by CDP"
        else:
            error = (reply or {}).get("error", {}).get("message", "no answer")
            page.evaluate("(k) => { window.__slowEngine = k; }", rate)
            how = f"worker replies held back to x{rate} (CDP on the worker: {error})"
    return how


def smooth_run(browser, url: str) -> dict:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="es-ES")
    ctx.add_init_script(
        "try { if (!localStorage.getItem('gin.settings.v1')) localStorage.setItem('gin.settings.v1', "
        "JSON.stringify({speed: 'normal', level: 'normal', sort: 'melds'})); } catch (e) {}"
    )
    ctx.add_init_script(SMOOTH_PROBE)
    page = ctx.new_page()
    page.emulate_media(reduced_motion="no-preference")
    page.goto(url + "#seed=SMOO-0001")
    wait_value(page, GIN_READY)
    cdp = ctx.new_cdp_session(page)
    how = throttle(browser, page, cdp, SMOOTH_RATE)

    def touch(kind, x=None, y=None):
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def tap_at(x, y):
        touch("touchStart", x, y)
        touch("touchEnd")

    def tap(selector, dx=None):
        box = page.locator(selector).first.bounding_box()
        tap_at(box["x"] + (dx if dx is not None else box["width"] / 2), box["y"] + box["height"] / 2)

    def settled(timeout_ms=60_000):
        return wait_value(page, SETTLED, timeout_ms)

    moves = []  # {kind, start, end}
    turns_started = time.monotonic()
    while len([m for m in moves if m["kind"] != "computer"]) < SMOOTH_MOVES:
        assert time.monotonic() - turns_started < 900, "the smoothness run took too long"
        state = settled()
        if state["panel"] == "deal":
            tap('.panel.deal [data-intent="next"]')
            continue
        if state["panel"] == "match" or state["over"]:
            tap('.panel.match [data-intent="again"]')
            continue
        if state["phase"].startswith("upcard"):
            tap('.actions [data-intent="pass"]')
            continue
        computer_before = page.evaluate("window.__smooth.computer.length")
        if state["phase"] == "draw":
            tap(".pile.stock .pile-cards")
            kind = "draw"
        else:
            view = page.evaluate("window.ginApp.view")
            dd = view["discard_deadwood"]
            card = min((a["card"] for a in view["legal"] if a["type"] == "discard"), key=lambda c: (dd.get(c, 99), c))
            selector = f'.hand [data-card="{card}"]'
            tap(selector, dx=10)
            page.wait_for_timeout(150)
            tap(selector, dx=10)
            kind = "discard"
        start = page.evaluate("window.__smooth.inputs.at(-1)")
        index = page.evaluate("window.__smooth.inputs.length - 1")
        # The move's own motion: until nothing moves (a discard: before the computer's first move).
        end = page.evaluate(
            """([k, n]) => new Promise(resolve => {
                 const done = () => {
                   const moving = !!document.querySelector('[data-flying]');
                   const s = window.__smooth;
                   if (k === 'discard' && s.computer.length > n) return resolve(s.computer[n]);
                   const changed = k === 'draw' ? window.ginApp.view.phase !== 'draw' : window.ginApp.view.to_act !== 0 || !!window.ginApp.ui.panel;
                   if (changed && !moving) return resolve(performance.now());
                   requestAnimationFrame(done);
                 };
                 requestAnimationFrame(done);
               })""",
            [kind, computer_before],
        )
        moves.append({"kind": kind, "start": start, "end": end, "input": index})
        if kind == "discard":
            settled()
            times = page.evaluate("window.__smooth.computer")[computer_before:]
            bound = page.evaluate("performance.now()")
            for i, t in enumerate(times):
                moves.append({"kind": "computer", "start": t, "end": min(times[i + 1] if i + 1 < len(times) else bound, t + 450)})
    probe = page.evaluate("window.__smooth")
    ctx.close()
    return {"how": how, "moves": moves, "probe": probe}


def smooth_figures(run: dict) -> dict:
    frames = run["probe"]["frames"]
    loaf = run["probe"]["loaf"]
    out = {}
    for move in run["moves"]:
        s, e = move["start"], move["end"]
        inside = [f for f in frames if s <= f <= e]
        after = next((f for f in frames if f > e), e)
        stamps = [s, *inside, after]
        gap = max(b - a for a, b in zip(stamps, stamps[1:]))
        long_frames = [f for f in loaf if f["start"] < e and f["start"] + f["duration"] > s and f["duration"] > LOAF_MS]
        changed = run["probe"]["changed"]
        shown = changed[move["input"]] if "input" in move and move["input"] < len(changed) else None
        first_frame = next((f for f in frames if f > (shown or s)), s)
        row = out.setdefault(move["kind"], {"loaf": [], "gap": [], "worst_loaf": [], "visible": []})
        row["loaf"].append(len(long_frames))
        row["worst_loaf"].append(max((f["duration"] for f in long_frames), default=0))
        row["gap"].append(gap)
        row["visible"].append(first_frame - s)
    return out


def smooth_bench(browser, url: str) -> bool:
    run = smooth_run(browser, url)
    figures = smooth_figures(run)
    print(f"smoothness at 390x844 (touch), CPU throttled x{SMOOTH_RATE} on the page; {run['how']}")
    if run["probe"].get("noLoaf"):
        print(f"  (no Long Animation Frames API: {run['probe']['noLoaf']})")
    print(f"  {'move':<10} {'n':>3} {'LoAF/move median [max]':>24} {'worst LoAF ms':>14} {'worst frame gap ms median [max]':>32}"
          f" {'input to visible ms':>24} {'moves with one':>14}")
    ok = True  # the goal (issue 20): over the player's draws and discards
    computer_ok = True
    for kind in ("draw", "discard", "computer"):
        row = figures.get(kind)
        if not row:
            continue
        n = len(row["loaf"])
        loaf_med = statistics.median(row["loaf"])
        gap_max = max(row["gap"])
        visible = f"{statistics.median(row['visible']):.0f} [{max(row['visible']):.0f}]" if kind != "computer" else "-"
        with_long = sum(1 for k in row["loaf"] if k)
        print(f"  {kind:<10} {n:>3} {loaf_med:>16.1f} [{max(row['loaf'])}] {max(row['worst_loaf']):>14.0f}"
              f" {statistics.median(row['gap']):>22.0f} [{gap_max:.0f}] {visible:>24} {with_long:>9}/{n}")
        if kind == "computer":
            computer_ok = loaf_med == 0 and gap_max <= GAP_TARGET_MS
        else:
            ok = ok and loaf_med == 0 and gap_max <= GAP_TARGET_MS
    worst = sorted(run["probe"]["loaf"], key=lambda f: -f["duration"])[:3]
    for f in worst:
        scripts = ", ".join(f"{x['what']} {x['ms']} ms (forced layout {x['forced']} ms)" for x in f["scripts"][:3]) or "no script"
        print(f"  a long frame: {f['duration']:.0f} ms (style and layout {f['style']:.0f} ms, rendering {f['render']:.0f} ms; {scripts})")
    print(f"  goal, the player's draws and discards: median 0 long animation frames per move and no frame gap over"
          f" {GAP_TARGET_MS} ms: {'met' if ok else 'NOT met'}; the computer's moves alike: {'yes' if computer_ok else 'no'}")
    return ok


def smooth_main() -> int:
    from playwright.sync_api import sync_playwright

    chromium = bench_chromium()
    if not chromium:
        return 1
    build = load_build_module()
    server, url = bench_server(build, DIST, Meter())
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            smooth_bench(browser, url)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return 0


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):7.0f}  [{min(values):.0f}-{max(values):.0f}]"


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def throttle_module():
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import throttle

    return throttle


def throttled_rounds(pw, chromium: str, url: str, meter: Meter, snapshot: str, into: dict[str, list[dict]]) -> None:
    """First visits and repeats, alternating, in a browser whose processes
    share a quarter of one core (bench/throttle.py)."""
    if THROTTLED_ROUNDS <= 0:
        return
    throttle = throttle_module().Throttle.start()
    if throttle is None:
        return
    browser = pw.chromium.launch(executable_path=chromium, args=[*CHROMIUM_ARGS, THROTTLE_MARKER])
    try:
        if not throttle.enter(THROTTLE_MARKER):
            return
        for i in range(THROTTLED_ROUNDS):
            for kind in (("bare", "gin") if i % 2 == 0 else ("gin", "bare")):
                throttle.enter(THROTTLE_MARKER)  # any process started since
                try:
                    into[kind].append(round_of(browser, url, meter, kind, snapshot, short=True))
                except Exception as exc:  # noqa: BLE001 - one lost round is reported, not the whole run
                    print(f"  [{kind} throttled round {i} lost: {str(exc).splitlines()[0]}]", file=sys.stderr, flush=True)
                    into.setdefault("lost", []).append(kind)
    finally:
        browser.close()
        throttle.stop()


# The page's own timings, in the order they happen (worker.js marks them in ms
# since the worker started; page_* are ms since navigation).
STAGES = ("page_worker_start", "page_worker_boot", "loader", "asm", "wasm_compiled", "snapshot_read", "wasm", "module", "runtime", "installer", "engine", "page_engine_ready", "page_ready")


def where_the_time_goes(rounds: list[dict], key: str) -> str:
    by_path: dict[str, list[dict]] = {}
    for r in rounds:
        t = r["timings"].get(key)
        if t:
            by_path.setdefault(f"{t.get('boot', '-')}" + (f" from {t['snapshot_source']}" if t.get("snapshot_source") else "")
                               + (f", fallback {t['snapshot_fallback']}" if t.get("snapshot_fallback") else ""), []).append(t)
    lines = []
    for path, ts in sorted(by_path.items(), key=lambda kv: -len(kv[1])):
        cells = []
        for stage in STAGES:
            values = [t[stage] for t in ts if isinstance(t.get(stage), (int, float))]
            if values:
                cells.append(f"{stage} {statistics.median(values):.0f}")
        lines.append(f"    {key:<7} {path} (x{len(ts)}): " + ", ".join(cells))
    return "\n".join(lines)


def report(label: str, results: dict[str, list[dict]], rounds: int, with_reload: bool = False) -> None:
    bare, gin = results["bare"], results["gin"]
    print(f"{label}: time to playable, ms since navigation start: median [range] of {rounds} alternating rounds")
    print(f"  {'visit':<14} {'bare Pyodide':>22} {'gin':>22}   gin/bare   boot paths (gin)")
    kinds = (("first", "first visit"), ("reload", "first reload"), ("repeat", "repeat (steady)"))
    for key, name in kinds if with_reload else (kinds[0], kinds[2]):
        b = [r[key] for r in bare]
        g = [r[key] for r in gin]
        ratio = statistics.median(g) / statistics.median(b)
        paths = dict(Counter(r["paths"][key] for r in gin))
        print(f"  {name:<14} {spread(b):>22} {spread(g):>22}   {ratio:6.2f}x   {paths}")
    if with_reload:
        off = [r["offline"] for r in gin]
        print(f"  {'offline':<14} {'':>22} {spread(off):>22}            {dict(Counter(r['paths']['offline'] for r in gin))}")
    first_ratio = statistics.median(r["first"] for r in gin) / statistics.median(r["first"] for r in bare)
    repeat_ratio = statistics.median(r["repeat"] for r in gin) / statistics.median(r["repeat"] for r in bare)
    print(f"  repeat visit: {repeat_ratio:.2f}x bare repeat, target <= {TARGET_REPEAT}  {verdict(repeat_ratio <= TARGET_REPEAT)}")
    print(f"  first visit : {first_ratio:.2f}x bare first, target <= {TARGET_FIRST}  {verdict(first_ratio <= TARGET_FIRST)}")
    if with_reload:
        offline_paths = {r["paths"]["offline"] for r in gin}
        print(f"  offline visits boot from the snapshot: {verdict(offline_paths == {'snapshot'})} {sorted(offline_paths)}")
    print("  where gin's time goes (the page's own timings, medians per boot path):")
    for key, _ in kinds if with_reload else (kinds[0], kinds[2]):
        print(where_the_time_goes(gin, key))
    print("  bytes sent by the server (bodies as on the wire: gzip where the build has a .gz sibling, zip/whl/snapshot as they are), median:")
    bb = statistics.median(r["first_bytes"] for r in bare)
    gb = statistics.median(r["first_bytes"] for r in gin)
    print(f"    first visit, before playable: bare {bb / 1e6:6.2f} MB   gin {gb / 1e6:6.2f} MB   "
          f"(+{(gb - bb) / 1e6:.2f} MB, target <= +{TARGET_EXTRA_BYTES / 1e6:.1f})  {verdict(gb - bb <= TARGET_EXTRA_BYTES)}")
    bt = statistics.median(r["first_total_bytes"] for r in bare)
    gt = statistics.median(r["first_total_bytes"] for r in gin)
    print(f"    first visit, in all         : bare {bt / 1e6:6.2f} MB   gin {gt / 1e6:6.2f} MB   (gin: precache + snapshot)")
    print("    first visit, before playable, by file (median bytes as sent; files of 10 kB or more):")
    for name, rounds in (("bare", bare), ("gin", gin)):
        paths = sorted({p for r in rounds for p in r.get("first_files", {})})
        sizes = {p: statistics.median(r.get("first_files", {}).get(p, 0) for r in rounds) for p in paths}
        small = sum(v for v in sizes.values() if v < 10_000)
        cells = [f"{p.lstrip('/')} {v / 1e6:.2f}" for p, v in sorted(sizes.items(), key=lambda kv: -kv[1]) if v >= 10_000]
        print(f"      {name}: " + ", ".join(cells) + f", {sum(1 for v in sizes.values() if v < 10_000)} smaller files {small / 1e6:.2f} MB")
    br = statistics.median(r["repeat_bytes"] for r in bare)
    gr = statistics.median(r["repeat_bytes"] for r in gin)
    print(f"    repeat visit                : bare {br / 1e6:6.2f} MB   gin {gr / 1e6:6.2f} MB")


def snapshot_encodings(manifest: dict) -> None:
    """What other encodings would put on the wire for the snapshot (sizes
    only: gzip is what every engine's DecompressionStream decodes)."""
    raw = gzip.decompress((DIST / manifest["snapshot"]["url"]).read_bytes())
    sizes = {"gzip -9 (shipped)": manifest["snapshot"]["size"], "gzip -6": len(gzip.compress(raw, 6, mtime=0))}
    zstd = shutil.which("zstd")
    if zstd:
        for level in ("-19",):
            sizes[f"zstd {level}"] = len(subprocess.run([zstd, "-q", "-c", level], input=raw, capture_output=True, check=True).stdout)
    try:
        import brotli  # not a dependency: measured only where it is installed

        sizes["brotli 11"] = len(brotli.compress(raw, quality=11))
    except ImportError:
        pass
    print("  snapshot on the wire by encoding: " + ", ".join(f"{k} {v / 1e6:.2f} MB" for k, v in sizes.items()))


def report_all(results: dict[str, list[dict]], throttled: dict[str, list[dict]], manifest: dict) -> None:
    if results["gin"]:
        report("unthrottled", results, len(results["gin"]), with_reload=True)
    if throttled["gin"]:
        report(f"CPU throttled (browser in a cgroup, {throttle_module().QUOTA_MS} ms per 100 ms of one core)", throttled, len(throttled["gin"]))
    elif THROTTLED_ROUNDS:
        print("CPU-throttled rounds not run: no writable CPU cgroup here (bench/throttle.py needs Linux and root)")
    sizes = manifest.get("gzip_sizes", {})
    print(f"  snapshot: {manifest['snapshot']['size'] / 1e6:.2f} MB gzip ({manifest['snapshot']['raw_size'] / 1e6:.1f} MB raw); "
          f"wasm {sizes.get('pyodide/pyodide.asm.wasm', 0) / 1e6:.2f} MB gzip")
    snapshot_encodings(manifest)


def report_main() -> int:
    """The rounds of several runs' BENCH_JSON files, reported together."""
    merged: dict[str, dict[str, list[dict]]] = {"results": {"bare": [], "gin": []}, "throttled": {"bare": [], "gin": []}}
    for name in sys.argv[2:]:
        data = json.loads(Path(name).read_text())
        for part in merged:
            for kind in merged[part]:
                merged[part][kind].extend(data[part][kind])
    report_all(merged["results"], merged["throttled"], json.loads((DIST / "manifest.json").read_text()))
    return 0


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
    throttled: dict[str, list[dict]] = {"bare": [], "gin": []}
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
                # warm for both pages alike (BENCH_ROUNDS=0: the throttled part only).
                if ROUNDS:
                    round_of(browser, url, meter, "bare", snapshot)
                    round_of(browser, url, meter, "gin", snapshot)
                for i in range(ROUNDS):
                    for kind in (("bare", "gin") if i % 2 == 0 else ("gin", "bare")):
                        results[kind].append(round_of(browser, url, meter, kind, snapshot))
                browser.close()
                throttled_rounds(pw, chromium, url, meter, snapshot, throttled)
                browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
                if plain_url:
                    for i in range(ROUNDS):
                        for kind in (("compiled", "source") if i % 2 == 0 else ("source", "compiled")):
                            plain_results[kind].append(first_visit(browser, url if kind == "compiled" else plain_url))
                browser.close()
        finally:
            for srv in servers:
                srv.shutdown()
                srv.server_close()

    if os.environ.get("BENCH_JSON"):
        # For runs split to stay short: `python3 bench/web.py report a.json b.json ...`
        # reports their rounds together.
        Path(os.environ["BENCH_JSON"]).write_text(json.dumps({"results": results, "throttled": throttled}))
    report_all(results, throttled, manifest)
    if plain_results["compiled"]:
        c = [t for t, _ in plain_results["compiled"]]
        s = [t for t, _ in plain_results["source"]]
        print("normal boot (first visits), compiled bytecode against sources:")
        print(f"  with python_stdlib.pyc.zip + gin .pyc: {spread(c)}")
        print(f"  with python_stdlib.zip (sources)     : {spread(s)}")
        print(f"  compiled/source: {statistics.median(c) / statistics.median(s):.2f}x")
    if REVIEW_ROUNDS > 0:
        return review_main()
    return 0


if __name__ == "__main__":
    COMMANDS = {"review": review_main, "smooth": smooth_main, "report": report_main}
    sys.exit(COMMANDS[sys.argv[1]]() if sys.argv[1:2] and sys.argv[1] in COMMANDS else main())
