"""Rule profiles: ``traditional`` (the default), ``standard``, ``custom``,
``oklahoma`` and ``straight``; Hollywood scoring is an option of every profile.

The values are those of RULES.md (the variants: README's rules section).  A
``Rules`` is frozen: the profile is fixed when a match starts and never
changes in it.  What depends on the deal (Oklahoma's knock limit and its
doubling, both set by the deal's first upcard) is asked of the rules with
``deal_knock_limit`` and ``deal_multiplier``.

>>> Rules.profile("standard").gin_bonus
25
>>> Rules.profile("custom", big_gin_bonus=31, target=250).big_gin_bonus
31
>>> Rules.profile("custom", gin_bonus=30)
Traceback (most recent call last):
...
gin.errors.RulesError: custom gin_bonus must be one of 20, 25 (got 30)
>>> okla = Rules.profile("oklahoma", spade_double=True)
>>> okla.target, okla.deal_knock_limit(Card.parse("4H")), okla.deal_knock_limit(Card.parse("AS"))
(150, 4, 0)
>>> okla.deal_multiplier(Card.parse("4S")), okla.deal_multiplier(Card.parse("4H"))
(2, 1)
>>> Rules.profile("straight").deal_knock_limit(Card.parse("KD"))
0
>>> Rules.profile("traditional", hollywood=True).hollywood
True
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from functools import cache
from typing import Any

from .cards import Card
from .errors import RulesError, quote

__all__ = ["Rules", "PROFILES", "CUSTOM_CHOICES", "VARIANT_CHOICES", "PROFILE_OPTIONS", "HOLLYWOOD_GAMES"]

PROFILES = ("traditional", "standard", "custom", "oklahoma", "straight")

#: Hollywood scoring plays this many games at once.
HOLLYWOOD_GAMES = 3

#: The values a custom table may choose (seed 002's "sala personalizada").
CUSTOM_CHOICES: dict[str, tuple[Any, ...]] = {
    "gin_bonus": (20, 25),
    "undercut_bonus": (10, 20, 25),
    "big_gin_bonus": (None, 25, 31, 50),
    "target": (100, 250, 500),
}

#: The variant switches (booleans) and their values when off.  ``to_dict``
#: writes one only when it differs from this, so the rules of a match of the
#: three first profiles read exactly as before the variants existed.
VARIANT_CHOICES: dict[str, bool] = {
    # Oklahoma: the deal's first upcard sets the knock limit ...
    "oklahoma": False,
    # ... an ace upcard means only gin ends the deal (on in the oklahoma profile) ...
    "ace_gin": False,
    # ... and a spade upcard doubles what the deal scores (an option).
    "spade_double": False,
    # Straight gin: no knocking, only gin (or big gin) ends a deal.
    "straight": False,
    # Hollywood: three games scored at once (any profile).
    "hollywood": False,
}

#: The options each profile takes (``custom``'s values are CUSTOM_CHOICES').
PROFILE_OPTIONS: dict[str, tuple[str, ...]] = {
    "traditional": ("hollywood",),
    "standard": ("hollywood",),
    "custom": (*CUSTOM_CHOICES, "hollywood"),
    "oklahoma": ("ace_gin", "spade_double", "hollywood"),
    "straight": ("big_gin_bonus", "hollywood"),
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
    oklahoma: bool = False
    ace_gin: bool = False
    spade_double: bool = False
    straight: bool = False
    hollywood: bool = False

    @classmethod
    def profile(cls, name: str = "traditional", **options: Any) -> "Rules":
        """The rules of a named profile with its options (``PROFILE_OPTIONS``)."""
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
        elif name == "oklahoma":
            base = cls(profile_name="oklahoma", target=150, oklahoma=True, ace_gin=True)
        elif name == "straight":
            base = cls(profile_name="straight", straight=True)
        else:
            raise RulesError(
                f"unknown rule profile {name!r} (expected one of {', '.join(PROFILES)})",
                code="unknown_profile",
            )
        values = {}
        for key, value in options.items():
            if key not in PROFILE_OPTIONS[name]:
                takes = ", ".join(PROFILE_OPTIONS[name])
                raise RulesError(
                    f"profile {name!r} takes no option {key!r} (it takes {takes})", code="bad_option"
                )
            if key in VARIANT_CHOICES:
                if type(value) is not bool:
                    raise RulesError(f"{key} must be true or false (got {quote(value)})", code="bad_option")
                values[key] = value
                continue
            allowed = CUSTOM_CHOICES[key]
            # Exactly an int (or None): not True for 1, not 100.0 for 100.
            if not (value is None or type(value) is int) or value not in allowed:
                shown = ", ".join("None" if a is None else str(a) for a in allowed)
                raise RulesError(
                    f"{name} {key} must be one of {shown} (got {quote(value)})", code="bad_option"
                )
            values[key] = value
        return cls(**{**asdict(base), **values}) if values else base

    @property
    def big_gin(self) -> bool:
        return self.big_gin_bonus is not None

    @property
    def knocking(self) -> bool:
        """False in straight gin: only gin (or big gin) ends a deal."""
        return not self.straight

    def deal_knock_limit(self, upcard: Card) -> int:
        """The knock limit of a deal whose first upcard is ``upcard`` (0: gin only)."""
        if self.straight:
            return 0
        if self.oklahoma:
            if upcard.rank == 1 and self.ace_gin:
                return 0
            return upcard.points
        return self.knock_limit

    def deal_multiplier(self, upcard: Card) -> int:
        """What a deal's score is multiplied by (2: an Oklahoma spade upcard, when doubled)."""
        return 2 if self.oklahoma and self.spade_double and upcard.suit == "S" else 1

    def options(self) -> dict[str, Any]:
        """The options that differ from the profile's own values (``custom``: its four always)."""
        keys = [k for k in PROFILE_OPTIONS[self.profile_name] if self._differs(k)]
        if self.profile_name == "custom":
            keys = [*CUSTOM_CHOICES, *(k for k in keys if k not in CUSTOM_CHOICES)]
        return {key: getattr(self, key) for key in keys}

    def _differs(self, key: str) -> bool:
        return getattr(self, key) != getattr(_base(self.profile_name), key)

    def to_dict(self) -> dict[str, Any]:
        """Every value, JSON-ready; ``from_dict`` checks it against the profile.

        A variant switch is written only when it is on or its profile turns
        it on (``VARIANT_CHOICES``).
        """
        entry = _DICTS.get(id(self))
        if entry is not None and entry[0] is self:
            done = entry[1]
        else:
            d = {name: getattr(self, name) for name in _FIELDS}  # asdict's, without its deep copies
            d["profile"] = d.pop("profile_name")
            base = _base(self.profile_name)
            for key, off in VARIANT_CHOICES.items():
                if d[key] == off and getattr(base, key) == off:
                    del d[key]
            if len(_DICTS) >= 256:
                _DICTS.clear()
            _DICTS[id(self)] = (self, d)
            done = d
        return dict(done)  # its values are plain: a copy of its own for the caller

    @classmethod
    def from_dict(cls, d: Any) -> "Rules":
        """Rebuild from ``to_dict()``; any value not matching its profile is refused."""
        if not isinstance(d, dict) or not isinstance(d.get("profile"), str):
            raise RulesError(f"rules must be a dict with a 'profile': {quote(d)}")
        if d["profile"] not in PROFILE_OPTIONS:
            raise RulesError(f"unknown rule profile {quote(d['profile'])}", code="unknown_profile")
        options = {k: d[k] for k in PROFILE_OPTIONS[d["profile"]] if k in d}
        rules = cls.profile(d["profile"], **options)
        expected = rules.to_dict()
        for key, value in d.items():
            want = expected.get(key, object())
            if type(want) is not type(value) or want != value:
                raise RulesError(
                    f"rule {key}={quote(value)} does not belong to profile {d['profile']!r}"
                )
        return rules


#: ``Rules.to_dict`` of the rules objects met, by identity (views and saves ask a
#: match's rules again and again); each kept with its object, so an id is not reused.
_DICTS: dict[int, tuple[Rules, dict[str, Any]]] = {}

#: The fields of Rules in order (all plain values: numbers, strings, None, booleans).
_FIELDS = tuple(f.name for f in fields(Rules))


@cache
def _base(name: str) -> Rules:
    """A profile's rules without options."""
    return Rules.profile(name)
