"""Difícil's danger: the chance that a card would complete a meld of the
opponent now, read from everything the opponent has shown in this deal.

A card ``c`` completes a meld of the opponent exactly when the opponent holds
one of the *pairs* that make a meld with it: two more of its rank, or two
cards of its suit next to it.  So the danger looks at the seven cards that
can share a meld with ``c`` (its *slots*: the three others of its rank, and
the cards one and two ranks away in its suit) and at the six pairs they form,
and a logistic regression (``danger_data``: one weight per input, plain Python
numbers) turns what is known of them into a probability.

What the opponent has shown, each clue with its time (how many cards the
opponent has drawn from the stock since: a card drawn since may have changed
what it holds):

- a **refused** card ``X`` (the upcard passed, or the stock drawn over ``X``
  on the pile) says it held no pair that melds with ``X`` *then*; a card it
  **discarded** was loose in what it kept: the pairs around either are
  *refuted* until it draws again;
- a card it **picked up** says it had a meld or a pair around it: each pair
  that could have been the reason shares the credit (``support``);
- the cards seen dead, in our hand or in the pile, hold no pair at all, and
  the cards around each slot (dead, unseen, thrown or refused by the
  opponent) say how likely it is to keep that slot;
- hard's belief (``Knowledge.opp_prob``) and its danger (``Knowledge.danger``),
  the card's points, the stock left, the points of the opponent's last
  discard.

Every input is computed from the view alone (through ``Knowledge``): the
model was fitted offline on positions of hard0 against every style of the
arena's pool and against itself, whose truth (the opponent's hand) only the
training script reads (``bench/tune/tune_danger.py``, which writes
``danger_data.py``).  Nothing here is random, and the arithmetic is a fixed
sequence of additions and multiplications (a ``log`` and an ``exp`` per card),
so CPython and Pyodide agree.
"""

from __future__ import annotations

from math import exp, log

from . import danger_data
from .knowledge import NEAR1, POINTS, Knowledge, bits

__all__ = ["Danger", "PAIRS", "FEATURES", "card_features"]


def _pairs_of(c: int) -> tuple[tuple[int, int, int], ...]:
    """``(a, b, kind)`` with ``{a, b, c}`` a meld; kind 0 set, 1 run end, 2 run gap (c inside)."""
    rank, suit = c % 13, c // 13
    same = [13 * s + rank for s in range(4) if s != suit]
    out = [(same[i], same[j], 0) for i in range(3) for j in range(i + 1, 3)]
    for lo, hi, kind in ((-2, -1, 1), (1, 2, 1), (-1, 1, 2)):
        if 0 <= rank + lo and rank + hi < 13:
            out.append((c + lo, c + hi, kind))
    return tuple(out)


#: For each card, the pairs of cards that make a meld with it.
PAIRS = tuple(_pairs_of(c) for c in range(52))


def _completing() -> dict[tuple[int, int], int]:
    """For each pair ``(a, b)`` (both orders), the mask of cards ``X`` with ``{a, b, X}`` a meld."""
    out: dict[tuple[int, int], int] = {}
    for x in range(52):
        for a, b, _ in PAIRS[x]:
            out[(a, b)] = out.get((a, b), 0) | 1 << x
            out[(b, a)] = out.get((b, a), 0) | 1 << x
    return out


_COMPLETE = _completing()

_GLOBAL = ("points", "rank", "stock", "opp_draws", "last_points", "no_last", "opp_discards", "opp_known",
           "base_rate", "belief_danger", "belief_logit")
_SLOT = ("mine", "dead", "known", "unseen", "off", "discarded", "refused", "picked", "my_discard", "belief",
         "near_discarded", "near_refused", "near_picked", "near_dead", "near_unseen", "near_mine", "slot_points")
_PAIR = ("possible", "both_known", "one_known", "refuted_refused", "refuted_discarded", "refutations",
         "support_pair", "support_card", "belief_pair")
