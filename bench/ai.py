"""The computer opponent: time per decision and strength.

1. Latency per decision of every level in CPython (median, p99), each level
   playing matches against the baseline.  Targets: hard0 <= 30 ms median and
   <= 300 ms p99, the search <= 60 ms median; easy/normal <= 5 ms median.
2. Small arena runs (the full 1000-match numbers come from `python3 -m
   gin.arena`, see bench/README.md): hard vs baseline under traditional and
   standard, hard vs each other style of the pool, hard vs normal, normal vs
   easy, easy vs random.  Targets (match win rate): >= 70%, >= 78%, >= 65%,
   >= 60%, >= 60%, >= 95%.
3. The time per decision of hard0 (Difícil's heuristic player) and of the
   search (issue 22) inside Pyodide under Node.js, booting
   web/node_modules/pyodide (present after `python3 build.py build`), with the
   ratio to CPython on the same matches.  Targets: hard0 <= 80 ms median; the
   search <= 150 ms median and <= 1 s p99 (it must fit in the table's pause,
   150 ms at the fast speed), <= 60 ms median in CPython (part 1); hard with
   the danger model of issue 34 (`hard:danger_model=1`) and with the danger
   from sampled hands (`hard:danger_model=2`) the same: <= 60 ms median in
   CPython, <= 150 ms in Pyodide.
   `python3 bench/ai.py speed` runs parts 1 and 3 only, `pyodide` part 3.
   Times are CPU time (the process's own, Node's ``process.cpuUsage()`` in
   Pyodide) with the wall clock beside them: on a shared machine the wall
   clock measures the others' load.
4. Difícil's review of a 40-deal match (gin.replay.review: hard's choice and
   its scores at each of the human's decisions, one pass each through
   gin.ai.analyse), in CPython and in Pyodide: seconds in all, ms per
   decision, and the ratio to the anchor measured in the same run, the same
   decisions reviewed the way it was done before (gin.ai.hint at each, then
   gin.ai.estimates where the human's choice differs).  Target in Pyodide:
   <= 8 s ("a few seconds"; the page reviews in parts and shows progress).

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
#: Difícil's search (issue 22) and the hard it searches from (``hard0``), the anchor.
SEARCH = "search"
#: hard with the danger model of issue 34 (not the page's Difícil: measured no stronger).
DANGER = "hard:danger_model=1"
#: hard with the danger from sampled hands of issue 34 (arena only, the same targets).
SAMPLED = "hard:danger_model=2"
MEDIAN_TARGET = {"easy": 5.0, "normal": 5.0, "hard0": 30.0, SEARCH: 60.0, DANGER: 60.0, SAMPLED: 60.0}
P99_TARGET = {"hard0": 300.0}
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
PYODIDE_TARGET = {"hard0": 80.0, SEARCH: 150.0, DANGER: 150.0, SAMPLED: 150.0}
PYODIDE_P99_TARGET = {SEARCH: 1000.0}
REVIEW_TARGET = 8.0

# The review, timed against the two-pass anchor; run as it is in CPython and in Pyodide.
REVIEW_CODE = """
import json, time
from gin import ai, arena
from gin.match import Match
from gin.replay import action_key, review
from gin.rules import Rules
import gin.melds
import gin.shuffle

rules = Rules.profile("custom", target=500)
st = arena.play_match("normal", "normal", "REVIEW-LONG", a_seat=0, rules=rules, max_deals=40, keep_actions=True)
save = Match.new(seed="REVIEW-LONG", rules=rules).to_save()
save["actions"] = st.actions

def two_pass():
    m = Match.new(seed=save["seed"], rules=rules)
    for action in save["actions"]:
        if m.to_act == 0 and len(m.legal_actions()) > 1:
            view = m.view(0)
            hint = ai.hint(view)
            if action_key(action) != action_key(hint["action"]):
                ai.estimates(view)
        m.apply(action)

