"""The deal state machine: upcard flow, turns, dead hand, scoring examples, refusals, legal actions."""

from __future__ import annotations

import json

import pytest

from gin import Deal, IllegalMove, Match, Rules, parse_cards

from test_melds import brute_deadwood

TRAD = Rules.profile("traditional")
STD = Rules.profile("standard")
BIG = Rules.profile("custom", big_gin_bonus=31)


def make(hands, upcard, stock, *, dealer=1, rules=TRAD) -> Deal:
    """Seat 0 is the non-dealer (acts first) unless ``dealer=0``."""
    return Deal.from_cards(rules=rules, dealer=dealer, hands=hands, upcard=upcard, stock=stock)


def state(deal: Deal) -> str:
    return json.dumps(deal.to_dict(), sort_keys=True)


def refuse(deal: Deal, action, code: str) -> IllegalMove:
    """The action is refused with ``code`` and the deal is exactly as before."""
    before = state(deal)
    legal_before = deal.legal_actions()
    with pytest.raises(IllegalMove) as info:
        deal.apply(action)
    assert info.value.code == code, (action, info.value.code, str(info.value))
    assert isinstance(info.value, ValueError)
    assert state(deal) == before
    assert deal.legal_actions() == legal_before
    return info.value


def texts(cards) -> list[str]:
    return [str(c) for c in cards]


# A plain position: no melds anywhere near, so no knock is possible early.
PLAIN = dict(
    hands=["AC 3C 5C 7D 9D JD KH 2H 4S 6S", "2C 4C 6C 8D TD QD AH 3H 5S 7S"],
    upcard="KS",
    stock="9C JC 8H TH QH 9S JS KD 8C",
)


def plain(**kw) -> Deal:
    return make(**{**PLAIN, **kw})


# --------------------------------------------------------------------------
# The upcard decision


def test_from_cards_starts_at_the_nondealers_upcard_decision():
    d = plain()
    assert (d.phase, d.to_act, d.dealer, d.nondealer) == ("upcard_nondealer", 0, 1, 0)
    assert texts(d.hands[0]) == sorted(PLAIN["hands"][0].split(), key=lambda t: parse_cards(t)[0])
    assert str(d.upcard) == "KS" and texts(d.discard_pile) == ["KS"]
    assert texts(d.stock) == PLAIN["stock"].split()
    assert d.outcome is None and not d.over
    d0 = plain(dealer=0)
    assert (d0.phase, d0.to_act) == ("upcard_nondealer", 1)


def test_nondealer_takes_the_upcard_then_discards_and_the_dealer_plays():
    d = plain()
    assert d.apply({"type": "take"}) is d
    assert (d.phase, d.to_act, d.to_dict()["taken"]) == ("discard", 0, "KS")
    assert "KS" in texts(d.hands[0]) and len(d.hands[0]) == 11
    assert d.discard_pile == ()
    assert {"type": "discard", "card": "KS"} not in d.legal_actions()
    refuse(d, {"type": "discard", "card": "KS"}, "cannot_discard_taken_upcard")
    d.apply({"type": "discard", "card": "KH"})
    assert (d.phase, d.to_act) == ("draw", 1)
    assert texts(d.discard_pile) == ["KH"]
    assert d.legal_actions() == [{"type": "draw", "from": "stock"}, {"type": "draw", "from": "discard"}]


def test_nondealer_passes_dealer_takes_then_the_nondealer_plays():
    d = plain()
    d.apply({"type": "pass"})
    assert (d.phase, d.to_act) == ("upcard_dealer", 1)
    assert d.legal_actions() == [{"type": "take"}, {"type": "pass"}]
    d.apply({"type": "take"})
    assert (d.phase, d.to_act) == ("discard", 1)
    assert len(d.hands[1]) == 11
    refuse(d, {"type": "discard", "card": "KS"}, "cannot_discard_taken_upcard")
    d.apply({"type": "discard", "card": "QD"})
    assert (d.phase, d.to_act) == ("draw", 0)
    assert len(d.stock) == 9  # nobody touched the stock


