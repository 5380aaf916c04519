"""The match: dealer rotation, voids, the target, final bonuses, and thousands of fuzzed random matches."""

from __future__ import annotations

import json
import random
from functools import reduce
from operator import or_

import pytest

import gin
import gin.match
from gin import Card, IllegalMove, Match, Rules, final_totals
from gin.match import final_result
from gin.melds import discard_deadwood_masks, solve

from strategies import ALL_TEXT
from test_melds import brute_deadwood

TRAD = Rules.profile("traditional")
STD = Rules.profile("standard")
FULL = (1 << 52) - 1

# --------------------------------------------------------------------------
# Final bonuses (RULES.md "End of the match" and the profile table)


def test_standard_shutout_doubles_then_adds_the_bonuses():
    # 105 x 2 + 100 + 3 x 25 = 385; the opponent won nothing.
    assert final_totals(STD, [(0, 30), (0, 40), (0, 35)]) == (385, 0)


def test_standard_with_one_deal_won_by_the_opponent():
    # You 105 + 100 + 3 x 25 = 280; opponent 20 + 25 = 45.
    assert final_totals(STD, [(0, 30), (1, 20), (0, 40), (0, 35)]) == (280, 45)
    assert final_totals(STD, [(1, 30), (0, 20), (1, 40), (1, 35)]) == (45, 280)


def test_traditional_shutout_is_a_game_bonus_of_200():
    # 105 + 200 + 3 x 20 = 365.
    assert final_totals(TRAD, [(0, 30), (0, 40), (0, 35)]) == (365, 0)
    # Not a shutout: 105 + 100 + 60 = 265; 20 + 20 = 40.
    assert final_totals(TRAD, [(0, 30), (1, 20), (0, 40), (0, 35)]) == (265, 40)


def test_custom_is_as_traditional_for_the_bonuses():
    custom = Rules.profile("custom", gin_bonus=25, undercut_bonus=20)
    assert final_totals(custom, [(0, 30), (0, 40), (0, 35)]) == (365, 0)
    assert final_totals(custom, [(0, 30), (1, 20), (0, 40), (0, 35)]) == (265, 40)
    big = Rules.profile("custom", target=250)
    # 105 is not the target 250: no game bonus, only the line.
    assert final_totals(big, [(0, 30), (0, 40), (0, 35)]) == (105 + 60, 0)
    assert final_totals(big, [(0, 130), (0, 120)]) == (250 + 200 + 40, 0)


def test_reaching_the_target_exactly_is_enough():
    assert final_totals(TRAD, [(1, 100)]) == (0, 100 + 200 + 20)
    assert final_totals(STD, [(1, 100)]) == (0, 200 + 100 + 25)
    assert final_totals(TRAD, [(1, 99)]) == (0, 99 + 20)


def test_a_draw_on_equal_final_totals_under_traditional():
    # Seat 1 wins seven deals for 80 (6 x 10 + 20) and never reaches 100; seat 0
    # then wins one deal of 100: 100 + 100 + 20 = 220 against 80 + 7 x 20 = 220.
    wins = [(1, 10)] * 6 + [(1, 20), (0, 100)]
    result = final_result(TRAD, wins)
    assert result.totals == (220, 220)
    assert result.winner is None
    kinds = sorted((b["seat"], b["kind"], b["points"]) for b in result.bonuses)
    assert kinds == [(0, "game", 100), (0, "line", 20), (1, "line", 140)]


def test_final_result_names_the_winner_and_its_bonuses():
    result = final_result(STD, [(0, 30), (0, 40), (0, 35)])
    assert result.winner == 0 and result.totals == (385, 0)
    assert sum(b["points"] for b in result.bonuses if b["seat"] == 0) == 385 - 105
    json.dumps(result.to_dict())
    result = final_result(TRAD, [(0, 5), (1, 100)])
    assert result.winner == 1 and result.totals == (25, 100 + 100 + 20)


# --------------------------------------------------------------------------
# Scripted matches: the deals are replaced by designed ones.

