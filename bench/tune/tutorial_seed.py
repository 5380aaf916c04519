"""The guided first deal's seed (web/model/seed.js GUIDE_SEED): a search over
seeds GUIA-0000.. for a deal against Fácil where the player, following
Difícil's hint at each decision, meets each idea once: an upcard decision
first, exactly one draw from the pile that completes a meld, a safe discard
(reason safe_discard or opponent_picked), and ends the deal with a knock that
wins; in as few decisions as possible.

usage: python3 bench/tune/tutorial_seed.py [first last]: searches GUIA-first..last
(the search that chose it: 0 400), prints the seeds that qualify and the
shortest; always checks that the chosen seed still qualifies (exit 1 if not:
a change to Fácil or to Difícil's hint can move it); without arguments, the
check only (tests/e2e/test_tutorial.py plays the chosen seed's steps too).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gin import bridge  # noqa: E402

CHOSEN = "GUIA-0130"


def call(fn, **params):
    return json.loads(fn(json.dumps(params)))


def guided(seed: str) -> list[tuple[str, str]] | None:
    """(phase, reason) of each of the player's decisions when following the hint, if the seed qualifies."""
    view = call(bridge.new_match, seed=seed, level="easy")["view"]
    if view["to_act"] != 0 or not view["phase"].startswith("upcard"):
        return None
    steps = []
    while view["deal_number"] == 1 and not view["over"]:
        if view["to_act"] == 1:
            view = call(bridge.computer_step)["view"]
            continue
        hint = call(bridge.hint)["hint"]
        steps.append((view["phase"], hint["action"].get("from") or hint["action"]["type"], hint["reason"]))
        view = call(bridge.act, action=hint["action"])["view"]
    result = view["history"][0]
    reasons = [r for _, _, r in steps]
    pile_meld = sum(1 for _, src, r in steps if src == "discard" and r == "completes_meld")
    safe = sum(1 for r in reasons if r in ("safe_discard", "opponent_picked"))
    won = result["knocker"] == 0 and result["winner"] == 0 and result["kind"] == "knock"
    return steps if pile_meld == 1 and safe == 1 and won else None


def main() -> int:
    first, last = (int(a) for a in sys.argv[1:3]) if len(sys.argv) > 2 else (0, 0)
    found = []
    for n in range(first, last):
        seed = f"GUIA-{n:04d}"
        steps = guided(seed)
        if steps:
            found.append((len(steps), seed))
            print(seed, len(steps), [r for _, _, r in steps], flush=True)
    if found:
        print("shortest:", min(found))
    steps = guided(CHOSEN)
    print(f"{CHOSEN}: {'qualifies' if steps else 'NO LONGER QUALIFIES'}" + (f", {len(steps)} steps" if steps else ""))
    return 0 if steps else 1


if __name__ == "__main__":
    sys.exit(main())
