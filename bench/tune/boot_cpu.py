"""A returning visitor's boot as the suite's light tests make it, CPU by process and thread (issue 37/33).

usage: python3 bench/tune/boot_cpu.py DIST_A [DIST_B ...]   (dist/ dirs of builds; one context and origin each)

Per build: a first visit, the snapshot cached, a keeper tab on app.webmanifest (as tests/e2e/conftest.py
ReturningVisitor); then WARM + N rounds, each a new tab per build in turn (ABAB): opened with the tests'
settings (speed instant), ready = window.ginReady (polled every 100 ms, as the tests do), TAIL s more,
closed, the player's storage wiped. CPU = utime+stime of every thread of the browser's process tree from
/proc (a thread that ended keeps its last value): per visit boot (to ready), tail, close; then the median
and the mean per (process type, thread name) of the metered rounds. TRACE=prefix: the last round traced
(V8's wasm/compile categories, the timeline, Cache Storage...) to prefix-A.json ...; CATS adds categories
(e.g. disabled-by-default-v8.cpu_profiler). N (5), WARM (2), TAIL (1.0). Needs CHROMIUM or /usr/bin/chromium
and the test venv's Playwright (.venv/bin/python). Records: bench/README.md, "A repeat visit's CPU by thread".
"""
import os, sys, threading, time
from collections import defaultdict
from pathlib import Path
TICK = os.sysconf("SC_CLK_TCK")

def _ptype(cmd: bytes) -> str:
    args = cmd.replace(b"\0", b" ").split(b" ")
    t = next((a.split(b"=", 1)[1].decode() for a in args if a.startswith(b"--type=")), "browser")
    sub = next((a.split(b"=", 1)[1].decode() for a in args if a.startswith(b"--utility-sub-type=")), "")
    if sub:
        t += ":" + sub.split(".")[0]
    return t

class ThreadMeter(threading.Thread):
    def __init__(self, mark):
        super().__init__(daemon=True)
        self.mark = mark.encode(); self.last = {}; self.stop = False; self.lock = threading.Lock()
        self.types = {}
    def _family(self):
        procs = {}
        for d in os.listdir("/proc"):
            if not d.isdigit(): continue
            try:
                st = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
                procs[d] = (st[1], Path(f"/proc/{d}/cmdline").read_bytes())
            except OSError:
                pass
        roots = {p for p, (_, c) in procs.items() if self.mark in c}
        fam = set(roots); changed = True
        while changed:
            changed = False
            for p, (pp, _) in procs.items():
                if p not in fam and pp in fam:
                    fam.add(p); changed = True
        return {p: procs[p][1] for p in fam}
    def sample(self):
        fam = self._family()
        with self.lock:
            for pid, cmd in fam.items():
                # a process's type as first seen (an exiting one reads an empty command line)
                pt = self.types.setdefault(pid, _ptype(cmd)) if cmd else self.types.get(pid, "?")
                try:
                    tids = os.listdir(f"/proc/{pid}/task")
                except OSError:
                    continue
                for tid in tids:
                    try:
                        st = Path(f"/proc/{pid}/task/{tid}/stat").read_text()
                        comm = st[st.index("(") + 1:st.rindex(")")]
                        f = st.rsplit(")", 1)[1].split()
                        self.last[(pid, tid)] = (pt, comm, (int(f[11]) + int(f[12])) / TICK)
                    except (OSError, ValueError):
                        pass
    def run(self):
        while not self.stop:
            self.sample(); time.sleep(0.05)
    def snapshot(self):
        self.sample()
        with self.lock:
            return dict(self.last)
    @staticmethod
    def diff(a, b):
        """CPU-s per (process type, thread name) between two snapshots."""
        out = defaultdict(float)
        for k, (pt, comm, c) in b.items():
            c0 = a.get(k, (pt, comm, 0.0))[2]
            if c - c0 > 0:
                # normalise numbered thread names
                name = comm.rstrip("0123456789")
                out[(pt, name)] += c - c0
        return out

import json, statistics
from pathlib import Path
from collections import defaultdict
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench")); sys.path.insert(0, str(ROOT))
from lib.webpage import CHROMIUM_ARGS, GIN_READY, serving, wait_snapshot, wait_value
from playwright.sync_api import sync_playwright
MARK = "--gin-bootcpu-browser"
N = int(os.environ.get("N", "5")); WARM = int(os.environ.get("WARM", "2")); TAIL = float(os.environ.get("TAIL", "1.0"))
TRACE = os.environ.get("TRACE")
CATS = ["v8", "v8.wasm", "v8.compile", "disabled-by-default-v8.compile", "disabled-by-default-v8.wasm.detailed",
        "disabled-by-default-v8.wasm.turbofan", "devtools.timeline", "disabled-by-default-devtools.timeline",
        "blink", "loading", "toplevel", "ServiceWorker", "disabled-by-default-v8.gc", "v8.execute", "CacheStorage",
        "IndexedDB", "navigation", "net", "disabled-by-default-network", "cc", "viz", "gpu", "mojom", "base", "ipc",
        *os.environ.get("CATS", "").split()]
