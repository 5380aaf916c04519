"""The player's record, counted from finished-match saves (pure; no storage).

``stats(saves)`` replays each save (validating it like ``load``) and counts,
from the human's side (seat 0), per computer level and rule profile.  The
saves are taken oldest first (streaks depend on the order).  A save that is
not finished is skipped; the same match saved twice (same seed, rules and
actions) counts once.  The level of a match is the one it ended at (the
save's ``meta.level``; a change takes effect at a deal boundary and the save
keeps only the last).
"""

from __future__ import annotations

import json
from typing import Any

from .errors import GinError, SaveError
from .match import Match

__all__ = ["stats", "COUNTERS"]

HUMAN = 0

#: The integer counters of every group.
COUNTERS = (
    "matches", "won", "lost", "drawn",
    "deals", "deals_won", "gins", "big_gins", "knocks",
    "undercuts_made", "undercuts_suffered",
)


class _Group:
    __slots__ = ("level", "profile", "n", "knock_deadwood", "knock_count", "best", "streak", "best_streak")

    def __init__(self, level: str | None, profile: str | None) -> None:
        self.level, self.profile = level, profile
        self.n = dict.fromkeys(COUNTERS, 0)
        self.knock_deadwood = 0
        self.knock_count = 0
        self.best: dict[str, Any] | None = None
        self.streak = 0
        self.best_streak = 0

    def add(self, m: Match, index: int) -> None:
        n = self.n
        n["matches"] += 1
        winner = m.final.winner
        n["won" if winner == HUMAN else "drawn" if winner is None else "lost"] += 1
        for r in m.results:
            o = r.outcome
            n["deals"] += 1
            if o.winner == HUMAN:
                n["deals_won"] += 1
            if o.knocker == HUMAN:
                if o.kind == "big_gin":
                    n["big_gins"] += 1
                    continue
                if o.kind == "gin":
                    n["gins"] += 1
                else:  # "knock" or "undercut": a knock with deadwood
                    n["knocks"] += 1
                    if o.kind == "undercut":
                        n["undercuts_suffered"] += 1
                self.knock_deadwood += o.arrangements[HUMAN].points
                self.knock_count += 1
            elif o.kind == "undercut":
                n["undercuts_made"] += 1
        totals = m.final.totals
        margin = totals[HUMAN] - totals[1 - HUMAN]
        if self.best is None or margin > self.best["margin"]:
            self.best = {"totals": list(totals), "margin": margin, "seed": m.seed, "index": index}
        self.streak = self.streak + 1 if winner == HUMAN else 0
        self.best_streak = max(self.best_streak, self.streak)

    def to_dict(self) -> dict[str, Any]:
        avg = None if not self.knock_count else round(self.knock_deadwood / self.knock_count, 2)
        return {
            "level": self.level,
            "profile": self.profile,
            **self.n,
            "knock_deadwood_avg": avg,
            "knock_deadwood_count": self.knock_count,
            "best_match": self.best,
            "streak": self.streak,
            "best_streak": self.best_streak,
        }


def stats(saves: Any) -> dict[str, Any]:
    """The record of the human in ``saves`` (a list, oldest first).

    Returns ``{"groups": [...], "all": {...}, "counted", "unfinished",
    "duplicates"}``.  ``groups`` has one entry per (level, profile) played, then
    one per level (``profile`` null) and one per profile (``level`` null); each
    entry and ``all`` hold: ``matches, won, lost, drawn`` (matches), ``deals``
    (played, void included), ``deals_won``, ``gins``, ``big_gins``, ``knocks``
    (the human's knocks with deadwood: won or undercut), ``undercuts_made``
    (the human undercut the computer's knock), ``undercuts_suffered``,
    ``knock_deadwood_avg`` (the human's mean deadwood over its knocks and gins,
    null if none) with ``knock_deadwood_count``, ``best_match`` (``{"totals",
    "margin", "seed", "index"}``: the finished match with the best final
    margin, ``index`` into ``saves``), ``streak`` (matches won in a row at the
    end) and ``best_streak``.  Raises ``SaveError`` (``bad_save``, naming the
    index) if any save does not load: nothing is counted then.
    """
    if not isinstance(saves, list):
        raise SaveError(f"saves must be a list, not {type(saves).__name__}", reason="not_a_list")
    groups: dict[tuple[str | None, str | None], _Group] = {}
    seen: set[str] = set()
    unfinished = duplicates = counted = 0
    for i, save in enumerate(saves):
        try:
            m = Match.from_save(save)
        except GinError as exc:
            raise SaveError(f"save {i}: {exc}", reason=getattr(exc, "reason", "bad_save")) from None
        if not m.over:
            unfinished += 1
            continue
        identity = json.dumps([m.seed, m.rules.to_dict(), m.actions], sort_keys=True)
        if identity in seen:
            duplicates += 1
            continue
        seen.add(identity)
        counted += 1
        level = m.meta.get("level") or "normal"
        profile = m.rules.profile_name
        for key in ((level, profile), (level, None), (None, profile), (None, None)):
            group = groups.get(key)
            if group is None:
                group = groups[key] = _Group(*key)
            group.add(m, i)
    everything = groups.pop((None, None), None) or _Group(None, None)
    both = [g for k, g in groups.items() if None not in k]
    by_level = [g for k, g in groups.items() if k[1] is None]
    by_profile = [g for k, g in groups.items() if k[0] is None]
    order = {"easy": 0, "normal": 1, "hard": 2}

    def sort_key(g: _Group) -> tuple[int, str, str]:
        return (order.get(g.level or "", 9), g.level or "", g.profile or "")

    listed = sorted(both, key=sort_key) + sorted(by_level, key=sort_key) + sorted(by_profile, key=sort_key)
    return {
        "groups": [g.to_dict() for g in listed],
        "all": everything.to_dict(),
        "counted": counted,
        "unfinished": unfinished,
        "duplicates": duplicates,
    }
