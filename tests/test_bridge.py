"""The JSON bridge: every function with good and bad input; JSON in and out, codes, nothing changed on error."""

from __future__ import annotations

import json
import random

import pytest

from gin import Match, Rules, bridge

FUNCTIONS = (
    "new_match", "load", "view", "act", "computer_step", "hint", "set_level", "save", "replay", "review", "stats",
    "match_text", "parse_text",
)


def call(name: str, params=None, raw: str | None = None) -> dict:
    """Call a bridge function with JSON text; check the answer's shape."""
    text = raw if raw is not None else json.dumps({} if params is None else params)
    answer = getattr(bridge, name)(text)
    assert isinstance(answer, str)
    out = json.loads(answer)
    assert isinstance(out, dict) and isinstance(out["ok"], bool)
    if not out["ok"]:
        assert set(out) == {"ok", "error"}
        assert isinstance(out["error"]["code"], str) and out["error"]["code"]
        assert isinstance(out["error"]["message"], str)
    return out


def error(name: str, params=None, raw: str | None = None) -> str:
    out = call(name, params, raw)
    assert out["ok"] is False, out
    return out["error"]["code"]


def snapshot() -> tuple[str, str]:
    return json.dumps(call("save")["save"], sort_keys=True), json.dumps(call("view")["view"], sort_keys=True)


@pytest.fixture
def fresh():
    """A new match where the human (seat 0) is to act first."""
    for n in range(40):
        out = call("new_match", {"seed": f"BRIDGE-{n}", "profile": "traditional", "options": {}, "level": "normal"})
        if out["view"]["to_act"] == 0:
            return out
    raise AssertionError("no seed with the human first")


def human_first_seed(first: int) -> str:
    for n in range(40):
        if Match.new(seed=f"BRIDGE-{n}").deal.to_act == first:
            return f"BRIDGE-{n}"
    raise AssertionError


# --------------------------------------------------------------------------
# new_match


def test_new_match(fresh):
    out = call("new_match", {"seed": " k7q2-m9xd ", "profile": "standard", "options": {}, "level": "hard"})
    v = out["view"]
    assert out["ok"] and v["seat"] == 0 and v["seed"] == "K7Q2-M9XD"
    assert v["rules"]["profile"] == "standard" and v["level"] == "hard" and v["next_level"] is None
    assert len(v["hand"]) == 10 and v["deal_number"] == 1 and v["phase"] == "upcard_nondealer"
    assert out["save"]["seed"] == "K7Q2-M9XD" and out["save"]["actions"] == []
    assert Match.from_save(out["save"]).view(0)["hand"] == v["hand"]


def test_new_match_defaults_and_custom_options():
    v = call("new_match", {"seed": "DEF"})["view"]
    assert v["rules"]["profile"] == "traditional" and v["level"] == "normal"
    v = call("new_match", {"seed": "C", "profile": "custom", "options": {"big_gin_bonus": 31, "target": 250}})["view"]
    assert v["rules"]["big_gin_bonus"] == 31 and v["rules"]["target"] == 250


@pytest.mark.parametrize(
    "params, code",
    [
        ({"seed": "A", "profile": "canasta"}, "unknown_profile"),
        ({"seed": "A", "profile": "custom", "options": {"gin_bonus": 30}}, "bad_option"),
        ({"seed": "A", "profile": "custom", "options": {"target": 100.0}}, "bad_option"),
        ({"seed": "A", "profile": "standard", "options": {"gin_bonus": 25}}, "bad_option"),
        ({"seed": "A", "level": "godlike"}, "bad_level"),
        ({"seed": "A", "level": None}, "bad_level"),
        ({"seed": ""}, None),
        ({"seed": None}, None),
        ({"seed": ["A"]}, None),
        ({"seed": "A", "options": [1]}, None),
    ],
)
def test_new_match_refusals_keep_the_current_match(fresh, params, code):
    before = snapshot()
    got = error("new_match", params)
    if code is not None:
        assert got == code
    assert snapshot() == before


# --------------------------------------------------------------------------
# Malformed input everywhere: never raises, JSON out, nothing changes.

