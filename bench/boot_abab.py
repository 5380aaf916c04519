"""The player's hand, ABAB: two builds' dist/ dirs A and B, each on its own server (own origin), alternating
(issue 33's before/after figures in bench/README.md). `python3 bench/boot_abab.py DIST_A DIST_B`.
MODE=repeat: one context per build, a first visit, then repeat visits (new tab), alternating; first WARM repeats dropped.
MODE=first: a new context per visit (empty caches), alternating.
THROTTLE=1: the browser in bench/lib/throttle.py's cgroup.
The hand: ten .hand .hand-card and no running animation, polled each frame (same detector for both builds);
also window.ginHand where the build has it (on a repeat visit "landed" waits for the waking mark's pulse to stop,
i.e. the engine: read ginHand there)."""
import json, os, statistics, sys, time
from pathlib import Path
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench")); sys.path.insert(0, str(ROOT))
from lib import throttle
from lib.webpage import CHROMIUM_ARGS, GIN_READY, serving, wait_snapshot, wait_value, bench_chromium
from playwright.sync_api import sync_playwright
MARK = "--gin-bench-browser"
A, B = Path(sys.argv[1]), Path(sys.argv[2])
MODE = os.environ.get("MODE", "repeat"); N = int(os.environ.get("N", "5")); WARM = int(os.environ.get("WARM", "2"))
THR = os.environ.get("THROTTLE", "1") == "1"
DETECT = """(() => { const t0 = performance.now(); const tick = () => {
  const n = document.querySelectorAll('.hand .hand-card').length;
  const run = document.getAnimations().filter(a => a.playState === 'running').length;
  if (n >= 10 && !run) { window.__landed = performance.now(); return; }
  requestAnimationFrame(tick); }; requestAnimationFrame(tick); })()"""
LANDED = "() => window.__landed ? {at: window.__landed} : null"
GH = "() => window.__gh || (window.ginHand ? (window.ginHand.then(v => { window.__gh = v; }), null) : {at: -1})"
def snap(d): return Path(json.loads((d / "manifest.json").read_text())["snapshot"]["url"]).name
res = {"A": [], "B": []}
with serving(A) as ua, serving(B) as ub, sync_playwright() as pw:
    url = {"A": ua, "B": ub}; dirs = {"A": A, "B": B}
    limit = throttle.Throttle.start() if THR else None
    browser = pw.chromium.launch(executable_path=bench_chromium(), args=[*CHROMIUM_ARGS, MARK])
    def enter():
        if limit: limit.enter(MARK)
    def visit(ctx, k):
        enter()
        p = ctx.new_page(); p.add_init_script(DETECT); p.goto(url[k])
        landed = wait_value(p, LANDED)["at"]; gh = wait_value(p, GH); ready = wait_value(p, GIN_READY)["at"]
        return p, {"landed": round(landed), "ginHand": round(gh["at"]), "waking": gh.get("waking"), "ready": round(ready)}
    try:
        enter()
        if MODE == "repeat":
            ctx = {}; page = {}
            for k in "AB":
                ctx[k] = browser.new_context(); page[k], r = visit(ctx[k], k)
                wait_snapshot(page[k], snap(dirs[k])); time.sleep(0.5)
                print(k, "first", r, flush=True)
            for i in range(WARM + N):
                for k in ("AB" if i % 2 == 0 else "BA"):
                    page[k].close(); page[k], r = visit(ctx[k], k)
                    print(k, "repeat", i, r, flush=True)
                    if i >= WARM: res[k].append(r)
        else:
            for i in range(N + 1):
                for k in ("AB" if i % 2 == 0 else "BA"):
                    c = browser.new_context(); p, r = visit(c, k); c.close()
                    print(k, "first", i, r, flush=True)
                    if i >= 1: res[k].append(r)  # round 0 warms disk caches
    finally:
        browser.close()
        if limit: limit.stop()
def sp(v): return f"{statistics.median(v):.0f} [{min(v)}-{max(v)}]"
for k in "AB":
    rs = res[k]
    print(k, dirs[k], "landed", sp([r["landed"] for r in rs]), "ginHand", sp([r["ginHand"] for r in rs]), "ready", sp([r["ready"] for r in rs]))
json.dump(res, open(os.environ.get("OUT", "/dev/null"), "w"))
