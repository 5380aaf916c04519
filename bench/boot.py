"""Time to playable and bytes moved: the gin page against a bare Pyodide module worker of the same files, in headless Chromium.

Both are served by the build's server (tools/serve.py, gzip when accepted)
from one directory: dist/ plus, under /bench/, a bare page whose module worker
boots the same Pyodide core (the npm package's own files, python_stdlib.zip
with sources) and runs `1 + 1`. The gin page counts until `window.ginReady`
resolves: the engine booted in its worker, a match on screen and playable.

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

Targets (issue 11): repeat <= 0.25x bare repeat; first visit <= 0.6x bare
first; bytes before the first visit is playable <= bare + 2.5 MB.
The same rounds are then run on a phone-class CPU (bench/lib/throttle.py: the
browser's processes, page and worker alike, in a CPU cgroup with a quarter of
one core), first visit and repeat only, beside the unthrottled figures. For
each kind of visit of gin the page's own timings (ms since the worker started:
loader, wasm, snapshot_read, runtime, installer, engine; page_*: ms since
navigation) show where the time goes.

A last part compares gin's normal boot (first visits, the snapshot's request
refused) with the compiled bytecode (python_stdlib.pyc.zip, gin's .pyc)
against a build without it (GIN_BYTECODE=0), to show what the compiled files
save.

Issue 33 adds the time to the player's hand on screen (`window.ginHand`:
every card of it landed, ms since navigation): on a repeat visit the saved
table drawn before the engine is up, on a first visit the first deal landed.
Its targets, printed as ratios against the bare boot of the same rounds:
repeat hand <= 0.10x bare repeat, and <= 1 s throttled; first-visit hand
<= 0.78x bare first (what main gave before issue 33, the deal included).

Run with `python3 build.py bench boot` (or `python3 bench/boot.py` once dist/
is built). BENCH_ROUNDS sets the rounds (default 7); BENCH_THROTTLED_ROUNDS
the throttled ones (default BENCH_ROUNDS; 0 skips them); BENCH_BYTECODE=0
skips the last part; BENCH_DIST benches another build's dist/ (an older
commit's, for before/after figures); BENCH_JSON=FILE keeps the rounds, and
`python3 bench/boot.py --report A.json B.json ...` reports several runs'
rounds together (runs split to stay short).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from lib import throttle
from lib.webpage import CHROMIUM_ARGS, DIST, GIN_READY, ROOT, Meter, bench_chromium, serving, wait_snapshot, wait_value
from tools.dist import COMPRESSIBLE, PYODIDE_CORE, gzip_cached

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "7"))
THROTTLED_ROUNDS = int(os.environ.get("BENCH_THROTTLED_ROUNDS", str(ROUNDS)))
# In the browser's command line, so bench/lib/throttle.py finds its processes.
THROTTLE_MARKER = "--gin-bench-browser"
TARGET_REPEAT = 0.25
TARGET_FIRST = 0.6
TARGET_EXTRA_BYTES = 2.5e6
# Issue 33: the player's hand on screen.
TARGET_HAND_REPEAT = 0.10  # x bare repeat
TARGET_HAND_REPEAT_THROTTLED_MS = 1000
TARGET_HAND_FIRST = 0.78  # x bare first
GIN_HAND = "() => window.__hand || (window.ginHand && window.ginHand.then(v => { window.__hand = v; }), null)"
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
BARE_READY = "() => window.bareReady ? { at: window.bareReady } : null"


def make_site(dist: Path, into: Path) -> Path:
    """dist/ plus the bare page and the npm package's core files (with the
    same precompressed siblings the build makes) under bench/."""
    shutil.copytree(dist, into)
    bench = into / "bench"
    (bench / "pyodide").mkdir(parents=True)
    (bench / "bare.html").write_text(BARE_HTML)
    (bench / "bare.js").write_text(BARE_JS)
    (bench / "bare-worker.js").write_text(BARE_WORKER)
    pkg = ROOT / "web" / "node_modules" / "pyodide"
    for name in PYODIDE_CORE:
        data = (pkg / name).read_bytes()
        (bench / "pyodide" / name).write_bytes(data)
        if name.endswith(COMPRESSIBLE):
            (bench / "pyodide" / (name + ".gz")).write_bytes(gzip_cached(data))
    return into


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
            out["first_hand"] = wait_value(page, GIN_HAND)
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
        if gin:
            out["repeat_hand"] = wait_value(page, GIN_HAND)
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


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):7.0f}  [{min(values):.0f}-{max(values):.0f}]"


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def throttled_rounds(pw, chromium: str, url: str, meter: Meter, snapshot: str, into: dict[str, list[dict]]) -> None:
    """First visits and repeats, alternating, in a browser whose processes
    share a quarter of one core (bench/lib/throttle.py)."""
    if THROTTLED_ROUNDS <= 0:
        return
    limit = throttle.Throttle.start()
    if limit is None:
        return
    browser = pw.chromium.launch(executable_path=chromium, args=[*CHROMIUM_ARGS, THROTTLE_MARKER])
    try:
        if not limit.enter(THROTTLE_MARKER):
            return
        for i in range(THROTTLED_ROUNDS):
            for kind in (("bare", "gin") if i % 2 == 0 else ("gin", "bare")):
                limit.enter(THROTTLE_MARKER)  # any process started since
                try:
                    into[kind].append(round_of(browser, url, meter, kind, snapshot, short=True))
                except Exception as exc:  # noqa: BLE001 - one lost round is reported, not the whole run
                    print(f"  [{kind} throttled round {i} lost: {str(exc).splitlines()[0]}]", file=sys.stderr, flush=True)
                    into.setdefault("lost", []).append(kind)
    finally:
        browser.close()
        limit.stop()


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
    hand_report(bare, gin, throttled=not with_reload)
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


def hand_report(bare: list[dict], gin: list[dict], throttled: bool) -> None:
    """Issue 33: the player's hand on screen against the bare boot, and time to playable."""
    if not all(r.get("first_hand") and r.get("repeat_hand") for r in gin):
        print("  the player's hand on screen: not measured (a build before issue 33)")
        return
    print("  the player's hand on screen (gin; every card landed), ms since navigation: median [range]")
    for key, name in (("first", "first visit"), ("repeat", "repeat")):
        hands = [r[f"{key}_hand"]["at"] for r in gin]
        early = sum(1 for r in gin if r[f"{key}_hand"].get("waking"))
        ratio = statistics.median(hands) / statistics.median(r[key] for r in bare)
        print(f"    {name:<12} hand {spread(hands)}   playable {spread([r[key] for r in gin])}   "
              f"hand/bare {ratio:.2f}x   drawn before the engine: {early} of {len(gin)}")
    repeat = statistics.median(r["repeat_hand"]["at"] for r in gin)
    first = statistics.median(r["first_hand"]["at"] for r in gin)
    repeat_ratio = repeat / statistics.median(r["repeat"] for r in bare)
    first_ratio = first / statistics.median(r["first"] for r in bare)
    if throttled:
        print(f"  repeat hand : {repeat:.0f} ms throttled, target <= {TARGET_HAND_REPEAT_THROTTLED_MS} ms  "
              f"{verdict(repeat <= TARGET_HAND_REPEAT_THROTTLED_MS)}")
    else:
        print(f"  repeat hand : {repeat_ratio:.2f}x bare repeat, target <= {TARGET_HAND_REPEAT}  {verdict(repeat_ratio <= TARGET_HAND_REPEAT)}")
    print(f"  first hand  : {first_ratio:.2f}x bare first, target <= {TARGET_HAND_FIRST}  {verdict(first_ratio <= TARGET_HAND_FIRST)}")


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
        report(f"CPU throttled (browser in a cgroup, {throttle.QUOTA_MS} ms per 100 ms of one core)", throttled, len(throttled["gin"]))
    elif THROTTLED_ROUNDS:
        print("CPU-throttled rounds not run: no writable CPU cgroup here (bench/lib/throttle.py needs Linux and root)")
    sizes = manifest.get("gzip_sizes", {})
    print(f"  snapshot: {manifest['snapshot']['size'] / 1e6:.2f} MB gzip ({manifest['snapshot']['raw_size'] / 1e6:.1f} MB raw); "
          f"wasm {sizes.get('pyodide/pyodide.asm.wasm', 0) / 1e6:.2f} MB gzip")
    snapshot_encodings(manifest)