SETTINGS = 'try { if (!localStorage.getItem("gin.settings.v1")) localStorage.setItem("gin.settings.v1", %s); } catch (e) {}' % json.dumps(json.dumps({"speed": "instant"}))
WIPE = """async () => { localStorage.clear();
  for (const { name } of await indexedDB.databases()) await new Promise((ok, no) => { const q = indexedDB.deleteDatabase(name); q.onsuccess = ok; q.onerror = no; q.onblocked = no; });
  return true; }"""
if len(sys.argv) < 2:
    sys.exit(__doc__)
dists = [Path(a).resolve() for a in sys.argv[1:]]
names = [chr(65 + i) for i in range(len(dists))]
def snap(d): return json.loads((d / "manifest.json").read_text())["snapshot"]["raw_url"].rsplit("/", 1)[-1]
res = {n: [] for n in names}; parts = {n: defaultdict(list) for n in names}
with sync_playwright() as pw:
    import contextlib
    with contextlib.ExitStack() as stack:
        urls = [stack.enter_context(serving(d)) for d in dists]
        browser = pw.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=[*CHROMIUM_ARGS, MARK])
        meter = ThreadMeter(MARK); meter.start()
        ctxs, keepers = [], []
        for d, u in zip(dists, urls):
            ctx = browser.new_context(locale="es-ES")
            ctx.add_init_script(SETTINGS)
            p = ctx.new_page(); p.goto(u); wait_value(p, GIN_READY)
            p.evaluate("""async (name) => { const end = performance.now() + 120000;
              while (performance.now() < end) { if (navigator.serviceWorker.controller) { for (const key of await caches.keys()) {
                const urls = (await (await caches.open(key)).keys()).map((r) => r.url); if (urls.some((u) => u.endsWith("/snapshot/" + name))) return true; } }
                await new Promise((r) => setTimeout(r, 100)); } return false; }""", snap(d))
            p.close()
            k = ctx.new_page(); k.goto(u + "app.webmanifest"); k.evaluate(WIPE)
            ctxs.append(ctx); keepers.append(k)
        time.sleep(1)
        for i in range(WARM + N):
            for n, ctx, k, u in zip(names, ctxs, keepers, urls):
                tracing = TRACE and i == WARM + N - 1
                if tracing: browser.start_tracing(categories=CATS)
                a = meter.snapshot(); t0 = time.time()
                p = ctx.new_page(); p.goto(u)
                v = p.wait_for_function(GIN_READY, timeout=60000, polling=100).json_value()
                r = meter.snapshot()
                time.sleep(TAIL)
                b = meter.snapshot()
                p.close(); k.evaluate(WIPE)
                time.sleep(0.3)
                c = meter.snapshot()
                if tracing: Path(f"{TRACE}-{n}.json").write_bytes(browser.stop_tracing())
                boot = sum(ThreadMeter.diff(a, r).values()); tail = sum(ThreadMeter.diff(r, b).values()); close = sum(ThreadMeter.diff(b, c).values())
                tm = v.get("timings", {})
                print(f"{n} visit {i}: boot {boot:.2f} tail {tail:.2f} close {close:.2f} total {boot+tail+close:.2f} cpu-s; ready {v.get('at', 0):.0f} ms; boot={tm.get('boot')} src={tm.get('snapshot_source')} {dict((x, tm.get(x)) for x in ('asm','loader','wasm_compiled','module','snapshot_read','wasm','runtime','engine'))}", flush=True)
                if i >= WARM and not tracing:
                    res[n].append((boot, tail, close))
                    for key, val in ThreadMeter.diff(a, c).items(): parts[n][key].append(val)
        meter.stop = True
        browser.close()
for n in names:
    rows = res[n]
    if not rows: continue
    med = lambda xs: statistics.median(xs)
    print(f"{n} {dists[names.index(n)]}: median boot {med([r[0] for r in rows]):.3f} tail {med([r[1] for r in rows]):.3f} close {med([r[2] for r in rows]):.3f} total {med([sum(r) for r in rows]):.3f} (n={len(rows)}) totals {[round(sum(r),2) for r in rows]}")
    for key, vals in sorted(parts[n].items(), key=lambda kv: -sum(kv[1])):
        m = sum(vals) / len(rows)
        if m >= 0.005: print(f"    {m:6.3f}  {key[0]:28s} {key[1]}")