def test_both_pass_then_the_nondealer_must_draw_from_the_stock():
    d = plain()
    d.apply({"type": "pass"}).apply({"type": "pass"})
    assert (d.phase, d.to_act) == ("draw", 0)
    assert d.legal_actions() == [{"type": "draw", "from": "stock"}]
    refuse(d, {"type": "draw", "from": "discard"}, "must_draw_from_stock")
    d.apply({"type": "draw", "from": "stock"})
    assert (d.phase, d.to_act) == ("discard", 0)
    assert "9C" in texts(d.hands[0])
    # A card drawn from the stock may be discarded at once.
    assert {"type": "discard", "card": "9C"} in d.legal_actions()
    d.apply({"type": "discard", "card": "9C"})
    assert (d.phase, d.to_act) == ("draw", 1)
    # The dealer may take the non-dealer's discard.
    assert d.legal_actions() == [{"type": "draw", "from": "stock"}, {"type": "draw", "from": "discard"}]
    d.apply({"type": "draw", "from": "discard"})
    refuse(d, {"type": "discard", "card": "9C"}, "cannot_discard_taken_upcard")
    refuse(d, {"type": "knock", "card": "9C"}, "cannot_discard_taken_upcard")
    d.apply({"type": "discard", "card": "QD"})
    assert texts(d.discard_pile) == ["KS", "QD"]


def test_the_card_taken_from_the_pile_is_known_until_discarded():
    d = plain()
    d.apply({"type": "pass"}).apply({"type": "take"})
    assert texts(d.to_dict()["known"][1]) == ["KS"]
    d.apply({"type": "discard", "card": "QD"})
    d.apply({"type": "draw", "from": "discard"})  # seat 0 takes QD
    assert d.to_dict()["known"] == [["QD"], ["KS"]]
    d.apply({"type": "discard", "card": "KH"})
    d.apply({"type": "draw", "from": "stock"})
    d.apply({"type": "discard", "card": "KS"})
    assert d.to_dict()["known"] == [["QD"], []]


# --------------------------------------------------------------------------
# Dead hand


def three_card_stock() -> Deal:
    return plain(stock="9C JC 8H")


def test_dead_hand_when_a_discard_leaves_two_in_the_stock():
    d = three_card_stock()
    d.apply({"type": "pass"}).apply({"type": "pass"}).apply({"type": "draw", "from": "stock"})
    assert len(d.stock) == 2
    d.apply({"type": "discard", "card": "KH"})
    assert d.phase == "over" and d.to_act is None and d.over
    o = d.outcome
    assert (o.kind, o.winner, o.points) == ("void", None, 0)
    assert d.legal_actions() == []
    refuse(d, {"type": "draw", "from": "stock"}, "game_over")
    refuse(d, {"type": "pass"}, "game_over")


def test_dead_hand_after_a_few_turns_and_draws_from_the_pile_do_not_count():
    d = plain(stock="9C JC 8H TH")
    d.apply({"type": "pass"}).apply({"type": "pass"})
    d.apply({"type": "draw", "from": "stock"}).apply({"type": "discard", "card": "9C"})  # stock 3
    d.apply({"type": "draw", "from": "discard"}).apply({"type": "discard", "card": "QD"})  # stock 3
    assert d.phase == "draw" and len(d.stock) == 3
    d.apply({"type": "draw", "from": "stock"})  # stock 2
    assert d.phase == "discard"
    d.apply({"type": "discard", "card": "KH"})
    assert d.outcome.kind == "void"


def test_the_player_who_leaves_two_may_still_knock():
    # Seat 0 holds 2-3-4 clubs, 5-6-7 diamonds, 8s (C D H) and AS: draws 9C, knocks AS.
    d = make(
        ["2C 3C 4C 5D 6D 7D 8C 8D 8H AS", "KC QD JH TS 9H 7S 5S 3H AH 2D"],
        upcard="KS",
        stock="9C JC 8S",
    )
    d.apply({"type": "pass"}).apply({"type": "pass"}).apply({"type": "draw", "from": "stock"})
    assert len(d.stock) == 2
    d.apply({"type": "knock", "card": "9C"})
    # AS (1) vs defender KC QD JH TS 9H 7S 5S 3H AH 2D = 10+10+10+10+9+7+5+3+1+2 = 67,
    # nothing to lay off (AS is deadwood; 8S/9C are not the defender's).
    assert (d.outcome.kind, d.outcome.winner, d.outcome.points) == ("knock", 0, 66)


# --------------------------------------------------------------------------
# Scoring: RULES.md worked examples as scripted deals.

KNOCKER7 = "4H 5H 6H 9C 9D 9S JS QS KS 7C"  # deadwood 7C = 7
KNOCKER8 = "4H 5H 6H 9C 9D 9S JS QS KS 8C"  # deadwood 8C = 8


