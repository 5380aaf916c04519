"""Saves: round trip at every step, and tampered, truncated and wrong-version saves refused with a reason."""

from __future__ import annotations

import copy
import json
import random

import pytest

from gin import Match, Rules, SaveError
from gin.match import SAVE_FORMAT, SAVE_VERSION

from test_match import LONG, PROFILES, policy


def full_state(m: Match) -> str:
    """Everything about a match, hidden cards included."""
    return json.dumps(
        {
            "deal": m.deal.to_dict(),
            "deal_number": m.deal_number,
            "results": [r.to_dict() for r in m.results],
            "final": None if m.final is None else m.final.to_dict(),
            "save": m.to_save(),
            "over": m.over,
            "scores": m.scores,
            "legal": m.legal_actions(),
        },
        sort_keys=True,
    )


def played(seed: str, rules: Rules, n_actions: int | None = None, rng_seed: int = 0) -> Match:
    m = Match.new(seed=seed, rules=rules)
    rng = random.Random(rng_seed)
    while not m.over and (n_actions is None or len(m.actions) < n_actions):
        m.apply(policy(m, rng))
    return m


@pytest.mark.parametrize("index", range(4))
def test_round_trip_at_every_step(index):
    rules = (PROFILES + [LONG])[index]
    m = Match.new(seed=f"SAVE-{index}", rules=rules)
    m.meta["level"] = "hard"
    rng = random.Random(index)
    steps = 0
    while True:
        save = m.to_save()
        text = json.dumps(save)
        assert set(save) >= {"format", "version", "seed", "rules", "actions"}
        assert save["format"] == SAVE_FORMAT and save["version"] == SAVE_VERSION
        assert len(save["actions"]) == steps
        back = Match.from_save(json.loads(text))
        assert full_state(back) == full_state(m)
        assert back.meta == {"level": "hard"}
        if m.over or steps >= 400:
            break
        m.apply(policy(m, rng))
        steps += 1
    assert steps > 100


def test_round_trip_of_whole_matches():
    for n in range(30):
        m = played(f"WHOLE-{n}", PROFILES[n % len(PROFILES)], rng_seed=n)
        assert m.over
        back = Match.from_save(json.loads(json.dumps(m.to_save())))
        assert full_state(back) == full_state(m)
        assert back.final == m.final


def test_a_loaded_match_plays_on_like_the_original():
    a = played("ON-1", Rules.profile("standard"), 40, rng_seed=3)
    b = Match.from_save(a.to_save())
    rng_a, rng_b = random.Random(9), random.Random(9)
    for _ in range(60):
        if a.over:
            break
        a.apply(policy(a, rng_a))
        b.apply(policy(b, rng_b))
    assert full_state(a) == full_state(b)


def test_saves_are_canonical():
    """Actions are saved as the engine would write them: no seat, canonical cards, melds written out."""
    m = Match.new(seed="CANON", rules="traditional")
    m.apply({"type": "pass", "seat": m.to_act, "note": "x"})
    assert m.to_save()["actions"] == [{"type": "pass"}]
    assert all("seat" not in a for a in m.to_save()["actions"])
    m2 = played("CANON-2", Rules.profile("traditional"), rng_seed=2)
    for a in m2.to_save()["actions"]:
        assert set(a) <= {"type", "from", "card", "melds"}
        if a["type"] in ("knock", "big_gin"):
            assert isinstance(a["melds"], list)
        if "card" in a:
            assert a["card"] == a["card"].upper() and len(a["card"]) == 2


def test_lowercase_and_ten_notation_are_saved_canonically():
    m = Match.new(seed="CANON", rules="traditional")
    m.apply({"type": "take"})
    hand = [str(c) for c in m.deal.hands[m.deal.to_act]]
    taken = m.deal.to_dict()["taken"]
    card = next(c for c in hand if c != taken)
    spelled = ("10" + card[1] if card[0] == "T" else card).lower()
    m.apply({"type": "discard", "card": spelled})
    assert m.to_save()["actions"][-1] == {"type": "discard", "card": card}
    assert full_state(Match.from_save(m.to_save())) == full_state(m)


