"""Difícil's review of a finished match in the viewer, with 1, 2 and 3 engine workers.

The page's own engine and 0-2 extra ones, chosen by the viewer from
navigator.hardwareConcurrency, which the bench sets per tab (deviceMemory set
to 8 GB): from the click on the match in "Partidas" to the review shown, for a
53-deal and a 42-deal match, alternating the worker counts in each round; as
the median and as the ratio to the one-worker median of the same run (the
machine may be shared). It also times an extra engine's boot from the cached
snapshot and the memory the extra workers add (proportional set size of the
browser's renderer processes, peak while three engines review against the
page at rest).

Run with `python3 build.py bench review` (or `python3 bench/review.py` once
dist/ is built). BENCH_REVIEW_ROUNDS sets the rounds (default 3; 0 skips it);
BENCH_DIST benches another build's dist/.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

from lib.webpage import CHROMIUM_ARGS, DIST, GIN_READY, bench_chromium, serving, wait_snapshot, wait_value

REVIEW_ROUNDS = int(os.environ.get("BENCH_REVIEW_ROUNDS", "3"))
REVIEW_WORKERS = (1, 2, 3)
# (seed, custom target): finished matches of normal against normal, 53 and 42 deals.
REVIEW_MATCHES = (("REVIEW-LONG", 500), ("REVIEW-40-1", 500))
FINISHED_KEY = "gin.finished.v1"
TUTORIAL_KEY = "gin.tutorial.v1"  # web/data/keys.js


def review_saves() -> list[tuple[dict, int]]:
    import gin  # the root is on sys.path (lib.webpage)
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
    # No #seed= link: with the first tab's match unfinished, a link to another
    # one asks first (a dialog over the table); this resumes that match instead.
    page.goto(url)
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
    # Not a first visit: the guided first deal, offered over the table of a first
    # visit (web/play/tutorial.js), would keep the menu out of reach.
    context.add_init_script(f"try {{ localStorage.setItem({json.dumps(TUTORIAL_KEY)}, 'skipped'); }} catch (e) {{}}")
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



def main() -> int:
    from playwright.sync_api import sync_playwright

    if REVIEW_ROUNDS <= 0:
        print("skipped: BENCH_REVIEW_ROUNDS=0")
        return 0
    chromium = bench_chromium()
    if not chromium:
        return 1
    manifest = json.loads((DIST / "manifest.json").read_text())
    with serving(DIST) as url, sync_playwright() as pw:
        others = renderer_pids()  # other browsers' (the machine may be shared)
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        review_bench(browser, url, Path(manifest["snapshot"]["url"]).name, others)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
