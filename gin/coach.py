"""Entrenador: the coach that says, right after one of the player's decisions,
when Difícil thinks it cost more than a threshold, the better move and why.

``note(view, action)`` judges one decision from ``view``, **the view the
player had before it** (``Match.view(0)``: no hidden card, no stock, no
seed), and the action the player took.  It reads only that view, through
``gin.ai.analyse`` (Difícil's choice, its reason and its own estimates of each
choice): nothing here scores a hand.

The cost is Difícil's estimate, in its points (expected deadwood after the
next draw, with its knock and gin bonuses and the danger of feeding the
opponent: ``gin.ai.estimates``), of how much worse the player's choice was:
the same number as Difícil's review after a match (``gin.replay.review``).
Knocking or not has no such estimate; there the cost is what a knock wins on
average by Difícil's own facts (see ``_knock_cost``).

The coach speaks when the cost is at least ``THRESHOLD`` points.  Why 3: over
real play (``python3 bench/coach.py``, bench/README.md) about half of the
decisions where a normal player differs from Difícil cost under 1 point, a
matter of taste between two fair moves; a beginner's clear mistakes (a high
card kept, a meld-completing card left in the pile, a knock missed) cost 3
and more, about one decision in ten: a note a deal or two, not a lecture
after every move.

A note: ``{"kind", "advice", "cost", "better", "played", "reason", "why"}``:

- ``kind``: the decision: ``upcard``, ``draw``, ``discard`` or ``knock``.
- ``advice``: the seeds' advice that applies (the page says it in words):
  ``high_cards_first`` ("suelta primero las cartas altas"), ``two_way``
  ("guarda cartas que crecen por dos lados"), ``watch_pickups`` ("fíjate en
  lo que recoge el rival"; ``feed_not`` when the card thrown is the one
  Difícil thinks may complete a meld of the opponent), ``remember_discards`` ("recuerda los descartes":
  the player kept a pair whose other cards are in the pile), ``knock_early``
  ("toca pronto cuando puedas"), ``no_gin_chase`` ("no persigas el Gin a toda
  costa"), ``take_meld`` (the card completed a meld), ``pile_public`` (a card
  taken from the pile that Difícil would have left: the opponent sees what
  you pick up, so take it only when it really helps), ``keep_low`` (the rest,
  a meld broken among them: keep the hand that leaves the least deadwood).  The page never repeats a
  note of the same advice in a deal.
- ``cost``: points (one decimal), ``better``: Difícil's action, ``played``:
  the player's, ``reason`` and ``why``: the hint's reason code and facts
  (``gin.ai``), for the same sentences as the hint's.
"""

from __future__ import annotations

from typing import Any

from . import ai
from .cards import Card
from .replay import action_key

__all__ = ["note", "judge", "THRESHOLD", "ADVICE", "KINDS"]

#: The least cost, in Difícil's points, the coach speaks for (see above).
THRESHOLD = 3.0
#: Every advice code a note can carry.
ADVICE = (
    "high_cards_first", "two_way", "watch_pickups", "remember_discards",
    "knock_early", "no_gin_chase", "take_meld", "keep_low", "feed_not", "pile_public",
)
#: The kinds of decision.
KINDS = ("upcard", "draw", "discard", "knock")


def _kind(view: dict[str, Any], better: dict[str, Any], played: dict[str, Any]) -> str:
    if {better["type"], played["type"]} & {"knock", "big_gin"}:
        return "knock"
    if view["phase"].startswith("upcard"):
        return "upcard"
    return "draw" if view["phase"] == "draw" else "discard"


def _rank_suit(card: str) -> tuple[int, str]:
    c = Card.parse(card)
    return c.rank, c.suit


def _two_way(hand: list[str], card: str) -> bool:
    """``card`` and a card of the hand are next to each other in a suit, with
    room at both ends (6♥ 7♥: the 5♥ or the 8♥ makes a run)."""
    r, s = _rank_suit(card)
    for other in hand:
        r2, s2 = _rank_suit(other)
        if other != card and s2 == s and abs(r2 - r) == 1 and min(r, r2) > 1 and max(r, r2) < 13:
            return True
    return False


