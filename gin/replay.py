"""Watching a match again: every step of a finished match face up, and
Difícil's review of the human's decisions.

Both are pure functions of a save (``Match.to_save()``); the bridge exposes
them as ``replay`` and ``review`` (docs/bridge.md).

- ``replay(save)``: the match replayed step by step with the *open* state at
  each step (both hands face up: the match is over, nothing is hidden any
  more), so a viewer can step back and forth and jump to any deal.  Only for
  a finished match (``match_not_over`` otherwise): mid-match it would show
  the opponent's hand.  One deal that has ended (``deal=n``) may be watched
  mid-match (the coach's deal summary): that deal's cards are dealt again
  from nothing, so its open hands say nothing about the deal being played;
  the deal under way is refused (``match_not_over``).
- ``review(save)``: for every decision of the human (seat 0), what ``hard``
  (Difícil) would have played from **the view the human had then** (never a
  card revealed later, never the seed), and where it differs, by how much
  by Difícil's own estimate (``gin.ai.estimates``), when it has one; both
  from one pass per decision (``gin.ai.analyse``).

>>> from gin import Match
>>> m = Match.new(seed="REPLAY-DOC")
>>> m.apply({"type": "pass"}).apply({"type": "pass"}) and None
>>> r = replay_steps(m, finished_only=False)
>>> [s["kind"] for s in r["steps"]], r["steps"][2]["events"][0]["type"]
(['deal', 'action', 'action'], 'pass')
"""

from __future__ import annotations

from typing import Any

from . import ai
from .cards import mask_cards
from .deal import Deal
from .errors import GinError
from .match import Match
from .melds import Arrangement, solve

__all__ = ["replay", "replay_steps", "review", "open_state", "action_key", "REVIEW_LEVEL"]

HUMAN = 0
#: The level whose opinion the review gives.
REVIEW_LEVEL = "hard"


class ReplayError(GinError):
    code = "match_not_over"


def _cards(mask: int) -> list[str]:
    return [str(c) for c in mask_cards(mask)]


def open_state(deal: Deal, *, deal_number: int, scores: tuple[int, int], wins: list[int]) -> dict[str, Any]:
    """Everything on the table of ``deal``, both hands face up (for a finished match)."""
    hands = [deal.hand_masks[0], deal.hand_masks[1]]
    return {
        "deal_number": deal_number,
        "dealer": deal.dealer,
        "phase": deal.phase,
        "to_act": None if deal.phase == "over" else deal.to_act,
        "hands": [_cards(h) for h in hands],
        "arrangements": [Arrangement.from_masks(h, solve(h)[1]).to_dict() for h in hands],
        "known": [_cards(deal.known_masks[0]), _cards(deal.known_masks[1])],
        "discard": [str(c) for c in deal.discard_pile],
        "stock_count": len(deal.stock_list),
        "taken": None if deal.taken is None else _cards(1 << deal.taken)[0],
        "drawn": None if deal.drawn is None else _cards(1 << deal.drawn)[0],
        "scores": list(scores),
        "wins": list(wins),
    }


def _wins(match: Match) -> list[int]:
    return [sum(1 for s, _ in match.wins if s == k) for k in (0, 1)]


def _deal_step(match: Match, index: int) -> dict[str, Any]:
    state = open_state(match.deal, deal_number=match.deal_number, scores=match.scores, wins=_wins(match))
    return {"index": index, "kind": "deal", "deal_number": match.deal_number, "seat": None, "action": None,
            "events": [], "result": None, "state": state}


def _fresh(match: Match) -> Match:
    fresh = Match(seed=match.seed, rules=match.rules)
    fresh.meta = dict(match.meta)
    return fresh


