"""The strength arena: full matches between two computer levels.

    python3 -m gin.arena --a hard --b baseline --matches 500 --profile traditional --seed 1
    python3 -m gin.arena --a hard --b pool --matches 1000 --profile custom --option big_gin_bonus=31

``--b pool`` plays ``--matches`` matches against each style of the pool
(``gin.ai.POOL``: the baseline and the styles of ``gin.ai.pool``), one report
per style on the same seeds.  ``--option key=value`` sets a custom profile's
option (repeatable; ``None`` turns big gin off).

Match ``n`` uses the seed ``"<seed>-<n>"``; player A sits at seat ``n % 2``
(seats alternate).  Matches run in parallel on every core.  A match that has
not finished after ``--max-deals`` deals is stopped (it is scored by its
running totals and counted as capped).  Printed: match win rate of A with a
95% Wilson interval, points per deal, knock/gin/undercut rates per side, how
many of the other side's discards each side drew per deal (what a player fed
its opponent) and the time per decision (median, p99) per side.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Iterator

from . import ai
from .match import Match
from .rules import Rules

__all__ = ["play_match", "run_arena", "MatchStats", "wilson", "main"]


@dataclass
class MatchStats:
    """One match from A's point of view (side 0 = A, side 1 = B)."""

    winner: int | None = None  # side, None for a draw
    capped: bool = False
    deals: int = 0
    void: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])  # deal points scored
    knocks: list[int] = field(default_factory=lambda: [0, 0])  # knocks that won (not gin)
    gins: list[int] = field(default_factory=lambda: [0, 0])
    big_gins: list[int] = field(default_factory=lambda: [0, 0])
    undercut: list[int] = field(default_factory=lambda: [0, 0])  # times this side was undercut
    # discards this side drew from the pile (the other side's discards it wanted)
    pickups: list[int] = field(default_factory=lambda: [0, 0])
    times: list[list[float]] = field(default_factory=lambda: [[], []])
    # the same decisions in this process's CPU time (what they cost on a machine shared with others)
    cpu: list[list[float]] = field(default_factory=lambda: [[], []])
    actions: list[dict[str, Any]] = field(default_factory=list)


def play_match(
    a: str, b: str, seed: str, *, a_seat: int = 0, rules: Rules | None = None, max_deals: int = 200,
    keep_actions: bool = False,
) -> MatchStats:
    """Play one match; ``a`` sits at ``a_seat``."""
    m = Match.new(seed=seed, rules=rules)
    levels = {a_seat: a, 1 - a_seat: b}
    side = {a_seat: 0, 1 - a_seat: 1}
    st = MatchStats()
    clock, cpu = time.perf_counter, time.process_time
    while not m.over and len(m.results) < max_deals:
        seat = m.to_act
        view = m.view(seat)
        t0, c0 = clock(), cpu()
        action = ai.choose(view, levels[seat])
        st.times[side[seat]].append(clock() - t0)
        st.cpu[side[seat]].append(cpu() - c0)
        if keep_actions:
            st.actions.append(action)
        if action.get("type") == "draw" and action.get("from") == "discard":
            st.pickups[side[seat]] += 1
        m.apply(action)
    for r in m.results:
        o = r.outcome
        st.deals += 1
        if o.winner is None:
            st.void += 1
            continue
        st.points[side[o.winner]] += o.points
        ks = side[o.knocker]
        if o.kind == "gin":
            st.gins[ks] += 1
        elif o.kind == "big_gin":
            st.big_gins[ks] += 1
        elif o.kind == "undercut":
            st.undercut[ks] += 1
        else:
            st.knocks[ks] += 1
    if m.over:
        w = m.final.winner
        st.winner = None if w is None else side[w]
    else:
        st.capped = True
        s = m.scores
        st.winner = None if s[0] == s[1] else side[0 if s[0] > s[1] else 1]
    return st


def positions(
    a: str, b: str, seed: str, matches: int, *, rules: Rules | str | None = None, max_deals: int = 200
) -> Iterator[tuple[Match, int, dict[str, Any]]]:
    """``(match, seat, view)`` at each of ``a``'s decisions in ``matches`` matches
    against ``b`` (match n: seed ``f"{seed}-{n}"``, ``a`` at seat n % 2), each
    played on by both levels' choices once the caller has looked: for
    measurements over real positions (the match holds what the view hides)."""
    for n in range(matches):
        m = Match.new(seed=f"{seed}-{n}", rules=rules)
        a_seat = n % 2
        while not m.over and len(m.results) < max_deals:
            seat = m.to_act
            view = m.view(seat)
            if seat == a_seat:
                yield m, seat, view
            m.apply(ai.choose(view, a if seat == a_seat else b))


