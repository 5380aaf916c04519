"""The computer opponent: ``choose(view, level)`` and ``hint(view)``.

A decision is a pure function of one seat's view (exactly ``Match.view(seat)``)
and the level: never the full state, the opponent's hidden cards, the stock
order or the seed.  Anything that looks random is drawn from a digest of the
view's public position, so the same view always gets the same answer and a
replayed match replays exactly (in CPython and in Pyodide alike).

Levels:

- ``easy`` (Fácil): a casual beginner.  Takes a card only when it completes a
  meld, never breaks a meld, knocks as soon as it can, ignores the opponent
  and often throws the wrong loose card.
- ``normal`` (Normal): keeps pairs and connected cards with live outs, avoids
  feeding the opponent what it picked up, knocks early with low deadwood (and
  late in the deal only with very low deadwood); now and then it keeps the
  wrong loose card.
- ``hard`` (Difícil): tracks every card seen (discards, pick-ups, refusals),
  keeps a belief about the opponent's hidden cards (what it picked up makes
  its neighbours likelier, what it threw or refused makes them less likely),
  scores hands by the deadwood expected after the next draw (each unseen card
  weighted by the chance it is in the stock), prefers discards that are
  unlikely to complete the opponent's melds, weighs a take from the pile
  against the expected stock draw, and declares the knock arrangement with
  the least deadwood plus expected layoffs.  Whether to knock or hold out for
  gin is priced in the chance of winning the match (``gin.ai.knock``: the
  profile's gin and undercut bonuses, the stock left, the opponent's deadwood
  and knock rate as measured across the arena's pool, both scores through
  ``gin.ai.winprob``), with a margin per profile from a search against the pool.
- ``hard0``: the same player, by that name in the arena, to measure the search
  against.
- ``search`` (and ``search:key=value,...`` in the arena, e.g.
  ``search:budget=96,belief=0``): hard's candidates played on in deals sampled
  from its belief, valued by the match-win table (``gin.ai.search``).
- ``baseline``: the EAAI "Simple" player, for measurement only (not in the UI).
- ``random``: a uniformly random legal player, for the arena only.
- ``greedy``, ``pairs``, ``ginwait``: the opponent styles of the arena's pool
  (``gin.ai.pool``), for measurement only.

``hint(view)`` is the ``hard0`` choice (hard's heuristic player) with one reason code and ``why``: the
code with the facts behind it (cards in notation, ``danger``, ``undercut`` and
``gin_chance`` in percent, points and deadwood in points).  Reason codes (the
UI translates them, filling in the facts):

- ``big_gin_available``: declare big gin (all eleven cards melded).
- ``gin_available`` (``card``): knock with no deadwood (gin), throwing ``card``.
- ``knock_now`` (``card``, ``deadwood``, ``undercut``, ``opp_deadwood``): knock
  now; the chance of being undercut and the opponent's expected deadwood.
- ``wait_for_gin`` (``card``, ``deadwood``, ``gin_chance``, ``undercut``,
  ``opp_deadwood``): a knock is possible but holding out for gin is worth
  more (the chance that the next stock card gives gin).
- ``undercut_risk`` (``card``, ``deadwood``, ``undercut``, ``points``,
  ``opp_deadwood``): a knock is possible but the opponent may undercut it, at
  a cost of about ``points``.
- ``completes_meld`` (``card``, ``meld``): take the card: it completes ``meld``.
- ``take_upcard`` / ``take_discard`` (``card``, ``deadwood``): take the upcard /
  draw the top of the pile: it improves the hand (deadwood after the discard).
- ``pass_upcard`` (``card``): pass the upcard.
- ``draw_stock`` (``card``: the pile's top, when it could be taken): draw from the stock.
- ``safe_discard`` (``card``, ``avoid``, ``danger``): discard ``card`` rather
  than ``avoid``, which completes a meld of the opponent with ``danger`` %.
- ``opponent_picked`` (the same and ``picked``): as ``safe_discard``, the
  opponent having picked up ``picked``, a neighbour of ``avoid``.
- ``high_deadwood`` (``card``, ``points``): discard a high card that goes with
  no card of the hand.
- ``min_deadwood`` (``card``, ``deadwood``): discard the card that leaves the
  best hand (its deadwood).
"""

from __future__ import annotations

from typing import Any

from .knowledge import Knowledge, bits
from .policy import (
    _NAMES, DECIDE, HARD, Evaluator, _stock_value, decide_hard, discard_scores, hard_evaluator, hard_level,
)
from .pool import POOL as _POOL, STYLES
from .search import decide_search, search_level

__all__ = ["choose", "hint", "LEVELS", "ARENA_LEVELS", "POOL", "REASONS", "search_level", "level_settings"]

