"""Melds, the exact minimum-deadwood arrangement, and the showdown.

Everything here works on 52-bit hand masks (see ``cards``): the cards of a
suit are 13 consecutive bits, so runs are bit patterns and a set is one bit
in each of three or four suits.  The public functions take and give Cards.

The minimum deadwood is exact: it searches every packing of disjoint melds,
branching on the lowest card that could be melded (either it stays deadwood
or it is in one of the melds that contain it).  Hands with no meld, most of
them, take a fast path of table look-ups.  That search grows with the number
of packings, so card sets far bigger than a hand (more than 24 cards, up to
the whole deck) are solved rank by rank instead (``_pack_by_rank``).

>>> a = best_arrangement(parse_cards("7H 7S 7D 8H 9H"))
>>> a.points, [" ".join(map(str, m)) for m in a.melds], " ".join(map(str, a.deadwood))
(14, ['7H 8H 9H'], '7D 7S')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import ALL_CARDS, CARD_TEXT, Card, CardLike, card_mask, mask_bits, mask_cards, parse_cards
from .errors import IllegalMove

__all__ = [
    "Arrangement",
    "Layoff",
    "best_arrangement",
    "deadwood",
    "all_melds",
    "is_meld",
    "discard_deadwoods",
    "validate_melds",
    "showdown",
]

_SUIT = 0x1FFF

# Deadwood value of every 13-bit suit pattern.
_VALUE13 = [0] * 8192
for _s in range(1, 8192):
    _low = _s & -_s
    _VALUE13[_s] = _VALUE13[_s ^ _low] + min(_low.bit_length(), 10)
del _s, _low

_POINTS = tuple(card.points for card in ALL_CARDS)
#: ``(points, mask of the cards worth them)``, the highest first.
_BY_POINTS = tuple(
    (p, sum(1 << card.index for card in ALL_CARDS if card.points == p)) for p in range(10, 0, -1)
)


def mask_value(mask: int) -> int:
    """Sum of the point values of the cards in ``mask``."""
    v = _VALUE13
    return v[mask & _SUIT] + v[(mask >> 13) & _SUIT] + v[(mask >> 26) & _SUIT] + v[mask >> 39]


_RUNS13: dict[int, tuple[int, ...]] = {}


def _runs13(s: int) -> tuple[int, ...]:
    """Every run (3+ consecutive bits) inside the 13-bit pattern ``s``."""
    found = _RUNS13.get(s)
    if found is None:
        runs = []
        for lo in range(13):
            if not (s >> lo) & 1:
                continue
            hi = lo
            while hi + 1 < 13 and (s >> (hi + 1)) & 1:
                hi += 1
                if hi - lo >= 2:
                    runs.append(((1 << (hi - lo + 1)) - 1) << lo)
        found = _RUNS13[s] = tuple(runs)
    return found


# The sets of rank r when the suits holding it are the 4-bit pattern p:
# _SETS[r][p] = ((meld mask, value), ...), the whole set first and, for four
# of a kind, each three of them (without the lowest suit's card first).
_SETS: list[list[tuple[tuple[int, int], ...]]] = []
for _r in range(13):
    _row: list[tuple[tuple[int, int], ...]] = []
    for _p in range(16):
        _bits = [1 << (13 * _k + _r) for _k in range(4) if (_p >> _k) & 1]
        _full = sum(_bits)
        _value = min(_r + 1, 10)
        if len(_bits) == 3:
            _row.append(((_full, 3 * _value),))
        elif len(_bits) == 4:
            _row.append(((_full, 4 * _value), *((_full ^ _b, 3 * _value) for _b in _bits)))
        else:
            _row.append(())
    _SETS.append(_row)
del _r, _p, _row, _bits, _full, _value

# The runs of suit k's 13-bit pattern s, placed in the hand: _SUIT_RUNS[k][s].
_SUIT_RUNS: tuple[dict[int, tuple[tuple[int, int], ...]], ...] = ({}, {}, {}, {})


def _suit_runs(k: int, s: int) -> tuple[tuple[int, int], ...]:
    found = _SUIT_RUNS[k].get(s)
    if found is None:
        found = _SUIT_RUNS[k][s] = tuple((run << (13 * k), _VALUE13[run]) for run in _runs13(s))
    return found


def _meld_masks(mask: int) -> list[tuple[int, int]]:
    """All melds inside ``mask`` as ``(meld_mask, value)``, in a fixed order:
    the sets by rank, then the runs by suit (each by its lowest card, then length).

    The melds of ``mask`` less some cards are the melds here that avoid them,
    in the same order (``discard_deadwood_masks`` relies on it)."""
    s0 = mask & _SUIT
    s1 = (mask >> 13) & _SUIT
    s2 = (mask >> 26) & _SUIT
    s3 = mask >> 39
    melds: list[tuple[int, int]] = []
    three = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    while three:
        low = three & -three
        three ^= low
        r = low.bit_length() - 1
        melds.extend(_SETS[r][(s0 >> r & 1) | (s1 >> r & 1) << 1 | (s2 >> r & 1) << 2 | (s3 >> r & 1) << 3])
    if s0 & (s0 >> 1) & (s0 >> 2):
        melds.extend(_suit_runs(0, s0))
    if s1 & (s1 >> 1) & (s1 >> 2):
        melds.extend(_suit_runs(1, s1))
    if s2 & (s2 >> 1) & (s2 >> 2):
        melds.extend(_suit_runs(2, s2))
    if s3 & (s3 >> 1) & (s3 >> 2):
        melds.extend(_suit_runs(3, s3))
    return melds


def _meld_union(mask: int) -> int:
    """The cards of ``mask`` that are in some meld inside it (the union of
    ``_meld_masks(mask)``), by bit operations: the ranks held in three suits or
    more, and every three consecutive cards of a suit."""
    s0 = mask & _SUIT
    s1 = (mask >> 13) & _SUIT
    s2 = (mask >> 26) & _SUIT
    s3 = mask >> 39
    three = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    union = (three | three << 13 | three << 26 | three << 39) & mask
    start = s0 & (s0 >> 1) & (s0 >> 2)
    if start:
        union |= start | start << 1 | start << 2
    start = s1 & (s1 >> 1) & (s1 >> 2)
    if start:
        union |= (start | start << 1 | start << 2) << 13
    start = s2 & (s2 >> 1) & (s2 >> 2)
    if start:
        union |= (start | start << 1 | start << 2) << 26
    start = s3 & (s3 >> 1) & (s3 >> 2)
    if start:
        union |= (start | start << 1 | start << 2) << 39
    return union


_PACKED: dict[int, tuple[int, tuple[int, ...]]] = {}
_PACKED_LIMIT = 50_000


def _pack(melds: list[tuple[int, int]]) -> tuple[int, tuple[int, ...]]:
    """The most valuable packing of disjoint melds: ``(value, meld masks)``.

    Remembered (``_PACKED``) by the union of the melds: every list given here is all
    the melds inside some cards, in ``_meld_masks``' order (a hand's, or a hand's that
    avoid some cards), so it is all the melds inside its own union, in that order: the
    union decides the list and so the answer.  Hands that differ only in cards outside
    every meld, and the sub-packings of one search, share it.
    """
    if not melds:
        return 0, ()
    if len(melds) == 1:
        return melds[0][1], (melds[0][0],)
    union = 0
    for m, _ in melds:
        union |= m
    hit = _PACKED.get(union)
    if hit is not None:
        return hit
    low = union & -union
    rest = [x for x in melds if not x[0] & low]
    best_value, best = _pack(rest)
    for m, v in melds:
        if m & low:
            sub_value, sub = _pack([x for x in rest if not x[0] & m])
            if sub_value + v > best_value:
                best_value, best = sub_value + v, (m, *sub)
    if len(_PACKED) >= _PACKED_LIMIT:
        _PACKED.clear()
    hit = _PACKED[union] = (best_value, best)
    return hit


def _pack_by_rank(mask: int) -> tuple[int, tuple[int, ...]]:
    """``(deadwood, meld masks)`` by dynamic programming over the ranks, Ace to King.

    The state is, per suit, the length of the run still open (0, 1, 2 or
    "3 or more"); each card of the rank is deadwood, in this rank's set (which
    needs 3 or 4 cards) or the next card of its suit's run.  A run closes when
    its suit's card is not added to it, and only at length 3 or more.  The
    cost grows with the ranks, not with the packings, so any number of cards
    (the whole deck included) is solved at once; ``solve`` uses it for card
    sets far bigger than a hand.
    """
    from itertools import product

    # open-run lengths -> (deadwood, closed melds, open run masks)
    states: dict[tuple[int, ...], tuple[int, tuple[int, ...], tuple[int, ...]]] = {
        (0, 0, 0, 0): (0, (), (0, 0, 0, 0))
    }
    for r in range(13):
        present = [s for s in range(4) if (mask >> (13 * s + r)) & 1]
        points = min(r + 1, 10)
        new: dict[tuple[int, ...], tuple[int, tuple[int, ...], tuple[int, ...]]] = {}
        for lens, (dw, melds, opens) in states.items():
            for choice in product((0, 1, 2), repeat=len(present)):  # deadwood, set, run
                in_set = [s for s, c in zip(present, choice) if c == 1]
                if 0 < len(in_set) < 3:
                    continue
                in_run = [s for s, c in zip(present, choice) if c == 2]
                new_lens = [0, 0, 0, 0]
                new_opens = [0, 0, 0, 0]
                closed = melds
                for s in range(4):
                    if s in in_run:
                        new_lens[s] = min(lens[s] + 1, 3)
                        new_opens[s] = opens[s] | 1 << (13 * s + r)
                    elif lens[s] == 3:
                        closed += (opens[s],)
                    elif lens[s]:
                        break  # a run of one or two cards is no meld
                else:
                    if in_set:
                        closed += (sum(1 << (13 * s + r) for s in in_set),)
                    cost = dw + points * choice.count(0)
                    key = tuple(new_lens)
                    old = new.get(key)
                    if old is None or cost < old[0]:
                        new[key] = (cost, closed, tuple(new_opens))
        states = new
    best: tuple[int, tuple[int, ...]] | None = None
    for lens, (dw, melds, opens) in states.items():
        if any(length in (1, 2) for length in lens):
            continue
        if best is None or dw < best[0]:
            best = (dw, melds + tuple(opens[s] for s in range(4) if lens[s] == 3))
    assert best is not None  # all cards as deadwood is always a way
    return best


#: Above this many cards the packing search gives way to ``_pack_by_rank``.
_BIG = 24

_CACHE: dict[int, tuple[int, tuple[int, ...]]] = {}
_CACHE_LIMIT = 200_000


def solve(mask: int) -> tuple[int, tuple[int, ...]]:
    """``(deadwood points, meld masks)`` of the best arrangement of a hand mask."""
    hit = _CACHE.get(mask)
    if hit is not None:
        return hit
    if mask.bit_count() > _BIG:
        return _pack_by_rank(mask)
    return _solve_melds(mask, _meld_masks(mask))


def _solve_melds(mask: int, melds: list[tuple[int, int]]) -> tuple[int, tuple[int, ...]]:
    """``solve(mask)`` given ``_meld_masks(mask)`` (or the same list got by filtering a
    bigger hand's: the same melds in the same order, hence the same packing)."""
    hit = _CACHE.get(mask)
    if hit is not None:
        return hit
    if mask.bit_count() > _BIG:
        return _pack_by_rank(mask)
    if melds:
        melded, packing = _pack(melds)
        result = (mask_value(mask) - melded, packing)
    else:
        result = (mask_value(mask), ())
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[mask] = result
    return result


def deadwood_of_mask(mask: int) -> int:
    return solve(mask)[0]


#: What the cards of a meld union are worth to a discard, remembered by the union (see ``_without``).
_WITHOUT: dict[int, tuple[int, tuple[int, ...], tuple[int, ...]]] = {}
_WITHOUT_LIMIT = 20_000
#: A discard's order, as one integer (``_without``): (deadwood less the hand's points, -points, card).
_OFFSET = 1 << 10


def _without(union: int) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """For the union of a hand's melds (``_meld_union``, not 0): ``(value, keys, lost)``.

    ``value`` is the best packing's melded points.  A hand is its melds' union and
    cards in no meld; the melds inside the hand less a card c of the union are the
    union's melds without c, so what the hand keeps melded without c depends on the
    union alone: ``value - lost[n]`` for the union's n-th card (ascending), whatever
    the other cards.  Without a card of p points the hand's deadwood is then its
    points less p, less what stays melded.  ``keys``: the union's cards as discards,
    best first, each ``(-p - melded, -p, card)`` packed in one integer (the same
    order): ``least_discard`` adds the hand's points to the first (that is not
    skipped).  Remembered: a few unions make most hands."""
    hit = _WITHOUT.get(union)
    if hit is not None:
        return hit
    melds = _meld_masks(union)
    value = _pack(melds)[0]
    keys = []
    lost = []
    rest = union
    while rest:
        low = rest & -rest
        rest ^= low
        i = low.bit_length() - 1
        p = _POINTS[i]
        kept = _pack([x for x in melds if not x[0] & low])[0]
        lost.append(value - kept)
        keys.append((_OFFSET - p - kept) << 12 | (10 - p) << 6 | i)
    keys.sort()
    if len(_WITHOUT) >= _WITHOUT_LIMIT:
        _WITHOUT.clear()
    hit = _WITHOUT[union] = (value, tuple(keys), tuple(lost))
    return hit


def discard_deadwood_masks(mask: int) -> dict[int, int]:
    """For each card of ``mask`` (as a bit index): the deadwood left without it.

    A card in no meld leaves the best packing as it was: the deadwood less its points.
    A card of the melds' union leaves what ``_without`` says the union keeps melded
    without it (the same for every hand with that union).
    """
    if mask.bit_count() > _BIG:
        return _discard_deadwood_by_search(mask)
    union = _meld_union(mask)
    points = mask_value(mask)
    if union:
        value, _, lost = _without(union)
        points -= value
    pts = _POINTS
    out = {i: points - pts[i] for i in mask_bits(mask)}
    if union:
        for i, more in zip(mask_bits(union), lost):
            out[i] += more
    return out


def _discard_deadwood_by_search(mask: int) -> dict[int, int]:
    """``discard_deadwood_masks`` for card sets bigger than a hand (``_BIG``).

    Only the cards of the best packing's melds need a new search: removing any
    other card (deadwood there, in a meld or not) leaves that packing as it was,
    and no arrangement without a card of ``p`` points has less than the
    deadwood less ``p`` (that card as deadwood would beat the best).  The melds
    without a card are this hand's melds that avoid it, so they are listed once.
    """
    melds = _meld_masks(mask)
    points, packing = _solve_melds(mask, melds)
    union = 0
    for m in packing:
        union |= m
    out = {}
    rest = mask
    while rest:
        low = rest & -rest
        rest ^= low
        i = low.bit_length() - 1
        if low & union:
            out[i] = _solve_melds(mask ^ low, [x for x in melds if not x[0] & low])[0]
        else:
            out[i] = points - _POINTS[i]
    return out


_LEAST: dict[int, tuple[int, int]] = {}
_LEAST_LIMIT = 100_000


def least_discard(mask: int, skip: int = -1) -> tuple[int, int]:
    """``(deadwood, card)``: the discard that leaves the least deadwood (see
    ``_least_discard``), remembered: hard values the same hands' discards again and
    again (a hand plus each card it could draw, for each discard it weighs)."""
    key = (skip + 1) << 52 | mask
    hit = _LEAST.get(key)
    if hit is not None:
        return hit
    if len(_LEAST) >= _LEAST_LIMIT:
        _LEAST.clear()
    hit = _LEAST[key] = _least_discard(mask, skip)
    return hit


def _least_discard(mask: int, skip: int = -1) -> tuple[int, int]:
    """``(deadwood, card)``: the discard that leaves the least deadwood, the
    higher card on a tie, then the lower bit index; never ``skip`` (a bit index).

    The same as the least of ``discard_deadwood_masks`` by ``(deadwood,
    -points, card)``: the best card in no meld is the first of the highest
    (it leaves the deadwood less its points), the best card of the melds'
    union is the first of ``_without``'s keys that is not ``skip``.
    """
    if mask.bit_count() > _BIG:
        dd = _discard_deadwood_by_search(mask)
        dd.pop(skip, None)
        if not dd:
            raise ValueError("no card to discard")
        best = min((d, -_POINTS[i], i) for i, d in dd.items())
        return best[0], best[2]
    union = _meld_union(mask)
    points = mask_value(mask)
    best = None
    if union:
        value, keys, _ = _without(union)
        for key in keys:
            i = key & 63
            if i != skip:
                best = (points + (key >> 12) - _OFFSET, (key >> 6 & 63) - 10, i)
                break
    else:
        value = 0
    rest = mask & ~union
    if skip >= 0:
        rest &= ~(1 << skip)
    if rest:  # a card in no meld leaves exactly the deadwood less its points:
        for p, cards in _BY_POINTS:  # the first of the highest
            if rest & cards:
                low = rest & cards & -(rest & cards)
                key = (points - value - p, -p, low.bit_length() - 1)
                if best is None or key < best:
                    best = key
                break
    if best is None:
        raise ValueError("no card to discard")
    return best[0], best[2]


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Melds and deadwood of a hand.  ``points`` is the deadwood's total."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    points: int

    @classmethod
    def from_masks(cls, mask: int, meld_masks: Sequence[int]) -> "Arrangement":
        melded = 0
        for m in meld_masks:
            melded |= m
        rest = mask & ~melded
        melds = tuple(sorted((_meld_cards(m) for m in meld_masks), key=_meld_sort_key))
        return cls(melds, mask_cards(rest), mask_value(rest))

    def to_dict(self) -> dict:
        return {
            "melds": [[CARD_TEXT[c.index] for c in m] for m in self.melds],
            "deadwood": [CARD_TEXT[c.index] for c in self.deadwood],
            "points": self.points,
        }


def _meld_cards(mask: int) -> tuple[Card, ...]:
    cards = mask_cards(mask)
    if len({c.rank for c in cards}) == 1:
        return cards
    return tuple(sorted(cards, key=lambda c: c.rank))


def _meld_sort_key(meld: tuple[Card, ...]) -> tuple[int, int]:
    return (meld[0].rank, meld[0].index)


def best_arrangement(cards: Iterable[CardLike] | str) -> Arrangement:
    """The arrangement with the exact minimum deadwood (ties broken in a fixed way)."""
    mask = card_mask(parse_cards(cards) if isinstance(cards, str) else cards)
    _, packing = solve(mask)
    return Arrangement.from_masks(mask, packing)


def deadwood(cards: Iterable[CardLike] | str) -> int:
    """The exact minimum deadwood of some cards."""
    mask = card_mask(parse_cards(cards) if isinstance(cards, str) else cards)
    return solve(mask)[0]


def discard_deadwoods(cards: Iterable[CardLike]) -> dict[Card, int]:
    """For each card: the minimum deadwood of the other cards."""
    return {ALL_CARDS[i]: d for i, d in discard_deadwood_masks(card_mask(cards)).items()}


def all_melds(cards: Iterable[CardLike] | str) -> list[tuple[Card, ...]]:
    """Every meld that can be made from the cards (sub-runs and 3-of-4 sets included)."""
    mask = card_mask(parse_cards(cards) if isinstance(cards, str) else cards)
    return [_meld_cards(m) for m, _ in _meld_masks(mask)]


#: The four cards of each rank, as masks.
_RANK_CARDS = tuple(sum(1 << (13 * k + r) for k in range(4)) for r in range(13))


def meld_kind(mask: int) -> str | None:
    """``"set"``, ``"run"`` or None for a mask of cards."""
    n = mask.bit_count()
    if n < 3:
        return None
    if mask >> 52:
        raise IndexError(f"not a mask of cards: {mask:#x}")
    i = (mask & -mask).bit_length() - 1  # the lowest card
    if n <= 4 and not mask & ~_RANK_CARDS[i % 13]:
        return "set"
    s = mask >> (13 * (i // 13))
    if s <= _SUIT:  # one suit (the lowest card's)
        low = s & -s
        if s + low == low << n:  # n consecutive bits
            return "run"
    return None


def is_meld(cards: Iterable[CardLike]) -> bool:
    """True for a set (3-4 of a rank) or a run (3+ consecutive of a suit; ace low)."""
    return meld_kind(card_mask(cards)) is not None


def validate_melds(hand_mask: int, melds: Iterable[Iterable[CardLike]]) -> tuple[int, ...]:
    """Check declared melds against a hand; return their masks or raise ``invalid_melds``."""
    try:
        parsed = [parse_cards(m) for m in melds]
    except (TypeError, ValueError) as exc:
        raise IllegalMove(f"melds are not lists of cards: {exc}", code="invalid_melds") from None
    masks = []
    used = 0
    for meld in parsed:
        m = card_mask(meld)
        text = " ".join(map(str, meld))
        if m.bit_count() != len(meld) or meld_kind(m) is None:
            raise IllegalMove(f"not a meld: {text}", code="invalid_melds")
        if m & ~hand_mask:
            raise IllegalMove(f"meld uses cards not in the hand: {text}", code="invalid_melds")
        if m & used:
            raise IllegalMove(f"a card is in two melds: {text}", code="invalid_melds")
        used |= m
        masks.append(m)
    return tuple(masks)


@dataclass(frozen=True, slots=True)
class Layoff:
    """A defender's card laid off on the knocker's meld number ``meld``."""

    card: Card
    meld: int

    def __iter__(self):
        """Unpacks as ``card, meld``."""
        return iter((self.card, self.meld))

    def to_dict(self) -> dict:
        return {"card": str(self.card), "meld": self.meld}


def _packings(melds: list[tuple[int, int]]):
    """Every packing of disjoint melds (the empty one included)."""
    if not melds:
        yield ()
        return
    union = 0
    for m, _ in melds:
        union |= m
    low = union & -union
    rest = [x for x in melds if not x[0] & low]
    for m, _v in melds:
        if m & low:
            for sub in _packings([x for x in rest if not x[0] & m]):
                yield (m, *sub)
    yield from _packings(rest)


def _layoffs(free: int, knocker_melds: Sequence[int]) -> list[tuple[int, int]]:
    """The defender's cards in ``free`` that can be laid off: ``[(bit index, meld)]``.

    Every card that can be laid off somewhere can be laid off together with
    all the others (runs chain outward; a set takes its one missing card), so
    laying off as much as possible is one pass: runs first (a card there may
    carry the next one), then the sets.
    """
    out = []
    used = 0
    for n, m in enumerate(knocker_melds):
        if meld_kind(m) != "run":
            continue
        low = (m & -m).bit_length() - 1
        high = m.bit_length() - 1
        base = low - low % 13
        i = low - 1
        while i >= base and (free >> i) & 1 and not (used >> i) & 1:
            out.append((i, n))
            used |= 1 << i
            i -= 1
        i = high + 1
        while i < base + 13 and (free >> i) & 1 and not (used >> i) & 1:
            out.append((i, n))
            used |= 1 << i
            i += 1
    for n, m in enumerate(knocker_melds):
        if m.bit_count() == 3 and meld_kind(m) == "set":
            rank = (m & -m).bit_length() - 1
            rank %= 13
            for k in range(4):
                i = 13 * k + rank
                if not (m >> i) & 1 and (free >> i) & 1 and not (used >> i) & 1:
                    out.append((i, n))
                    used |= 1 << i
    return out


def showdown(
    knocker_melds: Sequence[int], defender_mask: int, *, layoffs_allowed: bool
) -> tuple[Arrangement, tuple[Layoff, ...]]:
    """The defender's own melds and layoffs chosen jointly for the least deadwood.

    Breaking an own meld is considered too: every packing of the defender's
    melds is tried with the best layoffs of what it leaves.  Ties prefer fewer
    layoffs (the defender keeps its own melds).
    """
    if not layoffs_allowed:
        _, packing = solve(defender_mask)
        return Arrangement.from_masks(defender_mask, packing), ()
    best_key = None
    best: tuple[tuple[int, ...], list[tuple[int, int]]] = ((), [])
    for packing in _packings(_meld_masks(defender_mask)):
        free = defender_mask
        for m in packing:
            free &= ~m
        lays = _layoffs(free, knocker_melds)
        laid = 0
        for i, _n in lays:
            laid |= 1 << i
        key = (mask_value(free & ~laid), len(lays))
        if best_key is None or key < best_key:
            best_key, best = key, (packing, lays)
    packing, lays = best
    laid = 0
    for i, _n in lays:
        laid |= 1 << i
    arrangement = Arrangement.from_masks(defender_mask & ~laid, packing)
    return arrangement, tuple(Layoff(ALL_CARDS[i], n) for i, n in lays)
