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
  against the expected stock draw, goes for gin instead of knocking with
  almost no deadwood (an early knocker then gets undercut), waits for a lower
  knock late in the deal (undercut risk), and declares the knock arrangement with the least
  deadwood plus expected layoffs.
- ``baseline``: the EAAI "Simple" player, for measurement only (not in the UI).
- ``random``: a uniformly random legal player, for the arena only.
- ``greedy``, ``pairs``, ``ginwait``: the opponent styles of the arena's pool
  (``gin.ai.pool``), for measurement only.

``hint(view)`` is the ``hard`` choice with one reason code.  Reason codes
(the UI translates them):

- ``big_gin_available``: declare big gin (all eleven cards melded).
- ``gin_available``: knock with no deadwood (gin).
- ``knock_now``: knock now, deadwood within the limit.
- ``wait_for_gin``: a knock is possible but the deadwood is so low that going
  for gin is better (an opponent who knocks meanwhile risks an undercut).
- ``undercut_risk``: a knock is possible but, this late in the deal, the
  deadwood is too high: the opponent may undercut it.
- ``completes_meld``: take the upcard / discard because it completes a meld.
- ``take_upcard``: take the upcard: it improves the hand even without a meld.
- ``take_discard``: draw the top of the discard pile: it improves the hand.
- ``pass_upcard``: pass the upcard.
- ``draw_stock``: draw from the stock.
- ``safe_discard``: discard this card: it is less likely to help the opponent.
- ``high_deadwood``: discard a high loose card.
- ``min_deadwood``: discard the card that leaves the best hand.
"""

from __future__ import annotations

from typing import Any

from .policy import DECIDE
from .pool import POOL as _POOL, STYLES

__all__ = ["choose", "hint", "LEVELS", "ARENA_LEVELS", "POOL", "REASONS"]

#: The levels a player can choose in the UI.
LEVELS = ("easy", "normal", "hard")
#: Every level ``choose`` accepts (the arena's measuring players included).
ARENA_LEVELS = ("easy", "normal", "hard", "baseline", "random") + STYLES
#: The opponents ``hard`` is measured against (the arena's ``--b pool``).
POOL = _POOL

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
    "high_deadwood",
    "min_deadwood",
)


def _decide(view: dict[str, Any], level: str) -> tuple[dict[str, Any], str]:
    if not view.get("legal"):
        raise ValueError("the view has no legal action: not this seat's turn")
    decide = DECIDE.get(level)
    if decide is None:
        raise ValueError(f"unknown level {level!r} (expected one of {', '.join(ARENA_LEVELS)})")
    return decide(view)


def choose(view: dict[str, Any], level: str = "normal") -> dict[str, Any]:
    """The action this level plays from ``view`` (one of its legal actions, or a knock
    with the melds it declares)."""
    return _decide(view, level)[0]


def hint(view: dict[str, Any]) -> dict[str, Any]:
    """``{"action": <the hard choice>, "reason": <reason code>}``."""
    action, reason = _decide(view, "hard")
    return {"action": action, "reason": reason}
