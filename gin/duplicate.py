"""Difícil with your cards: a deal played again with ``hard`` in the player's
seat, and the player's play measured with the luck of the deal taken out.

As duplicate bridge removes the luck of the deal by playing the same cards
twice, ``replay_deal(save, n)`` plays deal ``n`` of a match again from its
first decision — the same cards (the stock order and upcard of the seed's
deal ``n``), the same dealer, the same scores and earlier deals, the same
rules — with Difícil (``hard``) deciding for the human's seat (0) and the
computer (seat 1) deciding as it always does at the level it played that
deal (``meta.levels``), each through ``gin.fairness.computer_move`` from its
own view only, to the end of the deal.  The per-deal figure is the player's
points minus Difícil's on the same cards, both from seat 0 (a deal lost
counts negative, a void deal 0; end-of-match bonuses are not deal points).

``summary(records)`` sums those figures per computer level and rule profile:
the mean difference per deal with its 95 % interval (a Student t interval
over deals, see ``mean_interval``), and the last matches for a chart.  The
page keeps one small record per deal (``record`` in ``replay_deal``'s
answer) and may fold old records into ``totals`` (sums from which the same
means and intervals follow exactly), so what it stores stays bounded.

>>> from gin import arena
>>> st = arena.play_match("normal", "easy", "DUP-DOC", keep_actions=True)
>>> m = Match.new(seed="DUP-DOC")
>>> for a in st.actions: m = m.apply(a)
>>> m.meta["level"] = "easy"
>>> r = replay_deal(m.to_save(), 1)
>>> r["points"]["difference"] == r["points"]["player"] - r["points"]["hard"]
True
>>> from gin.cards import ALL_CARDS
>>> from gin.shuffle import deal_cards
>>> r["opening"]["upcard"] == str(ALL_CARDS[deal_cards("DUP-DOC", 1)[2]])
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from .cards import ALL_CARDS, mask_cards
from .errors import GinError, quote
from .fairness import computer_move
from .match import DealResult, Match
from .rules import PROFILES
from .stats import LEVELS, deal_levels

__all__ = [
    "replay_deal", "replay_deals", "signed_points", "summary", "mean_interval", "t_quantile",
    "LEVEL", "CONFIDENCE", "MAX_DEAL_POINTS", "MAX_RECORDS", "TOTALS_VERSION",
]

HUMAN = 0
#: Who plays the player's cards again.
LEVEL = "hard"
CONFIDENCE = 0.95
#: What one deal can score at most: big gin's 50 + the defender's 100 points of
#: deadwood (ten court cards), doubled by an Oklahoma spade upcard.
MAX_DEAL_POINTS = 300
#: The most records one ``summary`` call reads (the page keeps far fewer).
MAX_RECORDS = 20_000
TOTALS_VERSION = 1
#: Matches in ``summary``'s chart by default.
CHART_MATCHES = 10


class DuplicateError(GinError):
    code = "bad_record"


def signed_points(result: DealResult, seat: int = HUMAN) -> int:
    """What a deal scored from ``seat``'s side: won +points, lost -points, void 0."""
    o = result.outcome
    if o.winner is None:
        return 0
    return o.points if o.winner == seat else -o.points


def _profile(m: Match) -> str:
    # As gin.stats: Hollywood is kept apart from one-game matches of its profile.
    return m.rules.profile_name + ("-hollywood" if m.rules.hollywood else "")


def _ended(match: Match, deal: Any) -> int:
    if type(deal) is not int or not 1 <= deal <= match.deal_number:
        raise GinError(f"deal must be 1..{match.deal_number}, not {quote(deal)}", code="bad_deal")
    if deal > len(match.results):
        raise GinError("the deal under way cannot be played again (it would show its cards)", code="match_not_over")
    return deal


def _play_out(start: Match, levels: tuple[str, str]) -> list[dict[str, Any]]:
    """Play ``start``'s current deal to its end (in place), ``levels[seat]``
    deciding for each seat; return the actions played."""
    played = len(start.actions)
    deal_count = len(start.results)
    while len(start.results) == deal_count:
        seat = start.to_act
        start.apply(computer_move(start, levels[seat], seat))
    return start.actions[played:]


def _opening(m: Match) -> dict[str, Any]:
    """The cards of ``m``'s current deal as dealt: both hands, the upcard, the stock (top first)."""
    d = m.deal
    return {
        "dealer": d.dealer,
        "hands": [[str(c) for c in mask_cards(h)] for h in d.hand_masks],
        "upcard": str(ALL_CARDS[d.pile[0]]),
        "stock": [str(c) for c in d.stock],
    }


