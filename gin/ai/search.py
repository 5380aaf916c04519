"""Difícil's search: hard's candidates, tried in deals sampled from its belief.

At a decision with a real choice, ``decide_search`` takes the few actions
hard's own scores rank best (the take or pass, the draw source, the best
discards, knock or hold) and plays each on in the same sampled deals to the
deal's end, valuing every end by the chance of winning the match
(``gin.ai.winprob``).  It plays the action with the best mean, hard's own
choice when nothing beats it.

- **Sampling** (``_sample``): the opponent's hidden cards are drawn without
  replacement from the unseen cards, each weighted by hard's belief
  (``Knowledge.opp_prob``: what it picked up, threw and refused), the cards it
  took from the pile being known; the rest is the stock, shuffled.  Only the
  view is read: the real hidden cards, the stock and the seed never are, so
  the same view gives the same decision (the random generator is seeded from
  the view's digest, ``view_key``).
- **Candidates** (``_candidates``): discards whose hard score is within
  ``gap`` of the best, at most ``width``; a draw or take, with the pass or the
  stock; a possible knock (not gin, which is always declared), with holding
  (hard's discard).  A decision with one candidate left is hard's, at no cost.
- **Playouts** (``_playout``): both seats by a cheap policy that reads only
  its own hand and the pile's top (take a card that joins a meld, throw the
  card that leaves the least deadwood, knock as soon as it may), to a knock,
  gin or a void deal; scored as the engine scores it (layoffs on the knocker's
  melds, undercuts, the profile's bonuses).
- **Budget**: ``budget`` playouts per decision at most, spread evenly over the
  candidates (every candidate meets the same sampled deals, so their
  difference is not blurred by the deals' own luck); a count, not wall time,
  so a match replays the same everywhere.  Anytime: the loop can stop after
  any round of samples and the best mean so far is the answer.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from dataclasses import dataclass, replace
from itertools import accumulate
from typing import Any

from ..melds import _layoffs, least_discard, mask_value, solve
from .knowledge import _SAME_RANK, RUN_PAIRS, Knowledge, bits, view_key
from .policy import (
    _NAMES, HARD, Decision, _best_knock, _knock_action, _kinds, _stock_value, decide_hard, discard_scores,
    hard_evaluator,
)
from .winprob import table_for

__all__ = ["Search", "SEARCH", "decide_search", "search_level", "last_playouts"]

DEAD_STOCK = 2
MAX_TURNS = 80


@dataclass(frozen=True)
class Search:
    """The search's settings (``gin.ai.choose(view, "search:budget=64,belief=0")``
    sets them by name in the arena)."""

    budget: int = 48  # playouts per decision, at most
    width: int = 3  # discards tried, at most
    gap: float = 4.0  # ... within this many points of hard's best score
    draw_gap: float = 6.0  # a take/draw is searched when its score is within this of the other
    belief: int = 1  # 0: sample the opponent's cards uniformly
    prior: float = 0.0  # match chance another candidate must gain over hard's own choice
    z: float = 1.0  # ... and standard errors of that gain (paired over the samples)
    playout: str = "melds"  # "melds": take a card that joins a meld; "deadwood": one that lowers deadwood


#: The shipped settings.
SEARCH = Search()

_LAST = [0]


def last_playouts() -> int:
    """How many playouts the last ``decide_search`` ran (for the budget test and the bench)."""
    return _LAST[0]


def search_level(level: str) -> Search:
    """``"search"`` or ``"search:key=value,..."`` as settings; ``ValueError`` on a bad one."""
    name, _, spec = level.partition(":")
    if name != "search":
        raise ValueError(f"not a search level: {level!r}")
    values: dict[str, Any] = {}
    for pair in filter(None, spec.split(",")):
        key, _, value = pair.partition("=")
        if key not in Search.__dataclass_fields__:
            raise ValueError(f"unknown search setting {key!r}")
        kind = type(getattr(SEARCH, key))
        values[key] = kind(value)
    return replace(SEARCH, **values)


# --------------------------------------------------------------------------
# The candidates, from hard's scores


def _candidates(view: dict[str, Any], k: Knowledge, ev, cfg: Search, hard: dict[str, Any]):
    """``[(action, start)]``: the actions worth searching, with how each starts
    the playout: ``("take", discard)``, ``("stock", None)``, ``("pass", None)``,
    ``("discard", card)``, ``("knock", (card, deadwood, melds))``."""
    kinds = _kinds(view)
    hand = k.hand
    if "take" in kinds or ("draw" in kinds and len(view["legal"]) > 1):
        t = k.top
        with_top = hand | (1 << t)
        if k.big_gin and solve(with_top)[0] == 0:
            return []
        took = {"type": "take"} if "take" in kinds else {"type": "draw", "from": "discard"}
        other = {"type": "pass"} if "take" in kinds else {"type": "draw", "from": "stock"}
        # hard's discard after the take (the hand is known: one choice for every sample)
        after = Knowledge.__new__(Knowledge)
        for slot in Knowledge.__slots__:
            setattr(after, slot, getattr(k, slot))
        after.taken = t
        scored = discard_scores(after, ev, with_top)
        take_score = scored[0][0]
        stock_score = _stock_value(k, ev, hand)
        if abs(take_score - stock_score) > cfg.draw_gap:
            return []
        return [(took, ("take", scored[0][2])), (other, ("pass" if "take" in kinds else "stock", None))]
    if "discard" not in kinds:
        return []
    if hard["type"] == "big_gin":
        return []
    out = []
    knock = _best_knock(k, hand, HARD.layoff_slack)
    if knock is not None:
        i, dw, packing = knock
        if dw == 0:
            return []
        out.append((_knock_action(i, packing), ("knock", (i, dw, packing))))
    scored = discard_scores(k, ev, hand)
    best = scored[0][0]
    for key, _, d, _ in scored[: cfg.width]:
        if key - best <= cfg.gap:
            out.append(({"type": "discard", "card": _NAMES[d]}, ("discard", d)))
    return out if len(out) > 1 else []


# --------------------------------------------------------------------------
# Sampling a deal consistent with the view


def _sample(rng: random.Random, k: Knowledge, weights: list[tuple[int, float]], hidden: int) -> tuple[int, list[int]]:
    """The opponent's hand (its known cards and ``hidden`` sampled ones) and a stock order."""
    # Each card is drawn with the chance of its weight among the cards left: the first
    # card whose running sum of weights reaches a uniform point of the whole sum.  The
    # running sums are kept: drawing card j changes only those from j on (the same sums,
    # added in the same order, as summing the cards left afresh).
    stock = [c for c, _ in weights]
    ws = [w for _, w in weights]
    sums = list(accumulate(ws))
    opp = k.opp_known
    for _ in range(hidden):
        r = rng.random() * sums[-1]
        j = min(bisect_left(sums, r), len(sums) - 1)
        opp |= 1 << stock[j]
        del stock[j], ws[j]
        if j:
            sums[j - 1 :] = accumulate(ws[j:], initial=sums[j - 1])
        else:
            sums[:] = accumulate(ws)
    rng.shuffle(stock)
    return opp, stock