def replay_steps(match: Match, *, finished_only: bool = True, deal: int | None = None) -> dict[str, Any]:
    """The steps of ``match`` (replayed from its seed and actions); see ``replay``."""
    ended = deal is not None and type(deal) is int and 1 <= deal < match.deal_number
    if finished_only and not match.over and not ended:
        raise ReplayError("only a finished match, or a deal of it that has ended, can be watched again (it shows both hands)")
    m = _fresh(match)
    steps = [_deal_step(m, 0)]
    deals = [{"number": 1, "dealer": m.deal.dealer, "start": 0, "end": None, "result": None}]
    for action in match.actions:
        current, number, seat = m.deal, m.deal_number, m.deal.to_act
        before = len(current.events)
        m.apply(action)
        result = m.results[-1].to_dict() if current.outcome is not None else None
        steps.append({
            "index": len(steps), "kind": "action", "deal_number": number, "seat": seat, "action": dict(action),
            "events": [dict(e) for e in current.events[before:]], "result": result,
            "state": open_state(current, deal_number=number, scores=m.scores, wins=_wins(m)),
        })
        if result is not None:
            deals[-1].update(end=len(steps) - 1, result=result)
            if m.deal is not current:
                steps.append(_deal_step(m, len(steps)))
                deals.append({"number": m.deal_number, "dealer": m.deal.dealer, "start": len(steps) - 1,
                              "end": None, "result": None})
    if deals[-1]["end"] is None:
        deals[-1]["end"] = len(steps) - 1
    shown = steps
    if deal is not None:
        if type(deal) is not int or not 1 <= deal <= len(deals):
            raise GinError(f"deal must be 1..{len(deals)}, not {deal!r}", code="bad_deal")
        d = deals[deal - 1]
        shown = steps[d["start"] : d["end"] + 1]
    return {
        "seed": match.seed,
        "rules": match.rules.to_dict(),
        "level": match.meta.get("level"),
        "count": len(steps),
        "steps": shown,
        "deals": deals,
        "final": None if match.final is None else match.final.to_dict(),
    }


def replay(save: Any, *, deal: int | None = None) -> dict[str, Any]:
    """Every step of a finished match, from its save.

    ``steps[i]``: ``{"index", "kind": "deal" | "action", "deal_number", "seat",
    "action", "events", "result", "state"}``.  A ``deal`` step opens each deal
    (before its first action); an ``action`` step follows each action of
    either seat, with the public events it caused; the action that ends a
    deal carries the deal's ``result`` and its state is that deal's final
    table (phase ``over``).  ``state`` is ``open_state``: both hands and their
    best arrangement, the discard pile, stock count, taken/drawn card, scores
    and deals won so far.  ``deals[n-1]`` = ``{"number", "dealer", "start",
    "end", "result"}``: the step indexes of deal n.  ``deal``: only that
    deal's steps (indexes stay those of the whole match), also of a match
    not over if deal n has ended.  Raises ``SaveError`` (``bad_save``) or
    ``match_not_over``.
    """
    return replay_steps(Match.from_save(save), deal=deal)


def action_key(action: dict[str, Any]) -> str:
    """What makes two actions the same decision: ``take``, ``pass``,
    ``draw:stock``, ``discard:7H``, ``knock:7H``, ``big_gin`` (the melds a knock
    declares are not compared).  The keys of ``gin.ai.estimates``."""
    kind = action.get("type")
    if kind == "draw":
        return f"draw:{action.get('from')}"
    if kind in ("discard", "knock"):
        return f"{kind}:{action.get('card')}"
    return str(kind)


def _deal_range(deals: Any, count: int) -> tuple[int, int]:
    if deals is None:
        return 1, count
    ok = (
        isinstance(deals, (list, tuple)) and len(deals) == 2
        and all(type(d) is int for d in deals) and 1 <= deals[0] <= deals[1] <= count
    )
    if not ok:
        raise GinError(f"deals must be [first, last] within 1..{count}", code="bad_deal")
    return deals[0], deals[1]


def _round(x: float) -> float:
    return round(x, 2)


def _undercut_knock(knocked: dict[str, Any], action: dict[str, Any], outcome: Any) -> dict[str, Any]:
    """The human's knock that was undercut, priced: what it cost (the points the
    defender scored), the undercut risk Difícil saw when it was made (percent,
    ``None`` when its hint gave none) and whether Difícil would have knocked too
    (then it was advised: the risk, not a mistake)."""
    hint = knocked["hint"]
    risk = (hint.get("why") or {}).get("undercut")
    return {
        "action_index": knocked["action_index"], "step": knocked["step"], "deal_number": knocked["deal_number"],
        "human": {k: v for k, v in action.items() if k in ("type", "card")},
        "points": outcome.points,
        "undercut": risk,
        "advised": hint["action"].get("type") == "knock",
    }