def _entry(start: Match, played: DealResult, level: str, profile: str, actions_at_end: int) -> dict[str, Any]:
    """Deal ``played.number`` replayed by hard from ``start`` (consumed), beside how it was played."""
    opening = _opening(start)
    replay_actions = _play_out(start, (LEVEL, level))
    replayed = start.results[-1]
    player, hard = signed_points(played), signed_points(replayed)
    record = {
        "seed": start.seed, "deal": played.number, "actions": actions_at_end, "match": start.seed,
        "level": level, "profile": profile, "player": player, "hard": hard,
    }
    return {
        "deal": played.number,
        "level": level,
        "profile": profile,
        "played": played.to_dict(),
        "replayed": replayed.to_dict(),
        "points": {"player": player, "hard": hard, "difference": player - hard},
        "opening": opening,
        "actions": [dict(a) for a in replay_actions],
        "record": record,
    }


def replay_deal(save: Any, deal: Any) -> dict[str, Any]:
    """Deal ``deal`` of the match in ``save`` (finished or not; the deal must have
    ended) played again by ``hard`` in the player's seat.

    Returns ``{"deal", "level"`` (the computer's level in that deal),
    ``"profile", "played"`` (the deal result as it was played: the shape of the
    view's ``history`` entries), ``"replayed"`` (the same for the replay; its
    ``scores`` are the totals had Difícil played that deal),
    ``"points": {"player", "hard", "difference"}`` (each from seat 0),
    ``"opening"`` (``{"dealer", "hands", "upcard", "stock"}``: the cards the
    replay was dealt, stock top first), ``"actions"`` (the replay's actions,
    both seats, in order), ``"record"`` (what the page keeps for
    ``summary``)``}``.  Errors: ``bad_save``, ``bad_deal`` (not 1..the deals
    so far), ``match_not_over`` (the deal under way).
    """
    match = Match.from_save(save)
    _ended(match, deal)
    levels = deal_levels(match)
    m = Match(seed=match.seed, rules=match.rules)
    m.meta = dict(match.meta)
    start = None
    for n, action in enumerate(match.actions):
        if start is None and m.deal_number == deal:
            start = m.copy()
        m.apply(action)
        if len(m.results) == deal:
            return _entry(start, m.results[-1], levels[deal - 1], _profile(match), n + 1)
    raise AssertionError("an ended deal ends in the save's actions")


def replay_deals(match: Match) -> list[dict[str, Any]]:
    """``replay_deal`` of every ended deal of ``match``, in one pass over its actions."""
    levels = deal_levels(match)
    profile = _profile(match)
    m = Match(seed=match.seed, rules=match.rules)
    m.meta = dict(match.meta)
    out: list[dict[str, Any]] = []
    start = m.copy()
    for n, action in enumerate(match.actions):
        m.apply(action)
        if len(m.results) > len(out):
            out.append(_entry(start, m.results[-1], levels[len(out)], profile, n + 1))
            start = m.copy()
    return out


