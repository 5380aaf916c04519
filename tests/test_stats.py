"""Statistics from finished-match saves equal a count made here from each match's final view."""

from __future__ import annotations

import pytest

from gin import Match, Rules, SaveError, arena
from gin.stats import stats

# (player at seat 0, player at seat 1, the save's level label, profile, seed).
# Cheap players; the level in the save is only a label for the grouping.
PLAN = [
    ("normal", "easy", "hard", "traditional", "ST-1"),
    ("easy", "normal", "hard", "traditional", "ST-2"),
    ("normal", "baseline", "easy", "standard", "ST-3"),
    ("baseline", "easy", "normal", "standard", "ST-4"),
    ("normal", "easy", "hard", "traditional", "ST-5"),
    ("normal", "normal", "hard", "custom", "ST-6"),
    ("random", "easy", "easy", "traditional", "ST-7"),
    ("easy", "easy", "hard", "traditional", "ST-8"),
]


def finished(human: str, computer: str, level: str, profile: str, seed: str) -> dict:
    rules = Rules.profile(profile, **({"big_gin_bonus": 31} if profile == "custom" else {}))
    st = arena.play_match(human, computer, seed, a_seat=0, rules=rules, keep_actions=True)
    m = Match.new(seed=seed, rules=rules)
    m.meta["level"] = level
    for action in st.actions:
        m.apply(action)
    assert m.over
    return m.to_save()


@pytest.fixture(scope="module")
def saves() -> list[dict]:
    return [finished(*p) for p in PLAN]


def count_by_hand(saves: list[dict], level: str | None, profile: str | None) -> dict:
    """The record, read from the human's final view (history of deal results, final totals)."""
    c = dict.fromkeys(
        ["matches", "won", "lost", "drawn", "deals", "deals_won", "gins", "big_gins", "knocks",
         "undercuts_made", "undercuts_suffered"], 0)
    knock_dw: list[int] = []
    margins: list[int] = []
    results: list[str] = []
    for save in saves:
        if (level and save["meta"]["level"] != level) or (profile and save["rules"]["profile"] != profile):
            continue
        view = Match.from_save(save).view(0)
        c["matches"] += 1
        a, b = view["final"]["totals"]
        outcome = "won" if a > b else "lost" if a < b else "drawn"
        c[outcome] += 1
        results.append(outcome)
        margins.append(a - b)
        for deal in view["history"]:
            c["deals"] += 1
            c["deals_won"] += deal["winner"] == 0
            mine = deal["knocker"] == 0
            if deal["kind"] == "gin" and mine:
                c["gins"] += 1
                knock_dw.append(0)
            if deal["kind"] == "big_gin" and mine:
                c["big_gins"] += 1
            if deal["kind"] in ("knock", "undercut") and mine:
                c["knocks"] += 1
                knock_dw.append(deal["hands"][0]["points"])
            if deal["kind"] == "undercut":
                c["undercuts_made" if deal["winner"] == 0 else "undercuts_suffered"] += 1
    streak = best = 0
    for r in results:
        streak = streak + 1 if r == "won" else 0
        best = max(best, streak)
    c["knock_deadwood_avg"] = round(sum(knock_dw) / len(knock_dw), 2) if knock_dw else None
    c["streak"], c["best_streak"] = streak, best
    c["best_margin"] = max(margins) if margins else None
    return c


def check(group: dict, expected: dict) -> None:
    for key, value in expected.items():
        if key == "best_margin":
            assert (group["best_match"] or {}).get("margin") == value
        else:
            assert group[key] == value, key


def test_stats_equal_an_independent_count(saves):
    out = stats(saves)
    assert out["counted"] == len(saves) and out["unfinished"] == 0 and out["duplicates"] == 0
    check(out["all"], count_by_hand(saves, None, None))
    keys = {(g["level"], g["profile"]) for g in out["groups"]}
    want = {(p[2], p[3]) for p in PLAN} | {(p[2], None) for p in PLAN} | {(None, p[3]) for p in PLAN}
    assert keys == want
    for g in out["groups"]:
        check(g, count_by_hand(saves, g["level"], g["profile"]))
    # The plan has real variety, so the comparison means something.
    total = out["all"]
    assert total["won"] and total["lost"] and total["knocks"] and total["deals"] > 20


def test_streaks_follow_the_order_of_the_saves(saves):
    results = [stats([s])["all"]["won"] for s in saves]
    wins = [s for s, r in zip(saves, results) if r]
    losses = [s for s, r in zip(saves, results) if not r]
    assert len(wins) >= 2 and losses
    order = [wins[0], losses[0], wins[1], *wins[2:]]
    total = stats(order)["all"]
    assert total["streak"] == len(wins) - 1 and total["best_streak"] == max(1, len(wins) - 1)
    assert stats([*wins, losses[0]])["all"]["streak"] == 0
    assert stats([*wins, losses[0]])["all"]["best_streak"] == len(wins)


def test_unfinished_and_repeated_saves_count_once_or_not_at_all(saves):
    unfinished = {**saves[0], "actions": saves[0]["actions"][:20]}
    out = stats([saves[0], saves[0], unfinished, saves[1]])
    assert (out["counted"], out["duplicates"], out["unfinished"]) == (2, 1, 1)
    assert out["all"]["matches"] == 2


def test_a_bad_save_refuses_the_whole_list(saves):
    with pytest.raises(SaveError) as info:
        stats([saves[0], {**saves[1], "version": 9}])
    assert info.value.code == "bad_save" and "save 1" in str(info.value)
    for bad in (None, {}, "x"):
        with pytest.raises(SaveError):
            stats(bad)
    empty = stats([])
    assert empty["groups"] == [] and empty["all"]["matches"] == 0 and empty["all"]["knock_deadwood_avg"] is None
