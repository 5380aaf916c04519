"""The match as text: round trips over random matches, what a paste may look like, every refusal with its line."""

from __future__ import annotations

import doctest
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gin.notation
from gin import Card, IllegalPlay, InvalidNotation, Match, NotationError, Rules, SaveError
from gin.cards import card_mask, mask_cards
from gin.melds import all_melds, discard_deadwood_masks, mask_value, solve
from gin.notation import LEVELS, MAX_CHARS, dumps, parse

import test_match
from strategies import seeds

DOCS = Path(__file__).resolve().parents[1] / "docs" / "notation.md"

#: Every profile and option the engine knows, so every line the printer can write is met.
RULES = (
    Rules.profile("traditional"),
    Rules.profile("standard"),
    Rules.profile("custom", gin_bonus=25, undercut_bonus=20, big_gin_bonus=31, target=100),
    Rules.profile("custom", big_gin_bonus=50, target=250, hollywood=True),
    Rules.profile("oklahoma"),
    Rules.profile("oklahoma", spade_double=True, ace_gin=False),
    Rules.profile("straight", big_gin_bonus=25),
    Rules.profile("traditional", hollywood=True),
    Rules.profile("standard", hollywood=True),
)


def knock_melds(hand: int, card: int, limit: int, rng: random.Random) -> list[list[str]] | None:
    """Some legal melds for a knock that sets ``card`` aside: at random, not always the best."""
    rest = hand & ~(1 << card)
    if rng.random() < 0.5:
        return None  # the engine's best arrangement
    melds = list(all_melds(mask_cards(rest)))
    rng.shuffle(melds)
    used, chosen = 0, []
    for meld in melds:
        mask = card_mask(meld)
        if not used & mask:
            used |= mask
            chosen.append([str(c) for c in meld])
    return chosen if mask_value(rest & ~used) <= limit else None


def policy(m: Match, rng: random.Random, knock_rate: float) -> dict:
    """Cheap and random; knocks (with melds of its own choosing) often enough that deals end."""
    d = m.deal
    if d.phase != "discard":
        return test_match.policy(m, rng)  # take or pass, stock or pile, at random
    hand = d.hand_masks[d.to_act]
    if d.rules.big_gin and solve(hand)[0] == 0:
        return {"type": "big_gin"}
    after = discard_deadwood_masks(hand)
    after.pop(d.taken, None)
    best = min(after, key=lambda i: (after[i], i))
    if after[best] <= d.knock_limit and rng.random() < knock_rate:
        action = {"type": "knock", "card": str(Card(best))}
        melds = knock_melds(hand, best, d.knock_limit, rng)
        return action if melds is None else {**action, "melds": melds}
    card = best if rng.random() < 0.85 else rng.choice(sorted(after))
    return {"type": "discard", "card": str(Card(card))}


def play(rules: Rules, seed: str, rng: random.Random, *, actions: int | None, knock_rate: float = 0.9) -> Match:
    m = Match.new(seed=seed, rules=rules)
    while not m.over and (actions is None or len(m.actions) < actions):
        m.apply(policy(m, rng, knock_rate))
    return m


def with_levels(m: Match, form: int, rng: random.Random) -> Match:
    """The levels a save from the page carries, in each form it may take (none at all, too)."""
    if form >= 1:
        m.meta["level"] = rng.choice(LEVELS)
    if form >= 2:
        m.meta["levels"] = [rng.choice(LEVELS) for _ in range(m.deal_number)]
    if form == 3:
        m.meta["next_level"] = rng.choice(LEVELS)
    return m


def same_match(back: Match, m: Match) -> None:
    """The same save, and the same table now (hidden cards included); the results are in the text."""
    assert back.to_save() == m.to_save()
    assert back.deal.to_dict() == m.deal.to_dict()


