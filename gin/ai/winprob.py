"""The chance of winning the match from a pair of scores, per rule profile.

``win_prob(rules, mine, theirs)`` is the probability that the player with
``mine`` points wins a match to ``rules.target`` against one with ``theirs``,
at the start of a deal, between two equal players: each deal is won by either
side with the same chance, for points drawn from the deal distribution that
``bench/tune_model.py`` measured across the arena's pool
(``model_data.DEALS``), each gin and undercut paying this profile's own bonus.
The table is computed once per (target, bonuses) when first asked for, on a
grid of ``target // 50`` points (about 10 ms in CPython).

It prices a deal's outcomes by what they do to the match: points that reach
the target are worth everything, points beyond it nothing, and an undercut
that lets the opponent reach the target costs the match.  Line and game
bonuses decide the final totals but almost never the winner, and are left out
(the player who reaches the target first wins here).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .model_data import DEALS

__all__ = ["win_prob", "WinTable"]


class WinTable:
    """The table of one profile: ``table(mine, theirs)``."""

    def __init__(self, target: int, gin_bonus: int, undercut_bonus: int, big_gin_bonus: int | None) -> None:
        self.target = target
        step = max(1, target // 50)
        self.step = step
        n = -(-target // step)
        self.n = n
        bonus = {"gin": gin_bonus, "big_gin": big_gin_bonus or gin_bonus, "undercut": undercut_bonus, "knock": 0}
        dist: dict[int, float] = {}
        for kind, raw, share in DEALS:
            steps = max(1, round((raw + bonus[kind]) / step))
            dist[steps] = dist.get(steps, 0.0) + share
        total = sum(dist.values())
        moves = [(p, s / total / 2) for p, s in sorted(dist.items())]
        # w[i][j]: my score i steps, theirs j steps (both below the target)
        w = [[0.0] * n for _ in range(n)]
        for i in range(n - 1, -1, -1):
            row = w[i]
            for j in range(n - 1, -1, -1):
                v = 0.0
                for p, s in moves:
                    a = i + p
                    win = 1.0 if a >= n else w[a][j]
                    b = j + p
                    lose = 0.0 if b >= n else row[b]
                    v += s * (win + lose)
                row[j] = v
        self.w = w

    def __call__(self, mine: int, theirs: int) -> float:
        if mine >= self.target:
            return 1.0 if theirs < self.target or mine > theirs else 0.5
        if theirs >= self.target:
            return 0.0
        return self.w[mine // self.step][theirs // self.step]


@lru_cache(maxsize=16)
def _table(target: int, gin_bonus: int, undercut_bonus: int, big_gin_bonus: int | None) -> WinTable:
    return WinTable(target, gin_bonus, undercut_bonus, big_gin_bonus)


def table_for(rules: dict[str, Any]) -> WinTable:
    return _table(
        int(rules.get("target", 100)),
        int(rules.get("gin_bonus", 20)),
        int(rules.get("undercut_bonus", 10)),
        rules.get("big_gin_bonus"),
    )


def win_prob(rules: dict[str, Any], mine: int, theirs: int) -> float:
    """P(win the match) from these scores under ``rules`` (a ``Rules.to_dict()``)."""
    return table_for(rules)(mine, theirs)
