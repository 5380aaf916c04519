"""The table's cues (web/table/cues.js) run alone in Node: what a render sounds, from what it shows and what was shown before."""

from __future__ import annotations

from webnode import WEB, run_web

# Each step: [view, ui] shown by one render, in order, through one memory; prints the cues of each.
SCRIPT = """
const { nextCues, cueMemory, CUES } = await import(process.argv[1] + "/table/cues.js");
const memory = cueMemory();
const steps = JSON.parse(process.argv[2]);
const out = steps.map(([view, ui]) => nextCues(memory, view, ui));
process.stdout.write(JSON.stringify({ out, names: CUES }));
"""


def run(steps):
    return run_web(SCRIPT, steps)


def view(events=(), deal=1, seed="CUES-1", over=False, final=None):
    return {"seed": seed, "deal_number": deal, "events": list(events), "over": over, "final": final}


def ui(panel=None, menu=False, result=None, opened=1):
    return {"panel": panel, "menuOpen": menu, "result": result, "opened": opened}


def names(cues):
    return [(c["name"], c["seat"]) for c in cues]


PASS = {"seat": 0, "type": "pass"}
TAKE = {"seat": 1, "type": "take", "card": "7H"}
DRAW_STOCK = {"seat": 0, "type": "draw", "from": "stock"}
DRAW_PILE = {"seat": 1, "type": "draw", "from": "discard", "card": "9S"}
DISCARD = {"seat": 0, "type": "discard", "card": "KC"}


def test_each_move_sounds_once_when_shown_and_a_pass_is_silent():
    e = [PASS, TAKE, {"seat": 1, "type": "discard", "card": "2C"}, DRAW_STOCK, DISCARD, DRAW_PILE]
    got = run([
        [None, ui()],
        [view(), ui()],  # a new deal on the table
        [view(), ui()],  # the same render again: nothing new
        [view(e[:1]), ui()],  # the player passed: silent
        [view(e[:2]), ui()],  # the computer took the upcard
        [view(e[:3]), ui()],
        [view(e[:5]), ui()],  # two moves in one render: both, one after the other
        [view(e[:6]), ui()],
    ])["out"]
    assert got[0] == [] and names(got[1]) == [("deal", None)] and got[2] == [] and got[3] == []
    assert names(got[4]) == [("draw_pile", 1)]
    assert names(got[5]) == [("discard", 1)]
    assert names(got[6]) == [("draw_stock", 0), ("discard", 0)] and [c["at"] for c in got[6]] == [0, 120]
    assert names(got[7]) == [("draw_pile", 1)]


def test_a_covered_table_waits_and_a_result_sounds_its_own_news():
    knock = {"number": 1, "kind": "knock", "knocker": 1, "winner": 1, "layoffs": [{"card": "5H"}]}
    undercut = {"number": 2, "kind": "undercut", "knocker": 0, "winner": 1, "layoffs": []}
    gin = {"number": 3, "kind": "gin", "knocker": 0, "winner": 0, "layoffs": []}
    void = {"number": 4, "kind": "void", "knocker": None, "winner": None, "layoffs": []}
    final = {"winner": 0}
    got = run([
        [view([PASS]), ui()],  # a deal with only a pass so far is still dealt
        [view([PASS, DRAW_STOCK]), ui(menu=True)],  # the menu covers the table: nothing yet
        [view([PASS, DRAW_STOCK]), ui()],  # closed: the draw sounds now, once
        [view(deal=2), ui(panel="deal", result=knock)],  # the deal result: knock, layoff, lost
        [view(deal=2), ui(panel="deal", result=knock)],  # shown again: nothing
        [view(deal=2), ui()],  # closed: the next deal is dealt
        [view(deal=3), ui(panel="deal", result=undercut)],
        [view(deal=4), ui(panel="deal", result=gin)],
        [view(deal=5), ui(panel="deal", result=void)],
        [view(deal=5, over=True, final=final), ui(panel="match")],
        [view(deal=5, over=True, final=final), ui(panel="match")],
    ])["out"]
    assert names(got[0]) == [("deal", None)] and got[1] == [] and names(got[2]) == [("draw_stock", 0)]
    assert names(got[3]) == [("knock", 1), ("layoff", 0), ("lost", None)]
    assert got[4] == [] and names(got[5]) == [("deal", None)]
    assert names(got[6]) == [("knock", 0), ("lost", None)]  # an undercut is a knock the knocker lost
    assert names(got[7]) == [("gin", 0), ("won", None)]
    assert got[8] == []  # a void deal: nobody won, nothing to say
    assert names(got[9]) == [("match_won", None)] and got[10] == []


def test_a_deal_sounds_only_from_its_start_and_again_when_replayed():
    midway = [PASS, DRAW_STOCK, DISCARD]
    got = run([
        [view(midway), ui(opened=1)],  # a match resumed in the middle of a deal: no deal sound
        [view(midway), ui(opened=2)],  # put on the table again (a reload of the engine): still midway
        [view([]), ui(opened=3)],  # the same seed replayed from its start (Repetir)
        [view([]), ui(opened=3)],
        [view([PASS], seed="CUES-2"), ui(opened=4)],  # another match, only a pass so far: dealt
    ])["out"]
    assert got[0] == [] and got[1] == [] and names(got[2]) == [("deal", None)] and got[3] == []
    assert names(got[4]) == [("deal", None)]


def test_every_cue_has_a_sound():
    """Each cue names one of table/sound.js's recipes (and the README's table of sounds)."""
    cues = run([])["names"]
    sound = (WEB / "table" / "sound.js").read_text()
    readme = (WEB.parent / "README.md").read_text()
    for name in cues:
        assert f"  {name}: " in sound, name  # in CUE_MS and in RECIPES
        assert sound.count(f"  {name}: ") == 2, name
    assert "| the deal | eight cards flicked off the deck | 380 ms |" in readme
