"""Comprobar: does any decision of the computer depend on what it could not see?

A decision of the computer is ``computer_move(match, level)``: ``gin.ai``
asked from ``Match.view(seat)``, the seat's view of the table (the one code
path the game, the bridge's ``computer_step``, and the replays of
``gin.duplicate`` use).  ``verify(save)`` takes each decision the computer
made in a finished match and asks it again in several *worlds*: the same
table with everything the computer could not see dealt again — the human's
cards that were not picked up from the pile (so not public) and the order of
the stock, shuffled together and dealt back into the same places — and with a
seed of its own (the real seed would give the real cards away).  Everything
public stays: the computer's hand, the discard pile, the cards the human
picked up and still holds, the counts, the events, the scores and the earlier
deals.  So every world looks exactly the same from the computer's seat; a
decision that reads nothing else comes out the same in every world, and one
that peeks at the stock, the human's hand or the seed comes out differently
in some (tests/test_fairness.py makes a level peek and sees it caught).

The worlds of decision ``i`` are drawn by ``gin.shuffle.shuffled`` (SHA-256 in
counter mode feeding Fisher–Yates) with the key
``"gin-verify-v1|<seed>|<action index>|<world>"``, from the cards the seat could
not see in card order: the same call gives the same worlds in CPython and
Pyodide, whatever the real cards were.

>>> from gin import arena
>>> st = arena.play_match("normal", "easy", "VERIFY-DOC", keep_actions=True)
>>> m = Match.new(seed="VERIFY-DOC")
>>> for a in st.actions: m = m.apply(a)
>>> m.meta["level"] = "easy"
>>> r = verify(m.to_save(), samples=2)
>>> r["same"] == r["checked"] == r["decisions"], r["next"]
(True, None)
"""

from __future__ import annotations

import hashlib
from typing import Any

from . import ai
from .cards import mask_cards
from .errors import GinError, quote
from .match import Match
from .shuffle import shuffled
from .stats import deal_levels

__all__ = [
    "computer_move", "verify", "worlds", "decision_key", "SAMPLES", "LEVEL_SAMPLES", "MAX_SAMPLES", "COMPUTER", "HUMAN",
]

HUMAN = 0
COMPUTER = 1
#: Worlds per decision by default, by the level asked: a decision asked again
#: costs one decision of that level, and a whole match must be checked in a few
#: seconds in Pyodide (Difícil's decisions cost some 11 ms there, Normal's and
#: Fácil's under 1 ms: bench/duplicate.py, bench/README.md).  What the number
#: buys (`bench/duplicate.py worlds`, docs/fairness.md): a Difícil that peeks at
#: the stock, the player's hand or the seed is caught in every match measured
#: even with 1 world; 2 flag three quarters or more of the decisions the peek
#: changed, at about 3 s a match here (some 11 s on a phone-class CPU, four
#: times slower).  The page may ask for
#: more or fewer.
LEVEL_SAMPLES = {"easy": 8, "normal": 8, "hard": 2}
#: For any other level (the arena's, in measurements).
SAMPLES = 4
MAX_SAMPLES = 64
VERSION = "gin-verify-v1"


class VerifyError(GinError):
    code = "bad_range"


def computer_move(match: Match, level: str, seat: int = COMPUTER) -> dict[str, Any]:
    """The action ``level`` plays for ``seat`` at ``match``'s table: ``gin.ai.choose``
    from that seat's view and nothing else.  The bridge's ``computer_step``, the
    replays of ``gin.duplicate`` and ``verify`` all ask the computer here."""
    return ai.choose(match.view(seat), level)


def decision_key(action: dict[str, Any]) -> tuple[Any, ...]:
    """What makes two actions the same decision: the type, the source of a draw,
    the card, and a knock's or big gin's melds as a set (in any order)."""
    melds = action.get("melds")
    declared = None if melds is None else tuple(sorted(tuple(sorted(str(c).upper() for c in m)) for m in melds))
    return (action.get("type"), action.get("from"), action.get("card"), declared)


def _world(match: Match, key: bytes, seat: int) -> Match:
    """``match`` with what ``seat`` cannot see dealt again from ``key`` (a copy;
    ``match`` is not changed)."""
    world = match.copy()
    deal = world.deal
    other = 1 - seat
    hidden = deal.hand_masks[other] & ~deal.known_masks[other]
    # In card order: the worlds depend on what the seat saw, never on where
    # the real cards lay.
    unseen = sorted([c.index for c in mask_cards(hidden)] + deal.stock_list)
    order = shuffled(unseen, key)
    count = hidden.bit_count()
    mask = 0
    for i in order[:count]:
        mask |= 1 << i
    deal.hand_masks[other] = deal.known_masks[other] | mask
    deal.stock_list = order[count:]
    world.seed = "W" + hashlib.sha256(b"seed|" + key).hexdigest()[:15].upper()
    return world


