"""The variants: Oklahoma, Straight Gin and Hollywood scoring (README's rules section).

Worked examples first, then every variant's scores against an independent
count over whole matches, then every level's legality and fairness under
every variant.
"""

from __future__ import annotations

import random

import pytest

from gin import ai
from gin.cards import ALL_CARDS
from gin.deal import Deal
from gin.errors import IllegalMove, RulesError
from gin.match import Match, hollywood_games
from gin.rules import Rules
from gin.shuffle import deal_cards

from test_ai import _hidden_shuffle, _positions, legal_at_every_level, replayed

OKLA = Rules.profile("oklahoma")
OKLA_SPADES = Rules.profile("oklahoma", spade_double=True)
STRAIGHT = Rules.profile("straight")

#: Three melds and a loose 5♠; drawing 4♠ leaves deadwood 5 (discard 4♠) or 4 (discard 5♠).
MELDED = "AC 2C 3C 5D 6D 7D 9H 9S 9C 5S"
DEFENDER = "KH QS JD TH 8C 7S 6C 3S 2D KC"


def _drawn(rules: Rules, upcard: str, drawn: str, hand: str = MELDED, defender: str = DEFENDER) -> Deal:
    """Seat 0 (non-dealer) and seat 1 pass ``upcard``; seat 0 draws ``drawn``."""
    d = Deal.from_cards(rules=rules, dealer=1, hands=[hand, defender], upcard=upcard, stock=[drawn, "6H", "2S", "8S"])
    return d.apply({"type": "pass"}).apply({"type": "pass"}).apply({"type": "draw", "from": "stock"})


def _knocks(d: Deal) -> set[str]:
    return {a["card"] for a in d.legal_actions() if a["type"] == "knock"}


# -- Oklahoma -----------------------------------------------------------------


def test_oklahoma_profile_values():
    assert (OKLA.target, OKLA.oklahoma, OKLA.ace_gin, OKLA.spade_double) == (150, True, True, False)
    assert (OKLA.gin_bonus, OKLA.undercut_bonus) == (20, 10)
    assert Rules.from_dict(OKLA_SPADES.to_dict()) == OKLA_SPADES
    assert Rules.from_dict(Rules.profile("oklahoma", ace_gin=False).to_dict()).ace_gin is False


def test_oklahoma_four_upcard_knock_with_5_refused_with_4_allowed():
    d = _drawn(OKLA, "4H", "4S")
    assert d.knock_limit == 4
    assert _knocks(d) == {"5S"}  # 4♠ away leaves 5♠: 5 is over the limit
    before = d.to_dict()
    with pytest.raises(IllegalMove) as info:
        d.apply({"type": "knock", "card": "4S"})
    assert info.value.code == "deadwood_too_high"
    assert d.to_dict() == before
    d.apply({"type": "knock", "card": "5S"})
    # The defender melds nothing (76) and lays nothing off on A-3♣, 5-7♦ or the 9s.
    assert (d.outcome.kind, d.outcome.winner, d.outcome.points) == ("knock", 0, 76 - 4)


def test_oklahoma_face_card_upcard_is_ten():
    assert _drawn(OKLA, "QH", "4S").knock_limit == 10
    assert _knocks(_drawn(OKLA, "QH", "4S")) == {"4S", "5S"}


def test_oklahoma_ace_upcard_only_gin():
    d = _drawn(OKLA, "AH", "4S")
    assert d.knock_limit == 0
    assert _knocks(d) == set()
    with pytest.raises(IllegalMove) as info:
        d.apply({"type": "knock", "card": "4S"})
    assert info.value.code == "gin_required"
    # 8♦ completes 5-8♦: gin is still allowed.
    g = _drawn(OKLA, "AH", "8D", hand="AC 2C 3C 5D 6D 7D 9H 9S 9C KS")
    assert _knocks(g) == {"KS"}
    g.apply({"type": "knock", "card": "KS"})
    assert g.outcome.kind == "gin"
    # With the option off an ace is worth 1.
    assert _drawn(Rules.profile("oklahoma", ace_gin=False), "AH", "4S").knock_limit == 1