# The winner's ten cards: with the upcard TS it has gin (4-6H, 999, T-K spades) and KD to knock.
WINNER = "4H 5H 6H 9C 9D 9S JS QS KS KD"
UPCARD = "TS"
# Loser hands without a meld (their deadwood is all the points).
LOSERS = {
    40: "AC 2D 3S 4C 5D 6C 7S 8D AH 3H",  # 1+2+3+4+5+6+7+8+1+3
    79: "KC QD JH TC 9H 8D 7S 6C 5D 4C",  # 10x4 + 9+8+7+6+5+4
    80: "KC QD JH TC 9H 8D 7S 6C 8C 2D",  # 10x4 + 9+8+7+6+8+2
}


def scripted(plan: dict[int, tuple[str, int]]):
    """A deal_cards replacement: deal n is won by "nondealer" / "dealer" (a gin
    taking the upcard, loser deadwood given) or is played to a "void"."""

    def deal_cards(seed, number):
        who, loser_points = plan.get(number, ("void", 0))
        loser = LOSERS.get(loser_points, LOSERS[40])
        index = {t: i for i, t in enumerate(ALL_TEXT)}
        used = set(WINNER.split()) | set(loser.split()) | {UPCARD}
        stock = [index[t] for t in ALL_TEXT if t not in used]
        win = [index[t] for t in WINNER.split()]
        lose = [index[t] for t in loser.split()]
        if who == "dealer":
            return lose, win, index[UPCARD], stock
        return win, lose, index[UPCARD], stock

    return deal_cards


def play_scripted(m: Match, who: str) -> None:
    d = m.deal
    if who == "nondealer":
        m.apply({"type": "take"})
        m.apply({"type": "knock", "card": "KD"})
    elif who == "dealer":
        m.apply({"type": "pass"}).apply({"type": "take"})
        m.apply({"type": "knock", "card": "KD"})
    else:
        m.apply({"type": "pass"}).apply({"type": "pass"})
        while m.deal is d:
            m.apply({"type": "draw", "from": "stock"})
            drawn = d.to_dict()["drawn"]
            m.apply({"type": "discard", "card": drawn})


def test_loser_hands_are_what_they_say():
    for points, hand in LOSERS.items():
        assert brute_deadwood(hand.split()) == points
        assert not set(hand.split()) & (set(WINNER.split()) | {UPCARD})
    assert brute_deadwood(WINNER.split() + [UPCARD]) == 10  # KD alone


def test_winner_deals_next_void_keeps_the_dealer_and_the_target_ends_it(monkeypatch):
    plan = {1: ("void", 0), 2: ("nondealer", 40), 3: ("dealer", 40), 4: ("nondealer", 79), 5: ("void", 0)}
    monkeypatch.setattr(gin.match, "deal_cards", scripted(plan))
    m = Match.new(seed="A", rules=TRAD)  # first dealer by lot: seat 1 for "A"
    assert gin.shuffle.first_dealer("A") == 1
    assert m.deal.dealer == 1
    play_scripted(m, "void")
    assert m.results[-1].outcome.kind == "void" and m.scores == (0, 0)
    assert (m.deal_number, m.deal.dealer) == (2, 1)  # the same dealer again
    play_scripted(m, "nondealer")  # seat 0 gins: 20 + 40
    assert m.results[-1].outcome.winner == 0 and m.scores == (60, 0)
    assert (m.deal_number, m.deal.dealer) == (3, 0)  # the winner deals
    play_scripted(m, "dealer")  # seat 0 (dealer) gins again: 60 more, 120 >= 100
    assert m.scores == (120, 0)
    assert m.over and m.winner == 0
    assert m.final.totals == (120 + 200 + 2 * 20, 0)  # traditional shutout
    assert m.legal_actions() == [] and m.to_act is None
    with pytest.raises(IllegalMove) as info:
        m.apply({"type": "pass"})
    assert info.value.code == "game_over"
    assert [r.number for r in m.results] == [1, 2, 3]
    assert [r.dealer for r in m.results] == [1, 1, 0]


