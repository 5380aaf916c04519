"""The computer opponent: time per decision and strength.

1. Latency per decision of every level in CPython (median, p99), each level
   playing matches against the baseline.  Targets: hard <= 30 ms median and
   <= 300 ms p99; easy/normal <= 5 ms median.
2. Small arena runs (the full 1000-match numbers come from `python3 -m
   gin.arena`, see bench/README.md): hard vs baseline under traditional and
   standard, hard vs each other style of the pool, hard vs normal, normal vs
   easy, easy vs random.  Targets (match win rate): >= 70%, >= 78%, >= 65%,
   >= 60%, >= 60%, >= 95%.
3. hard's time per decision inside Pyodide under Node.js (target <= 80 ms
   median), booting web/node_modules/pyodide (present after `python3 build.py build`).

Environment: BENCH_AI_MATCHES (arena matches per pairing, default 80),
BENCH_AI_LATENCY_MATCHES (matches per level for latency, default 8).
Run with `python3 build.py bench` or directly: `python3 bench/ai.py`.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gin import arena  # noqa: E402
from gin.rules import Rules  # noqa: E402

ARENA_MATCHES = int(os.environ.get("BENCH_AI_MATCHES", "80"))
LATENCY_MATCHES = int(os.environ.get("BENCH_AI_LATENCY_MATCHES", "8"))
MEDIAN_TARGET = {"easy": 5.0, "normal": 5.0, "hard": 30.0}
P99_TARGET = {"hard": 300.0}
PAIRINGS = (
    ("hard", "baseline", "traditional", 0.70),
    ("hard", "baseline", "standard", 0.78),
    ("hard", "greedy", "traditional", 0.65),
    ("hard", "pairs", "traditional", 0.65),
    ("hard", "ginwait", "traditional", 0.65),
    ("hard", "normal", "traditional", 0.60),
    ("normal", "easy", "traditional", 0.60),
    ("easy", "random", "traditional", 0.95),
)
PYODIDE_TARGET = 80.0

# Played inside Pyodide: hard against the baseline, hard's decisions timed.
PYODIDE_CODE = """
import json, time
from gin import ai
from gin.match import Match
times = []
for n in range(%(matches)d):
    m = Match.new(seed=f"PYO-{n}")
    hard = n %% 2
    while not m.over and len(m.results) < 60:
        seat = m.to_act
        view = m.view(seat)
        t0 = time.perf_counter()
        action = ai.choose(view, "hard" if seat == hard else "baseline")
        if seat == hard:
            times.append(time.perf_counter() - t0)
        m.apply(action)
json.dumps(times)
"""


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def latency() -> None:
    print(f"-- latency per decision in CPython {sys.version.split()[0]} ({LATENCY_MATCHES} matches per level vs baseline)")
    rules = Rules.profile("traditional")
    for level in ("easy", "normal", "hard"):
        times: list[float] = []
        for n in range(LATENCY_MATCHES):
            st = arena.play_match(level, "baseline", f"LAT-{n}", a_seat=n % 2, rules=rules, max_deals=60)
            times.extend(st.times[0])
        ms = [t * 1000 for t in times]
        med, p99 = statistics.median(ms), pct(ms, 0.99)
        line = f"{level:7s} median {med:7.2f} ms (target <= {MEDIAN_TARGET[level]:.0f}: {verdict(med <= MEDIAN_TARGET[level])})"
        if level in P99_TARGET:
            line += f", p99 {p99:7.2f} ms (target <= {P99_TARGET[level]:.0f}: {verdict(p99 <= P99_TARGET[level])})"
        else:
            line += f", p99 {p99:7.2f} ms"
        print(f"{line}, max {max(ms):.1f} ms, {len(ms)} decisions", flush=True)


def strength() -> None:
    print(f"\n-- arena, {ARENA_MATCHES} matches per pairing (seats alternate; full runs: python3 -m gin.arena)")
    for a, b, profile, target in PAIRINGS:
        rules = Rules.profile(profile)
        print(f"[{profile}]")
        t0 = time.perf_counter()
        max_deals = 60 if b == "random" else 200
        results = arena.run_arena(a, b, ARENA_MATCHES, rules=rules, seed="BENCH", max_deals=max_deals)
        print(arena.report(a, b, results, time.perf_counter() - t0))
        wins = sum(1.0 if r.winner == 0 else 0.5 if r.winner is None else 0.0 for r in results) / len(results)
        print(f"target: {a} wins >= {target:.0%} of matches: {verdict(wins >= target)} ({wins:.1%})\n", flush=True)


def pyodide() -> None:
    print("-- hard inside Pyodide under Node.js")
    node = shutil.which("node")
    if node is None or not (ROOT / "web" / "node_modules" / "pyodide").is_dir():
        print("skipped: needs node and web/node_modules/pyodide (run `python3 build.py build`)")
        return
    matches = int(os.environ.get("BENCH_AI_PYODIDE_MATCHES", "4"))
    with tempfile.TemporaryDirectory() as tmp:
        code = Path(tmp) / "code.py"
        code.write_text(PYODIDE_CODE % {"matches": matches})
        out = Path(tmp) / "out.json"
        t0 = time.perf_counter()
        proc = subprocess.run(
            [node, str(ROOT / "bench" / "ai_pyodide.mjs"), str(out), str(code)],
            cwd=ROOT, capture_output=True, text=True, timeout=900,
        )
        if proc.returncode != 0:
            print(f"FAILED: {proc.stderr[-2000:]}")
            return
        data = json.loads(out.read_text())
    ms = [t * 1000 for t in json.loads(data["result"])]
    med = statistics.median(ms)
    print(
        f"Python {data['python'].split()[0]} in Pyodide: hard median {med:.2f} ms "
        f"(target <= {PYODIDE_TARGET:.0f}: {verdict(med <= PYODIDE_TARGET)}), p99 {pct(ms, 0.99):.2f} ms, "
        f"max {max(ms):.1f} ms, {len(ms)} decisions in {matches} matches ({time.perf_counter() - t0:.0f} s with boot)"
    )


def main() -> int:
    t0 = time.perf_counter()
    latency()
    pyodide()
    strength()
    print(f"bench/ai.py took {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
