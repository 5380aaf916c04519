"""Difícil with your cards: the replay is dealt the seed's own cards, its figures equal a computation made
here by driving the match directly, and the luck-removed means and 95 % intervals match a reference."""

from __future__ import annotations

import contextlib
import copy
import json
import math
import statistics

import pytest

from gin import Deal, GinError, Match, Rules, ai, bridge, duplicate
from gin.cards import ALL_CARDS
from gin.shuffle import deal_cards
from test_bridge import call, error

# (player's level, the computer's level in each part of the match, profile, options, seed)
PLAN = [
    ("normal", ("easy",), "traditional", {}, "DUP-1"),
    ("easy", ("normal", "easy"), "standard", {}, "DUP-2"),
    ("normal", ("normal",), "oklahoma", {"spade_double": True}, "DUP-3"),
    ("easy", ("easy", "normal"), "traditional", {"hollywood": True}, "DUP-4"),
]


def play(player: str, pattern: tuple[str, ...], profile: str, options: dict, seed: str, *, max_deals: int = 60) -> dict:
    """A finished match: ``player`` at seat 0, the computer at seat 1 at the levels of
    ``pattern`` (the first deals at the first, ...), kept in the save as the bridge does."""
    m = Match.new(seed=seed, rules=Rules.profile(profile, **options))
    levels = [pattern[0]]
    while not m.over:
        assert len(m.results) < max_deals
        if len(levels) < m.deal_number:
            levels.append(pattern[min(len(pattern) - 1, (m.deal_number - 1) // 3)])
        seat = m.to_act
        m.apply(ai.choose(m.view(seat), player if seat == 0 else levels[-1]))
    m.meta.update(level=levels[-1], levels=levels)
    return m.to_save()


@pytest.fixture(scope="module")
def saves() -> list[dict]:
    return [play(*p) for p in PLAN]


@pytest.fixture(scope="module")
def hard_memory() -> dict:
    """hard's answers by view, for this module's replays and the computation made here."""
    return {}


@contextlib.contextmanager
def hard_remembered(memory: dict):
    """Within it, ``gin.ai`` answers a view it has asked ``hard`` before from ``memory``:
    the replays and the independent computation below ask hard about the same views
    (hard is a function of the view alone: tests/test_ai.py asks it again with the
    hidden cards shuffled and the seed changed). A view either side reaches wrongly is
    another key, so it is asked and the figures differ as they would without it."""
    real = ai.DECIDE["hard"]

    def decide(view):
        key = json.dumps(view, sort_keys=True)
        if key not in memory:
            memory[key] = real(view)
        return copy.deepcopy(memory[key])

    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(ai.DECIDE, "hard", decide)
        yield


@pytest.fixture(scope="module")
def replays(saves, hard_memory) -> list[list[dict]]:
    """``replay_deals`` of each save."""
    with hard_remembered(hard_memory):
        return [duplicate.replay_deals(Match.from_save(save)) for save in saves]


def independent(save: dict, number: int) -> tuple[int, int, dict]:
    """Deal ``number`` computed here from the save alone: the match rebuilt from the
    actions before that deal, then Difícil (seat 0) and the computer (seat 1, the
    save's level for that deal) asked through gin.ai until the deal ends.
    Returns (the player's signed points as played, Difícil's, the replay's outcome)."""
    m = Match.new(seed=save["seed"], rules=Rules.from_dict(save["rules"]))
    before = 0
    while m.deal_number < number:  # a deal's first action is the first one applied at its number
        m.apply(save["actions"][before])
        before += 1
    prefix = Match.from_save({**save, "actions": save["actions"][:before]})
    assert prefix.deal_number == number and len(prefix.results) == number - 1
    level = save["meta"]["levels"][number - 1]
    while len(prefix.results) < number:
        seat = prefix.deal.to_act
        prefix.apply(ai.choose(prefix.view(seat), "hard" if seat == 0 else level))
    whole = Match.from_save(save)

    def signed(outcome) -> int:
        return 0 if outcome.winner is None else (outcome.points if outcome.winner == 0 else -outcome.points)

    replayed = prefix.results[-1].outcome
    return signed(whole.results[number - 1].outcome), signed(replayed), replayed.to_dict()


def test_the_replay_is_dealt_the_seeds_cards_for_that_deal(saves, replays):
    for save, every in zip(saves, replays):
        whole = Match.from_save(save)
        for r in every:
            n = r["deal"]
            nondealer, dealer, upcard, stock = deal_cards(save["seed"], n)
            opening = r["opening"]
            seat_of_dealer = whole.results[n - 1].dealer
            assert opening["dealer"] == seat_of_dealer == r["replayed"]["dealer"]
            assert opening["upcard"] == str(ALL_CARDS[upcard])
            assert opening["stock"] == [str(ALL_CARDS[i]) for i in stock]
            assert set(opening["hands"][seat_of_dealer]) == {str(ALL_CARDS[i]) for i in dealer}
            assert set(opening["hands"][1 - seat_of_dealer]) == {str(ALL_CARDS[i]) for i in nondealer}
            # The replay's own actions, played on a deal made here from those cards, end it the same way.
            deal = Deal.from_cards(
                rules=whole.rules, dealer=seat_of_dealer,
                hands=[opening["hands"][0], opening["hands"][1]], upcard=opening["upcard"], stock=opening["stock"],
            )
            assert [str(c) for c in deal.stock] == opening["stock"]
            for action in r["actions"]:
                deal.apply(action)
            o = deal.outcome.to_dict()
            assert {k: o[k] for k in ("kind", "winner", "points", "knocker")} == {
                k: r["replayed"][k] for k in ("kind", "winner", "points", "knocker")
            }


def test_the_figures_equal_an_independent_computation_over_whole_matches(saves, replays, hard_memory):
    with hard_remembered(hard_memory):
        _figures_equal_an_independent_computation(saves, replays)


def _figures_equal_an_independent_computation(saves, replays):
    checked = 0
    for save, every in zip(saves, replays):
        whole = Match.from_save(save)
        assert [r["deal"] for r in every] == list(range(1, len(whole.results) + 1))
        for r in every:
            n = r["deal"]
            player, hard, outcome = independent(save, n)
            assert r["points"] == {"player": player, "hard": hard, "difference": player - hard}, (save["seed"], n)
            assert {k: r["replayed"][k] for k in outcome if k != "scores"} == outcome
            assert r["level"] == save["meta"]["levels"][n - 1]
            assert r["played"] == whole.results[n - 1].to_dict()
            assert r["record"]["player"] == player and r["record"]["hard"] == hard
            checked += 1
        # One deal asked alone (the bridge's way) is the same as in the pass over all.
        middle = every[len(every) // 2]
        assert duplicate.replay_deal(save, middle["deal"]) == middle
    assert checked >= 20


def test_the_scores_before_the_deal_are_the_matchs(saves, replays):
    # The replayed deal's "scores" are the totals before it plus what it scored.
    whole = Match.from_save(saves[0])
    for r in replays[0]:
        before = whole.results[r["deal"] - 2].scores if r["deal"] > 1 else (0, 0)
        gained = [0, 0]
        if r["replayed"]["winner"] is not None:
            gained[r["replayed"]["winner"]] = r["replayed"]["points"]
        assert r["replayed"]["scores"] == [before[0] + gained[0], before[1] + gained[1]]


def test_difficil_in_the_players_seat_plays_every_deal_exactly_as_it_was_played():
    # The same cards, dealer, scores and rules: hard asked again decides the same, so nothing differs.
    save = play("hard", ("normal",), "standard", {}, "DUP-HARD")
    whole = Match.from_save(save)
    every = duplicate.replay_deals(whole)
    assert len(every) == len(whole.results) >= 2
    for r in every:
        assert r["points"]["difference"] == 0
        assert r["replayed"] == r["played"]


def test_only_a_deal_that_has_ended_is_played_again(saves):
    save = saves[0]
    count = len(Match.from_save(save).results)
    for bad in (0, count + 1, -1, "1", 1.0, True, None):
        with pytest.raises(GinError) as e:
            duplicate.replay_deal(save, bad)
        assert e.value.code == "bad_deal"
    # Mid-match: deal 2 has ended, deal 3 is under way.
    m = Match.new(seed=save["seed"], rules=Rules.from_dict(save["rules"]))
    for action in save["actions"]:
        if len(m.results) == 2 and m.deal.events:
            break
        m.apply(action)
    m.meta.update(level="easy", levels=["easy"] * m.deal_number)
    assert duplicate.replay_deal(m.to_save(), 2)["deal"] == 2
    with pytest.raises(GinError) as e:
        duplicate.replay_deal(m.to_save(), 3)
    assert e.value.code == "match_not_over"


# -- the interval ------------------------------------------------------------------

# Student's t, 0.975 quantile (two-sided 95 %): the printed table (e.g. NIST/SEMATECH
# e-Handbook, table 1.3.6.7.2), to four decimals.
T_TABLE = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 5: 2.5706, 6: 2.4469, 7: 2.3646, 8: 2.3060, 9: 2.2622,
           10: 2.2281,
           20: 2.0860, 30: 2.0423, 60: 2.0003, 100: 1.9840, 120: 1.9799}


def test_the_t_quantile_matches_the_table():
    for df, value in T_TABLE.items():
        assert duplicate.t_quantile(0.975, df) == pytest.approx(value, abs=5e-5), df
    # The other tail values a table prints: 0.95 at 1 and 10 degrees of freedom, and the normal limit.
    assert duplicate.t_quantile(0.95, 1) == pytest.approx(6.3138, abs=5e-5)
    assert duplicate.t_quantile(0.95, 10) == pytest.approx(1.8125, abs=5e-5)
    assert duplicate.t_quantile(0.975, 10**7) == pytest.approx(1.95996, abs=5e-5)
    assert duplicate.t_quantile(0.5, 7) == pytest.approx(0.0, abs=1e-9)


def reference(values: list[int]) -> tuple[float, tuple[float, float]]:
    """Mean and 95 % t interval computed here: statistics' stdev and the table's t."""
    mean = statistics.fmean(values)
    half = T_TABLE[len(values) - 1] * statistics.stdev(values) / math.sqrt(len(values))
    return mean, (mean - half, mean + half)


def test_the_interval_matches_a_reference_computation():
    for values in ([1, 1, 3, 3], [-20, 5, 0, 13, -7, 25, 2, -1, 0, 9], [4, -4], list(range(-15, 16)) + [40, -37, 3, 3]):
        if len(values) - 1 not in T_TABLE:
            continue
        mean, sd, interval = duplicate.mean_interval(len(values), sum(values), sum(v * v for v in values))
        ref_mean, (lo, hi) = reference(values)
        assert mean == pytest.approx(ref_mean)
        assert sd == pytest.approx(statistics.stdev(values))
        assert interval[0] == pytest.approx(lo, abs=1e-3) and interval[1] == pytest.approx(hi, abs=1e-3)
    # By hand: 1, 1, 3, 3 — mean 2, sd √(4/3), half-width 3.1824 · 1.1547 / 2 = 1.8374.
    assert duplicate.mean_interval(4, 8, 20)[2] == pytest.approx((0.1626, 3.8374), abs=1e-4)
    # One deal has no interval; the same value n times has a zero-width one.
    assert duplicate.mean_interval(1, 7, 49) == (7.0, 0.0, None)
    assert duplicate.mean_interval(5, 15, 45)[2] == (3.0, 3.0)


def records_of(entries: list[tuple[str, str, int, int, str]]) -> list[dict]:
    return [{"level": lv, "profile": pr, "player": p, "hard": h, "match": m} for lv, pr, p, h, m in entries]


RECORDS = records_of([
    ("easy", "traditional", -10, 12, "a"), ("easy", "traditional", 0, 8, "a"), ("easy", "traditional", 25, 25, "a"),
    ("normal", "traditional", 14, -3, "b"), ("normal", "standard", -30, -30, "c"), ("normal", "standard", 8, 20, "c"),
    ("easy", "traditional", -5, 33, "d"), ("normal", "traditional", 0, 0, "e"), ("normal", "traditional", 21, -6, "e"),
    ("normal", "traditional", 2, 9, "e"), ("normal", "traditional", -12, 4, "e"),
])


def test_the_summary_groups_by_level_and_profile_with_reference_intervals():
    s = duplicate.summary(RECORDS)
    assert s["confidence"] == 0.95 and s["interval"] == "t"
    groups = {(g["level"], g["profile"]): g for g in s["groups"]}
    assert list(groups) == [
        ("easy", "traditional"), ("normal", "traditional"), ("normal", "standard"),
        ("easy", None), ("normal", None), (None, "traditional"), (None, "standard"),
    ]
    for key, g in [*groups.items(), ((None, None), s["all"])]:
        mine = [r for r in RECORDS if key[0] in (None, r["level"]) and key[1] in (None, r["profile"])]
        diffs = [r["player"] - r["hard"] for r in mine]
        assert g["deals"] == len(mine)
        assert g["player"] == round(statistics.fmean(r["player"] for r in mine), 2)
        assert g["hard"] == round(statistics.fmean(r["hard"] for r in mine), 2)
        mean, (lo, hi) = reference(diffs)
        assert g["difference"] == pytest.approx(mean, abs=0.006)
        assert g["sd"] == pytest.approx(statistics.stdev(diffs), abs=0.006)
        assert g["interval"] == pytest.approx([lo, hi], abs=0.006), key


def test_folded_totals_give_the_same_figures_and_the_chart_is_the_last_matches():
    whole = duplicate.summary(RECORDS)
    for cut in range(len(RECORDS) + 1):
        older = duplicate.summary(RECORDS[:cut])
        folded = duplicate.summary(RECORDS[cut:], older["totals"])
        assert folded["groups"] == whole["groups"] and folded["all"] == whole["all"], cut
        assert folded["totals"] == whole["totals"]
        # The totals survive a JSON round trip (what the page stores).
        assert duplicate.summary([], json.loads(json.dumps(folded["totals"])))["all"] == whole["all"]
    chart = duplicate.summary(RECORDS, matches=3)["matches"]
    assert [c["match"] for c in chart] == ["c", "d", "e"]
    assert chart[2] == {"match": "e", "level": "normal", "profile": "traditional", "deals": 4,
                        "player": 11, "hard": 7, "difference": 1.0}
    assert duplicate.summary(RECORDS, matches=0)["matches"] == []
    assert duplicate.summary([])["all"] == {"level": None, "profile": None, "deals": 0, "player": None,
                                            "hard": None, "difference": None, "sd": None, "interval": None}


@pytest.mark.parametrize("bad", [
    "x", {"level": "expert", "profile": "traditional", "player": 1, "hard": 2},
    {"level": "easy", "profile": "gin", "player": 1, "hard": 2},
    {"level": "easy", "profile": "traditional", "player": 1.0, "hard": 2},
    {"level": "easy", "profile": "traditional", "player": True, "hard": 2},
    {"level": "easy", "profile": "traditional", "player": 1, "hard": 301},
    {"level": "easy", "profile": "traditional", "player": 1, "hard": 2, "match": 5},
])
def test_a_bad_record_is_refused_with_its_index(bad):
    with pytest.raises(GinError) as e:
        duplicate.summary([*RECORDS, bad])
    assert e.value.code == "bad_record" and f"record {len(RECORDS)}" in str(e.value)


def test_bad_totals_are_refused():
    good = duplicate.summary(RECORDS)["totals"]
    group = good["groups"][0]
    for bad in (
        [], {"version": 2, "groups": []}, {"version": 1},
        {"version": 1, "groups": [{**group, "deals": 0}]},
        {"version": 1, "groups": [{**group, "diff_sq": 0}]},  # no deals sum to a non-zero difference with no squares
        {"version": 1, "groups": [{**group, "level": "hard0"}]},
        {"version": 1, "groups": [{**group, "player": 10**9}]},
    ):
        with pytest.raises(GinError) as e:
            duplicate.summary(RECORDS, bad)
        assert e.value.code == "bad_totals", bad


# -- through the bridge ---------------------------------------------------------------


def test_the_bridge_plays_a_deal_again_and_leaves_the_current_match_alone(saves):
    call("new_match", {"seed": "DUP-BRIDGE", "level": "hard"})
    before = json.dumps(call("save")["save"], sort_keys=True)
    out = call("duplicate", {"save": saves[1], "deal": 2})
    assert out["ok"] and out["deal"] == 2
    assert {k: v for k, v in out.items() if k != "ok"} == json.loads(json.dumps(duplicate.replay_deal(saves[1], 2)))
    assert out["played"] == Match.from_save(saves[1]).view(0)["history"][1]
    assert set(out["replayed"]) == set(out["played"])
    assert json.dumps(call("save")["save"], sort_keys=True) == before
    assert error("duplicate", {"save": saves[1], "deal": 99}) == "bad_deal"
    assert error("duplicate", {"save": {"format": "x"}, "deal": 1}) == "bad_save"
    deep = {"save": json.loads("[" * 40 + "]" * 40), "deal": 1}
    assert error("duplicate", raw=json.dumps(deep)) == "bad_save"


def test_the_bridge_sums_records():
    out = call("duplicate_stats", {"records": RECORDS, "matches": 2})
    assert out["ok"] and out["all"] == duplicate.summary(RECORDS)["all"]
    assert [m["match"] for m in out["matches"]] == ["d", "e"]
    again = call("duplicate_stats", {"records": [], "totals": out["totals"]})
    assert again["all"] == out["all"]
    assert error("duplicate_stats", {"records": "x"}) == "bad_record"
    assert error("duplicate_stats", {"records": [], "totals": {"version": 1, "groups": 3}}) == "bad_totals"
    assert error("duplicate_stats", {"records": [], "matches": -1}) == "bad_request"


@pytest.mark.parametrize("name", ["duplicate", "duplicate_stats", "verify"])
def test_junk_is_answered_not_raised(name):
    for text in ["", "{", "null", "5", "[1]", "{}{}", "true", "{}", None, b"{}", ["x"]]:
        out = json.loads(getattr(bridge, name)(text))
        assert out["ok"] is False, (name, text)
        if isinstance(text, str):
            assert json.loads(bridge.call(name, text)) == out
