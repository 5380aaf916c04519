"""Difícil with your cards and Comprobar (issue 32): what they cost, and the figures.

`python3 bench/duplicate.py` (and `python3 build.py bench`) prints the costs:

1. Difícil with your cards: ``gin.duplicate.replay_deal`` for each ended deal of a
   finished match, as the bridge's ``duplicate`` runs it after a deal (the save
   loaded, the deal played again by hard in the player's seat and the computer
   at its level), per deal: median and p99, for the computer at each level (the
   player's seat played by normal), in CPython and in Pyodide under Node.js
   (bench/ai_pyodide.mjs: the tree's gin/ in web/node_modules/pyodide, present
   after `python3 build.py build`).  Budget: the result panel's time on a
   phone-class CPU, about a second.
2. Comprobar: ``gin.fairness.verify`` of whole matches with the default number
   of worlds per decision (``gin.fairness.LEVEL_SAMPLES``, by the computer's
   level): seconds per match, the computer's decisions, ms per decision asked again.  Budget: a few seconds in
   Pyodide for a whole match (the page checks in parts with a progress bar).

Times are CPU time (the process's own; Node's ``process.cpuUsage()`` in
Pyodide), the wall clock beside them: the machine is shared.

`python3 bench/duplicate.py figures [--matches 300] [--against hard] [--levels easy,normal,hard]
[--workers 2] [--out FILE]` plays ``--matches`` matches per level with that level in the
player's seat and ``--against`` in the computer's (match n: seed ``DUP-FIG-<n>``,
the same seeds for every level, so the levels are paired), replays every deal
with Difícil in the player's seat, and prints per level the mean per-deal
difference (player − Difícil on the same cards) with its 95 % t interval over
deals (gin.duplicate.summary), the same over matches as a check of the deals'
dependence within a match, and how often the t and the normal intervals of
``n`` deals drawn from the level's deals cover the mean of all of them.
``--out`` keeps one JSON line per match (a stopped run goes on from it).

`python3 bench/duplicate.py worlds [--matches 30] [--bases hard,normal]
[--kinds stock,hand,seed,knock] [--most 8] [--workers 2] [--out FILE]`: what
Comprobar catches, by the number of worlds a decision, of the levels that peek
in tests/peeking.py (each kind over each base level) in the computer's seat
against Normal (seeds ``DUP-PEEK-<n>``): per kind, the decisions the peek
changed, and how many of them and of all decisions a check in 1, 2, 3, 4, 8
(up to ``--most``) worlds flags, and the matches it catches.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the levels that peek live with the tests, not in gin/

import peeking  # noqa: E402
from gin import duplicate, fairness  # noqa: E402
from gin.match import Match  # noqa: E402
from gin.rules import Rules  # noqa: E402

COST_LEVELS = ("easy", "normal", "hard")
COST_MATCHES = int(os.environ.get("BENCH_DUPLICATE_MATCHES", "3"))
REPLAY_BUDGET = 1.0  # s per deal in Pyodide, median
VERIFY_BUDGET = 5.0  # s per whole match in Pyodide

# Timed in CPython and, the same text, in Pyodide: the saves are given as JSON.
COST_CODE = """
import json, time
from gin import duplicate, fairness
try:
    from js import process  # Pyodide under Node, where process_time is the wall clock
except ImportError:
    process = None


def cpu_time():  # the process's CPU time (Node's process.cpuUsage() in Pyodide)
    if process is None:
        return time.process_time()
    use = process.cpuUsage()
    return (use.user + use.system) / 1e6


saves = json.loads(%(saves)r)
out = {"replay": {}, "verify": {}}
for level, group in saves.items():
    out["replay"][level] = []
    out["verify"][level] = []
    for save in group:
        deals = len(duplicate.Match.from_save(save).results)
        for n in range(1, deals + 1):
            t0, c0 = time.perf_counter(), cpu_time()
            duplicate.replay_deal(save, n)
            out["replay"][level].append([cpu_time() - c0, time.perf_counter() - t0])
        t0, c0 = time.perf_counter(), cpu_time()
        v = fairness.verify(save)
        out["verify"][level].append([cpu_time() - c0, time.perf_counter() - t0, v["decisions"], v["same"], v["worlds"]])