def pasted(text: str, how: set[str]) -> str:
    """The text as it may come back from a clipboard, a mail or a chat."""
    if "lower" in how:
        text = re.sub(r"\[(\w+) ", lambda t: "[" + t.group(1).lower() + " ", text.lower())
    if "upper" in how:
        text = text.upper()
    if "spaces" in how:
        text = "\n".join("  \t" + line.replace(" ", "   ") + " \u00a0" for line in text.split("\n"))
    if "blank" in how:
        text = text.replace("\n", "\n\n")
    if "crlf" in how:
        text = text.replace("\n", "\r\n")
    if "bom" in how:
        text = "\ufeff" + text
    if "unterminated" in how:
        text = text.rstrip()
    return text


# --------------------------------------------------------------------------
# Round trips


#: What makes a random match: its rules, seed and the player's random choices.
MATCHES = {"rules": st.sampled_from(RULES), "seed": seeds, "rng_seed": st.integers(0, 2**32)}


@settings(max_examples=1000)
@given(
    **MATCHES,
    actions=st.integers(0, 70),
    knock_rate=st.sampled_from((0.0, 0.5, 0.95)),
    form=st.integers(0, 3),
)
def test_a_short_match_prints_and_parses_back_exactly(rules, seed, rng_seed, actions, knock_rate, form):
    """The first moves of a match (cut anywhere, a turn cut after its draw too)."""
    rng = random.Random(rng_seed)
    m = with_levels(play(rules, seed, rng, actions=actions, knock_rate=knock_rate), form, rng)
    text = dumps(m)
    back = parse(text)
    same_match(back, m)
    assert dumps(back) == text


@settings(max_examples=30)
@given(**MATCHES, form=st.integers(0, 3))
def test_a_whole_match_prints_and_parses_back_exactly(rules, seed, rng_seed, form):
    rng = random.Random(rng_seed)
    m = with_levels(play(rules, seed, rng, actions=None, knock_rate=0.95), form, rng)
    text = dumps(m)
    back = parse(text)
    assert back.over
    same_match(back, m)
    assert dumps(back) == text
    assert len(text) < MAX_CHARS / 4


@settings(max_examples=150)
@given(
    **MATCHES,
    actions=st.integers(0, 120),
    how=st.sets(st.sampled_from(("lower", "upper", "spaces", "blank", "crlf", "bom", "unterminated"))),
)
def test_what_a_paste_may_do_to_the_text_changes_nothing(rules, seed, rng_seed, actions, how):
    m = play(rules, seed, random.Random(rng_seed), actions=actions)
    m.meta["level"] = "hard"
    text = dumps(m)
    back = parse(pasted(text, how))
    same_match(back, m)
    assert dumps(back) == text


def test_every_kind_of_line_is_met_by_the_round_trips():
    """The random matches above reach every line the printer writes but a big gin (a test that saw none would
    prove little); the big gin is the next test's."""
    kinds: set[str] = set()
    for n in range(30):
        rng = random.Random(n)
        text = dumps(play(RULES[n % len(RULES)], f"KINDS-{n}", rng, actions=None, knock_rate=0.95))
        for line in text.splitlines():
            for kind in (" knocks, ", " undercuts, ", " gin, ", "= void", "layoffs", "x2", "games ",
                         "== 0 wins", "== 1 wins", "game 3:", "shutout", " t", " p", "knock "):
                if kind in line:
                    kinds.add(kind)
    assert len(kinds) == 14, kinds


def test_a_big_gin_prints_and_parses_back():
    m = play(Rules.profile("custom", big_gin_bonus=31, target=100), "BIG-2", random.Random(2), actions=60, knock_rate=0)
    assert m.results[0].outcome.kind == "big_gin"
    text = dumps(m)
    assert re.search(r"\n *\d+\. .*big_gin \[", text) and "big gin, " in text
    same_match(parse(text), m)
    assert dumps(parse(text)) == text


def test_the_cards_may_be_written_as_rules_md_allows():
    m = play(RULES[0], "SPELLINGS", random.Random(1), actions=40)
    text = dumps(m)
    suits = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
    body = text.split("\n\n", 1)[1]
    spelled = re.sub(r"\b([AT2-9JQK])([CDHS])\b", lambda c: ("10" if c.group(1) == "T" else c.group(1)) + suits[c.group(2)], body)
    assert spelled != body
    same_match(parse(text.split("\n\n", 1)[0] + "\n\n" + spelled), m)


