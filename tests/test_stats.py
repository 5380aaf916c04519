"""Statistics from saves equal a count made here from each match's final view: each ended deal under its
own level, finished or abandoned match, each finished match once, nothing twice."""

from __future__ import annotations

import pytest

import json

from gin import Match, Rules, SaveError, arena, bridge
from gin.stats import records, stats

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


# The computer's level changed during these matches: meta.levels as the bridge keeps it,
# one per deal (the level a deal was dealt at), set here by pattern.
CHANGES = {"ST-2": ("hard", "easy"), "ST-5": ("hard", "normal", "normal"), "ST-6": ("easy", "hard")}


def with_levels(save: dict, pattern: tuple[str, ...]) -> dict:
    n = Match.from_save(save).deal_number
    levels = [pattern[min(i * len(pattern) // n, len(pattern) - 1)] for i in range(n)]
    return {**save, "meta": {**save["meta"], "level": levels[-1], "levels": levels}}


def cut(save: dict, deals: int, extra: int = 3) -> dict:
    """The save of the match left after ``deals`` ended deals and ``extra`` more actions."""
    m = Match.new(seed=save["seed"], rules=Rules.from_dict(save["rules"]))
    done = 0
    for action in save["actions"]:
        if len(m.results) >= deals:
            if done == extra:
                break
            done += 1
        m.apply(action)
    meta = dict(save["meta"])
    if "levels" in meta:
        meta["levels"] = meta["levels"][: m.deal_number]
        meta["level"] = meta["levels"][-1]
    return {**m.to_save(), "meta": meta}


@pytest.fixture(scope="module")
def finished_saves() -> list[dict]:
    out = []
    for p in PLAN:
        save = finished(*p)
        out.append(with_levels(save, CHANGES[p[4]]) if p[4] in CHANGES else save)
    return out


@pytest.fixture(scope="module")
def saves(finished_saves) -> list[dict]:
    """Finished matches, two abandoned half-way (another seed, never finished), and a save of a
    match in progress that later finished (a reload, an older autosave): oldest first."""
    abandoned = [cut(with_levels(finished("normal", "easy", "hard", "standard", "ST-9"), ("hard", "easy")), 3),
                 cut(finished("easy", "normal", "normal", "traditional", "ST-10"), 2, extra=0)]
    assert not any(Match.from_save(a).over for a in abandoned)
    return [cut(finished_saves[4], 2), *finished_saves[:3], abandoned[0], *finished_saves[3:], abandoned[1]]


def deal_level(save: dict, number: int) -> str:
    return save["meta"]["levels"][number - 1] if "levels" in save["meta"] else save["meta"]["level"]


def count_by_hand(saves: list[dict], level: str | None, profile: str | None) -> dict:
    """The record, read from the human's final view (history of deal results, final totals): every
    ended deal under the level it was played at, every finished match under its last deal's level;
    a save whose actions begin another save's (the same match, earlier) adds nothing."""
    c = dict.fromkeys(
        ["matches", "won", "lost", "drawn", "deals", "deals_won", "gins", "big_gins", "knocks",
         "undercuts_made", "undercuts_suffered"], 0)
    knock_dw: list[int] = []
    margins: list[int] = []
    results: list[str] = []

    def earlier(save: dict) -> bool:
        return any(o is not save and o["seed"] == save["seed"] and len(o["actions"]) > len(save["actions"])
                   and o["actions"][: len(save["actions"])] == save["actions"] for o in saves)

    for save in saves:
        if earlier(save) or (profile and save["rules"]["profile"] != profile):
            continue
        view = Match.from_save(save).view(0)
        if view["over"] and (not level or deal_level(save, len(view["history"])) == level):
            c["matches"] += 1
            a, b = view["final"]["totals"]
            outcome = "won" if a > b else "lost" if a < b else "drawn"
            c[outcome] += 1
            results.append(outcome)
            margins.append(a - b)
        for deal in view["history"]:
            if level and deal_level(save, deal["number"]) != level:
                continue
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
    assert out["counted"] == len(PLAN) and out["unfinished"] == 3 and out["duplicates"] == 0
    check(out["all"], count_by_hand(saves, None, None))
    keys = {(g["level"], g["profile"]) for g in out["groups"]}
    played = set()
    for save in saves:
        m = Match.from_save(save)
        played |= {(deal_level(save, r.number), m.rules.profile_name) for r in m.results}
    want = played | {(lv, None) for lv, _ in played} | {(None, pr) for _, pr in played}
    assert keys == want
    for g in out["groups"]:
        check(g, count_by_hand(saves, g["level"], g["profile"]))
    # The plan has real variety, so the comparison means something: levels changed
    # mid-match, so per level the deals are not those of the matches.
    total = out["all"]
    assert total["won"] and total["lost"] and total["knocks"] and total["deals"] > 20
    hard = next(g for g in out["groups"] if g["level"] == "hard" and g["profile"] is None)
    assert hard["deals"] != sum(len(Match.from_save(s).results) for s in saves if s["meta"]["level"] == "hard")


def test_deals_count_when_they_end_and_matches_when_they_end(finished_saves):
    """A match left half-way counts its ended deals, not as a match; each line stays what it
    was when it was counted, whatever the match did next."""
    full = finished_saves[1]
    n = len(Match.from_save(full).results)
    assert n >= 3
    for deals in (0, 1, n - 1):
        part = cut(full, deals)
        out = stats([part])
        assert out["all"]["deals"] == deals and out["all"]["matches"] == 0 and out["unfinished"] == 1
        assert out["all"]["best_match"] is None and out["all"]["streak"] == 0
        lines = [{k: v for k, v in r.items() if k != "index"} for r in out["records"]]
        assert lines == records(Match.from_save(full))[:deals]
    whole = records(Match.from_save(full))
    assert [r["kind"] for r in whole] == ["deal"] * n + ["match"]
    assert [r["deal"] for r in whole] == [*range(1, n + 1), n]
    # The sum of a match's lines is the record of the match.
    assert sum(r["deals"] for r in whole) == n and sum(r["matches"] for r in whole) == 1
    assert all(r["matches"] == 0 for r in whole[:-1]) and whole[-1]["deals"] == 0


def test_the_same_match_never_counts_twice(saves, finished_saves):
    """Reloads (the same save again), older autosaves of the match, and the match replayed from its
    seed with the same moves: each deal and match once."""
    def record(out):
        return {**out["all"], "best_match": {**out["all"]["best_match"], "index": None}}

    once = stats(finished_saves)
    again = stats([cut(finished_saves[0], 1), *finished_saves, finished_saves[0], cut(finished_saves[2], 3)])
    assert record(again) == record(once) and again["duplicates"] == 1 and again["unfinished"] == 2
    replayed = Match.new(seed=finished_saves[0]["seed"], rules=Rules.from_dict(finished_saves[0]["rules"]))
    for action in finished_saves[0]["actions"]:
        replayed.apply(action)
    assert stats([finished_saves[0], {**replayed.to_save(), "meta": finished_saves[0]["meta"]}])["all"] == stats(
        [finished_saves[0]])["all"]


def test_a_level_change_counts_from_the_next_deal():
    """Through the bridge: a level changed mid-deal applies from the next deal, and the deal it was
    changed in counts under the level it was played at."""
    assert json.loads(bridge.new_match('{"seed": "ST-LEVELS", "level": "easy"}'))["ok"]
    bridge.set_level('{"level": "hard"}')
    save = None
    for _ in range(2000):
        view = json.loads(bridge.view())["view"]
        if len(view["history"]) >= 2 or view["over"]:
            break
        if view["to_act"] == 0:
            out = json.loads(bridge.act(json.dumps({"action": bridge.ai.choose(view, "easy")})))
        else:
            out = json.loads(bridge.computer_step())
        assert out["ok"], out
        save = out["save"]
        if len(view["history"]) == 0 and save["meta"]["levels"][-1:] == ["easy"]:
            bridge.set_level('{"level": "hard"}')
    assert save["meta"]["levels"][:3] == ["easy", "hard", "hard"][: len(save["meta"]["levels"])]
    lines = stats([save])["records"]
    assert [(r["deal"], r["level"]) for r in lines] == [(1, "easy"), (2, "hard")]
    # An old save without levels: every deal under its one level, and loading it keeps that.
    old = {**save, "meta": {"level": "normal"}}
    assert {r["level"] for r in stats([old])["records"]} == {"normal"}
    loaded = json.loads(bridge.load(json.dumps({"save": old})))
    assert loaded["ok"] and loaded["save"]["meta"]["levels"] == ["normal"] * Match.from_save(old).deal_number


def test_streaks_follow_the_order_of_the_saves(finished_saves):
    saves = finished_saves
    results = [stats([s])["all"]["won"] for s in saves]
    wins = [s for s, r in zip(saves, results) if r]
    losses = [s for s, r in zip(saves, results) if not r]
    assert len(wins) >= 2 and losses
    order = [wins[0], losses[0], wins[1], *wins[2:]]
    total = stats(order)["all"]
    assert total["streak"] == len(wins) - 1 and total["best_streak"] == max(1, len(wins) - 1)
    assert stats([*wins, losses[0]])["all"]["streak"] == 0
    assert stats([*wins, losses[0]])["all"]["best_streak"] == len(wins)


def test_unfinished_and_repeated_saves_count_once(finished_saves):
    first = finished_saves[0]
    unfinished = {**first, "actions": first["actions"][:20]}
    out = stats([first, first, unfinished, finished_saves[1]])
    assert (out["counted"], out["duplicates"], out["unfinished"]) == (2, 1, 1)
    assert out["all"]["matches"] == 2 and out["all"] == stats([first, finished_saves[1]])["all"]


def test_a_bad_save_refuses_the_whole_list(finished_saves):
    saves = finished_saves
    with pytest.raises(SaveError) as info:
        stats([saves[0], {**saves[1], "version": 9}])
    assert info.value.code == "bad_save" and "save 1" in str(info.value)
    # Levels that do not exist, or not one per deal: refused, not guessed.
    n = Match.from_save(saves[1]).deal_number
    for levels in (["hard"] * (n + 1), ["hard"] * (n - 1) + ["expert"], "hard", None):
        bad = {**saves[1], "meta": {"level": "hard", "levels": levels}}
        if levels is None:
            bad = {**saves[1], "meta": {"level": "expert"}}
        with pytest.raises(SaveError) as info:
            stats([saves[0], bad])
        assert info.value.code == "bad_save" and "save 1" in str(info.value) and info.value.reason == "bad_levels"
    for bad in (None, {}, "x"):
        with pytest.raises(SaveError):
            stats(bad)
    empty = stats([])
    assert empty["groups"] == [] and empty["all"]["matches"] == 0 and empty["all"]["knock_deadwood_avg"] is None