def test_oklahoma_spade_upcard_doubles_gin_and_undercut():
    g = _drawn(OKLA_SPADES, "6S", "8D", hand="AC 2C 3C 5D 6D 7D 9H 9S 9C KS")
    g.apply({"type": "knock", "card": "KS"})
    assert (g.outcome.kind, g.outcome.points, g.outcome.multiplier) == ("gin", (20 + 76) * 2, 2)
    # Undercut: knock with 4 against a defender holding 3 after melds.
    u = _drawn(OKLA_SPADES, "6S", "4S", defender="KH KD KC QH QD QC JH JD JC 3S")
    u.apply({"type": "knock", "card": "5S"})  # keeps 4♠ (4), defender keeps 3♠ (3)
    assert (u.outcome.kind, u.outcome.winner, u.outcome.points) == ("undercut", 1, (4 - 3 + 10) * 2)
    # Not a spade: no doubling; without the option: no doubling.
    h = _drawn(OKLA_SPADES, "4H", "8D", hand="AC 2C 3C 5D 6D 7D 9H 9S 9C KS").apply({"type": "knock", "card": "KS"})
    assert (h.outcome.points, h.outcome.multiplier) == (20 + 76, 1)
    n = _drawn(OKLA, "6S", "8D", hand="AC 2C 3C 5D 6D 7D 9H 9S 9C KS").apply({"type": "knock", "card": "KS"})
    assert n.outcome.points == 20 + 76


def test_the_knock_limit_is_public_from_the_first_moment():
    m = Match.new(seed="OKLA-1", rules=OKLA)
    upcard = m.deal.discard_pile[0]
    want = 0 if upcard.rank == 1 else upcard.points
    for seat in (0, 1):
        assert m.view(seat)["knock_limit"] == want
    # It stays the deal's limit after the upcard is taken.
    m.apply({"type": "take"})
    assert m.view(0)["knock_limit"] == m.view(1)["knock_limit"] == want


# -- Straight gin -------------------------------------------------------------


def test_straight_gin_no_knocking_only_gin():
    d = _drawn(STRAIGHT, "QH", "4S")
    assert d.knock_limit == 0 and _knocks(d) == set()
    with pytest.raises(IllegalMove) as info:
        d.apply({"type": "knock", "card": "5S"})
    assert info.value.code == "gin_required"
    g = _drawn(STRAIGHT, "QH", "8D", hand="AC 2C 3C 5D 6D 7D 9H 9S 9C KS").apply({"type": "knock", "card": "KS"})
    assert (g.outcome.kind, g.outcome.points) == ("gin", 20 + 76)


def test_straight_gin_goes_to_the_dead_hand():
    d = Deal.from_cards(rules=STRAIGHT, dealer=1, hands=[MELDED, DEFENDER], upcard="QH", stock="4S 2H 3H")
    d.apply({"type": "pass"}).apply({"type": "pass"}).apply({"type": "draw", "from": "stock"})
    assert _knocks(d) == set()  # deadwood 4 would knock under any other profile
    d.apply({"type": "discard", "card": "4S"})
    assert d.outcome.kind == "void" and d.outcome.winner is None


def test_straight_gin_big_gin_where_enabled():
    r = Rules.profile("straight", big_gin_bonus=31)
    d = _drawn(r, "QH", "8D", hand="AC 2C 3C 5D 6D 7D 9H 9S 9C 4D")
    assert any(a["type"] == "big_gin" for a in d.legal_actions())


def test_variant_options_are_checked():
    with pytest.raises(RulesError):
        Rules.profile("oklahoma", spade_double=1)
    with pytest.raises(RulesError):
        Rules.profile("traditional", spade_double=True)
    with pytest.raises(RulesError):
        Rules.profile("straight", ace_gin=True)
    with pytest.raises(RulesError):
        Rules.from_dict({**Rules.profile("traditional").to_dict(), "straight": True})


