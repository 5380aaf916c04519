"""hard's knock model: the match-win table per profile and the knock/hold call."""

from __future__ import annotations

import pytest

from gin import ai
from gin.ai import model_data
from gin.ai.knock import knock_call
from gin.ai.knowledge import Knowledge
from gin.ai.winprob import win_prob
from gin.deal import Deal
from gin.rules import Rules
from gin.view import deal_view

PROFILES = [Rules.profile("traditional"), Rules.profile("standard"), Rules.profile("custom", target=250, big_gin_bonus=31)]


@pytest.mark.parametrize("rules", PROFILES, ids=lambda r: f"{r.profile_name}-{r.target}")
def test_win_table_is_a_fair_monotone_probability(rules):
    r = rules.to_dict()
    t = rules.target
    assert win_prob(r, 0, 0) == pytest.approx(0.5, abs=0.01)
    step = max(1, t // 20)
    for a in range(0, t, step):
        for b in range(0, t, step):
            w = win_prob(r, a, b)
            assert 0.0 <= w <= 1.0
            assert w + win_prob(r, b, a) == pytest.approx(1.0, abs=0.02)
            assert win_prob(r, a + step, b) >= w - 1e-9
            assert win_prob(r, a, b + step) <= w + 1e-9
    assert win_prob(r, t, 50) == 1.0 and win_prob(r, 50, t) == 0.0
    # near the end a lead is worth more than early on
    assert win_prob(r, t - 10, t - 30) > win_prob(r, 20, 0)


def test_the_model_data_is_sane():
    assert len(model_data.OPP_DEADWOOD) == len(model_data.OPP_KNOCK) == 11
    assert all(len(q) == 10 and q == sorted(q) for q in model_data.OPP_DEADWOOD)
    assert all(0.0 <= h <= 1.0 for h in model_data.OPP_KNOCK)
    assert all(0 <= d <= 10 for d in model_data.OPP_KNOCK_DEADWOOD)
    assert abs(sum(s for _, _, s in model_data.DEALS) - 1.0) < 0.01
    # early in a deal the opponent holds more deadwood than late
    assert sum(model_data.OPP_DEADWOOD[10]) > sum(model_data.OPP_DEADWOOD[4])


def _position(rules: Rules, stock: str, hand: str = "2C 3C 4C 7D 7H 7S 9H TH JH AS"):
    """Seat 0 to discard with runs/sets and deadwood 1 after throwing a card."""
    deal = Deal.from_cards(
        rules=rules, dealer=1, hands=[hand, "KS QS JD 9S 5S 3S 2D 4H 6D 8C"], upcard="KD", stock=stock
    )
    deal.apply({"type": "pass"})
    deal.apply({"type": "pass"})
    deal.apply({"type": "draw", "from": "stock"})
    return deal_view(deal, 0)


def _call(view, dw: int, card: str, margin: float = 0.0, score_aware: bool = True):
    k = Knowledge(view)
    from gin.ai.knowledge import INDEX

    hand10 = k.hand & ~(1 << INDEX[card])
    unseen = [i for i in range(52) if (k.unseen >> i) & 1]
    weight = {i: 1 / len(unseen) for i in unseen}
    return knock_call(k, view, dw, hand10, 0.0, weight, margin=margin, score_aware=score_aware)


def test_the_call_reads_the_undercut_bonus():
    # deadwood 1 (A♠) after throwing the drawn K♣, a long stock: holding for gin
    # is worth more where the undercut pays 25 than where it pays 10
    stock = "KC " + " ".join(["5D", "6H", "8D", "2H", "3D", "4D", "5H", "6C", "7C", "8S", "9D", "TD", "JC", "QC", "TS", "JS"])
    prices = {}
    for rules in (Rules.profile("traditional"), Rules.profile("standard")):
        view = _position(rules, stock)
        call = _call(view, 1, "KC")
        prices[rules.profile_name] = call.hold_value - call.knock_value
        assert 0.0 <= call.knock_value <= 1.0 and 0.0 <= call.hold_value <= 1.0
        assert call.gin_chance > 0  # 5C, 8C (runs), AS's partners... something gins
    assert prices["standard"] > prices["traditional"]


def test_the_call_reads_the_match_score():
    # the same knock is worth more to a player whom it takes to the target
    stock = "KC " + " ".join(["5D", "6H", "8D", "2H", "3D", "4D", "5H", "6C", "7C", "8S", "9D", "TD"])
    view = _position(Rules.profile("traditional"), stock)
    near = dict(view, scores=[95, 40])
    far = dict(view, scores=[0, 40])
    a, b = _call(near, 1, "KC"), _call(far, 1, "KC")
    assert a.knock_value - a.hold_value > b.knock_value - b.hold_value


def test_the_points_ablation_ignores_the_match_score():
    # the arena's ablation (bench/final_runs.py) values outcomes in points:
    # then the score does not move the verdict, and the prices are points
    stock = "KC " + " ".join(["5D", "6H", "8D", "2H", "3D", "4D", "5H", "6C", "7C", "8S", "9D", "TD"])
    view = _position(Rules.profile("traditional"), stock)
    near = _call(dict(view, scores=[95, 40]), 1, "KC", score_aware=False)
    far = _call(dict(view, scores=[0, 40]), 1, "KC", score_aware=False)
    assert near.knock_value - near.hold_value == pytest.approx(far.knock_value - far.hold_value)
    assert near.knock_value > 1.0  # points won, not a probability


def test_hard_knocks_gin_and_explains_a_hold():
    stock = "KC " + " ".join(["5D", "6H", "8D", "2H", "3D", "4D", "5H", "6C", "7C", "8S", "9D", "TD", "JC", "QC"])
    view = _position(Rules.profile("standard"), stock)
    h = ai.hint(view)
    assert h["action"]["type"] in ("knock", "discard")
    if h["action"]["type"] == "discard":
        assert h["reason"] in ("wait_for_gin", "undercut_risk")
        assert h["why"]["deadwood"] == 1
