"""hard's knock decision: knock now, or hold out for gin?

Both are priced in the chance of winning the match (``winprob``), from the
seat's view only:

- **Knock now** with deadwood ``dw``: the opponent's deadwood is taken from
  what the pool's players hold at this point of a deal
  (``model_data.OPP_DEADWOOD``, ten quantiles by stock left), less the points
  it is expected to lay off on the declared melds (from the belief).  Each
  quantile is a won knock (``D - dw``), an undercut (``dw - D`` plus the
  profile's undercut bonus) or, for gin, the gin bonus plus ``D``.
- **Hold for gin**: a race, turn by turn until the stock runs out (a void deal
  is a replay: the scores as they are).  On each of its turns the opponent
  knocks with the pool's measured chance (``OPP_KNOCK``, by stock left), with
  a deadwood from ``OPP_KNOCK_DEADWOOD``; against the held hand that is an
  undercut for us when our deadwood is no higher, a loss of the difference
  otherwise (the gin bonus more against its gin).  On each of ours, a stock
  card that completes gin (each unseen card weighted by its chance of being in
  the stock) wins the gin bonus plus the opponent's deadwood.

The knock is taken when it is worth at least the hold less ``margin`` points
(converted at the current price of a point).  The margin is chosen per
profile (``bench/tune_knock.py``; values and runs in bench/README.md).
Holding is priced as if we never knocked later, so it is a lower bound: the
decision is taken again every turn.
"""

from __future__ import annotations

from typing import Any

from ..melds import least_discard
from .knowledge import NEAR2, Knowledge
from .habits import mixed_knocks
from .model_data import OPP_DEADWOOD, OPP_KNOCK, OPP_KNOCK_DEADWOOD
from .winprob import table_for

__all__ = ["KnockCall", "knock_call"]


def _points(mine: int, theirs: int) -> float:
    return float(mine - theirs)


def _bucket(stock: int) -> int:
    return max(0, min(len(OPP_KNOCK) - 1, stock // 3))


class KnockCall:
    """The two prices and the verdict (for the hint's reason)."""

    __slots__ = ("knock", "knock_value", "hold_value", "undercut", "undercut_points", "gin_chance", "opp_deadwood")

    def __init__(self, knock: bool, knock_value: float, hold_value: float, undercut: float, undercut_points: float,
                 gin_chance: float, opp_deadwood: float) -> None:
        self.knock = knock  # the verdict
        self.knock_value = knock_value  # P(win the match) if we knock now
        self.hold_value = hold_value  # ... if we hold out for gin
        self.undercut = undercut  # P(the knock is undercut)
        self.undercut_points = undercut_points  # what an undercut would cost, on average
        self.gin_chance = gin_chance  # P(the next stock card gives gin)
        self.opp_deadwood = opp_deadwood  # the opponent's expected deadwood after layoffs


def gin_outs(k: Knowledge, hand10: int, weight: dict[int, float]) -> float:
    """The chance that the next stock card gives gin with ``hand10``."""
    p = 0.0
    for c, x in weight.items():
        if (NEAR2[c] & hand10).bit_count() >= 2:
            if least_discard(hand10 | (1 << c))[0] == 0:
                p += x
    return p


def knock_call(
    k: Knowledge, view: dict[str, Any], dw: int, hand10: int, layoff: float, weight: dict[int, float],
    *, margin: float, hazard: float = 1.0, score_aware: bool = True, seen_knocks: list[int] | None = None,
    habit_weight: float = 0.0,
) -> KnockCall:
    rules = view.get("rules") or {}
    # score_aware=False values outcomes in points, not match chances (an
    # ablation for the arena; bench/README.md)
    # Hollywood adds up three games, so points are what a deal is worth there;
    # the first open game's win chance saturates once that game is decided.
    w = table_for(rules) if score_aware and not rules.get("hollywood") else _points
    scores = view.get("scores") or [0, 0]
    a, b = scores[k.seat], scores[1 - k.seat]
    # An Oklahoma spade upcard doubles everything the deal scores.
    m = int(view.get("multiplier", 1))
    gin_bonus = int(rules.get("gin_bonus", 20))
    under = int(rules.get("undercut_bonus", 10))
    stock = k.stock_count
    opp = OPP_DEADWOOD[_bucket(stock)]

    # Knock now.
    knock_value = 0.0
    undercuts = 0
    lost = 0.0
    for q in opp:
        if dw == 0:
            knock_value += w(a + m * (gin_bonus + q), b)
            continue
        d = max(0.0, q - layoff)
        if d > dw:
            knock_value += w(a + m * round(d - dw), b)
        else:
            knock_value += w(a, b + m * (round(dw - d) + under))
            undercuts += 1
            lost += m * (dw - d + under)
    knock_value /= len(opp)

    # Hold for gin.
    pg = gin_outs(k, hand10, weight)
    opp_knock = 0.0
    # The opponent knocks within this deal's limit too (Oklahoma, straight gin).
    opp_knocks = [dk for dk in OPP_KNOCK_DEADWOOD if dk <= k.knock_limit] or [0]
    if seen_knocks and habit_weight > 0:
        # its own knocks seen at the showdowns of this match, beside the pool's
        shares = mixed_knocks(opp_knocks, [dk for dk in seen_knocks if dk <= k.knock_limit], habit_weight)
    else:
        shares = [(dk, 1.0 / len(opp_knocks)) for dk in opp_knocks]
    for dk, share in shares:
        if dk == 0:
            opp_knock += share * w(a, b + m * (gin_bonus + dw))
        elif dw <= dk:
            opp_knock += share * w(a + m * (dk - dw + under), b)
        else:
            opp_knock += share * w(a, b + m * (dw - dk))
    void = w(a, b)
    hold_value = 0.0
    alive = 1.0
    s = stock
    while alive > 1e-4:
        if s <= 2:
            hold_value += alive * void
            break
        s -= 1  # the opponent draws; it may knock
        h = min(1.0, hazard * OPP_KNOCK[_bucket(s)])
        hold_value += alive * h * opp_knock
        alive *= 1.0 - h
        if s <= 2:
            hold_value += alive * void
            break
        s -= 1  # we draw: gin?
        later = OPP_DEADWOOD[_bucket(s)]
        gin = sum(w(a + m * (gin_bonus + q), b) for q in later) / len(later)
        hold_value += alive * pg * gin
        alive *= 1.0 - pg
    price = max(1e-6, (w(a + 10, b) - w(a, b + 10)) / 20)  # match chance per point here
    knock = knock_value >= hold_value - margin * price
    return KnockCall(
        knock, knock_value, hold_value, undercuts / len(opp), lost / max(1, undercuts), pg,
        max(0.0, sum(opp) / len(opp) - layoff),
    )

