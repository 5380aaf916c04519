"""What the opponent's showdowns have shown of its habits in this match.

At every showdown both hands are laid open, and the view keeps them in its
``history`` (one entry per finished deal: who knocked, each seat's melds and
deadwood).  Nothing else is read here: not the events of earlier deals (the
view does not keep them), never a hidden card.

- ``knock_deadwoods(view)``: the deadwood the opponent knocked with, each time
  it knocked (gin is 0).  A player who knocks as soon as it may shows high
  knocks (7, 9, 10...); one who waits for gin shows zeros.  hard's knock
  decision mixes these with the pool's measured knocks
  (``model_data.OPP_KNOCK_DEADWOOD``): against a quick knocker, a hand held
  low is often an undercut waiting to happen, so it holds out for gin more.
"""

from __future__ import annotations

from typing import Any

__all__ = ["knock_deadwoods", "mixed_knocks"]


def knock_deadwoods(view: dict[str, Any]) -> list[int]:
    """The opponent's declared deadwood at each of its knocks in this match, oldest first."""
    opp = 1 - view["seat"]
    out = []
    for deal in view.get("history") or []:
        if deal.get("knocker") != opp or deal.get("kind") not in ("knock", "gin", "undercut", "big_gin"):
            continue
        hands = deal.get("hands")
        if not hands:
            continue
        out.append(0 if deal["kind"] in ("gin", "big_gin") else int(hands[opp]["points"]))
    return out


def mixed_knocks(prior: list[int], seen: list[int], weight: float) -> list[tuple[int, float]]:
    """``(deadwood, share)``: the prior's values each weighing as much as ``weight``
    observations in all, every observed knock as one."""
    if not seen:
        return [(d, 1.0 / len(prior)) for d in prior]
    total = weight + len(seen)
    out = [(d, weight / len(prior) / total) for d in prior]
    out += [(d, 1.0 / total) for d in seen]
    return out