# --------------------------------------------------------------------------
# Refused saves


def refused(save, reason: str) -> SaveError:
    with pytest.raises(SaveError) as info:
        Match.from_save(save)
    assert info.value.code == "bad_save"
    assert info.value.reason == reason, str(info.value)
    assert str(info.value)  # a message that says why
    return info.value


@pytest.fixture(scope="module")
def good_save():
    return played("TAMPER-1", Rules.profile("standard"), 80, rng_seed=4).to_save()


def test_the_good_save_loads(good_save):
    assert len(Match.from_save(copy.deepcopy(good_save)).actions) == 80


@pytest.mark.parametrize("index", [0, 1, 5, 40, 79])
def test_an_action_changed_to_an_illegal_one_is_refused(good_save, index):
    save = copy.deepcopy(good_save)
    phase_fail = {"type": "draw", "from": "stock"} if save["actions"][index]["type"] in ("take", "pass") else None
    replacement = phase_fail or {"type": "take"}
    save["actions"][index] = replacement
    err = refused(save, "does_not_replay")
    assert f"action {index}" in str(err)


def test_a_discard_of_a_card_not_held_is_refused(good_save):
    save = copy.deepcopy(good_save)
    n = next(i for i, a in enumerate(save["actions"]) if a["type"] == "discard")
    held = Match.from_save({**save, "actions": save["actions"][:n]}).deal
    hand = {str(c) for c in held.hands[held.to_act]}
    other = next(str(c) for c in held.hands[1 - held.to_act] if str(c) not in hand)
    save["actions"][n] = {"type": "discard", "card": other}
    err = refused(save, "does_not_replay")
    assert "card_not_in_hand" in str(err)


def test_an_action_after_the_end_is_refused():
    m = played("END-1", Rules.profile("traditional"), rng_seed=1)
    save = m.to_save()
    save["actions"].append({"type": "pass"})
    assert "game_over" in str(refused(save, "does_not_replay"))


@pytest.mark.parametrize(
    "actions",
    [None, "take", {"0": {"type": "take"}}, [None], [["take"]], ["take"], [{"type": "take", "seat": 0}]],
)
def test_bad_action_lists_are_refused(actions):
    save = Match.new(seed="X", rules="traditional").to_save()
    save["actions"] = actions
    refused(save, "bad_actions")


@pytest.mark.parametrize(
    "rules",
    [
        None,
        "standard",
        {},
        {"profile": "canasta"},
        {**Rules.profile("standard").to_dict(), "gin_bonus": 20},
        {**Rules.profile("traditional").to_dict(), "knock_limit": 15},
        {**Rules.profile("custom").to_dict(), "target": 200},
    ],
)
def test_changed_rules_are_refused(good_save, rules):
    save = copy.deepcopy(good_save)
    save["rules"] = rules
    refused(save, "bad_rules")


@pytest.mark.parametrize("seed", [None, True, 1.5, ["TAMPER-1"], {"s": 1}, "", "x" * 100])
def test_a_seed_of_another_type_is_refused(good_save, seed):
    save = copy.deepcopy(good_save)
    save["seed"] = seed
    refused(save, "bad_seed")


def test_another_seed_does_not_replay(good_save):
    save = copy.deepcopy(good_save)
    save["seed"] = "TAMPER-2"
    refused(save, "does_not_replay")


@pytest.mark.parametrize("version", [0, 2, "1", 1.0, True, None, [1]])
def test_wrong_versions_are_refused(good_save, version):
    save = copy.deepcopy(good_save)
    save["version"] = version
    err = refused(save, "wrong_version")
    assert repr(version) in str(err)


def test_an_unknown_shuffle_is_refused(good_save):
    save = {**copy.deepcopy(good_save), "shuffle": "gin-shuffle-v2"}
    refused(save, "wrong_version")


