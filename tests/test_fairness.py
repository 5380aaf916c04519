"""Comprobar: the real levels decide the same in every world dealt again from their view; a level made to
peek at the stock, the human's hand or the seed (registered here only) is caught on real matches."""

from __future__ import annotations

import json

import pytest

import peeking
from gin import GinError, Match, Rules, fairness
from gin.ai import policy
from test_bridge import call, error


def play(player: str, computer: str, seed: str, *, profile: str = "traditional", label: str | None = None) -> dict:
    """A finished match, both seats asked through ``fairness.computer_move`` (the game's path);
    the save names ``label`` (default: the computer's level) as the computer's level."""
    m = Match.new(seed=seed, rules=Rules.profile(profile))
    while not m.over:
        seat = m.to_act
        m.apply(fairness.computer_move(m, player if seat == 0 else computer, seat))
    m.meta.update(level=label or computer, levels=[label or computer] * m.deal_number)
    return m.to_save()


# -- levels that peek (tests/peeking.py; registered here only, no UI or bridge name reaches them) --

FREQUENT = ("stock", "hand", "seed")  # they change many decisions a match; "knock" only a few


@pytest.fixture
def cheats(monkeypatch):
    return peeking.register(("normal",), monkeypatch.setitem)


# -- worlds -----------------------------------------------------------------------------


def positions(save: dict, seat: int = fairness.COMPUTER):
    """(the table, the action's index) at each decision of ``seat`` in a finished save."""
    m = Match(seed=save["seed"], rules=Rules.from_dict(save["rules"]))
    for index, action in enumerate(save["actions"]):
        if m.to_act == seat and len(m.deal.legal_actions()) > 1:
            yield m, index
        m.apply(action)


def test_every_world_looks_the_same_from_the_computers_seat_and_hides_other_cards():
    save = play("normal", "normal", "FAIR-WORLDS")
    moved = total = 0
    for m, index in positions(save):
        before = json.dumps(m.deal.to_dict(), sort_keys=True), m.seed
        view = m.view(fairness.COMPUTER)
        for w in fairness.worlds(m, 3, index=index):
            assert w.view(fairness.COMPUTER) == view
            assert w.deal.legal_actions() == m.deal.legal_actions()
            assert w.seed != m.seed and w.results == m.results and w.deal_number == m.deal_number
            assert w.deal.hand_masks[1] == m.deal.hand_masks[1] and w.deal.pile == m.deal.pile
            assert w.deal.known_masks == m.deal.known_masks
            hidden = (m.deal.hand_masks[0] | sum(1 << i for i in m.deal.stock_list))
            assert (w.deal.hand_masks[0] | sum(1 << i for i in w.deal.stock_list)) == hidden
            total += 1
            moved += w.deal.hand_masks[0] != m.deal.hand_masks[0] or w.deal.stock_list != m.deal.stock_list
        assert (json.dumps(m.deal.to_dict(), sort_keys=True), m.seed) == before
    assert total > 100 and moved == total


def test_the_worlds_depend_only_on_what_the_computer_saw():
    save = play("easy", "normal", "FAIR-ONLY-VIEW")
    for m, index in list(positions(save))[::5]:
        other = fairness.worlds(m, 1, index=99)[0]  # another real table with the same view
        mine = fairness.worlds(m, 3, index=index, seed="S")
        theirs = fairness.worlds(other, 3, index=index, seed="S")
        assert [w.deal.to_dict() for w in mine] == [w.deal.to_dict() for w in theirs]
        assert [w.seed for w in mine] == [w.seed for w in theirs]


def test_fewer_worlds_are_the_first_of_more():
    # So a check in k worlds flags exactly the decisions whose first differing world of
    # more is among the first k (what bench/duplicate.py worlds counts for each k).
    save = play("easy", "easy", "FAIR-PREFIX")
    for m, index in list(positions(save))[::7]:
        more = [(w.deal.to_dict(), w.seed) for w in fairness.worlds(m, 8, index=index, seed="P")]
        fewer = [(w.deal.to_dict(), w.seed) for w in fairness.worlds(m, 3, index=index, seed="P")]
        assert fewer == more[:3] and len({json.dumps(d, sort_keys=True) for d, _ in more}) == 8


# -- the real levels: N of N -------------------------------------------------------------


@pytest.mark.parametrize("computer, player", [("easy", "normal"), ("normal", "easy"), ("hard", "normal")])
def test_the_real_levels_decide_the_same_in_every_world(computer, player):
    save = play(player, computer, f"FAIR-{computer}")
    out = fairness.verify(save)  # as many worlds as the page asks by default
    assert out["decisions"] == len(list(positions(save))) > 30
    assert out["worlds"] == out["decisions"] * fairness.LEVEL_SAMPLES[computer]
    assert out["same"] == out["checked"] == out["decisions"], out["differing"][:3]
    assert out["peeking"] == out["changed"] == 0 and out["differing"] == [] and out["next"] is None


# -- levels that peek are caught -----------------------------------------------------------


@pytest.mark.parametrize("cheat", [f"peek_{kind}" for kind in FREQUENT])
def test_a_level_that_peeks_is_caught_on_real_matches(cheats, cheat):
    for n in range(2):
        save = play("normal", cheat, f"FAIR-CHEAT-{n}", label="normal")
        out = fairness.verify(save, samples=4, level=cheat)
        assert out["peeking"] > 0 and out["same"] < out["checked"], (cheat, n)
        assert out["same"] + out["peeking"] + out["changed"] == out["checked"]
        for d in out["differing"]:
            assert d["worlds"] == 4 and d["differ"] >= 1 and fairness.decision_key(d["example"]) != fairness.decision_key(d["recorded"])
        # Asked again at the real table, it plays what it played there.
        assert all(fairness.decision_key(d["now"]) == fairness.decision_key(d["recorded"]) for d in out["differing"])


