"""A whole match as text, and back: ``dumps(match)`` and ``parse(text)``.

The text is a header of tags (the format and its version, the engine's
shuffle, the seed, the rules, the computer's level), then each deal: a
heading with its number, dealer and upcard, both hands as dealt, the moves
in numbered rounds (the non-dealer's turn, then the dealer's), and the
deal's result; after the last deal, the match's result.  Everything the text
says is checked by replaying it through the engine: the cards drawn, the
hands, the results and the scores.  docs/notation.md has the grammar, a
whole example and the errors.

>>> from gin import Match
>>> m = Match.new(seed="NOTATION-DOC")
>>> m.apply({"type": "pass"}).apply({"type": "take"}).apply({"type": "discard", "card": "KD"}) and None
>>> print(dumps(m), end="")
[Format "gin-text"]
[Version "1"]
[Shuffle "gin-shuffle-v1"]
[Seed "NOTATION-DOC"]
[Rules "traditional"]
<BLANKLINE>
Deal 1: dealer 1, upcard QC
hand 0: 6C 8C JC AD QD AH 8H KH AS 3S
hand 1: AC 2C 3C KC KD 4H 6H JH 8S KS
 1. pass    tQC KD
>>> parse(dumps(m)).to_save() == m.to_save()
True
>>> parse(dumps(m).replace("tQC KD", "tQC 5S"))
Traceback (most recent call last):
...
gin.errors.IllegalPlay: line 10: '1. pass    tQC 5S': 5S: 5S is not in the hand
"""

from __future__ import annotations

import re
from typing import Any

from .cards import ALL_CARDS, Card
from .deal import Deal
from .errors import CardParseError, IllegalMove, IllegalPlay, InvalidNotation, RulesError, SaveError, quote
from .match import DealResult, FinalResult, Match
from .rules import PROFILE_OPTIONS, Rules
from .shuffle import ALGORITHM, normalize_seed

__all__ = ["dumps", "parse", "FORMAT", "VERSION", "MAX_CHARS", "LEVELS"]

FORMAT = "gin-text"
VERSION = 1
#: The longest text read (characters): about three times the longest match
#: seen (31,000 characters, 71 deals; docs/notation.md).  A paste over it is
#: refused at once (``too_long``), before anything is parsed or replayed, so
#: no paste makes the worker replay more than about 16,000 moves.
MAX_CHARS = 100_000
LEVELS = ("easy", "normal", "hard")