JUNK_TEXT = ["", "{", "[", "null", "5", '"x"', "[1, 2]", "{'a': 1}", "\x00", "{}{}", '{"a":}', "true"]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_junk_text_is_answered_not_raised(fresh, name):
    before = snapshot()
    for text in JUNK_TEXT:
        answer = getattr(bridge, name)(text)
        out = json.loads(answer)
        assert isinstance(out["ok"], bool)
        if text not in ("", "{}{}") and name not in ("view", "save", "hint", "computer_step"):
            assert out["ok"] is False, (name, text)
    # view/save/hint change nothing; the others refused everything.
    assert snapshot() == before


@pytest.mark.parametrize("name", FUNCTIONS)
def test_non_text_params_are_answered_not_raised(fresh, name):
    for value in (None, 5, b"{}", ["x"]):
        out = json.loads(getattr(bridge, name)(value))
        assert isinstance(out["ok"], bool)


def test_no_match_yet():
    bridge._session.match = None
    for name in ("view", "act", "computer_step", "hint", "set_level", "save"):
        assert error(name, {"action": {"type": "pass"}, "level": "hard"}) == "no_match"


# --------------------------------------------------------------------------
# act


def test_act_applies_the_humans_action(fresh):
    out = call("act", {"action": {"type": "pass"}})
    assert out["ok"]
    assert out["events"] == [{"seat": 0, "type": "pass"}]
    assert out["view"]["to_act"] == 1 and out["view"]["phase"] == "upcard_dealer"
    assert out["save"]["actions"] == [{"type": "pass"}]
    assert out["save"] == call("save")["save"]


@pytest.mark.parametrize(
    "action, code",
    [
        ({"type": "draw", "from": "stock"}, "must_take_or_pass"),
        ({"type": "discard", "card": "AC"}, "must_draw_first"),
        ({"type": "jump"}, "bad_action"),
        ({}, "bad_action"),
        (None, "bad_action"),
        ("pass", "bad_action"),
        ([{"type": "pass"}], "bad_action"),
    ],
)
def test_act_refusals_change_nothing(fresh, action, code):
    before = snapshot()
    assert error("act", {"action": action}) == code
    assert snapshot() == before


def test_act_out_of_turn_and_computer_step_out_of_turn(fresh):
    before = snapshot()
    assert error("computer_step") == "not_computer_turn"
    assert snapshot() == before
    call("act", {"action": {"type": "pass"}})  # the computer decides now
    before = snapshot()
    assert error("act", {"action": {"type": "take"}}) == "not_your_turn"
    assert error("hint") == "not_your_turn"
    assert snapshot() == before


def test_the_human_cannot_act_as_the_computer(fresh):
    before = snapshot()
    out = call("act", {"action": {"type": "pass", "seat": 1}})
    # Either refused, or applied as the human's own pass: never the computer's move.
    if out["ok"]:
        assert out["events"][0]["seat"] == 0
    else:
        assert snapshot() == before


def test_computer_step_plays_one_legal_action():
    call("new_match", {"seed": human_first_seed(1), "level": "easy"})
    out = call("computer_step")
    assert out["ok"]
    assert out["action"]["type"] in ("take", "pass")
    replay = Match.from_save(out["save"])
    assert replay.actions[-1]["type"] == out["action"]["type"]
    assert out["events"][0]["seat"] == 1


def test_hint_is_a_legal_action(fresh):
    out = call("hint")
    assert out["ok"]
    assert out["hint"]["action"] in fresh["view"]["legal"]
    assert isinstance(out["hint"]["reason"], str)


# --------------------------------------------------------------------------
# A whole match through the bridge; a level change from the next deal.


def play_until_next_deal(level_check=None) -> dict:
    start = call("view")["view"]["deal_number"]
    out = call("view")
    for _ in range(500):
        v = out["view"]
        if v["over"] or v["deal_number"] != start:
            return out
        if level_check:
            level_check(v)
        if v["to_act"] == 0:
            hint = call("hint")["hint"]["action"]
            out = call("act", {"action": hint})
        else:
            out = call("computer_step")
        assert out["ok"], out
    raise AssertionError("the deal did not end")