def test_the_header_names_the_rules_seed_shuffle_and_levels():
    m = Match.new(seed=" dia-2026-12-03 ", rules=Rules.profile("custom", gin_bonus=25, big_gin_bonus=None, target=250))
    m.meta.update(level="hard", levels=["hard"], next_level="easy")
    head = dumps(m).split("\n\n")[0].splitlines()
    assert head == [
        '[Format "gin-text"]',
        '[Version "1"]',
        '[Shuffle "gin-shuffle-v1"]',
        '[Seed "DIA-2026-12-03"]',
        '[Rules "custom gin_bonus=25 undercut_bonus=10 big_gin_bonus=none target=250"]',
        '[Level "hard"]',
        '[NextLevel "easy"]',
    ]
    assert dumps(Match.new(seed="X", rules=Rules.profile("oklahoma", spade_double=True))).splitlines()[4] == (
        '[Rules "oklahoma spade_double=true"]'
    )


@pytest.mark.parametrize("seed", ['A"B', "A\\B", 'Q\\"', "Ñ-ÁRBOL", "[X]"])
def test_any_seed_the_engine_takes_survives_the_quotes(seed):
    m = Match.new(seed=seed)
    back = parse(dumps(m))
    assert back.seed == m.seed and dumps(back) == dumps(m)


def test_meta_beyond_the_levels_is_not_part_of_the_text():
    m = Match.new(seed="META")
    m.meta.update(level="easy", other={"a": 1})
    assert parse(dumps(m)).meta == {"level": "easy"}


def test_a_match_with_levels_that_do_not_fit_is_not_printed():
    m = Match.new(seed="LEVELS")
    for meta in ({"level": "expert"}, {"levels": ["hard", "hard"]}, {"levels": "hard"}, {"next_level": 3}):
        m.meta = meta
        with pytest.raises(SaveError) as e:
            dumps(m)
        assert e.value.reason == "bad_levels"


def test_the_match_methods_are_the_module():
    m = play(RULES[1], "METHODS", random.Random(2), actions=70)
    assert m.to_text() == dumps(m)
    same_match(Match.from_text(m.to_text()), m)


def test_the_module_doctests():
    assert doctest.testmod(gin.notation).failed == 0


# --------------------------------------------------------------------------
# The example in docs/notation.md


def doc_example() -> str:
    blocks = re.findall(r"```text\n(.*?)```", DOCS.read_text(encoding="utf-8"), flags=re.S)
    assert blocks, "docs/notation.md has no ```text block"
    return blocks[0]


def test_the_example_in_the_docs_parses_and_prints_back_identically():
    text = doc_example()
    m = parse(text)
    assert m.over and dumps(m) == text


def test_the_example_in_the_docs_rebuilds_from_its_save():
    """Its save (seed, rules, moves, levels) alone gives the same text: nothing in it is hand-written."""
    m = parse(doc_example())
    rebuilt = Match.from_save(m.to_save())
    assert dumps(rebuilt) == doc_example()
    assert m.meta["level"] in LEVELS and len(m.results) >= 2


# --------------------------------------------------------------------------
# Refusals: each quotes its line and number, and returns nothing


@pytest.fixture(scope="module")
def finished() -> str:
    m = play(RULES[0], "REFUSED", random.Random(7), actions=None)
    m.meta.update(level="normal", levels=["normal"] * m.deal_number)
    assert len(m.results) >= 3
    return dumps(m)


def line_of(text: str, pattern: str, nth: int = 0) -> tuple[int, str]:
    found = [(n, line) for n, line in enumerate(text.split("\n"), 1) if re.search(pattern, line)]
    return found[nth]


def replace_line(text: str, n: int, new: str) -> str:
    lines = text.split("\n")
    lines[n - 1] = new
    return "\n".join(lines)