# --------------------------------------------------------------------------
# The playout policy: cheap, and reads only its own hand and the pile


def _joins(hand: int, card: int) -> bool:
    n = 0
    for j in _SAME_RANK[card]:
        n += (hand >> j) & 1
    if n >= 2:
        return True
    for a, b in RUN_PAIRS[card]:
        if (hand >> a) & 1 and (hand >> b) & 1:
            return True
    return False


def _wants(hand: int, card: int, mode: str) -> bool:
    if mode == "melds":
        return _joins(hand, card)
    return least_discard(hand | (1 << card), card)[0] < solve(hand)[0] - 1


_MEMO: dict[tuple[int, int | None], tuple[int, int]] = {}
_MEMO_LIMIT = 100_000


def _discard(hand: int, taken: int | None) -> tuple[int, int]:
    """The card leaving the least deadwood (the higher card on a tie) and that deadwood
    (memoised: the candidates' playouts of one sample meet the same hands)."""
    hit = _MEMO.get((hand, taken))
    if hit is not None:
        return hit
    dw, best = least_discard(hand, -1 if taken is None else taken)
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    hit = _MEMO[(hand, taken)] = (best, dw)
    return hit


def _showdown(knocker_hand: int, defender: int, rules: dict[str, Any], big: bool) -> tuple[int, int]:
    """``(points, to_knocker)``: what the deal pays and whether the knocker is paid."""
    dk, melds = solve(knocker_hand)
    dp, own = solve(defender)
    if dk == 0:
        bonus = rules.get("big_gin_bonus") if big else rules.get("gin_bonus", 20)
        return int(bonus or 0) + dp, 1
    free = defender
    for m in own:
        free &= ~m
    laid = 0
    for i, _ in _layoffs(free, melds):
        laid |= 1 << i
    dd = mask_value(free & ~laid)
    if dd <= dk:
        return dk - dd + int(rules.get("undercut_bonus", 10)), 0
    return dd - dk, 1


def _playout(
    hands: list[int], pile_top: int | None, stock: list[int], to_act: int, can_take: bool, rules: dict[str, Any],
    limit: int, big_gin: bool, mode: str,
) -> tuple[int | None, int]:
    """Play the deal on from ``to_act``'s draw; ``(seat paid, points)`` (``None`` for void)."""
    top = pile_top
    seat = to_act
    # Two players who keep taking each other's discards never draw from the
    # stock: after this many turns the playout is scored as a void deal.
    for _ in range(MAX_TURNS):
        hand = hands[seat]
        taken = None
        if can_take and top is not None and _wants(hand, top, mode):
            hand |= 1 << top
            taken = top
        else:
            hand |= 1 << stock.pop()
        can_take = True
        if big_gin and solve(hand)[0] == 0:
            points, paid = _showdown(hand, hands[1 - seat], rules, True)
            return (seat if paid else 1 - seat), points
        d, dw = _discard(hand, taken)
        hand &= ~(1 << d)
        hands[seat] = hand
        if dw <= limit:
            points, paid = _showdown(hand, hands[1 - seat], rules, False)
            return (seat if paid else 1 - seat), points
        top = d
        if len(stock) <= DEAD_STOCK:
            return None, 0
        seat = 1 - seat
    return None, 0