def test_old_rules_read_as_before():
    """The first three profiles write exactly the keys they wrote before the variants."""
    keys = {"profile", "knock_limit", "gin_bonus", "undercut_bonus", "big_gin_bonus", "target",
            "game_bonus", "shutout", "shutout_game_bonus", "line_bonus"}
    for name in ("traditional", "standard", "custom"):
        assert set(Rules.profile(name).to_dict()) == keys
    assert set(Rules.profile("traditional", hollywood=True).to_dict()) == keys | {"hollywood"}


# -- Hollywood ----------------------------------------------------------------

#: (seat, points) of each scored deal, and each game's entries worked out by hand:
#: A=seat 0, B=seat 1, traditional, target 100.
HOLLYWOOD_DEALS = [(0, 30), (1, 20), (0, 40), (0, 35), (1, 25), (0, 50), (1, 30), (0, 20)]
#   deal 1 A#1 -> G1 A30          deal 5 B#2 -> G2 B25 (G1 over)
#   deal 2 B#1 -> G1 B20          deal 6 A#4 -> G2 A125 (over), G3 A85
#   deal 3 A#2 -> G1 A70, G2 A40  deal 7 B#3 -> G3 B30
#   deal 4 A#3 -> G1 A105 (over), G2 A75, G3 A35
#   deal 8 A#5 -> G3 A105 (over): the match ends.
#   G1: A 105 + game 100 + line 3x20 = 265; B 20 + line 20 = 40
#   G2: A 125 + 100 + 60 = 285; B 25 + 20 = 45
#   G3: A 105 + 100 + 60 = 265; B 30 + 20 = 50


def test_hollywood_worked_example():
    rules = Rules.profile("traditional", hollywood=True)
    games = hollywood_games(rules, HOLLYWOOD_DEALS)
    assert [g.scores for g in games] == [(105, 20), (125, 25), (105, 30)]
    assert [g.final.totals for g in games] == [(265, 40), (285, 45), (265, 50)]
    assert all(g.final.winner == 0 for g in games)
    # Before the last deal the third game is still open.
    assert hollywood_games(rules, HOLLYWOOD_DEALS[:-1])[2].final is None


def test_hollywood_shutout_is_per_game():
    rules = Rules.profile("traditional", hollywood=True)
    # A wins 60, 50: game 1 over (B never entered it: a shutout, 200); then B's
    # first win is entered in game 1 only, which is over: it counts nowhere.
    games = hollywood_games(rules, [(0, 60), (0, 50), (1, 30)])
    assert games[0].final.totals == (60 + 50 + 200 + 2 * 20, 0)
    assert [g.scores for g in games[1:]] == [(50, 0), (0, 0)]


def _play(match: Match, rng: random.Random, levels=("easy", "baseline")) -> Match:
    while not match.over:
        seat = match.to_act
        match.apply(ai.choose(match.view(seat), rng.choice(levels)))
    return match


def test_a_hollywood_match_through_its_three_games():
    rules = Rules.profile("traditional", hollywood=True)
    m = _play(Match.new(seed="HOLLY-3", rules=rules), random.Random(3))
    assert m.final.games is not None and len(m.final.games) == 3
    wins = [(r.outcome.winner, r.outcome.points) for r in m.results if r.outcome.winner is not None]
    games = _independent_hollywood(rules, wins)
    assert [tuple(g["totals"]) for g in games] == [g.totals for g in m.final.games]
    assert m.final.totals == tuple(sum(g["totals"][s] for g in games) for s in (0, 1))
    assert all(max(g["points"]) >= rules.target for g in games)
    view = m.view(0)
    assert [g["over"] for g in view["games"]] == [True, True, True]
    assert len(view["final"]["games"]) == 3
    again = Match.from_save(m.to_save())
    assert again.final == m.final


# -- every variant against an independent count -------------------------------


