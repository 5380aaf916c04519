"""Rule profiles: the RULES.md table, custom options, refusals with reasons, dict round trip."""

from __future__ import annotations

import itertools

import pytest

from gin import Rules, RulesError

# The table of RULES.md, written out again.
TABLE = {
    "traditional": dict(
        knock_limit=10, gin_bonus=20, undercut_bonus=10, big_gin_bonus=None, target=100,
        game_bonus=100, shutout="bonus", shutout_game_bonus=200, line_bonus=20,
    ),
    "standard": dict(
        knock_limit=10, gin_bonus=25, undercut_bonus=25, big_gin_bonus=None, target=100,
        game_bonus=100, shutout="double", line_bonus=25,
    ),
    # custom's defaults; shutout and line bonus "as traditional".
    "custom": dict(
        knock_limit=10, gin_bonus=20, undercut_bonus=10, big_gin_bonus=None, target=100,
        game_bonus=100, shutout="bonus", shutout_game_bonus=200, line_bonus=20,
    ),
}

CUSTOM = {
    "gin_bonus": (20, 25),
    "undercut_bonus": (10, 20, 25),
    "big_gin_bonus": (None, 25, 31, 50),
    "target": (100, 250, 500),
}


@pytest.mark.parametrize("name", TABLE)
def test_profiles_match_the_table(name):
    rules = Rules.profile(name)
    for key, expected in TABLE[name].items():
        assert getattr(rules, key) == expected, key
    assert rules.profile_name == name
    assert rules.big_gin is False


def test_traditional_is_the_default():
    assert Rules.profile() == Rules.profile("traditional")


def test_every_custom_combination_is_accepted():
    keys = list(CUSTOM)
    for values in itertools.product(*(CUSTOM[k] for k in keys)):
        options = dict(zip(keys, values))
        rules = Rules.profile("custom", **options)
        for key, value in options.items():
            assert getattr(rules, key) == value
        assert rules.big_gin is (options["big_gin_bonus"] is not None)
        # Everything not chosen stays as traditional.
        assert (rules.knock_limit, rules.game_bonus, rules.line_bonus) == (10, 100, 20)
        assert (rules.shutout, rules.shutout_game_bonus) == ("bonus", 200)
        assert rules.options() == options
        assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    "options",
    [
        {"gin_bonus": 30},
        {"gin_bonus": 0},
        {"gin_bonus": "20"},
        {"gin_bonus": True},
        {"gin_bonus": 20.0},
        {"undercut_bonus": 15},
        {"undercut_bonus": None},
        {"big_gin_bonus": 0},
        {"big_gin_bonus": 30},
        {"big_gin_bonus": False},
        {"big_gin_bonus": 25.0},
        {"target": 200},
        {"target": 100.0},
        {"target": -100},
        {"target": [100]},
        {"knock_limit": 5},
        {"line_bonus": 25},
        {"shutout": "double"},
        {"colour": "red"},
    ],
)
def test_other_custom_values_are_refused_with_a_reason(options):
    with pytest.raises(RulesError) as info:
        Rules.profile("custom", **options)
    assert isinstance(info.value, ValueError)
    key = next(iter(options))
    assert key in str(info.value)
    assert info.value.code


@pytest.mark.parametrize("name", ["traditional", "standard"])
def test_fixed_profiles_take_no_options(name):
    with pytest.raises(RulesError) as info:
        Rules.profile(name, gin_bonus=25)
    assert "gin_bonus" in str(info.value)


@pytest.mark.parametrize("name", ["", "Traditional", "canasta", None, 3, "custom "])
def test_unknown_profile_is_refused(name):
    with pytest.raises(RulesError) as info:
        Rules.profile(name)
    assert info.value.code == "unknown_profile"
    assert repr(name) in str(info.value)


@pytest.mark.parametrize(
    "rules",
    [
        Rules.profile("traditional"),
        Rules.profile("standard"),
        Rules.profile("custom"),
        Rules.profile("custom", gin_bonus=25, undercut_bonus=20, big_gin_bonus=31, target=500),
    ],
)
def test_dict_round_trip(rules):
    d = rules.to_dict()
    assert d["profile"] == rules.profile_name
    assert Rules.from_dict(d) == rules
    import json

    assert Rules.from_dict(json.loads(json.dumps(d))) == rules


@pytest.mark.parametrize(
    "change",
    [
        {"knock_limit": 11},
        {"knock_limit": 10.0},
        {"gin_bonus": 20},
        {"undercut_bonus": 10},
        {"line_bonus": 20},
        {"shutout": "bonus"},
        {"target": 250},
        {"big_gin_bonus": 25},
        {"profile": "oklahoma"},
        {"profile": None},
        {"extra": 1},
    ],
)
def test_tampered_standard_rules_are_refused(change):
    d = {**Rules.profile("standard").to_dict(), **change}
    with pytest.raises(RulesError):
        Rules.from_dict(d)


@pytest.mark.parametrize(
    "change",
    [{"gin_bonus": 30}, {"target": 200}, {"big_gin_bonus": 0}, {"game_bonus": 200}, {"line_bonus": 25}],
)
def test_tampered_custom_rules_are_refused(change):
    d = {**Rules.profile("custom", target=250).to_dict(), **change}
    with pytest.raises(RulesError):
        Rules.from_dict(d)


@pytest.mark.parametrize("d", [None, [], "traditional", {}, {"profile": 1}])
def test_not_a_rules_dict_is_refused(d):
    with pytest.raises(RulesError):
        Rules.from_dict(d)


def test_rules_are_frozen_and_hashable():
    rules = Rules.profile("standard")
    with pytest.raises(AttributeError):
        rules.gin_bonus = 20  # type: ignore[misc]
    assert hash(rules) == hash(Rules.profile("standard"))
