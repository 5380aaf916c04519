"""The seeded deal: the same (seed, deal number) gives the same cards, forever.

Algorithm ``gin-shuffle-v1`` (changing it changes every seed's deals, so a
change must get a new version name and keep this one for old saves):

1. The seed is normalised: surrounding spaces dropped, upper-cased.
2. A byte stream is SHA-256 in counter mode over
   ``b"gin-shuffle-v1|" + seed + b"|" + str(deal_number)`` (UTF-8), the
   counter a 4-byte big-endian suffix starting at 0; the stream is the
   concatenated digests.
3. Fisher–Yates over the cards 0..51 (``suit * 13 + rank - 1``) in order:
   for i from 51 down to 1, j is a uniform draw in 0..i by rejection on
   4-byte big-endian words (a word w is kept if w < 2**32 - 2**32 % (i+1),
   then j = w % (i+1)); swap positions i and j.
4. The resulting order is dealt: positions 0, 2, .., 18 to the non-dealer,
   1, 3, .., 19 to the dealer, 20 is the upcard, 21..51 the stock, top first.

The first dealer of a match is drawn by lot the same way: the first byte of
``sha256(b"gin-dealer-v1|" + seed)`` is even → seat 0 deals, odd → seat 1.
"""

from __future__ import annotations

import hashlib
import struct

__all__ = ["ALGORITHM", "normalize_seed", "shuffled", "shuffled_deck", "first_dealer", "deal_cards"]

ALGORITHM = "gin-shuffle-v1"


def normalize_seed(seed: str) -> str:
    """Seeds are case-insensitive and trimmed (an int is taken as its digits); empty is refused."""
    if isinstance(seed, int) and not isinstance(seed, bool):
        seed = str(seed)
    if not isinstance(seed, str) or not seed.strip():
        raise ValueError(f"a seed must be a non-empty string, not {seed!r}")
    seed = seed.strip().upper()
    if len(seed) > 64 or not seed.isprintable():
        raise ValueError(f"a seed must be at most 64 printable characters: {seed!r}")
    return seed


#: A digest as the eight 4-byte big-endian words of step 2.
_WORDS = struct.Struct(">8I")


def shuffled(items: list[int], key: bytes) -> list[int]:
    """``items`` in the order of steps 2 and 3 above with the stream of ``key``
    (a new list).  Also draws Comprobar's worlds (gin.fairness)."""
    out = list(items)
    sha256 = hashlib.sha256
    words: tuple[int, ...] = ()
    at = 8  # the next word of ``words``: none left
    counter = 0
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = (1 << 32) - (1 << 32) % n
        while True:
            if at == 8:
                words = _WORDS.unpack(sha256(key + counter.to_bytes(4, "big")).digest())
                counter += 1
                at = 0
            w = words[at]
            at += 1
            if w < limit:
                break
        j = w % n
        out[i], out[j] = out[j], out[i]
    return out


#: Decks dealt lately, by their key: replaying a match (a save loaded, a review, the
#: stats) deals the same deals again.  Cleared when full.
_DECKS: dict[bytes, tuple[int, ...]] = {}
_DECKS_LIMIT = 512


def shuffled_deck(seed: str, deal_number: int) -> list[int]:
    """The 52 card indices in dealt order for one deal of a seeded match."""
    key = f"{ALGORITHM}|{normalize_seed(seed)}|{int(deal_number)}".encode()
    deck = _DECKS.get(key)
    if deck is None:
        if len(_DECKS) >= _DECKS_LIMIT:
            _DECKS.clear()
        deck = _DECKS[key] = tuple(shuffled(list(range(52)), key))
    return list(deck)


def deal_cards(seed: str, deal_number: int) -> tuple[list[int], list[int], int, list[int]]:
    """``(non-dealer's 10, dealer's 10, upcard, stock top first)`` as card indices."""
    deck = shuffled_deck(seed, deal_number)
    return deck[0:20:2], deck[1:20:2], deck[20], deck[21:]


def first_dealer(seed: str) -> int:
    digest = hashlib.sha256(f"gin-dealer-v1|{normalize_seed(seed)}".encode()).digest()
    return digest[0] & 1
