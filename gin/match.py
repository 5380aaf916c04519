"""A match: seeded deals played to the target, with the end-of-match bonuses.

``Match`` is mutable: ``apply`` plays one action of the current deal (in
place, and returns the match).  A deal that ends is recorded in ``results``
and, unless the match is over, the next deal starts at once: the winner of
a scored deal deals next; after a void deal the same dealer deals again.

>>> m = Match.new(seed="K7Q2-M9XD")
>>> m.deal.phase, len(m.deal.hands[0]), len(m.deal.stock)
('upcard_nondealer', 10, 31)
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import CARD_TEXT, Card, parse_cards
from .deal import Deal, Outcome
from .errors import MAX_DEPTH, IllegalMove, SaveError, quote, too_deep
from .rules import HOLLYWOOD_GAMES, Rules
from .shuffle import ALGORITHM, deal_cards, first_dealer, normalize_seed

__all__ = [
    "Match", "DealResult", "FinalResult", "final_totals", "hollywood_games", "SAVE_FORMAT", "SAVE_VERSION",
    "MAX_ACTIONS",
]

SAVE_FORMAT = "gin-save"
SAVE_VERSION = 1
#: The most actions a save may list (issue 36, item 10). The longest real match
#: seen (custom, target 500, Hollywood, knocking at once: 71 deals) has 3,006;
#: a save past this is refused (``too_long``) before anything is replayed, so a
#: crafted save cannot keep the engine busy for long: 10,000 actions load in
#: ~2 s in CPython on a loaded 2-core machine, inside the page's watchdog on a
#: slow phone (runtime/engine.js BUSY_TIMEOUT_MS).
MAX_ACTIONS = 10_000


@dataclass(frozen=True, slots=True)
class DealResult:
    """A finished deal of a match: its number, dealer, outcome and the totals after it."""

    number: int
    dealer: int
    outcome: Outcome
    #: The running totals after it (Hollywood: of the first game still open, else the last).
    scores: tuple[int, int]
    #: Hollywood only: each game's running totals after it.
    games: tuple[tuple[int, int], ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {"number": self.number, "dealer": self.dealer, **self.outcome.to_dict(), "scores": list(self.scores)}
        if self.games is not None:
            d["games"] = [list(g) for g in self.games]
        return d


@dataclass(frozen=True, slots=True)
class FinalResult:
    """The end of a match: final totals (with bonuses), the winner (None: a draw)."""

    totals: tuple[int, int]
    winner: int | None
    #: Each bonus written out: {"seat", "kind", "points", "detail"}.
    bonuses: tuple[dict[str, Any], ...]
    #: Deal points before the bonuses (doubled for a standard shutout).
    base: tuple[int, int]
    #: Hollywood: each game's own result (the totals above are their sums).
    games: tuple["FinalResult", ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {
            "totals": list(self.totals),
            "winner": self.winner,
            "bonuses": [dict(b) for b in self.bonuses],
            "base": list(self.base),
        }
        if self.games is not None:
            d["games"] = [g.to_dict() for g in self.games]
        return d


@dataclass(frozen=True, slots=True)
class HollywoodGame:
    """One of Hollywood's three games: the deals entered in it and, once over, its result."""

    wins: tuple[tuple[int, int], ...]
    scores: tuple[int, int]
    final: FinalResult | None


def hollywood_games(rules: Rules, wins: Sequence[tuple[int, int]]) -> list[HollywoodGame]:
    """The three games of Hollywood scoring from the scored deals ``[(seat, points), ...]``.

    A player's first won deal is entered in game 1, the second in games 1 and
    2, the third and later ones in all three, each time only in the games
    still open.  A game is over when a player's total in it reaches the
    target; its bonuses (game, line, shutout) are those of ``final_result``
    over the deals entered in it.

    >>> [g.scores for g in hollywood_games(Rules.profile("traditional"), [(0, 30), (1, 20), (0, 40)])]
    [(70, 20), (40, 0), (0, 0)]
    """
    entered: list[list[tuple[int, int]]] = [[] for _ in range(HOLLYWOOD_GAMES)]
    finals: list[FinalResult | None] = [None] * HOLLYWOOD_GAMES
    won = [0, 0]
    for seat, points in wins:
        won[seat] += 1
        for g in range(min(won[seat], HOLLYWOOD_GAMES)):
            if finals[g] is None:
                entered[g].append((seat, points))
                if sum(p for s, p in entered[g] if s == seat) >= rules.target:
                    finals[g] = final_result(rules, entered[g])
    return [
        HollywoodGame(tuple(e), _totals(e), f) for e, f in zip(entered, finals, strict=True)
    ]


