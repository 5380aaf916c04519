"""Cards: parsing every accepted spelling, printing, repr round trip, errors, order and hash."""

from __future__ import annotations

import pytest

import gin
from gin import Card, CardParseError, parse_cards
from gin.cards import mask_cards, card_mask

from strategies import ALL_TEXT


@pytest.mark.parametrize(
    "text, expected",
    [
        ("TH", "TH"),
        ("10H", "TH"),
        ("th", "TH"),
        ("10h", "TH"),
        ("a♠", "AS"),
        ("A♠", "AS"),
        ("K♦", "KD"),
        ("q♣", "QC"),
        ("10♥", "TH"),
        ("2c", "2C"),
        (" 7d ", "7D"),
        ("js", "JS"),
    ],
)
def test_parse_accepts_notation_ten_symbols_and_any_case(text, expected):
    assert str(Card.parse(text)) == expected


def test_every_card_prints_its_notation_and_parses_back():
    cards = [Card.parse(t) for t in ALL_TEXT]
    assert [str(c) for c in cards] == list(ALL_TEXT)
    assert len(set(cards)) == 52


def test_rank_suit_and_points():
    assert (Card.parse("AS").rank, Card.parse("AS").suit, Card.parse("AS").points) == (1, "S", 1)
    assert (Card.parse("9D").rank, Card.parse("9D").points) == (9, 9)
    assert (Card.parse("TC").rank, Card.parse("TC").points) == (10, 10)
    assert [Card.parse(r + "H").points for r in "JQK"] == [10, 10, 10]
    assert [Card.parse(r + "H").rank for r in "JQK"] == [11, 12, 13]


def test_repr_rebuilds_the_card():
    card = Card.parse("TH")
    assert repr(card) == "Card.parse('TH')"
    for text in ALL_TEXT:
        card = Card.parse(text)
        assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize(
    "text",
    ["", " ", "1H", "11H", "TX", "HT", "T", "H", "0S", "AA", "7HH", "10", "1♠", "Z♠", "T H", "7H,"],
)
def test_bad_text_raises_a_value_error_quoting_it(text):
    with pytest.raises(CardParseError) as info:
        Card.parse(text)
    assert isinstance(info.value, ValueError)
    assert repr(text) in str(info.value)
    assert info.value.code == "bad_card"


# Letters and digits that only look like, or fold to, the notation's own.
LOOKALIKES = [
    "7\u017f",  # long s: "ſ".upper() == "S"
    "\u0131H",  # dotless i: upper-cases to I
    "\u212aH",  # Kelvin sign: lower-cases to k
    "\u212a\u2660",
    "\uff17\uff28",  # fullwidth 7 H
    "1\uff10H",  # fullwidth 0
    "\uff34H",  # fullwidth T
    "\u0661\u0660H",  # Arabic-Indic 10
    "7\u0405",  # Cyrillic DZE (looks like S)
    "\u0410\u2660",  # Cyrillic A
    "7\u1d34",  # modifier letter capital H
    "7\u24b8",  # circled C
    "7\u2660\ufe0f",  # spade emoji presentation
    "7H\u00a0",  # no-break space (str.strip() drops it)
    "\u30007H",  # ideographic space
    "\u20037H",
    "7H\x1c",  # a separator str.strip() drops
    "7H\u200b",  # zero-width space
    "\u0037\u0301H",  # combining accent
]


@pytest.mark.parametrize("text", LOOKALIKES)
def test_lookalike_and_case_folding_text_is_refused(text):
    with pytest.raises(CardParseError) as info:
        Card.parse(text)
    assert info.value.code == "bad_card"


def _folds_to_notation() -> list[str]:
    """Every non-ASCII character whose case mapping or compatibility form is notation text."""
    import unicodedata

    notation = set("A23456789TJQKCDHSatjqkcdhs10")
    ranges = [range(0x80, 0x10000), range(0x1D400, 0x1D800), range(0x1F100, 0x1F200)]
    out = []
    for r in ranges:
        for cp in r:
            if 0xD800 <= cp < 0xE000:
                continue
            c = chr(cp)
            for form in (c.upper(), c.lower(), c.casefold(), unicodedata.normalize("NFKC", c)):
                if form and set(form) <= notation:
                    out.append(c)
                    break
    return out


def test_no_character_that_folds_to_the_notation_is_read_as_it():
    traps = _folds_to_notation()
    assert "\u017f" in traps and "\u212a" in traps and "\uff17" in traps  # the search finds them
    for c in traps:
        for text in (c + "H", "7" + c, "1" + c + "H", c + "0S", c + "\u2660"):
            with pytest.raises(CardParseError):
                Card.parse(text)


def test_exactly_the_listed_spellings_parse():
    """Over every 2- and 3-character ASCII text, what parses is ranks x suits as RULES.md lists them."""
    import string

    ranks = {r: [r, r.lower()] for r in "A23456789TJQK"}
    ranks["T"].append("10")
    suits = {"C": "Cc♣♧", "D": "Dd♦♢", "H": "Hh♥♡", "S": "Ss♠♤"}
    expected = {r + s: r0 + s0 for r0, rs in ranks.items() for r in rs for s0, ss in suits.items() for s in ss}
    alphabet = string.printable.strip() + "♣♦♥♠♧♢♡♤"
    texts = {a + b for a in alphabet for b in alphabet} | {"10" + b for b in alphabet} | {"1" + a + b for a in alphabet for b in "CHDS"}
    parsed = {}
    for text in texts:
        try:
            parsed[text] = str(Card.parse(text))
        except CardParseError:
            pass
    assert parsed == expected


@pytest.mark.parametrize("value", [None, 7, 7.0, ["7H"], b"7H"])
def test_non_text_is_refused_with_the_same_error(value):
    with pytest.raises(CardParseError):
        Card.parse(value)


def test_parse_cards_from_text_and_sequences():
    assert parse_cards("7H 7S 10D a♠") == (
        Card.parse("7H"),
        Card.parse("7S"),
        Card.parse("TD"),
        Card.parse("AS"),
    )
    assert parse_cards("7H,7S, TD") == parse_cards(["7h", "7s", "td"])
    assert parse_cards("") == ()
    assert parse_cards([Card.parse("2C"), "3c"]) == (Card.parse("2C"), Card.parse("3C"))
    with pytest.raises(CardParseError) as info:
        parse_cards("7H XX 8H")
    assert "'XX'" in str(info.value)


def test_order_is_suit_then_rank_and_hash_matches_equality():
    assert Card.parse("KC") < Card.parse("AD") < Card.parse("2D") < Card.parse("AH") < Card.parse("KS")
    assert sorted(parse_cards("KS 2C AH AC")) == list(parse_cards("AC 2C AH KS"))
    assert Card.parse("10h") == Card.parse("TH")
    assert hash(Card.parse("10h")) == hash(Card.parse("TH"))
    assert {Card.parse("th"), Card.parse("TH"), Card.parse("10♥")} == {Card.parse("TH")}


def test_cards_are_immutable():
    card = Card.parse("5S")
    with pytest.raises(AttributeError):
        card.index = 3  # type: ignore[misc]


def test_masks_round_trip():
    cards = parse_cards("AC KC 7H 2S KS")
    assert mask_cards(card_mask(cards)) == tuple(sorted(cards))
    assert card_mask([]) == 0


def test_public_names():
    assert gin.parse_cards is parse_cards
    assert issubclass(gin.CardParseError, ValueError)
