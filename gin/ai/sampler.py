"""Difícil's danger from sampled hands (issue 34, third attempt): whole hands
of the opponent, drawn from what is unseen and weighed by how well they
explain everything it did in this deal.

The per-card danger (``Knowledge.danger``) and the learned model
(``gin.ai.danger``) read each clue of the opponent on its own, card by card.
They cannot say *which* pair among several it holds: that is a property of
the whole hand.  So here each sample is a whole hand (the opponent's known
cards and hidden ones drawn from the unseen in proportion to hard's belief,
``Knowledge.opp_prob``, or uniformly with ``PROPOSAL = 0``), and the deal is
replayed backwards over it, clue by clue, to the hand it held at each one:

- undoing a **discard** puts the card back (it was in the hand then);
- undoing a **pick-up** takes the card out;
- undoing a **stock draw** takes out one of the hand's cards whose origin is
  not public, uniformly (any of them may be the card it drew): the cards it
  has drawn since a clue blur it exactly as much as they should;
- at each clue the hand of that moment is weighed: a **refused** card (the
  upcard passed, the stock drawn over the pile) that a pair of that hand would
  have melded, a **discard** that was in a meld of the hand it left, a
  **pick-up** that neither melds nor pairs with what it joined, each make the
  sample less likely (``F_REFUSED``, ``F_DISCARD``, ``F_PICK_PAIR`` /
  ``F_PICK_NONE``: soft, because the pool's styles do not all play by these
  rules).

The danger of a card is then the weighed share of the samples in which the
hand holds a pair that the card completes, smoothed toward today's danger
(``PRIOR`` effective samples).  With the belief as the proposal and the
replay's weights not divided by it, the estimate is the product of the two
(the belief's per-card factors and the replay's joint constraints): measured
better than the replay over uniform hands (bench/README.md, issue 34).

A function of the view only: it reads ``Knowledge`` (the hand, the pile, the
opponent's known cards and its public clues), never the seed, the stock or the
opponent's cards.  The samples are drawn by a generator seeded from a digest
of that public position, so the same view always gives the same danger, in
CPython and in Pyodide (``random.Random`` seeded by an integer; ``random``
and ``randrange`` only, and no libm function).
"""

from __future__ import annotations

import hashlib
import random

from .knowledge import POINTS, Knowledge, bits

__all__ = ["Sampled", "PAIR_MASKS", "NEAR_MASK", "position_key"]

#: Samples per decision.
N = 600
#: Weights of a sample per clue it contradicts (chosen by hand; stronger and
#: weaker ones measured no better: bench/README.md, issue 34).
F_REFUSED = 0.15
F_DISCARD = 0.2
F_PICK_PAIR = 0.6
F_PICK_NONE = 0.25
#: ... per discard or refusal of a card the hand then had a two-card start with
#: (the same rank, the same suit within 2), and per card of the hand left after
#: a discard with no such start that scores more than the discard (players
#: throw their highest loose card).
F_DISCARD_NEAR = 1.0
F_REFUSED_NEAR = 1.0
F_HIGHER = 1.0
#: 1: draw the hidden cards in proportion to hard's belief (``Knowledge.opp_prob``)
#: rather than uniformly.
PROPOSAL = 1
#: Today's danger counts as this many effective samples (it breaks ties and
#: steadies the estimate when few samples fit).
PRIOR = 4.0


def _pair_masks(c: int) -> tuple[int, ...]:
    """The masks of the pairs ``{a, b}`` with ``{a, b, c}`` a meld."""
    rank, suit = c % 13, c // 13
    same = [13 * s + rank for s in range(4) if s != suit]
    out = [(1 << same[i]) | (1 << same[j]) for i in range(3) for j in range(i + 1, 3)]
    for lo, hi in ((-2, -1), (1, 2), (-1, 1)):
        if 0 <= rank + lo and rank + hi < 13:
            out.append((1 << (c + lo)) | (1 << (c + hi)))
    return tuple(out)


def _near_mask(c: int) -> int:
    """The cards that make a two-card start of a meld with ``c``: its rank, its suit within 2."""
    rank, suit = c % 13, c // 13
    m = 0
    for s in range(4):
        if s != suit:
            m |= 1 << (13 * s + rank)
    for d in (-2, -1, 1, 2):
        if 0 <= rank + d < 13:
            m |= 1 << (c + d)
    return m


PAIR_MASKS = tuple(_pair_masks(c) for c in range(52))
NEAR_MASK = tuple(_near_mask(c) for c in range(52))


def _melds(hand: int, c: int) -> bool:
    """Whether ``hand`` holds a pair that ``c`` completes."""
    for m in PAIR_MASKS[c]:
        if hand & m == m:
            return True
    return False