def knock_after_stock_draw(knocker_hand, defender_hand, *, rules, melds=None, drawn="KD"):
    """Both pass; the non-dealer (seat 0) draws ``drawn`` and knocks it."""
    d = make([knocker_hand, defender_hand], upcard="TH", stock=f"{drawn} 2H JH 6C", rules=rules)
    d.apply({"type": "pass"}).apply({"type": "pass"}).apply({"type": "draw", "from": "stock"})
    action = {"type": "knock", "card": drawn}
    if melds is not None:
        action["melds"] = melds
    d.apply(action)
    return d.outcome


def test_traditional_knock_7_defender_5_after_layoffs_is_an_undercut_of_12():
    # Defender: A-4 diamonds, three queens, 7H (lays off on 4-5-6H), 2S, 3C.
    # 12 before the layoff, 2 + 3 = 5 after; K = 7 >= 5: undercut 7 - 5 + 10 = 12.
    o = knock_after_stock_draw(KNOCKER7, "AD 2D 3D 4D QC QD QH 7H 2S 3C", rules=TRAD)
    assert (o.kind, o.winner, o.points, o.knocker) == ("undercut", 1, 12, 0)
    assert o.deadwood == (7, 5)
    assert [(str(lay.card)) for lay in o.layoffs] == ["7H"]
    assert set(texts(o.defender_arrangement.deadwood)) == {"2S", "3C"}


@pytest.mark.parametrize(
    "defender, kind, winner, points",
    [
        # A-4D, QQQ, TC 7D 3C = 20, nothing lays off: knocker 20 - 8 = 12.
        ("AD 2D 3D 4D QC QD QH TC 7D 3C", "knock", 0, 12),
        # A-5D, QQQ, AC 7S = 8: K = D, undercut 0 + 25 = 25.
        ("AD 2D 3D 4D 5D QC QD QH AC 7S", "undercut", 1, 25),
        # A-5D, QQQ, AC 5S = 6: undercut 2 + 25 = 27.
        ("AD 2D 3D 4D 5D QC QD QH AC 5S", "undercut", 1, 27),
    ],
)
def test_standard_knock_with_8(defender, kind, winner, points):
    o = knock_after_stock_draw(KNOCKER8, defender, rules=STD)
    assert (o.kind, o.winner, o.points) == (kind, winner, points)
    assert o.layoffs == ()
    assert o.deadwood[0] == 8


def test_standard_knock_with_8_after_taking_the_upcard():
    # Seat 0 takes the upcard 9S (completing the nines) and knocks KD at once.
    d = make(["4H 5H 6H 9C 9D JS QS KS 8C KD", "AD 2D 3D 4D QC QD QH TC 7D 3C"], "9S", "2H JH 6C", rules=STD)
    d.apply({"type": "take"})
    refuse(d, {"type": "knock", "card": "9S"}, "cannot_discard_taken_upcard")
    d.apply({"type": "knock", "card": "KD"})
    assert (d.outcome.kind, d.outcome.winner, d.outcome.points) == ("knock", 0, 12)
    assert d.phase == "over" and d.to_act is None
    assert texts(d.discard_pile) == ["KD"]


def test_seven_of_hearts_lays_off_after_a_knock_not_after_gin():
    defender = "AD 2D 3D QC QD QH 7H 2S 3C 8C"  # deadwood 7 + 2 + 3 + 8 = 20
    # Knock with 2C: 7H goes on 4-5-6H, D = 13, knocker scores 13 - 2 = 11.
    o = knock_after_stock_draw("4H 5H 6H 9C 9D 9S JS QS KS 2C", defender, rules=TRAD)
    assert (o.kind, o.winner, o.points) == ("knock", 0, 11)
    assert [str(lay.card) for lay in o.layoffs] == ["7H"]
    # Gin (T-K spades): 7H may not be laid off; 20 + 20 = 40.
    o = knock_after_stock_draw("4H 5H 6H 9C 9D 9S TS JS QS KS", defender, rules=TRAD)
    assert (o.kind, o.winner, o.points) == ("gin", 0, 40)
    assert o.layoffs == ()
    assert "7H" in texts(o.defender_arrangement.deadwood)
    assert o.deadwood == (0, 20)


