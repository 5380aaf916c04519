"""Entrenador (gin.coach): one note for a known bad decision, none for a good
one, from the player's view only; and the bridge's ``coach`` method."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest

from gin import bridge, coach
from gin.deal import Deal
from gin.match import Match
from gin.view import deal_view
from test_ai import _hidden_shuffle, _positions, replayed

# The player (seat 0, not dealing) holds two melds (3-4-5♥, three 7s), a lone
# K♠, a lone 9♦, a lone 5♠ and 2♣; both pass the 6♠ and the player draws the
# 2♦ from the stock: the K♠ (10 points, goes with nothing) is the card to throw.
HAND = "3H 4H 5H 7C 7D 7S KS 2C 9D 5S"
OPP = "AC 3C 4D 6D 8S JH QH QD 9C TC"
STOCK = "2D 8C AD AS 2H 3S 4S 6C 8D 9H TH 4C 5C"


def _discard_view() -> dict:
    d = Deal.from_cards(dealer=1, hands=[HAND, OPP], upcard="6S", stock=STOCK)
    for action in ({"type": "pass", "seat": 0}, {"type": "pass", "seat": 1}, {"type": "draw", "from": "stock", "seat": 0}):
        d.apply(action)
    view = deal_view(d, 0)
    assert view["phase"] == "discard" and view["drawn"] == "2D"
    return view


def test_a_known_bad_discard_gets_one_note_naming_the_better_card():
    view = _discard_view()
    n = coach.note(view, {"type": "discard", "card": "2C"})  # breaks the pair of 2s, keeps the K♠
    assert n is not None
    assert n["kind"] == "discard"
    assert n["better"] == {"type": "discard", "card": "KS"}
    assert n["advice"] == "high_cards_first"
    assert n["reason"] == "high_deadwood" and n["why"]["card"] == "KS"
    assert n["cost"] >= coach.THRESHOLD
    assert n["played"] == {"type": "discard", "card": "2C"}


def test_a_good_move_and_a_close_call_get_no_note():
    view = _discard_view()
    assert coach.note(view, {"type": "discard", "card": "KS"}) is None  # Difícil's own move
    close = coach.judge(view, {"type": "discard", "card": "9D"})  # 9 points for 10: hardly worse
    assert close is not None and close["cost"] < coach.THRESHOLD
    assert coach.note(view, {"type": "discard", "card": "9D"}) is None


def test_breaking_a_meld_is_not_called_a_high_card_mistake():
    n = coach.note(_discard_view(), {"type": "discard", "card": "7C"})
    assert n is not None and n["advice"] == "keep_low" and n["better"]["card"] == "KS"


def test_no_choice_no_note():
    d = Deal.from_cards(dealer=1, hands=[HAND, OPP], upcard="6S", stock=STOCK)
    d.apply({"type": "pass", "seat": 0})
    d.apply({"type": "pass", "seat": 1})
    view = deal_view(d, 0)
    assert len(view["legal"]) == 1  # both passed: the stock draw is forced
    assert coach.judge(view, {"type": "draw", "from": "stock"}) is None


@pytest.fixture(scope="module")
def positions():
    return [(s, seat) for s, seat in _positions(8, every=3, tag="coach") if seat == 0]


def _judgements(view):
    """The coach's verdict on every legal action of the view (knocks by card)."""
    return [coach.judge(view, a) for a in view["legal"]]


def test_the_coach_never_sees_hidden_cards_the_stock_or_the_seed(positions):
    # The same spy as the computer's (tests/test_ai.py): swapping the opponent's
    # hidden cards with the stock and reordering the stock changes nothing the
    # player sees, and nothing the coach says; nor does the seed.
    rng = random.Random(24)
    checked = 0
    for (_, seat), m in zip(positions[::2], replayed(positions[::2]), strict=True):
        view = m.view(seat)
        if not view["legal"]:
            continue
        before = _judgements(view)
        other = m.copy()
        _hidden_shuffle(other, seat, rng)
        other_view = other.view(seat)
        assert other_view == view
        assert _judgements(other_view) == before
        seeded = copy.deepcopy(view)
        seeded["seed"] = "SOMETHING-ELSE"
        assert _judgements(seeded) == before
        checked += 1
    assert checked > 20


def test_every_note_carries_a_known_kind_and_advice(positions):
    seen = set()
    for (_, seat), m in zip(positions[::2], replayed(positions[::2]), strict=True):
        view = m.view(seat)
        for action in view["legal"]:
            j = coach.judge(view, action)
            if j is None:
                continue
            assert j["kind"] in coach.KINDS and j["advice"] in coach.ADVICE
            assert j["cost"] is None or j["cost"] >= 0
            seen.add(j["advice"])
    assert {"high_cards_first", "keep_low"} <= seen


def _call(fn, **params):
    return json.loads(fn(json.dumps(params)))


def test_bridge_coach_judges_the_decision_act_kept():
    r = _call(bridge.new_match, seed="COACH-BRIDGE", level="normal")
    m = Match.new(seed="COACH-BRIDGE")  # the same match beside it, for the view before each move
    coached = 0
    for _ in range(60):
        view = r["view"]
        if view["over"] or view["to_act"] != 0 or view["phase"] == "over":
            break
        legal = view["legal"]
        action = next((a for a in legal if a["type"] == "discard"), legal[-1])  # not always the best
        before = m.view(0)
        r = _call(bridge.act, action=action, coach=True)
        assert r["ok"], r
        index = r["coach_index"]
        m.apply(json.loads(bridge.save())["save"]["actions"][index])
        c = _call(bridge.coach, index=index)
        assert c["ok"] and c["index"] == index
        assert c["note"] == coach.note(before, action)
        coached += c["note"] is not None
        while True:  # the computer's turns, on both matches
            step = _call(bridge.computer_step)
            if not step["ok"]:
                break
            m.apply(json.loads(bridge.save())["save"]["actions"][-1])
            r = step
    assert coached >= 1


def test_bridge_coach_refuses_a_decision_it_did_not_keep():
    def my_turn(view):
        while view["to_act"] != 0:
            view = _call(bridge.computer_step)["view"]
        return view

    view = my_turn(_call(bridge.new_match, seed="COACH-REFUSE")["view"])
    assert _call(bridge.coach, index=0)["error"]["code"] == "no_decision"
    r = _call(bridge.act, action=view["legal"][0])  # without coach: nothing kept
    assert r["ok"] and "coach_index" not in r
    assert _call(bridge.coach, index=0)["error"]["code"] == "no_decision"
    view = my_turn(r["view"])
    action = view["legal"][0]
    index = len(json.loads(bridge.save())["save"]["actions"])
    assert _call(bridge.act, action=action, coach=True)["coach_index"] == index
    for bad in (index + 1, "0", None, True, [index]):
        assert _call(bridge.coach, index=bad)["error"]["code"] == "no_decision", bad
    assert _call(bridge.coach, index=index)["ok"]
    _call(bridge.new_match, seed="COACH-REFUSE")  # a new match forgets it
    assert _call(bridge.coach, index=index)["error"]["code"] == "no_decision"


def test_every_advice_has_its_text_in_both_languages():
    text = (Path(__file__).resolve().parents[1] / "web" / "text" / "i18n.js").read_text(encoding="utf-8")
    for code in coach.ADVICE:
        found = re.findall(rf'"coach\.advice\.{code}":\s*"([^"]+)"', text)
        assert len(found) == 2 and found[0] != found[1], (code, found)
