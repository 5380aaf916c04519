"""One deal: the state machine from the upcard decision to the showdown.

Phases (``Deal.phase``): ``upcard_nondealer`` → ``upcard_dealer`` → ``draw``
⇄ ``discard`` → ``over``.  ``legal_actions()`` and ``apply()`` dispatch on the
phase to paired handlers.  Actions are the JSON dicts of DESIGN.md::

    {"type": "take"} {"type": "pass"}
    {"type": "draw", "from": "stock" | "discard"}
    {"type": "discard", "card": "7H"}
    {"type": "knock", "card": "7H", "melds": [["7S", "7D", "7C"], ...]}
    {"type": "big_gin", "melds": [...]}

An action may carry ``"seat"``; if it is not the seat to act, the action is
refused with ``not_your_turn``.  Every illegal action raises ``IllegalMove``
with a stable code *before* anything changes.

>>> from gin import Deal, Rules
>>> d = Deal.from_cards(rules=Rules.profile("traditional"), dealer=1,
...     hands=["AC 2C 3C 5D 6D 7D 9H 9S 9C KD", "4S 5S 6S 8H 8D 8C JH QH JS QS"],
...     upcard="KS", stock="2D 3H TD")
>>> d.phase, d.to_act, [a["type"] for a in d.legal_actions()]
('upcard_nondealer', 0, ['take', 'pass'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import ALL_CARDS, CARD_TEXT, Card, CardLike, card_mask, mask_bits, mask_cards, mask_texts, parse_cards
from .errors import IllegalMove, quote
from .melds import (
    Arrangement,
    Layoff,
    discard_deadwood_masks,
    showdown,
    solve,
    validate_melds,
)
from .rules import Rules

__all__ = ["Deal", "Outcome", "PHASES"]

PHASES = ("upcard_nondealer", "upcard_dealer", "draw", "discard", "over")

#: The stock size at which a deal with no knock is void.
DEAD_STOCK = 2


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a deal ended.  ``arrangements`` is indexed by seat.

    ``kind``: "knock", "gin", "big_gin", "undercut" or "void".  ``winner``
    is the seat that scores (None for a void deal), ``points`` what it
    scores.  For a knock, ``arrangements[defender]`` is after the layoffs
    (its deadwood excludes the cards in ``layoffs``).
    """

    kind: str
    winner: int | None
    points: int
    knocker: int | None = None
    arrangements: tuple[Arrangement, Arrangement] | None = None
    layoffs: tuple[Layoff, ...] = ()
    discard: Card | None = None
    #: ``points`` includes it: 2 when an Oklahoma spade upcard doubled the deal.
    multiplier: int = 1

    @property
    def defender(self) -> int | None:
        return None if self.knocker is None else 1 - self.knocker

    @property
    def knocker_arrangement(self) -> Arrangement | None:
        return None if self.arrangements is None else self.arrangements[self.knocker]

    @property
    def defender_arrangement(self) -> Arrangement | None:
        return None if self.arrangements is None else self.arrangements[1 - self.knocker]

    @property
    def deadwood(self) -> tuple[int, int] | None:
        """Both seats' final deadwood, by seat."""
        if self.arrangements is None:
            return None
        return (self.arrangements[0].points, self.arrangements[1].points)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "winner": self.winner,
            "points": self.points,
            "knocker": self.knocker,
            "discard": None if self.discard is None else str(self.discard),
            "hands": None
            if self.arrangements is None
            else [a.to_dict() for a in self.arrangements],
            "layoffs": [lay.to_dict() for lay in self.layoffs],
            "multiplier": self.multiplier,
        }


def _card_index(text: Any) -> int:
    if isinstance(text, Card):
        return text.index
    if not isinstance(text, str):
        raise IllegalMove(f"not a card: {quote(text)}", code="bad_action")
    try:
        return Card.parse(text).index
    except ValueError:
        raise IllegalMove(f"not a card: {text!r}", code="bad_action") from None


