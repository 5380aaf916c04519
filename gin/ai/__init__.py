"""The computer opponent (placeholder until the real levels land).

``choose(view, level)`` decides from a seat's view only.  For now every
level plays the minimum-deadwood greedy line.
"""

from __future__ import annotations

from typing import Any

from ..cards import card_mask
from ..melds import solve

__all__ = ["choose", "hint", "LEVELS"]

LEVELS = ("easy", "normal", "hard")


def choose(view: dict[str, Any], level: str = "normal") -> dict[str, Any]:
    legal = view["legal"]
    if not legal:
        raise ValueError("the view has no legal action: not this seat's turn")
    kinds = {a["type"] for a in legal}
    hand = card_mask(view["hand"])
    if "take" in kinds:
        top = card_mask(view["discard"][-1:])
        return {"type": "take"} if solve(hand | top)[0] < solve(hand)[0] - 4 else {"type": "pass"}
    if "draw" in kinds:
        if len(legal) > 1:
            top = card_mask(view["discard"][-1:])
            before = min(_after_discards(hand | top, top))
            if before < solve(hand)[0]:
                return {"type": "draw", "from": "discard"}
        return {"type": "draw", "from": "stock"}
    knocks = [a for a in legal if a["type"] in ("knock", "big_gin")]
    if knocks:
        return knocks[0]
    discards = [a for a in legal if a["type"] == "discard"]
    return min(discards, key=lambda a: solve(hand & ~card_mask([a["card"]]))[0])


def _after_discards(hand: int, keep: int) -> list[int]:
    out = []
    rest = hand & ~keep
    while rest:
        low = rest & -rest
        rest ^= low
        out.append(solve(hand ^ low)[0])
    return out


def hint(view: dict[str, Any]) -> dict[str, Any]:
    action = choose(view, "hard")
    reason = {"knock": "knock_now", "big_gin": "gin_available"}.get(action["type"], "min_deadwood")
    return {"action": action, "reason": reason}
