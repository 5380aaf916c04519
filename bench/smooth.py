"""Smoothness on a phone-class CPU (issue 20): the table played at 390x844 (touch),
the page's CPU throttled x4 by DevTools and the engine's worker slowed alike,
at the normal speed with its animations; per kind of move (the player's draws
and discards, the computer's moves) the long animation frames (the Long
Animation Frames API, over 50 ms), the worst gap between frames and the time
from the input to the frame that shows it.

Goal: median 0 long animation frames per move and no frame gap over 100 ms
for the player's draws and discards. Run with `python3 build.py bench smooth`
(or `python3 bench/smooth.py` once dist/ is built); BENCH_SMOOTH_MOVES sets
the player's moves (default 32), BENCH_DIST benches another build's dist/.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time

from lib.webpage import CHROMIUM_ARGS, DIST, GIN_READY, bench_chromium, serving, wait_value

SMOOTH_MOVES = int(os.environ.get("BENCH_SMOOTH_MOVES", "32"))  # the player's draws and discards
# BENCH_SMOOTH_MATCH=1: a whole match instead (until its result panel), every deal's end included.
SMOOTH_MATCH = os.environ.get("BENCH_SMOOTH_MATCH", "") not in ("", "0")
FRAME_TARGET_MS = 100  # issue 33: at x4, no long frame over 100 ms in a whole match
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
    throttled_at = page.evaluate("performance.now()")

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
    taps = []  # what each input was, in order (the probe's inputs: one pointerdown each)

    def tapped(label, selector, dx=None):
        tap(selector, dx)
        taps.append(label)

    turns_started = time.monotonic()
    deals = 0
    while SMOOTH_MATCH or len([m for m in moves if m["kind"] != "computer"]) < SMOOTH_MOVES:
        assert time.monotonic() - turns_started < (3600 if SMOOTH_MATCH else 900), "the smoothness run took too long"
        state = settled()
        if state["panel"] == "deal":
            deals += 1
            tapped("next deal", '.panel.deal [data-intent="next"]')
            continue
        if state["panel"] == "match" or state["over"]:
            if SMOOTH_MATCH:
                break
            tapped("new match", '.panel.match [data-intent="again"]')
            continue
        if state["phase"].startswith("upcard"):
            tapped("pass", '.actions [data-intent="pass"]')
            continue
        computer_before = page.evaluate("window.__smooth.computer.length")
        if state["phase"] == "draw":
            tapped("draw", ".pile.stock .pile-cards")
            kind = "draw"
        else:
            view = page.evaluate("window.ginApp.view")
            dd = view["discard_deadwood"]
            card = min((a["card"] for a in view["legal"] if a["type"] == "discard"), key=lambda c: (dd.get(c, 99), c))
            selector = f'.hand [data-card="{card}"]'
            tapped("select", selector, dx=10)
            page.wait_for_timeout(150)
            tapped("discard", selector, dx=10)
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
    probe["throttled_at"] = throttled_at
    ctx.close()
    return {"how": how, "moves": moves, "probe": probe, "taps": taps, "deals": deals}


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
    # Every frame over the target (issue 33), whatever the move: named by the input before it.
    inputs = run["probe"]["inputs"]
    computer = run["probe"]["computer"]
    since = run["probe"].get("throttled_at", 0)
    over = [f for f in run["probe"]["loaf"] if f["duration"] > FRAME_TARGET_MS and f["start"] >= since]
    print(f"  frames over {FRAME_TARGET_MS} ms in the whole run (throttled, {run['deals']} deal ends, {len(inputs)} taps): {len(over)}")
    for f in over:
        i = max((k for k, t in enumerate(inputs) if t <= f["start"]), default=None)
        c = max((t for t in computer if t <= f["start"]), default=None)
        label = f"{run['taps'][i] if i is not None and i < len(run['taps']) else 'tap'} +{f['start'] - inputs[i]:.0f} ms" if i is not None else "before any tap"
        if c is not None and (i is None or c > inputs[i]):
            label += f", computer's move +{f['start'] - c:.0f} ms"
        scripts = ", ".join(f"{x['what']} {x['ms']} ms (forced {x['forced']})" for x in f["scripts"][:3]) or "no script"
        print(f"    {f['duration']:.0f} ms after {label} (style and layout {f['style']:.0f}, rendering {f['render']:.0f}; {scripts})")
    print(f"  target (issue 33), no frame over {FRAME_TARGET_MS} ms: {'met' if not over else 'NOT met'}")
    print(f"  goal, the player's draws and discards: median 0 long animation frames per move and no frame gap over"
          f" {GAP_TARGET_MS} ms: {'met' if ok else 'NOT met'}; the computer's moves alike: {'yes' if computer_ok else 'no'}")
    return ok




def main() -> int:
    from playwright.sync_api import sync_playwright

    chromium = bench_chromium()
    if not chromium:
        return 1
    with serving(DIST) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        smooth_bench(browser, url)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