def refused(text, kind: type[NotationError], code: str, line: int | None) -> NotationError:
    with pytest.raises(kind) as e:
        parse(text)
    err = e.value
    assert err.code == code, str(err)
    assert err.line == line, str(err)
    if line is not None:
        assert str(err).startswith(f"line {line}: ")
        assert err.text and err.text in str(err) or len(err.text) > 50
        assert err.details() == {"kind": err.kind, "line": line, "text": err.text}
    return err


def test_the_finished_text_is_good(finished):
    assert parse(finished).over


@pytest.mark.parametrize(
    "value, code",
    [(None, "bad_syntax"), (b"[Format]", "bad_syntax"), (["x"], "bad_syntax"), ("", "bad_format"), ("  \n\n", "bad_format")],
)
def test_no_text_is_refused(value, code):
    refused(value, InvalidNotation, code, None)


def test_a_text_over_the_cap_is_refused_before_it_is_read(finished):
    big = finished + "\n" * (MAX_CHARS - len(finished) + 1)
    err = refused(big, InvalidNotation, "too_long", None)
    assert str(MAX_CHARS) in str(err)
    assert parse(finished + "\n" * (MAX_CHARS - len(finished))).over  # at the cap: read


@pytest.mark.parametrize(
    "pattern, new, code",
    [
        (r"^\[Format", '[Format "gin-save"]', "bad_format"),
        (r"^\[Version", '[Version "2"]', "wrong_version"),
        (r"^\[Version", '[Version "01x"]', "wrong_version"),
        (r"^\[Shuffle", '[Shuffle "gin-shuffle-v2"]', "wrong_shuffle"),
        (r"^\[Seed", '[Seed ""]', "bad_seed"),
        (r"^\[Seed", '[Seed "' + "X" * 65 + '"]', "bad_seed"),
        (r"^\[Rules", '[Rules "custom gin_bonus=30 undercut_bonus=10 big_gin_bonus=none target=100"]', "bad_rules"),
        (r"^\[Rules", '[Rules "traditional target=250"]', "bad_rules"),
        (r"^\[Rules", '[Rules "house"]', "bad_rules"),
        (r"^\[Rules", '[Rules ""]', "bad_rules"),
        (r"^\[Rules", '[Rules "custom target"]', "bad_rules"),
        (r"^\[Rules", '[Rules "custom target=1e3"]', "bad_rules"),
        (r"^\[Level", '[Level "expert"]', "bad_level"),
        (r"^\[Level", '[Event "Casino"]', "bad_syntax"),
        (r"^\[Level", '[Level hard]', "bad_syntax"),
        (r"^\[Level", '[Seed "OTHER"]', "bad_syntax"),
    ],
)
def test_a_bad_header_is_refused_at_its_line(finished, pattern, new, code):
    n, _ = line_of(finished, pattern)
    refused(replace_line(finished, n, new), InvalidNotation, code, n)


def test_a_text_from_another_shuffle_is_refused_not_replayed_into_other_cards(finished):
    n, _ = line_of(finished, r"^\[Shuffle")
    err = refused(replace_line(finished, n, '[Shuffle "gin-shuffle-v2"]'), InvalidNotation, "wrong_shuffle", n)
    assert "gin-shuffle-v2" in str(err) and "gin-shuffle-v1" in str(err)


@pytest.mark.parametrize("tag", ["Format", "Version", "Shuffle", "Seed", "Rules"])
def test_a_header_without_a_required_tag_is_refused(finished, tag):
    n, _ = line_of(finished, rf"^\[{tag} ")
    code = "bad_format" if tag == "Format" else "bad_syntax"
    refused(replace_line(finished, n, ""), InvalidNotation, code, None)


def test_a_text_that_does_not_start_with_the_header_is_refused(finished):
    body = finished.split("\n\n", 1)[1]
    refused(body, InvalidNotation, "bad_format", None)
    refused("Hello\n" + finished, InvalidNotation, "bad_format", None)