def _independent_deal_points(rules: Rules, outcome, upcard) -> int:
    """What a deal scores, from its arrangements, by the rules as written."""
    mult = 2 if rules.oklahoma and rules.spade_double and upcard.suit == "S" else 1
    k, d = outcome.knocker_arrangement.points, outcome.defender_arrangement.points
    if outcome.kind == "gin":
        return (rules.gin_bonus + d) * mult
    if outcome.kind == "big_gin":
        return (rules.big_gin_bonus + d) * mult
    if k < d:
        return (d - k) * mult
    return (k - d + rules.undercut_bonus) * mult


def _independent_final(rules: Rules, wins) -> tuple[int, int]:
    pts = [sum(p for s, p in wins if s == seat) for seat in (0, 1)]
    n = [sum(1 for s, _ in wins if s == seat) for seat in (0, 1)]
    w = 0 if pts[0] >= rules.target else 1
    tot = list(pts)
    if n[1 - w] == 0 and rules.shutout == "double":
        tot[w] = 2 * pts[w] + rules.game_bonus
    elif n[1 - w] == 0:
        tot[w] += rules.shutout_game_bonus
    else:
        tot[w] += rules.game_bonus
    return tot[0] + n[0] * rules.line_bonus, tot[1] + n[1] * rules.line_bonus


def _independent_hollywood(rules: Rules, wins):
    games = [{"wins": [], "points": [0, 0], "over": False} for _ in range(3)]
    count = {0: 0, 1: 0}
    for seat, p in wins:
        count[seat] += 1
        for g in games[: min(count[seat], 3)]:
            if not g["over"]:
                g["wins"].append((seat, p))
                g["points"][seat] += p
                g["over"] = g["points"][seat] >= rules.target
    for g in games:
        g["totals"] = _independent_final(rules, g["wins"]) if g["over"] else None
    return games


VARIANTS = [
    OKLA,
    OKLA_SPADES,
    Rules.profile("oklahoma", ace_gin=False, hollywood=True),
    STRAIGHT,
    Rules.profile("straight", big_gin_bonus=50, hollywood=True),
    Rules.profile("standard", hollywood=True),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.profile_name}-{r.options()}")
def test_every_variant_scores_as_an_independent_count(rules):
    rng = random.Random(rules.profile_name)
    for n in range(3):
        m = _play(Match.new(seed=f"V-{n}", rules=rules), rng)
        wins = []
        for r in m.results:
            upcard = deal_cards(m.seed, r.number)[2]
            up = ALL_CARDS[upcard]
            limit = 0 if rules.straight or (rules.oklahoma and rules.ace_gin and up.rank == 1) else (
                up.points if rules.oklahoma else 10
            )
            o = r.outcome
            if o.kind == "void":
                continue
            if o.kind in ("knock", "undercut"):
                assert 0 < o.knocker_arrangement.points <= limit
            assert o.points == _independent_deal_points(rules, o, up)
            wins.append((o.winner, o.points))
        if rules.hollywood:
            games = _independent_hollywood(rules, wins)
            assert tuple(sum(g["totals"][s] for g in games) for s in (0, 1)) == m.final.totals
        else:
            assert _independent_final(rules, wins) == m.final.totals


# -- the computer under every variant -----------------------------------------


@pytest.fixture(scope="module")
def variant_positions():
    return [(p, rules) for rules in VARIANTS for p in _positions(6, rules=rules, every=3, tag=rules.profile_name)]


def test_every_level_is_legal_and_fair_under_every_variant(variant_positions):
    rng = random.Random(9)
    knocks = 0
    matches = replayed([p for p, _ in variant_positions])
    for ((_, seat), rules), m in zip(variant_positions, matches, strict=True):
        view = m.view(seat)
        chosen = legal_at_every_level(m, view)
        knocks += sum(action["type"] == "knock" for action in chosen.values())
        other = m.copy()  # the levels' choices above played on copies of the deal: m is as saved
        _hidden_shuffle(other, seat, rng)
        assert other.view(seat) == view
        for level in ("easy", "normal", "hard"):
            assert ai.choose(other.view(seat), level) == chosen[level]
    assert knocks > 0