def _one(args: tuple[str, str, str, int, dict[str, Any], int]) -> MatchStats:
    a, b, seed, n, rules, max_deals = args
    return play_match(a, b, f"{seed}-{n}", a_seat=n % 2, rules=Rules.from_dict(rules), max_deals=max_deals)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (centre - half, centre + half)


def run_arena(
    a: str, b: str, matches: int, *, rules: Rules, seed: str = "1", max_deals: int = 200, workers: int | None = None
) -> list[MatchStats]:
    jobs = [(a, b, seed, n, rules.to_dict(), max_deals) for n in range(matches)]
    workers = workers or os.cpu_count() or 1
    if workers <= 1 or matches <= 1:
        return [_one(j) for j in jobs]
    import multiprocessing

    with multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn").Pool(workers) as pool:
        return pool.map(_one, jobs, chunksize=1)


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def report(a: str, b: str, results: list[MatchStats], elapsed: float | None = None) -> str:
    n = len(results)
    wins = sum(1 for r in results if r.winner == 0)
    losses = sum(1 for r in results if r.winner == 1)
    draws = n - wins - losses
    score = wins + 0.5 * draws
    lo, hi = wilson(score, n)
    deals = sum(r.deals for r in results)
    void = sum(r.void for r in results)
    capped = sum(1 for r in results if r.capped)
    lines = [
        f"{a} (A) vs {b} (B): {n} matches, {deals} deals ({void} void), {capped} capped",
        f"A match wins {wins}, losses {losses}, draws {draws}: "
        f"win rate {score / n:.1%} (95% CI {lo:.1%} – {hi:.1%})" if n else "no matches",
    ]
    pts = [sum(r.points[s] for r in results) for s in (0, 1)]
    lines.append(
        f"points per deal: A {pts[0] / max(deals, 1):.2f}, B {pts[1] / max(deals, 1):.2f}, "
        f"net A {(pts[0] - pts[1]) / max(deals, 1):+.2f}"
    )
    for s, name in ((0, f"A {a}"), (1, f"B {b}")):
        k = sum(r.knocks[s] for r in results)
        g = sum(r.gins[s] for r in results)
        bg = sum(r.big_gins[s] for r in results)
        u = sum(r.undercut[s] for r in results)
        knocked = k + g + bg + u
        times = [t for r in results for t in r.times[s]]
        big = f", big gin {bg / max(deals, 1):.1%}" if bg else ""
        picked = sum(r.pickups[s] for r in results)
        lines.append(
            f"{name}: knocks {knocked / max(deals, 1):.1%} of deals (won {k}, gin {g}{big}, "
            f"undercut {u} = {u / max(knocked, 1):.1%} of its knocks); "
            f"picks up {picked / max(deals, 1):.2f} of the other's discards per deal; "
            f"decision time median {_pct(times, 0.5) * 1000:.2f} ms, p99 {_pct(times, 0.99) * 1000:.2f} ms "
            f"({len(times)} decisions)"
        )
    if elapsed is not None:
        lines.append(f"elapsed {elapsed:.1f} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m gin.arena", description=__doc__.split("\n\n")[0])
    p.add_argument("--a", default="hard", type=_level)
    p.add_argument("--b", default="baseline", type=lambda s: s if s == "pool" else _level(s))
    p.add_argument("--matches", type=int, default=100)
    p.add_argument("--profile", default="traditional")
    p.add_argument("--seed", default="1")
    p.add_argument("--max-deals", type=int, default=200)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = p.parse_args(argv)
    rules = Rules.profile(args.profile, **_options(args.option))
    print(f"rules: {rules.to_dict()}")
    for b in ai.POOL if args.b == "pool" else (args.b,):
        t0 = time.perf_counter()
        results = run_arena(args.a, b, args.matches, rules=rules, seed=args.seed, max_deals=args.max_deals, workers=args.workers)
        print(report(args.a, b, results, time.perf_counter() - t0), flush=True)
    return 0


def _level(name: str) -> str:
    """A level of ``gin.ai.ARENA_LEVELS``, or search or Difícil settings
    (``search:budget=64,belief=0``, ``hard:danger=4``)."""
    if name in ai.ARENA_LEVELS:
        return name
    try:
        ai.level_settings(name)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (levels: {', '.join(ai.ARENA_LEVELS)})") from None
    return name


def _options(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        words = {"None": None, "true": True, "false": False}
        out[key] = words[value] if value in words else int(value)
    return out


if __name__ == "__main__":
    sys.exit(main())