def _totals(wins: Sequence[tuple[int, int]]) -> tuple[int, int]:
    return (sum(p for s, p in wins if s == 0), sum(p for s, p in wins if s == 1))


def hollywood_result(games: Sequence[HollywoodGame]) -> FinalResult:
    """A Hollywood match's result: the sums of its three games' results (each game's bonuses tagged with it)."""
    finals = [g.final for g in games]
    if any(f is None for f in finals):
        raise ValueError("a Hollywood match ends when its three games are over")
    totals = [sum(f.totals[s] for f in finals) for s in (0, 1)]
    base = [sum(f.base[s] for f in finals) for s in (0, 1)]
    bonuses = tuple({**b, "game": n} for n, f in enumerate(finals, 1) for b in f.bonuses)
    winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    return FinalResult((totals[0], totals[1]), winner, bonuses, (base[0], base[1]), tuple(finals))


def final_result(rules: Rules, wins: Sequence[tuple[int, int]]) -> FinalResult:
    """The final totals of a match from its scored deals ``[(seat, points), ...]``."""
    points = [0, 0]
    won = [0, 0]
    for seat, p in wins:
        if seat not in (0, 1):
            raise ValueError(f"a seat is 0 or 1, not {seat!r}")
        points[seat] += p
        won[seat] += 1
    reached = [s for s in (0, 1) if points[s] >= rules.target]
    if len(reached) == 2:  # not possible in play (one seat scores a deal); the higher one wins
        reached = [0 if points[0] >= points[1] else 1]
    base = list(points)
    bonuses: list[dict[str, Any]] = []
    if reached:
        w = reached[0]
        shutout = won[1 - w] == 0
        if shutout and rules.shutout == "double":
            bonuses.append({"seat": w, "kind": "shutout_double", "points": points[w], "detail": f"{points[w]} × 2"})
            base[w] = points[w] * 2
            bonuses.append({"seat": w, "kind": "game", "points": rules.game_bonus, "detail": str(rules.game_bonus)})
        elif shutout:
            bonuses.append(
                {"seat": w, "kind": "game_shutout", "points": rules.shutout_game_bonus, "detail": str(rules.shutout_game_bonus)}
            )
        else:
            bonuses.append({"seat": w, "kind": "game", "points": rules.game_bonus, "detail": str(rules.game_bonus)})
    for s in (0, 1):
        if won[s]:
            bonuses.append(
                {
                    "seat": s,
                    "kind": "line",
                    "points": won[s] * rules.line_bonus,
                    "detail": f"{won[s]} × {rules.line_bonus}",
                }
            )
    totals = list(points)
    for b in bonuses:
        totals[b["seat"]] += b["points"]
    winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    return FinalResult((totals[0], totals[1]), winner, tuple(bonuses), (points[0], points[1]))