#: The levels a player can choose in the UI.
LEVELS = ("easy", "normal", "hard")
#: Every level ``choose`` accepts (the arena's measuring players included).
ARENA_LEVELS = ("easy", "normal", "hard", "hard0", "baseline", "random") + STYLES
#: The opponents ``hard`` is measured against (the arena's ``--b pool``).
POOL = _POOL

DECIDE["search"] = decide_search

REASONS = (
    "big_gin_available",
    "gin_available",
    "knock_now",
    "wait_for_gin",
    "undercut_risk",
    "completes_meld",
    "take_upcard",
    "take_discard",
    "pass_upcard",
    "draw_stock",
    "safe_discard",
    "opponent_picked",
    "high_deadwood",
    "min_deadwood",
)


def _decide(view: dict[str, Any], level: str) -> tuple[dict[str, Any], dict[str, Any]]:
    if not view.get("legal"):
        raise ValueError("the view has no legal action: not this seat's turn")
    decide = DECIDE.get(level)
    if decide is None and level.startswith("hard:"):
        action, why = decide_hard(view, p=hard_level(level))
        return action, {"code": why} if isinstance(why, str) else why
    if decide is None and level.startswith("search:"):
        cfg = search_level(level)
        action, why = decide_search(view, cfg)
        return action, {"code": why} if isinstance(why, str) else why
    if decide is None:
        raise ValueError(f"unknown level {level!r} (expected one of {', '.join(ARENA_LEVELS)})")
    action, why = decide(view)
    return action, {"code": why} if isinstance(why, str) else why


def level_settings(level: str) -> object:
    """The settings of a level given by name with its settings (``"search:budget=96"``,
    ``"hard:danger=4"``), for the arena; ``ValueError`` on a bad name or setting."""
    if level.startswith("hard:"):
        return hard_level(level)
    return search_level(level)


def choose(view: dict[str, Any], level: str = "normal") -> dict[str, Any]:
    """The action this level plays from ``view`` (one of its legal actions, or a knock
    with the melds it declares)."""
    return _decide(view, level)[0]


def hint(view: dict[str, Any]) -> dict[str, Any]:
    """``{"action": <the hard choice>, "reason": <reason code>, "why": {"code": <reason
    code>, ...}}``: ``why`` adds the facts behind the reason (see the module docstring)."""
    action, why = _decide(view, "hard0")
    return {"action": action, "reason": why["code"], "why": why}


__all__ += ["estimates"]


def estimates(view: dict[str, Any]) -> dict[str, float] | None:
    """Difícil's own scores of the choices of this decision, as ``hard`` computes
    them to decide (lower is better: expected deadwood after the next draw,
    less its knock and gin bonuses, plus the danger of feeding the opponent).

    Keys: ``"take"`` / ``"pass"`` (upcard), ``"draw:discard"`` /
    ``"draw:stock"`` (a draw with a choice), ``"discard:<card>"`` (each
    discard).  ``None`` where ``hard`` has no such score: a forced draw, and
    knocks and big gin (which it decides by rule, not by score).  Used by the
    review (``gin.replay``) to say how much worse another choice was.
    """
    k = Knowledge(view)
    return _estimates(view, k, hard_evaluator(k))


def _estimates(view: dict[str, Any], k: Knowledge, ev: Evaluator) -> dict[str, float] | None:
    legal = view.get("legal") or []
    kinds = {a["type"] for a in legal}
    hand = k.hand
    if "take" in kinds or ("draw" in kinds and len(legal) > 1):
        with_top = hand | (1 << k.top)
        take = min(ev.value(with_top & ~(1 << d)) + HARD.danger * k.danger(d) for d in bits(hand))
        stock = _stock_value(k, ev, hand)
        return {"take": take, "pass": stock} if "take" in kinds else {"draw:discard": take, "draw:stock": stock}
    if "discard" not in kinds:
        return None
    return {f"discard:{_NAMES[d]}": key for key, _, d, _ in discard_scores(k, ev, hand)}


__all__ += ["analyse"]


def analyse(view: dict[str, Any]) -> dict[str, Any]:
    """``hint(view)`` and ``estimates(view)`` in one pass: ``{"action", "reason",
    "why", "estimates"}``, exactly ``{**hint(view), "estimates": estimates(view)}``.

    For the review (``gin.replay``), which asks both at every decision: hard's
    decision and the scores share one ``Knowledge`` and one evaluator, so every
    hand is valued once (the evaluator's cache) instead of once for the choice
    and again for the scores (tests/test_ai_analyse.py checks the equality).
    """
    if not view.get("legal"):
        raise ValueError("the view has no legal action: not this seat's turn")
    k = Knowledge(view)
    ev = hard_evaluator(k)
    action, why = decide_hard(view, k=k, ev=ev)
    why = {"code": why} if isinstance(why, str) else why
    return {"action": action, "reason": why["code"], "why": why, "estimates": _estimates(view, k, ev)}