def _dead_pair(view: dict[str, Any], kept: str) -> bool:
    """``kept`` is one of a pair in the hand whose two other cards are both in the pile."""
    r, _ = _rank_suit(kept)
    same = [c for c in view["hand"] if _rank_suit(c)[0] == r]
    dead = [c for c in view["discard"] if _rank_suit(c)[0] == r]
    return len(same) == 2 and len(dead) == 2


def _advice(view: dict[str, Any], kind: str, hint: dict[str, Any], played: dict[str, Any]) -> str:
    why = hint["why"]
    code = hint["reason"]
    if kind == "knock":
        if code == "knock_now":
            return "no_gin_chase" if why.get("deadwood", 99) <= 3 else "knock_early"
        return "knock_early"
    if kind in ("upcard", "draw"):
        if played["type"] == "take" or played.get("from") == "discard":
            return "pile_public"  # taken where Difícil would not: the opponent saw it
        return "take_meld" if code == "completes_meld" else "keep_low"
    mine = played.get("card")
    if code == "opponent_picked":
        return "watch_pickups"
    if code == "safe_discard" and mine == why.get("avoid"):
        return "feed_not"  # the card thrown is the one that may complete the opponent's meld
    if any(mine in meld for meld in view["arrangement"]["melds"]):
        return "keep_low"  # a meld broken: keep the hand with the least deadwood
    better = hint["action"].get("card")
    if better and _dead_pair(view, better):
        return "remember_discards"
    if mine and _two_way(view["hand"], mine) and not _two_way(view["hand"], better or ""):
        return "two_way"
    if code == "high_deadwood" or (better and _rank_suit(better)[0] >= 10 and mine and _rank_suit(mine)[0] < 8):
        return "high_cards_first"
    return "keep_low"


def _knock_cost(view: dict[str, Any], why: dict[str, Any]) -> float | None:
    """What knocking now wins on average, in deal points, by the hint's own
    facts: the chance it is not undercut times the opponent's expected
    deadwood less ours, less the chance it is undercut times the undercut
    (the difference is unknown: taken as the bonus alone)."""
    if why.get("code") != "knock_now":
        return None
    under = why.get("undercut", 0) / 100
    bonus = (view.get("rules") or {}).get("undercut_bonus", 10)
    gain = (1 - under) * max(0.0, why.get("opp_deadwood", 0) - why.get("deadwood", 0)) - under * bonus
    return max(0.0, gain)


def judge(view: dict[str, Any], action: dict[str, Any]) -> dict[str, Any] | None:
    """Difícil's judgement of the player's ``action`` from ``view`` (the player's
    view before it): the note's fields for any differing decision, whatever its
    cost (``cost`` ``None`` when Difícil has no estimate); ``None`` when it
    agrees or there was no choice (one legal action)."""
    if len(view.get("legal") or []) < 2:
        return None
    hint = ai.analyse(view)
    ours, theirs = action_key(action), action_key(hint["action"])
    if ours == theirs or (ours.startswith("knock:") and theirs.startswith("knock:")):
        return None
    kind = _kind(view, hint["action"], action)
    if kind == "knock":
        # A knock missed is priced by what it would have won; a knock Difícil
        # would not have made has no price the coach trusts (no note).
        cost = _knock_cost(view, hint["why"]) if hint["action"]["type"] == "knock" else None
    else:
        est = hint["estimates"] or {}
        e_ours, e_theirs = est.get(ours), est.get(theirs)
        cost = None if e_ours is None or e_theirs is None else max(0.0, e_ours - e_theirs)
    return {
        "kind": kind,
        "advice": _advice(view, kind, hint, action),
        "cost": None if cost is None else round(cost, 1),
        "better": hint["action"],
        "played": {k: v for k, v in action.items() if k in ("type", "from", "card")},
        "reason": hint["reason"],
        "why": hint["why"],
    }


def note(view: dict[str, Any], action: dict[str, Any], threshold: float = THRESHOLD) -> dict[str, Any] | None:
    """The coach's note on the player's ``action`` from ``view``, or ``None``
    when Difícil agrees, has no price for it, or it cost under ``threshold``."""
    judged = judge(view, action)
    if judged is None or judged["cost"] is None or judged["cost"] < threshold:
        return None
    return judged
