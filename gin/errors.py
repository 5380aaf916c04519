"""The engine's exceptions: one hierarchy, each with a stable machine ``code``.

The UI translates ``code``; ``str(error)`` is an English sentence for people
reading logs and tracebacks.  Every class is a ``ValueError`` so that callers
that only care about "bad input" can catch that.
"""

from __future__ import annotations

import reprlib
from typing import Any

__all__ = [
    "GinError", "CardParseError", "RulesError", "IllegalMove", "SaveError", "SeatError",
    "NotationError", "InvalidNotation", "IllegalPlay",
    "MAX_DEPTH", "too_deep", "quote", "check_seat",
]

#: How deeply lists and objects may nest in anything the engine reads (a save
#: nests 6 deep; the rest is room for the UI's ``meta``).  Deeper input is
#: refused by a check before it is parsed or walked, with the code of what it
#: is (``bad_save``, ``bad_action``, ``invalid_melds``), never a RecursionError.
MAX_DEPTH = 32

_quote = reprlib.Repr()
_quote.maxlevel = 3
_quote.maxstring = 60
_quote.maxother = 60


def quote(value: Any) -> str:
    """A short repr of any input for an error message (safe for deeply nested values)."""
    return _quote.repr(value)


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Do lists, tuples and dicts nest more than ``limit`` levels in ``value``?  (No recursion.)"""
    # Level by level: the containers at this depth, then those inside them.
    level = [value] if isinstance(value, _NESTING) else []
    depth = 1
    while level:
        if depth > limit:
            return True
        inner = []
        for item in level:
            inner += [child for child in (item.values() if isinstance(item, dict) else item) if isinstance(child, _NESTING)]
        level = inner
        depth += 1
    return False


_NESTING = (dict, list, tuple)


class GinError(ValueError):
    """Base class: bad input to the engine.  ``code`` is stable, for machines."""

    code: str = "error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    def details(self) -> dict[str, Any]:
        """What the bridge adds to ``{"code", "message"}`` for this error (nothing here)."""
        return {}


class CardParseError(GinError):
    """Card text that is not a card, e.g. ``'1Z'``; the message quotes it."""

    code = "bad_card"


class RulesError(GinError):
    """A rule profile or option that is not one of the allowed values."""

    code = "bad_rules"


class IllegalMove(GinError):
    """An action that the rules do not allow now; the state is unchanged.

    >>> IllegalMove("draw a card first", code="must_draw_first").code
    'must_draw_first'
    """

    code = "illegal_move"


class SaveError(GinError):
    """A save that cannot be loaded (bad format, wrong version, does not replay).

    ``code`` is always ``bad_save`` (what the UI acts on); ``reason`` says which
    check failed, e.g. ``wrong_version`` or ``does_not_replay``.

    >>> e = SaveError("save version 2 is not supported", reason="wrong_version")
    >>> e.code, e.reason
    ('bad_save', 'wrong_version')
    """

    code = "bad_save"

    def __init__(self, message: str, *, code: str | None = None, reason: str = "bad_save") -> None:
        super().__init__(message, code=code)
        self.reason = reason


class SeatError(GinError):
    """A seat that is not the integer 0 or 1 (``True``, ``2``, ``"0"``...)."""

    code = "bad_seat"


def check_seat(seat: Any) -> int:
    """``seat`` if it is the int 0 or 1 (not a bool, not 0.0); else raise ``SeatError``."""
    if type(seat) is not int or seat not in (0, 1):
        raise SeatError(f"a seat is 0 or 1, not {quote(seat)}")
    return seat


class NotationError(GinError):
    """A match's text (``gin.notation``) that cannot be read: the base of the two below.

    ``line`` is the 1-based number of the line at fault (None: the text as a
    whole, e.g. too long or ending too soon) and ``text`` that line; the
    message quotes both, then says why.

    >>> e = InvalidNotation("not a card: 'X9'", code="bad_card", line=12, text=" 3. sX9 4C")
    >>> print(e)
    line 12: '3. sX9 4C': not a card: 'X9'
    >>> e.code, e.details()
    ('bad_card', {'kind': 'syntax', 'line': 12, 'text': '3. sX9 4C'})
    """

    code = "bad_notation"
    #: "syntax" (not the notation) or "illegal" (well written, but not what the engine deals or allows).
    kind = "syntax"

    def __init__(self, why: str, *, code: str | None = None, line: int | None = None, text: str | None = None) -> None:
        self.line = line
        self.text = None if text is None else text.strip()[:200]
        self.why = why
        where = "" if line is None else f"line {line}: " + ("" if self.text is None else f"{self.text!r}: ")
        super().__init__(where + why, code=code)

    def details(self) -> dict[str, Any]:
        return {"kind": self.kind, "line": self.line, "text": self.text}


class InvalidNotation(NotationError):
    """Text that is not the notation: bad syntax, an unknown tag, a bad card,
    seed or rules, another version or shuffle, too long, cut short."""

    code = "bad_syntax"
    kind = "syntax"


class IllegalPlay(NotationError):
    """Well-formed text whose play the engine refuses: an illegal move (``code``
    is the engine's, e.g. ``card_not_in_hand``), or a card, hand or result that
    is not what the engine deals and scores (``mismatch``)."""

    code = "mismatch"
    kind = "illegal"
