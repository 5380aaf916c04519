"""Fit hard's belief factors across the pool (not to one opponent).

The belief (``Knowledge.opp_prob``) weighs every unseen card by
``discard ** a * refused ** b * picked ** c``, where a, b, c count what the
opponent threw away, refused and picked up next to it.  This script plays hard
against every style of the pool, records those counts and whether the card
was truly in the opponent's hand (measurement only), and grid-searches the
three factors for the best log-likelihood, every style weighing the same.

    python3 bench/tune/tune_belief.py --matches 12

prints the log-likelihood per style of the shipped and the best factors.
"""

from __future__ import annotations

import argparse
import math
import sys
from itertools import product
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gin import ai, arena  # noqa: E402
from gin.ai import knowledge  # noqa: E402
from gin.ai.knowledge import NEAR1, NEAR2, Knowledge, bits  # noqa: E402


def collect(style: str, matches: int, seed: str):
    """Per position: (hidden count, [(a, b, c, held) per unseen card])."""
    out = []
    for m, seat, view in arena.positions("hard", style, f"{seed}-{style}", matches, max_deals=3):
        if view["phase"] == "discard":
            k = Knowledge(view)
            opp = m.deal.hand_masks[1 - seat]
            hidden = max(0, k.opp_count - k.opp_known.bit_count())
            cards = [
                ((NEAR1[i] & k.opp_discards).bit_count(), (NEAR1[i] & k.opp_refused).bit_count(),
                 (NEAR2[i] & k.opp_picked).bit_count(), (opp >> i) & 1)
                for i in bits(k.unseen)
            ]
            out.append((hidden, cards))
    return out


def loglik(samples, f_disc: float, f_ref: float, f_pick: float) -> float:
    total = 0.0
    count = 0
    for hidden, cards in samples:
        ws = [f_disc**a * f_ref**b * f_pick**c for a, b, c, _ in cards]
        scale = hidden / sum(ws)
        for w, (_, _, _, y) in zip(ws, cards):
            p = min(0.95, max(0.01, w * scale))
            total += math.log(p if y else 1 - p)
            count += 1
    return total / max(1, count)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--matches", type=int, default=12)
    p.add_argument("--seed", default="BELIEF-TUNE")
    args = p.parse_args()
    data = {s: collect(s, args.matches, args.seed) for s in ai.POOL}
    shipped = (knowledge.F_DISCARD, knowledge.F_REFUSED, knowledge.F_PICKED)
    grid = product((0.4, 0.55, 0.7, 0.85), (0.5, 0.7, 0.85, 1.0), (1.2, 1.5, 1.8, 2.2, 2.6))
    best = max(grid, key=lambda f: sum(loglik(d, *f) for d in data.values()))
    for name, f in (("shipped", shipped), ("best", best)):
        per = {s: round(loglik(d, *f), 4) for s, d in data.items()}
        print(f"{name} {f}: mean log-likelihood {sum(per.values()) / len(per):.4f} {per}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
