"""The showdown: layoffs (chained, fourth card, breaking own melds), none after gin, vs a brute force."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gin import Deal, Rules

from strategies import ALL_TEXT
from test_melds import brute_deadwood, brute_is_meld, brute_melds, value

TRAD = Rules.profile("traditional")
STD = Rules.profile("standard")


def knock(knocker: str, defender: str, melds, *, drawn: str, fillers: str, rules=TRAD):
    """Seat 0 (non-dealer) passes, seat 1 passes, seat 0 draws ``drawn`` and knocks it
    declaring ``melds``; ``fillers`` are the upcard then the rest of the stock."""
    up, *rest = fillers.split()
    d = Deal.from_cards(
        rules=rules, dealer=1, hands=[knocker, defender], upcard=up, stock=[drawn, *rest]
    )
    d.apply({"type": "pass"}).apply({"type": "pass"}).apply({"type": "draw", "from": "stock"})
    d.apply({"type": "knock", "card": drawn, "melds": melds})
    return d.outcome


# --------------------------------------------------------------------------
# The independent brute force for the defender: every packing of its own melds
# and, for what is left, every way to extend each knocker meld with those
# cards (a run by any number of consecutive cards below and above it, a set
# of three by its fourth card), the extensions pairwise disjoint.  Laying off
# one card at a time reaches exactly these final melds.

_ORDER = "A23456789TJQK"


def extensions(meld: list[str], free: set[str]) -> list[frozenset[str]]:
    """Every set of free cards that the knocker meld can take (the empty one too)."""
    out = [frozenset()]
    if len({c[0] for c in meld}) == 1:
        if len(meld) == 3:
            out += [frozenset([r + s]) for r in meld[0][0] for s in "CDHS" if r + s in free]
        return out
    suit = meld[0][1]
    ranks = sorted(_ORDER.index(c[0]) for c in meld)
    below = []
    r = ranks[0] - 1
    while r >= 0 and _ORDER[r] + suit in free:
        below.append(_ORDER[r] + suit)
        r -= 1
    above = []
    r = ranks[-1] + 1
    while r < 13 and _ORDER[r] + suit in free:
        above.append(_ORDER[r] + suit)
        r += 1
    return [frozenset(below[:a] + above[:b]) for a in range(len(below) + 1) for b in range(len(above) + 1)]


def brute_defence(knocker_melds: list[list[str]], defender: list[str], layoffs: bool = True) -> int:
    own = sorted(brute_melds(defender), key=sorted)
    best = sum(value(c) for c in defender)

    def lay(free: list[str]) -> int:
        total = sum(value(c) for c in free)
        if not layoffs:
            return total
        result = total
        options = [extensions(m, set(free)) for m in knocker_melds]

        def choose(i: int, used: frozenset[str]) -> None:
            nonlocal result
            if i == len(options):
                assert all(brute_is_meld(m) for m in knocker_melds)
                result = min(result, total - sum(value(c) for c in used))
                return
            for ext in options[i]:
                if not ext & used:
                    assert brute_is_meld(knocker_melds[i] + sorted(ext))
                    choose(i + 1, used | ext)

        choose(0, frozenset())
        return result

    def pack(i: int, used: frozenset[str]) -> None:
        nonlocal best
        if i == len(own):
            best = min(best, lay([c for c in defender if c not in used]))
            return
        pack(i + 1, used)
        if not (own[i] & used):
            pack(i + 1, used | own[i])

    pack(0, frozenset())
    return best


def check_outcome(o, knocker_melds, knocker_hand, defender, rules=TRAD):
    """The outcome is legal, optimal for the defender and scored by the rules."""
    k_arr, d_arr = o.knocker_arrangement, o.defender_arrangement
    declared = {frozenset(m) for m in knocker_melds}
    assert {frozenset(map(str, m)) for m in k_arr.melds} == declared
    # Each layoff is on the meld its index names in the knocker's final
    # arrangement, and each extended meld is a meld.
    extended = [[str(c) for c in m] for m in k_arr.melds]
    for lay in o.layoffs:
        extended[lay.meld].append(str(lay.card))
    assert all(brute_is_meld(m) for m in extended), (extended, o.layoffs)
    laid = [str(lay.card) for lay in o.layoffs]
    assert len(set(laid)) == len(laid)
    # The defender's own melds are melds of its cards, disjoint, none laid off.
    used: set[str] = set()
    for m in d_arr.melds:
        m = [str(c) for c in m]
        assert brute_is_meld(m) and not used & set(m)
        used |= set(m)
    assert not used & set(laid)
    assert used | set(laid) | {str(c) for c in d_arr.deadwood} == set(defender)
    assert d_arr.points == sum(value(str(c)) for c in d_arr.deadwood)
    # Optimal, as the brute force says.
    gin = k_arr.points == 0
    assert d_arr.points == brute_defence(knocker_melds, defender, layoffs=not gin)
    if gin:
        assert o.layoffs == ()
    # Scored by RULES.md.
    k, d = k_arr.points, d_arr.points
    if gin:
        assert (o.kind, o.winner, o.points) == ("gin", 0, rules.gin_bonus + d)
    elif k < d:
        assert (o.kind, o.winner, o.points) == ("knock", 0, d - k)
    else:
        assert (o.kind, o.winner, o.points) == ("undercut", 1, k - d + rules.undercut_bonus)


# --------------------------------------------------------------------------
# Scripted cases


def test_brute_defence_on_hand_worked_cases():
    # 5-6-7S takes 4S, 8S, then 9S; KC stays: 10.
    assert brute_defence([["5S", "6S", "7S"]], ["4S", "8S", "9S", "KC"]) == 10
    # 9S cannot go on 5-6-7S without 8S.
    assert brute_defence([["5S", "6S", "7S"]], ["4S", "9S", "KC"]) == 19
    assert brute_defence([["9C", "9D", "9S"]], ["9H", "2C"]) == 2
    assert brute_defence([["9C", "9D", "9S"]], ["9H", "2C"], layoffs=False) == 11


def test_chained_layoffs_at_both_ends_of_a_run():
    knocker = "5S 6S 7S JC JD JH AC 2C 3C 2D"  # deadwood 2D = 2
    melds = [["5S", "6S", "7S"], ["JC", "JD", "JH"], ["AC", "2C", "3C"]]
    # 3S 4S below, 8S 9S above: all four go on 5-6-7S.  KH QD TC 9D 8H 7D stay: 54.
    defender = "3S 4S 8S 9S KH QD TC 9D 8H 7D"
    o = knock(knocker, defender, melds, drawn="KS", fillers="QC 4H 5H")
    assert sorted(str(lay.card) for lay in o.layoffs) == ["3S", "4S", "8S", "9S"]
    spades = next(i for i, m in enumerate(o.knocker_arrangement.melds) if str(m[0]) == "5S")
    assert {lay.meld for lay in o.layoffs} == {spades}
    assert (o.kind, o.winner, o.points) == ("knock", 0, 54 - 2)
    check_outcome(o, melds, knocker, defender.split())


def test_the_rules_example_4_8_then_9_spades():
    knocker = "5S 6S 7S JC JD JH AC 2C 3C 2D"
    melds = [["5S", "6S", "7S"], ["JC", "JD", "JH"], ["AC", "2C", "3C"]]
    defender = "4S 8S 9S KH QD TC 9D 8H 7D 6H"
    o = knock(knocker, defender, melds, drawn="KS", fillers="QC 4H 5H")
    assert sorted(str(lay.card) for lay in o.layoffs) == ["4S", "8S", "9S"]
    check_outcome(o, melds, knocker, defender.split())


def test_no_layoff_past_the_ace_or_the_king():
    knocker = "AS 2S 3S JC QC KC 5H 5D 5C 2D"
    melds = [["AS", "2S", "3S"], ["JC", "QC", "KC"], ["5H", "5D", "5C"]]
    # KS cannot go below AS (ace is low), AC cannot go above KC.
    defender = "KS AC 4S 5S TC 9C 7H 8D 9H JD"
    o = knock(knocker, defender, melds, drawn="KD", fillers="QH 4H 6H")
    laid = sorted(str(lay.card) for lay in o.layoffs)
    assert laid == ["4S", "5S", "9C", "TC"]  # 4S then 5S on A-3S; TC then 9C below J-K clubs
    assert "KS" in {str(c) for c in o.defender_arrangement.deadwood}
    assert "AC" in {str(c) for c in o.defender_arrangement.deadwood}
    check_outcome(o, melds, knocker, defender.split())


def test_fourth_card_to_a_set():
    knocker = "9C 9D 9S 2H 3H 4H KC KD KH AS"  # deadwood AS = 1
    melds = [["9C", "9D", "9S"], ["2H", "3H", "4H"], ["KC", "KD", "KH"]]
    defender = "9H KS AC 3D 5S 7C QD JS 6D 8S"  # 9H and KS lay off
    o = knock(knocker, defender, melds, drawn="QH", fillers="TC TD TH")
    assert sorted(str(lay.card) for lay in o.layoffs) == ["9H", "KS"]
    # Left: AC 3D 5S 7C QD JS 6D 8S = 1+3+5+7+10+10+6+8 = 50 (5H is not there for 2-4H).
    assert o.defender_arrangement.points == 50
    check_outcome(o, melds, knocker, defender.split())


def test_nothing_goes_on_a_set_of_four():
    knocker = "9C 9D 9S 9H 2H 3H 4H KC KD AS"  # deadwood KC KD AS = 21? too high: declare differently
    melds = [["9C", "9D", "9S", "9H"], ["2H", "3H", "4H"]]
    knocker = "9C 9D 9S 9H 2H 3H 4H AC AD AS"  # deadwood 3
    defender = "KS QS 5H 8C TC 7D 6S 4S JD QD"  # 5H on 2-4H; nothing fits the four nines
    o = knock(knocker, defender, melds, drawn="KH", fillers="TH JH QH")
    assert [str(lay.card) for lay in o.layoffs] == ["5H"]
    check_outcome(o, melds, knocker, defender.split())


def test_the_defender_breaks_its_own_set_of_four_to_lay_off():
    # Knocker: 4-5-6H, A-3C, JJJ, deadwood 2D.  Defender: four 7s, 8H, A-3S...
    # Keeping 7777 leaves 8H: 8 + KD 10 = 18.  Using 7H on 4-5-6H, then 8H after
    # it, keeps 7C 7D 7S as a set: only KD = 10.
    knocker = "4H 5H 6H AC 2C 3C JC JD JS 2D"
    melds = [["4H", "5H", "6H"], ["AC", "2C", "3C"], ["JC", "JD", "JS"]]
    defender = "7C 7D 7H 7S 8H AS 2S 3S KD 4S"
    o = knock(knocker, defender, melds, drawn="QS", fillers="QC 9C TC")
    assert sorted(str(lay.card) for lay in o.layoffs) == ["7H", "8H"]
    assert {tuple(map(str, m)) for m in o.defender_arrangement.melds} == {
        ("7C", "7D", "7S"),
        ("AS", "2S", "3S", "4S"),
    }
    assert o.defender_arrangement.points == 10
    assert brute_deadwood(defender.split()) == 18  # its best without layoffs
    assert brute_defence(melds, defender.split()) == 10  # the brute force agrees it is optimal
    check_outcome(o, melds, knocker, defender.split())


def test_the_defender_swaps_a_run_for_a_set_to_lay_off():
    # Defender 8H 9H TH (run) with 9C 9D: as dealt, 8-9-TH + 9C 9D = 18 or
    # 999 + 8H TH = 18.  After a knock with 5-6-7H: 999 and 8H laid off: TH = 10.
    knocker = "5H 6H 7H AC 2C 3C JC JD JS 2D"
    melds = [["5H", "6H", "7H"], ["AC", "2C", "3C"], ["JC", "JD", "JS"]]
    defender = "8H 9H TH 9C 9D AS 2S 3S KD 4S"
    o = knock(knocker, defender, melds, drawn="QS", fillers="QC 4C 5C")
    # Either 8H alone (TH stays, 10 + KD) or 8-9-TH all laid off and 9C 9D stay (18 + KD):
    # the first is better.
    assert o.defender_arrangement.points == 20
    assert brute_defence(melds, defender.split()) == 20
    check_outcome(o, melds, knocker, defender.split())


def test_layoff_indices_name_the_knockers_final_melds_whatever_the_declared_order():
    knocker = "5S 6S 7S JC JD JH AC 2C 3C 2D"
    defender = "4S 8S 9S JS KH QD TC 9D 8H 7D"
    for melds in (
        [["5S", "6S", "7S"], ["JC", "JD", "JH"], ["AC", "2C", "3C"]],
        [["JC", "JD", "JH"], ["AC", "2C", "3C"], ["5S", "6S", "7S"]],
        [["AC", "2C", "3C"], ["5S", "6S", "7S"], ["JC", "JD", "JH"]],
    ):
        o = knock(knocker, defender, melds, drawn="KS", fillers="QC 4H 5H")
        by_meld = {str(lay.card): [str(c) for c in o.knocker_arrangement.melds[lay.meld]] for lay in o.layoffs}
        assert by_meld == {
            "4S": ["5S", "6S", "7S"],
            "8S": ["5S", "6S", "7S"],
            "9S": ["5S", "6S", "7S"],
            "JS": ["JC", "JD", "JH"],
        }
        d = o.to_dict()
        for lay in d["layoffs"]:
            assert lay["card"] in by_meld
            assert d["hands"][0]["melds"][lay["meld"]] == by_meld[lay["card"]]


def test_no_layoffs_after_gin():
    knocker = "5S 6S 7S JC JD JH AC 2C 3C 4C"
    melds = [["5S", "6S", "7S"], ["JC", "JD", "JH"], ["AC", "2C", "3C", "4C"]]
    defender = "4S 8S 9S JS 5C KH QD TC 9D 8H"
    o = knock(knocker, defender, melds, drawn="KS", fillers="QC 4H 5H")
    assert o.kind == "gin" and o.layoffs == ()
    assert o.defender_arrangement.points == brute_deadwood(defender.split())
    check_outcome(o, melds, knocker, defender.split())


# --------------------------------------------------------------------------
# Random showdowns against the brute force


@st.composite
def showdowns(draw):
    """A knocker with 2-3 declared melds and low deadwood; a defender whose cards
    are mostly near those melds (same suit, close ranks; same rank)."""
    deck = list(draw(st.permutations(ALL_TEXT)))
    order = "A23456789TJQK"
    melds: list[list[str]] = []
    taken: set[str] = set()
    n_melds = draw(st.integers(2, 3))
    tries = 0
    while len(melds) < n_melds and tries < 60:
        tries += 1
        start = deck[tries % 52]
        if start in taken:
            continue
        if draw(st.booleans()):  # a run from this card upwards
            length = draw(st.integers(3, 5))
            r = order.index(start[0])
            if r + length > 13:
                continue
            meld = [order[r + i] + start[1] for i in range(length)]
        else:  # a set of this rank
            size = draw(st.integers(3, 4))
            meld = [start[0] + s for s in "CDHS"][:4]
            meld = [c for c in meld if c != start] [: size - 1] + [start]
        if taken & set(meld) or sum(map(len, melds)) + len(meld) > 10:
            continue
        melds.append(meld)
        taken |= set(meld)
    if len(melds) < 2:
        melds = [["AC", "2C", "3C"], ["KD", "KH", "KS"]]
        taken = set(sum(melds, []))
    rest = [c for c in deck if c not in taken]
    low = sorted((c for c in rest if c[0] in "A23"), key=value)
    fill = 10 - len(taken)
    dead = low[:fill]
    assume(sum(value(c) for c in dead) <= 10)
    knocker = sum(melds, []) + dead
    rest = [c for c in rest if c not in dead]
    near = [
        c
        for c in rest
        if any(c[0] == m[0][0] or (c[1] == m[0][1] and abs(order.index(c[0]) - order.index(m[0][0])) <= 5) for m in melds)
    ]
    k_near = draw(st.integers(3, min(10, len(near))))
    defender = near[:k_near]
    defender += [c for c in rest if c not in defender][: 10 - len(defender)]
    others = [c for c in rest if c not in defender]
    return knocker, melds, defender, others[:4]


@settings(max_examples=800)
@given(showdowns())
def test_random_showdowns_against_the_brute_force(case):
    knocker, melds, defender, extra = case
    drawn, *fillers = extra
    o = knock(" ".join(knocker), " ".join(defender), melds, drawn=drawn, fillers=" ".join(fillers), rules=STD)
    check_outcome(o, melds, knocker, defender, rules=STD)
