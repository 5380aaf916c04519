"""Rule profiles: ``traditional`` (the default), ``standard`` and ``custom``.

The values are those of RULES.md.  A ``Rules`` is frozen: the profile is fixed
when a match starts and never changes in it.

>>> Rules.profile("standard").gin_bonus
25
>>> Rules.profile("custom", big_gin_bonus=31, target=250).big_gin_bonus
31
>>> Rules.profile("custom", gin_bonus=30)
Traceback (most recent call last):
...
gin.errors.RulesError: custom gin_bonus must be one of 20, 25 (got 30)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .errors import RulesError, quote

__all__ = ["Rules", "PROFILES", "CUSTOM_CHOICES"]

PROFILES = ("traditional", "standard", "custom")

#: The values a custom table may choose (seed 002's "sala personalizada").
CUSTOM_CHOICES: dict[str, tuple[Any, ...]] = {
    "gin_bonus": (20, 25),
    "undercut_bonus": (10, 20, 25),
    "big_gin_bonus": (None, 25, 31, 50),
    "target": (100, 250, 500),
}


@dataclass(frozen=True, slots=True)
class Rules:
    """The numbers a match is played by.  Build one with ``Rules.profile``."""

    profile_name: str = "traditional"
    knock_limit: int = 10
    gin_bonus: int = 20
    undercut_bonus: int = 10
    #: None: big gin is off.
    big_gin_bonus: int | None = None
    target: int = 100
    game_bonus: int = 100
    #: "bonus": the game bonus becomes ``shutout_game_bonus``;
    #: "double": the winner's deal points are doubled before the bonuses.
    shutout: str = "bonus"
    shutout_game_bonus: int = 200
    line_bonus: int = 20

    @classmethod
    def profile(cls, name: str = "traditional", **options: Any) -> "Rules":
        """The rules of a named profile; only ``custom`` takes options."""
        if name == "traditional":
            base = cls()
        elif name == "standard":
            base = cls(
                profile_name="standard",
                gin_bonus=25,
                undercut_bonus=25,
                shutout="double",
                line_bonus=25,
            )
        elif name == "custom":
            base = cls(profile_name="custom")
        else:
            raise RulesError(
                f"unknown rule profile {name!r} (expected one of {', '.join(PROFILES)})",
                code="unknown_profile",
            )
        if options and name != "custom":
            raise RulesError(
                f"profile {name!r} takes no options (got {', '.join(sorted(options))}); use 'custom'",
                code="bad_option",
            )
        values = {}
        for key, value in options.items():
            allowed = CUSTOM_CHOICES.get(key)
            if allowed is None:
                raise RulesError(
                    f"unknown custom option {key!r} (expected one of {', '.join(CUSTOM_CHOICES)})",
                    code="bad_option",
                )
            # Exactly an int (or None): not True for 1, not 100.0 for 100.
            if not (value is None or type(value) is int) or value not in allowed:
                shown = ", ".join("None" if a is None else str(a) for a in allowed)
                raise RulesError(
                    f"custom {key} must be one of {shown} (got {quote(value)})", code="bad_option"
                )
            values[key] = value
        return cls(**{**asdict(base), **values}) if values else base

    @property
    def big_gin(self) -> bool:
        return self.big_gin_bonus is not None

    def options(self) -> dict[str, Any]:
        """The custom options (empty for the fixed profiles)."""
        if self.profile_name != "custom":
            return {}
        return {key: getattr(self, key) for key in CUSTOM_CHOICES}

    def to_dict(self) -> dict[str, Any]:
        """Every value, JSON-ready; ``from_dict`` checks it against the profile."""
        d = asdict(self)
        d["profile"] = d.pop("profile_name")
        return d

    @classmethod
    def from_dict(cls, d: Any) -> "Rules":
        """Rebuild from ``to_dict()``; any value not matching its profile is refused."""
        if not isinstance(d, dict) or not isinstance(d.get("profile"), str):
            raise RulesError(f"rules must be a dict with a 'profile': {quote(d)}")
        options = {k: d[k] for k in CUSTOM_CHOICES if k in d} if d["profile"] == "custom" else {}
        rules = cls.profile(d["profile"], **options)
        expected = rules.to_dict()
        for key, value in d.items():
            want = expected.get(key, object())
            if type(want) is not type(value) or want != value:
                raise RulesError(
                    f"rule {key}={quote(value)} does not belong to profile {d['profile']!r}"
                )
        return rules
