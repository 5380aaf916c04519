"""The arena: seeded matches replay exactly, levels are ordered, the report prints."""

from __future__ import annotations

import pytest

from gin import arena
from gin.match import Match
from gin.rules import Rules


def test_a_seeded_match_between_two_levels_replays_identically():
    first = arena.play_match("hard", "normal", "REPLAY-1", a_seat=1, keep_actions=True)
    again = arena.play_match("hard", "normal", "REPLAY-1", a_seat=1, keep_actions=True)
    assert first.actions == again.actions
    assert (first.winner, first.points, first.deals) == (again.winner, again.points, again.deals)
    # the recorded actions replay through the engine to the same end
    m = Match.new(seed="REPLAY-1")
    for action in first.actions:
        m.apply(action)
    assert m.over


def test_pickups_count_each_sides_draws_from_the_discard_pile():
    st = arena.play_match("hard", "baseline", "PICKUPS-1", a_seat=0, keep_actions=True)
    m = Match.new(seed="PICKUPS-1")
    drawn = [0, 0]
    for action in st.actions:
        if action == {"type": "draw", "from": "discard"}:
            drawn[m.to_act] += 1  # A sits at seat 0: seat = side
        m.apply(action)
    assert st.pickups == drawn
    assert sum(drawn) > 0  # the match is long enough to have some


def test_wilson_interval():
    lo, hi = arena.wilson(70, 100)
    assert 0.60 < lo < 0.70 < hi < 0.79
    assert arena.wilson(0, 0) == (0.0, 1.0)


def _net(a: str, b: str, n: int, max_deals: int = 200) -> tuple[float, int]:
    rules = Rules.profile("traditional")
    results = arena.run_arena(a, b, n, rules=rules, seed="SMOKE", max_deals=max_deals, workers=1)
    deals = sum(r.deals for r in results)
    net = sum(r.points[0] - r.points[1] for r in results) / max(deals, 1)
    wins = sum(r.winner == 0 for r in results)
    return net, wins


def test_level_ordering_smoke():
    """A few matches each: the stronger level scores more per deal (full numbers: the arena)."""
    assert _net("hard", "baseline", 6)[0] > 0
    assert _net("search:budget=12", "easy", 3)[0] > 0
    assert _net("normal", "easy", 8)[0] > 0
    net, wins = _net("easy", "random", 4, max_deals=60)
    assert net > 0 and wins == 4


def test_cli_takes_search_settings_and_refuses_bad_ones(capsys):
    assert arena.main(["--a", "search:budget=4", "--b", "random", "--matches", "1", "--workers", "1", "--max-deals", "2"]) == 0
    assert "search:budget=4 (A) vs random (B): 1 matches" in capsys.readouterr().out
    for bad in ("search:depth=2", "grandmaster"):
        with pytest.raises(SystemExit):
            arena.main(["--a", bad, "--matches", "1"])


def test_cli_prints_the_report(capsys):
    assert arena.main(["--a", "easy", "--b", "random", "--matches", "2", "--workers", "1", "--max-deals", "40"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "95% CI" in out and "decision time median" in out
    assert "points per deal" in out and "undercut" in out
    assert "of the other's discards per deal" in out


def test_the_arena_never_hands_the_seed_to_a_player(monkeypatch):
    import json

    from gin import ai

    seen: list[str] = []
    real = ai.choose

    def spy(view, level="normal"):
        seen.append(json.dumps(view).lower())
        return real(view, level)

    monkeypatch.setattr(ai, "choose", spy)
    arena.play_match("hard", "easy", "ARENA-SPY-7Q", a_seat=0, max_deals=3)
    assert len(seen) > 20
    assert not any('"seed"' in t or "arena-spy-7q" in t or "arenaspy7q" in t for t in seen)
