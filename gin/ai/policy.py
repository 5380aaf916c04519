"""The levels' decisions.  Each ``decide_*`` takes a view and returns
``(action, reason)``; ``gin.ai.choose`` keeps the action, ``hint`` both.

The hand evaluation of ``normal`` and ``hard`` is built on gin.melds'
bitmask solver: a 10-card hand is scored by the deadwood it can expect
after the next draw (one ply over the unseen cards, each weighted by the
chance that it is in the stock), so pairs and run draws with live outs are
kept and dead cards go first.
"""

from __future__ import annotations

from typing import Any, Callable

from ..melds import _meld_masks, _packings, discard_deadwood_masks, least_discard, mask_value, meld_kind, solve
from .habits import knock_deadwoods
from .knock import knock_call
from .pool import DECIDE_POOL
from .knowledge import _SAME_RANK, NEAR2, POINTS, RUN_PAIRS, Knowledge, bits, mask_of, seeded_index

Action = dict[str, Any]
Decision = tuple[Action, str]



def _name(i: int) -> str:
    from ..cards import ALL_CARDS

    return str(ALL_CARDS[i])


_NAMES = [_name(i) for i in range(52)]


def _melds_json(masks) -> list[list[str]]:
    from ..melds import Arrangement

    # Arrangement sorts melds and cards in the engine's fixed order.
    arr = Arrangement.from_masks(_union(masks), masks)
    return [[str(c) for c in m] for m in arr.melds]


def _union(masks) -> int:
    u = 0
    for m in masks:
        u |= m
    return u


def _kinds(view: dict[str, Any]) -> set[str]:
    return {a["type"] for a in view["legal"]}


def _joins_a_meld(hand: int, card: int) -> bool:
    """Could ``card`` be part of some meld made with cards of ``hand``?  The
    Simple player's test: any meld, not only one of the best arrangement."""
    if sum((hand >> j) & 1 for j in _SAME_RANK[card]) >= 2:
        return True
    return any((hand >> a) & 1 and (hand >> b) & 1 for a, b in RUN_PAIRS[card])


#: The pairs of cards (as two one-card masks) that make a meld of three with card i.
_MELD_PAIRS = tuple(
    tuple((1 << a, 1 << b) for n, a in enumerate(_SAME_RANK[i]) for b in _SAME_RANK[i][n + 1 :])
    + tuple((1 << a, 1 << b) for a, b in RUN_PAIRS[i])
    for i in range(52)
)


def _joinable(hand: int) -> int:
    """The cards that make a meld of three with two cards of ``hand`` (as a mask; a
    card of the hand is in it only if it does too): a meld that holds a card holds
    such a three."""
    s0 = hand & 0x1FFF
    s1 = (hand >> 13) & 0x1FFF
    s2 = (hand >> 26) & 0x1FFF
    s3 = hand >> 39
    two = (s0 & s1) | (s2 & s3) | ((s0 | s1) & (s2 | s3))  # the ranks held in two suits or more
    out = two | two << 13 | two << 26 | two << 39
    for shift, s in ((0, s0), (13, s1), (26, s2), (39, s3)):
        out |= ((((s >> 1) & (s << 1)) | ((s << 1) & (s << 2)) | ((s >> 1) & (s >> 2))) & 0x1FFF) << shift
    return out


def _in_meld(mask: int, card: int) -> bool:
    """Is ``card`` in a meld of the best arrangement of ``mask``?"""
    for m in solve(mask)[1]:
        if (m >> card) & 1:
            return True
    return False


# --------------------------------------------------------------------------
# Knocking


