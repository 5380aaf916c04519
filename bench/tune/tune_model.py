"""Measure what ``hard``'s knock model assumes about its opponent, across the pool.

Plays ``hard`` against every style of the arena's pool (``gin.ai.POOL``) and
records, from the true hands (measurement only; the model never sees them):

- the opponent's deadwood (best arrangement, before layoffs) at each of
  hard's discard decisions, by stock left;
- how often the opponent knocks on a turn, by stock left (its hazard), and the
  deadwood it knocks with;
- every scored deal's kind and points less the profile's bonus (so the deal
  distribution of any profile is those points plus its own bonuses).

Every style weighs the same (the model is tuned across the pool, not to one
player).  Writes ``gin/ai/model_data.py``; the values shipped there came from

    python3 bench/tune/tune_model.py --matches 40

Run it again after a change to hard or to the pool.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gin import ai  # noqa: E402
from gin.match import Match  # noqa: E402
from gin.melds import solve  # noqa: E402
from gin.rules import Rules  # noqa: E402

BUCKETS = 11  # stock // 3: 0..10


def bucket(stock: int) -> int:
    return min(BUCKETS - 1, stock // 3)


def collect(style: str, matches: int, seed: str):
    dw = [[] for _ in range(BUCKETS)]
    turns = [0] * BUCKETS
    knocks = [0] * BUCKETS
    knock_dw = []
    deals = []
    rules = Rules.profile("traditional")
    for n in range(matches):
        m = Match.new(seed=f"{seed}-{style}-{n}", rules=rules)
        hard = n % 2
        while not m.over and len(m.results) < 60:
            seat = m.to_act
            view = m.view(seat)
            before = len(m.results)
            if seat == hard and view["phase"] == "discard":
                dw[bucket(view["stock_count"])].append(solve(m.deal.hand_masks[1 - seat])[0])
            action = ai.choose(view, "hard" if seat == hard else style)
            if seat != hard and view["phase"] == "discard":
                b = bucket(view["stock_count"])
                turns[b] += 1
                if action["type"] in ("knock", "big_gin"):
                    knocks[b] += 1
                    if action["type"] == "knock":
                        knock_dw.append(view["discard_deadwood"][action["card"]])
            m.apply(action)
            if len(m.results) > before:
                o = m.results[-1].outcome
                if o.winner is not None:
                    bonus = {"gin": rules.gin_bonus, "big_gin": rules.gin_bonus, "undercut": rules.undercut_bonus}.get(o.kind, 0)
                    deals.append((o.kind, o.points - bonus))
    return dw, turns, knocks, knock_dw, deals


def quantiles(xs: list[int], k: int = 10) -> list[int]:
    xs = sorted(xs)
    if not xs:
        return []
    return [xs[min(len(xs) - 1, int((i + 0.5) * len(xs) / k))] for i in range(k)]


def main() -> int:
    p = argparse.ArgumentParser(description="Rewrites gin/ai/model_data.py: asked for by name, never by default.")
    p.add_argument("--matches", type=int, required=True, help="per style of the pool (the shipped values: 40)")
    p.add_argument("--seed", default="MODEL")
    args = p.parse_args()
    per_style = [collect(s, args.matches, args.seed) for s in ai.POOL]
    # Equal weight per style: resample each style's samples to the same count.
    dw_q, hazard = [], []
    for b in range(BUCKETS):
        pooled: list[int] = []
        for dw, *_ in per_style:
            xs = sorted(dw[b])
            if xs:
                pooled += [xs[int((i + 0.5) * len(xs) / 200)] for i in range(200)]
        dw_q.append(quantiles(pooled) or [30] * 10)
        rates = [k[b] / t[b] for _, t, k, _, _ in per_style if t[b] >= 20]
        hazard.append(round(sum(rates) / len(rates), 4) if rates else 0.0)
    knock_q: list[int] = []
    for *_, kd, _ in per_style:
        knock_q += quantiles(kd) if kd else []
    knock_q = sorted(knock_q)
    kinds: dict[tuple[str, int], int] = {}
    for *_, deals in per_style:
        for kind, pts in deals:
            key = (kind if kind in ("gin", "big_gin", "undercut") else "knock", min(pts, 80))
            kinds[key] = kinds.get(key, 0) + 1
    total = sum(kinds.values())
    hist = sorted((k, v, round(c / total, 5)) for (k, v), c in kinds.items())
    out = ROOT / "gin" / "ai" / "model_data.py"
    out.write_text(
        '"""Written by bench/tune/tune_model.py (do not edit): what hard\'s knock model assumes\n'
        "about its opponent, measured across the arena's pool with equal weight per style.\n\n"
        "OPP_DEADWOOD[stock // 3]: ten quantiles of the opponent's deadwood (before layoffs)\n"
        "at hard's discard.  OPP_KNOCK[stock // 3]: the chance the opponent knocks on one of\n"
        "its turns.  OPP_KNOCK_DEADWOOD: quantiles of the deadwood it knocks with.  DEALS:\n"
        "(kind, points less the profile's bonus, share) of scored deals.\n"
        f'Source: python3 bench/tune/tune_model.py --matches {args.matches} --seed {args.seed}\n"""\n\n'
        f"OPP_DEADWOOD = {dw_q!r}\n"
        f"OPP_KNOCK = {hazard!r}\n"
        f"OPP_KNOCK_DEADWOOD = {knock_q!r}\n"
        f"DEALS = {hist!r}\n"
    )
    print(out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