def test_the_target_is_reached_exactly_and_not_before(monkeypatch):
    # Seat 0 gins for 20 + 79 = 99 (not over), then seat 1 for 20 + 40 = 60,
    # then seat 0 (non-dealer again) for 60: 159 >= 100.
    plan = {1: ("nondealer", 79), 2: ("nondealer", 40), 3: ("nondealer", 40)}
    monkeypatch.setattr(gin.match, "deal_cards", scripted(plan))
    m = Match.new(seed="A", rules=TRAD)
    play_scripted(m, "nondealer")
    assert m.scores == (99, 0) and not m.over
    assert m.deal.dealer == 0
    play_scripted(m, "nondealer")  # seat 1 is the non-dealer now
    assert m.scores == (99, 60) and not m.over
    assert m.deal.dealer == 1
    play_scripted(m, "nondealer")
    assert m.scores == (159, 60) and m.over
    assert m.final.totals == (159 + 100 + 40, 60 + 20)
    assert m.winner == 0


def test_exactly_100_ends_the_match(monkeypatch):
    monkeypatch.setattr(gin.match, "deal_cards", scripted({1: ("nondealer", 80)}))
    m = Match.new(seed="A", rules=TRAD)  # 20 + 80 = 100 exactly
    play_scripted(m, "nondealer")
    assert m.over and m.scores == (100, 0)
    assert m.final.totals == (100 + 200 + 20, 0)
    m = Match.new(seed="A", rules=STD)  # 25 + 80 = 105: 105 x 2 + 100 + 25
    play_scripted(m, "nondealer")
    assert m.over and m.final.totals == (335, 0)


def test_history_and_results():
    m = Match.new(seed="HISTORY", rules=STD)
    rng = random.Random(5)
    while len(m.results) < 3 and not m.over:
        m.apply(policy(m, rng))
    scores = [0, 0]
    for r in m.results:
        o = r.outcome
        if o.winner is not None:
            scores[o.winner] += o.points
        assert r.scores == tuple(scores)
        d = r.to_dict()
        assert d["number"] == r.number and d["kind"] == o.kind and d["scores"] == list(r.scores)
        json.dumps(d)
    assert m.scores == tuple(scores)


# --------------------------------------------------------------------------
# Thousands of seeded random matches, fuzzed with junk between legal actions.


def policy(m: Match, rng: random.Random) -> dict:
    """Cheap and random, but knocks often enough that deals end."""
    d = m.deal
    if d.phase in ("upcard_nondealer", "upcard_dealer"):
        return {"type": rng.choice(("take", "pass"))}
    if d.phase == "draw":
        from_pile = not d.both_passed and rng.random() < 0.2
        return {"type": "draw", "from": "discard" if from_pile else "stock"}
    hand = d.hand_masks[d.to_act]
    if d.rules.big_gin and solve(hand)[0] == 0 and rng.random() < 0.9:
        return {"type": "big_gin"}
    after = discard_deadwood_masks(hand)
    after.pop(d.taken, None)
    least, best = min(zip(after.values(), after))  # the least deadwood, then the lowest card
    if least <= d.rules.knock_limit and rng.random() < 0.8:
        return {"type": "knock", "card": str(Card(best))}
    if rng.random() < 0.9:
        return {"type": "discard", "card": str(Card(best))}
    return {"type": "discard", "card": str(Card(rng.choice(sorted(after))))}


def junk(rng: random.Random, m: Match):
    """Something a confused or hostile caller might send."""
    cards = list(ALL_TEXT) + ["XX", "10h", "", 7, None, ["7H"], {"c": 1}]
    hand = [str(c) for c in m.deal.hands[m.deal.to_act or 0]]
    choice = rng.random()
    if choice < 0.08:
        return rng.choice([None, "take", [], 3, 2.5, ("take",), {"type"}])
    action: dict = {"type": rng.choice(["take", "pass", "draw", "discard", "knock", "big_gin", "jump", "", None, 5, ["draw"]])}
    if rng.random() < 0.6:
        action["card"] = rng.choice(cards + hand * 3)
    if rng.random() < 0.5:
        action["from"] = rng.choice(["stock", "discard", "deck", None, 1, ["stock"]])
    if rng.random() < 0.3:
        action["melds"] = rng.choice(
            [None, [], "7H 8H 9H", 5, [5], [None], [["7H", "8H"]], [hand[:3]], [hand[:3], hand[3:6]], [["XX"]], {"a": 1}]
        )
    if rng.random() < 0.3:
        action["seat"] = rng.choice([0, 1, 2, -1, "0", None, True, 1.0])
    if rng.random() < 0.1:
        action[rng.choice(["extra", "type2", "x"])] = rng.choice([1, "a", None, [1]])
    return action


