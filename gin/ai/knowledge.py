"""What a seat knows, read from its view only: masks, the public history, and
a belief about the opponent's hidden cards.

Everything works on 52-bit masks (see ``gin.cards``).  ``Knowledge.of(view)``
never looks at anything but the view's own fields; the seed is not read.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..cards import ALL_CARDS, mask_bits

INDEX = {str(c): c.index for c in ALL_CARDS}
POINTS = tuple(c.points for c in ALL_CARDS)
FULL = (1 << 52) - 1

#: The belief's factors per card next to one the opponent threw away, refused,
#: picked up (fitted across the arena's pool by bench/tune_belief.py).
F_DISCARD = 0.55
F_REFUSED = 0.7
F_PICKED = 1.8


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << INDEX[c]
    return m


#: The bit indices of a mask, ascending.
bits = mask_bits


def _neighbours(i: int, reach: int) -> int:
    """Same rank in the other suits, and same suit within ``reach`` ranks."""
    rank, suit = i % 13, i // 13
    m = 0
    for s in range(4):
        if s != suit:
            m |= 1 << (13 * s + rank)
    for d in range(-reach, reach + 1):
        if d and 0 <= rank + d < 13:
            m |= 1 << (13 * suit + rank + d)
    return m


#: Cards that can share a meld with card i (same rank, or same suit within 2).
NEAR2 = tuple(_neighbours(i, 2) for i in range(52))
#: Same rank, or same suit within 1 (the cards a discard most directly tells about).
NEAR1 = tuple(_neighbours(i, 1) for i in range(52))
#: Pairs of cards that complete a meld with card i: (a, b) masks.
_SAME_RANK = tuple(
    tuple(13 * s + i % 13 for s in range(4) if s != i // 13) for i in range(52)
)


def _run_pairs(i: int) -> tuple[tuple[int, int], ...]:
    rank, suit = i % 13, i // 13
    out = []
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        if 0 <= rank + a < 13 and 0 <= rank + b < 13:
            out.append((13 * suit + rank + a, 13 * suit + rank + b))
    return tuple(out)


RUN_PAIRS = tuple(_run_pairs(i) for i in range(52))


def view_key(view: dict[str, Any]) -> bytes:
    """A digest of the decision's public position (not the seed): for seeded choices."""
    data = [
        view.get("seat"),
        view.get("deal_number"),
        view.get("phase"),
        view.get("hand"),
        view.get("discard"),
        view.get("events"),
        view.get("scores"),
        view.get("taken"),
        view.get("drawn"),
    ]
    return hashlib.sha256(json.dumps(data, separators=(",", ":")).encode()).digest()


def seeded_index(view: dict[str, Any], n: int, salt: str = "") -> int:
    """A uniform-ish index in 0..n-1 drawn from the view itself."""
    digest = hashlib.sha256(view_key(view) + salt.encode()).digest()
    return int.from_bytes(digest[:8], "big") % n