def test_a_level_change_applies_from_the_next_deal(fresh):
    out = call("set_level", {"level": "hard"})
    assert out["view"]["level"] == "normal" and out["view"]["next_level"] == "hard"
    assert call("view")["view"]["level"] == "normal"

    def still_normal(v):
        assert v["level"] == "normal" and v["next_level"] == "hard"

    out = play_until_next_deal(still_normal)
    if not out["view"]["over"]:
        assert out["view"]["level"] == "hard" and out["view"]["next_level"] is None
        assert any(e["type"] == "new_deal" for e in out["events"])
    # Setting the current level again cancels a pending change.
    call("set_level", {"level": "easy"})
    v = call("set_level", {"level": call("view")["view"]["level"]})["view"]
    assert v["next_level"] is None


@pytest.mark.parametrize("level", ["godlike", None, ["hard"], 3, ""])
def test_set_level_refusals(fresh, level):
    before = snapshot()
    assert error("set_level", {"level": level}) == "bad_level"
    assert snapshot() == before


def test_a_whole_match_through_the_bridge():
    call("new_match", {"seed": "BRIDGE-WHOLE", "profile": "standard", "level": "easy"})
    for _ in range(60):
        out = play_until_next_deal()
        if out["view"]["over"]:
            break
    v = call("view")["view"]
    assert v["over"] and v["final"] is not None and v["legal"] == []
    assert error("act", {"action": {"type": "pass"}}) == "game_over"
    assert error("computer_step") == "not_computer_turn"
    saved = call("save")["save"]
    assert Match.from_save(saved).over


# --------------------------------------------------------------------------
# save and load


def test_save_and_load_round_trip(fresh):
    call("act", {"action": {"type": "pass"}})
    call("computer_step")
    saved = call("save")["save"]
    view = call("view")["view"]
    call("new_match", {"seed": "OTHER"})
    out = call("load", {"save": saved})
    assert out["ok"] and out["view"] == view and out["save"] == saved


@pytest.mark.parametrize(
    "change",
    [
        {"version": 2},
        {"format": "x"},
        {"seed": None},
        {"actions": [{"type": "draw", "from": "stock"}]},
        {"rules": {"profile": "custom", "gin_bonus": 30}},
    ],
)
def test_load_refusals_are_bad_save_and_change_nothing(fresh, change):
    saved = call("save")["save"]
    call("act", {"action": {"type": "pass"}})
    before = snapshot()
    code = error("load", {"save": {**saved, **change}})
    assert code == "bad_save"
    assert snapshot() == before


@pytest.mark.parametrize("params", [{}, {"save": None}, {"save": "x"}, {"save": []}])
def test_load_without_a_save_object(fresh, params):
    before = snapshot()
    assert error("load", params) == "bad_save"
    assert snapshot() == before


def test_load_of_cut_json_text(fresh):
    text = json.dumps({"save": call("save")["save"]})
    before = snapshot()
    for cut in (5, len(text) // 2, len(text) - 1):
        error("load", raw=text[:cut])
    assert snapshot() == before


# --------------------------------------------------------------------------
# call


def test_call_dispatches_by_name(fresh):
    for name in ("view", "save", "hint"):
        assert json.loads(bridge.call(name, "{}")) == json.loads(getattr(bridge, name)("{}"))
    out = json.loads(bridge.call("act", json.dumps({"action": {"type": "pass"}})))
    assert out["ok"] and out["view"]["to_act"] == 1


@pytest.mark.parametrize("method", ["nope", "", "_match", "__init__", "json", None])
def test_call_of_an_unknown_method(fresh, method):
    before = snapshot()
    out = json.loads(bridge.call(method, "{}"))
    assert out["ok"] is False and out["error"]["code"] == "unknown_method"
    assert snapshot() == before


# --------------------------------------------------------------------------
# Hostile input that once escaped the bridge or got the wrong code.


def test_deeply_nested_json_is_answered_not_raised(fresh):
    out = json.loads(bridge.new_match("[" * 100_000))
    assert out["ok"] is False


def test_call_with_an_unhashable_method_is_answered():
    out = json.loads(bridge.call(["view"], "{}"))
    assert out["ok"] is False


def test_load_of_a_save_with_a_bad_level_is_bad_save(fresh):
    saved = call("save")["save"]
    assert error("load", {"save": {**saved, "meta": {"level": "godlike"}}}) == "bad_save"


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"seed": "", "profile": "traditional"}, "bad_seed"),
        ({"seed": None}, "bad_seed"),
        ({"seed": "OK", "profile": "custom", "options": [20]}, "bad_option"),
        ({"seed": "OK", "profile": "custom", "options": "gin_bonus=25"}, "bad_option"),
    ],
)
def test_new_match_names_what_is_wrong(fresh, params, code):
    before = snapshot()
    assert error("new_match", params) == code
    assert snapshot() == before


