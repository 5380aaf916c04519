"""The engine's exceptions: one hierarchy, each with a stable machine ``code``.

The UI translates ``code``; ``str(error)`` is an English sentence for people
reading logs and tracebacks.  Every class is a ``ValueError`` so that callers
that only care about "bad input" can catch that.
"""

from __future__ import annotations

__all__ = ["GinError", "CardParseError", "RulesError", "IllegalMove", "SaveError"]


class GinError(ValueError):
    """Base class: bad input to the engine.  ``code`` is stable, for machines."""

    code: str = "error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


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
