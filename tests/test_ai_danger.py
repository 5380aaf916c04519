"""Difícil's danger (gin.ai.danger): what it reads of the opponent is public and timed right."""

from __future__ import annotations

import copy
import math
import random

import pytest

from gin import ai
from gin.ai import danger, danger_data
from gin.ai.knowledge import INDEX, Knowledge, bits
from gin.cards import ALL_CARDS
from gin.deal import Deal
from gin.match import Match
from gin.rules import Rules
from gin.view import deal_view
from test_ai import _hidden_shuffle, _positions, replayed


def _names(mask: int) -> list[str]:
    return [str(ALL_CARDS[i]) for i in bits(mask)]


def _scripted() -> Deal:
    """Seat 0 (dealt first) against seat 1: both pass the upcard 7♣, seat 1 draws
    over seat 0's K♥ and throws J♣, then takes seat 0's 9♥ from the pile and throws T♣."""
    deal = Deal.from_cards(
        rules=Rules.profile("traditional"), dealer=1,
        hands=["AC 2C 3C 7D 8D KH QS JD 5S 9H", "4H 5H 6H 7S 7H TC TD 2S 3S JC"],
        upcard="7C", stock="KD QD JH 9C 8C 4D 3D",
    )
    for action in (
        {"type": "pass"}, {"type": "pass"}, {"type": "draw", "from": "stock"}, {"type": "discard", "card": "KH"},
        {"type": "draw", "from": "stock"}, {"type": "discard", "card": "JC"}, {"type": "draw", "from": "stock"},
        {"type": "discard", "card": "9H"}, {"type": "draw", "from": "discard"}, {"type": "discard", "card": "TC"},
        {"type": "draw", "from": "stock"},
    ):
        deal.apply(action)
    return deal


def test_the_opponents_clues_are_read_in_order_with_the_draws_before_each():
    k = Knowledge(deal_view(_scripted(), 0))
    clues = [(kind, str(ALL_CARDS[card]), draws) for kind, card, draws in k.opp_clues]
    # the upcard passed before any draw; the stock drawn over K♥ (the draw comes after
    # the refusal); J♣ thrown after that draw; 9♥ taken and T♣ thrown with no stock draw between
    assert clues == [("refused", "7C", 0), ("refused", "KH", 0), ("discarded", "JC", 1), ("picked", "9H", 1),
                     ("discarded", "TC", 1)]
    assert k.opp_draws == 1
    assert _names(k.my_discards) == ["9H", "KH"]
    # seat 1 sees the mirror: seat 0 refused the upcard (its draw after both passed
    # is forced: no clue, but a draw), then drew over J♣ and over T♣
    k1 = Knowledge(deal_view(_scripted(), 1))
    assert [(kind, str(ALL_CARDS[c]), draws) for kind, c, draws in k1.opp_clues] == [
        ("refused", "7C", 0), ("discarded", "KH", 1), ("refused", "JC", 1), ("discarded", "9H", 2),
        ("refused", "TC", 2)]
    assert k1.opp_draws == 3


def test_a_pair_refuted_by_a_refusal_is_marked_with_the_draws_since():
    k = Knowledge(deal_view(_scripted(), 0))
    d = danger.Danger(k)
    names = danger._PAIR
    # 7♠ 7♥ would meld with the 7♣ the opponent passed (no stock draw by it since
    # then: 1 / (1 + 1) after the one draw that followed)
    seven = d._pair(INDEX["7S"], INDEX["7H"])
    assert seven[names.index("possible")] == 1.0
    assert seven[names.index("refuted_refused")] == pytest.approx(0.5)
    # K♠ K♣ would meld with the K♥ it drew over (the same draw since)
    assert d._pair(INDEX["KS"], INDEX["KC"])[names.index("refuted_refused")] == pytest.approx(0.5)
    # T♥ 8♥ would meld with 9♥, which it picked up: a reason for that pick-up
    assert d._pair(INDEX["8H"], INDEX["TH"])[names.index("support_pair")] > 0
    # a pair with a card in our hand cannot be held: J♥ came to us from the stock
    assert d._pair(INDEX["QH"], INDEX["JH"]) == danger._NO_PAIR
    assert d._pair(INDEX["7D"], INDEX["7H"]) == danger._NO_PAIR