class Knowledge:
    """The seat's hand and the public record of the deal, as masks."""

    __slots__ = (
        "seat",
        "hand",
        "phase",
        "taken",
        "top",
        "pile",
        "dead",
        "opp_known",
        "opp_count",
        "unseen",
        "stock_count",
        "opp_discards",
        "opp_refused",
        "opp_picked",
        "knock_limit",
        "big_gin",
        "opp_clues",
        "opp_draws",
        "my_discards",
        "_opp_prob",
    )

    def __init__(self, view: dict[str, Any]) -> None:
        self.seat = view["seat"]
        self.hand = mask_of(view["hand"])
        self.phase = view["phase"]
        self.taken = INDEX[view["taken"]] if view.get("taken") else None
        pile = [INDEX[c] for c in view["discard"]]
        self.pile = pile
        self.top = pile[-1] if pile else None
        self.dead = 0
        for i in pile:
            self.dead |= 1 << i
        self.opp_known = mask_of(view["opponent"]["known"])
        self.opp_count = view["opponent"]["count"]
        self.unseen = FULL & ~(self.hand | self.dead | self.opp_known)
        self.stock_count = view["stock_count"]
        rules = view.get("rules") or {}
        # The deal's own limit (Oklahoma: its first upcard; 0: gin only).
        self.knock_limit = view.get("knock_limit", rules.get("knock_limit", 10))
        self.big_gin = rules.get("big_gin_bonus") is not None
        self._read_events(view.get("events") or [], pile)
        self._opp_prob: list[float] | None = None

    def _read_events(self, events: list[dict[str, Any]], pile: list[int]) -> None:
        """Replay the public events over the pile to learn what the opponent refused."""
        opp = 1 - self.seat
        # Undo the events to find the pile at the start (the upcard).
        start = list(pile)
        for e in reversed(events):
            t = e.get("type")
            if t in ("discard", "knock") and "card" in e:
                if start and start[-1] == INDEX[e["card"]]:
                    start.pop()
            elif t == "take" or (t == "draw" and e.get("from") == "discard"):
                start.append(INDEX[e["card"]])
        cur = start
        discards = 0
        refused = 0
        picked = 0
        passes = 0
        forced = False  # the first draw after two passes must be from the stock
        # (kind, card, the opponent's stock draws before it): its clues in order
        clues: list[tuple[str, int, int]] = []
        draws = 0
        mine = 0
        for e in events:
            t = e.get("type")
            seat = e.get("seat")
            if t == "pass":
                passes += 1
                forced = passes == 2
                if seat == opp and cur:
                    refused |= 1 << cur[-1]
                    clues.append(("refused", cur[-1], draws))
            elif t == "take":
                if cur:
                    cur.pop()
                if seat == opp:
                    picked |= 1 << INDEX[e["card"]]
                    clues.append(("picked", INDEX[e["card"]], draws))
            elif t == "draw":
                if e.get("from") == "discard":
                    if cur:
                        cur.pop()
                    if seat == opp:
                        picked |= 1 << INDEX[e["card"]]
                        clues.append(("picked", INDEX[e["card"]], draws))
                elif seat == opp:
                    if cur and not forced:
                        refused |= 1 << cur[-1]
                        clues.append(("refused", cur[-1], draws))
                    draws += 1
                forced = False
            elif t in ("discard", "knock") and "card" in e:
                cur.append(INDEX[e["card"]])
                if seat == opp:
                    discards |= 1 << INDEX[e["card"]]
                    clues.append(("discarded", INDEX[e["card"]], draws))
                elif seat == self.seat:
                    mine |= 1 << INDEX[e["card"]]
        self.opp_discards = discards
        self.opp_refused = refused
        self.opp_picked = picked
        self.opp_clues = clues
        self.opp_draws = draws
        self.my_discards = mine

    # -- belief ---------------------------------------------------------------

    def opp_prob(self) -> list[float]:
        """P(card in the opponent's hidden cards) for every card (1 for known, 0 for seen)."""
        if self._opp_prob is not None:
            return self._opp_prob
        hidden = max(0, self.opp_count - self.opp_known.bit_count())
        unseen = bits(self.unseen)
        weight = {}
        for i in unseen:
            w = 1.0
            near = NEAR1[i]
            # A card next to what they threw away or refused is less likely held.
            for m, f in ((self.opp_discards, F_DISCARD), (self.opp_refused, F_REFUSED)):
                k = (near & m).bit_count()
                if k:
                    w *= f**k
            k = (NEAR2[i] & self.opp_picked).bit_count()
            if k:
                w *= F_PICKED**k
            weight[i] = w
        total = sum(weight.values())
        prob = [0.0] * 52
        for i in bits(self.opp_known):
            prob[i] = 1.0
        if total > 0 and hidden:
            scale = hidden / total
            for i, w in weight.items():
                prob[i] = min(0.95, w * scale)
        self._opp_prob = prob
        return prob

    def danger(self, i: int) -> float:
        """P(the opponent can meld card i now): a pair of its cards that i completes."""
        p = self.opp_prob()
        same = [p[j] for j in _SAME_RANK[i]]
        a, b, c = same
        p_set = a * b + a * c + b * c - 2 * a * b * c
        miss = 1.0 - p_set
        for x, y in RUN_PAIRS[i]:
            miss *= 1.0 - p[x] * p[y]
        return 1.0 - miss
