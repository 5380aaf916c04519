"""Cards and their text notation.

A card is a rank (A=1 .. K=13) and a suit (C D H S = ♣ ♦ ♥ ♠).  Inside, a
card is one int 0..51, ``suit * 13 + rank - 1``, so a hand is a 52-bit mask
and the cards of one suit are 13 consecutive bits (runs are bit patterns).

>>> Card.parse("10h")
Card.parse('TH')
>>> str(Card.parse("a♠")), Card.parse("KD").points
('AS', 10)
>>> parse_cards("7H 7S 10D a♠")
(Card.parse('7H'), Card.parse('7S'), Card.parse('TD'), Card.parse('AS'))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Union

from .errors import CardParseError, quote

__all__ = ["Card", "parse_cards", "RANKS", "SUITS", "card_mask", "mask_cards", "mask_texts", "mask_bits", "CARD_TEXT", "CardLike"]

RANKS = "A23456789TJQK"
SUITS = "CDHS"
_SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card; compare and sort by suit, then rank."""

    index: int

    def __post_init__(self) -> None:
        if not (isinstance(self.index, int) and 0 <= self.index < 52):
            raise CardParseError(f"card index out of range: {self.index!r}")

    @property
    def rank(self) -> int:
        """1 (ace) .. 13 (king)."""
        return self.index % 13 + 1

    @property
    def suit(self) -> str:
        """One of ``C D H S``."""
        return SUITS[self.index // 13]

    @property
    def points(self) -> int:
        """Deadwood value: ace 1, 2-10 face value, J/Q/K 10."""
        return min(self.rank, 10)

    @property
    def bit(self) -> int:
        return 1 << self.index

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Parse ``TH``, ``10h``, ``a♠``... (ASCII letters in either case); raise CardParseError.

        Only the notations of RULES.md parse: no other Unicode letter or digit
        that merely folds to one of them (``"7ſ"``, ``"７Ｈ"``, a Kelvin sign).
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardParseError(f"not card text: {quote(text)}")
        index = _PARSE.get(text.strip(_BLANKS))
        if index is None:
            raise CardParseError(f"not a card: {text!r} (expected e.g. 'TH', '10H', 'A♠')")
        return _CARDS[index]

    @classmethod
    def of(cls, rank: int, suit: str) -> "Card":
        return _CARDS[SUITS.index(suit) * 13 + rank - 1]

    def __str__(self) -> str:
        return CARD_TEXT[self.index]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
ALL_CARDS = _CARDS
#: Each card's notation by index (``str(card)``, looked up rather than built each time).
CARD_TEXT: tuple[str, ...] = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))

# Every accepted spelling, spelled out: the ASCII letters in both cases, "10"
# for T, the suit symbols.  Parsing is one exact lookup, never str.upper(),
# which would let "7\u017f" (long s) or "\u0131" (dotless i) through.
_RANK_SPELLINGS = {r: (r,) if r.isdigit() else (r, r.lower()) for r in RANKS}
_RANK_SPELLINGS["T"] = ("T", "t", "10")
_SUIT_SPELLINGS = {s: (s, s.lower(), *(sym for sym, t in _SUIT_SYMBOLS.items() if t == s)) for s in SUITS}
_PARSE: dict[str, int] = {
    r + s: i
    for i in range(52)
    for r in _RANK_SPELLINGS[RANKS[i % 13]]
    for s in _SUIT_SPELLINGS[SUITS[i // 13]]
}
#: Only ASCII blanks around a card are ignored (str.strip() would drop U+00A0, U+3000...).
_BLANKS = " \t\n\r\f\v"

CardLike = Union[Card, str]


def parse_cards(text: str | Iterable[CardLike]) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas, or a sequence of card texts."""
    if isinstance(text, str):
        items: Iterable[CardLike] = text.replace(",", " ").split()
    else:
        items = text
    return tuple(Card.parse(item) if not isinstance(item, Card) else item for item in items)


def card_mask(cards: Iterable[CardLike]) -> int:
    """The 52-bit mask of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << (card.index if isinstance(card, Card) else Card.parse(card).index)
    return mask


#: Per suit, the notations of a 13-bit pattern's cards, filled as patterns are met.
_SUIT_TEXTS: tuple[dict[int, tuple[str, ...]], ...] = ({}, {}, {}, {})


def mask_texts(mask: int) -> list[str]:
    """The notations of a mask's cards, in card order (``[str(c) for c in mask_cards(mask)]``)."""
    out: list[str] = []
    for k in range(4):
        s = (mask >> (13 * k)) & 0x1FFF
        if s:
            texts = _SUIT_TEXTS[k].get(s)
            if texts is None:
                texts = _SUIT_TEXTS[k][s] = tuple(CARD_TEXT[13 * k + r] for r in range(13) if (s >> r) & 1)
            out += texts
    return out


#: Per suit, the bit indices of a 13-bit pattern's cards, filled as patterns are met.
_SUIT_BITS: tuple[dict[int, tuple[int, ...]], ...] = ({}, {}, {}, {})


def _suit_bits(k: int, s: int) -> tuple[int, ...]:
    found = _SUIT_BITS[k][s] = tuple(13 * k + r for r in range(13) if (s >> r) & 1)
    return found


def mask_bits(mask: int) -> list[int]:
    """The bit indices of a mask's cards, ascending (a suit's pattern at a time, remembered)."""
    if mask >> 52:
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
    out = []
    s = mask & 0x1FFF
    if s:
        out += _SUIT_BITS[0].get(s) or _suit_bits(0, s)
    s = (mask >> 13) & 0x1FFF
    if s:
        out += _SUIT_BITS[1].get(s) or _suit_bits(1, s)
    s = (mask >> 26) & 0x1FFF
    if s:
        out += _SUIT_BITS[2].get(s) or _suit_bits(2, s)
    s = mask >> 39
    if s:
        out += _SUIT_BITS[3].get(s) or _suit_bits(3, s)
    return out


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in card order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)