def test_gin_in_standard_is_25_plus_the_defenders_deadwood_and_never_undercut():
    # The defender also has gin-level deadwood 0 (two runs and a set): still a gin.
    o = knock_after_stock_draw(
        "4H 5H 6H 9C 9D 9S TS JS QS KS", "AD 2D 3D 4D QC QD QH 5S 6S 7S", rules=STD, drawn="KD"
    )
    assert (o.kind, o.winner, o.points) == ("gin", 0, 25)


def test_big_gin_only_where_the_profile_enables_it():
    knocker = "4H 5H 6H 9C 9D 9S TS JS QS KS"  # draws 7H: all eleven meld
    defender = "AD 2D 3D QC QD QH 8H 2S 3C 8C"  # 8 + 2 + 3 + 8 = 21, 8H may not lay off
    d = make([knocker, defender], upcard="TH", stock="7H 2H JH", rules=BIG)
    d.apply({"type": "pass"}).apply({"type": "pass"}).apply({"type": "draw", "from": "stock"})
    legal = d.legal_actions()
    assert [a["type"] for a in legal].count("big_gin") == 1
    assert legal[-1]["type"] == "big_gin"
    d.apply({"type": "big_gin"})
    o = d.outcome
    assert (o.kind, o.winner, o.points, o.layoffs) == ("big_gin", 0, 31 + 21, ())
    assert o.discard is None
    assert len(o.knocker_arrangement.melds) == 3 and o.knocker_arrangement.points == 0
    assert sum(len(m) for m in o.knocker_arrangement.melds) == 11

    t = make([knocker, defender], upcard="TH", stock="7H 2H JH", rules=TRAD)
    t.apply({"type": "pass"}).apply({"type": "pass"}).apply({"type": "draw", "from": "stock"})
    assert all(a["type"] != "big_gin" for a in t.legal_actions())
    refuse(t, {"type": "big_gin"}, "big_gin_not_allowed")
    # Gin by knocking one of the eleven is still there.
    assert any(a["type"] == "knock" for a in t.legal_actions())


def test_big_gin_refusals_where_enabled():
    d = make(["4H 5H 6H 9C 9D 9S TS JS QS KS", "AD 2D 3D QC QD QH 8H 2S 3C 8C"], "TH", "AH 2H JH", rules=BIG)
    refuse(d, {"type": "big_gin"}, "must_draw_first")
    d.apply({"type": "pass"}).apply({"type": "pass"})
    refuse(d, {"type": "big_gin"}, "must_draw_first")
    d.apply({"type": "draw", "from": "stock"})  # AH does not meld
    assert all(a["type"] != "big_gin" for a in d.legal_actions())
    refuse(d, {"type": "big_gin"}, "not_big_gin")
    refuse(d, {"type": "big_gin", "melds": [["4H", "5H", "6H"], ["9C", "9D", "9S"]]}, "not_big_gin")
    refuse(d, {"type": "big_gin", "melds": [["4H", "5H", "7H"]]}, "invalid_melds")


# --------------------------------------------------------------------------
# The declared arrangement

DECLARER = "7S 7D 7C 7H 8H 9H AC 2C 3C AS"
# Defender: 2-5D, four queens, 4C, AH: D = 5; 4C can go on A-3C only if declared.
DEFENDER = "2D 3D 4D 5D QC QD QH QS 4C AH"


def test_a_non_minimal_declared_arrangement_counts():
    # Declaring 777 + 7-9H and leaving A-2-3C as deadwood: K = 1+2+3+1 = 7.
    # 4C cannot be laid off (nothing goes on deadwood): D = 4 + 1 = 5: undercut 2 + 10.
    o = knock_after_stock_draw(
        DECLARER, DEFENDER, rules=TRAD, melds=[["7S", "7D", "7C"], ["7H", "8H", "9H"]]
    )
    assert (o.kind, o.winner, o.points) == ("undercut", 1, 12)
    assert o.deadwood == (7, 5)
    assert o.layoffs == ()
    assert set(texts(o.knocker_arrangement.deadwood)) == {"AC", "2C", "3C", "AS"}


def test_the_best_arrangement_when_no_melds_are_given():
    # K = 1 (AS); 4C goes on A-3C: D = 1 (AH): K >= D, undercut 0 + 10.
    o = knock_after_stock_draw(DECLARER, DEFENDER, rules=TRAD)
    assert (o.kind, o.winner, o.points) == ("undercut", 1, 10)
    assert o.deadwood == (1, 1)
    assert [str(lay.card) for lay in o.layoffs] == ["4C"]


