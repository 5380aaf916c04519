"""The measuring stick: ``baseline`` plays like the EAAI "Simple" player.

Its published rules (Neller's SimpleGinRummyPlayer): draw the face-up card
only when it would be part of a meld (any meld the hand could make with it,
not only one of the best arrangement); discard a card that leaves the least
deadwood, never the card just taken from the pile; knock as soon as the
deadwood is 10 or less.
"""

from __future__ import annotations

import pytest

from gin import ai
from gin.cards import parse_cards
from gin.deal import Deal
from gin.melds import deadwood
from gin.rules import Rules
from gin.view import deal_view

#: Two runs (5-6-7♥, 7-8-9♠) and loose cards; seat 0 is the non-dealer.
HAND = "5H 6H 7H 7S 8S 9S KC QD 2D 4C"
OTHER = "AS 3S JS AH 3H 9H JH 3C 5C 9C"


def _deal(upcard: str, hand: str = HAND, stock: str = "6C 6D 8D 5D 5S 6S") -> Deal:
    return Deal.from_cards(
        rules=Rules.profile("traditional"),
        dealer=1,
        hands=[hand, OTHER],
        upcard=upcard,
        stock=stock,
    )


def _choose(deal: Deal, seat: int = 0) -> dict:
    return ai.choose(deal_view(deal, seat), "baseline")


def test_takes_a_card_that_joins_any_meld_even_outside_the_best_arrangement():
    # 7♣ makes the set 7♣7♥7♠, although with it the best arrangement keeps
    # both runs and leaves 7♣ loose (33 against 54): Simple takes it all the same.
    deal = _deal("7C")
    assert _choose(deal) == {"type": "take"}


@pytest.mark.parametrize("upcard", ["4H", "TS", "8H"])
def test_takes_a_card_that_extends_or_completes_a_run(upcard):
    # 4♥ and 8♥ extend 5-6-7♥, 10♠ extends 7-8-9♠
    assert _choose(_deal(upcard)) == {"type": "take"}


@pytest.mark.parametrize("upcard", ["KH", "3D", "TC"])
def test_passes_a_card_that_joins_no_meld(upcard):
    # K♥ pairs with K♣ only, 3♦ sits next to 2♦ only (4♦ is not held), 10♣ is alone
    assert _choose(_deal(upcard)) == {"type": "pass"}


@pytest.mark.parametrize("thrown, source", [("4C", "discard"), ("KC", "stock")])
def test_draws_from_the_pile_only_to_make_a_meld(thrown, source):
    deal = _deal("KH")
    deal.apply({"type": "pass"})
    deal.apply({"type": "pass"})
    deal.apply({"type": "draw", "from": "stock"})  # the non-dealer's forced draw
    deal.apply({"type": "discard", "card": thrown})
    # the dealer (seat 1) holds 3♣ 5♣: 4♣ makes a run; K♣ makes nothing
    assert _choose(deal, 1) == {"type": "draw", "from": source}


def test_discards_a_least_deadwood_card_never_the_one_taken():
    deal = _deal("7C")
    deal.apply({"type": "take"})
    view = deal_view(deal, 0)
    action = ai.choose(view, "baseline")
    assert action["type"] == "discard" and action["card"] != "7C"
    hand = parse_cards(view["hand"])
    after = {str(c): deadwood([d for d in hand if d != c]) for c in hand if str(c) != "7C"}
    assert after[action["card"]] == min(after.values())


@pytest.mark.parametrize("drawn, knocks", [("3D", True), ("TD", False)])
def test_knocks_as_soon_as_the_deadwood_allows(drawn, knocks):
    # runs 5-6-7♥ and 7-8-9♠, loose A♦ 2♦ A♣ K♣ (14): 3♦ makes A-2-3♦ and,
    # throwing K♣, leaves deadwood 1: Simple knocks at once.  10♦ leaves 14.
    deal = _deal("QC", hand="5H 6H 7H 7S 8S 9S AD 2D AC KC", stock=f"{drawn} TH TS 8C 6C")
    assert _choose(deal) == {"type": "pass"}
    deal.apply({"type": "pass"})
    assert _choose(deal, 1) == {"type": "pass"}
    deal.apply({"type": "pass"})
    deal.apply({"type": "draw", "from": "stock"})
    view = deal_view(deal, 0)
    action = ai.choose(view, "baseline")
    if knocks:
        assert action["type"] == "knock" and action["card"] == "KC"
        trial = deal.copy()
        trial.apply(action)
        assert trial.outcome.arrangements[0].points == 1
    else:
        assert action == {"type": "discard", "card": "KC"}
