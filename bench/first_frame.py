"""A returning player's first frame at CPU x4 (issue 33), in parts: the match of
deal_end_probe.py opened with its saved table (gin.shown.v1) in a new context each run (a new
renderer: nothing compiled or laid out before), CPU x4 from the start, the engine's worker held
(the frame is drawn before it starts). Per run: the first long animation frame (wall ms, its
script ms) and, from a trace of the page's thread (thread ms): app.js's module evaluation, the
functions V8 compiled lazily inside it (count, ms), the restyle and the layout of that frame,
and when the hand was on screen (window.ginHand). `python3 bench/first_frame.py` once dist/ is
built (BENCH_DIST: another build; BENCH_FIRST_RUNS: runs, default 3)."""

from __future__ import annotations

import json
import os
import statistics
import sys

from deal_end_probe import save_before_computer_ends_deal, shown_of
from lib.webpage import CHROMIUM_ARGS, DIST, bench_chromium, serving
from smooth import SMOOTH_PROBE

RUNS = int(os.environ.get("BENCH_FIRST_RUNS", "3"))
FRAME = "() => window.__smooth.loaf.find((f) => f.scripts.some((s) => /app\\.js/.test(s.what))) || null"
CATEGORIES = "toplevel,devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-v8.compile"


def parts(events: list[dict]) -> dict:
    """The task that evaluated app.js (the longest module evaluation) on the page's thread: its
    evaluation, lazy compiles, restyle and layout, thread ms."""
    evaluations = [e for e in events if e.get("name") == "v8.evaluateModule" and e.get("ph") == "X"]
    entry = max(evaluations, key=lambda e: e.get("dur", 0))
    thread = (entry["pid"], entry["tid"])
    on = [e for e in events if (e.get("pid"), e.get("tid")) == thread and e.get("ph") == "X"]
    task = max((e for e in on if e["name"] == "ThreadControllerImpl::RunTask" and e["ts"] <= entry["ts"] < e["ts"] + e["dur"]),
               key=lambda e: e["dur"])
    inside = [e for e in on if task["ts"] <= e["ts"] < task["ts"] + task["dur"]]
    ms = lambda name: sum(e.get("tdur", e["dur"]) for e in inside if e["name"] == name) / 1000
    compiles = [e for e in inside if e["name"] == "V8.CompileCode" and entry["ts"] <= e["ts"] < entry["ts"] + entry["dur"]]
    return {"task": task.get("tdur", task["dur"]) / 1000, "evaluate": entry.get("tdur", entry["dur"]) / 1000,
            "compiles": len(compiles), "compile": sum(e.get("tdur", e["dur"]) for e in compiles) / 1000,
            "restyle": ms("UpdateLayoutTree"), "layout": ms("Layout")}


def run_once(browser, url: str, items: dict, seed: str) -> dict:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="es-ES",
                              service_workers="block")
    ctx.add_init_script("try { if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', '1'); "
                        f"for (const [k, v] of Object.entries({json.dumps(items)})) localStorage.setItem(k, v); "
                        "sessionStorage.setItem('gin.test.holdEngine', '1'); } } catch (e) {}")
    ctx.add_init_script(SMOOTH_PROBE)
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    events, done = [], []
    cdp.on("Tracing.dataCollected", lambda e: events.extend(e["value"]))
    cdp.on("Tracing.tracingComplete", lambda e: done.append(1))
    cdp.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
    page.goto(url + f"#seed={seed}")
    hand = page.evaluate("window.ginHand.then((h) => h.at)")
    # the long animation frame that ran app.js (its entry comes once the frame is over)
    frame = page.wait_for_function(FRAME, polling=50).json_value()
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(50)
    ctx.close()
    out = parts(events)
    out.update(hand=hand, frame=frame["duration"], script=sum(s["ms"] for s in frame["scripts"]))
    return out


def main() -> int:
    from playwright.sync_api import sync_playwright

    chromium = bench_chromium()
    if not chromium:
        return 1
    save = save_before_computer_ends_deal()
    items = {"gin.match.v1": json.dumps(save), "gin.shown.v1": json.dumps(shown_of(save)),
             "gin.settings.v1": json.dumps({"speed": "normal", "level": "easy", "sort": "melds"})}
    rows = []
    with serving(DIST) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for i in range(RUNS):
            row = run_once(browser, url, items, str(save["seed"]))
            rows.append(row)
            print(f"run {i + 1}: " + ", ".join(f"{k} {v:.0f}" for k, v in row.items()), flush=True)
        browser.close()
    print(f"first frame at x4 ({DIST}), median [range] of {RUNS}:")
    for key in rows[0]:
        values = [r[key] for r in rows]
        print(f"  {key:9s} {statistics.median(values):6.0f} [{min(values):.0f}-{max(values):.0f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
