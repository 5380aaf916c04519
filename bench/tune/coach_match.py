"""What the coach says over one whole match: the player's side played by a
level (default easy) against normal, the coach on; each note the page would
show (one per advice a deal, web/play/coach.js), in Spanish and English, worded by
the page's own code (bench/tune/coach_words.mjs under Node).

usage: python3 bench/tune/coach_match.py [level] [seed]
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gin import ai, bridge  # noqa: E402


def call(fn, **params):
    result = json.loads(fn(json.dumps(params)))
    if not result["ok"]:
        raise SystemExit(f"{fn.__name__}: {result['error']}")
    return result


def main() -> int:
    level = sys.argv[1] if len(sys.argv) > 1 else "easy"
    seed = sys.argv[2] if len(sys.argv) > 2 else "COACH-MATCH"
    view = call(bridge.new_match, seed=seed, level="normal")["view"]
    shown, decisions, notes, given = [], 0, 0, {}
    while not view["over"]:
        if view["to_act"] == 1:
            view = call(bridge.computer_step)["view"]
            continue
        # the player's side: the level's own choice from its view (the bridge's
        # page view minus what only the page has)
        mine = {k: v for k, v in view.items() if k not in ("seed", "level", "next_level")}
        action = ai.choose(mine, level)
        deal = view["deal_number"]
        result = call(bridge.act, action=action, coach=True)
        note = call(bridge.coach, index=result["coach_index"])["note"]
        decisions += len(view["legal"]) > 1
        if note:
            notes += 1
            seen = given.setdefault(deal, set())
            if note["advice"] not in seen:
                seen.add(note["advice"])
                shown.append({"deal": deal, "note": note})
        view = result["view"]
    node = shutil.which("node")
    words = None
    if node:
        proc = subprocess.run([node, str(ROOT / "bench" / "tune" / "coach_words.mjs")], input=json.dumps([s["note"] for s in shown]),
                              capture_output=True, text=True, cwd=ROOT)
        words = json.loads(proc.stdout) if proc.returncode == 0 else None
        if words is None:
            print(proc.stderr[-2000:])
    final = view["final"]
    print(f"seed {seed}: {level} (the player) against normal, {len(view['history'])} deals, final {final['totals'][0]}–{final['totals'][1]}")
    print(f"{decisions} decisions, {notes} over the threshold, {len(shown)} shown (one per advice a deal)\n")
    for i, s in enumerate(shown):
        n = s["note"]
        print(f"deal {s['deal']} · {n['kind']} · {n['advice']} · cost {n['cost']}")
        if words:
            print(f"  es: {words[i]['es']}\n  en: {words[i]['en']}")
        else:
            print(f"  {json.dumps(n, ensure_ascii=False)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