@pytest.mark.parametrize("fmt", [None, "gin", "chess-save", 1])
def test_wrong_format_is_refused(good_save, fmt):
    save = {**copy.deepcopy(good_save), "format": fmt}
    refused(save, "bad_format")


@pytest.mark.parametrize(
    "key, reason",
    [("format", "bad_format"), ("version", "wrong_version"), ("seed", "bad_seed"), ("rules", "bad_rules"), ("actions", "bad_actions")],
)
def test_a_save_missing_a_key_is_refused(good_save, key, reason):
    save = copy.deepcopy(good_save)
    del save[key]
    refused(save, reason)


def test_meta_and_shuffle_are_optional_but_meta_must_be_an_object(good_save):
    save = copy.deepcopy(good_save)
    del save["meta"], save["shuffle"]
    assert Match.from_save(save).meta == {}
    refused({**copy.deepcopy(good_save), "meta": [1]}, "bad_meta")


@pytest.mark.parametrize("save", [None, [], "save", 3, b"{}"])
def test_not_an_object_is_refused(save):
    refused(save, "not_an_object")


def test_truncated_json_text_fails_in_the_callers_json_loads(good_save):
    text = json.dumps(good_save)
    for cut in (1, len(text) // 3, len(text) // 2, len(text) - 1):
        with pytest.raises(ValueError):
            json.loads(text[:cut])


def test_a_prefix_of_the_actions_is_an_earlier_position(good_save):
    # Cutting the action list keeps a save that loads: the match as it was then.
    save = copy.deepcopy(good_save)
    save["actions"] = save["actions"][:30]
    assert len(Match.from_save(save).actions) == 30


def test_a_refused_save_is_never_half_loaded(good_save):
    save = copy.deepcopy(good_save)
    save["actions"][60] = {"type": "jump"}
    before = copy.deepcopy(save)
    refused(save, "does_not_replay")
    assert save == before  # the input is not modified either


def test_a_deeply_nested_save_is_refused_before_it_is_read():
    """Checked first: the nesting is not walked by recursion, nor quoted whole."""
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    good = Match.new(seed="DEEP", rules="traditional").to_save()
    for save in (
        {**good, "meta": {"note": deep}},
        {**good, "actions": [{"type": "knock", "card": "7H", "melds": deep}]},
        {**good, "rules": deep},
        {**good, "format": deep},
        {**good, "actions": deep},
    ):
        error = refused(save, "too_deep")
        assert len(str(error)) < 500
    # Within MAX_DEPTH (32) nesting is read as usual.
    shallow: list = []
    for _ in range(28):
        shallow = [shallow]
    Match.from_save({**good, "meta": {"note": shallow}})


def test_a_save_with_more_actions_than_a_match_has_is_refused_before_replaying(good_save):
    """Issue 36, item 10: a crafted save as long as a player could paste or keep
    is refused at once (reason too_long), so it cannot keep the engine busy past
    the page's watchdog; one at the cap is still read (its actions checked)."""
    from gin import bridge
    from gin.match import MAX_ACTIONS

    # Junk past the cap: the length is checked before any action is replayed.
    error = refused({**good_save, "actions": [{"type": "nonsense"}] * (MAX_ACTIONS + 1)}, "too_long")
    assert str(MAX_ACTIONS) in str(error)
    out = json.loads(bridge.load(json.dumps({"save": {**good_save, "actions": good_save["actions"] * 200}})))
    assert out["ok"] is False and out["error"]["code"] == "bad_save" and f"at most {MAX_ACTIONS}" in out["error"]["message"], out
    # At the cap, the actions are read as usual (here the junk is refused for itself).
    refused({**good_save, "actions": [{"type": "nonsense"}] * MAX_ACTIONS}, "does_not_replay")
    # The longest real match (71 deals of a 500-point custom match) is far below it.
    assert MAX_ACTIONS >= 3 * 3006
