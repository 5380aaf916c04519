"""Write the saves test_table_more.py, test_history.py and test_data_safety.py load: `python3 tests/e2e/saves/make_saves.py` from the repository.

Each is found with the engine and the computer's policy (gin.ai, level "easy" as the tests set it)
and a simple scripted player at seat 0. A save replays its recorded actions, so the files stay valid
when the computer's policy changes; run this again only if the engine's rules or shuffle change.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

import gin  # noqa: E402
import gin.ai  # noqa: E402
from gin.rules import Rules  # noqa: E402

LEVEL = "easy"


def points(card: str) -> int:
    return min(10, "A23456789TJQK".index(card[0]) + 1)


def never_knock(view):
    """Pass, draw from the stock, throw the highest loose card, never knock."""
    if any(a["type"] == "pass" for a in view["legal"]):
        return {"type": "pass"}
    if view["phase"] == "draw":
        return {"type": "draw", "from": "stock"}
    cards = [a["card"] for a in view["legal"] if a["type"] == "discard"]
    loose = [c for c in cards if c in view["arrangement"]["deadwood"]] or cards
    return {"type": "discard", "card": max(loose, key=lambda c: (points(c), c))}


def least_deadwood(view, knock=False):
    """Pass, draw from the stock, (knock when allowed,) throw the card that leaves the least deadwood."""
    legal = view["legal"]
    if any(a["type"] == "pass" for a in legal):
        return {"type": "pass"}
    if view["phase"] == "draw":
        return {"type": "draw", "from": "stock"}
    dd = view["discard_deadwood"]
    knocks = [a for a in legal if a["type"] == "knock"]
    if knock and knocks:
        return min(knocks, key=lambda a: (dd[a["card"]], a["card"]))
    cards = [a["card"] for a in legal if a["type"] == "discard"]
    return {"type": "discard", "card": min(cards, key=lambda c: (dd[c], -points(c), c))}


def new(seed, rules):
    match = gin.Match.new(seed=seed, rules=rules)
    match.meta["level"] = LEVEL
    return match


def step(match, human):
    view = match.view(match.to_act)
    action = human(view) if match.to_act == 0 else gin.ai.choose(view, LEVEL)
    match.apply({**action, "seat": match.to_act})


def void_deal():
    """The first VOID-nnnn whose first deal ends void on seat 0's discard: saved just before it."""
    for i in range(1, 1000):
        match = new(f"VOID-{i:04d}", "traditional")
        while not match.results:
            view = match.view(match.to_act)
            if match.to_act == 0 and view["phase"] == "discard" and view["stock_count"] <= 2:
                save = match.to_save()
                step(match, never_knock)
                if match.results[-1].outcome.kind == "void":
                    return save
                break
            step(match, never_knock)
    raise LookupError("no void deal")


def big_gin():
    """The first BIGG-nnnn (custom rules, big gin 31) where seat 0 can declare big gin in deal 1."""
    rules = Rules.profile("custom", big_gin_bonus=31)
    for i in range(1, 5000):
        match = new(f"BIGG-{i:04d}", rules)
        while not match.results:
            if match.to_act == 0 and any(a["type"] == "big_gin" for a in match.legal_actions()):
                return match.to_save()
            step(match, least_deadwood)
    raise LookupError("no big gin")


def finished_match(seed="OVER-0001", rules="traditional"):
    match = new(seed, rules)
    while not match.over:
        step(match, lambda v: least_deadwood(v, knock=True))
    return match.to_save()


def short_finished_match():
    """OVER-0023: the shortest finished match of OVER-0001..OVER-0199 (finished_match) with a knock,
    an undercut and a void deal among at least three deals (8 deals, 293 steps against OVER-0001's
    13 and 458): test_history.py's viewer steps through it, below the 9 deals from which the
    review asks for extra engines."""
    return finished_match("OVER-0023")


def kept_matches(count=52):
    """KEEP-0000...: finished matches (Estándar rules) for test_data_safety.py, more than the 50 a
    browser keeps; gzipped, as the ~500 KB of their JSON would be a large file to keep in git."""
    return [finished_match(f"KEEP-{i:04d}", "standard") for i in range(count)]


if __name__ == "__main__":
    for name, save in (("void", void_deal()), ("big-gin", big_gin()), ("over", finished_match()), ("over", short_finished_match())):
        path = HERE / f"{name}-{save['seed']}.json"
        path.write_text(json.dumps(save))
        print(path.name, len(save["actions"]), "actions")
    saves = kept_matches()
    path = HERE / f"kept-{saves[0]['seed']}-{saves[-1]['seed']}.json.gz"
    path.write_bytes(gzip.compress(json.dumps(saves).encode(), mtime=0))
    print(path.name, len(saves), "matches")
