"""Paired arena runs of ``hard`` with changed parameters, against the whole pool.

    python3 bench/tune/tune_knock.py --profile standard --matches 100 --set margin.standard=4 --set hazard=1.2

Each setting plays ``--matches`` matches against every style of the pool on
the same seeds (so two settings are compared on the same deals) and prints
the win rate per style and their mean: a setting is chosen for the pool, not
for one opponent.  ``--set name=value`` changes ``gin.ai.policy.HARD``
(``margin.<profile>`` one profile's knock margin).  ``--option`` as in the arena.
The searches run for the shipped values are in bench/README.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gin import ai, arena  # noqa: E402
from gin.ai import policy  # noqa: E402
from gin.rules import Rules  # noqa: E402


def apply(settings: list[str]) -> None:
    for s in settings:
        key, _, value = s.partition("=")
        if key.startswith("margin."):
            policy.HARD.margin = {**policy.HARD.margin, key.split(".", 1)[1]: float(value)}
        else:
            setattr(policy.HARD, key, float(value))


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--profile", default="traditional")
    p.add_argument("--option", action="append", default=[])
    p.add_argument("--matches", type=int, default=100)
    p.add_argument("--seed", default="TUNE")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--styles", default=",".join(ai.POOL))
    p.add_argument("--set", action="append", default=[])
    args = p.parse_args()
    apply(args.set)
    rules = Rules.profile(args.profile, **arena._options(args.option))
    rates = []
    t0 = time.perf_counter()
    line = []
    for style in args.styles.split(","):
        res = arena.run_arena("hard", style, args.matches, rules=rules, seed=args.seed, workers=args.workers)
        score = sum(1.0 if r.winner == 0 else 0.5 if r.winner is None else 0.0 for r in res)
        deals = sum(r.deals for r in res)
        net = sum(r.points[0] - r.points[1] for r in res) / max(1, deals)
        rates.append(score / len(res))
        line.append(f"{style} {score / len(res):.1%} (net {net:+.2f}/deal)")
    print(
        f"{args.profile} {' '.join(args.option)} {' '.join(args.set) or 'shipped'}: "
        f"mean {sum(rates) / len(rates):.1%} | " + ", ".join(line) + f" | {time.perf_counter() - t0:.0f} s",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