def test_act_for_the_computers_seat_is_not_your_turn(fresh):
    before = snapshot()
    assert error("act", {"action": {"type": "pass", "seat": 1}}) == "not_your_turn"
    assert snapshot() == before


def test_unknown_method_answer_is_compact_json():
    assert bridge.call("nope", "{}") == '{"ok":false,"error":{"code":"unknown_method","message":"no method \'nope\'"}}'


# --------------------------------------------------------------------------
# Fairness: what the computer decides from never carries the seed.


def _seed_forms(raw: str) -> set[str]:
    """The seed as given and every normalised spelling of it (lower-cased for the search)."""
    norm = raw.strip().upper()
    forms = {raw, raw.strip(), norm, norm.replace("-", ""), norm.replace("-", " ")}
    return {f.lower() for f in forms if f.strip()}


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_the_computer_never_receives_the_seed(monkeypatch, level):
    """Spy on every view gin.ai gets through the bridge in a whole match: hints and computer moves."""
    from gin import ai

    seen: list[str] = []
    real_choose, real_hint = ai.choose, ai.hint

    def spy_choose(view, level="normal"):
        seen.append(json.dumps(view))
        return real_choose(view, level)

    def spy_hint(view):
        seen.append(json.dumps(view))
        return real_hint(view)

    monkeypatch.setattr(ai, "choose", spy_choose)
    monkeypatch.setattr(ai, "hint", spy_hint)
    raw = f" spy{level}-q7x3 "
    out = call("new_match", {"seed": raw, "profile": "standard", "level": level})
    assert out["view"]["seed"] == raw.strip().upper()  # the page still shows it in the menu
    for _ in range(60):
        out = play_until_next_deal()
        if out["view"]["over"]:
            break
    assert out["view"]["over"]
    assert len(seen) > 100
    forms = _seed_forms(raw)
    for text in seen:
        assert '"seed"' not in text
        low = text.lower()
        for form in forms:
            assert form not in low, form


# --------------------------------------------------------------------------
# Strict input: only the ints 0 and 1 are seats; deep nesting is refused by
# what it is, from a depth check before parsing.


@pytest.mark.parametrize("seat", [False, True, 0.0, 1.0, "0", None, [0], {}, -1, 2])
def test_act_accepts_only_the_integer_seats(fresh, seat):
    before = snapshot()
    assert error("act", {"action": {"type": "pass", "seat": seat}}) == "bad_action"
    assert snapshot() == before
    # The int 0 is the human's own seat.
    assert call("act", {"action": {"type": "pass", "seat": 0}})["ok"]


def _nested(depth: int, inner: str = '"AC"') -> str:
    return "[" * depth + inner + "]" * depth


@pytest.mark.parametrize("depth", [40, 5000, 100_000])
def test_deep_input_gets_the_code_of_what_it_is(fresh, depth):
    before = snapshot()
    deep = _nested(depth)
    cases = [
        ("act", '{"action": {"type": "knock", "card": "AC", "melds": %s}}' % deep, "invalid_melds"),
        ("act", '{"action": {"type": "knock", "card": "AC", "melds": [["AC", %s]]}}' % deep, "invalid_melds"),
        ("act", '{"action": {"type": "discard", "card": %s}}' % deep, "bad_action"),
        ("act", '{"action": %s}' % deep, "bad_action"),
        ("act", '{"action": {"type": "pass", "x": {"y": %s}}}' % deep, "bad_action"),
        ("load", '{"save": %s}' % deep, "bad_save"),
        ("load", '{"save": {"format": "gin-save", "meta": {"a": %s}}}' % deep, "bad_save"),
        ("load", '{"save": {"actions": [{"type": "knock", "melds": %s}]}}' % deep, "bad_save"),
        ("new_match", '{"seed": "A", "options": {"target": %s}}' % deep, "bad_option"),
        ("set_level", '{"level": %s}' % deep, "bad_level"),
        ("view", deep, "bad_request"),
    ]
    for name, text, code in cases:
        got = call(name, raw=text)
        assert got["ok"] is False and got["error"]["code"] == code, (name, text[:80], got)
        assert len(got["error"]["message"]) < 300
    assert snapshot() == before