def worlds(match: Match, samples: int, *, seed: str = "", index: int = 0, seat: int = COMPUTER) -> list[Match]:
    """``samples`` tables that ``seat`` cannot tell from ``match``'s: the other seat's
    hidden cards and the stock dealt again, and a seed of each its own."""
    return [_world(match, f"{VERSION}|{seed}|{index}|{k}".encode(), seat) for k in range(samples)]


def _count(value: Any, name: str, low: int, high: int | None = None) -> int:
    if type(value) is not int or value < low or (high is not None and value > high):
        within = f"{low}..{high}" if high is not None else f">= {low}"
        raise VerifyError(f"{name} must be an integer {within}, not {quote(value)}")
    return value


def verify(
    save: Any,
    *,
    start: int = 0,
    count: int | None = None,
    samples: int | None = None,
    seed: str = "",
    level: str | None = None,
) -> dict[str, Any]:
    """Ask the computer again, in ``samples`` worlds each (None: ``LEVEL_SAMPLES``
    of the level asked), for its decisions ``start`` .. ``start + count - 1``
    of a finished match (``count`` None: all the rest), so a long match is
    checked in parts with a progress bar.

    A decision is a turn of the computer (seat 1) with more than one legal
    action, numbered from 0 in the order played.  ``level``: the level asked
    instead of the one the save names for each deal (``meta.levels``), for
    measurements and tests only (the bridge never passes it).

    Returns ``{"decisions"`` (in the whole match), ``"start"``, ``"next"`` (the
    first decision not checked, None at the end), ``"checked"``, ``"samples"``
    (as given, None: by level), ``"worlds"`` (how many were asked in all),
    ``"same"`` (decisions where every world gave the action the save records),
    ``"peeking"`` (decisions where some world gave another action than the
    real table does now: the decision read something hidden),
    ``"changed"`` (every world agrees with the real table, but not with the
    save: the computer decides otherwise today than when the match was played),
    ``"differing": [...]}``: ``same + peeking + changed == checked``.  Each
    differing decision: ``{"decision", "action_index"`` (into the save's
    actions), ``"deal_number", "phase", "recorded", "now"`` (its choice at the
    real table today), ``"worlds"`` (how many it was asked in), ``"differ"``
    (how many of them gave another action than ``recorded``), ``"example"``
    (one such action), ``"peeking"`` (some world differs from ``now``)``}``.
    """
    match = Match.from_save(save)
    if not match.over:
        raise GinError("only a finished match can be checked", code="match_not_over")
    if samples is not None:
        samples = _count(samples, "samples", 1, MAX_SAMPLES)
    start = _count(start, "start", 0)
    if count is not None:
        count = _count(count, "count", 1)
    levels = deal_levels(match) if level is None else None
    m = Match(seed=match.seed, rules=match.rules)
    m.meta = dict(match.meta)
    total = same = peeking = changed = asked = 0
    differing: list[dict[str, Any]] = []
    end = None if count is None else start + count
    for index, action in enumerate(match.actions):
        if m.to_act == COMPUTER and len(m.deal.legal_actions()) > 1:
            if total >= start and (end is None or total < end):
                lvl = level or levels[m.deal_number - 1]
                per = samples or LEVEL_SAMPLES.get(lvl, SAMPLES)
                asked += per
                entry = _check(m, action, lvl, per, seed, index)
                if entry is None:
                    same += 1
                else:
                    differing.append({"decision": total, **entry})
                    peeking += entry["peeking"]
                    changed += not entry["peeking"]
            total += 1
        m.apply(action)
    last = total if end is None else min(end, total)
    checked = max(0, last - start)
    return {
        "decisions": total,
        "start": start,
        "next": last if last < total else None,
        "checked": checked,
        "samples": samples,
        "worlds": asked,
        "same": same,
        "peeking": peeking,
        "changed": changed,
        "differing": differing,
    }


def _check(m: Match, action: dict[str, Any], level: str, samples: int, seed: str, index: int) -> dict[str, Any] | None:
    """None when every world gives the recorded action; else what differs."""
    recorded = decision_key(action)
    others = [computer_move(world, level) for world in worlds(m, samples, seed=seed, index=index)]
    differ = [a for a in others if decision_key(a) != recorded]
    if not differ:
        return None
    # Asked only here (it costs one more decision): the real table's answer
    # tells a decision that read hidden cards (the worlds disagree with it)
    # from a computer that decides otherwise today (they all agree with it).
    now = computer_move(m, level)
    return {
        "action_index": index,
        "deal_number": m.deal_number,
        "phase": m.deal.phase,
        "recorded": dict(action),
        "now": now,
        "worlds": samples,
        "differ": len(differ),
        "example": differ[0],
        "peeking": any(decision_key(a) != decision_key(now) for a in others),
    }
