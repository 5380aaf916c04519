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
import re
from collections.abc import Callable
from typing import Any

from . import ai, coach as _coach, notation as _notation, replay as _replay, stats as _stats
from . import duplicate as _duplicate, fairness as _fairness
from .errors import MAX_DEPTH, GinError, IllegalMove, SaveError, quote
from .match import Match
from .rules import Rules

__all__ = [
    "new_match", "load", "view", "act", "computer_step", "hint", "set_level", "save",
    "replay", "review", "stats", "coach", "call",
    "match_text", "parse_text",
]

HUMAN = 0
COMPUTER = 1
LEVELS = ("easy", "normal", "hard")


class _Session:
    match: Match | None = None
    # The player's last decision asked to be coached (act with "coach": true):
    # (its index in the match's actions, the view before it, the action).
    coached: tuple[int, dict[str, Any], dict[str, Any]] | None = None


_session = _Session()


class BridgeError(GinError):
    code = "bad_request"


# A JSON string (and whether a colon follows it: an object key), or a bracket.
# The closing quote is optional so that an unterminated string is one token
# (scanned once, never retried from each quote inside it).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?(\s*:)?|[\[\]{}]')

#: What too deep a part of a method's params is: the first matching path of
#: object keys (from the params object down) names the code.
_DEEP_CODES: dict[str, tuple[tuple[tuple[str, ...], str], ...]] = {
    "new_match": ((("seed",), "bad_seed"), (("options",), "bad_option"), (("level",), "bad_level")),
    "load": ((("save",), "bad_save"),),
    "act": ((("action", "melds"), "invalid_melds"), (("action",), "bad_action")),
    "set_level": ((("level",), "bad_level"),),
    "replay": ((("save",), "bad_save"),),
    "review": ((("save",), "bad_save"),),
    "stats": ((("saves",), "bad_save"),),
    "match_text": ((("save",), "bad_save"),),
    "duplicate": ((("save",), "bad_save"),),
    "duplicate_stats": ((("records",), "bad_record"), (("totals",), "bad_totals")),
    "verify": ((("save",), "bad_save"),),
}


def _check_depth(text: str, method: str) -> None:
    """Refuse JSON text nesting deeper than ``MAX_DEPTH`` before ``json.loads``
    reads it (which would end in a RecursionError), with the code of the part
    that is too deep (``bad_save``, ``bad_action``, ``invalid_melds``...)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    stack: list[list[Any]] = []  # [is_object, current key]
    for token in _TOKEN.finditer(text):
        t = token.group()
        if t in "[{":
            stack.append([t == "{", None])
            if len(stack) > MAX_DEPTH:
                path = tuple(key for is_object, key in stack if is_object)
                code = "bad_request"
                for prefix, name in _DEEP_CODES.get(method, ()):
                    if path[: len(prefix)] == prefix:
                        code = name
                        break
                where = ".".join(str(k)[:40] for k in path)[:200] or "params"
                raise BridgeError(f"{where} nests deeper than {MAX_DEPTH} levels", code=code)
        elif t in "]}":
            if stack:
                stack.pop()
        elif token.group(1) and stack and stack[-1][0]:
            try:
                stack[-1][1] = json.loads(t[: token.start(1) - token.start()])
            except ValueError:
                stack[-1][1] = None


def _json_call(fn: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[[str], str]:
    def wrapper(params_json: str = "{}") -> str:
        try:
            if isinstance(params_json, (bytes, bytearray)):
                params_json = params_json.decode(json.detect_encoding(params_json), "surrogatepass")
            if isinstance(params_json, str):
                _check_depth(params_json, fn.__name__)
            params = json.loads(params_json) if params_json else {}
            if not isinstance(params, dict):
                raise BridgeError("params must be a JSON object")
            result = {"ok": True, **fn(params)}
        except GinError as exc:
            result = {"ok": False, "error": {"code": exc.code, "message": str(exc), **exc.details()}}
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
    # The page's view: the human's view plus what only the page needs.  The
    # seed is added here and nowhere else: the view gin.ai decides from never
    # has it (it gives away the hidden cards and the stock).
    v = match.view(HUMAN)
    v["seed"] = match.seed
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
        # The level each deal is dealt at, so each deal's statistics count
        # under the level it was played at (gin.stats).
        match.meta.setdefault("levels", []).append(match.meta["level"])
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
    match.meta["levels"] = [match.meta["level"]]
    _session.match = match
    _session.coached = None
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
    # A save from before the level of each deal was kept: its deals so far
    # count under the level it names (all gin.stats can know).
    match.meta["levels"] = _stats.deal_levels(match)
    _session.match = match
    _session.coached = None
    return _state(match)


@_json_call
def view(params: dict[str, Any]) -> dict[str, Any]:
    """The human's view of the current match."""
    return {"view": _state(_match())["view"]}


@_json_call
def act(params: dict[str, Any]) -> dict[str, Any]:
    """Apply the human's action ``{"action": {...}, "coach"?: true}``; with
    ``coach``, the view before it is kept for ``coach`` (``coach_index``)."""
    match = _match()
    action = params.get("action")
    if not isinstance(action, dict):
        raise IllegalMove(f"not an action: {quote(action)}", code="bad_action")
    seat = action.get("seat", HUMAN)
    # Only the ints 0 and 1 are seats (False == 0 == 0.0 in Python; null is no seat).
    if type(seat) is not int or seat not in (0, 1):
        raise IllegalMove(f"a seat is 0 or 1, not {quote(seat)}", code="bad_action")
    if match.over:
        raise IllegalMove("the match is over", code="game_over")
    if match.deal.to_act != HUMAN or seat != HUMAN:
        raise IllegalMove("it is the computer's turn", code="not_your_turn")
    coached = params.get("coach") is True
    before = (len(match.actions), match.view(HUMAN)) if coached else None
    events = _apply(match, {**action, "seat": HUMAN})
    if before is None:
        return {**_state(match), "events": events}
    _session.coached = (before[0], before[1], match.actions[before[0]])
    return {**_state(match), "events": events, "coach_index": before[0]}