times = {"review": [], "two_pass": []}
for n in range(%(rounds)d):
    for name in (("review", "two_pass") if n %% 2 == 0 else ("two_pass", "review")):
        gin.melds._CACHE.clear()  # each run starts cold, as in the page
        gin.melds._LEAST.clear()
        gin.melds._PACKED.clear()
        gin.melds._WITHOUT.clear()
        gin.shuffle._DECKS.clear()  # the review replays the save: its deals dealt afresh
        t0 = time.perf_counter()
        out = review(save) if name == "review" else two_pass()
        times[name].append(time.perf_counter() - t0)
        if name == "review":
            summary = out["summary"]
r = Match.from_save(save)
result = json.dumps({"deals": len(r.results), "decisions": summary["decisions"], "differing": summary["differing"], **times})
result
"""

# Played inside Pyodide (and, for the ratio, in CPython): each level against the
# baseline, its decisions timed.
PYODIDE_CODE = """
import json, time
from gin import ai
from gin.match import Match
try:  # Pyodide under Node: the process's CPU time (Pyodide's process_time is the wall clock)
    from js import process as _process

    def cpu_time():
        use = _process.cpuUsage()
        return (use.user + use.system) / 1e6
except ImportError:
    cpu_time = time.process_time
times = {}
cpu = {}
for level in %(levels)r:
    times[level] = []
    cpu[level] = []
    for n in range(%(matches)d):
        m = Match.new(seed=f"PYO-{n}")
        hard = n %% 2
        while not m.over and len(m.results) < 60:
            seat = m.to_act
            view = m.view(seat)
            t0, c0 = time.perf_counter(), cpu_time()
            action = ai.choose(view, level if seat == hard else "baseline")
            if seat == hard:
                times[level].append(time.perf_counter() - t0)
                cpu[level].append(cpu_time() - c0)
            m.apply(action)
json.dumps({"wall": times, "cpu": cpu})
"""


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def latency() -> None:
    print(f"-- latency per decision in CPython {sys.version.split()[0]} ({LATENCY_MATCHES} matches per level vs baseline;"
          f" CPU time of the process, and wall clock with the load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    rules = Rules.profile("traditional")
    for level in ("easy", "normal", "hard0", SEARCH, DANGER, SAMPLED):
        cpu: list[float] = []
        wall: list[float] = []
        for n in range(LATENCY_MATCHES):
            st = arena.play_match(level, "baseline", f"LAT-{n}", a_seat=n % 2, rules=rules, max_deals=60)
            cpu.extend(st.cpu[0])
            wall.extend(st.times[0])
        ms = [t * 1000 for t in cpu]
        med, p99 = statistics.median(ms), pct(ms, 0.99)
        line = f"{level:7s} CPU median {med:7.2f} ms (target <= {MEDIAN_TARGET[level]:.0f}: {verdict(med <= MEDIAN_TARGET[level])})"
        if level in P99_TARGET:
            line += f", p99 {p99:7.2f} ms (target <= {P99_TARGET[level]:.0f}: {verdict(p99 <= P99_TARGET[level])})"
        else:
            line += f", p99 {p99:7.2f} ms"
        wms = [t * 1000 for t in wall]
        print(f"{line}, max {max(ms):.1f} ms; wall median {statistics.median(wms):.2f} ms, p99 {pct(wms, 0.99):.1f} ms;"
              f" {len(ms)} decisions", flush=True)


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


def in_pyodide(node: str, code: str, label: str) -> dict | None:
    """Runs ``code`` in Pyodide under Node (bench/ai_pyodide.mjs): ``{"python",
    "result"}``, or None after printing why it failed."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "code.py"
        path.write_text(code)
        out = Path(tmp) / "out.json"
        proc = subprocess.run(
            [node, str(ROOT / "bench" / "ai_pyodide.mjs"), str(out), str(path)],
            cwd=ROOT, capture_output=True, text=True, timeout=900,
        )
        if proc.returncode != 0:
            print(f"{label}FAILED: {proc.stderr[-2000:]}")
            return None
        return json.loads(out.read_text())


