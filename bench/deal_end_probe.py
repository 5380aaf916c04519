"""The deal's end at x4, frame by frame (issue 33): a match saved just before the computer's
move that ends its deal is opened at 390x844 (touch, normal speed, CPU x4 from the start, the
engine's replies held back x4); every long animation frame (over 50 ms) from the end of the boot
is listed with what ran in it: the computer's last moves, the deal result panel's frames, the
tap on "Siguiente" (the page's first tap: the sound's unlock too) and the next deal.
`python3 bench/deal_end_probe.py` once dist/ is built (BENCH_DIST: another build;
BENCH_DEAL_END_RUNS: runs, default 1; BENCH_DEAL_END_TRACE=<path>: a DevTools trace of the last
run written there, and its main thread's tasks of 10 ms of CPU or more listed with their parts:
elements restyled, objects laid out, scripts; and the run's totals: all tasks, scripts, restyle,
layout, paint, with the elements restyled; BENCH_DEAL_END_SELECTORS=1: with the selector
statistics of the restyles; BENCH_DEAL_END_SHOWN=0: without the table last shown kept beside the
save, so the engine's first answer draws the table from nothing instead of over the saved one).
The run waits for the page's first paint (the saved table), the engine's first answer and its
`ready` as marks."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from lib.webpage import CHROMIUM_ARGS, DIST, bench_chromium, serving
from smooth import SMOOTH_PROBE

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e" / "saves"))
RUNS = int(os.environ.get("BENCH_DEAL_END_RUNS", "1"))
TRACE = os.environ.get("BENCH_DEAL_END_TRACE")  # a path: a DevTools trace of the last run
# With a trace: Chromium's selector statistics too (what matching each rule cost in the restyles).
SELECTORS = os.environ.get("BENCH_DEAL_END_SELECTORS") == "1"
# A returning player's storage holds the view last shown beside the save (gin.shown.v1): the page
# draws it at once and the engine's first answer replaces it (issue 33). 0: the save alone.
SHOWN = os.environ.get("BENCH_DEAL_END_SHOWN", "1") != "0"


def save_before_computer_ends_deal() -> dict:
    import make_saves

    for i in range(1, 200):
        match = make_saves.new(f"DEAL-{i:04d}", "traditional")
        before = None
        while not match.results:
            before = match.to_save() if match.to_act == 1 else None
            make_saves.step(match, lambda v: make_saves.least_deadwood(v, knock=False))
        if before and match.view(0)["history"][-1]["knocker"] == 1:
            return before
    raise LookupError("no deal ended by the computer")


MARKS = r"""(() => {
  const m = window.__marks = [];
  let panel = null, building = null, waking = null, boot = null;
  new MutationObserver(() => {
    const root = document.getElementById('app');
    if (root && root.dataset.waking !== waking) { waking = root.dataset.waking; m.push([`waking ${waking}`, performance.now()]); }
    if (root && root.dataset.boot !== boot) { boot = root.dataset.boot; m.push([`boot ${boot}`, performance.now()]); }
    const app = window.ginApp;
    const p = app && app.ui ? app.ui.panel : null;
    if (p !== panel) { m.push([`state panel ${p}`, performance.now()]); panel = p; }
    const o = document.querySelector('.overlay[data-key="panel:deal"]');
    const b = o ? (o.hasAttribute('data-building') ? 'hidden' : 'shown') : 'none';
    if (b !== building) { m.push([`deal panel ${b}`, performance.now()]); building = b; }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-building', 'data-waking', 'data-boot'] });
})();"""


def shown_of(save: dict) -> dict:
    """What the page keeps beside `save` as the table last shown: the engine's view of it, as
    gin.bridge gives it to the page."""
    sys.path.insert(0, str(ROOT))
    from gin import bridge

    answer = json.loads(bridge.load(json.dumps({"save": save})))
    return {"version": 1, "seed": str(save["seed"]), "actions": len(save["actions"]), "view": answer["view"]}


def run_once(browser, url: str, save: dict, trace: str | None) -> list[str]:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="es-ES")
    items = {"gin.match.v1": json.dumps(save), "gin.settings.v1": json.dumps({"speed": "normal", "level": "easy", "sort": "melds"})}
    if SHOWN:
        items["gin.shown.v1"] = json.dumps(shown_of(save))
    ctx.add_init_script("try { if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', '1'); "
                        f"for (const [k, v] of Object.entries({json.dumps(items)})) localStorage.setItem(k, v); }} }} catch (e) {{}}")
    ctx.add_init_script(SMOOTH_PROBE)
    ctx.add_init_script("window.__slowEngine = 4;" + MARKS)
    page = ctx.new_page()
    page.emulate_media(reduced_motion="no-preference")
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    events = []
    if trace:
        cdp.on("Tracing.dataCollected", lambda e: events.extend(e["value"]))
        cdp.send("Tracing.start", {"categories": ("disabled-by-default-blink.debug," if SELECTORS else "") + "devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.stack,toplevel", "transferMode": "ReportEvents"})
    page.goto(url + f"#seed={save['seed']}")
    page.wait_for_function("() => window.ginApp && window.ginApp.ui.panel === 'deal'", timeout=120_000, polling=50)
    page.wait_for_function("() => document.querySelector('.overlay[data-key=\"panel:deal\"]:not([data-building])') && !document.querySelector('[data-flying]')", timeout=60_000, polling=50)
    page.evaluate("window.ginApp.idle()")
    box = page.locator('.panel.deal [data-intent="next"]').bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": 1}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function("() => !window.ginApp.ui.panel && window.ginApp.view.deal_number > 1", timeout=60_000, polling=50)
    page.evaluate("window.ginApp.idle()")
    page.wait_for_timeout(300)
    if trace:
        done = []
        cdp.on("Tracing.tracingComplete", lambda e: done.append(1))
        cdp.send("Tracing.end")
        while not done:
            page.wait_for_timeout(100)
        Path(trace).write_text(json.dumps({"traceEvents": events}))
        summarize(events)
    probe = page.evaluate("window.__smooth")
    marks = page.evaluate("window.__marks")
    ctx.close()
    rows = [(t, f"mark: {name}") for name, t in marks]
    rows += [(t, "mark: tap") for t in probe["inputs"]]
    start = 0  # from the page's start: the saved table, the engine's first answer, the deal's end, the next deal
    for f in probe["loaf"]:
        if f["start"] < start:
            continue
        scripts = ", ".join(f"{x['what']} {x['ms']} (forced {x['forced']})" for x in f["scripts"][:4]) or "no script"
        rows.append((f["start"], f"LoAF {f['duration']:.0f} ms (blocking {f['blocking']:.0f}; style+layout {f['style']:.0f}, rendering {f['render']:.0f}; {scripts})"))
    return [f"{t:9.0f}  {text}" for t, text in sorted(rows) if t >= start]


def summarize(events: list[dict]) -> None:
    """The renderer main thread's tasks of 10 ms of CPU time or more (a trace's thread time: what
    the load of the machine does not stretch), with their biggest parts (elements restyled, objects
    laid out, scripts by function)."""
    from collections import Counter

    styled = Counter((e.get("pid"), e.get("tid")) for e in events if e.get("name") == "UpdateLayoutTree")
    main = styled.most_common(1)[0][0] if styled else None
    on = sorted((e for e in events if (e.get("pid"), e.get("tid")) == main and e.get("ph") == "X" and "dur" in e), key=lambda e: e["ts"])
    # The whole run's totals on that thread (thread time, ms; what compares two builds run one
    # after the other on a loaded machine better than any one frame's wall time).
    kinds = ("ThreadControllerImpl::RunTask", "FunctionCall", "UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize")
    total = {k: sum(e.get("tdur", 0) for e in on if e["name"] == k) / 1000 for k in kinds}
    restyled = sum(e.get("args", {}).get("elementCount", 0) for e in on if e["name"] == "UpdateLayoutTree")
    print("  main thread, whole run (thread ms): " + ", ".join(f"{k.split('::')[-1]} {v:.0f}" for k, v in total.items()) + f"; elements restyled {restyled}")
    stats = [e["args"]["selector_stats"]["selector_timings"] for e in events if e.get("name") == "SelectorStats" and "selector_stats" in e.get("args", {})]
    if stats:  # BENCH_DEAL_END_SELECTORS=1
        cost = Counter()
        for timings in stats:
            for x in timings:
                cost[x["selector"]] += x["elapsed (us)"]
        print(f"  selector matching in the restyles: {sum(cost.values()) / 1000:.0f} ms of {total['UpdateLayoutTree']:.0f} ms; the costliest: "
              + "; ".join(f"{k} {v / 1000:.1f} ms" for k, v in cost.most_common(5)))
    tasks = [e for e in on if e["name"] == "ThreadControllerImpl::RunTask" and e.get("tdur", 0) > 10_000]
    skip = {"RunTask", "ThreadControllerImpl::RunTask", "BlinkScheduler_PerformMicrotaskCheckpoint", "Receive mojo message", "SimpleWatcher::OnHandleReady", "UpdateLayer", "PaintImage"}
    for task in tasks:
        inside = [e for e in on if e is not task and task["ts"] <= e["ts"] < task["ts"] + task["dur"] and e["name"] not in skip]
        print(f"  task {task['dur'] / 1000:.0f} ms wall, {task['tdur'] / 1000:.1f} ms CPU, at {task['ts'] / 1000:.0f}")
        for e in sorted(inside, key=lambda e: -e.get("tdur", 0))[:8]:
            a = e.get("args", {})
            data = a.get("data", {}) or a.get("beginData", {}) or {}
            what = {k: data[k] for k in ("type", "functionName", "lineNumber", "dirtyObjects", "totalObjects") if k in data}
            if "elementCount" in a:
                what["elementCount"] = a["elementCount"]
            stack = data.get("stackTrace") or []
            if stack:  # who forced it (a restyle or layout inside a script)
                what["by"] = " < ".join(f"{f.get('functionName') or '?'}:{f.get('lineNumber')}" for f in stack[:4])
            if e.get("tdur", 0) >= 1000:
                print(f"      {e.get('tdur', 0) / 1000:6.1f} ms CPU {e['name']} {json.dumps(what)[:240]}")


def main() -> int:
    from playwright.sync_api import sync_playwright

    chromium = bench_chromium()
    if not chromium:
        return 1
    save = save_before_computer_ends_deal()
    with serving(DIST) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for i in range(RUNS):
            print(f"run {i + 1} ({DIST})")
            for line in run_once(browser, url, save, TRACE if i == RUNS - 1 else None):
                print("  " + line)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