#: The tags in the order they are printed (Level and NextLevel only when the match has them).
_TAGS = ("Format", "Version", "Shuffle", "Seed", "Rules", "Level", "NextLevel")
_TAG = re.compile(r'\[\s*([A-Za-z]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_ROUND = re.compile(r"([0-9]{1,3})\.(.*)")
#: What separates the words of a checked line (heading, hands, results).
_SEPARATORS = re.compile(r"[\s,;:()]+")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
#: The width the non-dealer's turn is padded to, so that a deal's rounds line up.
_TURN_WIDTH = 6


# -- printing ----------------------------------------------------------------


def dumps(match: Match) -> str:
    """The text of ``match`` (finished or not); ``parse`` reads it back.

    Raises ``SaveError`` (reason ``bad_levels``) if the match's ``meta`` has a
    level that does not exist or not one per deal.
    """
    level, levels, next_level = _meta_levels(match)
    lines = [
        _tag("Format", FORMAT), _tag("Version", str(VERSION)), _tag("Shuffle", ALGORITHM),
        _tag("Seed", match.seed), _tag("Rules", _rules_text(match.rules)),
    ]
    if level is not None:
        lines.append(_tag("Level", level))
    if next_level is not None:
        lines.append(_tag("NextLevel", next_level))
    m = Match(seed=match.seed, rules=match.rules)
    lines += ["", *_deal_lines(m, levels)]
    row: list[str] = []  # the finished turns of the round being written
    turn: list[str] = []  # the words of the turn being written
    number = 1
    for action in match.actions:
        ended = len(m.results)
        turn.append(_move(m.deal, action))
        m.apply(action)
        if action["type"] not in ("take", "draw"):
            row.append(" ".join(turn))
            turn = []
        ended = len(m.results) > ended
        if len(row) == 2 or ended:
            lines.append(_round_line(number, row))
            row, number = [], number + 1
        if ended:
            lines.append(_result_line(m.results[-1]))
            if m.final is not None:
                lines.append(_final_line(m.final))
            else:
                lines += ["", *_deal_lines(m, levels)]
                number = 1
    if turn:
        row.append(" ".join(turn))
    if row:
        lines.append(_round_line(number, row))
    return "\n".join(lines) + "\n"


def _tag(name: str, value: str) -> str:
    return f'[{name} "{value.replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}"]'


def _rules_text(rules: Rules) -> str:
    """``traditional``, ``custom gin_bonus=25 undercut_bonus=10 big_gin_bonus=none target=100``..."""
    options = (f"{key}={_value_text(value)}" for key, value in rules.options().items())
    return " ".join((rules.profile_name, *options))


def _value_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _meta_levels(match: Match) -> tuple[str | None, list[str] | None, str | None]:
    """The computer's level, its level in each deal, the level asked for the next deal (``meta``)."""
    meta = match.meta
    level, levels, next_level = meta.get("level"), meta.get("levels"), meta.get("next_level")
    ok = level in (None, *LEVELS) and next_level in (None, *LEVELS) and (
        levels is None
        or (isinstance(levels, list) and len(levels) == match.deal_number and all(v in LEVELS for v in levels))
    )
    if not ok:
        raise SaveError(
            f"meta's levels must be one of {', '.join(LEVELS)}, one per deal: {quote(meta)}", reason="bad_levels"
        )
    return level, levels, next_level


def _deal_head(m: Match) -> str:
    return f"Deal {m.deal_number}: dealer {m.deal.dealer}, upcard {m.deal.upcard}"


def _hand_line(deal: Deal, seat: int) -> str:
    return f"hand {seat}: " + " ".join(str(c) for c in deal.hands[seat])


def _deal_lines(m: Match, levels: list[str] | None) -> list[str]:
    """A deal's heading and its two hands as dealt, in the order they play (the non-dealer's first)."""
    head = _deal_head(m)
    if levels is not None:
        head += f", level {levels[m.deal_number - 1]}"
    return [head, _hand_line(m.deal, m.deal.nondealer), _hand_line(m.deal, m.deal.dealer)]


def _move(deal: Deal, action: dict[str, Any]) -> str:
    """One action in words, read before it is applied (the card a draw takes is on the table)."""
    kind = action["type"]
    if kind == "pass":
        return "pass"
    if kind == "take":
        return f"t{deal.upcard}"
    if kind == "draw":
        return f"s{ALL_CARDS[deal.stock_list[-1]]}" if action["from"] == "stock" else f"p{deal.upcard}"
    if kind == "discard":
        return action["card"]
    melds = [f"[{' '.join(meld)}]" for meld in action["melds"]]
    if kind == "knock":
        return " ".join(("knock", action["card"], *melds))
    return " ".join(("big_gin", *melds))


def _round_line(number: int, turns: list[str]) -> str:
    if len(turns) == 1:
        return f"{number:>2}. {turns[0]}"
    return f"{number:>2}. {turns[0]:<{_TURN_WIDTH}}  {turns[1]}"


def _pair(scores: tuple[int, int]) -> str:
    return f"{scores[0]}-{scores[1]}"


def _result_line(result: DealResult) -> str:
    """``= 0 knocks, 0 scores 14 (deadwood 4-18, layoffs 4S); score 14-0``."""
    o = result.outcome
    scores = f"score {_pair(result.scores)}" if result.games is None else "games " + " ".join(map(_pair, result.games))
    if o.kind == "void" or o.deadwood is None:
        return f"= void; {scores}"
    what = {
        "knock": f"{o.knocker} knocks",
        "gin": f"{o.knocker} gin",
        "big_gin": f"{o.knocker} big gin",
        "undercut": f"{o.knocker} knocks, {o.winner} undercuts",
    }[o.kind]
    details = [f"deadwood {_pair(o.deadwood)}"]
    if o.layoffs:
        details.append("layoffs " + " ".join(str(lay.card) for lay in o.layoffs))
    if o.multiplier != 1:
        details.append(f"x{o.multiplier}")
    return f"= {what}, {o.winner} scores {o.points} ({', '.join(details)}); {scores}"


def _bonuses(bonuses: tuple[dict[str, Any], ...]) -> str:
    return ", ".join(f"{b['seat']} {b['kind']} +{b['points']}" for b in bonuses)


def _final_line(final: FinalResult) -> str:
    """``== 0 wins 245-112; 0 game +100, 0 line +60, 1 line +40`` (Hollywood: per game)."""
    who = "draw" if final.winner is None else f"{final.winner} wins"
    if final.games is None:
        return f"== {who} {_pair(final.totals)}; {_bonuses(final.bonuses)}"
    games = "; ".join(f"game {n}: {_bonuses(g.bonuses)}" for n, g in enumerate(final.games, 1))
    return f"== {who} {_pair(final.totals)}; {games}"


# -- parsing -----------------------------------------------------------------


def parse(text: Any) -> Match:
    """The match a text describes, replayed and checked by the engine.

    Raises ``InvalidNotation`` for text that is not the notation (syntax, an
    unknown tag, a bad card, seed or rules, another version or shuffle, too
    long, cut short) and ``IllegalPlay`` for text the engine does not play
    as written (an illegal move, with the engine's code; a card, hand or
    result that is not what it deals and scores: ``mismatch``).  Both quote
    the line and its number.  The match's ``meta`` holds the levels the text
    names (``level``, ``levels``, ``next_level``).
    """
    if not isinstance(text, str):
        raise InvalidNotation(f"a match's text is a string, not {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise InvalidNotation(
            f"the text has {len(text)} characters; a match's text has at most {MAX_CHARS}", code="too_long"
        )
    lines = re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff"))
    numbered = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    body = next((k for k, (_, line) in enumerate(numbered) if not line.lstrip().startswith("[")), len(numbered))
    reader = _Reader(*_header(numbered[:body]))
    for n, line in numbered[body:]:
        reader.read(n, line.strip())
    return reader.finish()


def _header(lines: list[tuple[int, str]]) -> tuple[Match, dict[str, Any]]:
    """The match the header's tags start, and the levels it names."""
    if not lines:
        raise InvalidNotation(f'not a match\'s text, which starts with [Format "{FORMAT}"]', code="bad_format")
    tags: dict[str, tuple[str, int, str]] = {}
    names = {name.lower(): name for name in _TAGS}
    for n, line in lines:
        found = _TAG.fullmatch(line.strip())
        if found is None:
            raise InvalidNotation('a tag is [Name "value"]', line=n, text=line)
        name = names.get(found.group(1).lower(), found.group(1))
        if name in tags:
            raise InvalidNotation(f"a second {name} tag", line=n, text=line)
        tags[name] = (re.sub(r"\\(.)", r"\1", found.group(2)), n, line)

    def value(name: str, code: str = "bad_syntax") -> tuple[str, dict[str, Any]]:
        if name not in tags:
            raise InvalidNotation(f"the header has no {name} tag", code=code)
        v, n, line = tags[name]
        return v, {"line": n, "text": line}

    fmt, at = value("Format", "bad_format")
    if fmt.strip().translate(_ASCII_LOWER) != FORMAT:
        raise InvalidNotation(f"not a match's text (format {quote(fmt)}, not {FORMAT!r})", code="bad_format", **at)
    version, at = value("Version")
    if version.strip() != str(VERSION):
        raise InvalidNotation(
            f"version {quote(version)} of the notation is not read by this game (it reads {VERSION})",
            code="wrong_version", **at,
        )
    for name, (_, n, line) in tags.items():
        if name not in _TAGS:
            raise InvalidNotation(f"unknown tag {quote(name)} (the tags are {', '.join(_TAGS)})", line=n, text=line)
    shuffle, at = value("Shuffle")
    if shuffle.strip().translate(_ASCII_LOWER) != ALGORITHM:
        raise InvalidNotation(
            f"dealt by the shuffle {quote(shuffle)}; this game deals by {ALGORITHM}, so the same seed would give"
            " other cards",
            code="wrong_shuffle", **at,
        )
    rules = _rules(*value("Rules"))
    seed, at = value("Seed")
    try:
        match = Match(seed=seed, rules=rules)
    except ValueError as exc:
        raise InvalidNotation(f"bad seed: {exc}", code="bad_seed", **at) from None
    meta: dict[str, Any] = {}
    for name, key in (("Level", "level"), ("NextLevel", "next_level")):
        if name in tags:
            level, at = value(name)
            meta[key] = _level(level.strip().translate(_ASCII_LOWER), **at)
    return match, meta


def _rules(text: str, at: dict[str, Any]) -> Rules:
    """``traditional`` or ``custom gin_bonus=25 ...`` (ASCII letters in either case)."""
    words = text.translate(_ASCII_LOWER).split()
    if not words:
        raise InvalidNotation("the Rules tag names no profile", code="bad_rules", **at)
    options: dict[str, Any] = {}
    for word in words[1:]:
        key, equals, raw = word.partition("=")
        value: Any
        if raw in ("none", "true", "false"):
            value = {"none": None, "true": True, "false": False}[raw]
        elif re.fullmatch(r"[0-9]{1,6}", raw):
            value = int(raw)
        else:
            raise InvalidNotation(f"a rule option is key=value, not {quote(word)}", code="bad_rules", **at)
        if not equals or key in options:
            raise InvalidNotation(f"a rule option is given once as key=value: {quote(word)}", code="bad_rules", **at)
        options[key] = value
    try:
        return Rules.profile(words[0], **options)
    except RulesError as exc:
        raise InvalidNotation(f"bad rules: {exc}", code="bad_rules", **at) from None


def _level(word: str, *, line: int, text: str) -> str:
    if word not in LEVELS:
        raise InvalidNotation(f"a level is {', '.join(LEVELS)}, not {quote(word)}", code="bad_level", line=line, text=text)
    return word


def _words(text: str) -> list[str]:
    """A checked line's words, cards in canonical notation, other words in ASCII lower case."""
    return [_word(w) for w in _SEPARATORS.split(text) if w]


def _word(word: str) -> str:
    try:
        return str(Card.parse(word))
    except CardParseError:
        return word.translate(_ASCII_LOWER)


class _Reader:
    """The body's lines, one at a time, against the match they replay.

    ``expect`` is what the next line must be: ``head`` (a deal's heading),
    ``hand0`` and ``hand1`` (the non-dealer's hand, the dealer's), ``rounds`` (a round, or the deal's end), ``result``
    (the deal that just ended), ``final`` (the match's result), ``end``.
    """

    def __init__(self, match: Match, meta: dict[str, Any]) -> None:
        self.match = match
        self.meta = meta
        self.levels: list[str] | None = None
        self.expect = "head"
        self.round = 1
        # A line that must be the text's last: (number, text, why).
        self.last: tuple[int, str, str] | None = None

    def read(self, n: int, line: str) -> None:
        if self.last is not None:
            at, text, why = self.last
            raise InvalidNotation(f"{why}, yet the text goes on (line {n})", line=at, text=text)
        if self.expect == "head":
            self._head(n, line)
        elif self.expect in ("hand0", "hand1"):
            deal = self.match.deal
            self._hand(n, line, deal.nondealer if self.expect == "hand0" else deal.dealer)
        elif self.expect == "rounds":
            self._round(n, line)
        elif self.expect == "result":
            self._result(n, line)
        elif self.expect == "final":
            self._final(n, line)
        else:
            raise IllegalPlay("the match is over: nothing comes after its result", code="game_over", line=n, text=line)

    def finish(self) -> Match:
        m = self.match
        missing = {
            "head": f"the heading of deal {m.deal_number}",
            "hand0": f"the hands of deal {m.deal_number}",
            "hand1": f"the dealer's hand of deal {m.deal_number}",
            "result": f"the result of deal {m.results[-1].number}" if m.results else "",
            "final": "the result of the match",
        }.get(self.expect)
        if missing:
            raise InvalidNotation(f"the text ends before {missing}", code="incomplete")
        m.meta = {**self.meta, **({} if self.levels is None else {"levels": self.levels})}
        return m

    def _check(self, n: int, line: str, expected: str, what: str) -> None:
        if _words(line) != _words(expected):
            raise IllegalPlay(f"not {what}: the engine has {expected!r}", line=n, text=line)

    def _head(self, n: int, line: str) -> None:
        m = self.match
        words = _words(line)
        if not words or words[0] != "deal":
            raise InvalidNotation(f"expected the heading of deal {m.deal_number} ({_deal_head(m)!r})", line=n, text=line)
        named = len(words) >= 2 and words[-2] == "level"
        if (self.levels is not None) != named and m.deal_number > 1:
            has = "names" if self.levels is not None else "does not name"
            raise InvalidNotation(f"deal 1's heading {has} the computer's level; so does every deal's", line=n, text=line)
        if named:
            self.levels = [*(self.levels or []), _level(words[-1], line=n, text=line)]
            words = words[:-2]
        if words != _words(_deal_head(m)):
            raise IllegalPlay(f"not the deal dealt: the engine has {_deal_head(m)!r}", line=n, text=line)
        self.expect, self.round = "hand0", 1

    def _hand(self, n: int, line: str, seat: int) -> None:
        words = _words(line)
        if words[:2] != ["hand", str(seat)]:
            raise InvalidNotation(f"expected hand {seat} of deal {self.match.deal_number}", line=n, text=line)
        self._check(n, line, _hand_line(self.match.deal, seat), "the hand dealt")
        self.expect = "hand1" if self.expect == "hand0" else "rounds"

    def _result(self, n: int, line: str) -> None:
        result = self.match.results[-1]
        if not line.startswith("=") or line.startswith("=="):
            raise InvalidNotation(f"expected the result of deal {result.number} ('= ...')", line=n, text=line)
        self._check(n, line, _result_line(result), f"how deal {result.number} ended")
        self.expect = "final" if self.match.over else "head"

    def _final(self, n: int, line: str) -> None:
        if not line.startswith("=="):
            raise InvalidNotation("expected the result of the match ('== ...')", line=n, text=line)
        assert self.match.final is not None
        self._check(n, line, _final_line(self.match.final), "how the match ended")
        self.expect = "end"

    def _round(self, n: int, line: str) -> None:
        m = self.match
        found = _ROUND.fullmatch(line)
        if found is None:
            if line.startswith("=") or _words(line)[:1] == ["deal"]:
                raise IllegalPlay(f"deal {m.deal_number} is not over", line=n, text=line)
            raise InvalidNotation(f"expected round {self.round} of deal {m.deal_number} ('{self.round}. ...')", line=n, text=line)
        if int(found.group(1)) != self.round:
            raise InvalidNotation(f"expected round {self.round} of deal {m.deal_number}", line=n, text=line)
        words = found.group(2).replace("[", " [ ").replace("]", " ] ").split()
        if not words:
            raise InvalidNotation("a round with no move", line=n, text=line)
        turns = _Round(n, line, words).turns()
        for turn in turns:
            for word, action, card in turn:
                if self.expect == "result":  # the deal ended before this move
                    raise IllegalPlay(f"deal {m.results[-1].number} is over before {quote(word)}",
                                      code="game_over", line=n, text=line)
                self._play(n, line, word, action, card)
        if len(turns[-1]) == 1 and turns[-1][0][2] is not None:
            self.last = (n, line, "the turn is not finished (a draw, then a discard or a knock)")
        elif len(turns) == 1 and self.expect != "result":
            self.last = (n, line, "a round holds two turns: the non-dealer's, then the dealer's")
        self.round += 1

    def _play(self, n: int, line: str, word: str, action: dict[str, Any], card: Card | None) -> None:
        """Apply one move; ``card``: the card a draw says it takes."""
        m = self.match
        deal, results = m.deal, len(m.results)
        try:
            m.apply(action)
        except IllegalMove as exc:
            raise IllegalPlay(f"{word}: {exc}", code=exc.code, line=n, text=line) from None
        if card is not None:
            got = ALL_CARDS[deal.drawn if action.get("from") == "stock" else deal.taken]
            if got != card:
                where = {"take": "the upcard", "stock": "the top of the stock", "discard": "the top of the discard pile"}
                raise IllegalPlay(f"{word}: {where[action.get('from', 'take')]} is {got}, not {card}", line=n, text=line)
        if len(m.results) > results:
            self.expect = "result"


#: One move as read: its word (for messages), the action, and the card a draw says it takes.
_Move = tuple[str, dict[str, Any], Card | None]


class _Round:
    """The words of one round line read as turns (syntax only: the reader applies them)."""

    def __init__(self, n: int, line: str, words: list[str]) -> None:
        self.n, self.line, self.words = n, line, words
        self.i = 0

    def invalid(self, why: str, code: str = "bad_syntax") -> InvalidNotation:
        return InvalidNotation(why, code=code, line=self.n, text=self.line)

    def turns(self) -> list[list[_Move]]:
        """One or two turns, each its moves: ``pass``; a draw; a draw and a discard, knock or big gin."""
        turns: list[list[_Move]] = []
        while self.i < len(self.words):
            if len(turns) == 2:
                raise self.invalid("a round holds two turns: the non-dealer's, then the dealer's")
            turns.append(self.turn())
        return turns

    def turn(self) -> list[_Move]:
        word = self.next()
        if word.translate(_ASCII_LOWER) == "pass":
            return [(word, {"type": "pass"}, None)]
        source = {"t": "take", "s": "stock", "p": "discard"}.get(word[:1].translate(_ASCII_LOWER))
        if source is None:
            raise self.invalid(f"a turn is pass, or a draw: t, s or p and the card (e.g. s4S), not {quote(word)}")
        card = self.card(word[1:], word)
        draw = {"type": "take"} if source == "take" else {"type": "draw", "from": source}
        if self.i == len(self.words):
            return [(word, draw, card)]  # the text stops after this draw
        return [(word, draw, card), self.end_of_turn()]

    def end_of_turn(self) -> _Move:
        word = self.next()
        keyword = word.translate(_ASCII_LOWER)
        if keyword == "knock":
            card = self.card(self.next("the card a knock discards"), "knock")
            return (word, {"type": "knock", "card": str(card), "melds": self.melds()}, None)
        if keyword == "big_gin":
            return (word, {"type": "big_gin", "melds": self.melds()}, None)
        try:
            card = Card.parse(word)
        except CardParseError:
            raise self.invalid(f"after a draw comes a discard (a card), knock or big_gin, not {quote(word)}") from None
        return (word, {"type": "discard", "card": str(card)}, None)

    def next(self, what: str = "a move") -> str:
        if self.i == len(self.words):
            raise self.invalid(f"the line ends before {what}")
        self.i += 1
        return self.words[self.i - 1]

    def card(self, text: str, word: str) -> Card:
        try:
            return Card.parse(text)
        except CardParseError:
            raise self.invalid(f"not a card: {quote(text)} in {quote(word)}", code="bad_card") from None

    def melds(self) -> list[list[str]]:
        melds: list[list[str]] = []
        while self.i < len(self.words) and self.words[self.i] == "[":
            self.i += 1
            meld: list[str] = []
            while (word := self.next("the ] that closes a meld")) != "]":
                if word == "[":
                    raise self.invalid("a [ inside a meld")
                meld.append(str(self.card(word, word)))
            melds.append(meld)
        return melds