def test_the_inputs_have_their_documented_length():
    k = Knowledge(deal_view(_scripted(), 0))
    d = danger.Danger(k)
    for c in bits(k.hand):
        assert len(d.features(c)) == len(danger.FEATURES)
        assert 0.0 <= d.danger(c) <= 1.0
    assert len(danger_data.W) == len(danger.FEATURES)
    assert all(math.isfinite(w) for w in [*danger_data.W, danger_data.B])


@pytest.fixture(scope="module")
def positions():
    return _positions(16, every=3, tag="danger")


def test_the_inputs_are_public_features_only(positions):
    """The same view gives the same inputs and danger whatever the hidden cards,
    the stock order and the seed (the fairness of the learned model)."""
    rng = random.Random(34)
    checked = 0
    for (_, seat), m in zip(positions, replayed(positions), strict=True):
        view = m.view(seat)
        if view["phase"] != "discard":
            continue
        d = danger.Danger(Knowledge(view))
        want = {c: (d.features(c), d.danger(c)) for c in range(52)}
        other = m.copy()
        _hidden_shuffle(other, seat, rng)
        other_view = other.view(seat)
        other_view["seed"] = "SOMETHING-ELSE"
        d2 = danger.Danger(Knowledge(other_view))
        assert {c: (d2.features(c), d2.danger(c)) for c in range(52)} == want
        checked += 1
    assert checked > 100


def test_hard_settings_by_name():
    from gin.ai.policy import HARD

    # the settings start from hard's own (the page's Difícil, also hard0)
    assert ai.level_settings("hard:danger=3").__dict__ == HARD.__dict__
    p = ai.level_settings("hard:danger=2.5,danger_model=1,margin.standard=-4")
    assert (p.danger, p.danger_model, p.margin["standard"], p.margin["traditional"]) == (2.5, 1, -4.0, -3.0)
    for bad in ("hard:depth=3", "hard:danger=lots", "hardest", "hard:deep=2.5"):
        with pytest.raises(ValueError):
            ai.level_settings(bad)
    view = Match.new(seed="LEVELS").view(0 if Match.new(seed="LEVELS").to_act == 0 else 1)
    assert ai.choose(copy.deepcopy(view), "hard:danger=3") == ai.choose(view, "hard:danger=3")
    # a count given as a number is a count: the deeper look plays whole positions
    deep = ai.level_settings("hard:deep=3,gin_wait=5")
    assert (deep.deep, deep.gin_wait) == (3, 5) and all(isinstance(v, int) for v in (deep.deep, deep.gin_wait))
    plays = 0
    for seed in ("DEEP-1", "DEEP-2"):
        m = Match.new(seed=seed)
        deals = len(m.results)
        while not m.over and len(m.results) == deals:  # one deal each
            seat = m.to_act
            m.apply(ai.choose(m.view(seat), "hard:deep=3" if seat == 0 else "normal"))
            plays += seat == 0
    assert plays > 10


def test_the_knock_habit_reads_only_the_showdowns(positions):
    """The opponent's knocks are read from the hands laid open at each showdown
    (the view's history), and from nothing hidden: shuffling the hidden cards
    and the stock changes nothing, and a view without a history has none."""
    from gin.ai.habits import knock_deadwoods

    rng = random.Random(7)
    seen = 0
    for (_, seat), m in zip(positions, replayed(positions), strict=True):
        view = m.view(seat)
        got = knock_deadwoods(view)
        want = [0 if r.outcome.kind in ("gin", "big_gin") else r.outcome.arrangements[1 - seat].points
                for r in m.results if r.outcome.knocker == 1 - seat]
        assert got == want
        seen += len(got)
        other = m.copy()
        _hidden_shuffle(other, seat, rng)
        assert knock_deadwoods(other.view(seat)) == got
        assert knock_deadwoods({**view, "history": []}) == []
    assert seen > 5


def test_the_knock_habit_mixes_the_pool_with_what_was_seen():
    from gin.ai.habits import mixed_knocks

    prior = [0, 5, 10, 10]
    assert mixed_knocks(prior, [], 4.0) == [(d, 0.25) for d in prior]
    mixed = mixed_knocks(prior, [9, 9], 2.0)
    assert sum(s for _, s in mixed) == pytest.approx(1.0)
    assert sum(s for d, s in mixed if d == 9) == pytest.approx(0.5)  # two seen against a prior worth two
