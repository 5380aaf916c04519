"""Views: no hidden card or stock order ever, the opponent's picked-up cards shown, JSON-ready, legal only to act."""

from __future__ import annotations

import json
import random

import pytest

from gin import Deal, Match, Rules
from gin.errors import SeatError
from gin.view import deal_view

from test_match import PROFILES, policy

# The keys docs/bridge.md promises (the bridge adds seed, level and next_level).
DOC_KEYS = {
    "seat", "rules", "deal_number", "dealer", "phase", "to_act", "hand", "arrangement",
    "discard_deadwood", "taken", "opponent", "upcard_passed", "discard", "stock_count", "scores",
    "wins", "legal", "events", "history", "last_deal", "over", "final",
}


def hidden_from(m: Match, seat: int) -> set[str]:
    """The cards ``seat`` must not see: the opponent's unknown cards and the stock."""
    d = m.deal
    full = d.to_dict()
    opponent = set(full["hands"][1 - seat]) - set(full["known"][1 - seat])
    return opponent | set(full["stock"])


def check_view(m: Match, seat: int) -> dict:
    view = m.view(seat)
    text = json.dumps(view)
    assert json.loads(text) == view  # JSON-ready: only dicts, lists, str, int, bool, None
    assert DOC_KEYS <= set(view)
    # The seed gives away the hidden cards and the stock (documented shuffle).
    assert "seed" not in view and m.seed not in text
    # Earlier deals' showdowns are public and may name any card; the current
    # deal's part of the view must not name a hidden one.
    current = {k: v for k, v in view.items() if k not in ("history", "last_deal", "final")}
    current_text = json.dumps(current)
    if not m.over:
        for card in hidden_from(m, seat):
            assert f'"{card}"' not in current_text, (seat, card)
    d = m.deal
    full = d.to_dict()
    assert view["hand"] == full["hands"][seat]
    assert view["opponent"]["count"] == len(full["hands"][1 - seat])
    assert view["opponent"]["known"] == full["known"][1 - seat]
    assert view["discard"] == full["discard"]
    assert view["stock_count"] == len(full["stock"])
    assert "stock" not in view and "hands" not in view
    assert view["phase"] == d.phase and view["dealer"] == d.dealer
    if m.to_act == seat:
        assert view["legal"] == m.legal_actions() and view["legal"]
    else:
        assert view["legal"] == []
    if m.to_act == seat and d.phase == "discard":
        assert set(view["discard_deadwood"]) == set(view["hand"])
    else:
        assert view["discard_deadwood"] is None
        assert view["drawn"] is None if "drawn" in view else True
    assert view["scores"] == list(m.scores)
    assert view["over"] == m.over
    return view


@pytest.mark.parametrize("index", range(6))
def test_views_at_every_step_of_random_matches(index):
    rules = PROFILES[index % len(PROFILES)]
    m = Match.new(seed=f"VIEW-{index}", rules=rules)
    rng = random.Random(index)
    steps = 0
    while not m.over and steps < 300:
        check_view(m, 0)
        check_view(m, 1)
        m.apply(policy(m, rng))
        steps += 1
    check_view(m, 0)
    check_view(m, 1)


PLAIN = dict(
    hands=["AC 3C 5C 7D 9D JD KH 2H 4S 6S", "2C 4C 6C 8D TD QD AH 3H 5S 7S"],
    upcard="KS",
    stock="9C JC 8H TH QH 9S JS KD 8C",
)


def test_the_opponents_picked_up_cards_are_shown_while_held():
    d = Deal.from_cards(rules=Rules.profile("traditional"), dealer=1, **PLAIN)
    d.apply({"type": "pass"}).apply({"type": "take"})  # seat 1 takes KS
    v0 = deal_view(d, 0)
    assert v0["opponent"] == {"count": 11, "known": ["KS"]}
    assert v0["legal"] == [] and v0["taken"] is None
    v1 = deal_view(d, 1)
    assert v1["taken"] == "KS" and v1["known"] == ["KS"]
    assert v1["upcard_passed"] == [0]
    d.apply({"type": "discard", "card": "QD"})
    d.apply({"type": "draw", "from": "discard"})  # seat 0 takes QD
    assert deal_view(d, 1)["opponent"]["known"] == ["QD"]
    assert deal_view(d, 0)["opponent"]["known"] == ["KS"]
    d.apply({"type": "discard", "card": "KH"})
    d.apply({"type": "draw", "from": "stock"})  # seat 1 draws 9C
    v0 = deal_view(d, 0)
    assert '"9C"' not in json.dumps(v0)  # seat 0 does not see what came from the stock
    assert deal_view(d, 1)["drawn"] == "9C"
    d.apply({"type": "discard", "card": "KS"})  # no longer held: no longer "known"
    assert deal_view(d, 0)["opponent"]["known"] == []
    assert deal_view(d, 0)["discard"] == ["KH", "KS"]


def test_draw_events_hide_stock_cards_and_show_pile_cards():
    d = Deal.from_cards(rules=Rules.profile("traditional"), dealer=1, **PLAIN)
    d.apply({"type": "pass"}).apply({"type": "pass"}).apply({"type": "draw", "from": "stock"})
    d.apply({"type": "discard", "card": "KH"}).apply({"type": "draw", "from": "discard"})
    events = deal_view(d, 0)["events"]
    assert {"seat": 0, "type": "draw", "from": "stock"} in events
    assert {"seat": 1, "type": "draw", "from": "discard", "card": "KH"} in events
    assert all("card" not in e for e in events if e.get("from") == "stock")
    assert deal_view(d, 0)["upcard_passed"] == [0, 1]


@pytest.mark.parametrize("seat", [2, -1, "0", None, True, False, 0.0, 1.0, [0]])
def test_a_bad_seat_is_refused(seat):
    m = Match.new(seed="VIEW", rules="traditional")
    with pytest.raises(SeatError) as info:
        m.view(seat)
    assert info.value.code == "bad_seat" and isinstance(info.value, ValueError)
    with pytest.raises(SeatError):
        deal_view(m.deal, seat)


def test_the_view_after_the_end_of_the_match():
    m = Match.new(seed="VIEW-END", rules=Rules.profile("standard"))
    rng = random.Random(1)
    while not m.over:
        m.apply(policy(m, rng))
    for seat in (0, 1):
        v = check_view(m, seat)
        assert v["over"] and v["legal"] == [] and v["to_act"] is None
        assert v["final"]["totals"] == list(m.final.totals)
        assert v["last_deal"] == v["history"][-1]
        assert len(v["history"]) == len(m.results)
        assert v["wins"] == [sum(1 for s, _ in m.wins if s == k) for k in (0, 1)]
