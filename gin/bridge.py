"""The JSON bridge the web worker calls: one JSON string in, one out, never raises.

See docs/bridge.md.  The bridge holds the one current match of the page; the
human sits at seat 0 and the computer at seat 1.  Success is
``{"ok": true, ...}``; failure ``{"ok": false, "error": {"code", "message"}}``
and then nothing changed.

>>> import json
>>> r = json.loads(new_match('{"seed": "abcd-efgh"}'))
>>> r["ok"], r["view"]["seed"], len(r["view"]["hand"])
(True, 'ABCD-EFGH', 10)
>>> json.loads(act('{"action": {"type": "discard", "card": "7H"}}'))["error"]["code"] in ("must_take_or_pass", "not_your_turn")
True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from . import ai
from .errors import GinError, IllegalMove, SaveError
from .match import Match
from .rules import Rules

__all__ = ["new_match", "load", "view", "act", "computer_step", "hint", "set_level", "save", "call"]

HUMAN = 0
COMPUTER = 1
LEVELS = ("easy", "normal", "hard")


class _Session:
    match: Match | None = None


_session = _Session()


class BridgeError(GinError):
    code = "bad_request"


def _json_call(fn: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[[str], str]:
    def wrapper(params_json: str = "{}") -> str:
        try:
            params = json.loads(params_json) if params_json else {}
            if not isinstance(params, dict):
                raise BridgeError("params must be a JSON object")
            result = {"ok": True, **fn(params)}
        except GinError as exc:
            result = {"ok": False, "error": {"code": exc.code, "message": str(exc)}}
        except (ValueError, TypeError, KeyError, RecursionError) as exc:  # bad JSON or params
            result = {"ok": False, "error": {"code": "bad_request", "message": str(exc)[:500]}}
        except Exception as exc:  # noqa: BLE001 - the worker must always get an answer
            result = {"ok": False, "error": {"code": "internal_error", "message": repr(exc)[:500]}}
        return json.dumps(result, separators=(",", ":"), ensure_ascii=False)

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


def _match() -> Match:
    if _session.match is None:
        raise BridgeError("no match: call new_match or load first", code="no_match")
    return _session.match


def _level(value: Any) -> str:
    if value not in LEVELS:
        raise BridgeError(f"level must be one of {', '.join(LEVELS)}, not {value!r}", code="bad_level")
    return value


def _state(match: Match) -> dict[str, Any]:
    v = match.view(HUMAN)
    v["level"] = match.meta.get("level", "normal")
    v["next_level"] = match.meta.get("next_level")
    return {"view": v, "save": match.to_save()}


def _apply(match: Match, action: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply an action; return the public events it caused (the deal's, then a new deal's)."""
    deal, before = match.deal, len(match.deal.events)
    match.apply(action)
    events = deal.events[before:]
    if match.deal is not deal:
        pending = match.meta.pop("next_level", None)
        if pending:
            match.meta["level"] = pending
        events.append({"type": "new_deal", "number": match.deal_number, "dealer": match.deal.dealer})
    return events


@_json_call
def new_match(params: dict[str, Any]) -> dict[str, Any]:
    """Start a match: ``{"seed", "profile", "options", "level"}``."""
    options = params.get("options") or {}
    if not isinstance(options, dict):
        raise BridgeError(f"options must be an object, not {options!r}", code="bad_option")
    rules = Rules.profile(params.get("profile", "traditional"), **options)
    try:
        match = Match.new(seed=params.get("seed"), rules=rules)
    except ValueError as exc:
        raise BridgeError(str(exc), code="bad_seed") from None
    match.meta["level"] = _level(params.get("level", "normal"))
    _session.match = match
    return _state(match)


@_json_call
def load(params: dict[str, Any]) -> dict[str, Any]:
    """Resume a saved match ``{"save": {...}}``; ``bad_save`` says why not."""
    match = Match.from_save(params.get("save"))
    for key in ("level", "next_level"):
        value = match.meta.get(key)
        if value is not None and value not in LEVELS:
            raise SaveError(f"the save names an unknown level {value!r}")
    match.meta.setdefault("level", "normal")
    _session.match = match
    return _state(match)


@_json_call
def view(params: dict[str, Any]) -> dict[str, Any]:
    """The human's view of the current match."""
    return {"view": _state(_match())["view"]}


@_json_call
def act(params: dict[str, Any]) -> dict[str, Any]:
    """Apply the human's action ``{"action": {...}}``."""
    match = _match()
    action = params.get("action")
    if not isinstance(action, dict):
        raise IllegalMove(f"not an action: {action!r}", code="bad_action")
    if match.over:
        raise IllegalMove("the match is over", code="game_over")
    if match.deal.to_act != HUMAN or action.get("seat", HUMAN) != HUMAN:
        raise IllegalMove("it is the computer's turn", code="not_your_turn")
    events = _apply(match, {**action, "seat": HUMAN})
    return {**_state(match), "events": events}


@_json_call
def computer_step(params: dict[str, Any]) -> dict[str, Any]:
    """Let the computer play one action when it is its turn."""
    match = _match()
    if match.over or match.deal.to_act != COMPUTER:
        raise BridgeError("it is not the computer's turn", code="not_computer_turn")
    action = ai.choose(match.view(COMPUTER), match.meta.get("level", "normal"))
    events = _apply(match, {**action, "seat": COMPUTER})
    return {"action": action, **_state(match), "events": events}


@_json_call
def hint(params: dict[str, Any]) -> dict[str, Any]:
    """A suggestion for the human's current decision: ``{"action", "reason", "why"}``."""
    match = _match()
    if match.over or match.deal.to_act != HUMAN:
        raise IllegalMove("it is not your turn", code="not_your_turn")
    return {"hint": ai.hint(match.view(HUMAN))}


@_json_call
def set_level(params: dict[str, Any]) -> dict[str, Any]:
    """Change the computer's level from the next deal on."""
    match = _match()
    level = _level(params.get("level"))
    if level == match.meta.get("level"):
        match.meta.pop("next_level", None)
    else:
        match.meta["next_level"] = level
    return _state(match)


@_json_call
def save(params: dict[str, Any]) -> dict[str, Any]:
    """The current match's save."""
    return {"save": _match().to_save()}


_METHODS = {f.__name__: f for f in (new_match, load, view, act, computer_step, hint, set_level, save)}


def call(method: str, params_json: str = "{}") -> str:
    """Dispatch by name (what the worker calls)."""
    fn = _METHODS.get(method) if isinstance(method, str) else None
    if fn is None:
        error = {"code": "unknown_method", "message": f"no method {method!r}"}
        return json.dumps({"ok": False, "error": error}, separators=(",", ":"), ensure_ascii=False)
    return fn(params_json)
