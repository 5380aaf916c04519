"""Repeat tests/e2e/test_boot.py::test_a_new_build_replaces_the_cached_snapshot's scenario many
times (issue 36, item 12: a returning visit after an update that never came up), with two builds
made once (SITE_A, then SITE_B copied over it as a new build), and on a visit that never comes up
print where it stood (requests not finished, the service worker versions, the console).

    SITE_A=dist-a SITE_B=dist-b ROUNDS=20 [ROUTE=1] [THROTTLE=1] [IDLE=35] \
      flock /tmp/gin-browser.lock .venv/bin/python tests/e2e/repeat_update.py

SITE_B: a build of changed engine sources (GIN_DIST=dist-b GIN_ENGINE_SRC=... build.py build).
ROUTE=1 routes every request as the suite's context does; THROTTLE=1 puts the browser on a
quarter of a core (bench/lib/throttle.py); IDLE seconds pass after the new build is in place
(the suite's test builds it there, ~20 s, while the old service worker goes idle). IDLE=35
brought the lost navigation back (4 December, the build before the static routes: 3 of 12
rounds: 2 returning visits never loaded, 1 reload never became ready; 0 of 15 at IDLE=0).
TRACE=1 records a Chromium trace (category ServiceWorker, the navigations) of each round's
visits and keeps it as TRACE_DIR/hang-<round>.json when a visit never came up:
ServiceWorkerVersion::Request and EmbeddedWorkerInstance::Stop show a fetch event handed to a
worker as it stops."""
import json, os, shutil, subprocess, sys, time, tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from playwright.sync_api import sync_playwright
from tools.testenv import CHROMIUM_ARGS

A, B = Path(os.environ["SITE_A"]), Path(os.environ["SITE_B"])
ROUNDS = int(os.environ.get("ROUNDS", "5"))
ROUTE = os.environ.get("ROUTE", "1") == "1"
TRACE = os.environ.get("TRACE") == "1"
ROOT = Path(os.environ.get("ROOT", Path(__file__).resolve().parents[2]))

def serve(d):
    p = subprocess.Popen([sys.executable, str(ROOT / "build.py"), "serve", "--dir", str(d), "--quiet", "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = p.stdout.readline()
    return p, line[line.index("http://"):].strip()

def swap(site):
    for f in B.rglob("*"):
        if f.is_file():
            t = site / f.relative_to(B); t.parent.mkdir(parents=True, exist_ok=True)
            if not t.exists() or t.read_bytes() != f.read_bytes(): shutil.copy2(f, t)
    for f in sorted(site.rglob("*"), reverse=True):
        if f.is_file() and not (B / f.relative_to(site)).exists(): f.unlink()

READY = "() => window.__ginReadyValue || (window.ginReady && window.ginReady.then(v => { window.__ginReadyValue = v; }), null)"

def main():
    results, tracing = [], False
    with sync_playwright() as pw:
        marker = "--gin-transport-repro"
        browser = pw.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=[*CHROMIUM_ARGS, marker])
        limit = None
        if os.environ.get("THROTTLE") == "1":
            sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
            from lib import throttle
            limit = throttle.Throttle.start()
            print("throttled:", bool(limit and limit.enter(marker)), flush=True)
        for r in range(ROUNDS):
            if limit: limit.enter(marker)
            t0 = time.monotonic()
            tmp = Path(tempfile.mkdtemp(prefix="gin-update-"))
            site = tmp / "site"; shutil.copytree(A, site)
            proc, url = serve(site)
            ctx = browser.new_context(locale="es-ES")
            log, pending = [], {}
            ctx.on("request", lambda q: pending.__setitem__(id(q), q.url))
            ctx.on("requestfinished", lambda q: pending.pop(id(q), None))
            ctx.on("requestfailed", lambda q: pending.pop(id(q), None))
            if ROUTE: ctx.route("**/*", lambda route: route.continue_())
            page = ctx.new_page()
            versions = {}
            try:
                cdp = ctx.new_cdp_session(page)
                cdp.on("ServiceWorker.workerVersionUpdated", lambda e: [versions.__setitem__(v["versionId"], (v["scriptURL"].rsplit("/",1)[-1], v["runningStatus"], v["status"], round(time.monotonic()-t0,1))) for v in e["versions"]])
                cdp.on("ServiceWorker.workerErrorReported", lambda e: log.append(f"sw error: {e}"))
                cdp.send("ServiceWorker.enable")
            except Exception as e:
                log.append(f"no cdp: {e}")
            page.on("console", lambda m: log.append(f"page {m.type}: {m.text}"))
            def boot(reload=False, to=None):
                if reload: page.reload()
                else: page.goto(to)
                return page.wait_for_function(READY, timeout=int(os.environ.get("READY_MS", "60000")), polling=100).json_value()["timings"]
            outcome = "ok"; boots = []
            try:
                page.add_init_script('try{if(!localStorage.getItem("gin.settings.v1"))localStorage.setItem("gin.settings.v1",JSON.stringify({speed:"instant"}))}catch(e){}')
                boot(to=url)
                page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60000)
                page.wait_for_function("async () => { for (const n of await caches.keys()) { const c = await caches.open(n); for (const q of await c.keys()) if (q.url.includes('/snapshot/') && q.url.endsWith('.bin')) return true; } return false; }", timeout=60000, polling=200)
                old = boot(reload=True)["wheel"]
                swap(site)
                time.sleep(float(os.environ.get("IDLE", "0")))
                page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
                for _ in range(6): boots.append(boot(reload=True)["wheel"] == old)
                if TRACE:
                    browser.start_tracing(categories=["ServiceWorker", "navigation", "loading", "devtools.timeline"])
                    tracing = True
                deadline = time.monotonic() + 90
                while time.monotonic() < deadline:
                    page.goto("about:blank")
                    t = boot(to=url)
                    boots.append(("visit", t["wheel"] != old))
                    if t["wheel"] != old: break
                    boots.append(boot(reload=True)["wheel"] == old)
                    time.sleep(0.5)
                else:
                    outcome = "never new"
            except Exception as exc:
                outcome = f"HANG: {str(exc).splitlines()[0]}"
                # No page.evaluate here: in the stuck page navigator.serviceWorker.getRegistration()
                # never settles either (seen 3 December); DevTools' versions say where it stood.
                sw = None
                if tracing:
                    trace = Path(os.environ.get("TRACE_DIR", tempfile.gettempdir())) / f"hang-{r}.json"
                    trace.write_bytes(browser.stop_tracing()); tracing = False
                    print("trace:", trace, flush=True)
                print(json.dumps({"round": r, "pending": list(pending.values()), "sw": sw, "versions": versions, "url": page.url, "log": log[-20:]}, indent=1), flush=True)
            if tracing:
                browser.stop_tracing(); tracing = False
            results.append(outcome)
            print(f"round {r}: {outcome} in {time.monotonic()-t0:.1f}s boots={boots}", flush=True)
            ctx.close(); proc.terminate(); proc.wait(); shutil.rmtree(tmp, ignore_errors=True)
        browser.close()
        if limit: limit.stop()
    print("SUMMARY", ROUTE, results.count("ok"), "/", len(results), results)

main()
