"""The computer opponent: legal, fair (view only), deterministic, and ordered by level."""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from gin import ai
from gin.deal import Deal
from gin.match import Match
from gin.rules import Rules
from gin.view import deal_view

LEVELS = ai.ARENA_LEVELS


def _positions(
    n_matches: int, *, rules: Rules | None = None, every: int = 1, tag: str = "pos",
    keep: Callable[[dict], bool] | None = None,
):
    """Positions reached by mixed play: ``(match, seat)`` snapshots rebuilt from saves.

    The players mix random moves (to reach odd positions) with baseline and
    easy play (so that deals reach knocks). ``keep`` (of the seat's view) picks
    which of the positions are returned; the play is the same with or without it.
    """
    out = []
    rng = random.Random(f"{tag}-{n_matches}")
    for n in range(n_matches):
        m = Match.new(seed=f"{tag}-{n}", rules=rules)
        steps = 0
        while not m.over and len(m.results) < 3 and steps < 400:
            seat = m.to_act
            view = m.view(seat)
            if steps % every == 0 and (keep is None or keep(view)):
                out.append((m.to_save(), seat))
            level = rng.choice(("random", "baseline", "baseline", "easy"))
            m.apply(ai.choose(view, level))
            steps += 1
    return out


def replayed(positions) -> list[Match]:
    """Each position's match, as ``Match.from_save(save)`` rebuilds it, each a match of its own.

    ``_positions`` gives a match's positions one after another, each save the one before
    with more actions: a match is rebuilt from its first save and played on through the
    actions each next save adds (a copy kept at each), not replayed from its start at
    every position. A save that does not go on from the one before is rebuilt afresh."""
    out: list[Match] = []
    m = head = None
    for save, _ in positions:
        actions = save["actions"]
        if m is None or {**save, "actions": None} != head or m.actions != actions[: len(m.actions)]:
            m = Match.from_save({**save, "actions": []})
            head = {**save, "actions": None}
        for action in actions[len(m.actions) :]:
            m.apply(action)
        out.append(m.copy())
    return out


def _check_legal(deal: Deal, view: dict, action: dict) -> None:
    if action["type"] in ("knock", "big_gin"):
        trial = deal.copy()
        trial.apply(action)  # raises IllegalMove on a bad card or bad melds
        assert trial.over
        if action["type"] == "knock":
            assert trial.outcome.arrangements[view["seat"]].points <= deal.knock_limit
    else:
        assert action in view["legal"], (action, view["legal"])
        deal.copy().apply(action)


@pytest.fixture(scope="module")
def positions():
    """~950 positions. The tests below need: 3,000 level decisions (9 levels here: 8,500),
    more than 20 knocks among them (95), more than 300 fairness checks (a third of the
    positions, twice: 630) and four of hard's reasons in a quarter of them (all eleven
    come): each at least twice what it asks, a margin no change of the players' play
    can eat (the count of positions per match hardly moves)."""
    return _positions(16, every=2)


@pytest.fixture(scope="module")
def matches(positions):
    """Each position's match, rebuilt from its save once for the module (a test that
    changes one plays on a copy)."""
    return replayed(positions)


def choose_every_level(view: dict) -> dict[str, dict]:
    """Every level's choice from ``view``, by level. Two levels that are one decision
    function by two names (``hard0`` is ``hard`` by its arena name: both are
    ``decide_hard`` in ``gin.ai.DECIDE``) are asked once: the same function of the same
    view (test_same_view_same_decision asks every level twice). Should they ever
    differ, each is asked."""
    chosen: dict[str, dict] = {}
    asked: dict[object, dict] = {}
    for level in LEVELS:
        decide = ai.DECIDE[level]
        if decide not in asked:
            asked[decide] = ai.choose(view, level)
        chosen[level] = copy.deepcopy(asked[decide])
    return chosen


