"""Sentences with a card or a person (web/text/words.js), run in Node over all 52 cards in both
languages: articles and pronouns agree with the card's gender, verbs with the person, points with
their number; nothing unfilled."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"

SCRIPT = """
const { translator } = await import(process.argv[1] + "/text/i18n.js");
const w = await import(process.argv[1] + "/text/words.js");
const out = {};
for (const lang of ["es", "en"]) {
  const t = translator(lang);
  const cards = {};
  for (const s of "CDHS") for (const r of "A23456789TJQK") {
    const c = r + s;
    const run = r === "A" ? [c, "2" + s, "3" + s] : ["A" + s, "2" + s, "3" + s, "4" + s, "5" + s, "6" + s, "7" + s, "8" + s, "9" + s, "T" + s, "J" + s, "Q" + s, "K" + s];
    cards[c] = {
      the: w.theCard(t, c),
      selected: w.selectedPrompt(t, c),
      ifDiscard1: w.ifDiscard(t, c, 1),
      ifDiscard12: w.ifDiscard(t, c, 12),
      take: w.computerMove(t, { type: "take", card: c }),
      drawPile: w.computerMove(t, { type: "draw", from: "discard", card: c }),
      discard: w.computerMove(t, { type: "discard", card: c }),
      hint: w.hintAction(t, { type: "discard", card: c }),
      knock: w.knockDiscard(t, c),
      loose: w.handCardName(t, c, null),
      set: w.handCardName(t, c, [c, c[0] + (s === "C" ? "D" : "C"), c[0] + (s === "H" ? "S" : "H")]),
      run: w.handCardName(t, c, run),
      // Difícil's reasons (gin/ai's hint "why"), the card first or inside.
      completes: w.reasonText(t, "completes_meld", { card: c, meld: run.slice(0, 3) }),
      high: w.reasonText(t, "high_deadwood", { card: c, points: 1 }),
      picked: w.reasonText(t, "opponent_picked", { card: c, avoid: c, picked: c, danger: 40 }),
      takeReason: w.reasonText(t, "take_upcard", { card: c, deadwood: 12 }),
    };
  }
  out[lang] = {
    cards,
    deal: [w.newDeal(t, 2, 0), w.newDeal(t, 2, 1)],
    layoffs: [w.layoffsLabel(t, 0), w.layoffsLabel(t, 1)],
    lossGin: w.knockLoss(t, 0, 1, 20),
    lossMore: w.knockLoss(t, 4, 7, 20),
    noLoss: w.knockLoss(t, 4, 4, 20),
    knockNow: w.reasonText(t, "knock_now", { card: "9S", deadwood: 1, undercut: 5, opp_deadwood: 20 }),
    setMeld: w.reasonText(t, "completes_meld", { card: "JS", meld: ["JD", "JH", "JS"] }),
    unknown: w.reasonText(t, "no_such_reason", {}),
  };
}
console.log(JSON.stringify(out));
"""

SUITS_ES = {"C": "tréboles", "D": "diamantes", "H": "corazones", "S": "picas"}
SUITS_EN = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS_ES = {"A": "as", "T": "10", "J": "jota", "Q": "reina", "K": "rey"}
RANKS_EN = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}


@pytest.fixture(scope="module")
def words():
    node = shutil.which("node")
    if not node:
        pytest.fail("node is needed (build.py uses it too)")
    out = subprocess.run(
        [node, "--no-warnings", "--input-type=module", "-e", SCRIPT, WEB.as_uri()],
        capture_output=True, text=True, check=True,
    )
    return json.loads(out.stdout)


def test_every_card_agrees_in_spanish(words):
    cards = words["es"]["cards"]
    assert len(cards) == 52
    for card, s in cards.items():
        name = f"{RANKS_ES.get(card[0], card[0])} de {SUITS_ES[card[1]]}"
        article, pronoun = ("la", "la") if card[0] in "JQ" else ("el", "lo")
        the = f"{article} {name}"
        assert s["the"] == the
        assert s["selected"] == f"Has elegido {the}: descárta{pronoun} con Descartar o tocándo{pronoun} otra vez."
        assert s["ifDiscard1"] == f"Si descartas {the}, te quedas con 1 punto suelto."
        assert s["ifDiscard12"] == f"Si descartas {the}, te quedas con 12 puntos sueltos."
        assert s["take"] == f"El rival toma {the}"
        assert s["drawPile"] == f"El rival roba {the} del descarte"
        assert s["discard"] == f"El rival descarta {the}"
        assert s["hint"] == f"descarta {the}"
        assert s["knock"] == f"Descartas boca abajo {the}."
        assert s["loose"] == f"{name}, suelta"
        assert s["run"] == f"{name}, en escalera de {SUITS_ES[card[1]]}"
        assert s["set"].startswith(f"{name}, en grupo de ") and s["set"].endswith("s")
        The = the[0].upper() + the[1:]
        assert s["completes"] == f"{The} completa la escalera de {SUITS_ES[card[1]]}."
        assert s["high"] == f"{The} no combina con ninguna de tus cartas y vale 1 punto."
        assert s["picked"] == f"El rival recogió {the}: {the} podría servirle (40 %); descartar {the} es más seguro."
        assert s["takeReason"].startswith(f"{The} mejora tu mano") and s["takeReason"].endswith("con 12 puntos sueltos.")


def test_every_card_reads_in_english(words):
    cards = words["en"]["cards"]
    assert len(cards) == 52
    for card, s in cards.items():
        the = f"the {RANKS_EN.get(card[0], card[0])} of {SUITS_EN[card[1]]}"
        assert s["the"] == the
        assert s["selected"] == f"You picked {the}: discard it with Discard or by tapping it again."
        assert s["ifDiscard1"] == f"If you discard {the}, you are left with 1 point of deadwood."
        assert s["ifDiscard12"] == f"If you discard {the}, you are left with 12 points of deadwood."
        assert s["take"] == f"The computer takes {the}"
        assert s["discard"] == f"The computer discards {the}"
        assert s["knock"] == f"You discard {the} face down."
        assert s["run"].endswith(f", in a run of {SUITS_EN[card[1]]}")
        assert s["loose"].endswith(", loose")
        The = the[0].upper() + the[1:]
        assert s["completes"] == f"{The} completes the run of {SUITS_EN[card[1]]}."
        assert s["high"] == f"{The} goes with none of your cards and counts 1 point."
        assert s["picked"] == f"The computer picked up {the}: {the} could help it (40 %); discarding {the} is safer."


def test_persons_and_numbers(words):
    es, en = words["es"], words["en"]
    assert es["deal"] == ["Mano 2: repartes tú.", "Mano 2: reparte el rival."]
    assert en["deal"] == ["Deal 2: you deal.", "Deal 2: the computer deals."]
    assert es["layoffs"] == ["Añadidas a tus combinaciones", "Añadidas a las combinaciones del rival"]
    assert en["layoffs"] == ["Laid off on your melds", "Laid off on the computer's melds"]
    assert es["lossGin"] == "Así ya no es Gin: pierdes el bono de Gin (20 puntos) y te quedas con 1 punto suelto."
    assert es["lossMore"].startswith("Así tus sueltas suben de 4 a 7 puntos: ganas 3 puntos menos")
    assert en["lossMore"].startswith("This raises your deadwood from 4 to 7 points: you score 3 points less")
    assert es["noLoss"] == en["noLoss"] == ""
    assert es["knockNow"] == "Cierras con 1 punto suelto: el rival tendría unos 20 puntos sueltos y el riesgo de undercut es del 5 %."
    assert en["knockNow"].startswith("You knock with 1 point of deadwood: the computer would have about 20 points")
    assert es["setMeld"] == "La jota de picas completa el grupo de jotas."
    assert en["setMeld"] == "The jack of spades completes the set of jacks."
    assert es["unknown"] == en["unknown"] == ""

    def strings(value):
        if isinstance(value, dict):
            for v in value.values():
                yield from strings(v)
        elif isinstance(value, list):
            for v in value:
                yield from strings(v)
        else:
            yield value

    for text in strings(words):
        assert "undefined" not in text and "{" not in text and "[object" not in text, text