def final_totals(rules: Rules, wins: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """Both final totals with every end-of-match bonus.

    >>> final_totals(Rules.profile("standard"), [(0, 30), (0, 40), (0, 35)])
    (385, 0)
    >>> final_totals(Rules.profile("standard"), [(0, 30), (1, 20), (0, 40), (0, 35)])
    (280, 45)
    """
    return final_result(rules, wins).totals


def canonical_action(action: dict[str, Any], outcome: Outcome | None = None) -> dict[str, Any]:
    """The canonical form of an action that was just applied, for the save.

    Only the keys its type uses are kept (no ``seat``, nothing extra), cards in
    canonical notation (``"10h"`` → ``"TH"``).  A knock or big gin records the
    melds that were scored (``outcome``), so a save does not depend on how the
    best arrangement breaks ties.
    """
    kind = action["type"]
    out: dict[str, Any] = {"type": kind}
    if kind == "draw":
        out["from"] = action["from"]
    if kind in ("discard", "knock"):
        out["card"] = CARD_TEXT[Card.parse(action["card"]).index]
    if kind in ("knock", "big_gin"):
        if outcome is not None and outcome.knocker_arrangement is not None:
            melds = outcome.knocker_arrangement.melds
        else:
            melds = tuple(parse_cards(m) for m in action["melds"])
        out["melds"] = [[CARD_TEXT[c.index] for c in m] for m in melds]
    return out


class Match:
    """Deals played to the target.  Build with ``Match.new`` or ``Match.from_save``."""

    __slots__ = ("seed", "rules", "results", "deal", "deal_number", "actions", "final", "meta")

    def __init__(self, *, seed: str, rules: Rules) -> None:
        self.seed = normalize_seed(seed)
        self.rules = rules
        self.results: list[DealResult] = []
        self.actions: list[dict[str, Any]] = []
        self.final: FinalResult | None = None
        #: Opaque JSON data kept in the save (the bridge keeps the levels here).
        self.meta: dict[str, Any] = {}
        self.deal_number = 1
        self.deal = self._new_deal(1, first_dealer(self.seed))

    @classmethod
    def new(cls, *, seed: str, rules: Rules | str | None = None) -> "Match":
        """A new match at its first decision (``rules``: a Rules or a profile name)."""
        if isinstance(rules, str):
            rules = Rules.profile(rules)
        return cls(seed=seed, rules=rules or Rules.profile("traditional"))

    def _new_deal(self, number: int, dealer: int) -> Deal:
        nondealer_cards, dealer_cards, upcard, stock = deal_cards(self.seed, number)
        return Deal.from_indices(
            rules=self.rules,
            dealer=dealer,
            nondealer_cards=nondealer_cards,
            dealer_cards=dealer_cards,
            upcard=upcard,
            stock=stock,
        )

    # -- reading ------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.final is not None

    @property
    def to_act(self) -> int | None:
        return None if self.over else self.deal.to_act

    @property
    def scores(self) -> tuple[int, int]:
        """Running totals of deal points (no bonuses); Hollywood: of the first game still open."""
        return self.results[-1].scores if self.results else (0, 0)

    @property
    def games(self) -> list[HollywoodGame] | None:
        """Hollywood's three games as they stand (None for one game)."""
        return hollywood_games(self.rules, self.wins) if self.rules.hollywood else None

    @property
    def wins(self) -> list[tuple[int, int]]:
        """The scored deals as ``(seat, points)``."""
        return [(r.outcome.winner, r.outcome.points) for r in self.results if r.outcome.winner is not None]

    @property
    def winner(self) -> int | None:
        return None if self.final is None else self.final.winner

    def legal_actions(self) -> list[dict[str, Any]]:
        return [] if self.over else self.deal.legal_actions()

    # -- playing ------------------------------------------------------------

    def apply(self, action: dict[str, Any]) -> "Match":
        """Apply one action of the current deal (in place); return the match.

        Raises ``IllegalMove`` and changes nothing for an illegal action
        (``game_over`` once the match has ended).
        """
        if self.over:
            raise IllegalMove("the match is over", code="game_over")
        deal = self.deal
        deal.apply(action)
        # Only now: an action that was refused must leave no trace.
        self.actions.append(canonical_action(action, deal.outcome))
        if deal.outcome is not None:
            self._finish_deal(deal.outcome)
        return self

    def _finish_deal(self, outcome: Outcome) -> None:
        if self.rules.hollywood:
            wins = self.wins
            if outcome.winner is not None:
                wins.append((outcome.winner, outcome.points))
            games = hollywood_games(self.rules, wins)
            playing = [g for g in games if g.final is None]
            current = (playing or games)[0].scores
            self.results.append(
                DealResult(self.deal_number, self.deal.dealer, outcome, current, tuple(g.scores for g in games))
            )
            over = not playing
        else:
            scores = list(self.scores)
            if outcome.winner is not None:
                scores[outcome.winner] += outcome.points
            self.results.append(DealResult(self.deal_number, self.deal.dealer, outcome, (scores[0], scores[1])))
            over = max(scores) >= self.rules.target
        if over:
            self.final = hollywood_result(self.games) if self.rules.hollywood else final_result(self.rules, self.wins)
            return
        dealer = self.deal.dealer if outcome.winner is None else outcome.winner
        self.deal_number += 1
        self.deal = self._new_deal(self.deal_number, dealer)

    def copy(self) -> "Match":
        """An independent copy: its deal, results, actions and meta copied (to play
        a deal on from here without touching this match, e.g. gin.duplicate)."""
        c = Match.__new__(Match)
        c.seed, c.rules, c.deal_number, c.final = self.seed, self.rules, self.deal_number, self.final
        c.deal = self.deal.copy()
        c.results = list(self.results)
        c.actions = [dict(a) for a in self.actions]
        c.meta = copy.deepcopy(self.meta)
        return c

    # -- views and saves ----------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see, JSON-ready, never the seed (see ``gin.view``).

        ``SeatError`` (code ``bad_seat``) unless ``seat`` is the int 0 or 1.
        """
        from .view import match_view

        return match_view(self, seat)

    def to_save(self) -> dict[str, Any]:
        """``{format, version, shuffle, seed, rules, meta, actions}``: replayed by ``from_save``."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "shuffle": ALGORITHM,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "meta": dict(self.meta),
            "actions": [dict(a) for a in self.actions],
        }

    def to_text(self) -> str:
        """The match as text (header, deals, moves, results): docs/notation.md.

        ``Match.from_text`` reads it back: the same save, the same text.
        """
        from .notation import dumps

        return dumps(self)

    @classmethod
    def from_text(cls, text: Any) -> "Match":
        """The match a text describes, replayed and checked by the engine.

        Raises ``InvalidNotation`` (not the notation) or ``IllegalPlay`` (play
        the engine refuses, or a card, hand or result it does not deal or
        score); both quote the line and its number (``gin.notation.parse``).
        """
        from .notation import parse

        return parse(text)

    @classmethod
    def from_save(cls, save: Any) -> "Match":
        """Rebuild a match by replaying its actions; raise ``SaveError`` saying why not.

        The error's ``code`` is ``bad_save``; its ``reason`` is one of
        ``not_an_object``, ``bad_format``, ``wrong_version``, ``bad_rules``,
        ``bad_seed``, ``bad_meta``, ``bad_actions``, ``does_not_replay``,
        ``too_deep`` (lists and objects nested deeper than ``MAX_DEPTH``,
        checked before anything else reads it), ``too_long`` (more than
        ``MAX_ACTIONS`` actions, checked before any is replayed).
        """
        if not isinstance(save, dict):
            raise SaveError(f"a save is a JSON object, not {type(save).__name__}", reason="not_an_object")
        if too_deep(save):
            raise SaveError(f"the save nests deeper than {MAX_DEPTH} levels", reason="too_deep")
        if save.get("format") != SAVE_FORMAT:
            raise SaveError(f"not a gin save (format {quote(save.get('format'))})", reason="bad_format")
        version = save.get("version")
        if type(version) is not int or version != SAVE_VERSION:
            raise SaveError(
                f"save version {quote(version)} is not supported (this game reads {SAVE_VERSION})",
                reason="wrong_version",
            )
        if save.get("shuffle", ALGORITHM) != ALGORITHM:
            raise SaveError(f"unknown shuffle {quote(save.get('shuffle'))}", reason="wrong_version")
        try:
            rules = Rules.from_dict(save.get("rules"))
        except ValueError as exc:
            raise SaveError(f"bad rules in save: {exc}", reason="bad_rules") from None
        if "seed" not in save:
            raise SaveError("save has no seed", reason="bad_seed")
        try:
            match = cls(seed=save["seed"], rules=rules)
        except ValueError as exc:
            raise SaveError(f"bad seed in save: {exc}", reason="bad_seed") from None
        meta = save.get("meta", {})
        if not isinstance(meta, dict):
            raise SaveError("save meta must be an object", reason="bad_meta")
        match.meta = dict(meta)
        actions = save.get("actions")
        if not isinstance(actions, list):
            raise SaveError("save has no actions list", reason="bad_actions")
        if len(actions) > MAX_ACTIONS:
            raise SaveError(f"the save lists {len(actions)} actions; a match has at most {MAX_ACTIONS}", reason="too_long")
        for n, action in enumerate(actions):
            if not isinstance(action, dict) or "seat" in action:
                raise SaveError(f"action {n} is not an action: {quote(action)}", reason="bad_actions")
            try:
                match.apply(action)
            except IllegalMove as exc:
                raise SaveError(
                    f"action {n} {quote(action)} does not replay: {exc} ({exc.code})", reason="does_not_replay"
                ) from None
        return match