def test_a_four_card_set_declared_as_three_and_the_fourth_as_deadwood():
    melds = [["7S", "7D", "7H"], ["AC", "2C", "3C"]]  # 7C 8H 9H AS left: 25 > 10
    d = make([DECLARER, DEFENDER], upcard="TH", stock="KD 2H JH 6C")
    d.apply({"type": "pass"}).apply({"type": "pass"}).apply({"type": "draw", "from": "stock"})
    refuse(d, {"type": "knock", "card": "KD", "melds": melds}, "deadwood_too_high")
    refuse(d, {"type": "knock", "card": "KD", "melds": []}, "deadwood_too_high")
    refuse(d, {"type": "knock", "card": "7S"}, "deadwood_too_high")


@pytest.mark.parametrize(
    "melds",
    [
        [["7S", "7D", "8H"]],  # not a meld
        [["7S", "7D"]],  # too short
        [["7S", "7D", "7C"], ["7C", "8H", "9H"]],  # 7C twice... and 7C-8H-9H is no meld
        [["7S", "7D", "7C", "7H"], ["7H", "8H", "9H"]],  # 7H in two melds
        [["7S", "7D", "7C"], ["AC", "2C", "3C"], ["JC", "QC", "KC"]],  # not the knocker's cards
        [["KD", "AS", "AC"]],  # uses the discarded card
        [["7S", "7S", "7S"]],  # one card thrice
        [["XX", "7D", "7C"]],  # bad card text
        [["7S", "7D", 7]],
        [7],
        [None],
        "7S 7D 7C",
        {"a": ["7S", "7D", "7C"]},
        7,
    ],
)
def test_invalid_declared_melds_are_refused(melds):
    d = make([DECLARER, DEFENDER], upcard="TH", stock="KD 2H JH 6C")
    d.apply({"type": "pass"}).apply({"type": "pass"}).apply({"type": "draw", "from": "stock"})
    refuse(d, {"type": "knock", "card": "KD", "melds": melds}, "invalid_melds")


# --------------------------------------------------------------------------
# Every illegal action in every phase.

JUNK = [
    (None, "bad_action"),
    ([], "bad_action"),
    ("take", "bad_action"),
    (5, "bad_action"),
    ({}, "bad_action"),
    ({"type": 5}, "bad_action"),
    ({"type": None}, "bad_action"),
    ({"type": "jump"}, "bad_action"),
    ({"type": "TAKE"}, "bad_action"),
]


def phases():
    """(name, deal) for every phase, built from PLAIN."""
    out = []
    d = plain()
    out.append(("upcard_nondealer", d))
    d = plain().apply({"type": "pass"})
    out.append(("upcard_dealer", d))
    d = plain().apply({"type": "pass"}).apply({"type": "pass"})
    out.append(("draw_both_passed", d))
    d = plain().apply({"type": "take"}).apply({"type": "discard", "card": "KH"})
    out.append(("draw", d))
    d = plain().apply({"type": "take"})
    out.append(("discard_after_take", d))
    d = plain().apply({"type": "pass"}).apply({"type": "pass"}).apply({"type": "draw", "from": "stock"})
    out.append(("discard_after_stock", d))
    d = plain(stock="9C JC 8H").apply({"type": "pass"}).apply({"type": "pass"})
    d.apply({"type": "draw", "from": "stock"}).apply({"type": "discard", "card": "KH"})
    out.append(("over", d))
    return out


@pytest.mark.parametrize("name, deal", phases(), ids=[n for n, _ in phases()])
def test_junk_is_refused_in_every_phase(name, deal):
    for action, code in JUNK:
        refuse(deal, action, "game_over" if name == "over" else code)


