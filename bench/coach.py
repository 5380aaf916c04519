"""Entrenador (gin.coach): how often it would speak, and how long it takes.

1. The threshold: over real play of the easy and normal levels (the player's
   side) against normal, the cost (Difícil's points) of each decision that
   differs from Difícil's, its percentiles, and how many notes the coach
   gives at gin.coach.THRESHOLD: per deal, and after the page's rule of one
   note per advice a deal.
2. The time of one coach call (gin.coach.note on the view before the move) in
   CPython and in Pyodide under Node (bench/ai.py's runner), beside the
   anchor measured in the same run on the same views: Difícil's own decision
   (gin.ai.choose(view, "hard")), which the computer makes every turn (the
   two alternate which goes first, the second finding the first's hands in
   gin.melds' cache). The
   page's pause before each computer move is 450 ms at normal speed, 150 ms
   fast (web/model/settings.js SPEED_DELAY_MS): the coach call runs in that pause.

Environment: BENCH_COACH_MATCHES (matches per level, default 6).
Run with `python3 build.py bench` or directly: `python3 bench/coach.py`.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from gin import coach  # noqa: E402
from ai import in_pyodide, pct  # noqa: E402  (bench/ai.py)

MATCHES = int(os.environ.get("BENCH_COACH_MATCHES", "6"))

# Runs as it is in CPython and in Pyodide: positions of `level` (seat of the
# player) against normal, the coach's verdict and both timings at each.
CODE = """
import json, time
from gin import ai, arena, coach
out = {}
for level in ("easy", "normal"):
    costs, notes, kept, deals, t_coach, t_hard = [], 0, 0, set(), [], []
    given = {}
    for m, seat, view in arena.positions(level, "normal", "BENCH-COACH", %(matches)d):
        deals.add((m.seed, m.deal_number))
        if len(view["legal"]) < 2:
            continue
        action = ai.choose(view, level)
        # Alternate which goes first: the second finds the first's hands in
        # gin.melds' cache.
        first = len(t_coach) %% 2 == 0
        if not first:
            t0 = time.perf_counter()
            ai.choose(view, "hard")
            t_hard.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        judged = coach.judge(view, action)
        t_coach.append(time.perf_counter() - t0)
        if first:
            t0 = time.perf_counter()
            ai.choose(view, "hard")
            t_hard.append(time.perf_counter() - t0)
        if judged and judged["cost"] is not None:
            costs.append(judged["cost"])
            if judged["cost"] >= coach.THRESHOLD:
                notes += 1
                seen = given.setdefault((m.seed, m.deal_number), set())
                kept += judged["advice"] not in seen
                seen.add(judged["advice"])
    out[level] = {"decisions": len(t_coach), "deals": len(deals), "costs": costs, "notes": notes, "kept": kept,
                  "coach": t_coach, "hard": t_hard}
result = json.dumps(out)
result
"""


def report(where: str, data: dict) -> None:
    for level, d in data.items():
        ms_c = [t * 1000 for t in d["coach"]]
        ms_h = [t * 1000 for t in d["hard"]]
        med_c, med_h = statistics.median(ms_c), statistics.median(ms_h)
        print(
            f"{where} {level:6s}: coach call median {med_c:.2f} ms, p99 {pct(ms_c, 0.99):.2f} ms, max {max(ms_c):.1f} ms; "
            f"{med_c / med_h:.2f}x Difícil's own decision (anchor, median {med_h:.2f} ms, same views), "
            f"{d['decisions']} decisions",
            flush=True,
        )


def threshold(data: dict) -> None:
    print(f"-- the threshold ({coach.THRESHOLD:g} points), {MATCHES} matches per level against normal")
    for level, d in data.items():
        costs = sorted(d["costs"])
        q = lambda p: costs[int(p * (len(costs) - 1))]  # noqa: E731
        print(
            f"{level:6s}: {d['decisions']} decisions in {d['deals']} deals; {len(costs)} differ from Difícil "
            f"with a cost: median {q(0.5):.1f}, p75 {q(0.75):.1f}, p90 {q(0.9):.1f}; "
            f">= 1: {sum(c >= 1 for c in costs)}, >= {coach.THRESHOLD:g}: {d['notes']} "
            f"({d['notes'] / d['deals']:.2f} a deal), shown after one note per advice a deal: {d['kept']} "
            f"({d['kept'] / d['deals']:.2f} a deal)"
        )


def main() -> int:
    scope: dict = {}
    exec(compile(CODE % {"matches": MATCHES}, "coach", "exec"), scope)
    data = json.loads(scope["result"])
    threshold(data)
    print("\n-- time of one coach call")
    report(f"CPython {sys.version.split()[0]}", data)
    node = shutil.which("node")
    if node is None or not (ROOT / "web" / "node_modules" / "pyodide").is_dir():
        print("Pyodide: skipped: needs node and web/node_modules/pyodide (run `python3 build.py build`)")
        return 0
    pyo = in_pyodide(node, CODE % {"matches": max(2, MATCHES // 3)}, "Pyodide: ")
    if pyo is not None:
        report(f"Pyodide (Python {pyo['python'].split()[0]})", json.loads(pyo["result"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