#: Each card's bit, to OR a list of cards into a mask without a Python loop (cards_conserved
#: runs at every step of the fuzzed matches).
BIT = tuple(1 << i for i in range(52))


def cards_conserved(m: Match) -> None:
    d = m.deal
    stock = reduce(or_, map(BIT.__getitem__, d.stock_list), 0)
    pile = reduce(or_, map(BIT.__getitem__, d.pile), 0)
    h0, h1 = d.hand_masks
    assert h0.bit_count() + h1.bit_count() + stock.bit_count() + pile.bit_count() == 52
    assert h0 | h1 | stock | pile == FULL
    assert len(d.stock_list) + len(d.pile) == stock.bit_count() + pile.bit_count()
    if d.phase == "discard":
        assert (h0 if d.to_act == 0 else h1).bit_count() == 11
    elif d.phase != "over":
        assert h0.bit_count() == h1.bit_count() == 10


def check_junk(m: Match, action, rng) -> None:
    """Junk is refused with IllegalMove and changes nothing, or it was legal."""
    deal = m.deal
    before = (deal.to_dict(), len(m.actions), m.deal_number, len(m.results), m.scores)
    legal = m.legal_actions()
    try:
        m.apply(action)
    except IllegalMove as exc:
        assert isinstance(exc.code, str) and exc.code
        assert m.deal is deal
        after = (deal.to_dict(), len(m.actions), m.deal_number, len(m.results), m.scores)
        assert after == before, action
        return
    # Accepted: it must have been a legal action (by kind and card/source).
    kind = action["type"]
    if kind in ("take", "pass"):
        assert {"type": kind} in legal
    elif kind == "draw":
        assert {"type": "draw", "from": action["from"]} in legal
    elif kind == "discard":
        assert {"type": "discard", "card": str(Card.parse(action["card"]))} in legal
    elif kind == "knock":
        assert str(Card.parse(action["card"])) in {a["card"] for a in legal if a["type"] == "knock"}
    else:
        assert kind == "big_gin" and any(a["type"] == "big_gin" for a in legal)
    recorded = m.to_save()["actions"][-1]
    assert "seat" not in recorded and recorded["type"] == kind


PROFILES = [
    Rules.profile("traditional"),
    Rules.profile("standard"),
    Rules.profile("custom", big_gin_bonus=31, gin_bonus=25, undercut_bonus=20),
]
LONG = Rules.profile("custom", target=250, big_gin_bonus=50)


def play_fuzzed(seed: str, rules: Rules, rng: random.Random, junk_rate: float) -> Match:
    m = Match.new(seed=seed, rules=rules)
    steps = 0
    while not m.over:
        steps += 1
        assert steps < 20_000, "a match that does not end"
        cards_conserved(m)
        if rng.random() < junk_rate:
            check_junk(m, junk(rng, m), rng)
            continue
        deal = m.deal
        m.apply(policy(m, rng))
        if deal.outcome is not None:
            check_deal_end(m, deal)
    assert m.to_act is None and m.legal_actions() == []
    assert max(m.scores) >= rules.target
    assert all(max(r.scores) < rules.target for r in m.results[:-1])
    assert m.final.totals == final_totals(rules, m.wins)
    return m