WRONG_PHASE = {
    "upcard_nondealer": [
        ({"type": "draw", "from": "stock"}, "must_take_or_pass"),
        ({"type": "draw", "from": "discard"}, "must_take_or_pass"),
        ({"type": "discard", "card": "AC"}, "must_draw_first"),
        ({"type": "knock", "card": "AC"}, "must_draw_first"),
        ({"type": "big_gin"}, "big_gin_not_allowed"),
        ({"type": "take", "seat": 1}, "not_your_turn"),
        ({"type": "pass", "seat": 1}, "not_your_turn"),
    ],
    "upcard_dealer": [
        ({"type": "draw", "from": "stock"}, "must_take_or_pass"),
        ({"type": "discard", "card": "2C"}, "must_draw_first"),
        ({"type": "knock", "card": "2C"}, "must_draw_first"),
        ({"type": "take", "seat": 0}, "not_your_turn"),
    ],
    "draw_both_passed": [
        ({"type": "take"}, "not_upcard_phase"),
        ({"type": "pass"}, "not_upcard_phase"),
        ({"type": "draw", "from": "discard"}, "must_draw_from_stock"),
        ({"type": "draw", "from": "deck"}, "bad_action"),
        ({"type": "draw"}, "bad_action"),
        ({"type": "discard", "card": "AC"}, "must_draw_first"),
        ({"type": "knock", "card": "AC"}, "must_draw_first"),
        ({"type": "draw", "from": "stock", "seat": 1}, "not_your_turn"),
    ],
    "draw": [
        ({"type": "take"}, "not_upcard_phase"),
        ({"type": "pass"}, "not_upcard_phase"),
        ({"type": "draw", "from": "top"}, "bad_action"),
        ({"type": "draw", "from": ["stock"]}, "bad_action"),
        ({"type": "discard", "card": "2C"}, "must_draw_first"),
        ({"type": "knock", "card": "2C"}, "must_draw_first"),
        ({"type": "draw", "from": "stock", "seat": 0}, "not_your_turn"),
    ],
    "discard_after_take": [
        ({"type": "take"}, "not_upcard_phase"),
        ({"type": "pass"}, "not_upcard_phase"),
        ({"type": "draw", "from": "stock"}, "already_drawn"),
        ({"type": "draw", "from": "discard"}, "already_drawn"),
        ({"type": "discard", "card": "KS"}, "cannot_discard_taken_upcard"),
        ({"type": "discard", "card": "ks"}, "cannot_discard_taken_upcard"),
        ({"type": "discard", "card": "2C"}, "card_not_in_hand"),
        ({"type": "discard", "card": "XX"}, "bad_action"),
        ({"type": "discard", "card": 12}, "bad_action"),
        ({"type": "discard"}, "bad_action"),
        ({"type": "knock", "card": "AC"}, "deadwood_too_high"),
        ({"type": "knock", "card": "2C"}, "card_not_in_hand"),
        ({"type": "discard", "card": "AC", "seat": 1}, "not_your_turn"),
    ],
    "discard_after_stock": [
        ({"type": "draw", "from": "stock"}, "already_drawn"),
        ({"type": "pass"}, "not_upcard_phase"),
        ({"type": "discard", "card": "9S"}, "card_not_in_hand"),
        ({"type": "knock", "card": "9C"}, "deadwood_too_high"),
        ({"type": "knock", "card": "9C", "melds": [["AC", "3C", "5C"]]}, "invalid_melds"),
        ({"type": "discard", "card": "9C", "seat": 1}, "not_your_turn"),
    ],
    "over": [
        ({"type": "take"}, "game_over"),
        ({"type": "draw", "from": "stock"}, "game_over"),
        ({"type": "discard", "card": "AC"}, "game_over"),
    ],
}


@pytest.mark.parametrize("name, deal", phases(), ids=[n for n, _ in phases()])
def test_wrong_actions_are_refused_with_their_code_in_every_phase(name, deal):
    for action, code in WRONG_PHASE[name]:
        refuse(deal, action, code)


@pytest.mark.parametrize("seat", ["0", True, False, 0.0, 1.0, [0], -1, 2])
def test_a_seat_that_is_not_a_seat_number_is_refused(seat):
    d = plain()  # seat 0 to act
    before = d.to_dict()
    with pytest.raises(IllegalMove) as info:
        d.apply({"type": "pass", "seat": seat})
    # Only the ints 0 and 1 are seats: anything else is a malformed action.
    assert info.value.code == "bad_action"
    assert d.to_dict() == before


def test_deeply_nested_melds_are_invalid_melds_not_a_recursion_error():
    d = plain()
    d.apply({"type": "pass"}).apply({"type": "pass"}).apply({"type": "draw", "from": "stock"})
    before = d.to_dict()
    card = d.legal_actions()[0]["card"]
    deep: list = ["AC"]
    for _ in range(5000):
        deep = [deep]
    for melds in (deep, [deep], [["AC", deep, "3C"]]):
        with pytest.raises(IllegalMove) as info:
            d.apply({"type": "knock", "card": card, "melds": melds})
        assert info.value.code == "invalid_melds"
        assert len(str(info.value)) < 500
    with pytest.raises(IllegalMove) as info:
        d.apply({"type": "discard", "card": deep})
    assert info.value.code == "bad_action"
    assert d.to_dict() == before


