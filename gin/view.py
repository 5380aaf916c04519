"""What one seat may see: the only place that hides information.

A view holds the seat's own hand, the public history of the deal (takes,
passes, discards, where each draw came from), the cards the opponent took
from the discard pile and still holds, counts, scores and, when the seat is
to act, its legal actions.  The opponent's other cards and the stock order
are never in it, and neither is the match seed: with the documented shuffle
the seed gives away both, and a view is exactly what the computer decides
from (``gin.ai``).  The bridge adds the seed to the human's page itself, for
the menu.  Everything is JSON-ready, cards as notation strings.
"""

from __future__ import annotations

from typing import Any

from .cards import CARD_TEXT, mask_texts
from .errors import check_seat
from .melds import Arrangement, discard_deadwood_masks, solve

__all__ = ["match_view", "deal_view"]


_cards = mask_texts


def deal_view(deal, seat: int) -> dict[str, Any]:
    """The seat's view of one deal (no match information); ``SeatError`` unless seat is 0 or 1."""
    check_seat(seat)
    hand = deal.hand_masks[seat]
    points, packing = solve(hand)
    acting = deal.to_act == seat and deal.phase != "over"
    view: dict[str, Any] = {
        "seat": seat,
        "dealer": deal.dealer,
        "phase": deal.phase,
        "to_act": deal.to_act,
        "hand": _cards(hand),
        "arrangement": Arrangement.from_masks(hand, packing).to_dict(),
        "discard_deadwood": None,
        "taken": None,
        "drawn": None,
        "opponent": {
            "count": deal.hand_masks[1 - seat].bit_count(),
            "known": _cards(deal.known_masks[1 - seat]),
        },
        "known": _cards(deal.known_masks[seat]),
        "discard": [CARD_TEXT[i] for i in deal.pile],
        "stock_count": len(deal.stock_list),
        "both_passed": deal.both_passed,
        # Seats that passed the upcard this deal, in order (docs/bridge.md).
        "upcard_passed": [e["seat"] for e in deal.events if e.get("type") == "pass"],
        "events": [_public_event(e, seat) for e in deal.events],
        "legal": deal.legal_actions() if acting else [],
        "rules": deal.rules.to_dict(),
        # The deal's own knock limit (Oklahoma: set by the first upcard; 0: only
        # gin) and score multiplier: public from the deal's first moment.
        "knock_limit": deal.knock_limit,
        "multiplier": deal.multiplier,
    }
    if acting and deal.phase == "discard":
        view["discard_deadwood"] = {
            CARD_TEXT[i]: d for i, d in sorted(discard_deadwood_masks(hand).items())
        }
    if deal.to_act == seat:
        if deal.taken is not None:
            view["taken"] = CARD_TEXT[deal.taken]
        if deal.drawn is not None:
            view["drawn"] = CARD_TEXT[deal.drawn]
    return view


def _public_event(event: dict[str, Any], seat: int) -> dict[str, Any]:
    return dict(event)


def match_view(match, seat: int) -> dict[str, Any]:
    """The seat's view of the whole match (deal view plus scores and history), without the seed."""
    view = deal_view(match.deal, seat)
    history = [r.to_dict() for r in match.results]
    view.update(
        {
            "deal_number": match.deal_number,
            "scores": list(match.scores),
            "wins": [sum(1 for s, _ in match.wins if s == k) for k in (0, 1)],
            "history": history,
            "last_deal": history[-1] if history else None,
            "over": match.over,
            "final": None if match.final is None else match.final.to_dict(),
            # Hollywood: each game's totals and whether it is over (None: one game).
            "games": None
            if match.games is None
            else [{"scores": list(g.scores), "over": g.final is not None} for g in match.games],
        }
    )
    if match.over:
        view["legal"] = []
        view["to_act"] = None
    return view
