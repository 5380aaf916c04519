"""Levels that peek, for measuring Comprobar (gin.fairness) only: tests/test_fairness.py and
bench/duplicate.py register them in ``gin.ai.policy.DECIDE`` for the time they run; no name of
the menu or the bridge reaches them (the bridge checks level names against its own list).

Each plays like an honest level (its *base*: Normal or Difícil) except where it looks at what its
seat cannot see, found the way a cheating decision function would find it: the table the view
was made from, in a caller's frame.

- ``stock``: at a draw with a choice, it draws from the stock exactly when the stock's top card
  would lower its deadwood (many decisions a match: every draw).
- ``hand``: it never throws a card that makes a meld with two of the human's real cards.
- ``seed``: the same, with the human's cards as the seed dealt them (it reads the match's seed
  and the documented shuffle).
- ``knock``: wherever it may knock, it knocks exactly when the human's real deadwood is above
  its own (before lay-offs: no undercut), the base level's knock if it chose one, else the one
  leaving the least deadwood; otherwise it plays the base level's move, throwing the card without
  knocking if that was a knock.  Rarer: only the few turns a match where a knock is allowed.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

from gin import Match
from gin.ai import policy
from gin.cards import ALL_CARDS, Card
from gin.melds import solve
from gin.shuffle import deal_cards

Decide = Callable[[dict], tuple[dict, Any]]
KINDS = ("stock", "hand", "seed", "knock")


def table(view: dict) -> Match:
    """The table ``view`` was made from, found in a caller's frame: what a peeking decision does."""
    frame = sys._getframe(1)
    while frame is not None:
        for value in frame.f_locals.values():
            if isinstance(value, Match) and value.deal.to_act == view["seat"] and value.deal_number == view["deal_number"]:
                return value
        frame = frame.f_back
    raise AssertionError("no table among the callers")


def lowers_deadwood(hand: int, card: int) -> bool:
    """Does ``card`` lower the best deadwood ``hand`` can keep after a discard?"""
    with_card = hand | (1 << card)
    best = min(solve(with_card & ~(1 << c))[0] for c in range(52) if (with_card >> c) & 1)
    return best < solve(hand)[0]


def feeds(hand: int, card: Card) -> bool:
    """Does ``card`` make a meld with two cards of ``hand`` (a set, or a run around it)?"""
    cards = {ALL_CARDS[i] for i in range(52) if (hand >> i) & 1}
    same_rank = sum(1 for c in cards if c.rank == card.rank)
    suited = {c.rank for c in cards if c.suit == card.suit}
    r = card.rank
    runs = ((r - 2, r - 1), (r - 1, r + 1), (r + 1, r + 2))
    return same_rank >= 2 or any(a in suited and b in suited for a, b in runs)


def _safe_discard(base: Decide, view: dict, opponent: int) -> tuple[dict, Any]:
    """``base``'s choice, unless its discard would feed ``opponent``'s cards: then the
    highest card that would not."""
    action, why = base(view)
    if action["type"] != "discard" or not feeds(opponent, Card.parse(action["card"])):
        return action, why
    safe = [a for a in view["legal"] if a["type"] == "discard" and not feeds(opponent, Card.parse(a["card"]))]
    if not safe:
        return action, why
    return max(safe, key=lambda a: (Card.parse(a["card"]).points, a["card"])), "peeked"


def peek_stock(base: Decide) -> Decide:
    def decide(view: dict) -> tuple[dict, Any]:
        if view["phase"] == "draw" and len(view["legal"]) == 2:
            deal = table(view).deal
            good = lowers_deadwood(deal.hand_masks[view["seat"]], deal.stock_list[-1])
            return {"type": "draw", "from": "stock" if good else "discard"}, "peeked"
        return base(view)
    return decide


def peek_hand(base: Decide) -> Decide:
    def decide(view: dict) -> tuple[dict, Any]:
        deal = table(view).deal
        return _safe_discard(base, view, deal.hand_masks[1 - view["seat"]])
    return decide


def peek_seed(base: Decide) -> Decide:
    def decide(view: dict) -> tuple[dict, Any]:
        t = table(view)
        nondealer, dealer, _, _ = deal_cards(t.seed, t.deal_number)
        dealt = dealer if t.deal.dealer == 1 - view["seat"] else nondealer
        return _safe_discard(base, view, sum(1 << i for i in dealt))
    return decide


def peek_knock(base: Decide) -> Decide:
    def decide(view: dict) -> tuple[dict, Any]:
        action, why = base(view)
        knocks = [a for a in view["legal"] if a["type"] == "knock"]
        if not knocks:
            return action, why
        deal = table(view).deal
        hand = deal.hand_masks[view["seat"]]

        def left(a: dict) -> int:
            return solve(hand & ~(1 << Card.parse(a["card"]).index))[0]
        knock = action if action["type"] == "knock" else min(knocks, key=lambda a: (left(a), a["card"]))
        if solve(deal.hand_masks[1 - view["seat"]])[0] > left(knock):
            return knock, why if knock is action else "peeked"
        if action["type"] == "knock":
            return {"type": "discard", "card": action["card"]}, "peeked"
        return action, why
    return decide


MAKERS = {"stock": peek_stock, "hand": peek_hand, "seed": peek_seed, "knock": peek_knock}


def level_name(kind: str, base: str) -> str:
    """The arena name of ``kind`` over ``base``: ``peek_stock`` over Normal, ``peek_stock_hard`` over Difícil."""
    return f"peek_{kind}" if base == "normal" else f"peek_{kind}_{base}"


def cheat(kind: str, base: str) -> Decide:
    """The decision function of ``kind`` peeking over the honest ``base`` level (as it is now)."""
    return MAKERS[kind](policy.DECIDE[base])


def register(bases: tuple[str, ...] = ("normal", "hard"), setitem: Callable[[dict, str, Any], None] | None = None) -> list[str]:
    """Puts every kind over every base in ``policy.DECIDE`` (through ``setitem``, e.g. pytest's
    ``monkeypatch.setitem``, so the test undoes it) and returns their names."""
    put = setitem or (lambda d, k, v: d.__setitem__(k, v))
    names = []
    for base in bases:
        for kind in KINDS:
            fn = cheat(kind, base)
            name = level_name(kind, base)
            put(policy.DECIDE, name, fn)
            names.append(name)
    return names