def legal_at_every_level(m: Match, view: dict) -> dict[str, dict]:
    """Check every level's choice from ``view`` in ``m``; the choices, by level."""
    chosen = choose_every_level(view)
    for level in LEVELS:
        _check_legal(m.deal, view, chosen[level])
    return chosen


@pytest.fixture(scope="module")
def choices(positions, matches):
    """Every level's choice at every position (``{level: action}`` in the positions' order),
    made once: the legality test checks each of them, the fairness tests compare against them."""
    out = []
    for (_, seat), m in zip(positions, matches, strict=True):
        out.append(choose_every_level(m.view(seat)))
    return out


def test_every_decision_is_legal_at_every_level(positions, matches, choices):
    knocks = 0
    count = 0
    for (_, seat), m, chosen in zip(positions, matches, choices, strict=True):
        view = m.view(seat)
        for level in LEVELS:
            _check_legal(m.deal, view, chosen[level])
            knocks += chosen[level]["type"] == "knock"
            count += 1
    assert count >= 3000
    assert knocks > 20  # the knock arrangements were exercised


def test_knock_arrangements_are_valid_when_a_knock_is_legal():
    """Positions where a knock is legal, in bulk: each level's knock replays in the engine."""
    seen = 0
    knocks = _positions(40, tag="knock", keep=lambda view: any(a["type"] == "knock" for a in view["legal"]))
    for (_, seat), m in zip(knocks, replayed(knocks), strict=True):
        view = m.view(seat)
        assert any(a["type"] == "knock" for a in view["legal"])
        seen += 1
        legal_at_every_level(m, view)
    assert seen > 30


def _big_gin_deal() -> Deal:
    rules = Rules.profile("custom", big_gin_bonus=31)
    return Deal.from_cards(
        rules=rules,
        dealer=1,
        hands=["AC 2C 3C 4C 5D 6D 7D 8H 9H TH", "KS QS JD 9S 7S 5S 3S AS 2D 4H"],
        upcard="5C",
        stock="6C 3D KH QH TD 9D",
    )


@pytest.mark.parametrize("level", LEVELS[:4])
def test_big_gin_is_declared_when_available(level):
    deal = _big_gin_deal()
    view = deal_view(deal, 0)
    assert ai.choose(view, level) == {"type": "take"} or level == "random"
    deal.apply({"type": "take"})
    view = deal_view(deal, 0)
    assert any(a["type"] == "big_gin" for a in view["legal"])
    action = ai.choose(view, level)
    assert action["type"] == "big_gin"
    _check_legal(deal, view, action)
    assert ai.hint(view)["reason"] == "big_gin_available"


def test_big_gin_profile_positions_are_legal():
    rules = Rules.profile("custom", big_gin_bonus=50)
    positions = _positions(6, rules=rules, tag="bg")
    for (_, seat), m in zip(positions, replayed(positions), strict=True):
        legal_at_every_level(m, m.view(seat))


def _hidden_shuffle(m: Match, seat: int, rng: random.Random) -> None:
    """Swap the opponent's hidden cards with stock cards and reorder the stock, in place."""
    deal = m.deal
    opp = 1 - seat
    hidden = [i for i in range(52) if (deal.hand_masks[opp] >> i) & 1 and not (deal.known_masks[opp] >> i) & 1]
    if deal.drawn is not None and deal.to_act == opp:
        hidden.remove(deal.drawn)  # keep the opponent's just-drawn card where it is
    pool = hidden + list(deal.stock_list)
    rng.shuffle(pool)
    new_hidden, new_stock = pool[: len(hidden)], pool[len(hidden) :]
    mask = deal.hand_masks[opp]
    for i in hidden:
        mask &= ~(1 << i)
    for i in new_hidden:
        mask |= 1 << i
    deal.hand_masks[opp] = mask
    deal.stock_list = new_stock


