"""Paired arena runs of Difícil's search (issue 22): budgets and ablations.

    python3 bench/tune/search.py --profile traditional --matches 200 --seed S1 \\
        hard0 search:budget=12 search search:budget=96 search:belief=0

A run stopped by time (``--minutes``) goes on with ``--first N`` (the matches
from N); ``--out FILE`` keeps each match's result as a JSON line.

Every level plays the same ``--matches`` matches against ``--b`` (match n:
seed ``"<seed>-n"``, the level at seat n % 2), so each row is compared match
by match with the first (the anchor): the matches only the row's level won
and only the anchor won (a draw counts as half a win either way is not
split: it is neither), and a two-sided sign test on them.  Win rates with 95%
Wilson intervals; decision time median and p99 (wall clock, the machine as
it is); playouts are a count, the same on any machine.  Runs on
``--workers`` processes (default 2: the machine is shared), under ``nice``
if started so.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from gin import arena  # noqa: E402
from gin.rules import Rules  # noqa: E402


def sign_test(a: int, b: int) -> float:
    """Two-sided exact sign test p-value of ``a`` against ``b`` discordant results."""
    n = a + b
    if n == 0:
        return 1.0
    k = min(a, b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def _play(job: tuple[str, str, str, int, dict]) -> tuple[str, int, arena.MatchStats]:
    level, b, seed, n, rules = job
    return level, n, arena._one((level, b, seed, n, rules, 200))


def run(levels: list[str], b: str, matches: int, rules: Rules, seed: str, workers: int, minutes: float, first: int = 0):
    """``{level: [MatchStats of match first, first + 1, ...]}``, the levels interleaved match by
    match, so that a run stopped at ``minutes`` is still paired over the matches every level
    finished."""
    import multiprocessing

    jobs = [(level, b, seed, n, rules.to_dict()) for n in range(first, matches) for level in levels]
    got: dict[str, dict[int, arena.MatchStats]] = {level: {} for level in levels}
    stop = time.monotonic() + 60 * minutes
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for i, (level, n, st) in enumerate(pool.imap_unordered(_play, jobs, chunksize=1), 1):
            got[level][n] = st
            if i % 20 == 0:
                print(f"  {i}/{len(jobs)} games", file=sys.stderr, flush=True)
            if time.monotonic() > stop:
                pool.terminate()
                break
    done = first
    while done < matches and all(done in got[level] for level in levels):
        done += 1
    return {level: [got[level][n] for n in range(first, done)] for level in levels}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("levels", nargs="+")
    p.add_argument("--b", default="baseline")
    p.add_argument("--profile", default="traditional")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--matches", type=int, default=100)
    p.add_argument("--seed", default="S1")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--minutes", type=float, default=60.0, help="stop then, reporting the matches all levels finished")
    p.add_argument("--first", type=int, default=0, help="start at this match (the rest of a run stopped by time)")
    p.add_argument("--out", type=Path, help="also write each match's result here, a JSON line each (to add runs up)")
    args = p.parse_args(argv)
    for level in args.levels + [args.b]:
        arena._level(level)
    rules = Rules.profile(args.profile, **arena._options(args.option))
    t0 = time.perf_counter()
    runs = run(args.levels, args.b, args.matches, rules, args.seed, args.workers, args.minutes, args.first)
    n = len(runs[args.levels[0]])
    if args.out:
        with args.out.open("a") as out:
            for level, res in runs.items():
                for i, r in enumerate(res, args.first):
                    line = {"profile": args.profile, "seed": args.seed, "b": args.b, "level": level, "match": i,
                            "winner": r.winner, "points": list(r.points), "deals": r.deals}
                    out.write(json.dumps(line) + "\n")
    print(f"{args.profile} {arena._options(args.option) or ''} vs {args.b}: {n} paired matches, seed {args.seed}, "
          f"{time.perf_counter() - t0:.0f} s")
    print("| level | win rate (95% CI) | points per deal (A / B) | only it / only anchor (sign p) | median / p99 ms |")
    print("|---|---|---|---|---|")
    anchor = None
    for level in args.levels:
        res = runs[level]
        if not res:
            continue
        wins = [r.winner == 0 for r in res]
        score = sum(wins) + 0.5 * sum(r.winner is None for r in res)
        lo, hi = arena.wilson(score, len(res))
        deals = max(1, sum(r.deals for r in res))
        pa, pb = (sum(r.points[s] for r in res) / deals for s in (0, 1))
        times = [t for r in res for t in r.times[0]]
        if anchor is None:
            anchor = wins
            paired = "anchor"
        else:
            only = sum(1 for x, y in zip(wins, anchor) if x and not y)
            only_anchor = sum(1 for x, y in zip(wins, anchor) if y and not x)
            paired = f"{only} / {only_anchor} (p {sign_test(only, only_anchor):.2f})"
        print(
            f"| {level} | {score / len(res):.1%} ({lo:.1%}–{hi:.1%}) | {pa:.2f} / {pb:.2f} | {paired} | "
            f"{arena._pct(times, 0.5) * 1000:.1f} / {arena._pct(times, 0.99) * 1000:.0f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
