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
