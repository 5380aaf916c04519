"""The match as text: how long printing and reading take, in CPython and in Pyodide under Node.js.

Three texts: the real traditional match of docs/notation.md; a long match
(custom, target 500, Hollywood scoring: the longest rules) played by a
greedy player that knocks at once; and a text crafted to hold as many moves
as `gin.notation.MAX_CHARS` allows (void deals only: nobody ever knocks),
the worst a paste can ask of the worker.  Medians (and the slowest) of a
few repeats; nothing is asserted.  Run with `python3 build.py bench` or
directly: `python3 bench/notation.py [repeats]`.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import ai as ai_bench  # noqa: E402  (bench/ai.py: its runner of code in Pyodide under Node)
from gin import Card, Match, Rules  # noqa: E402
from gin.melds import discard_deadwood_masks  # noqa: E402
from gin.notation import MAX_CHARS, dumps, parse  # noqa: E402

#: Runs in CPython and in Pyodide alike: TEXTS is filled in; the last expression is the result.
CODE = """
import json, time
from gin.notation import dumps, parse
TEXTS = %(texts)r
out = {}
for name, text in TEXTS.items():
    reads, prints = [], []
    for _ in range(%(repeats)d):
        t = time.perf_counter(); m = parse(text); reads.append(time.perf_counter() - t)
        t = time.perf_counter(); dumps(m); prints.append(time.perf_counter() - t)
    out[name] = {"chars": len(text), "moves": len(m.actions), "deals": m.deal_number, "parse": reads, "dumps": prints}
json.dumps(out)
"""


def greedy(m: Match, rng: random.Random, *, knock: bool) -> dict:
    """Takes or passes at random, draws mostly from the stock, throws its worst card; knocks at once if ``knock``."""
    d = m.deal
    if d.phase.startswith("upcard"):
        return {"type": rng.choice(("take", "pass"))}
    if d.phase == "draw":
        pile = not d.both_passed and rng.random() < 0.25
        return {"type": "draw", "from": "discard" if pile else "stock"}
    after = discard_deadwood_masks(d.hand_masks[d.to_act])
    after.pop(d.taken, None)
    best = min(after, key=lambda i: (after[i], i))
    if knock and after[best] <= d.knock_limit:
        return {"type": "knock", "card": str(Card(best))}
    if not knock:  # keep the worst hand: no knock is ever possible, so every deal is void
        best = max(after, key=lambda i: (after[i], i))
    return {"type": "discard", "card": str(Card(best))}


def long_match() -> str:
    m = Match.new(seed="BENCH-LONG", rules=Rules.profile("custom", target=500, hollywood=True, big_gin_bonus=50))
    rng = random.Random(1)
    while not m.over:
        m.apply(greedy(m, rng, knock=True))
    m.meta.update(level="hard", levels=["hard"] * m.deal_number)
    return dumps(m)


def crafted() -> str:
    """As many moves as fit in MAX_CHARS: void deals, one after another."""
    m = Match.new(seed="BENCH-CRAFTED", rules=Rules.profile("traditional"))
    m.meta.update(level="hard")
    rng = random.Random(2)
    text = dumps(m)
    while True:
        for _ in range(200):
            m.apply(greedy(m, rng, knock=False))
        longer = dumps(m)
        if len(longer) > MAX_CHARS:
            return text
        text = longer


def texts() -> dict[str, str]:
    docs = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    return {
        "traditional, docs/notation.md's example": re.findall(r"```text\n(.*?)```", docs, flags=re.S)[0],
        "custom 500 Hollywood, knocking at once": long_match(),
        f"crafted, void deals up to MAX_CHARS ({MAX_CHARS})": crafted(),
    }


def report(label: str, data: dict) -> None:
    print(label)
    for name, row in data.items():
        parse_ms = [t * 1000 for t in row["parse"]]
        dumps_ms = [t * 1000 for t in row["dumps"]]
        print(
            f"  {name}: {row['chars']} chars, {row['deals']} deals, {row['moves']} moves;"
            f" parse median {statistics.median(parse_ms):.1f} ms (max {max(parse_ms):.1f}),"
            f" print median {statistics.median(dumps_ms):.1f} ms (max {max(dumps_ms):.1f})"
        )


def in_pyodide(code: str) -> dict | None:
    node = shutil.which("node")
    if node is None or not (ROOT / "web" / "node_modules" / "pyodide").is_dir():
        print("Pyodide: skipped, needs node and web/node_modules/pyodide (run `python3 build.py build`)")
        return None
    return ai_bench.in_pyodide(node, code, "Pyodide: ")


def main(repeats: int = 5) -> None:
    code = CODE % {"texts": texts(), "repeats": repeats}
    print(f"-- the match as text: {repeats} repeats; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    scope: dict = {}
    t0 = time.perf_counter()
    exec(compile(code.replace("\njson.dumps(out)", "\nresult = json.dumps(out)"), "cpython", "exec"), scope)
    report(f"CPython {sys.version.split()[0]} ({time.perf_counter() - t0:.1f} s)", json.loads(scope["result"]))
    data = in_pyodide(code)
    if data is not None:
        report(f"Python {data['python'].split()[0]} in Pyodide under Node.js", json.loads(data["result"]))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