def test_depth_check_reads_keys_and_strings_as_json(fresh):
    # Brackets inside strings do not count; an escaped quote does not end a key.
    text = json.dumps({"action": {"type": "pass", "note": "[" * 1000, 'q"[[': "{" * 50}})
    out = call("act", raw=text)
    assert out["ok"] and out["events"] == [{"seat": 0, "type": "pass"}]


def test_a_long_real_save_passes_the_depth_check_quickly():
    import time

    from gin import arena

    st = arena.play_match("easy", "easy", "DEPTH-LONG", keep_actions=True)
    m = Match.new(seed="DEPTH-LONG")
    for a in st.actions:
        m.apply(a)
    text = json.dumps({"save": m.to_save()})
    t0 = time.perf_counter()
    bridge._check_depth(text + " " + "[" * 10 + "]" * 10, "load")
    assert time.perf_counter() - t0 < 0.25
    assert call("load", raw=text)["ok"]


# --------------------------------------------------------------------------
# replay, review, stats: pure functions of saves; the current match is untouched.


def test_replay_review_and_stats_through_the_bridge(fresh):
    call("new_match", {"seed": "BRIDGE-REPLAY", "level": "easy"})
    for _ in range(60):
        if play_until_next_deal()["view"]["over"]:
            break
    finished = call("save")["save"]
    call("new_match", {"seed": "BRIDGE-OTHER"})
    call("act", {"action": {"type": "pass"}}) if call("view")["view"]["to_act"] == 0 else call("computer_step")
    before = snapshot()
    r = call("replay", {"save": finished})
    assert r["ok"] and r["count"] == len(r["steps"]) and r["deals"][0]["start"] == 0
    assert r["final"] == Match.from_save(finished).final.to_dict()
    assert call("replay", {"save": finished, "deal": 1})["steps"] == r["steps"][: r["deals"][0]["end"] + 1]
    rv = call("review", {"save": finished})
    # the human played the hints: Difícil agrees with every decision
    assert rv["ok"] and rv["summary"]["differing"] == 0 and rv["summary"]["decisions"] > 10
    st = call("stats", {"saves": [finished]})
    assert st["ok"] and st["all"]["matches"] == 1 and st["groups"][0]["level"] == "easy"
    assert snapshot() == before
    # an unfinished match is not shown face up; it can be reviewed
    current = call("save")["save"]
    assert error("replay", {"save": current}) == "match_not_over"
    assert call("review", {"save": current})["ok"]
    for name, params, code in [
        ("replay", {}, "bad_save"),
        ("replay", {"save": finished, "deal": 0}, "bad_deal"),
        ("review", {"save": {**finished, "version": 3}}, "bad_save"),
        ("review", {"save": finished, "deals": [2, 1]}, "bad_deal"),
        ("stats", {"saves": [finished, None]}, "bad_save"),
        ("stats", {"saves": "x"}, "bad_save"),
    ]:
        assert error(name, params) == code, (name, params)
    deep = _nested(5000)
    assert error("replay", raw='{"save": %s}' % deep) == "bad_save"
    assert error("stats", raw='{"saves": [%s]}' % deep) == "bad_save"
    assert snapshot() == before


def test_the_save_keeps_the_level_of_each_deal_and_refuses_bad_ones(fresh):
    """meta.levels: the level each deal was dealt at (a change applies from the next deal); a
    save whose levels are unknown or not one per deal is refused and the match stays as it was."""
    call("new_match", {"seed": "BRIDGE-LEVELS", "level": "normal"})
    assert call("save")["save"]["meta"]["levels"] == ["normal"]
    call("set_level", {"level": "hard"})
    assert call("save")["save"]["meta"]["levels"] == ["normal"]  # not before the next deal
    play_until_next_deal()
    good = call("save")["save"]
    assert good["meta"]["levels"] == ["normal", "hard"] and good["meta"]["level"] == "hard"
    before = snapshot()
    for levels in (["normal"], ["normal", "hard", "hard"], ["normal", "expert"], "hard", [None, "hard"]):
        assert error("load", {"save": {**good, "meta": {**good["meta"], "levels": levels}}}) == "bad_save", levels
        assert snapshot() == before
    assert call("load", {"save": good})["save"] == good