json.dumps(out)
"""


def finished(player: str, computer: str, seed: str, rules: Rules | None = None) -> dict:
    """A finished match: ``player`` at seat 0, ``computer`` at seat 1, as the bridge saves it."""
    m = Match.new(seed=seed, rules=rules)
    while not m.over:
        seat = m.to_act
        m.apply(fairness.computer_move(m, player if seat == 0 else computer, seat))
    m.meta.update(level=computer, levels=[computer] * m.deal_number)
    return m.to_save()


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def run_pyodide(code: str) -> dict | None:
    """``code`` run in Pyodide under Node by bench/ai_pyodide.mjs: ``{"python", "result"}`` or None (said why)."""
    node = shutil.which("node")
    if node is None or not (ROOT / "web" / "node_modules" / "pyodide").is_dir():
        print("Pyodide: skipped: needs node and web/node_modules/pyodide (run `python3 build.py build`)")
        return None
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "code.py").write_text(code)
        cmd = [node, str(ROOT / "bench" / "ai_pyodide.mjs"), str(Path(tmp) / "out.json"), str(Path(tmp) / "code.py")]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=3600)
        if proc.returncode != 0:
            print(f"Pyodide: FAILED: {proc.stderr[-2000:]}")
            return None
        return json.loads((Path(tmp) / "out.json").read_text())


def print_costs(where: str, data: dict, budgets: bool) -> None:
    for level in COST_LEVELS:
        replay = [c for c, _ in data["replay"][level]]
        wall = [w for _, w in data["replay"][level]]
        med, p99 = statistics.median(replay), pct(replay, 0.99)
        line = (f"{where} replay of a deal by Difícil, computer {level:6s}: median {med * 1000:6.0f} ms, "
                f"p99 {p99 * 1000:6.0f} ms, max {max(replay) * 1000:5.0f} ms over {len(replay)} deals"
                f" (wall median {statistics.median(wall) * 1000:.0f} ms)")
        if budgets:
            line += f"; budget median <= {REPLAY_BUDGET * 1000:.0f} ms: {verdict(med <= REPLAY_BUDGET)}"
        print(line)
    for level in COST_LEVELS:
        runs = data["verify"][level]
        secs = [r[0] for r in runs]
        decisions = sum(r[2] for r in runs)
        per = 1000 * sum(secs) / sum(r[4] for r in runs)
        line = (f"{where} Comprobar, computer {level:6s}: {statistics.mean(secs):5.1f} s per match (max {max(secs):.1f} s),"
                f" {decisions / len(runs):.0f} decisions x {fairness.LEVEL_SAMPLES[level]} worlds,"
                f" {per:.2f} ms per decision asked again; {sum(r[3] for r in runs)} of the {decisions} the same")
        if budgets:
            line += f"; budget <= {VERIFY_BUDGET:.0f} s: {verdict(max(secs) <= VERIFY_BUDGET)}"
        print(line)


def costs() -> None:
    print(f"-- Difícil with your cards and Comprobar: {COST_MATCHES} matches per computer level, the player's seat"
          f" played by normal (CPU time; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    saves = {level: [finished("normal", level, f"DUP-COST-{n}") for n in range(COST_MATCHES)] for level in COST_LEVELS}
    code = COST_CODE % {"saves": json.dumps(saves)}
    scope: dict = {}
    exec(compile(code.replace("json.dumps(out)", "result = json.dumps(out)"), "cpython", "exec"), scope)
    print_costs(f"CPython {sys.version.split()[0]}:", json.loads(scope["result"]), budgets=False)
    t0 = time.perf_counter()
    data = run_pyodide(code)
    if data is not None:
        print_costs(f"Pyodide (Python {data['python'].split()[0]}):", json.loads(data["result"]), budgets=True)
        print(f"({time.perf_counter() - t0:.0f} s in Pyodide with boot)")


# -- the figures --------------------------------------------------------------------


def one_match(args: tuple[str, str, int]) -> dict:
    level, against, n = args
    save = finished(level, against, f"DUP-FIG-{n}", Rules.profile("traditional"))
    deals = duplicate.replay_deals(Match.from_save(save))
    return {"level": level, "against": against, "n": n,
            "deals": [[r["points"]["player"], r["points"]["hard"]] for r in deals]}


def coverage(diffs: list[int], sizes: tuple[int, ...], trials: int = 4000) -> dict[int, tuple[float, float]]:
    """How often the 95 % t and normal intervals of ``n`` deals drawn (with replacement)
    from ``diffs`` cover the mean of ``diffs``, for each ``n`` in ``sizes``."""
    truth = statistics.fmean(diffs)
    rng = random.Random(32)
    out = {}
    for n in sizes:
        t_hits = z_hits = 0
        for _ in range(trials):
            sample = rng.choices(diffs, k=n)
            mean, sd, interval = duplicate.mean_interval(n, sum(sample), sum(d * d for d in sample))
            t_hits += interval[0] <= truth <= interval[1]
            half = 1.959964 * sd / math.sqrt(n)
            z_hits += mean - half <= truth <= mean + half
        out[n] = (t_hits / trials, z_hits / trials)
    return out


def report(rows: list[dict]) -> None:
    for level in dict.fromkeys(r["level"] for r in rows):
        mine = [r for r in rows if r["level"] == level]
        records = [{"level": "hard", "profile": "traditional", "player": p, "hard": h}
                   for r in mine for p, h in r["deals"]]
        s = duplicate.summary(records)["all"]
        # Each match's mean per-deal difference: independent across matches, whatever
        # ties the deals of one match together (the scores, who deals).
        per_match = [statistics.fmean(p - h for p, h in r["deals"]) for r in mine if r["deals"]]
        m_mean = statistics.fmean(per_match)
        half = duplicate.t_quantile(0.975, len(per_match) - 1) * statistics.stdev(per_match) / math.sqrt(len(per_match))
        interval = "none" if s["interval"] is None else f"{s['interval'][0]:+.2f} .. {s['interval'][1]:+.2f}"
        print(f"{level:6s} vs {mine[0]['against']}: {len(mine)} matches, {s['deals']} deals; player {s['player']:+.2f}"
              f" and Difícil {s['hard']:+.2f} points per deal; difference {s['difference']:+.2f} per deal,"
              f" 95 % t interval {interval} (sd {s['sd']:.1f}); over matches (mean of each match's per-deal"
              f" difference) {m_mean:+.2f} ± {half:.2f}")
        diffs = [p - h for r in mine for p, h in r["deals"]]
        if len(set(diffs)) > 1:
            cov = coverage(diffs, (5, 10, 20, 50, 100))
            print("        coverage of the 95 % interval of n deals (t / normal): "
                  + ", ".join(f"n={n} {t:.1%} / {z:.1%}" for n, (t, z) in cov.items()))


def figures(argv: list[str]) -> None:
    p = argparse.ArgumentParser(prog="bench/duplicate.py figures")
    p.add_argument("--matches", type=int, default=300)
    p.add_argument("--against", default="hard")
    p.add_argument("--levels", default="easy,normal,hard")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path)
    args = p.parse_args(argv)
    levels = args.levels.split(",")
    done: list[dict] = []
    if args.out and args.out.exists():
        done = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
    have = {(r["level"], r["against"], r["n"]) for r in done}
    todo = [(lv, args.against, n) for lv in levels for n in range(args.matches) if (lv, args.against, n) not in have]
    t0 = time.perf_counter()
    print(f"figures: {len(todo)} matches to play ({len(done)} kept), {args.workers} workers", flush=True)
    with ProcessPoolExecutor(args.workers) as pool:
        for k, row in enumerate(pool.map(one_match, todo, chunksize=2)):
            done.append(row)
            if args.out:
                with args.out.open("a") as f:
                    f.write(json.dumps(row) + "\n")
            if (k + 1) % 25 == 0:
                print(f"  {k + 1}/{len(todo)} in {time.perf_counter() - t0:.0f} s", flush=True)
    rows = [r for r in done if r["against"] == args.against and r["level"] in levels and r["n"] < args.matches]
    print(f"-- the player's seat played by each level against {args.against}, {args.matches} matches each"
          f" (traditional, seeds DUP-FIG-0..{args.matches - 1}); {time.perf_counter() - t0:.0f} s")
    report(rows)


# -- how many worlds: what Comprobar catches of a level that peeks -----------------------------

WORLD_COUNTS = (1, 2, 3, 4, 8, 16, 32)


def one_check(args: tuple[str, str, int, int]) -> dict:
    """One match of ``kind`` peeking over ``base`` (tests/peeking.py) against Normal, each decision
    asked again in up to ``most`` worlds (the first ``k`` of them are exactly the ``k`` worlds
    ``verify(samples=k)`` asks): per decision, whether the peek changed what was played (the
    honest ``base`` asked at the real table plays otherwise) and the first world that gives
    another action than the one recorded (None: none of the ``most``)."""
    kind, base, n, most = args
    peeking.register((base,))
    name = peeking.level_name(kind, base)
    save = finished("normal", name, f"DUP-PEEK-{n}")
    m = Match(seed=save["seed"], rules=Rules.from_dict(save["rules"]))
    rows = []
    for index, action in enumerate(save["actions"]):
        if m.to_act == fairness.COMPUTER and len(m.deal.legal_actions()) > 1:
            recorded = fairness.decision_key(action)
            changed = fairness.decision_key(fairness.computer_move(m, base)) != recorded
            first = None
            for k, world in enumerate(fairness.worlds(m, most, index=index)):
                if fairness.decision_key(fairness.computer_move(world, name)) != recorded:
                    first = k
                    break
            rows.append([changed, first])
        m.apply(action)
    return {"kind": kind, "base": base, "n": n, "most": most, "decisions": rows}


def report_worlds(rows: list[dict]) -> None:
    for base, kind in dict.fromkeys((r["base"], r["kind"]) for r in rows):
        mine = [r for r in rows if (r["base"], r["kind"]) == (base, kind)]
        decisions = [d for r in mine for d in r["decisions"]]
        changed = [d for d in decisions if d[0]]
        touched = [r for r in mine if any(d[0] for d in r["decisions"])]
        most = min(r["most"] for r in mine)
        print(f"{peeking.level_name(kind, base):16s} {len(mine)} matches, {len(decisions) / len(mine):.0f} decisions a match;"
              f" the peek changed {len(changed)} ({len(changed) / len(mine):.1f} a match), in {len(touched)} matches")
        for k in (k for k in WORLD_COUNTS if k <= most):
            def caught(d: list) -> bool:
                return d[1] is not None and d[1] < k
            flagged = [sum(caught(d) for d in r["decisions"]) for r in mine]
            hit = sum(1 for r in touched if any(caught(d) for d in r["decisions"]))
            print(f"    {k} worlds: {sum(flagged)} decisions flagged ({sum(flagged) / len(mine):.1f} a match, fewest"
                  f" {min(flagged)}); of the decisions the peek changed {sum(caught(d) for d in changed)}"
                  f" ({sum(caught(d) for d in changed) / max(1, len(changed)):.0%}); matches caught {hit} of the"
                  f" {len(touched)} where it peeked to effect, {sum(1 for f in flagged if f)} of {len(mine)} in all")


def check_worlds(argv: list[str]) -> None:
    p = argparse.ArgumentParser(prog="bench/duplicate.py worlds")
    p.add_argument("--matches", type=int, default=30)
    p.add_argument("--bases", default="hard,normal")
    p.add_argument("--kinds", default=",".join(peeking.KINDS))
    p.add_argument("--most", type=int, default=8)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path)
    args = p.parse_args(argv)
    done: list[dict] = []
    if args.out and args.out.exists():
        done = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
    have = {(r["kind"], r["base"], r["n"]) for r in done if r["most"] >= args.most}
    keys = [(k, b, n) for b in args.bases.split(",") for k in args.kinds.split(",") for n in range(args.matches)]
    todo = [(*key, args.most) for key in keys if key not in have]
    t0 = time.perf_counter()
    print(f"worlds: {len(todo)} matches to check ({len(done)} kept), {args.workers} workers", flush=True)
    with ProcessPoolExecutor(args.workers) as pool:
        for k, row in enumerate(pool.map(one_check, todo)):
            done.append(row)
            if args.out:
                with args.out.open("a") as f:
                    f.write(json.dumps(row) + "\n")
            if (k + 1) % 10 == 0:
                print(f"  {k + 1}/{len(todo)} in {time.perf_counter() - t0:.0f} s", flush=True)
    wanted = set(keys)
    rows = [r for r in done if (r["kind"], r["base"], r["n"]) in wanted and r["most"] >= args.most]
    print(f"-- Comprobar against levels that peek (tests/peeking.py), {args.matches} matches each against Normal"
          f" (seeds DUP-PEEK-0..{args.matches - 1}), up to {args.most} worlds a decision;"
          f" {time.perf_counter() - t0:.0f} s")
    report_worlds(rows)


def main() -> int:
    if sys.argv[1:2] == ["figures"]:
        figures(sys.argv[2:])
        return 0
    if sys.argv[1:2] == ["worlds"]:
        check_worlds(sys.argv[2:])
        return 0
    t0 = time.perf_counter()
    costs()
    print(f"bench/duplicate.py took {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
