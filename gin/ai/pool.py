"""Opponent styles for measuring ``hard`` against players it was not tuned on.

The arena's pool (``--b pool``) is the baseline plus the styles below.  Each
differs from the baseline in what it picks up, what it throws and when it
knocks; ties are broken at random, drawn from the view (``seeded_index``), so
each style is a pure, deterministic function of its view like every level.

- ``greedy``, a point dumper: takes any card that lowers its deadwood (a low
  card for a high one, not only a meld), throws its highest loose card,
  knocks as soon as it can.
- ``pairs``, a pair keeper: takes what joins a meld and low cards that pair
  with a loose card; throws the loose card with the fewest partners (same
  rank, or same suit within two), highest first; knocks at deadwood 6 or
  less, anything legal once the stock is short.
- ``ginwait``, a gin waiter: takes only what joins a meld, throws by least
  deadwood (highest card on ties), knocks only with gin until the stock runs
  low, then at deadwood 5 or less.
"""

from __future__ import annotations

from typing import Any

from ..melds import least_discard, solve
from .knowledge import _SAME_RANK, NEAR2, POINTS, RUN_PAIRS, bits, mask_of, seeded_index

Action = dict[str, Any]
Decision = tuple[Action, str]

#: The styles written for the pool (the pool is ``("baseline",) + STYLES``).
STYLES = ("greedy", "pairs", "ginwait")
POOL = ("baseline",) + STYLES


def _name(i: int) -> str:
    from ..cards import ALL_CARDS

    return str(ALL_CARDS[i])


_NAMES = [_name(i) for i in range(52)]


def _kinds(view: dict[str, Any]) -> set[str]:
    return {a["type"] for a in view["legal"]}


def _joins_a_meld(hand: int, card: int) -> bool:
    if sum((hand >> j) & 1 for j in _SAME_RANK[card]) >= 2:
        return True
    return any((hand >> a) & 1 and (hand >> b) & 1 for a, b in RUN_PAIRS[card])


def _melded(hand: int) -> int:
    u = 0
    for m in solve(hand)[1]:
        u |= m
    return u


def _pick(view: dict[str, Any], cards: list[int], salt: str) -> int:
    return cards[seeded_index(view, len(cards), salt)]


def _draw(view: dict[str, Any], wants: bool, reason: str) -> Decision:
    """Take/pass the upcard, or draw from the pile or the stock, by ``wants``."""
    kinds = _kinds(view)
    if "take" in kinds:
        return ({"type": "take"}, reason) if wants else ({"type": "pass"}, "pass_upcard")
    if wants:
        return {"type": "draw", "from": "discard"}, reason
    return {"type": "draw", "from": "stock"}, "draw_stock"


def _may_take(view: dict[str, Any]) -> bool:
    kinds = _kinds(view)
    return "take" in kinds or ("draw" in kinds and len(view["legal"]) > 1)


def _finish(view: dict[str, Any], knock_at: int) -> Decision | None:
    """Big gin, or the least-deadwood knock when it is at most ``knock_at``."""
    best = None
    for a in view["legal"]:
        if a["type"] == "big_gin":
            return a, "big_gin_available"
        if a["type"] == "knock":
            dw = view["discard_deadwood"][a["card"]]
            if dw <= knock_at and (best is None or dw < best[1]):
                best = (a, dw)
    if best is None:
        return None
    return best[0], "gin_available" if best[1] == 0 else "knock_now"


def _options(view: dict[str, Any], hand: int) -> list[int]:
    taken = view.get("taken")
    return [i for i in bits(hand) if _NAMES[i] != taken]


def _discard(i: int, reason: str) -> Decision:
    return {"type": "discard", "card": _NAMES[i]}, reason


# --------------------------------------------------------------------------


def decide_greedy(view: dict[str, Any]) -> Decision:
    hand = mask_of(view["hand"])
    if _may_take(view):
        t = mask_of(view["discard"][-1:]).bit_length() - 1
        now = solve(hand)[0]
        after = least_discard(hand | (1 << t), t)[0]
        return _draw(view, after < now, "take_discard")
    if "draw" in _kinds(view):
        return {"type": "draw", "from": "stock"}, "draw_stock"
    done = _finish(view, 10)
    if done is not None:
        return done
    options = _options(view, hand)
    melded = _melded(hand)
    loose = [i for i in options if not (melded >> i) & 1] or options
    top = max(POINTS[i] for i in loose)
    return _discard(_pick(view, [i for i in loose if POINTS[i] == top], "greedy"), "high_deadwood")


def _partners(hand: int, i: int) -> int:
    return (NEAR2[i] & hand & ~(1 << i)).bit_count()


def decide_pairs(view: dict[str, Any]) -> Decision:
    hand = mask_of(view["hand"])
    if _may_take(view):
        t = mask_of(view["discard"][-1:]).bit_length() - 1
        loose = hand & ~_melded(hand)
        pairs = any((loose >> j) & 1 for j in _SAME_RANK[t]) or any(
            (loose >> j) & 1 for j in (t - 1, t + 1) if 0 <= j < 52 and j // 13 == t // 13
        )
        wants = _joins_a_meld(hand, t) or (pairs and POINTS[t] <= 6)
        return _draw(view, wants, "completes_meld" if _joins_a_meld(hand, t) else "take_discard")
    if "draw" in _kinds(view):
        return {"type": "draw", "from": "stock"}, "draw_stock"
    done = _finish(view, 6 if view["stock_count"] > 10 else 10)
    if done is not None:
        return done
    options = _options(view, hand)
    melded = _melded(hand)
    loose = [i for i in options if not (melded >> i) & 1] or options
    fewest = min(_partners(hand, i) for i in loose)
    alone = [i for i in loose if _partners(hand, i) == fewest]
    top = max(POINTS[i] for i in alone)
    return _discard(_pick(view, [i for i in alone if POINTS[i] == top], "pairs"), "high_deadwood")


def decide_ginwait(view: dict[str, Any]) -> Decision:
    hand = mask_of(view["hand"])
    if _may_take(view):
        t = mask_of(view["discard"][-1:]).bit_length() - 1
        return _draw(view, _joins_a_meld(hand, t), "completes_meld")
    if "draw" in _kinds(view):
        return {"type": "draw", "from": "stock"}, "draw_stock"
    done = _finish(view, 0 if view["stock_count"] > 8 else 5)
    if done is not None:
        return done
    dd = view["discard_deadwood"]
    options = _options(view, hand)
    least = min(dd[_NAMES[i]] for i in options)
    ties = [i for i in options if dd[_NAMES[i]] == least]
    top = max(POINTS[i] for i in ties)
    return _discard(_pick(view, [i for i in ties if POINTS[i] == top], "ginwait"), "min_deadwood")


DECIDE_POOL = {"greedy": decide_greedy, "pairs": decide_pairs, "ginwait": decide_ginwait}