# --------------------------------------------------------------------------
# The match as text (gin.notation): match_text and parse_text, pure; the current match is untouched.


@pytest.fixture
def finished_save() -> dict:
    from test_notation import play

    m = play(Rules.profile("standard"), "BRIDGE-TEXT", random.Random(3), actions=None)
    m.meta.update(level="hard", levels=["hard"] * m.deal_number)
    return m.to_save()


def test_the_text_of_the_current_match_and_of_a_save(fresh, finished_save):
    call("act", {"action": {"type": "pass"}})
    current = call("save")["save"]
    before = snapshot()
    text = call("match_text")["text"]
    assert text == Match.from_save(current).to_text() and '[Level "normal"]' in text
    assert call("match_text", {"save": finished_save})["text"] == Match.from_save(finished_save).to_text()
    assert snapshot() == before


def test_a_text_comes_back_as_the_save_replay_and_review_take(fresh, finished_save):
    before = snapshot()
    text = call("match_text", {"save": finished_save})["text"]
    out = call("parse_text", {"text": text.replace("\n", "\r\n")})
    assert out == {"ok": True, "save": finished_save, "over": True}
    assert call("replay", {"save": out["save"]}) == call("replay", {"save": finished_save})
    assert call("review", {"save": out["save"], "deals": [1, 1]})["ok"]
    unfinished = Match.from_save({**finished_save, "actions": finished_save["actions"][:40]})
    unfinished.meta["levels"] = ["hard"] * unfinished.deal_number
    out = call("parse_text", {"text": unfinished.to_text()})
    assert out["ok"] and out["over"] is False and out["save"] == unfinished.to_save()
    assert snapshot() == before


def test_a_text_that_cannot_be_read_says_where_and_why(fresh, finished_save):
    from gin.notation import MAX_CHARS

    before = snapshot()
    text = call("match_text", {"save": finished_save})["text"]
    lines = text.split("\n")
    n = next(k for k, line in enumerate(lines, 1) if line.startswith(" 2. "))
    bad_card = "\n".join(lines[: n - 1] + [" 2. sZZ 9C"] + lines[n:])
    out = call("parse_text", {"text": bad_card})
    assert out["error"]["code"] == "bad_card" and out["error"]["kind"] == "syntax"
    assert out["error"]["line"] == n and out["error"]["text"] == "2. sZZ 9C"
    assert out["error"]["message"].startswith(f"line {n}: '2. sZZ 9C': ")
    first = lines[n - 1].split()
    illegal = "\n".join(lines[: n - 1] + [f" 2. {first[1]} knock {first[2]}"])  # a knock that declares no meld
    out = call("parse_text", {"text": illegal})
    assert out["error"]["kind"] == "illegal" and out["error"]["line"] == n
    assert out["error"]["code"] == "deadwood_too_high"
    for params, code in [
        ({}, "bad_syntax"),
        ({"text": 5}, "bad_syntax"),
        ({"text": ""}, "bad_format"),
        ({"text": "x" * (MAX_CHARS + 1)}, "too_long"),
        ({"text": text.replace('[Shuffle "gin-shuffle-v1"]', '[Shuffle "gin-shuffle-v2"]')}, "wrong_shuffle"),
    ]:
        out = call("parse_text", params)
        assert out["error"]["code"] == code, params
        assert set(out["error"]) == {"code", "message", "kind", "line", "text"}
    assert snapshot() == before


def test_match_text_refusals(fresh, finished_save):
    before = snapshot()
    assert error("match_text", {"save": {**finished_save, "version": 9}}) == "bad_save"
    assert error("match_text", {"save": {**finished_save, "meta": {"levels": ["hard"]}}}) == "bad_save"
    assert error("match_text", {"save": "x"}) == "bad_save"
    assert error("match_text", raw='{"save": %s}' % _nested(5000)) == "bad_save"
    assert snapshot() == before
    bridge._session.match = None
    assert error("match_text") == "no_match"