def check_deal_end(m: Match, deal) -> None:
    o = deal.outcome
    r = m.results[-1]
    assert r.outcome is o
    assert deal.phase == "over" and deal.to_act is None
    if o.kind == "void":
        assert (o.winner, o.points) == (None, 0)
        assert len(deal.stock_list) == 2
    else:
        k = o.knocker_arrangement.points
        dd = o.defender_arrangement.points
        assert k <= deal.rules.knock_limit
        if o.kind in ("gin", "big_gin"):
            assert k == 0 and o.layoffs == () and o.winner == o.knocker
            bonus = deal.rules.gin_bonus if o.kind == "gin" else deal.rules.big_gin_bonus
            assert o.points == bonus + dd
        elif o.kind == "knock":
            assert k < dd and o.winner == o.knocker and o.points == dd - k
        else:
            assert o.kind == "undercut" and k >= dd and o.winner == 1 - o.knocker
            assert o.points == k - dd + deal.rules.undercut_bonus
    if not m.over:
        expected_dealer = deal.dealer if o.winner is None else o.winner
        assert m.deal.dealer == expected_dealer
        assert m.deal.phase == "upcard_nondealer" and m.deal.to_act == 1 - expected_dealer


def whole(m: Match) -> str:
    """A full serialisation of the match: save, current deal (hidden cards too), results."""
    return json.dumps(
        {
            "save": m.to_save(),
            "deal": m.deal.to_dict(),
            "number": m.deal_number,
            "results": [r.to_dict() for r in m.results],
            "final": None if m.final is None else m.final.to_dict(),
        },
        sort_keys=True,
    )


def test_refusals_leave_the_whole_match_unchanged():
    rng = random.Random(77)
    m = Match.new(seed="WHOLE-STATE", rules=STD)
    refusals = 0
    while not m.over:
        for _ in range(4):
            action = junk(rng, m)
            sent = json.dumps(action, sort_keys=True, default=repr)
            before = whole(m)
            try:
                m.apply(action)
            except IllegalMove:
                refusals += 1
                assert whole(m) == before, action
            assert json.dumps(action, sort_keys=True, default=repr) == sent  # the input is not modified
            if m.over:
                break
        if not m.over:
            m.apply(policy(m, rng))
    assert refusals > 200
    before = whole(m)
    for action in ({"type": "pass"}, {"type": "draw", "from": "stock"}, None, {"type": "jump"}):
        with pytest.raises(IllegalMove) as info:
            m.apply(action)
        assert info.value.code == "game_over"
        assert whole(m) == before


@pytest.mark.parametrize("block", range(8))
def test_thousands_of_fuzzed_random_matches(block):
    """8 blocks x 250 matches, every rule set, junk between legal actions."""
    kinds = set()
    for n in range(250):
        index = block * 250 + n
        rng = random.Random(index)
        rules = LONG if index % 50 == 7 else PROFILES[index % len(PROFILES)]
        m = play_fuzzed(f"FUZZ-{index}", rules, rng, junk_rate=0.03)
        kinds.update(r.outcome.kind for r in m.results)
    assert {"knock", "gin", "undercut", "void"} <= kinds


def test_random_matches_are_deterministic():
    a = play_fuzzed("SAME", STD, random.Random(1), junk_rate=0.2)
    b = play_fuzzed("SAME", STD, random.Random(1), junk_rate=0.2)
    assert a.to_save() == b.to_save()
    assert [r.to_dict() for r in a.results] == [r.to_dict() for r in b.results]


def test_big_gin_happens_in_random_matches_where_enabled():
    kinds = set()
    for n in range(150):
        m = play_fuzzed(f"BIG-{n}", PROFILES[2], random.Random(n), junk_rate=0.0)
        kinds.update(r.outcome.kind for r in m.results)
        if "big_gin" in kinds:
            break
    assert "big_gin" in kinds


def test_a_copy_plays_on_without_touching_the_match():
    from gin import ai

    m = Match.new(seed="COPY-1")
    for _ in range(7):
        m.apply(ai.choose(m.view(m.to_act), "easy"))
    m.meta["levels"] = ["easy"]
    def state(match: Match) -> str:
        return json.dumps([match.to_save(), match.view(0), match.view(1), match.deal.to_dict()])

    before = state(m)
    c = m.copy()
    assert state(c) == before
    while len(c.results) < 2:
        c.apply(ai.choose(c.view(c.to_act), "easy"))
    c.meta["levels"].append("hard")
    assert c.deal_number > m.deal_number and len(c.actions) > len(m.actions)
    assert state(m) == before