# Difícil is asked in fewer worlds by default (LEVEL_SAMPLES: its decisions cost more); here it
# peeks, so the default is what the page would use.
@pytest.mark.parametrize("kind, seed", [("stock", "FAIR-HARD"), ("hand", "FAIR-HARD-2"), ("seed", "FAIR-HARD")])
def test_the_default_worlds_catch_a_difficil_that_peeks(monkeypatch, kind, seed):
    honest = policy.DECIDE["hard"]
    monkeypatch.setitem(policy.DECIDE, "hard", peeking.cheat(kind, "hard"))
    save = play("normal", "hard", seed)
    # The peek changed a move (else there would be nothing to catch).
    key = fairness.decision_key
    assert any(key(honest(m.view(fairness.COMPUTER))[0]) != key(save["actions"][index]) for m, index in positions(save))
    out = fairness.verify(save)  # as the page asks: by the level the save names, hard
    assert out["samples"] is None and out["worlds"] == out["decisions"] * fairness.LEVEL_SAMPLES["hard"]
    assert out["peeking"] > 0 and out["changed"] == 0 and out["same"] + out["peeking"] == out["checked"]


def test_a_cheating_level_cannot_be_named_through_the_bridge(cheats):
    for cheat in cheats:
        assert error("new_match", {"seed": "FAIR-B", "level": cheat}) == "bad_level"
        call("new_match", {"seed": "FAIR-B", "level": "easy"})
        assert error("set_level", {"level": cheat}) == "bad_level"
    save = play("normal", "peek_hand", "FAIR-CHEAT-0", label="normal")
    # The bridge's verify asks the level the save names (normal), whatever else is sent.
    out = call("verify", {"save": save, "samples": 2, "level": "peek_hand"})
    assert out["ok"] and out["peeking"] == 0 and out["changed"] == out["checked"] - out["same"]


def test_a_computer_that_decides_otherwise_today_is_told_apart_from_peeking():
    # Played by easy, the save says normal: the worlds agree with the table, not with the save.
    save = play("normal", "easy", "FAIR-CHANGED", label="normal")
    out = fairness.verify(save, samples=3)
    assert out["peeking"] == 0 and out["changed"] > 0
    assert out["same"] + out["changed"] == out["checked"] == out["decisions"]
    for d in out["differing"]:
        assert not d["peeking"] and d["worlds"] == d["differ"] == 3
        assert fairness.decision_key(d["now"]) == fairness.decision_key(d["example"])


# -- in parts, errors, the bridge --------------------------------------------------------------


def test_a_check_in_parts_equals_the_whole(cheats):
    save = play("normal", "peek_stock", "FAIR-PARTS", label="normal")
    whole = fairness.verify(save, samples=2, level="peek_stock")
    parts, start = [], 0
    while start is not None:
        part = fairness.verify(save, samples=2, level="peek_stock", start=start, count=7)
        assert part["decisions"] == whole["decisions"] and part["start"] == start
        parts.append(part)
        start = part["next"]
    assert sum(p["checked"] for p in parts) == whole["checked"] == whole["decisions"]
    for key in ("same", "peeking", "changed"):
        assert sum(p[key] for p in parts) == whole[key]
    assert [d for p in parts for d in p["differing"]] == whole["differing"]
    assert fairness.verify(save, samples=2, level="peek_stock") == whole  # the same worlds every time
    beyond = fairness.verify(save, samples=2, level="peek_stock", start=whole["decisions"] + 5, count=3)
    assert beyond["checked"] == 0 and beyond["next"] is None


def test_bad_requests_are_refused():
    save = play("easy", "easy", "FAIR-BAD")
    for kwargs in ({"samples": 0}, {"samples": 65}, {"samples": "2"}, {"samples": True}, {"start": -1},
                   {"count": 0}, {"count": 1.5}):
        with pytest.raises(GinError) as e:
            fairness.verify(save, **kwargs)
        assert e.value.code == "bad_range", kwargs
    m = Match.from_save(save)
    unfinished = {**save, "actions": save["actions"][:-1]}
    with pytest.raises(GinError) as e:
        fairness.verify(unfinished)
    assert e.value.code == "match_not_over" and m.over
    assert error("verify", {"save": unfinished}) == "match_not_over"
    assert error("verify", {"save": save, "samples": 100}) == "bad_range"
    assert error("verify", {"save": save, "seed": 5}) == "bad_range"
    assert error("verify", {"save": {"format": "gin-save"}}) == "bad_save"


def test_the_bridge_checks_a_finished_match_in_parts():
    save = play("easy", "normal", "FAIR-BRIDGE")
    call("new_match", {"seed": "FAIR-OTHER"})
    before = json.dumps(call("save")["save"], sort_keys=True)
    first = call("verify", {"save": save, "count": 10, "samples": 2, "seed": "abc"})
    assert first["ok"] and first["checked"] == 10 and first["next"] == 10
    rest = call("verify", {"save": save, "start": first["next"], "samples": 2, "seed": "abc"})
    assert rest["next"] is None and first["same"] + rest["same"] == first["decisions"]
    by_level = call("verify", {"save": save})
    assert by_level["samples"] is None and by_level["worlds"] == by_level["decisions"] * fairness.LEVEL_SAMPLES["normal"]
    assert json.dumps(call("save")["save"], sort_keys=True) == before