@pytest.mark.parametrize(
    "pattern, new, kind, code",
    [
        # a heading, hands and results that are not what the engine deals and scores
        (r"^Deal 1:", "Deal 1: dealer 9, upcard 7H, level normal", IllegalPlay, "mismatch"),
        (r"^Deal 2:", "Deal 3: dealer 0, upcard 7H, level normal", IllegalPlay, "mismatch"),
        (r"^Deal 2:", "Round 2", InvalidNotation, "bad_syntax"),
        (r"^Deal 1:", "Deal 1: dealer 0, upcard 7H, level expert", InvalidNotation, "bad_level"),
        (r"^hand 0:", "hand 0: AC 2C 3C 4C 5C 6C 7C 8C 9C TC", IllegalPlay, "mismatch"),
        (r"^hand 1:", "hand 0: AC 2C 3C 4C 5C 6C 7C 8C 9C TC", InvalidNotation, "bad_syntax"),
        (r"^= ", "= void; score 0-0", IllegalPlay, "mismatch"),
        (r"^= ", " 9. pass pass", InvalidNotation, "bad_syntax"),
        (r"^== ", "== draw 0-0; 0 game +100", IllegalPlay, "mismatch"),
        (r"^== ", "= void; score 0-0", InvalidNotation, "bad_syntax"),
        # rounds
        (r"^ 2\. ", " 3. pass pass", InvalidNotation, "bad_syntax"),
        (r"^ 2\. ", "2 s4S 9C", InvalidNotation, "bad_syntax"),
        (r"^ 2\. ", " 2.", InvalidNotation, "bad_syntax"),
        (r"^ 2\. ", " 2. x4S 9C", InvalidNotation, "bad_syntax"),
        (r"^ 2\. ", " 2. take 9C", InvalidNotation, "bad_card"),
        (r"^ 2\. ", " 2. s1Z 9C", InvalidNotation, "bad_card"),
        (r"^ 2\. ", " 2. s4S 9Z", InvalidNotation, "bad_syntax"),
        (r"^ 2\. ", " 2. s4S pass", InvalidNotation, "bad_syntax"),
        (r"^ 2\. ", " 2. sKS KS  sKS KS  sKS KS", InvalidNotation, "bad_syntax"),
        (r"^ 2\. ", " 2. s4S knock", InvalidNotation, "bad_syntax"),
        (r"^ 2\. ", " 2. s4S knock 9C [AC 2C", InvalidNotation, "bad_syntax"),
        (r"^ 2\. ", " 2. s4S knock 9C [AC [2C]]", InvalidNotation, "bad_syntax"),
        (r"^ 2\. ", " 2. s4S knock 9C [AC 2X 3C]", InvalidNotation, "bad_card"),
    ],
)
def test_a_bad_body_line_is_refused_at_its_line(finished, pattern, new, kind, code):
    n, _ = line_of(finished, pattern)
    refused(replace_line(finished, n, new), kind, code, n)


def test_a_card_drawn_that_is_not_the_one_on_the_table_is_refused(finished):
    n, line = line_of(finished, r"^ *\d+\. .*\bs[2-9TJQKA][CDHS]\b")
    drawn = re.search(r"\bs([2-9TJQKA][CDHS])\b", line).group(1)
    other = "AC" if drawn != "AC" else "2C"
    err = refused(replace_line(finished, n, line.replace("s" + drawn, "s" + other, 1)), IllegalPlay, "mismatch", n)
    assert f"the top of the stock is {drawn}, not {other}" in str(err)
    n, line = line_of(finished, r"^ *\d+\. .*\bp[2-9TJQKA][CDHS]\b")
    taken = re.search(r"\bp([2-9TJQKA][CDHS])\b", line).group(1)
    other = "AC" if taken != "AC" else "2C"
    err = refused(replace_line(finished, n, line.replace("p" + taken, "p" + other, 1)), IllegalPlay, "mismatch", n)
    assert f"the top of the discard pile is {taken}, not {other}" in str(err)


def first_deal(seed: str, rules: Rules | None = None) -> tuple[Match, str]:
    m = Match.new(seed=seed, rules=rules)
    return m, dumps(m)