@dataclass(slots=True, eq=False)
class Deal:
    """The state of one deal.  Mutable: ``apply`` changes this object and returns it.

    Use ``copy()`` for an independent state (e.g. to search ahead).
    """

    rules: Rules
    dealer: int
    #: Each seat's cards as a 52-bit mask.
    hand_masks: list[int]
    #: Stock, *bottom first* (the top is the last item, so drawing is a pop).
    stock_list: list[int]
    #: Discard pile, bottom first.
    pile: list[int]
    phase: str = "upcard_nondealer"
    to_act: int | None = 0
    #: The card taken from the discard pile this turn (may not be discarded now).
    taken: int | None = None
    #: The card drawn from the stock this turn (only its holder may see it).
    drawn: int | None = None
    #: Both seats passed the upcard: the non-dealer's first draw is from the stock.
    both_passed: bool = False
    #: Cards each seat took from the discard pile and still holds (public).
    known_masks: list[int] = field(default_factory=lambda: [0, 0])
    #: Public events, e.g. {"seat": 1, "type": "draw", "from": "stock"}.
    events: list[dict[str, Any]] = field(default_factory=list)
    outcome: Outcome | None = None
    #: The deal's first upcard (Oklahoma reads its knock limit and doubling from it).
    first_upcard: int = -1

    def __post_init__(self) -> None:
        if self.first_upcard < 0 and self.pile:
            self.first_upcard = self.pile[0]

    # -- construction -------------------------------------------------------

    @classmethod
    def from_cards(
        cls,
        *,
        rules: Rules | None = None,
        dealer: int,
        hands: Sequence[Iterable[CardLike] | str],
        upcard: CardLike,
        stock: Iterable[CardLike] | str,
    ) -> "Deal":
        """A deal at its first decision from explicit cards (``stock`` top first).

        Ten cards a hand; no card twice.  The stock may be shorter than 31
        (positions for tests), but holds more than two cards.
        """
        if dealer not in (0, 1):
            raise ValueError(f"dealer must be 0 or 1, not {dealer!r}")
        if len(hands) != 2:
            raise ValueError("two hands are needed")
        parsed = [parse_cards(h) for h in hands]
        up = Card.parse(upcard) if not isinstance(upcard, Card) else upcard
        stock_cards = parse_cards(stock)
        everything = [c for h in parsed for c in h] + [up, *stock_cards]
        if len(set(everything)) != len(everything):
            dupes = sorted({str(c) for c in everything if everything.count(c) > 1})
            raise ValueError(f"cards dealt twice: {' '.join(dupes)}")
        for seat, h in enumerate(parsed):
            if len(h) != 10:
                raise ValueError(f"hand {seat} has {len(h)} cards, not 10")
        if len(stock_cards) <= DEAD_STOCK:
            raise ValueError(f"the stock needs more than {DEAD_STOCK} cards")
        return cls(
            rules=rules or Rules.profile("traditional"),
            dealer=dealer,
            hand_masks=[card_mask(parsed[0]), card_mask(parsed[1])],
            stock_list=[c.index for c in reversed(stock_cards)],
            pile=[up.index],
            to_act=1 - dealer,
        )

    @classmethod
    def from_indices(
        cls, *, rules: Rules, dealer: int, nondealer_cards, dealer_cards, upcard: int, stock
    ) -> "Deal":
        hands = [0, 0]
        for i in nondealer_cards:
            hands[1 - dealer] |= 1 << i
        for i in dealer_cards:
            hands[dealer] |= 1 << i
        return cls(
            rules=rules,
            dealer=dealer,
            hand_masks=hands,
            stock_list=list(reversed(list(stock))),
            pile=[upcard],
            to_act=1 - dealer,
        )

    def copy(self) -> "Deal":
        return Deal(
            rules=self.rules,
            dealer=self.dealer,
            hand_masks=list(self.hand_masks),
            stock_list=list(self.stock_list),
            pile=list(self.pile),
            phase=self.phase,
            to_act=self.to_act,
            taken=self.taken,
            drawn=self.drawn,
            both_passed=self.both_passed,
            known_masks=list(self.known_masks),
            events=list(self.events),
            outcome=self.outcome,
            first_upcard=self.first_upcard,
        )

    # -- reading ------------------------------------------------------------

    @property
    def hands(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """Both hands, each in card order."""
        return (mask_cards(self.hand_masks[0]), mask_cards(self.hand_masks[1]))

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top first."""
        return tuple(ALL_CARDS[i] for i in reversed(self.stock_list))

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first (the last card is the top)."""
        return tuple(ALL_CARDS[i] for i in self.pile)

    @property
    def upcard(self) -> Card | None:
        """The top of the discard pile."""
        return ALL_CARDS[self.pile[-1]] if self.pile else None

    @property
    def knock_limit(self) -> int:
        """This deal's knock limit (0: only gin ends it; see ``Rules.deal_knock_limit``)."""
        return self.rules.deal_knock_limit(ALL_CARDS[self.first_upcard])

    @property
    def multiplier(self) -> int:
        """What this deal's score is multiplied by (``Rules.deal_multiplier``)."""
        return self.rules.deal_multiplier(ALL_CARDS[self.first_upcard])

    @property
    def nondealer(self) -> int:
        return 1 - self.dealer

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def to_dict(self) -> dict[str, Any]:
        """The full state (hidden cards included), JSON-ready."""

        return {
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": self.to_act,
            "hands": [mask_texts(self.hand_masks[0]), mask_texts(self.hand_masks[1])],
            "stock": [CARD_TEXT[i] for i in reversed(self.stock_list)],
            "discard": [CARD_TEXT[i] for i in self.pile],
            "taken": None if self.taken is None else CARD_TEXT[self.taken],
            "drawn": None if self.drawn is None else CARD_TEXT[self.drawn],
            "both_passed": self.both_passed,
            "known": [mask_texts(self.known_masks[0]), mask_texts(self.known_masks[1])],
            "knock_limit": self.knock_limit,
            "multiplier": self.multiplier,
            "events": [dict(e) for e in self.events],
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
        }

    # -- legal actions ------------------------------------------------------

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every legal action of the seat to act, in a fixed order."""
        handler = _LEGAL.get(self.phase)
        return [] if handler is None else handler(self)

    def _upcard_legal(self) -> list[dict[str, Any]]:
        return [{"type": "take"}, {"type": "pass"}]

    def _draw_legal(self) -> list[dict[str, Any]]:
        actions = [{"type": "draw", "from": "stock"}]
        if not self.both_passed and self.pile:
            actions.append({"type": "draw", "from": "discard"})
        return actions

    def _discard_legal(self) -> list[dict[str, Any]]:
        hand = self.hand_masks[self.to_act]
        actions: list[dict[str, Any]] = []
        taken = self.taken
        for i in mask_bits(hand):
            if i != taken:
                actions.append({"type": "discard", "card": CARD_TEXT[i]})
        limit = self.knock_limit
        for i, points in sorted(discard_deadwood_masks(hand).items()):
            if i != self.taken and points <= limit:
                rest = hand & ~(1 << i)
                _, packing = solve(rest)
                melds = Arrangement.from_masks(rest, packing).melds
                actions.append(
                    {
                        "type": "knock",
                        "card": CARD_TEXT[i],
                        "melds": [[CARD_TEXT[c.index] for c in m] for m in melds],
                    }
                )
        if self.rules.big_gin and solve(hand)[0] == 0:
            melds = Arrangement.from_masks(hand, solve(hand)[1]).melds
            actions.append({"type": "big_gin", "melds": [[str(c) for c in m] for m in melds]})
        return actions

    # -- applying -----------------------------------------------------------

    def apply(self, action: dict[str, Any]) -> "Deal":
        """Apply one action to this deal (in place) and return the deal.

        Raises ``IllegalMove`` (with ``.code``) and changes nothing if the
        action is not legal now.
        """
        if self.phase == "over":
            raise IllegalMove("the deal is over", code="game_over")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalMove(f"not an action: {quote(action)}", code="bad_action")
        seat = action.get("seat")
        if seat is not None and (type(seat) is not int or seat not in (0, 1)):
            raise IllegalMove(f"a seat is 0 or 1, not {quote(seat)}", code="bad_action")
        if seat is not None and seat != self.to_act:
            raise IllegalMove(f"it is seat {self.to_act}'s turn, not seat {seat!r}'s", code="not_your_turn")
        kind = action["type"]
        handler = _APPLY.get(kind)
        if handler is None:
            raise IllegalMove(f"unknown action type {kind!r}", code="bad_action")
        handler(self, action)
        return self

    def _refuse_phase(self, kind: str) -> None:
        if self.phase in ("upcard_nondealer", "upcard_dealer") and kind == "draw":
            raise IllegalMove("take or pass the upcard first", code="must_take_or_pass")
        if self.phase in ("upcard_nondealer", "upcard_dealer", "draw"):
            raise IllegalMove(f"draw a card first (not {kind})", code="must_draw_first")
        raise IllegalMove(f"discard a card first (not {kind})", code="already_drawn")

    def _apply_take(self, action: dict[str, Any]) -> None:
        if self.phase not in ("upcard_nondealer", "upcard_dealer"):
            raise IllegalMove("taking the upcard is only for the first decision", code="not_upcard_phase")
        seat = self.to_act
        card = self.pile.pop()
        self.hand_masks[seat] |= 1 << card
        self.known_masks[seat] |= 1 << card
        self.taken = card
        self.phase = "discard"
        self.events.append({"seat": seat, "type": "take", "card": CARD_TEXT[card]})

    def _apply_pass(self, action: dict[str, Any]) -> None:
        if self.phase not in ("upcard_nondealer", "upcard_dealer"):
            raise IllegalMove("passing is only for the upcard decision", code="not_upcard_phase")
        self.events.append({"seat": self.to_act, "type": "pass"})
        if self.phase == "upcard_nondealer":
            self.phase = "upcard_dealer"
            self.to_act = self.dealer
        else:
            self.phase = "draw"
            self.to_act = self.nondealer
            self.both_passed = True

    def _apply_draw(self, action: dict[str, Any]) -> None:
        if self.phase != "draw":
            self._refuse_phase("draw")
        source = action.get("from")
        seat = self.to_act
        if source == "stock":
            card = self.stock_list.pop()
            self.drawn = card
            self.events.append({"seat": seat, "type": "draw", "from": "stock"})
        elif source == "discard":
            if not self.pile:
                raise IllegalMove("the discard pile is empty", code="empty_discard_pile")
            if self.both_passed:
                raise IllegalMove(
                    "both passed the upcard: this first draw is from the stock",
                    code="must_draw_from_stock",
                )
            card = self.pile.pop()
            self.taken = card
            self.known_masks[seat] |= 1 << card
            self.events.append(
                {"seat": seat, "type": "draw", "from": "discard", "card": CARD_TEXT[card]}
            )
        else:
            raise IllegalMove(f"draw from 'stock' or 'discard', not {quote(source)}", code="bad_action")
        self.both_passed = False
        self.hand_masks[seat] |= 1 << card
        self.phase = "discard"

    def _check_discard(self, action: dict[str, Any], kind: str) -> int:
        if self.phase != "discard":
            self._refuse_phase(kind)
        card = _card_index(action.get("card"))
        if not (self.hand_masks[self.to_act] >> card) & 1:
            raise IllegalMove(f"{ALL_CARDS[card]} is not in the hand", code="card_not_in_hand")
        if card == self.taken:
            raise IllegalMove(
                f"{ALL_CARDS[card]} was just taken from the discard pile",
                code="cannot_discard_taken_upcard",
            )
        return card

    def _apply_discard(self, action: dict[str, Any]) -> None:
        card = self._check_discard(action, "discard")
        seat = self.to_act
        self._remove(seat, card)
        self.pile.append(card)
        self.events.append({"seat": seat, "type": "discard", "card": CARD_TEXT[card]})
        self.taken = self.drawn = None
        if len(self.stock_list) <= DEAD_STOCK:
            self.phase = "over"
            self.to_act = None
            self.outcome = Outcome(kind="void", winner=None, points=0)
            self.events.append({"type": "void"})
            return
        self.phase = "draw"
        self.to_act = 1 - seat

    def _apply_knock(self, action: dict[str, Any]) -> None:
        card = self._check_discard(action, "knock")
        seat = self.to_act
        declared, meld_masks = _declared(self.hand_masks[seat] & ~(1 << card), action)
        limit = self.knock_limit
        if declared.points > limit and limit == 0:
            raise IllegalMove(
                f"only gin ends this deal (deadwood {declared.points})", code="gin_required"
            )
        if declared.points > limit:
            raise IllegalMove(
                f"deadwood {declared.points} is over the knock limit {limit}",
                code="deadwood_too_high",
            )
        self._remove(seat, card)
        self.pile.append(card)
        self.events.append({"seat": seat, "type": "knock", "card": CARD_TEXT[card]})
        self._showdown(seat, declared, meld_masks, "gin" if declared.points == 0 else "knock", card)

    def _apply_big_gin(self, action: dict[str, Any]) -> None:
        if not self.rules.big_gin:
            raise IllegalMove("big gin is not played under these rules", code="big_gin_not_allowed")
        if self.phase != "discard":
            self._refuse_phase("big_gin")
        seat = self.to_act
        declared, meld_masks = _declared(self.hand_masks[seat], action)
        if declared.points:
            raise IllegalMove("big gin needs all eleven cards in melds", code="not_big_gin")
        self.events.append({"seat": seat, "type": "big_gin"})
        self._showdown(seat, declared, meld_masks, "big_gin", None)

    def _showdown(
        self, knocker: int, declared: Arrangement, meld_masks, kind: str, card: int | None
    ) -> None:
        defender = 1 - knocker
        defence, layoffs = showdown(
            meld_masks, self.hand_masks[defender], layoffs_allowed=(kind == "knock")
        )
        rules = self.rules
        k, d = declared.points, defence.points
        if kind == "gin":
            winner, points = knocker, rules.gin_bonus + d
        elif kind == "big_gin":
            winner, points = knocker, rules.big_gin_bonus + d
        elif k < d:
            winner, points = knocker, d - k
        else:
            kind, winner, points = "undercut", defender, k - d + rules.undercut_bonus
        multiplier = self.multiplier
        points *= multiplier
        arrangements = (declared, defence) if knocker == 0 else (defence, declared)
        self.outcome = Outcome(
            kind=kind,
            winner=winner,
            points=points,
            knocker=knocker,
            arrangements=arrangements,
            layoffs=layoffs,
            discard=None if card is None else ALL_CARDS[card],
            multiplier=multiplier,
        )
        self.phase = "over"
        self.to_act = None
        self.taken = self.drawn = None
        self.events.append({"type": "showdown", **self.outcome.to_dict()})

    def _remove(self, seat: int, card: int) -> None:
        bit = 1 << card
        self.hand_masks[seat] &= ~bit
        self.known_masks[seat] &= ~bit


def _declared(cards: int, action: dict[str, Any]) -> tuple[Arrangement, tuple[int, ...]]:
    """The arrangement an action declares for ``cards`` (the best one if it names no melds).

    Returns it with its meld masks in the order shown, which is the order
    layoffs refer to; raises ``invalid_melds`` for melds that are not legal.
    """
    melds = action.get("melds")
    if melds is None:
        meld_masks = solve(cards)[1]
    elif not isinstance(melds, (list, tuple)):
        raise IllegalMove("melds must be a list of lists of cards", code="invalid_melds")
    else:
        meld_masks = validate_melds(cards, melds)
    declared = Arrangement.from_masks(cards, meld_masks)
    return declared, tuple(card_mask(m) for m in declared.melds)


_LEGAL = {
    "upcard_nondealer": Deal._upcard_legal,
    "upcard_dealer": Deal._upcard_legal,
    "draw": Deal._draw_legal,
    "discard": Deal._discard_legal,
}

_APPLY = {
    "take": Deal._apply_take,
    "pass": Deal._apply_pass,
    "draw": Deal._apply_draw,
    "discard": Deal._apply_discard,
    "knock": Deal._apply_knock,
    "big_gin": Deal._apply_big_gin,
}