#: The model's inputs, in order: the card's, then each of its seven slots'
#: (the three of its rank, sorted; then ranks -2, -1, +1, +2), then each of
#: its six pairs' (the three of its rank; then -2-1, +1+2, -1+1).
FEATURES = (
    _GLOBAL
    + tuple(f"slot{i}_{n}" for i in range(7) for n in _SLOT)
    + tuple(f"pair{i}_{n}" for i in range(6) for n in _PAIR)
)
_OFF = [0.0, 0.0, 0.0, 0.0, 1.0] + [0.0] * (len(_SLOT) - 5)
_NO_PAIR = [0.0] * len(_PAIR)


class Danger:
    """``Danger(k).danger(c)``: P(card ``c`` would complete a meld of the opponent now).

    Built once per decision from the seat's ``Knowledge``; each card's value,
    and each slot's inputs, are computed once."""

    __slots__ = ("k", "prob", "since", "my_discards", "picked_order", "against", "support_pair", "support_card",
                 "glob", "slots", "cache")

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        self.prob = k.opp_prob()
        self._read_clues(k)
        hidden = max(0, k.opp_count - k.opp_known.bit_count())
        unseen = k.unseen.bit_count()
        last = None
        for kind, card, draws in k.opp_clues:
            if kind == "discarded":
                last = POINTS[card] if draws == k.opp_draws else None
        self.glob = [
            k.stock_count / 31.0, k.opp_draws / 10.0, 0.0 if last is None else last / 10.0,
            1.0 if last is None else 0.0, k.opp_discards.bit_count() / 10.0, k.opp_known.bit_count() / 5.0,
            hidden / unseen if unseen else 0.0,
        ]
        self.slots: dict[int, list[float]] = {}
        self.cache: dict[int, float] = {}

    def _read_clues(self, k: Knowledge) -> None:
        """Each clue card's recency, the refutations, and each pick-up's credit."""
        # kind -> {card: 1 / (1 + stock draws since)}
        self.since: dict[str, dict[int, float]] = {"discarded": {}, "refused": {}, "picked": {}}
        self.picked_order: dict[int, int] = {}
        # (0 refused | 1 discarded, card, draws since, order)
        self.against: list[tuple[int, int, int, int]] = []
        for order, (kind, card, draws) in enumerate(k.opp_clues):
            since = k.opp_draws - draws
            self.since[kind][card] = 1.0 / (1 + since)
            if kind == "picked":
                self.picked_order[card] = order
            else:
                self.against.append((0 if kind == "refused" else 1, card, since, order))
        self.my_discards = k.my_discards
        self.support_pair: dict[tuple[int, int], float] = {}
        self.support_card: dict[tuple[int, int], float] = {}
        held = k.opp_known
        possible_now = k.unseen | held
        for at, (kind, z, _) in enumerate(k.opp_clues):
            if kind != "picked":
                continue
            # what it could have held when it picked z up: unseen now, picked up before,
            # or thrown away since
            possible = k.unseen
            for card in bits(held):
                if self.picked_order.get(card, 1 << 30) < at:
                    possible |= 1 << card
            for order, (kind2, card, _) in enumerate(k.opp_clues):
                if kind2 == "discarded" and order > at:
                    possible |= 1 << card
            reasons = [(a, b) for a, b, _ in PAIRS[z] if (possible >> a) & 1 and (possible >> b) & 1]
            if not reasons:
                continue
            share = 1.0 / len(reasons)
            for a, b in reasons:
                if (possible_now >> a) & 1 and (possible_now >> b) & 1:
                    self.support_pair[(a, b)] = self.support_pair.get((a, b), 0.0) + share
                for u in (a, b):
                    self.support_card[(z, u)] = self.support_card.get((z, u), 0.0) + share

    def _slot(self, x: int) -> list[float]:
        hit = self.slots.get(x)
        if hit is not None:
            return hit
        k = self.k
        bit = 1 << x
        near = NEAR1[x]
        status = [0.0] * 5
        status[0 if k.hand & bit else 1 if k.dead & bit else 2 if k.opp_known & bit else 3 if k.unseen & bit else 1] = 1.0
        since = self.since
        out = status + [
            since["discarded"].get(x, 0.0), since["refused"].get(x, 0.0), since["picked"].get(x, 0.0),
            1.0 if self.my_discards & bit else 0.0, self.prob[x],
            (near & k.opp_discards).bit_count() / 3.0, (near & k.opp_refused).bit_count() / 3.0,
            (near & k.opp_picked).bit_count() / 3.0, (near & k.dead).bit_count() / 3.0,
            (near & k.unseen).bit_count() / 3.0, (near & k.hand).bit_count() / 3.0, POINTS[x] / 10.0,
        ]
        self.slots[x] = out
        return out

    def _pair(self, a: int, b: int) -> list[float]:
        k = self.k
        held = k.opp_known
        possible = k.unseen | held
        if not ((possible >> a) & 1 and (possible >> b) & 1):
            return _NO_PAIR
        a_known, b_known = (held >> a) & 1, (held >> b) & 1
        if a_known and b_known:
            return [1.0, 1.0] + [0.0] * (len(_PAIR) - 2)
        complete = _COMPLETE[(a, b)]
        pa, pb = self.picked_order.get(a, -1), self.picked_order.get(b, -1)
        best = [0.0, 0.0]
        n = 0
        for which, x, since, order in self.against:
            if (complete >> x) & 1 and pa < order and pb < order:
                n += 1
                best[which] = max(best[which], 1.0 / (1 + since))
        card = 0.0
        if a_known:
            card = self.support_card.get((a, b), 0.0)
        elif b_known:
            card = self.support_card.get((b, a), 0.0)
        pair = self.support_pair.get((a, b), 0.0) + self.support_pair.get((b, a), 0.0)
        return [1.0, 0.0, 1.0 if a_known or b_known else 0.0, best[0], best[1], min(n, 3) / 3.0, pair, card,
                self.prob[a] * self.prob[b]]

    def features(self, c: int) -> list[float]:
        """The model's inputs for card ``c`` (in the order of ``FEATURES``)."""
        k = self.k
        rank, suit = c % 13, c // 13
        glob = self.glob
        old = k.danger(c)
        p = min(max(old, 1e-4), 1.0 - 1e-4)
        out = [POINTS[c] / 10.0, rank / 12.0, *glob, old, log(p / (1.0 - p))]
        same = [13 * s + rank for s in range(4) if s != suit]
        slot = self._slot
        # the three of its rank are alike: sorted by what is known of them
        same.sort(key=lambda x: (slot(x)[:5], -self.prob[x], x))
        for x in same:
            out += slot(x)
        for d in (-2, -1, 1, 2):
            out += slot(c + d) if 0 <= rank + d < 13 else _OFF
        pair = self._pair
        out += pair(same[0], same[1]) + pair(same[0], same[2]) + pair(same[1], same[2])
        for lo, hi in ((-2, -1), (1, 2), (-1, 1)):
            out += pair(c + lo, c + hi) if 0 <= rank + lo and rank + hi < 13 else _NO_PAIR
        return out

    def danger(self, c: int) -> float:
        hit = self.cache.get(c)
        if hit is not None:
            return hit
        out = _model(self.features(c))
        self.cache[c] = out
        return out


def card_features(k: Knowledge, c: int) -> list[float]:
    """The danger model's inputs for card ``c`` in the position ``k``."""
    return Danger(k).features(c)


def _model(x: list[float]) -> float:
    """The fitted model: a logistic regression on the inputs (their scaling folded in)."""
    z = danger_data.B
    for xj, w in zip(x, danger_data.W):
        if xj:
            z += xj * w
    if z >= 0:
        return 1.0 / (1.0 + exp(-z))
    e = exp(z)
    return e / (1.0 + e)