def position_key(k: Knowledge) -> int:
    """A digest of the public position ``k`` was read from (never the seed)."""
    data = repr((k.seat, k.hand, k.pile, k.opp_known, k.opp_count, k.stock_count, k.opp_clues, k.phase, k.taken))
    return int.from_bytes(hashlib.sha256(data.encode()).digest()[:8], "big")


class Sampled:
    """``Sampled(k).danger(c)``: P(card ``c`` would complete a meld of the opponent now),
    from hands sampled and weighed by the opponent's clues.  Built once per decision."""

    __slots__ = ("k", "held", "weight", "total", "ess", "cache", "n")

    def __init__(self, k: Knowledge, n: int | None = None) -> None:
        self.k = k
        self.n = N if n is None else n
        self.cache: dict[int, float] = {}
        self._sample()

    def _sample(self) -> None:
        k = self.k
        rng = random.Random(position_key(k))
        unseen = bits(k.unseen)
        known = k.opp_known
        hidden = max(0, min(len(unseen), k.opp_count - known.bit_count()))
        # the clues, newest first, with the opponent's stock draws before each
        clues = list(reversed(k.opp_clues))
        now = k.opp_draws
        prob = k.opp_prob()
        belief = [max(prob[x], 1e-6) for x in unseen]
        total = sum(belief)
        held: list[int] = []
        weight: list[float] = []
        for _ in range(self.n):
            hand = known
            if PROPOSAL:
                # weighted, without replacement, by additions and comparisons only
                # (no libm function: the same draws in CPython and Pyodide)
                pool = unseen[:]
                ws = belief[:]
                left = total
                last = len(pool) - 1
                for _j in range(hidden):
                    r = rng.random() * left
                    i = 0
                    while i < last and r >= ws[i]:
                        r -= ws[i]
                        i += 1
                    hand |= 1 << pool[i]
                    left -= ws[i]
                    pool[i], ws[i] = pool[last], ws[last]
                    last -= 1
            else:
                pool = unseen[:]
                for j in range(hidden):  # a partial shuffle: the first `hidden` of a random order
                    r = j + rng.randrange(len(pool) - j)
                    pool[j], pool[r] = pool[r], pool[j]
                    hand |= 1 << pool[j]
            w = _replay(hand, clues, now, rng)
            if w > 0.0:
                held.append(hand)
                weight.append(w)
        self.held = held
        self.weight = weight
        self.total = sum(weight)
        # the samples' worth: the effective number (sum w)^2 / sum w^2
        square = sum(w * w for w in weight)
        self.ess = self.total * self.total / square if square > 0.0 else 0.0

    def danger(self, c: int) -> float:
        hit = self.cache.get(c)
        if hit is not None:
            return hit
        acc = 0.0
        masks = PAIR_MASKS[c]
        for hand, w in zip(self.held, self.weight):
            for m in masks:
                if hand & m == m:
                    acc += w
                    break
        share = acc / self.total if self.total > 0.0 else 0.0
        out = (share * self.ess + PRIOR * self.k.danger(c)) / (self.ess + PRIOR)
        self.cache[c] = out
        return out


def _replay(hand: int, clues: list[tuple[str, int, int]], now: int, rng: random.Random) -> float:
    """The weight of the opponent's hand ``hand`` (now): the deal replayed backwards
    over its clues (newest first), each weighed on the hand it held at that moment."""
    w = 1.0
    draws = now
    public = 0  # cards in the hand that it is known to have taken from the pile
    for kind, card, before in clues:
        if kind == "picked":
            public |= 1 << card
    for kind, card, before in clues:
        while draws > before:  # undo a stock draw: one of the cards of unknown origin
            free = hand & ~public
            if free:  # its n-th card, n uniform below their count (in card order)
                for _ in range(rng.randrange(free.bit_count())):
                    free &= free - 1
                hand &= ~(free & -free)
            draws -= 1
        bit = 1 << card
        if kind == "discarded":
            if F_HIGHER != 1.0:
                points = POINTS[card]
                for x in bits(hand):
                    if POINTS[x] > points and not hand & NEAR_MASK[x]:
                        w *= F_HIGHER
            hand |= bit
            if _melds(hand & ~bit, card):
                w *= F_DISCARD
            elif hand & NEAR_MASK[card]:
                w *= F_DISCARD_NEAR
        elif kind == "picked":
            hand &= ~bit
            public &= ~bit
            if not _melds(hand, card):
                w *= F_PICK_PAIR if hand & NEAR_MASK[card] else F_PICK_NONE
        elif _melds(hand, card):  # refused
            w *= F_REFUSED
        elif hand & NEAR_MASK[card]:
            w *= F_REFUSED_NEAR
    return w