def _knock_options(k: Knowledge, hand: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """Every legal knock: ``(discard, deadwood, meld masks)`` over all arrangements."""
    out = []
    limit = k.knock_limit
    for i, points in discard_deadwood_masks(hand).items():
        if i == k.taken or points > limit:
            continue
        rest = hand & ~(1 << i)
        value = mask_value(rest)
        for packing in _packings(_meld_masks(rest)):
            dw = value - mask_value(_union(packing))
            if dw <= limit:
                out.append((i, dw, packing))
    return out


def _layoff_risk(k: Knowledge, packing: tuple[int, ...], prob: list[float]) -> float:
    """Expected points the defender lays off on these melds."""
    risk = 0.0
    for m in packing:
        if meld_kind(m) == "run":
            low = (m & -m).bit_length() - 1
            high = m.bit_length() - 1
            base = low - low % 13
            p = 1.0
            i = low - 1
            while i >= base and p > 0.01:
                p *= prob[i]
                risk += p * POINTS[i]
                i -= 1
            p = 1.0
            i = high + 1
            while i < base + 13 and p > 0.01:
                p *= prob[i]
                risk += p * POINTS[i]
                i += 1
        elif m.bit_count() == 3:
            rank = ((m & -m).bit_length() - 1) % 13
            for s in range(4):
                i = 13 * s + rank
                if not (m >> i) & 1:
                    risk += prob[i] * POINTS[i]
    return risk


def _best_knock(k: Knowledge, hand: int, slack: int) -> tuple[int, int, tuple[int, ...]] | None:
    """The knock to declare: least deadwood plus expected layoffs (within ``slack`` points)."""
    options = _knock_options(k, hand)
    if not options:
        return None
    least = min(dw for _, dw, _ in options)
    prob = k.opp_prob()
    best = None
    best_key = None
    for i, dw, packing in options:
        if dw > least + slack:
            continue
        risk = 0.0 if dw == 0 else _layoff_risk(k, packing, prob)
        key = (dw + risk, dw, -POINTS[i], i)
        if best_key is None or key < best_key:
            best_key, best = key, (i, dw, packing)
    return best


def _knock_action(i: int, packing: tuple[int, ...]) -> Action:
    return {"type": "knock", "card": _NAMES[i], "melds": _melds_json(packing)}


def _big_gin(view: dict[str, Any]) -> Action | None:
    for a in view["legal"]:
        if a["type"] == "big_gin":
            return a
    return None


def _simple_knock(view: dict[str, Any]) -> Action | None:
    """The engine's proposed knock with the least deadwood (first in fixed order)."""
    best = None
    best_dw = None
    for a in view["legal"]:
        if a["type"] == "knock":
            dw = view["discard_deadwood"][a["card"]]
            if best is None or dw < best_dw:
                best, best_dw = a, dw
    return best


# --------------------------------------------------------------------------
# baseline: the EAAI "Simple" player


def decide_baseline(view: dict[str, Any]) -> Decision:
    kinds = _kinds(view)
    hand = mask_of(view["hand"])
    if "take" in kinds or ("draw" in kinds and len(view["legal"]) > 1):
        t = mask_of(view["discard"][-1:]).bit_length() - 1
        wants = _joins_a_meld(hand, t)
        if "take" in kinds:
            return ({"type": "take"}, "completes_meld") if wants else ({"type": "pass"}, "pass_upcard")
        if wants:
            return {"type": "draw", "from": "discard"}, "completes_meld"
        return {"type": "draw", "from": "stock"}, "draw_stock"
    if "draw" in kinds:
        return {"type": "draw", "from": "stock"}, "draw_stock"
    big = _big_gin(view)
    if big is not None:
        return big, "big_gin_available"
    knock = _simple_knock(view)
    if knock is not None:
        dw = view["discard_deadwood"][knock["card"]]
        return knock, "gin_available" if dw == 0 else "knock_now"
    dd = view["discard_deadwood"]
    taken = view.get("taken")
    options = [c for c in view["hand"] if c != taken]
    least = min(dd[c] for c in options)
    ties = [c for c in options if dd[c] == least]
    card = ties[seeded_index(view, len(ties), "baseline")]
    return {"type": "discard", "card": card}, "min_deadwood"


# --------------------------------------------------------------------------
# random: a uniformly random legal player (arena only)


def decide_random(view: dict[str, Any]) -> Decision:
    legal = view["legal"]
    return legal[seeded_index(view, len(legal), "random")], "random"


# --------------------------------------------------------------------------
# easy: a casual beginner


def decide_easy(view: dict[str, Any]) -> Decision:
    """Takes only what completes a meld, throws away its highest loose card most
    of the time (a random loose card otherwise), knocks as soon as it can."""
    kinds = _kinds(view)
    if kinds & {"take", "draw"}:
        return decide_baseline(view)
    big = _big_gin(view)
    if big is not None:
        return big, "big_gin_available"
    knock = _simple_knock(view)
    if knock is not None:
        return knock, "gin_available" if view["discard_deadwood"][knock["card"]] == 0 else "knock_now"
    hand = mask_of(view["hand"])
    taken = view.get("taken")
    melded = _union(solve(hand)[1])
    loose = [c for c in view["hand"] if c != taken and not (mask_of([c]) & melded)]
    if not loose:
        return decide_baseline(view)
    if seeded_index(view, 100, "easy-slip") < 50:
        card = loose[seeded_index(view, len(loose), "easy-pick")]
        return {"type": "discard", "card": card}, "high_deadwood"
    top_points = max(POINTS[mask_of([c]).bit_length() - 1] for c in loose)
    high = [c for c in loose if POINTS[mask_of([c]).bit_length() - 1] == top_points]
    card = high[seeded_index(view, len(high), "easy-high")]
    return {"type": "discard", "card": card}, "high_deadwood"


# --------------------------------------------------------------------------
# Hand evaluation shared by normal and hard


#: The most deadwood any cards have (the whole deck's points).
_MAX_DEADWOOD = sum(POINTS)
#: ``Evaluator.f`` of every deadwood, by (knock limit, knock bonus, gin bonus).
_F_TABLES: dict[tuple, tuple[float, ...]] = {}


class Evaluator:
    """Scores 10-card hands by the deadwood expected after the next draw."""

    def __init__(
        self, k: Knowledge, *, use_belief: bool, knock_bonus: float, gin_bonus: float, horizon: float = 1.0
    ) -> None:
        self.k = k
        self.horizon = horizon
        self.limit = k.knock_limit
        self.knock_bonus = knock_bonus
        self.gin_bonus = gin_bonus
        unseen = bits(k.unseen)
        if use_belief:
            prob = k.opp_prob()
            w = {c: 1.0 - prob[c] for c in unseen}
        else:
            w = {c: 1.0 for c in unseen}
        total = sum(w.values()) or 1.0
        self.weight = {c: x / total for c, x in w.items()}
        self.unseen = k.unseen
        by_points = [0.0] * 11
        for c, x in self.weight.items():
            by_points[POINTS[c]] += x
        self.by_points = [(p, x) for p, x in enumerate(by_points) if x > 0]
        self.cache: dict[int, float] = {}
        key = (self.limit, knock_bonus, gin_bonus, type(knock_bonus), type(gin_bonus))
        table = _F_TABLES.get(key)
        if table is None:
            table = _F_TABLES[key] = tuple(self.f(d) for d in range(_MAX_DEADWOOD + 1))
        #: ``f`` of every deadwood, read rather than called.
        self.ft = table
        #: The expected score of a hand's next draw before the drawn card melds, by
        #: ``(deadwood, least discard's deadwood)`` (the first loop of ``value``).
        self.plain: dict[int, float] = {}

    def f(self, d: int) -> float:
        if d > self.limit:
            return float(d)
        if d == 0:
            return -self.knock_bonus - self.gin_bonus
        return d - self.knock_bonus

    def _plain(self, d0: int, least: int) -> float:
        key = d0 << 9 | least
        total = self.plain.get(key)
        if total is None:
            ft = self.ft
            total = 0.0
            for p, x in self.by_points:
                total += x * ft[min(d0, least + p)]
            self.plain[key] = total
        return total

    def value(self, hand: int) -> float:
        hit = self.cache.get(hand)
        if hit is not None:
            return hit
        ft = self.ft
        # A hand after a stock draw (_stock_value's) holds the card it drew.  If that
        # card melds with none of the others, it is deadwood in every hand it is in
        # until a card comes that melds with it and one of the others: such hands are
        # solved as the others (the same for every card _stock_value draws, so their
        # answers are remembered) plus its points.
        drawn = hand & self.unseen
        others = 0
        if drawn and not drawn & (drawn - 1) and drawn != hand and not _joinable(hand ^ drawn) & drawn:
            others = hand ^ drawn
            drawn_points = POINTS[drawn.bit_length() - 1]
            partners = 0  # the cards that meld with the drawn card and one of the others
            for a, b in _MELD_PAIRS[drawn.bit_length() - 1]:
                if others & a:
                    partners |= b
                elif others & b:
                    partners |= a
            rest_d0 = solve(others)[0]
            d0 = rest_d0 + drawn_points
            least = min(rest_d0, least_discard(others)[0] + drawn_points)  # throw it, or another
        else:
            d0 = solve(hand)[0]
            least = least_discard(hand)[0]
        total = self._plain(d0, least)
        # A card that melds with no two cards of the hand stays deadwood whatever is
        # thrown, so the hand with it gets no better than ``plain``: only the cards
        # that meld with two of the hand are drawn here (and the hand's own, which
        # the hands after a draw hold), in the same order.
        weight = self.weight
        rest = (_joinable(hand) | hand) & self.unseen
        while rest:
            low = rest & -rest
            rest ^= low
            c = low.bit_length() - 1
            if hand & low:
                if (NEAR2[c] & hand).bit_count() < 2:
                    continue
                after = least  # the hand with c is the hand
            elif others and not low & partners:
                with_c = others | low
                after = min(solve(with_c)[0], least_discard(with_c)[0] + drawn_points)
            else:
                after = least_discard(hand | low)[0]
            plain = min(d0, least + POINTS[c])
            if after < plain:
                total += weight[c] * (ft[after] - ft[plain])
        if self.horizon != 1.0:
            # the improvement of one draw, scaled as if several draws were to come
            base = ft[d0]
            total = base + self.horizon * (total - base)
        self.cache[hand] = total
        return total


def _potential(k: Knowledge, hand: int) -> float:
    """Cheap hand potential (normal): live cards that would meld with two loose cards."""
    d, packing = solve(hand)
    melded = _union(packing)
    loose = hand & ~melded
    live = k.unseen
    outs = 0
    for i in bits(loose):
        rank, suit = i % 13, i // 13
        # pairs of a rank: the two other cards of that rank
        for s in range(4):
            j = 13 * s + rank
            if s != suit and (loose >> j) & 1 and j > i:
                outs += ((live >> (rank)) & 1) + ((live >> (13 + rank)) & 1) + ((live >> (26 + rank)) & 1) + (
                    (live >> (39 + rank)) & 1
                )
        if rank + 1 < 13 and (loose >> (i + 1)) & 1:
            if rank >= 1 and (live >> (i - 1)) & 1:
                outs += 1
            if rank + 2 < 13 and (live >> (i + 2)) & 1:
                outs += 1
        if rank + 2 < 13 and (loose >> (i + 2)) & 1 and (live >> (i + 1)) & 1:
            outs += 1
    # meld extensions (run ends, fourth of a set) are outs for low deadwood too
    ext = 0
    for m in packing:
        if meld_kind(m) == "run":
            low = (m & -m).bit_length() - 1
            high = m.bit_length() - 1
            if low % 13 and (live >> (low - 1)) & 1:
                ext += 1
            if high % 13 != 12 and (live >> (high + 1)) & 1:
                ext += 1
        elif m.bit_count() == 3:
            rank = ((m & -m).bit_length() - 1) % 13
            ext += sum(1 for s in range(4) if (live >> (13 * s + rank)) & 1)
    return d - 1.2 * outs - 0.3 * ext


# --------------------------------------------------------------------------
# normal and hard


class Params:
    def __init__(self, **kw: Any) -> None:
        self.__dict__.update(kw)

    def but(self, **kw: Any) -> "Params":
        """A copy with some values changed."""
        return Params(**{**self.__dict__, **kw})


NORMAL = Params(danger=4.0, slip=25)
HARD = Params(danger=3.0, knock_bonus=4.0, gin_bonus=2.0, take_margin=0.0, layoff_slack=2, horizon=1.0, deep=1, late_stock=12, late_knock=6, outs=0.0,
    gin_wait=4, gin_wait_stock=6, model=1, hazard=1.0, score_aware=1,
    margin={"traditional": -3.0, "standard": -6.0, "custom": -3.0}, danger_model=0, habit=0)


def _hand_score_normal(k: Knowledge, hand: int, card: int) -> float:
    score = _potential(k, hand)
    # avoid feeding the opponent: neighbours of what it picked up
    if NEAR2[card] & k.opp_picked:
        score += NORMAL.danger
    return score


def decide_normal(view: dict[str, Any]) -> Decision:
    k = Knowledge(view)
    kinds = _kinds(view)
    hand = k.hand
    if "take" in kinds or ("draw" in kinds and len(view["legal"]) > 1):
        t = k.top
        with_top = hand | (1 << t)
        best = min(_hand_score_normal(k, with_top & ~(1 << d), d) for d in bits(hand))
        stay = _potential(k, hand) - 1.0
        take = best < stay - 2.0 or _in_meld(with_top, t)
        if "take" in kinds:
            return ({"type": "take"}, "take_upcard") if take else ({"type": "pass"}, "pass_upcard")
        if take:
            return {"type": "draw", "from": "discard"}, "completes_meld" if _in_meld(with_top, t) else "take_upcard"
        return {"type": "draw", "from": "stock"}, "draw_stock"
    if "draw" in kinds:
        return {"type": "draw", "from": "stock"}, "draw_stock"
    big = _big_gin(view)
    if big is not None:
        return big, "big_gin_available"
    knock = _simple_knock(view)
    if knock is not None:
        dw = view["discard_deadwood"][knock["card"]]
        # knocks early with low deadwood; late in the deal only when quite low
        if dw == 0 or dw <= 10 - (0 if k.stock_count > 12 else 4):
            return knock, "gin_available" if dw == 0 else "knock_now"
    scored = sorted(
        (_hand_score_normal(k, hand & ~(1 << d), d), -POINTS[d], d) for d in bits(hand) if d != k.taken
    )
    best = scored[0][2]
    # Now and then a solid player keeps the wrong card: the second choice
    # (never breaking a finished meld).
    if len(scored) > 1 and seeded_index(view, 100, "normal-slip") < NORMAL.slip:
        second = scored[1][2]
        if not (_union(solve(hand)[1]) >> second) & 1:
            best = second
    return {"type": "discard", "card": _NAMES[best]}, "min_deadwood"


def danger_of(k: Knowledge, p: Params) -> Callable[[int], float]:
    """The chance that a discard completes a meld of the opponent, as ``p`` reads it."""
    if p.danger_model == 2:
        from .sampler import Sampled  # imported on first use: hard0 (the page's hard) never needs it

        return Sampled(k).danger
    if p.danger_model:
        from .danger import Danger

        return Danger(k).danger
    return k.danger


def discard_scores(
    k: Knowledge, ev: Evaluator, hand: int, p: Params = HARD, danger: Callable[[int], float] | None = None
) -> list[tuple[float, int, int, float]]:
    """hard's score of every legal discard, best first, as ``(score, -points,
    card, plain)``: expected deadwood plus what the card may give the opponent
    (``plain`` leaves the opponent out); the few best are looked at one draw
    further.  The one place hard scores discards (``choose``, the hint and
    ``gin.ai.estimates`` all read it)."""
    danger = k.danger if danger is None else danger
    scored = []
    for d in bits(hand):
        if d == k.taken:
            continue
        rest = hand & ~(1 << d)
        v = ev.value(rest)
        if p.outs:
            v += p.outs * (_potential(k, rest) - solve(rest)[0])
        scored.append((v + p.danger * danger(d), -POINTS[d], d, v))
    scored.sort()
    if p.deep > 1 and len(scored) > 1:
        # look one draw further for the few best: the hand after the next draw
        # and its least-deadwood discard, scored again
        deep = []
        for key, neg, d, v in scored[: p.deep]:
            v2 = _stock_value(k, ev, hand & ~(1 << d))
            deep.append((v2 + (key - v), neg, d, v))
        deep.sort()
        scored = deep + scored[p.deep :]
    return scored


def _hard_discard(
    k: Knowledge, ev: Evaluator, hand: int, p: Params, danger: Callable[[int], float]
) -> tuple[int, float, int]:
    """The discard minimising expected deadwood plus what it may give the opponent,
    its score, and the discard that ignores the opponent (for the hint)."""
    scored = discard_scores(k, ev, hand, p, danger)
    key, _, d, v = scored[0]
    plain = min(scored, key=lambda s: (s[3], s[1], s[2]))
    return d, key, plain[2]


def _stock_value(k: Knowledge, ev: Evaluator, hand: int) -> float:
    """Expected score after drawing from the stock and discarding by least deadwood."""
    d0 = solve(hand)[0]
    least, least_card = least_discard(hand)
    joinable = _joinable(hand)
    total = 0.0
    for c, x in ev.weight.items():
        with_c = hand | (1 << c)
        if (joinable >> c) & 1:
            d = least_discard(with_c)[1]
            after = with_c & ~(1 << d)
        elif (NEAR2[c] & hand).bit_count() >= 2:
            # c melds with no two cards of the hand, so it stays deadwood: least_discard
            # of the hand with it throws c (leaving d0) or the hand's own least discard
            # (leaving least + its points), in least_discard's order on a tie
            keep = (least + POINTS[c], -POINTS[least_card], least_card)
            after = hand if (d0, -POINTS[c], c) < keep else with_c & ~(1 << least_card)
        elif d0 <= least + POINTS[c]:
            after = hand
        else:
            after = with_c & ~(1 << least_card)
        total += x * ev.value(after)
    return total


def _meld_with(hand: int, card: int) -> list[str]:
    """The cards of the meld ``card`` completes in the best arrangement of ``hand``."""
    for m in solve(hand)[1]:
        if (m >> card) & 1:
            return [_NAMES[i] for i in bits(m)]
    return []


def _discard_why(k: Knowledge, hand: int, d: int, plain: int, danger: Callable[[int], float]) -> dict[str, Any]:
    """Why discard ``d``: the card it avoids feeding, or what it leaves."""
    rest = hand & ~(1 << d)
    if plain != d:
        why: dict[str, Any] = {
            "code": "safe_discard", "card": _NAMES[d], "avoid": _NAMES[plain],
            "danger": round(100 * danger(plain)),
        }
        picked = bits(NEAR2[plain] & k.opp_picked)
        if picked:
            why.update(code="opponent_picked", picked=_NAMES[picked[-1]])
        return why
    partners = (NEAR2[d] & hand & ~(1 << d)).bit_count()
    if partners == 0 and POINTS[d] >= 8:
        return {"code": "high_deadwood", "card": _NAMES[d], "points": POINTS[d]}
    return {"code": "min_deadwood", "card": _NAMES[d], "deadwood": solve(rest)[0]}


def hard_evaluator(k: Knowledge, p: Params = HARD) -> Evaluator:
    """hard's hand evaluator for the position ``k`` (its belief about the unseen cards)."""
    return Evaluator(k, use_belief=True, knock_bonus=p.knock_bonus, gin_bonus=p.gin_bonus, horizon=p.horizon)


def decide_hard(
    view: dict[str, Any], *, k: Knowledge | None = None, ev: Evaluator | None = None, p: Params = HARD
) -> Decision:
    """hard's decision with the parameters ``p`` (``HARD``: Difícil, also
    ``hard0``; variants come from ``hard_level``).  ``k`` and ``ev``
    (``Knowledge(view)`` and ``hard_evaluator(k)``) may be given to share them,
    and the evaluator's cache, with ``gin.ai.estimates`` (the review asks both)."""
    k = Knowledge(view) if k is None else k
    kinds = _kinds(view)
    hand = k.hand
    ev = hard_evaluator(k, p) if ev is None else ev
    danger = danger_of(k, p)
    if "take" in kinds or ("draw" in kinds and len(view["legal"]) > 1):
        t = k.top
        with_top = hand | (1 << t)
        take_best = None
        for d in bits(hand):
            v = ev.value(with_top & ~(1 << d)) + p.danger * danger(d)
            if take_best is None or v < take_best:
                take_best = v
        upcard = "take" in kinds
        took = {"type": "take"} if upcard else {"type": "draw", "from": "discard"}
        if k.big_gin and solve(with_top)[0] == 0:
            return took, {"code": "big_gin_available", "card": _NAMES[t]}
        stock = _stock_value(k, ev, hand)
        if take_best < stock - p.take_margin:
            meld = _meld_with(with_top, t)
            if meld:
                return took, {"code": "completes_meld", "card": _NAMES[t], "meld": meld}
            after = least_discard(with_top, t)[0]
            return took, {"code": "take_upcard" if upcard else "take_discard", "card": _NAMES[t], "deadwood": after}
        if upcard:
            return {"type": "pass"}, {"code": "pass_upcard", "card": _NAMES[t]}
        return {"type": "draw", "from": "stock"}, {"code": "draw_stock", "card": _NAMES[t]}
    if "draw" in kinds:
        return {"type": "draw", "from": "stock"}, "draw_stock"
    big = _big_gin(view)
    if big is not None:
        return big, "big_gin_available"
    knock = _best_knock(k, hand, p.layoff_slack)
    declined = None
    if knock is not None:
        i, dw, packing = knock
        if dw == 0:
            return _knock_action(i, packing), {"code": "gin_available", "card": _NAMES[i]}
        if p.model:
            margin = p.margin.get(view.get("rules", {}).get("profile", "traditional"), p.margin["traditional"])
            layoff = _layoff_risk(k, packing, k.opp_prob())
            call = knock_call(k, view, dw, hand & ~(1 << i), layoff, ev.weight, margin=margin, hazard=p.hazard,
                             score_aware=bool(p.score_aware),
                             seen_knocks=knock_deadwoods(view) if p.habit else None, habit_weight=p.habit)
            facts = {"deadwood": dw, "undercut": round(100 * call.undercut), "opp_deadwood": round(call.opp_deadwood)}
            if call.knock:
                return _knock_action(i, packing), {"code": "knock_now", "card": _NAMES[i], **facts}
            if call.undercut > 0:
                declined = {"code": "undercut_risk", **facts, "points": round(call.undercut_points)}
            else:
                declined = {"code": "wait_for_gin", **facts, "gin_chance": round(100 * call.gin_chance)}
        else:
            # Late in the deal the defender has had time to shed deadwood: a high
            # knock then risks an undercut, so it waits for a lower one.
            # With almost no deadwood, waiting for gin costs little: an opponent
            # who knocks meanwhile is likely to be undercut.
            waiting = 0 < dw <= p.gin_wait and k.stock_count > p.gin_wait_stock
            if not waiting and (k.stock_count > p.late_stock or dw <= p.late_knock):
                return _knock_action(i, packing), "knock_now"
            declined = "wait_for_gin" if waiting else "undercut_risk"
    d, _, plain = _hard_discard(k, ev, hand, p, danger)
    why = _discard_why(k, hand, d, plain, danger)
    if declined is not None:
        if isinstance(declined, dict):
            declined["card"] = _NAMES[d]
        return {"type": "discard", "card": _NAMES[d]}, declined
    return {"type": "discard", "card": _NAMES[d]}, why


def hard_level(level: str) -> Params:
    """``"hard:key=value,..."``: Difícil's parameters (``HARD``) with some changed,
    for the arena and the tuning scripts (``margin.<profile>=x`` sets one
    profile's knock margin; ``danger_model=1`` reads the danger from
    ``gin.ai.danger``, ``danger_model=2`` from hands sampled over the
    opponent's clues (``gin.ai.sampler``), ``habit=w`` weighs the opponent's showdown knocks as ``w``
    observations against the pool's); ``ValueError`` on a bad one.  Issue 34
    measured ``hard:danger_model=1`` no stronger than ``hard`` (bench/README.md)."""
    name, _, spec = level.partition(":")
    if name != "hard":
        raise ValueError(f"not a hard level: {level!r}")
    values: dict[str, Any] = {}
    for pair in filter(None, spec.split(",")):
        key, _, value = pair.partition("=")
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"not a number in {pair!r}") from None
        if key.startswith("margin."):
            values["margin"] = {**values.get("margin", HARD.margin), key[7:]: number}
        elif key in HARD.__dict__ and key != "margin":
            # a count (deep, gin_wait, late_stock, ...) stays a whole number: it slices and compares as one
            if isinstance(HARD.__dict__[key], int):
                if not number.is_integer():
                    raise ValueError(f"not a whole number in {pair!r}")
                number = int(number)
            values[key] = number
        else:
            raise ValueError(f"unknown hard setting {key!r}")
    return HARD.but(**values)


DECIDE = {
    "easy": decide_easy,
    "normal": decide_normal,
    "hard": decide_hard,
    "hard0": decide_hard,
    "baseline": decide_baseline,
    "random": decide_random,
}
DECIDE.update(DECIDE_POOL)