def test_illegal_play_is_refused_with_the_engines_code():
    m, text = first_deal("ILLEGAL")
    d = m.deal
    nd, dealer = d.nondealer, d.dealer
    upcard, top = str(d.upcard), str(d.stock[0])
    hand = [str(c) for c in d.hands[nd]]
    not_held = next(str(c) for c in d.hands[dealer])
    n = len(text.rstrip("\n").split("\n")) + 1
    cases = [
        (f" 1. t{upcard} {upcard}", "cannot_discard_taken_upcard"),
        (f" 1. t{upcard} {not_held}", "card_not_in_hand"),
        (f" 1. s{top} {hand[0]}", "must_take_or_pass"),
        (f" 1. pass    pass\n 2. p{upcard} {hand[0]}", "must_draw_from_stock"),
        (f" 1. t{upcard} knock {hand[0]}", "deadwood_too_high"),
        (f" 1. t{upcard} knock {hand[0]} [{hand[1]} {hand[2]} {hand[3]}]", "invalid_melds"),
        (f" 1. t{upcard} big_gin", "big_gin_not_allowed"),
    ]
    for rounds, code in cases:
        where = n + rounds.count("\n")
        refused(text + rounds + "\n", IllegalPlay, code, where)


def test_text_after_the_end_of_a_deal_on_its_line_or_after_the_match_is_refused(finished):
    n, line = line_of(finished, r"^ *\d+\. [tsp]\w+ knock ")  # the non-dealer knocks: the round's first turn
    refused(replace_line(finished, n, line + "  pass"), IllegalPlay, "game_over", n)
    lines = finished.rstrip("\n").split("\n")
    refused(finished + " 1. pass pass\n", IllegalPlay, "game_over", len(lines) + 1)


def test_a_result_where_the_deal_goes_on_is_refused(finished):
    n, _ = line_of(finished, r"^ 3\. ")
    refused(replace_line(finished, n, "= void; score 0-0"), IllegalPlay, "mismatch", n)
    refused(replace_line(finished, n, "Deal 2: dealer 0, upcard 7H"), IllegalPlay, "mismatch", n)


def test_a_round_of_one_turn_must_end_the_text_or_its_deal(finished):
    n, line = line_of(finished, r"^ 2\. ")
    first_turn = " ".join(line.split()[:3])
    refused(replace_line(finished, n, first_turn), InvalidNotation, "bad_syntax", n)
    # ... as at the end of a text, where it is a match cut after that turn
    head = "\n".join(finished.split("\n")[: n - 1] + [first_turn]) + "\n"
    assert parse(head).deal.to_act == parse(head).deal.dealer


def test_a_turn_cut_after_its_draw_must_end_the_text(finished):
    n, line = line_of(finished, r"^ 2\. ")
    drawn = " ".join(line.split()[:2])
    refused(replace_line(finished, n, drawn), InvalidNotation, "bad_syntax", n)
    m = parse("\n".join(finished.split("\n")[: n - 1] + [drawn]))
    assert m.deal.phase == "discard"


@pytest.mark.parametrize("where, missing", [(r"^hand 0", "hands"), (r"^= ", "result"), (r"^== ", "match")])
def test_a_text_that_stops_before_what_the_match_needs_is_refused(finished, where, missing):
    n, _ = line_of(finished, where)
    err = refused("\n".join(finished.split("\n")[: n - 1]), InvalidNotation, "incomplete", None)
    assert missing in str(err)


def test_the_levels_of_deals_are_all_named_or_none(finished):
    n, line = line_of(finished, r"^Deal 2:")
    refused(replace_line(finished, n, line.replace(", level normal", "")), InvalidNotation, "bad_syntax", n)
    stripped = re.sub(r", level normal", "", finished)
    assert "levels" not in parse(stripped).meta
    n, line = line_of(stripped, r"^Deal 2:")
    refused(replace_line(stripped, n, line + ", level hard"), InvalidNotation, "bad_syntax", n)


def test_a_refusal_quotes_a_long_line_shortly(finished):
    n, _ = line_of(finished, r"^hand 0")
    err = refused(replace_line(finished, n, "hand 0: " + "AC " * 5000), IllegalPlay, "mismatch", n)
    assert len(str(err)) < 400 and len(err.text) <= 200

