"""gin.ai.analyse is exactly hint + estimates, in one pass: over positions of seeded matches, every kind of decision."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gin import ai
from gin.ai import policy
from gin.match import Match
from gin.rules import Rules

# (profile, options, matches): big gin on in custom, so its branch is reached too.
PLANS = [
    ("traditional", {}, 3),
    ("standard", {}, 2),
    ("custom", {"big_gin_bonus": 31, "gin_bonus": 25, "undercut_bonus": 20}, 2),
]


def positions():
    """Every view of both seats in seeded matches: hard against a mix of styles, so that
    the positions are hard's own and others' (passes, takes, knocks, forced draws)."""
    rng = random.Random("analyse")
    for profile, options, count in PLANS:
        rules = Rules.profile(profile, **options)
        for n in range(count):
            m = Match.new(seed=f"AN-{profile}-{n}", rules=rules)
            other = ("normal", "easy", "ginwait", "baseline")[n % 4]
            while not m.over and len(m.results) < 5:
                view = m.view(m.to_act)
                yield view
                level = "hard" if m.to_act == n % 2 else other
                if rng.random() < 0.05:
                    level = "random"
                m.apply(ai.choose(view, level))


@pytest.fixture(scope="module")
def views():
    return list(positions())


def kind(view) -> str:
    kinds = {a["type"] for a in view["legal"]}
    if kinds & {"knock", "big_gin"}:
        return "knock"
    if "take" in kinds:
        return "upcard"
    if "draw" in kinds:
        return "draw" if len(view["legal"]) > 1 else "forced"
    return "discard"


def test_analyse_is_hint_and_estimates_at_every_position(views):
    seen = Counter()
    for view in views:
        want = {**ai.hint(view), "estimates": ai.estimates(view)}
        assert ai.analyse(view) == want, view
        seen[kind(view)] += 1
        seen[want["reason"]] += 1
    # Every branch of hard's decision is among the positions, many times over.
    assert all(seen[k] >= 20 for k in ("upcard", "draw", "discard", "knock")) and seen["forced"] >= 5, seen
    assert seen["completes_meld"] and seen["pass_upcard"] and seen["draw_stock"] and seen["take_discard"], seen
    assert seen["min_deadwood"] and (seen["safe_discard"] + seen["opponent_picked"]), seen
    assert len(views) > 700


def test_analyse_values_each_hand_once(views, monkeypatch):
    """Where hard decides by score, the scores cost nothing more than the choice: no hand is
    valued twice (hint then estimates valued every hand again)."""
    count = [0]
    real = policy.Evaluator.value

    def counting(self, hand):
        count[0] += hand not in self.cache
        return real(self, hand)

    monkeypatch.setattr(policy.Evaluator, "value", counting)

    def valuations(fn, view):
        count[0] = 0
        fn(view)
        return count[0]

    checked = 0
    for view in views[::3]:
        if kind(view) in ("upcard", "draw", "discard"):
            alone = valuations(ai.hint, view)
            assert valuations(ai.analyse, view) == alone
            assert valuations(ai.estimates, view) > 0  # what the second pass used to cost
            checked += 1
    assert checked > 150


def test_analyse_refuses_a_view_with_no_decision(views):
    done = next(v for v in views if v["to_act"] is not None)
    idle = {**done, "legal": []}
    with pytest.raises(ValueError):
        ai.analyse(idle)
    with pytest.raises(ValueError):
        ai.hint(idle)
