"""The player's record, counted from saves (pure; no storage).

Deals count when they end, matches when they end: ``records(match)`` gives
one **line** per ended deal of a match (finished or not) and one more for
the match once it is over; ``stats(saves)`` sums the lines of the saves it is
given.  A line is the same whatever later happened to its match: the deals
of a match left half-way count like those of a finished one, and a save and
any later save of the same match give the same lines for the deals both
have (a line is known by the seed, rules and actions up to its end: a
reload, the same save twice, or the match replayed from its seed with the
same moves never count it twice).

Level and profile: a deal counts under the computer level in force for that
deal, the save's ``meta.levels[n - 1]`` (the bridge records the level each
deal is dealt at; a level change takes effect at the next deal); a save
without ``levels`` (kept before they were recorded, or made by hand) counts
every deal under ``meta.level``.  A match counts under the level of its last
deal.  The profile is fixed for the whole match.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .errors import GinError, SaveError
from .match import Match

__all__ = ["stats", "records", "deal_levels", "COUNTERS", "LEVELS"]

HUMAN = 0
LEVELS = ("easy", "normal", "hard")

#: The integer counters of every line and group.
COUNTERS = (
    "matches", "won", "lost", "drawn",
    "deals", "deals_won", "gins", "big_gins", "knocks",
    "undercuts_made", "undercuts_suffered",
)


def deal_levels(m: Match) -> list[str]:
    """The computer level of each deal of ``m`` so far (``[level of deal 1, ...]``).

    Raises ``SaveError`` (reason ``bad_levels``) when the save's ``meta`` names a
    level that does not exist or does not give one per deal.
    """
    level = m.meta.get("level", "normal")
    if level not in LEVELS:
        raise SaveError(f"the save names an unknown level {level!r}", reason="bad_levels")
    levels = m.meta.get("levels")
    if levels is None:
        return [level] * m.deal_number
    if not isinstance(levels, list) or len(levels) != m.deal_number or any(v not in LEVELS for v in levels):
        raise SaveError(
            f"meta.levels must name one of {', '.join(LEVELS)} for each of the {m.deal_number} deals",
            reason="bad_levels",
        )
    return list(levels)


def _deal_line(result: Any) -> dict[str, int]:
    o = result.outcome
    n = dict.fromkeys(COUNTERS, 0)
    n["deals"] = 1
    knock_count = knock_deadwood = 0
    if o.winner == HUMAN:
        n["deals_won"] = 1
    if o.knocker == HUMAN:
        if o.kind == "big_gin":
            n["big_gins"] = 1
        else:
            if o.kind == "gin":
                n["gins"] = 1
            else:  # "knock" or "undercut": a knock with deadwood
                n["knocks"] = 1
                if o.kind == "undercut":
                    n["undercuts_suffered"] = 1
            knock_count, knock_deadwood = 1, o.arrangements[HUMAN].points
    elif o.kind == "undercut":
        n["undercuts_made"] = 1
    return {**n, "knock_count": knock_count, "knock_deadwood": knock_deadwood}


def records(m: Match) -> list[dict[str, Any]]:
    """The lines of ``m``: one per ended deal, then one for the match if it is over.

    Each line: ``{"kind": "deal" | "match", "seed", "deal", "actions", "level",
    "profile"}``, the ``COUNTERS``, ``knock_count`` and ``knock_deadwood``
    (the human's knocks and gins in it and the sum of their deadwood), and for
    a match ``totals`` (the final totals).  ``deal`` is the deal's number (for
    the match: how many deals it had); ``actions`` is how many of the match's
    actions had been played when the line's deal or match ended, so the line is
    known by the seed, rules and those actions.  A deal line counts that deal
    only (``deals`` = 1); a match line counts the match only (``matches`` = 1,
    ``won``/``lost``/``drawn``), so the sum of a match's lines is its record.
    """
    levels = deal_levels(m)
    # Hollywood is kept apart from one-game matches of its profile.
    profile = m.rules.profile_name + ("-hollywood" if m.rules.hollywood else "")
    # Where each deal ended: replay the actions once, noting the count at each end.
    ends: list[int] = []
    replayed = Match(seed=m.seed, rules=m.rules)
    for i, action in enumerate(m.actions):
        replayed.apply(action)
        if len(replayed.results) > len(ends):
            ends.append(i + 1)
    lines = []
    for result, end in zip(m.results, ends):
        lines.append({"kind": "deal", "seed": m.seed, "deal": result.number, "actions": end,
                      "level": levels[result.number - 1], "profile": profile, **_deal_line(result)})
    if m.over:
        winner = m.final.winner
        n = dict.fromkeys(COUNTERS, 0)
        n["matches"] = 1
        n["won" if winner == HUMAN else "drawn" if winner is None else "lost"] = 1
        lines.append({"kind": "match", "seed": m.seed, "deal": len(m.results), "actions": len(m.actions),
                      "level": levels[-1], "profile": profile, **n, "knock_count": 0, "knock_deadwood": 0,
                      "totals": list(m.final.totals)})
    return lines


def _prefix_digests(m: Match, ends: list[int]) -> list[str]:
    """A digest of (seed, rules, the first ``end`` actions) for each of ``ends``
    (ascending): what a line is known by, in one pass over the actions."""
    h = hashlib.sha256(json.dumps([m.seed, m.rules.to_dict()], sort_keys=True).encode())
    out, done = [], 0
    for end in ends:
        for action in m.actions[done:end]:
            h.update(b"\0" + json.dumps(action, sort_keys=True).encode())
        done = end
        out.append(h.copy().hexdigest())
    return out


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

    def add(self, line: dict[str, Any], index: int) -> None:
        for key in COUNTERS:
            self.n[key] += line[key]
        self.knock_deadwood += line["knock_deadwood"]
        self.knock_count += line["knock_count"]
        if line["kind"] != "match":
            return
        totals = line["totals"]
        margin = totals[HUMAN] - totals[1 - HUMAN]
        if self.best is None or margin > self.best["margin"]:
            self.best = {"totals": list(totals), "margin": margin, "seed": line["seed"], "index": index}
        self.streak = self.streak + 1 if line["won"] else 0
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
    """The record of the human in ``saves`` (a list, oldest first; finished or not).

    Returns ``{"groups": [...], "all": {...}, "records": [...], "counted",
    "unfinished", "duplicates", "deals_counted"}``.  ``records`` are the lines
    counted (``records(match)`` of each save, each line once, in the order of
    the saves), each with ``"index"``: its save's index.  ``groups`` has one
    entry per (level, profile) played, then one per level (``profile`` null)
    and one per profile (``level`` null); each entry and ``all`` hold:
    ``matches, won, lost, drawn`` (finished matches), ``deals`` (ended deals,
    void included, finished match or not), ``deals_won``, ``gins``,
    ``big_gins``, ``knocks`` (the human's knocks with deadwood: won or
    undercut), ``undercuts_made`` (the human undercut the computer's knock),
    ``undercuts_suffered``, ``knock_deadwood_avg`` (the human's mean deadwood
    over its knocks and gins, null if none) with ``knock_deadwood_count``,
    ``best_match`` (``{"totals", "margin", "seed", "index"}``: the finished
    match with the best final margin, ``index`` into ``saves``), ``streak``
    (finished matches won in a row at the end) and ``best_streak``.
    ``counted``: finished matches counted; ``unfinished``: saves of matches
    not over (their ended deals are counted); ``duplicates``: finished saves
    of a match already counted; ``deals_counted``: deal lines.  Raises
    ``SaveError`` (``bad_save``, naming the index) if any save does not load
    or names bad levels: nothing is counted then.
    """
    if not isinstance(saves, list):
        raise SaveError(f"saves must be a list, not {type(saves).__name__}", reason="not_a_list")
    groups: dict[tuple[str | None, str | None], _Group] = {}
    seen: set[str] = set()
    counted_lines: list[dict[str, Any]] = []
    unfinished = duplicates = counted = deals = 0
    loaded = []
    for i, save in enumerate(saves):
        try:
            m = Match.from_save(save)
            lines = records(m)
        except GinError as exc:
            raise SaveError(f"save {i}: {exc}", reason=getattr(exc, "reason", "bad_save")) from None
        loaded.append((m, lines))
    for i, (m, lines) in enumerate(loaded):
        if not m.over:
            unfinished += 1
        prefixes = _prefix_digests(m, [line["actions"] for line in lines])
        for line, prefix in zip(lines, prefixes):
            identity = f"{line['kind']}:{prefix}"
            if identity in seen:
                duplicates += line["kind"] == "match"
                continue
            seen.add(identity)
            counted += line["kind"] == "match"
            deals += line["kind"] == "deal"
            counted_lines.append({**line, "index": i})
            for key in ((line["level"], line["profile"]), (line["level"], None), (None, line["profile"]), (None, None)):
                group = groups.get(key)
                if group is None:
                    group = groups[key] = _Group(*key)
                group.add(line, i)
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
        "records": counted_lines,
        "counted": counted,
        "unfinished": unfinished,
        "duplicates": duplicates,
        "deals_counted": deals,
    }
