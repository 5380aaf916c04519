"""Melds and deadwood: RULES.md examples, golden meld counts, and an independent brute force."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gin import Card, all_melds, best_arrangement, deadwood, is_meld, parse_cards
from gin.cards import card_mask
from gin.melds import _pack_by_rank, discard_deadwoods, least_discard, mask_value, meld_kind, solve

from strategies import ALL_TEXT, dense_hands, hands, hands_of

# --------------------------------------------------------------------------
# The independent brute force.  It works on card *text* with its own idea of
# ranks and points and shares nothing with gin.melds: every set is every
# 3- or 4-subset of one rank, every run every stretch of 3+ consecutive
# ranks of one suit, and the best packing is found by trying every
# collection of pairwise disjoint melds (include / exclude each meld).

_RANK = {r: i + 1 for i, r in enumerate("A23456789TJQK")}


def value(text: str) -> int:
    return min(_RANK[text[0]], 10)


def brute_melds(hand) -> set[frozenset[str]]:
    """Every meld in the hand, each as a frozenset of card texts."""
    hand = [str(c) for c in hand]
    melds: set[frozenset[str]] = set()
    for rank in _RANK:
        same = [c for c in hand if c[0] == rank]
        for size in (3, 4):
            melds.update(frozenset(m) for m in combinations(same, size))
    for suit in "CDHS":
        ranks = sorted(_RANK[c[0]] for c in hand if c[1] == suit)
        present = set(ranks)
        for low in range(1, 12):
            high = low
            while high + 1 in present and low in present:
                high += 1
                if high - low >= 2:
                    melds.add(
                        frozenset("A23456789TJQK"[r - 1] + suit for r in range(low, high + 1))
                    )
    return melds


def brute_is_meld(cards) -> bool:
    cards = [str(c) for c in cards]
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return False
    if len({c[0] for c in cards}) == 1:
        return len(cards) <= 4
    if len({c[1] for c in cards}) != 1:
        return False
    ranks = sorted(_RANK[c[0]] for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def brute_deadwood(hand) -> int:
    """The minimum deadwood by trying every packing of disjoint melds."""
    hand = [str(c) for c in hand]
    melds = sorted(brute_melds(hand), key=sorted)
    worth = [sum(value(c) for c in m) for m in melds]
    best = 0

    def search(i: int, used: frozenset[str], melded: int) -> None:
        nonlocal best
        if i == len(melds):
            best = max(best, melded)
            return
        search(i + 1, used, melded)
        if not (melds[i] & used):
            search(i + 1, used | melds[i], melded + worth[i])

    search(0, frozenset(), 0)
    return sum(value(c) for c in hand) - best


def test_the_brute_force_itself_on_hand_worked_cases():
    # 7H 7S 7D 8H 9H: the run 7-8-9H leaves 7S+7D = 14; the set leaves 8+9 = 17.
    assert brute_deadwood("7H 7S 7D 8H 9H".split()) == 14
    assert brute_deadwood(["KS", "QS", "AS"]) == 21
    assert brute_deadwood(["AS", "2S", "3S"]) == 0
    assert len(brute_melds("5C 6C 7C 8C 5D 5H 5S".split())) == 8


# --------------------------------------------------------------------------
# RULES.md


def test_rules_example_run_beats_set():
    # RULES.md: 7♥ 7♠ 7♦ 8♥ 9♥ → run 7♥8♥9♥, deadwood 7♠+7♦ = 14, not 17.
    hand = parse_cards("7♥ 7♠ 7♦ 8♥ 9♥")
    assert deadwood(hand) == 14
    a = best_arrangement(hand)
    assert a.points == 14
    assert a.melds == (parse_cards("7H 8H 9H"),)
    assert set(a.deadwood) == set(parse_cards("7S 7D"))


@pytest.mark.parametrize(
    "cards, meld",
    [
        ("AS 2S 3S", True),
        ("AH 2H 3H 4H", True),
        ("JC QC KC", True),
        ("QS KS AS", False),
        ("KS AS 2S", False),
        ("7H 7S 7D", True),
        ("7H 7S 7D 7C", True),
        ("7H 7S", False),
        ("7H 8H", False),
        ("7H 8H 9S", False),
        ("7H 8H TH", False),
        ("7H 7S 8H", False),
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", True),
        ("7H 7H 7H", False),
        ("", False),
    ],
)
def test_is_meld(cards, meld):
    assert is_meld(parse_cards(cards)) is meld
    assert brute_is_meld(parse_cards(cards)) is meld


def test_ace_is_low_only():
    assert deadwood("AS 2S 3S") == 0
    assert deadwood("QS KS AS") == 21
    assert deadwood("KS AS 2S") == 13
    assert all_melds("QH KH AH KS AS 2S") == []


def test_a_card_belongs_to_one_meld():
    # 7H is in the set and the run; both cannot be used: best is the set 7s
    # (leaves 8H 9H = 17) or the run (leaves 7S 7D = 14) -> 14.  Adding 7C lets
    # the set 7S 7D 7C and the run 7H 8H 9H coexist -> 0.
    assert deadwood("7H 7S 7D 8H 9H 7C") == 0


# --------------------------------------------------------------------------
# Golden counts of all_melds (perft-style), each derived by hand.

GOLDEN = [
    # set 7H 7S 7D; run 7H 8H 9H.
    ("7H 7S 7D 8H 9H", 2),
    # 5s: the set of four + four sets of three = 5; clubs 5-8: 5-7, 6-8, 5-8 = 3.
    ("5C 6C 7C 8C 5D 5H 5S", 8),
    # spades A-5: three of 3, two of 4, one of 5 = 6; Ks (C D H) = 1; J-Q-K hearts = 1.
    ("AS 2S 3S 4S 5S KH KD KC QH JH", 8),
    # nothing melds: no rank thrice, no suit with three in a row.
    ("AC 3C 5C 7D 9D JD KH 2H 4S 6S", 0),
    # 4s: 1 + 4 = 5 sets; 5s (C D H) 1; 6s (C D H) 1; runs 4-6 in C, D, H = 3.
    ("4C 5C 6C 4D 5D 6D 4H 5H 6H 4S", 10),
    # one whole suit: runs of length k number 14 - k, k = 3..13: 11 + 10 + ... + 1 = 66.
    ("AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD", 66),
    # Q-K-A and K-A-2 are not runs.
    ("QH KH AH 2H", 0),
    # two separate runs of one suit: A-3 and 5-7 (4 is missing).
    ("AC 2C 3C 5C 6C 7C", 2),
]


@pytest.mark.parametrize("cards, count", GOLDEN)
def test_all_melds_golden_counts(cards, count):
    melds = all_melds(cards)
    assert len(melds) == count
    assert len({frozenset(m) for m in melds}) == count
    assert all(is_meld(m) for m in melds)


def test_all_melds_is_deterministic():
    hand = "4C 5C 6C 4D 5D 6D 4H 5H 6H 4S"
    assert all_melds(hand) == all_melds(hand)
    assert all_melds(parse_cards(hand)) == all_melds(list(reversed(parse_cards(hand))))


# --------------------------------------------------------------------------
# Against the brute force.


def check_hand(hand: list[str]) -> None:
    cards = parse_cards(hand)
    expected = brute_deadwood(hand)
    assert deadwood(cards) == expected, hand
    a = best_arrangement(cards)
    assert a.points == expected, hand
    used: set[Card] = set()
    for meld in a.melds:
        assert brute_is_meld(meld), (hand, meld)
        assert not used & set(meld), (hand, "melds overlap")
        used |= set(meld)
    assert used <= set(cards)
    assert set(a.deadwood) == set(cards) - used
    assert len(a.deadwood) == len(set(a.deadwood))
    assert a.points == sum(value(str(c)) for c in a.deadwood)
    assert {frozenset(str(c) for c in m) for m in all_melds(cards)} == brute_melds(hand)
    assert len(all_melds(cards)) == len(brute_melds(hand))


@settings(max_examples=1000)
@given(hands(10))
def test_deadwood_random_10(hand):
    check_hand(hand)


@settings(max_examples=1000)
@given(dense_hands(10))
def test_deadwood_dense_10(hand):
    check_hand(hand)


@settings(max_examples=1000)
@given(hands(11))
def test_deadwood_random_11(hand):
    check_hand(hand)


@settings(max_examples=1000)
@given(dense_hands(11))
def test_deadwood_dense_11(hand):
    check_hand(hand)


@settings(max_examples=300)
@given(st.integers(0, 16).flatmap(hands_of))
def test_deadwood_any_size(hand):
    check_hand(hand)


@settings(max_examples=400)
@given(hands_of(11))
def test_discard_deadwoods_against_brute_force(hand):
    cards = parse_cards(hand)
    got = discard_deadwoods(cards)
    assert set(got) == set(cards)
    for card in cards:
        rest = [c for c in hand if c != str(card)]
        assert got[card] == brute_deadwood(rest), (hand, str(card))


@settings(max_examples=200)
@given(st.integers(3, 13).flatmap(hands_of), st.integers(-1, 12))
def test_least_discard_is_the_least_of_the_discard_deadwoods(hand, skip_at):
    """``least_discard`` (the AI's) gives the discard that leaves the least deadwood by
    ``discard_deadwoods`` (checked above against the brute force), the higher card on a
    tie, then the lower index; never the skipped card (a card of the hand, or none)."""
    cards = parse_cards(hand)
    skip = cards[skip_at].index if 0 <= skip_at < len(cards) else -1
    best = min((d, -c.points, c.index) for c, d in discard_deadwoods(cards).items() if c.index != skip)
    assert least_discard(card_mask(cards), skip) == (best[0], best[2]), (hand, skip)


def test_input_forms_agree():
    text = "7H 7S 7D 8H 9H"
    assert deadwood(text) == deadwood(parse_cards(text)) == deadwood(text.split()) == 14
    assert best_arrangement(text) == best_arrangement(parse_cards(text))


def test_arrangement_to_dict():
    d = best_arrangement("7H 7S 7D 8H 9H").to_dict()
    assert d == {"melds": [["7H", "8H", "9H"]], "deadwood": ["7D", "7S"], "points": 14}


def test_empty_and_whole_deck():
    assert deadwood([]) == 0
    assert best_arrangement([]).melds == ()
    # A whole suit melds completely (as one run or several).
    a = best_arrangement(ALL_TEXT[13:26])
    assert a.points == 0 and a.deadwood == ()
    assert sum(len(m) for m in a.melds) == 13


@settings(max_examples=300)
@given(st.one_of(st.integers(12, 24).flatmap(hands), st.integers(11, 16).flatmap(dense_hands)))
def test_rank_by_rank_solver_agrees_with_the_search(hand):
    # ``solve`` hands card sets bigger than 24 to the rank-by-rank solver;
    # up to 24 both work, and they must agree.
    mask = card_mask(parse_cards(hand))
    points, melds = _pack_by_rank(mask)
    assert points == solve(mask)[0], hand
    used = 0
    for m in melds:
        assert meld_kind(m) is not None and not used & m and m & ~mask == 0, hand
        used |= m
    assert points == mask_value(mask & ~used)


def test_whole_deck_and_big_card_sets_at_once():
    import random
    import time

    t0 = time.perf_counter()
    a = best_arrangement(ALL_TEXT)
    assert a.points == 0 and a.deadwood == () and sum(len(m) for m in a.melds) == 52
    # All but the four sevens: A-6 and 8-K of every suit are runs.
    no_sevens = [c for c in ALL_TEXT if c[0] != "7"]
    assert deadwood(no_sevens) == 0
    # All but the sixes and eights: the sevens make a set, the rest runs.
    assert deadwood([c for c in ALL_TEXT if c[0] not in "68"]) == 0
    # Without the 3s, 6s, 9s and Queens no run is left: four-card sets only.
    assert deadwood([c for c in ALL_TEXT if c[0] not in "369Q"]) == 0
    rng = random.Random(7)
    for size in (30, 36, 40, 46):
        cards = rng.sample(ALL_TEXT, size)
        b = best_arrangement(cards)
        placed = [str(c) for m in b.melds for c in m] + [str(c) for c in b.deadwood]
        assert sorted(placed) == sorted(cards)
        assert b.points == sum(value(str(c)) for c in b.deadwood)
        assert all(is_meld(m) for m in b.melds)
    # The packing search alone takes seconds at 40 cards and hours at 52.
    assert time.perf_counter() - t0 < 10
