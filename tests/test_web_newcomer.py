"""Issue 35's pure pieces in Node, both languages: the rival's turn in one line from the deal's
events (what a reload keeps), and a knock the computer undercut, priced with its risk."""

from __future__ import annotations

from webnode import run_web

SCRIPT = """
const web = process.argv[1];
const { computerTurn } = await import(web + "/text/words.js");
const { undercutText } = await import(web + "/text/coach-words.js");
const { translator } = await import(web + "/text/i18n.js");
const cases = JSON.parse(process.argv[2]);
const out = {};
for (const lang of ["es", "en"]) {
  const t = translator(lang);
  out[lang] = {
    turns: cases.turns.map((events) => computerTurn(t, events)),
    knocks: cases.knocks.map((k) => undercutText(t, k)),
  };
}
process.stdout.write(JSON.stringify(out));
"""


def run(cases: dict) -> dict:
    return run_web(SCRIPT, cases)


PASSES = [{"seat": 0, "type": "pass"}, {"seat": 1, "type": "pass"}]
MINE = [{"seat": 0, "type": "draw", "from": "stock"}, {"seat": 0, "type": "discard", "card": "7S"}]


def test_the_rivals_turn_is_told_whole_from_the_events_until_the_player_moves():
    turns = [
        [],
        PASSES,
        [*PASSES, *MINE, {"seat": 1, "type": "draw", "from": "stock"}],
        [*PASSES, *MINE, {"seat": 1, "type": "draw", "from": "discard", "card": "7S"}, {"seat": 1, "type": "discard", "card": "TD"}],
        [*PASSES, *MINE, {"seat": 1, "type": "draw", "from": "stock"}, {"seat": 1, "type": "discard", "card": "2H"}, *MINE],
        [*PASSES, *MINE, {"seat": 1, "type": "draw", "from": "stock"}, {"seat": 1, "type": "knock", "card": "KC"}, {"type": "showdown", "kind": "gin"}],
    ]
    out = run({"turns": turns, "knocks": []})
    assert out["es"]["turns"] == [
        "",
        "El rival pasa",
        "El rival roba del mazo",
        "El rival roba el 7 de picas del descarte y descarta el 10 de diamantes",
        "",
        "¡El rival hace Gin!",
    ]
    assert out["en"]["turns"][3] == "The computer draws the 7 of spades from the discard pile, then discards the 10 of diamonds"
    assert out["en"]["turns"][4] == ""


def test_an_undercut_knock_says_its_risk_its_price_and_whether_it_was_advised():
    knocks = [
        {"human": {"type": "knock", "card": "7C"}, "points": 26, "undercut": 40, "advised": True},
        {"human": {"type": "knock", "card": "7C"}, "points": 12, "undercut": None, "advised": False},
    ]
    out = run({"turns": [], "knocks": knocks})
    assert out["es"]["knocks"] == [
        "Cerraste descartando el 7 de tréboles con un riesgo de undercut del 40 % y el rival te hizo undercut: 26 puntos para él."
        " Difícil también cerraba: fue el riesgo, no un error.",
        "Cerraste descartando el 7 de tréboles y el rival te hizo undercut: 12 puntos para él. Difícil no habría cerrado.",
    ]
    assert out["en"]["knocks"][0].startswith("You knocked throwing the 7 of clubs with a 40 % undercut risk")