# --------------------------------------------------------------------------
# The search


def decide_search(view: dict[str, Any], cfg: Search = SEARCH) -> Decision:
    """The search's decision (hard's reason code for it when it agrees with hard,
    ``search`` otherwise)."""
    k = Knowledge(view)
    ev = hard_evaluator(k)
    action, why = decide_hard(view, k=k, ev=ev)
    _LAST[0] = 0
    cands = _candidates(view, k, ev, cfg, action)
    if not cands or cfg.budget < len(cands):
        return action, why
    me = k.seat
    rules = view.get("rules") or {}
    table = table_for(rules)
    scores = view.get("scores") or [0, 0]
    hidden = max(0, k.opp_count - k.opp_known.bit_count())
    prob = k.opp_prob()
    weights = [(c, (prob[c] if cfg.belief else 1.0) or 1e-6) for c in bits(k.unseen)]
    rng = random.Random(int.from_bytes(view_key(view)[:16], "big"))
    phase = view["phase"]
    rounds = cfg.budget // len(cands)
    vals: list[list[float]] = [[] for _ in cands]
    a, b = scores[me], scores[1 - me]
    for _ in range(rounds):
        opp, stock = _sample(rng, k, weights, hidden)
        for n, (_, start) in enumerate(cands):
            paid, points = _outcome(start, k, phase, opp, list(stock), rules, cfg.playout)
            vals[n].append(table(a + points, b) if paid == me else table(a, b + points) if paid is not None else table(a, b))
        _LAST[0] += len(cands)
    best = _pick(cands, vals, _key(action), cfg)
    if _key(best) == _key(action):
        return action, why
    return best, _search_why(best)


def _pick(cands, vals: list[list[float]], hard_key: tuple, cfg: Search) -> dict[str, Any]:
    """The candidate with the best mean over the same samples; hard's own choice unless
    another beats it, sample by sample, by more than ``z`` standard errors (plus ``prior``)."""
    base = next((n for n, (c, _) in enumerate(cands) if _key(c) == hard_key), None)
    if base is None:
        return max(zip(cands, vals), key=lambda cv: sum(cv[1]))[0][0]
    best, best_gain = base, 0.0
    rounds = len(vals[base])
    for n, v in enumerate(vals):
        if n == base:
            continue
        diffs = [x - y for x, y in zip(v, vals[base])]
        mean = sum(diffs) / rounds
        var = sum((d - mean) ** 2 for d in diffs) / max(1, rounds - 1)
        se = (var / rounds) ** 0.5
        gain = mean - cfg.prior - cfg.z * se
        if gain > best_gain:
            best, best_gain = n, gain
    return cands[best][0]


def _outcome(start, k: Knowledge, phase: str, opp: int, stock: list[int], rules: dict[str, Any], mode: str):
    """``(seat paid, points)`` of one candidate in one sampled deal (``stock`` is used up)."""
    kind, arg = start
    me = k.seat
    limit = k.knock_limit
    hands = [0, 0]
    hands[1 - me] = opp
    if kind == "knock":
        points, paid = _showdown(k.hand & ~(1 << arg[0]), opp, rules, False)
        return (me if paid else 1 - me), points
    if kind in ("take", "stock"):
        if kind == "take":
            hand, top = k.hand | (1 << k.top), arg
        else:
            hand = k.hand | (1 << stock.pop())
            if k.big_gin and solve(hand)[0] == 0:
                points, paid = _showdown(hand, opp, rules, True)
                return (me if paid else 1 - me), points
            top = _discard(hand, None)[0]
        hands[me] = hand & ~(1 << top)
        if solve(hands[me])[0] <= limit:
            points, paid = _showdown(hands[me], opp, rules, False)
            return (me if paid else 1 - me), points
        nxt, can = 1 - me, True
    elif kind == "pass":
        hands[me] = k.hand
        top, nxt, can = k.top, 1 - me, False
        if phase == "upcard_nondealer":
            # first to pass: the opponent takes the upcard or passes, and then we draw
            if _wants(opp, k.top, mode):
                can = True
            else:
                nxt = me
    else:  # discard
        hands[me] = k.hand & ~(1 << arg)
        top, nxt, can = arg, 1 - me, True
    if kind != "pass" and len(stock) <= DEAD_STOCK:
        return None, 0
    return _playout(hands, top, stock, nxt, can, rules, limit, k.big_gin, mode)


def _key(action: dict[str, Any]) -> tuple:
    return (action["type"], action.get("card"), action.get("from"))


def _search_why(action: dict[str, Any]) -> dict[str, Any]:
    """The search's reason where it overrules hard (hard's reasons explain hard's choice)."""
    why: dict[str, Any] = {"code": "search"}
    if "card" in action:
        why["card"] = action["card"]
    return why
