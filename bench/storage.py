"""Storage used after 1, 10, 50, 500 and 2,000 finished matches (issue 19), in the page's own forms.

The page keeps, in localStorage: the kept finished matches (`gin.finished.v1`,
the last 50, `[{at, save}]`) and one statistics line per ended deal and per
finished match (`gin.records.v2`, web/data/finished.js: the engine's line plus `id`
and `at`). This script plays real matches (gin.ai "easy" in both seats,
standard rules), writes both keys as JSON.stringify would, and prints their
sizes in characters (what Chromium's 5,242,880-character quota per origin
counts) and as a share of that quota; lines beyond the last 2,000 are summed
into `gin.totals.v1` (version 2: a 12-digit digest per summed line, grouped by the match's
seed; the groups of matches no longer kept here are bounded to the newest 2,000 digests).
50 distinct matches are played and cycled for the larger counts (each match gets its own
seed and each line its own id, as a real one would).
Run with `python3 build.py bench` or `python3 bench/storage.py`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gin  # noqa: E402
import gin.ai  # noqa: E402
from gin import stats as gin_stats  # noqa: E402
from gin.rules import Rules  # noqa: E402

QUOTA = 5_242_880
KEEP = 50
RECENT_LINES = 2000  # web/data/finished.js: older lines are summed into gin.totals.v1
MAX_DIGESTS = 2000  # web/data/finished.js: digests kept of the matches no longer here
COUNTS = (1, 10, 50, 500, 2000)
T0 = 1_700_000_000_000


def dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def play(seed: str):
    match = gin.Match.new(seed=seed, rules=Rules.profile("standard"))
    match.meta["level"] = "easy"
    while not match.over:
        match.apply({**gin.ai.choose(match.view(match.to_act), "easy"), "seat": match.to_act})
    return match


def lines(match, n: int) -> list[dict]:
    """The lines of the n-th match played (a replay of `match` under a seed of its own)."""
    out = []
    for r in gin_stats.records(match):
        digest = hashlib.sha256(f"{n}:{r['kind']}:{r['deal']}".encode()).hexdigest()[:16]
        ident = f"{match.seed}:{r['actions']}:{digest}"
        line = {"id": ident if r["kind"] == "match" else f"deal{r['deal']}:{ident}", "at": T0 + n * 60_000, **r}
        out.append({**line, "seed": f"BENC-{n:05d}"})
    return out


def totals(folded: list[dict], present: set[str]) -> dict:
    """gin.totals.v1 (version 2) as web/data/finished.js folds the lines: 9 groups, bests and
    streaks, a digest per line in its match's group; the groups of matches not `present`
    (kept here) beyond MAX_DIGESTS digests go, oldest first."""
    counters = [*gin_stats.COUNTERS, "knock_deadwood", "knock_count"]
    groups, best, streaks = {}, {}, {}
    for r in folded:
        g = groups.setdefault(f"{r['level']}|{r['profile']}", dict.fromkeys(counters, 0))
        for k in counters:
            g[k] += r[k]
        if r["kind"] == "match":
            for key in ("*|*", f"{r['level']}|*", f"*|{r['profile']}", f"{r['level']}|{r['profile']}"):
                best[key] = {"totals": r["totals"], "margin": r["totals"][0] - r["totals"][1], "seed": r["seed"]}
                streaks[key] = {"streak": 0, "best_streak": 3}
    by_seed: dict[str, list] = {}
    for r in folded:
        group = by_seed.setdefault(r["seed"], [r["seed"], r["at"], ""])
        group[1] = max(group[1], r["at"])
        group[2] += hashlib.sha256(r["id"].encode()).hexdigest()[:12]
    ids, forgotten = list(by_seed.values()), 0
    loose = sum(len(g[2]) // 12 for g in ids if g[0] not in present)
    while loose > MAX_DIGESTS:
        group = next(g for g in ids if g[0] not in present)
        ids.remove(group)
        loose -= len(group[2]) // 12
        forgotten = max(forgotten, group[1])
    return {"version": 2, "groups": groups, "best": best, "streaks": streaks, "ids": ids, "until": T0, "forgotten": forgotten}


def main() -> None:
    played = [play(f"BENC-{i:04d}") for i in range(KEEP)]
    saves = [m.to_save() for m in played]
    per_match = [lines(m, i) for i, m in enumerate(played)]
    print(f"{'matches':>8} {'kept replays':>14} {'recent lines':>13} {'older, summed':>14} {'total':>12} {'of quota':>9}")
    for count in COUNTS:
        kept = [{"at": T0 + i * 60_000, "save": saves[i % KEEP]} for i in range(max(0, count - KEEP), count)]
        recs = [line for i in range(count) for line in lines(played[i % KEEP], i)] if count > KEEP else [
            line for i in range(count) for line in per_match[i]]
        older, recent = recs[:-RECENT_LINES], recs[-RECENT_LINES:]
        present = {f"BENC-{i:05d}" for i in range(max(0, count - KEEP), count)}
        a, b, c = len(dumps(kept)), len(dumps(recent)), len(dumps(totals(older, present))) if older else 0
        print(f"{count:>8} {a:>14,} {b:>13,} {c:>14,} {a + b + c:>12,} {100 * (a + b + c) / QUOTA:>8.1f}%")
    deal_lines = sum(len(x) for x in per_match) / KEEP
    per = sum(len(dumps(x)) for x in per_match) / KEEP
    print(f"a match: {deal_lines:.1f} lines, {per:,.0f} characters of statistics;"
          f" a kept replay {sum(len(dumps(s)) for s in saves) / KEEP:,.0f} characters")


if __name__ == "__main__":
    main()