@_json_call
def computer_step(params: dict[str, Any]) -> dict[str, Any]:
    """Let the computer play one action when it is its turn."""
    match = _match()
    if match.over or match.deal.to_act != COMPUTER:
        raise BridgeError("it is not the computer's turn", code="not_computer_turn")
    action = _fairness.computer_move(match, match.meta.get("level", "normal"))
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


@_json_call
def replay(params: dict[str, Any]) -> dict[str, Any]:
    """Every step of a finished match ``{"save", "deal"?}``, both hands face up (gin.replay)."""
    return _replay.replay(params.get("save"), deal=params.get("deal"))


@_json_call
def review(params: dict[str, Any]) -> dict[str, Any]:
    """Difícil's review of the human's decisions in ``{"save", "deals"?: [first, last]}``."""
    return _replay.review(params.get("save"), deals=params.get("deals"))


@_json_call
def stats(params: dict[str, Any]) -> dict[str, Any]:
    """The human's record over ``{"saves": [saves, oldest first]}``: the deals that ended
    in each, the matches that ended, and the lines counted (gin.stats)."""
    return _stats.stats(params.get("saves"))


@_json_call
def coach(params: dict[str, Any]) -> dict[str, Any]:
    """The coach's note on the human's decision ``{"index": <coach_index from act>}``
    (gin.coach): ``{"index", "note": <note> | null}``; ``no_decision`` unless
    it is the last decision ``act`` kept for it (in this match)."""
    index = params.get("index")
    kept = _session.coached
    if type(index) is not int or kept is None or kept[0] != index or _session.match is None:
        raise BridgeError(f"no coached decision {quote(index)}", code="no_decision")
    _, view_before, action = kept
    return {"index": index, "note": _coach.note(view_before, action)}


# -- the match as text (gin.notation, docs/notation.md) ------------------------


@_json_call
def match_text(params: dict[str, Any]) -> dict[str, Any]:
    """The text of ``{"save"}`` (finished or not), else of the current match: ``{"text"}``."""
    save = params.get("save")
    return {"text": _notation.dumps(_match() if save is None else Match.from_save(save))}


@_json_call
def parse_text(params: dict[str, Any]) -> dict[str, Any]:
    """The match a text describes ``{"text"}``, replayed and checked by the engine:
    ``{"save", "over"}`` (the save goes as it is to ``replay`` and ``review``).
    A text that cannot be read answers the notation's error with ``kind``
    (``syntax`` or ``illegal``), ``line`` (its number, or null) and ``text``
    (that line).  Never touches the current match."""
    match = _notation.parse(params.get("text"))
    return {"save": match.to_save(), "over": match.over}


_METHODS = {
    f.__name__: f
    for f in (
        new_match, load, view, act, computer_step, hint, set_level, save, replay, review, stats, coach,
        match_text, parse_text,
    )
}


# -- issue 32: Difícil with your cards, the luck removed, Comprobar -------------

__all__ += ["duplicate", "duplicate_stats", "verify"]


@_json_call
def duplicate(params: dict[str, Any]) -> dict[str, Any]:
    """Deal ``{"save", "deal": n}`` played again by Difícil in the player's seat, the
    computer at the level it played it (gin.duplicate.replay_deal)."""
    return _duplicate.replay_deal(params.get("save"), params.get("deal"))


@_json_call
def duplicate_stats(params: dict[str, Any]) -> dict[str, Any]:
    """The player against Difícil on the same cards over ``{"records", "totals"?,
    "matches"?}``: means per deal with 95 % intervals (gin.duplicate.summary)."""
    matches = params.get("matches", _duplicate.CHART_MATCHES)
    return _duplicate.summary(params.get("records"), params.get("totals"), matches=matches)


@_json_call
def verify(params: dict[str, Any]) -> dict[str, Any]:
    """Comprobar: the computer's decisions ``{"save", "start"?, "count"?, "samples"?,
    "seed"?}`` of a finished match asked again with the hidden cards dealt
    again (gin.fairness.verify)."""
    seed = params.get("seed", "")
    if not isinstance(seed, str) or len(seed) > 64:
        raise BridgeError(f"seed must be a string of at most 64 characters, not {quote(seed)}", code="bad_range")
    return _fairness.verify(
        params.get("save"),
        start=params.get("start", 0),
        count=params.get("count"),
        samples=params.get("samples"),
        seed=seed,
    )


_METHODS.update({f.__name__: f for f in (duplicate, duplicate_stats, verify)})


def call(method: str, params_json: str = "{}") -> str:
    """Dispatch by name (what the worker calls)."""
    fn = _METHODS.get(method) if isinstance(method, str) else None
    if fn is None:
        error = {"code": "unknown_method", "message": f"no method {method!r}"}
        return json.dumps({"ok": False, "error": error}, separators=(",", ":"), ensure_ascii=False)
    return fn(params_json)
