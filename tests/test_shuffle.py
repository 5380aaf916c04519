"""The seeded deal: determinism, seed normalisation, and a pinned first deal (gin-shuffle-v1)."""

from __future__ import annotations

import datetime
import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings

import gin
from gin import Match, Rules
from gin.shuffle import ALGORITHM, deal_cards, first_dealer, normalize_seed, shuffled_deck

from strategies import ALL_TEXT, seeds

# --------------------------------------------------------------------------
# gin-shuffle-v1 re-implemented from the docstring of gin/shuffle.py alone.


def words(key: bytes):
    counter = 0
    while True:
        digest = hashlib.sha256(key + counter.to_bytes(4, "big")).digest()
        for k in range(8):
            yield int.from_bytes(digest[4 * k : 4 * k + 4], "big")
        counter += 1


def reference_deck(seed: str, number: int) -> list[str]:
    seed = seed.strip().upper()
    stream = words(f"gin-shuffle-v1|{seed}|{number}".encode("utf-8"))
    deck = list(ALL_TEXT)  # 0..51 = suit * 13 + rank - 1, as text
    for i in range(51, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        w = next(stream)
        while w >= limit:
            w = next(stream)
        j = w % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def reference_dealer(seed: str) -> int:
    return hashlib.sha256(f"gin-dealer-v1|{seed.strip().upper()}".encode()).digest()[0] % 2


# --------------------------------------------------------------------------
# Pinned: the first two deals of seed K7Q2-M9XD, written out once from the
# re-implementation above.  If one of these changes, every saved match and
# every shared seed changes: that needs a new algorithm name, not an edit.

PINNED = {
    1: {
        "nondealer": "9H 5H TD 7D 7H AH TS JS KD KS",
        "dealer": "6H 8D 2D AS TH 8C QC 5C AD 9S",
        "upcard": "KC",
        "stock": "4H 8S 6D 5S 3H 8H 2H 2S 6C 9D 4C 3C JD 6S QS 4S JH KH 7C 5D TC 9C QH 3S AC "
        "3D 7S JC QD 2C 4D",
    },
    2: {
        "nondealer": "QD KS 9C 8C 9S AS 3C KC 2C KH",
        "dealer": "6D QC 5H 3H 7C 4C 7S 9H TH 5C",
        "upcard": "JD",
        "stock": "6C 7D AH 3S TC 6S TD 7H 4S TS 5D JH JS 9D 4H 8D KD 6H 4D 2S JC 2D 5S AC 2H "
        "8S QS QH 3D 8H AD",
    },
}


def dealt_text(seed: str, number: int) -> dict[str, str]:
    nondealer, dealer, upcard, stock = deal_cards(seed, number)
    name = lambda ixs: " ".join(ALL_TEXT[i] for i in ixs)  # noqa: E731
    return {"nondealer": name(nondealer), "dealer": name(dealer), "upcard": ALL_TEXT[upcard], "stock": name(stock)}


@pytest.mark.parametrize("number", [1, 2])
def test_pinned_deals(number):
    assert ALGORITHM == "gin-shuffle-v1"
    assert dealt_text("K7Q2-M9XD", number) == PINNED[number]


def test_pinned_deals_follow_the_documented_algorithm():
    for number, pinned in PINNED.items():
        deck = reference_deck("K7Q2-M9XD", number)
        assert " ".join(deck[0:20:2]) == pinned["nondealer"]
        assert " ".join(deck[1:20:2]) == pinned["dealer"]
        assert deck[20] == pinned["upcard"]
        assert " ".join(deck[21:]) == pinned["stock"]


def test_pinned_first_deal_of_a_match():
    # The lot: sha256("gin-dealer-v1|K7Q2-M9XD")[0] is odd -> seat 1 deals.
    assert first_dealer("K7Q2-M9XD") == 1 == reference_dealer("K7Q2-M9XD")
    m = Match.new(seed="k7q2-m9xd", rules=Rules.profile("traditional"))
    deal = m.deal
    assert deal.dealer == 1 and deal.to_act == 0 and deal.phase == "upcard_nondealer"
    assert set(map(str, deal.hands[0])) == set(PINNED[1]["nondealer"].split())
    assert set(map(str, deal.hands[1])) == set(PINNED[1]["dealer"].split())
    assert str(deal.upcard) == "KC"
    assert [str(c) for c in deal.discard_pile] == ["KC"]
    assert " ".join(map(str, deal.stock)) == PINNED[1]["stock"]


@settings(max_examples=150)
@given(seeds)
def test_engine_matches_the_reference_for_any_seed(seed):
    for number in (1, 2, 7):
        assert [ALL_TEXT[i] for i in shuffled_deck(seed, number)] == reference_deck(seed, number)
    assert first_dealer(seed) == reference_dealer(seed)


def test_same_seed_same_deals_and_every_deck_is_a_permutation():
    for seed in ("A", "K7Q2-M9XD", "zz-99"):
        for number in range(1, 6):
            deck = shuffled_deck(seed, number)
            assert sorted(deck) == list(range(52))
            assert deck == shuffled_deck(seed, number)


@pytest.mark.parametrize("variant", ["k7q2-m9xd", " K7Q2-M9XD ", "K7q2-m9Xd\t", "\nk7Q2-M9xD"])
def test_seeds_are_case_insensitive_and_trimmed(variant):
    assert normalize_seed(variant) == "K7Q2-M9XD"
    assert shuffled_deck(variant, 3) == shuffled_deck("K7Q2-M9XD", 3)
    assert first_dealer(variant) == first_dealer("K7Q2-M9XD")
    assert Match.new(seed=variant).deal.to_dict() == Match.new(seed="K7Q2-M9XD").deal.to_dict()
    assert Match.new(seed=variant).seed == "K7Q2-M9XD"


def test_different_deal_numbers_and_seeds_differ():
    for seed in ("A", "B", "K7Q2-M9XD"):
        decks = [tuple(shuffled_deck(seed, n)) for n in range(1, 21)]
        assert len(set(decks)) == 20
    firsts = {tuple(shuffled_deck(s, 1)) for s in ("A", "B", "C", "AB", "BA", "A-B")}
    assert len(firsts) == 6


def test_first_dealer_by_lot_is_both_seats():
    # Over many seeds, both seats are drawn, roughly half each.
    lots = [first_dealer(f"S{n}") for n in range(400)]
    assert 150 < sum(lots) < 250
    for n in range(50):
        assert Match.new(seed=f"S{n}").deal.dealer == lots[n]


@pytest.mark.parametrize("seed", ["", "   ", None, True, 1.5, ["A"], {"s": 1}, "x" * 65, "A\x00B"])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(ValueError):
        normalize_seed(seed)
    with pytest.raises(ValueError):
        Match.new(seed=seed)


def test_an_int_seed_is_its_digits():
    assert normalize_seed(1234) == "1234"
    assert shuffled_deck(1234, 1) == shuffled_deck("1234", 1)


def test_a_deal_does_not_depend_on_play():
    """Deal n's cards are a function of (seed, n) only, whatever was played before."""
    rules = Rules.profile("traditional")
    firsts = []
    for style in ("knock_fast", "play_long"):
        m = Match.new(seed="PURE-1", rules=rules)
        while m.deal_number == 1:
            legal = m.legal_actions()
            knocks = [a for a in legal if a["type"] == "knock"]
            if style == "knock_fast" and knocks:
                m.apply(knocks[0])
            else:
                m.apply(next(a for a in legal if a["type"] != "knock"))
        deal = m.deal
        nondealer = set(map(str, deal.hands[deal.nondealer]))
        dealer = set(map(str, deal.hands[deal.dealer]))
        firsts.append((nondealer, dealer, str(deal.upcard), [str(c) for c in deal.stock]))
        deck = reference_deck("PURE-1", 2)
        assert nondealer == set(deck[0:20:2]) and dealer == set(deck[1:20:2])
    assert firsts[0] == firsts[1]
    assert gin.Match.new(seed="PURE-1").deal_number == 1


# --------------------------------------------------------------------------
# The day's match (issue 31): its seed is the local date, e.g. DIA-2026-12-03.


def days_seeds() -> list[str]:
    start = datetime.date(2026, 1, 1)
    return [f"DIA-{start + datetime.timedelta(days=n):%Y-%m-%d}" for n in range(366)] + ["DIA-2099-12-31"]


def test_the_days_seed_is_a_seed_and_each_day_deals_other_cards():
    seeds = days_seeds()
    assert normalize_seed(" dia-2026-12-03 ") == "DIA-2026-12-03"
    assert all(normalize_seed(s.lower()) == s for s in seeds)
    firsts = {tuple(shuffled_deck(s, 1)) for s in seeds}
    assert len(firsts) == len(seeds)
    m = Match.new(seed="dia-2026-12-03")
    assert m.seed == "DIA-2026-12-03" and m.deal.hands == Match.new(seed="DIA-2026-12-03").deal.hands


def test_the_days_seed_is_a_seed_for_the_page_too():
    """web/seed.js's normalizeSeed (what a link or the menu's seed goes through) keeps it as gin does."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed to run web/seed.js")
    web = Path(__file__).resolve().parents[1] / "web"
    seed_js = next(p for p in sorted(web.rglob("seed.js")) if "node_modules" not in p.parts)
    seeds = days_seeds()
    script = (
        f"import {{ normalizeSeed, seedFromHash }} from {json.dumps(seed_js.as_uri())};\n"
        f"const seeds = {json.dumps(seeds)};\n"
        "console.log(JSON.stringify([seeds.map((s) => normalizeSeed(s.toLowerCase())),"
        " seeds.map((s) => seedFromHash(`#seed=${s}`))]));"
    )
    out = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    normalized, linked = json.loads(out.stdout)
    assert normalized == linked == [normalize_seed(s) for s in seeds] == seeds