def review(save: Any, *, deals: Any = None) -> dict[str, Any]:
    """Difícil's review of the human's (seat 0) decisions in a save (finished or not).

    ``deals``: ``[first, last]`` (1-based, inclusive) reviews only those deals,
    so that a caller can review a long match in parts and show progress; by
    default every deal.

    Each decision is judged from the human's own view at that moment
    (``Match.view(0)``: no hidden card, no seed); a turn with one legal action
    (the forced stock draw after both passed) is no decision.  Result:
    ``{"level": "hard", "deals": [first, last], "differing": [...],
    "summary": {...}}``.  Each differing decision: ``{"action_index"`` (into
    the save's actions), ``"step"`` (into ``replay``'s steps), ``"deal_number",
    "phase", "human", "hard", "reason"`` (the hint's reason code), ``"why"``
    (the hint's facts, when it gives them), ``"estimates": {"human", "hard"}``
    and ``"cost"``: how much worse the human's choice was by Difícil's own
    estimate (``gin.ai.estimates``, in its expected-deadwood points; ``None``
    when it has none, e.g. knocking or not)``}``.  The summary:
    ``{"decisions", "differing", "with_cost", "total_cost", "costliest"}``
    (``costliest`` is the differing decision with the highest cost, else the
    first one; ``None`` when none differs).  ``"undercut_knocks"``: the
    human's knocks that were undercut, advised by Difícil or not, each priced
    (``_undercut_knock``): a knock made on advice costs nothing by the
    estimates and would otherwise go unmentioned.
    """
    match = Match.from_save(save)
    first, last = _deal_range(deals, match.deal_number)
    m = _fresh(match)
    differing: list[dict[str, Any]] = []
    undercut: list[dict[str, Any]] = []
    knocked: dict[str, Any] | None = None  # the human's knock being applied, with Difícil's view of it
    decisions = 0
    step = 0  # replay's step index of the action about to be applied
    for n, action in enumerate(match.actions):
        step += 1
        if m.deal_number > last:
            break
        if m.to_act == HUMAN and m.deal_number >= first and len(m.deal.legal_actions()) > 1:
            decisions += 1
            view = m.view(HUMAN)
            # Difícil's choice and its scores of every choice in one pass (one
            # evaluation of each hand), not hint() and then estimates().
            hint = ai.analyse(view)
            ours, theirs = action_key(action), action_key(hint["action"])
            if action.get("type") == "knock":
                knocked = {"action_index": n, "step": step, "deal_number": m.deal_number, "hint": hint}
            if ours != theirs:
                est = hint["estimates"] or {}
                e_human, e_hard = est.get(ours), est.get(theirs)
                cost = None if e_human is None or e_hard is None else _round(max(0.0, e_human - e_hard))
                entry = {
                    "action_index": n, "step": step, "deal_number": m.deal_number, "phase": m.deal.phase,
                    "human": dict(action), "hard": hint["action"], "reason": hint["reason"],
                    "estimates": {"human": None if e_human is None else _round(e_human),
                                  "hard": None if e_hard is None else _round(e_hard)},
                    "cost": cost,
                }
                if "why" in hint:
                    entry["why"] = hint["why"]
                differing.append(entry)
        deal = m.deal
        m.apply(action)
        if knocked is not None and knocked["action_index"] == n and deal.outcome is not None and deal.outcome.kind == "undercut":
            undercut.append(_undercut_knock(knocked, action, deal.outcome))
        if m.deal is not deal:
            step += 1  # the next deal's opening step
    costed = [d for d in differing if d["cost"] is not None]
    costliest = max(costed, key=lambda d: d["cost"]) if costed else (differing[0] if differing else None)
    return {
        "level": REVIEW_LEVEL,
        "deals": [first, last],
        "differing": differing,
        "undercut_knocks": undercut,
        "summary": {
            "decisions": decisions,
            "differing": len(differing),
            "with_cost": len(costed),
            "total_cost": _round(sum(d["cost"] for d in costed)),
            "costliest": costliest,
        },
    }
