"""A repeat visit's boot, traced and metered (issue 37/33: where a returning player's boot spends CPU).
`python3 bench/boot_trace.py` (BENCH_DIST: another build's dist/). One context: a first visit, the snapshot
cached, WARM repeat visits, then N metered repeat visits (new tab each; ready = window.ginReady), the CPU
seconds of every process of the browser (utime+stime from /proc, sampled, last value of a process that
exited kept) per visit; TRACE=path: the last repeat visit traced (V8's wasm/compile categories, the
timeline) and summarised; EXTRA_ARGS: more Chromium flags (e.g. --js-flags=...), per thread (CPU ms of top-level slices) and per event name."""
import json, os, sys, threading, time
from collections import defaultdict
from pathlib import Path
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench")); sys.path.insert(0, str(ROOT))
from lib.webpage import CHROMIUM_ARGS, DIST, GIN_READY, serving, wait_snapshot, wait_value, bench_chromium
from playwright.sync_api import sync_playwright
MARK = "--gin-trace-browser"
N = int(os.environ.get("N", "5")); WARM = int(os.environ.get("WARM", "2")); TRACE = os.environ.get("TRACE")
TICK = os.sysconf("SC_CLK_TCK")
CATS = ["v8", "v8.wasm", "v8.compile", "disabled-by-default-v8.compile", "disabled-by-default-v8.wasm.detailed",
        "disabled-by-default-v8.wasm.turbofan", "devtools.timeline", "disabled-by-default-devtools.timeline",
        "blink", "loading", "toplevel", "ServiceWorker", "disabled-by-default-v8.gc", "v8.execute",
        *os.environ.get("CATS", "").split()]

class Meter(threading.Thread):
    """CPU seconds of every process whose command line has MARK (and their children)."""
    def __init__(self):
        super().__init__(daemon=True); self.last = {}; self.stop = False
    def sample(self):
        for d in os.listdir("/proc"):
            if not d.isdigit(): continue
            try:
                cmd = Path(f"/proc/{d}/cmdline").read_bytes()
                if MARK.encode() not in cmd and b"--type=" not in cmd: continue
                if MARK.encode() not in cmd and not self._child(d): continue
                f = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
                self.last[(d, f[19])] = (int(f[11]) + int(f[12])) / TICK
            except OSError:
                pass
    def _child(self, d):
        # a Chromium child (--type=renderer etc.) of a MARK browser
        try:
            ppid = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[1]
            return MARK.encode() in Path(f"/proc/{ppid}/cmdline").read_bytes() or self._child(ppid) if ppid != "1" else False
        except OSError:
            return False
    def total(self):
        self.sample(); return sum(self.last.values())
    def run(self):
        while not self.stop:
            self.sample(); time.sleep(0.05)

def summary(raw):
    ev = json.loads(raw); ev = ev["traceEvents"] if isinstance(ev, dict) else ev
    names = {}
    for e in ev:
        if e.get("ph") == "M" and e.get("name") == "thread_name": names[(e["pid"], e["tid"])] = e["args"]["name"]
    per_thread = defaultdict(float); per_name = defaultdict(lambda: [0.0, 0])
    spans = defaultdict(list)
    for e in ev:
        if e.get("ph") != "X": continue
        spans[(e["pid"], e["tid"])].append(e)
    for key, xs in spans.items():
        xs.sort(key=lambda e: (e["ts"], -e.get("dur", 0))); end = -1
        for e in xs:
            c = e.get("tdur", e.get("dur", 0)) / 1000
            per_name[(names.get(key, "?"), e["name"])][0] += c; per_name[(names.get(key, "?"), e["name"])][1] += 1
            if e["ts"] >= end:
                per_thread[(key, names.get(key, "?"))] += c; end = e["ts"] + e.get("dur", 0)
    print("CPU ms of top-level slices per thread:")
    for (key, n), ms in sorted(per_thread.items(), key=lambda kv: -kv[1])[:25]:
        print(f"  {ms:8.1f}  {n} {key}")
    print("slices by name (ms, count; nested slices counted again):")
    for (n, name), (ms, k) in sorted(per_name.items(), key=lambda kv: -kv[1][0])[:70]:
        print(f"  {ms:8.1f} {k:6d}  {n}: {name}")
    wasm = [e for e in ev if "wasm" in e.get("name", "").lower() or "wasm" in e.get("cat", "")]
    print("wasm events:", sorted({e["name"] for e in wasm}))

def snap():
    return Path(json.loads((DIST / "manifest.json").read_text())["snapshot"]["url"]).name

with serving(DIST) as url, sync_playwright() as pw:
    browser = pw.chromium.launch(executable_path=bench_chromium(), args=[*CHROMIUM_ARGS, MARK, *os.environ.get("EXTRA_ARGS", "").split()])
    meter = Meter(); meter.start()
    try:
        ctx = browser.new_context(); page = ctx.new_page(); page.goto(url); wait_value(page, GIN_READY)
        wait_snapshot(page, snap()); time.sleep(0.5)
        cpu, ready = [], []
        for i in range(WARM + N):
            page.close(); time.sleep(0.3)
            tracing = TRACE and i == WARM + N - 1
            if tracing: browser.start_tracing(categories=CATS)
            c0 = meter.total(); t0 = time.time()
            page = ctx.new_page(); page.goto(url); v = wait_value(page, GIN_READY)
            time.sleep(0.5)  # what the boot leaves running (tier-up, idle tasks) belongs to it
            c1 = meter.total()
            if tracing: Path(TRACE).write_bytes(browser.stop_tracing())
            print(f"repeat {i}: cpu {c1 - c0:.2f} s (incl 0.5 s idle tail), ready {v['at']:.0f} ms, wall {time.time() - t0:.2f} s, timings {v.get('timings', v)}", flush=True)
            if i >= WARM and not tracing: cpu.append(c1 - c0); ready.append(v["at"])
        if cpu: print(f"median cpu per repeat boot {sorted(cpu)[len(cpu)//2]:.2f} s, ready {sorted(ready)[len(ready)//2]:.0f} ms ({cpu})")
    finally:
        meter.stop = True; browser.close()
if TRACE: summary(Path(TRACE).read_bytes())