def report_saved(names: list[str]) -> int:
    """The rounds of several runs' BENCH_JSON files, reported together."""
    merged: dict[str, dict[str, list[dict]]] = {"results": {"bare": [], "gin": []}, "throttled": {"bare": [], "gin": []}}
    for name in names:
        data = json.loads(Path(name).read_text())
        for part in merged:
            for kind in merged[part]:
                merged[part][kind].extend(data[part][kind])
    report_all(merged["results"], merged["throttled"], json.loads((DIST / "manifest.json").read_text()))
    return 0


def plain_build(into: Path) -> Path:
    """dist/ built again without the compiled bytecode (GIN_BYTECODE=0), into `into`."""
    env = {**os.environ, "GIN_DIST": str(into), "GIN_BYTECODE": "0"}
    subprocess.run([sys.executable, str(ROOT / "build.py"), "build"], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    return into


def main() -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", nargs="+", metavar="JSON", help="report the rounds of these BENCH_JSON files, run nothing")
    args = parser.parse_args()
    if args.report:
        return report_saved(args.report)
    chromium = bench_chromium()
    if not chromium:
        return 1
    manifest = json.loads((DIST / "manifest.json").read_text())
    snapshot = Path(manifest["snapshot"]["url"]).name
    meter = Meter()
    results: dict[str, list[dict]] = {"bare": [], "gin": []}
    throttled: dict[str, list[dict]] = {"bare": [], "gin": []}
    plain_results: dict[str, list] = {"compiled": [], "source": []}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        url = stack.enter_context(serving(make_site(DIST, Path(tmp) / "site"), meter))
        plain_url = None
        if os.environ.get("BENCH_BYTECODE", "1") != "0":
            plain_url = stack.enter_context(serving(plain_build(Path(tmp) / "plain")))
        pw = stack.enter_context(sync_playwright())
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

    if os.environ.get("BENCH_JSON"):
        # For runs split to stay short: `python3 bench/boot.py --report a.json b.json ...`
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
