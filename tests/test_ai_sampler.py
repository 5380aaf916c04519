"""Difícil's danger from sampled hands (gin.ai.sampler): the replay reads each clue on
the hand of its moment, and the estimate is a fair function of the view."""

from __future__ import annotations

import random

import pytest

from gin import ai
from gin.ai import sampler
from gin.ai.knowledge import INDEX, Knowledge, mask_of
from test_ai import _check_legal, _hidden_shuffle, _positions, replayed
from test_ai_danger import _scripted
from gin.view import deal_view


def _hand(text: str) -> int:
    return mask_of(text.split())


# far from 7♣, from each other's melds and from K♥: no pair, no two-card start with them
LOOSE = "AD 3H 5S 9D JS"


def test_a_refusal_weighs_the_hand_that_could_have_melded_it():
    x = INDEX["7C"]
    refused = [("refused", x, 0)]
    assert sampler._replay(_hand(f"7S 7H {LOOSE}"), refused, 0, random.Random(1)) == sampler.F_REFUSED
    assert sampler._replay(_hand(f"7S QH {LOOSE}"), refused, 0, random.Random(1)) == sampler.F_REFUSED_NEAR
    assert sampler._replay(_hand(f"KD QH {LOOSE}"), refused, 0, random.Random(1)) == 1.0


def test_the_stock_draws_since_a_clue_blur_it():
    """After one stock draw, either card of the pair may be the one drawn since the refusal."""
    x = INDEX["7C"]
    hand = _hand(f"7S 7H {LOOSE}")
    weights = [sampler._replay(hand, [("refused", x, 0)], 1, random.Random(n)) for n in range(400)]
    cleared = sum(1 for w in weights if w == 1.0)
    # the drawn card is one of the 7 cards, uniformly: the pair is broken 2 times in 7
    assert 400 * 2 / 7 - 40 < cleared < 400 * 2 / 7 + 40
    assert set(weights) == {1.0, sampler.F_REFUSED}


def test_a_card_picked_up_is_never_taken_for_a_stock_draw():
    """Its origin is public: undoing the draws after it leaves it in the hand until its pick-up."""
    z = INDEX["9H"]
    # 8♥ T♥ meld with 9♥ (and 9♦ pairs with it); the seven stock draws since may each
    # take out any card but 9♥
    hand = _hand(f"9H 8H TH {LOOSE}")
    for n in range(300):
        w = sampler._replay(hand, [("picked", z, 0)], 7, random.Random(n))
        # all the hand's other cards are gone by then: the pick-up is read on an empty hand
        assert w == sampler.F_PICK_NONE
    assert sampler._replay(hand, [("picked", z, 0)], 0, random.Random(0)) == 1.0


def test_a_discard_is_read_on_the_hand_it_left():
    x = INDEX["7C"]
    assert sampler._replay(_hand(f"7S 7H {LOOSE}"), [("discarded", x, 0)], 0, random.Random(0)) == sampler.F_DISCARD
    assert sampler._replay(_hand(f"KD QH {LOOSE}"), [("discarded", x, 0)], 0, random.Random(0)) == 1.0


def test_the_samples_hold_what_the_opponent_may_hold():
    k = Knowledge(deal_view(_scripted(), 0))
    s = sampler.Sampled(k, n=50)
    assert len(s.held) == 50 and s.ess > 1
    seen = k.hand | k.dead
    for hand in s.held:
        assert hand & k.opp_known == k.opp_known
        assert hand & seen == 0
        assert hand.bit_count() == k.opp_count
    for c in range(52):
        assert 0.0 <= s.danger(c) <= 1.0


@pytest.fixture(scope="module")
def positions():
    return _positions(10, every=4, tag="sampler")


@pytest.fixture(scope="module")
def matches(positions):
    """Each position's match, rebuilt from its save once for the module (the estimate's
    test shuffles a copy)."""
    return replayed(positions)


def test_the_estimate_is_a_function_of_the_view_only(positions, matches):
    """The same view gives the same danger, card by card, and the same decision of
    ``hard:danger_model=2``, whatever the opponent's hidden cards, the stock order
    and the seed."""
    rng = random.Random(34)
    checked = 0
    for (_, seat), m in zip(positions, matches, strict=True):
        view = m.view(seat)
        if view["phase"] not in ("discard", "draw"):
            continue
        s = sampler.Sampled(Knowledge(view), n=40)
        want = [s.danger(c) for c in range(52)]
        other = m.copy()
        _hidden_shuffle(other, seat, rng)
        other_view = other.view(seat)
        other_view["seed"] = "SOMETHING-ELSE"
        s2 = sampler.Sampled(Knowledge(other_view), n=40)
        assert [s2.danger(c) for c in range(52)] == want
        if checked % 4 == 0:
            assert ai.choose(other_view, "hard:danger_model=2") == ai.choose(view, "hard:danger_model=2")
        checked += 1
    assert checked > 40


def test_the_samples_differ_from_one_position_to_the_next(positions, matches):
    """Seeded from the position: two positions do not draw the same hands."""
    keys = {sampler.position_key(Knowledge(m.view(seat))) for (_, seat), m in zip(positions, matches, strict=True)}
    assert len(keys) == len(positions)


def test_hard_with_the_sampler_plays_only_legal_moves(positions, matches):
    for (_, seat), m in zip(positions[::2], matches[::2], strict=True):
        view = m.view(seat)
        action = ai.choose(view, "hard:danger_model=2")
        _check_legal(m.deal, view, action)