# -- the luck removed: means and intervals ------------------------------------


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 1000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betai(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(ln) * _betacf(a, b, x) / a
    return 1.0 - math.exp(ln) * _betacf(b, a, 1.0 - x) / b


def _t_upper(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom, t >= 0."""
    return 0.5 * _betai(df / 2.0, 0.5, df / (df + t * t))


@lru_cache(maxsize=256)
def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (0.5 <= p < 1) of Student's t with ``df`` >= 1 degrees of freedom.

    By bisection on the exact distribution function (the incomplete beta
    function): pure Python, the same in CPython and Pyodide.

    >>> round(t_quantile(0.975, 1), 4), round(t_quantile(0.975, 10), 4), round(t_quantile(0.975, 10**6), 3)
    (12.7062, 2.2281, 1.96)
    """
    if not 0.5 <= p < 1.0 or df < 1:
        raise ValueError(f"t_quantile needs 0.5 <= p < 1 and df >= 1, not p={p!r}, df={df!r}")
    tail = 1.0 - p
    lo, hi = 0.0, 1.0
    while _t_upper(hi, df) > tail:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if _t_upper(mid, df) > tail:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


def mean_interval(
    n: int, total: int, total_sq: int, *, confidence: float = CONFIDENCE
) -> tuple[float, float, tuple[float, float] | None]:
    """``(mean, sd, (low, high))`` of ``n`` values from their sum and sum of squares.

    The interval is Student's t interval for the mean, ``mean ± t(n-1) · sd / √n``
    with the sample standard deviation ``sd`` (n − 1 in the denominator), and
    None below two values.  Why t over deals: a player's record starts with a
    handful of deals, where the normal approximation's 1.96 is too narrow (the
    t quantile is 12.7 for two deals, 2.26 for ten) and the interval should say
    so; from a few hundred deals on the two agree to the second decimal.  The
    deal differences are far from normal (gins and undercuts make long tails),
    but their mean over tens of deals is close enough to it for the interval
    to hold (bench/duplicate.py checks its coverage over simulated players).

    >>> mean, sd, (low, high) = mean_interval(4, 8, 20)   # 1, 1, 3, 3
    >>> mean, round(sd, 4), round(low, 4), round(high, 4)   # sd √(4/3); t(3) = 3.1824
    (2.0, 1.1547, 0.1626, 3.8374)
    """
    if n < 1:
        raise ValueError("no values")
    mean = total / n
    if n < 2:
        return mean, 0.0, None
    # Integers: n·Σx² − (Σx)² is exact, never negative.
    var = (n * total_sq - total * total) / (n * (n - 1))
    sd = math.sqrt(var)
    half = t_quantile(0.5 + confidence / 2.0, n - 1) * sd / math.sqrt(n)
    return mean, sd, (mean - half, mean + half)


# -- records and their sums ---------------------------------------------------

_STATS_PROFILES = tuple(p + h for p in PROFILES for h in ("", "-hollywood"))


def _int(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _check_record(r: Any, i: int) -> dict[str, Any]:
    if not isinstance(r, dict):
        raise DuplicateError(f"record {i} is not an object: {quote(r)}")
    if r.get("level") not in LEVELS:
        raise DuplicateError(f"record {i}: level must be one of {', '.join(LEVELS)}, not {quote(r.get('level'))}")
    if r.get("profile") not in _STATS_PROFILES:
        raise DuplicateError(f"record {i}: unknown profile {quote(r.get('profile'))}")
    for key in ("player", "hard"):
        if not _int(r.get(key), -MAX_DEAL_POINTS, MAX_DEAL_POINTS):
            raise DuplicateError(f"record {i}: {key} must be an integer within ±{MAX_DEAL_POINTS}, not {quote(r.get(key))}")
    match = r.get("match", r.get("seed"))
    if match is not None and (not isinstance(match, str) or len(match) > 200):
        raise DuplicateError(f"record {i}: match must be a string of at most 200 characters, not {quote(match)}")
    return r


class _Sums:
    __slots__ = ("deals", "player", "hard", "diff_sq")

    def __init__(self) -> None:
        self.deals = self.player = self.hard = self.diff_sq = 0

    def add(self, deals: int, player: int, hard: int, diff_sq: int) -> None:
        self.deals += deals
        self.player += player
        self.hard += hard
        self.diff_sq += diff_sq

    def figures(self) -> dict[str, Any]:
        if not self.deals:
            return {"deals": 0, "player": None, "hard": None, "difference": None, "sd": None, "interval": None}
        mean, sd, interval = mean_interval(self.deals, self.player - self.hard, self.diff_sq)
        return {
            "deals": self.deals,
            "player": round(self.player / self.deals, 2),
            "hard": round(self.hard / self.deals, 2),
            "difference": round(mean, 2),
            "sd": round(sd, 2),
            "interval": None if interval is None else [round(interval[0], 2), round(interval[1], 2)],
        }


def _read_totals(totals: Any) -> dict[tuple[str, str], _Sums]:
    """The page's folded sums: ``{"version": 1, "groups": [{"level", "profile",
    "deals", "player", "hard", "diff_sq"}, ...]}`` (None: nothing)."""
    sums: dict[tuple[str, str], _Sums] = {}
    if totals is None:
        return sums
    if not isinstance(totals, dict) or totals.get("version") != TOTALS_VERSION or not isinstance(totals.get("groups"), list):
        raise DuplicateError(f"totals must be {{'version': {TOTALS_VERSION}, 'groups': [...]}}, not {quote(totals)}", code="bad_totals")
    big = MAX_RECORDS * 1000
    for i, g in enumerate(totals["groups"]):
        ok = (
            isinstance(g, dict) and g.get("level") in LEVELS and g.get("profile") in _STATS_PROFILES
            and _int(g.get("deals"), 1, big)
            and all(_int(g.get(k), -MAX_DEAL_POINTS * g["deals"], MAX_DEAL_POINTS * g["deals"]) for k in ("player", "hard"))
            and _int(g.get("diff_sq"), 0, (2 * MAX_DEAL_POINTS) ** 2 * g["deals"])
        )
        # A sum of squares below (sum)² / n is no sum of those values (Cauchy–Schwarz).
        if not ok or g["deals"] * g["diff_sq"] < (g["player"] - g["hard"]) ** 2:
            raise DuplicateError(f"totals group {i} is not a sum of deals: {quote(g)}", code="bad_totals")
        sums.setdefault((g["level"], g["profile"]), _Sums()).add(g["deals"], g["player"], g["hard"], g["diff_sq"])
    return sums


def summary(records: Any, totals: Any = None, *, matches: int = CHART_MATCHES) -> dict[str, Any]:
    """The player's points against Difícil's on the same cards, over ``records``
    (oldest first: ``record`` of ``replay_deal``, each ``{"level", "profile",
    "player", "hard"}`` and optionally ``"match"``, the page's name of its
    match, else ``"seed"``) and ``totals`` (older records folded by an earlier call).

    Returns ``{"confidence": 0.95, "interval": "t", "groups": [...], "all",
    "matches": [...], "totals"}``.  Each group (one per (level, profile)
    present, then per level, then per profile) and ``all``: ``{"level",
    "profile"`` (null: any), ``"deals", "player", "hard"`` (mean points per
    deal), ``"difference"`` (mean of player − hard), ``"sd"``, ``"interval":
    [low, high]`` (95 %, ``mean_interval``; null under two deals)``}``.
    ``matches``: the last ``matches`` matches of ``records`` (in the order of
    their last deal), each ``{"match", "level", "profile", "deals", "player",
    "hard", "difference"}`` (points summed, the difference a mean per deal).
    ``totals``: everything given, ``records`` included, folded into the sums
    ``totals`` takes (so the page can drop records it has folded).
    Errors: ``bad_record`` (naming the index), ``bad_totals``.
    """
    if not isinstance(records, list):
        raise DuplicateError(f"records must be a list, not {type(records).__name__}")
    if len(records) > MAX_RECORDS:
        raise DuplicateError(f"at most {MAX_RECORDS} records, not {len(records)}")
    if type(matches) is not int or not 0 <= matches <= 100:
        raise DuplicateError(f"matches must be an integer 0..100, not {quote(matches)}", code="bad_request")
    base = _read_totals(totals)
    checked = [_check_record(r, i) for i, r in enumerate(records)]
    for r in checked:
        d = r["player"] - r["hard"]
        base.setdefault((r["level"], r["profile"]), _Sums()).add(1, r["player"], r["hard"], d * d)
    return {
        "confidence": CONFIDENCE,
        "interval": "t",
        **_groups(base),
        "matches": _chart(checked, matches),
        "totals": {
            "version": TOTALS_VERSION,
            "groups": [
                {"level": lv, "profile": pr, "deals": s.deals, "player": s.player, "hard": s.hard, "diff_sq": s.diff_sq}
                for (lv, pr), s in sorted(base.items(), key=lambda kv: _order(*kv[0]))
            ],
        },
    }


def _order(level: str | None, profile: str | None) -> tuple[int, int]:
    lv = LEVELS.index(level) if level in LEVELS else len(LEVELS)
    pr = _STATS_PROFILES.index(profile) if profile in _STATS_PROFILES else len(_STATS_PROFILES)
    return lv, pr


def _groups(base: dict[tuple[str, str], _Sums]) -> dict[str, Any]:
    keyed: dict[tuple[str | None, str | None], _Sums] = {}
    for (level, profile), s in base.items():
        for key in ((level, profile), (level, None), (None, profile), (None, None)):
            keyed.setdefault(key, _Sums()).add(s.deals, s.player, s.hard, s.diff_sq)
    everything = keyed.pop((None, None), _Sums())
    listed = sorted(
        keyed.items(),
        key=lambda kv: ((kv[0][0] is None) * 2 + (kv[0][1] is None), _order(*kv[0])),
    )
    return {
        "groups": [{"level": lv, "profile": pr, **s.figures()} for (lv, pr), s in listed],
        "all": {"level": None, "profile": None, **everything.figures()},
    }


def _chart(records: Iterable[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    by_match: dict[str, dict[str, Any]] = {}
    for r in records:
        name = r.get("match", r.get("seed"))
        if name is None:
            continue
        entry = by_match.pop(name, None) or {"match": name, "deals": 0, "player": 0, "hard": 0}
        entry.update(level=r["level"], profile=r["profile"])
        entry["deals"] += 1
        entry["player"] += r["player"]
        entry["hard"] += r["hard"]
        by_match[name] = entry  # re-inserted: the dict keeps the order of each match's last deal
    last = list(by_match.values())[-count:] if count else []
    return [{**e, "difference": round((e["player"] - e["hard"]) / e["deals"], 2)} for e in last]

