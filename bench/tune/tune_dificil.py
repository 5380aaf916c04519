"""Paired arena screens of Difícil's settings (issue 34), with every match kept.

    python3 bench/tune/tune_dificil.py --profile traditional --matches 200 --seed T34 \\
        --opponents baseline,greedy,pairs,ginwait --results runs/results.jsonl \\
        hard0 hard hard:danger=4 hard:danger=2

Each level (``hard:key=value,...`` changes Difícil's parameters,
``gin.ai.policy.hard_level``) plays the same matches against each opponent
(match n: seed ``"<seed>-n"``, the level at seat n % 2, as ``python3 -m
gin.arena --seed``).  Every finished match is appended to ``--results`` (a
JSON line: profile, seed, opponent, level, match, winner, points, deals) and
a match already there is not played again, so a run stopped at any time goes
on where it was, and hard0's matches, which never change, are played once for
every comparison.  The code a level names must not change between runs that
share a results file: start a new file after changing gin/ai.

The report compares each level with the first (the anchor) match by match:
the matches only one of the two won, and a two-sided sign test on them.
Jobs run interleaved by match number on ``--workers`` processes, under
whatever priority the command was started with (``chrt -i 0`` on a shared
machine).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from gin import arena  # noqa: E402
from gin.rules import Rules  # noqa: E402


def sign_test(a: int, b: int) -> float:
    """Two-sided exact sign test p-value of ``a`` against ``b`` discordant results."""
    from math import comb

    n = a + b
    if n == 0:
        return 1.0
    tail = sum(comb(n, i) for i in range(min(a, b) + 1)) / 2**n
    return min(1.0, 2 * tail)


def _key(profile: str, seed: str, opponent: str, level: str, match: int) -> tuple:
    return (profile, seed, opponent, level, match)


def _play(job: tuple) -> dict:
    profile, options, seed, opponent, level, n = job
    rules = Rules.profile(profile, **options)
    st = arena.play_match(level, opponent, f"{seed}-{n}", a_seat=n % 2, rules=rules)
    cpu = sorted(st.cpu[0])
    return {"profile": profile, "seed": seed, "opponent": opponent, "level": level, "match": n,
            "winner": st.winner, "points": list(st.points), "deals": st.deals,
            "cpu_median": cpu[len(cpu) // 2] if cpu else None}


def load(path: Path) -> dict[tuple, dict]:
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                done[_key(r["profile"], r["seed"], r["opponent"], r["level"], r["match"])] = r
    return done


def report(done: dict, profile: str, seed: str, opponents: list[str], levels: list[str], matches: int) -> str:
    out = []
    for opp in opponents:
        rows = {lv: [done.get(_key(profile, seed, opp, lv, n)) for n in range(matches)] for lv in levels}
        common = [n for n in range(matches) if all(rows[lv][n] is not None for lv in levels)]
        out.append(f"\n{profile} vs {opp}, seed {seed}: {len(common)} paired matches")
        out.append("| level | win rate (95% CI) | points per deal (A / B) | only it / only anchor (sign p) |")
        out.append("|---|---|---|---|")
        anchor = None
        for lv in levels:
            res = [rows[lv][n] for n in common]
            if not res:
                continue
            score = [1.0 if r["winner"] == 0 else 0.5 if r["winner"] is None else 0.0 for r in res]
            lo, hi = arena.wilson(sum(score), len(res))
            deals = max(1, sum(r["deals"] for r in res))
            pa, pb = (sum(r["points"][s] for r in res) / deals for s in (0, 1))
            if anchor is None:
                anchor, paired = score, "anchor"
            else:
                only = sum(1 for x, y in zip(score, anchor) if x > y)
                only_a = sum(1 for x, y in zip(score, anchor) if y > x)
                paired = f"{only} / {only_a} (p {sign_test(only, only_a):.3f})"
            out.append(f"| {lv} | {sum(score) / len(res):.1%} ({lo:.1%}–{hi:.1%}) | {pa:.2f} / {pb:.2f} | {paired} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:  # `python3 build.py bench` runs every script bare: a research script, not a benchmark
        print(__doc__.split("\n\n")[0] + " Research only: run it with arguments (bench/README.md).")
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("levels", nargs="+")
    p.add_argument("--opponents", default="baseline")
    p.add_argument("--profile", default="traditional")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--matches", type=int, default=200)
    p.add_argument("--first", type=int, default=0, help="play from this match number (the report counts from 0)")
    p.add_argument("--seed", default="T34")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--results", type=Path, required=True)
    p.add_argument("--report-only", action="store_true")
    args = p.parse_args(argv)
    opponents = args.opponents.split(",")
    for lv in args.levels + opponents:
        arena._level(lv)
    options = arena._options(args.option)
    profile = args.profile if not options else f"{args.profile}:" + ",".join(args.option)
    done = load(args.results)
    jobs = [(args.profile, options, args.seed, opp, lv, n) for n in range(args.first, args.matches)
            for opp in opponents for lv in args.levels
            if _key(profile, args.seed, opp, lv, n) not in done]
    t0 = time.monotonic()
    if jobs and not args.report_only:
        print(f"{len(jobs)} matches to play", file=sys.stderr, flush=True)
        with args.results.open("a") as f, multiprocessing.get_context("fork").Pool(args.workers) as pool:
            for i, r in enumerate(pool.imap(_play, jobs, chunksize=1), 1):
                r["profile"] = profile
                f.write(json.dumps(r) + "\n")
                f.flush()
                done[_key(profile, r["seed"], r["opponent"], r["level"], r["match"])] = r
                if i % 50 == 0:
                    print(f"  {i}/{len(jobs)} ({time.monotonic() - t0:.0f} s)", file=sys.stderr, flush=True)
    print(report(done, profile, args.seed, opponents, args.levels, args.matches), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