def pyodide() -> None:
    print(f"\n-- hard0, {SEARCH}, {DANGER} and {SAMPLED} inside Pyodide under Node.js (against the baseline, the same"
          " matches)")
    node = shutil.which("node")
    if node is None or not (ROOT / "web" / "node_modules" / "pyodide").is_dir():
        print("skipped: needs node and web/node_modules/pyodide (run `python3 build.py build`)")
        return
    matches = int(os.environ.get("BENCH_AI_PYODIDE_MATCHES", "4"))
    code = PYODIDE_CODE % {"matches": matches, "levels": ("hard0", SEARCH, DANGER, SAMPLED)}
    t0 = time.perf_counter()
    data = in_pyodide(node, code, "")
    if data is None:
        return
    elapsed = time.perf_counter() - t0
    scope: dict = {}
    exec(compile(code.replace("json.dumps({", "result = json.dumps({"), "cpython", "exec"), scope)
    here = json.loads(scope["result"])["cpu"]
    got = json.loads(data["result"])
    print(f"(CPU time of the Node process, process.cpuUsage(), against CPython's process time on the same"
          f" decisions; the wall clock beside it, with the load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    for level, times in got["cpu"].items():
        ms = [t * 1000 for t in times]
        wms = [t * 1000 for t in got["wall"][level]]
        med, p99 = statistics.median(ms), pct(ms, 0.99)
        line = (f"Python {data['python'].split()[0]} in Pyodide: {level} median {med:.2f} ms "
                f"(target <= {PYODIDE_TARGET[level]:.0f}: {verdict(med <= PYODIDE_TARGET[level])}), p99 {p99:.2f} ms")
        if level in PYODIDE_P99_TARGET:
            line += f" (target <= {PYODIDE_P99_TARGET[level]:.0f}: {verdict(p99 <= PYODIDE_P99_TARGET[level])})"
        anchor = statistics.median(here[level]) * 1000
        print(f"{line}, max {max(ms):.1f} ms, {len(ms)} decisions in {matches} matches; "
              f"{med / anchor:.2f}x its CPython median on the same decisions ({anchor:.2f} ms);"
              f" wall median {statistics.median(wms):.2f} ms, p99 {pct(wms, 0.99):.1f} ms")
    print(f"({elapsed:.0f} s in Pyodide with boot)")


def _review_line(where: str, data: dict, target: float | None) -> str:
    review, anchor = statistics.median(data["review"]), statistics.median(data["two_pass"])
    line = (
        f"{where}: review of {data['deals']} deals, {data['decisions']} decisions ({data['differing']} differ): "
        f"{review:.2f} s, {1000 * review / data['decisions']:.2f} ms per decision; "
        f"{review / anchor:.2f}x the two-pass anchor ({anchor:.2f} s, same run)"
    )
    if target is not None:
        line += f"; target <= {target:.0f} s: {verdict(review <= target)}"
    return line


def review_speed() -> None:
    print("\n-- Difícil's review of a 40-deal match (median of alternating runs)")
    rounds = int(os.environ.get("BENCH_AI_REVIEW_ROUNDS", "3"))
    scope: dict = {}
    exec(compile(REVIEW_CODE % {"rounds": rounds}, "review", "exec"), scope)
    data = json.loads(scope["result"])
    print(_review_line(f"CPython {sys.version.split()[0]}", data, None), flush=True)
    node = shutil.which("node")
    if node is None or not (ROOT / "web" / "node_modules" / "pyodide").is_dir():
        print("Pyodide: skipped: needs node and web/node_modules/pyodide (run `python3 build.py build`)")
        return
    result = in_pyodide(node, REVIEW_CODE % {"rounds": rounds}, "Pyodide: ")
    if result is None:
        return
    print(_review_line(f"Pyodide (Python {result['python'].split()[0]})", json.loads(result["result"]), REVIEW_TARGET))


def main() -> int:
    t0 = time.perf_counter()
    if sys.argv[1:] == ["review"]:
        review_speed()
        return 0
    if sys.argv[1:] == ["speed"]:
        latency()
        pyodide()
        return 0
    if sys.argv[1:] == ["pyodide"]:
        pyodide()
        return 0
    latency()
    pyodide()
    review_speed()
    strength()
    print(f"bench/ai.py took {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