def test_fairness_hidden_cards_and_stock_order_do_not_matter(positions, matches, choices):
    rng = random.Random(5)
    checked = 0
    for (_, seat), m, before in zip(positions[::3], matches[::3], choices[::3], strict=True):
        view = m.view(seat)
        for _ in range(2):
            other = m.copy()
            _hidden_shuffle(other, seat, rng)
            other_view = other.view(seat)
            assert other_view == view  # the swap is invisible to this seat
            after = choose_every_level(other_view)
            for level in LEVELS:
                assert after[level] == before[level], level
            checked += 1
    assert checked > 300


def test_the_seed_is_not_read(positions, matches, choices):
    for (_, seat), m, before in zip(positions[::25], matches[::25], choices[::25], strict=True):
        other = m.view(seat)
        other["seed"] = "SOMETHING-ELSE"
        assert choose_every_level(other) == before


def test_same_view_same_decision(positions, matches):
    for (_, seat), m in zip(positions[::20], matches[::20], strict=True):
        view = m.view(seat)
        for level in LEVELS:
            first = ai.choose(copy.deepcopy(view), level)
            assert ai.choose(copy.deepcopy(view), level) == first
    assert ai.choose(view, "hard") == ai.hint(view)["action"]


def test_hint_is_a_legal_hard_action_with_a_known_reason(positions, matches):
    reasons = set()
    keys: dict[str, set] = {}
    for (_, seat), m in zip(positions[::4], matches[::4], strict=True):
        view = m.view(seat)
        h = ai.hint(view)
        assert set(h) == {"action", "reason", "why"}
        assert h["reason"] in ai.REASONS
        assert h["why"]["code"] == h["reason"]
        reasons.add(h["reason"])
        keys.setdefault(h["reason"], set()).update(h["why"])
        _check_legal(m.deal, view, h["action"])
        _check_why(view, h)
    # every fact a translation fills in is given with that reason
    text = (Path(__file__).resolve().parents[1] / "web" / "text" / "i18n.js").read_text(encoding="utf-8")
    for code, given in keys.items():
        for phrase in re.findall(rf'"reason\.{code}":\s*"([^"]+)"', text):
            assert set(re.findall(r"\{(\w+)\}", phrase)) <= given, (code, phrase, given)
    assert {"draw_stock", "knock_now", "pass_upcard", "min_deadwood"} <= reasons
    for code in ai.REASONS:
        assert code in ai.__doc__


def _check_why(view: dict, h: dict) -> None:
    """The facts of a reason are true of the view: its cards are where it says."""
    why, action = h["why"], h["action"]
    hand = set(view["hand"])
    top = view["discard"][-1] if view["discard"] else None
    if action["type"] in ("discard", "knock") and "card" in why:
        assert why["card"] == action["card"]
    if why["code"] in ("completes_meld", "take_upcard", "take_discard", "pass_upcard"):
        assert why["card"] == top
    if why["code"] == "completes_meld":
        assert why["card"] in why["meld"] and set(why["meld"]) - {why["card"]} <= hand
    if why["code"] in ("safe_discard", "opponent_picked"):
        assert why["avoid"] in hand and why["avoid"] != why["card"] and 0 <= why["danger"] <= 100
    if why["code"] == "opponent_picked":
        opp_picked = {e["card"] for e in view["events"] if e.get("seat") != view["seat"]
                      and (e["type"] == "take" or (e["type"] == "draw" and e.get("from") == "discard"))}
        assert why["picked"] in opp_picked
    if why["code"] == "high_deadwood":
        assert why["points"] >= 8
    if why["code"] in ("knock_now", "wait_for_gin", "undercut_risk"):
        assert 0 < why["deadwood"] <= 10 and 0 <= why["undercut"] <= 100


def test_no_legal_action_and_unknown_level_are_errors():
    m = Match.new(seed="ERR")
    with pytest.raises(ValueError):
        ai.choose(m.view(1 - m.to_act), "hard")
    with pytest.raises(ValueError):
        ai.choose(m.view(m.to_act), "grandmaster")


def test_levels_for_the_ui():
    assert ai.LEVELS == ("easy", "normal", "hard")