def test_the_right_seat_may_be_given():
    d = plain()
    d.apply({"type": "pass", "seat": 0}).apply({"type": "take", "seat": 1})
    assert d.to_act == 1 and d.phase == "discard"


# --------------------------------------------------------------------------
# Legal actions: golden lists for fixed positions.


def test_legal_actions_golden_for_a_knocking_position():
    d = make([DECLARER, DEFENDER], upcard="TH", stock="KD 2H JH 6C")
    d.apply({"type": "pass"}).apply({"type": "pass"}).apply({"type": "draw", "from": "stock"})
    legal = d.legal_actions()
    # 11 discards in card order (clubs, diamonds, hearts, spades; A..K), then the
    # knocks: only KD (leaves AS = 1) and AS (leaves KD = 10); dropping any 7,
    # 8H, 9H or a club leaves 16 or more.
    assert [(a["type"], a["card"]) for a in legal] == [
        ("discard", c) for c in "AC 2C 3C 7C 7D KD 7H 8H 9H AS 7S".split()
    ] + [("knock", "KD"), ("knock", "AS")]
    melds = [["AC", "2C", "3C"], ["7C", "7D", "7S"], ["7H", "8H", "9H"]]
    assert legal[11]["melds"] == melds and legal[12]["melds"] == melds
    assert d.legal_actions() == legal  # deterministic
    for action in legal:
        d.copy().apply(action)  # every one applies


def test_legal_actions_golden_counts_along_plain():
    d = plain()
    counts = [len(d.legal_actions())]
    for action in [
        {"type": "take"},  # 10 discards (not KS), no knock
        {"type": "discard", "card": "KH"},
        {"type": "draw", "from": "discard"},  # seat 1 takes KH: 10 discards
        {"type": "discard", "card": "QD"},
        {"type": "draw", "from": "stock"},  # seat 0 draws 9C: 11 discards
    ]:
        d.apply(action)
        counts.append(len(d.legal_actions()))
    assert counts == [2, 10, 2, 10, 2, 11]


def test_knock_actions_carry_the_best_arrangement_for_that_discard():
    d = make(["2C 3C 4C 5D 6D 7D 8C 8D 8H AS", "KC QD JH TS 9H 7S 5S 3H AH 2D"], "KS", "9C JC 8S QH")
    d.apply({"type": "pass"}).apply({"type": "pass"}).apply({"type": "draw", "from": "stock"})
    knocks = {a["card"]: a["melds"] for a in d.legal_actions() if a["type"] == "knock"}
    # With 9C: 2-4C, 5-7D, 888 and 9C AS; dropping 9C or AS leaves 1 or 9;
    # dropping 8C lets nothing new meld (8D 8H alone): 8 + 8 + 9 + 1 = 26.
    assert set(knocks) == {"9C", "AS"}
    assert knocks["9C"] == [["2C", "3C", "4C"], ["5D", "6D", "7D"], ["8C", "8D", "8H"]]


def test_legal_discards_and_knocks_against_a_brute_force_oracle():
    """At every discard decision of some seeded matches, the legal discards and
    knocks are exactly what the rules and the brute-force deadwood say."""
    checked = 0
    for n in range(12):
        m = Match.new(seed=f"LEGAL-{n}", rules=STD)
        steps = 0
        while not m.over and m.deal_number == 1 and steps < 200:
            steps += 1
            d = m.deal
            legal = m.legal_actions()
            if d.phase == "discard":
                hand = texts(d.hands[d.to_act])
                taken = d.to_dict()["taken"]
                discards = sorted(c for c in hand if c != taken)
                knocks = sorted(
                    c for c in discards if brute_deadwood([x for x in hand if x != c]) <= 10
                )
                assert sorted(a["card"] for a in legal if a["type"] == "discard") == discards
                assert sorted(a["card"] for a in legal if a["type"] == "knock") == knocks
                checked += 1
                choice = next((a for a in legal if a["type"] == "knock"), None) if steps > 30 else None
                m.apply(choice or legal[(steps * 7) % len(discards)])
            else:
                m.apply(legal[steps % len(legal)])
    assert checked > 100
