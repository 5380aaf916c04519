"""The day's match and challenges, the page's pure pieces run in Node: the local date and its seed, a challenge's link and its result token, and what data/daily.js keeps (first result of a day, bounds, refusals, imports)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webnode import run_web

# A Map-backed localStorage for data/storage.js.
PRELUDE = """
const web = process.argv[1];
const cases = JSON.parse(process.argv[2]);
const backend = (items = {}) => {
  const map = new Map(Object.entries(items));
  return {
    map,
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => { if (cases.quota && String(v).length > cases.quota) throw new Error("QuotaExceededError"); map.set(k, String(v)); },
    removeItem: (k) => map.delete(k),
    key: (i) => [...map.keys()][i] ?? null,
    get length() { return map.size; },
  };
};
const daily = await import(web + "/model/daily.js");
const challenge = await import(web + "/model/challenge.js");
const data = await import(web + "/data/daily.js");
const { createStorage } = await import(web + "/data/storage.js");
"""


def run(body: str, cases: dict | None = None, tz: str = "UTC"):
    return run_web(PRELUDE + body, cases or {}, tz=tz)


# --- the day ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tz,utc_ms,day",
    [
        # 2026-12-03T09:59:30Z and 10:00:30Z: 23:59:30 and 00:00:30 in Kiritimati (UTC+14).
        ("Pacific/Kiritimati", 1796291970000, "2026-12-03"),
        ("Pacific/Kiritimati", 1796292030000, "2026-12-04"),
        # 2026-12-04T07:59:30Z and 08:00:30Z: 23:59:30 and 00:00:30 in Los Angeles (UTC-8).
        ("America/Los_Angeles", 1796371170000, "2026-12-03"),
        ("America/Los_Angeles", 1796371230000, "2026-12-04"),
    ],
)
def test_the_day_is_the_local_date(tz, utc_ms, day):
    got = run(
        "const now = new Date(cases.at); process.stdout.write(JSON.stringify([daily.dayOf(now), daily.dailySeed(daily.dayOf(now)), daily.lastDays(now)]));",
        {"at": utc_ms},
        tz=tz,
    )
    assert got[0] == day and got[1] == f"DIA-{day}"
    assert len(got[2]) == 30 and got[2][0] == day and len(set(got[2])) == 30 and got[2] == sorted(got[2], reverse=True)


def test_the_calendar_crosses_months_years_and_a_change_of_summer_time():
    # Madrid leaves summer time on 2026-10-25: the days before it are still whole days.
    got = run(
        "process.stdout.write(JSON.stringify([daily.lastDays(new Date(2027, 0, 2), 4), daily.lastDays(new Date(2026, 9, 26, 0, 30), 3), daily.lastDays(new Date(2028, 2, 1), 2)]));",
        tz="Europe/Madrid",
    )
    assert got == [
        ["2027-01-02", "2027-01-01", "2026-12-31", "2026-12-30"],
        ["2026-10-26", "2026-10-25", "2026-10-24"],
        ["2028-03-01", "2028-02-29"],
    ]


def test_a_seed_is_a_day_only_for_a_real_date():
    got = run(
        "process.stdout.write(JSON.stringify(cases.seeds.map(daily.dayOfSeed)));",
        {"seeds": ["DIA-2026-12-03", "dia-2028-02-29", "DIA-2026-02-29", "DIA-2026-13-01", "DIA-2026-1-3", "DIAX-2026-12-03", "K7Q2-M9XD", 7]},
    )
    assert got == ["2026-12-03", "2028-02-29", None, None, None, None, None, None]


# --- a challenge's link -----------------------------------------------------------------------


def test_a_link_carries_the_match_and_a_result_that_reads_back_exactly():
    got = run(
        """
        const s = {totals: [245, 112], deals: 6, gins: 2, undercuts: 1};
        const traditional = {profile: "traditional", knock_limit: 10, gin_bonus: 20};
        const oklahoma = {profile: "oklahoma", oklahoma: true, ace_gin: true, hollywood: true};
        const links = [challenge.linkHash("DIA-2026-12-03", traditional, "hard", s), challenge.linkHash("K7Q2-M9XD", oklahoma, "normal", s), challenge.linkHash("K7Q2-M9XD", traditional, "easy")];
        process.stdout.write(JSON.stringify({
          links,
          read: links.map(challenge.challengeFromHash),
          rules: links.map(challenge.linkRules),
          token: challenge.encodeSummary(s),
          back: challenge.decodeSummary(challenge.encodeSummary(s)),
          daily: [challenge.isDailyMatch({seed: "DIA-2026-12-03", meta: {level: "hard", levels: ["hard", "hard"]}}, traditional),
                  challenge.isDailyMatch({seed: "DIA-2026-12-03", meta: {level: "hard", levels: ["easy", "hard"]}}, traditional),
                  challenge.isDailyMatch({seed: "DIA-2026-12-03", meta: {level: "hard", levels: ["hard"], next_level: "easy"}}, traditional),
                  challenge.isDailyMatch({seed: "DIA-2026-12-03", meta: {level: "hard", levels: ["hard"]}}, {...traditional, hollywood: true}),
                  challenge.isDailyMatch({seed: "DIA-2026-12-03", meta: {level: "normal", levels: ["normal"]}}, traditional)],
        }));
        """
    )
    s = {"totals": [245, 112], "deals": 6, "gins": 2, "undercuts": 1}
    assert got["links"][0] == f"#seed=DIA-2026-12-03&rules=traditional&level=hard&reto={got['token']}"
    assert got["links"][1].startswith("#seed=K7Q2-M9XD&rules=oklahoma,ace_gin:1,spade_double:0,hollywood:1&level=normal&reto=")
    assert got["back"] == s and "245" not in got["token"]
    assert got["read"][0] == {"seed": "DIA-2026-12-03", "rules": "traditional", "level": "hard", "from": s}
    assert got["read"][1]["rules"] == "oklahoma,ace_gin:1,spade_double:0,hollywood:1"
    assert got["read"][2] is None  # a link without a result is not a challenge
    assert got["rules"][0] == {"profile": "traditional", "options": {}, "level": "hard"}
    assert got["rules"][1] == {"profile": "oklahoma", "options": {"ace_gin": True, "spade_double": False, "hollywood": True}, "level": "normal"}
    assert got["daily"] == [True, False, False, False, False]


def test_a_result_token_that_is_not_one_is_refused():
    good = run("process.stdout.write(JSON.stringify(challenge.encodeSummary({totals: [100, 0], deals: 3, gins: 3, undercuts: 0})));")

    def b64(text):
        import base64

        return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")

    tokens = [
        good,
        b64("2.100.0.3.3.0"),  # another version
        b64("1.100.0.3.4.0"),  # more gins than deals
        b64("1.100.0.0.0.0"),  # no deal
        b64("1.100.0.3.3"),  # a field short
        b64("1.100000.0.3.3.0"),  # out of range
        b64("1.-1.0.3.3.0"),
        "!!!!",
        "A" * 65,
        "",
    ]
    got = run("process.stdout.write(JSON.stringify(cases.tokens.map(challenge.decodeSummary)));", {"tokens": tokens})
    assert got[0] == {"totals": [100, 0], "deals": 3, "gins": 3, "undercuts": 0}
    assert got[1:] == [None] * (len(tokens) - 1)
    links = run(
        "process.stdout.write(JSON.stringify(cases.hashes.map(challenge.challengeFromHash)));",
        {"hashes": [
            f"#seed=X1&rules=traditional&level=hard&reto={good}",
            f"#seed=X1&rules=nope&level=hard&reto={good}",
            f"#seed=X1&rules=traditional&level=expert&reto={good}",
            f"#rules=traditional&level=hard&reto={good}",
            f"#seed=X1&rules=traditional&level=hard&reto={tokens[2]}",
        ]},
    )
    assert links[0]["seed"] == "X1" and links[1:] == [None] * 4


# --- what data/daily.js keeps -------------------------------------------------------------------


KEEP_BODY = """
const store = backend(cases.items || {});
const storage = createStorage(() => store);
const r = (a, b, deals = 4, gins = 1, undercuts = 0) => ({totals: [a, b], deals, gins, undercuts});
const out = {};
"""


def test_a_days_first_result_is_kept_and_old_days_are_summed():
    got = run(
        KEEP_BODY
        + """
        out.first = data.recordDay(storage, "2026-12-03", r(120, 40), 1);
        out.again = data.recordDay(storage, "2026-12-03", r(10, 140), 2);
        out.days = data.readDaily(storage).days;
        // 405 more days: the oldest go into the sums, nothing is lost from the record.
        for (let i = 0; i < 405; i++) data.recordDay(storage, daily.dayOf(new Date(2025, 0, 1 + i)), r(i % 2 ? 100 : 50, 80, 3, i % 3 === 0 ? 1 : 0, 0), 10 + i);
        const kept = data.readDaily(storage);
        out.count = kept.days.length;
        out.oldest = kept.days[0].day;
        out.older = kept.older;
        out.tally = data.dayTally(kept);
        out.declined = (data.declineDay(storage, "2026-12-03"), data.readDaily(storage).declined);
        out.cleared = (data.clearDays(storage), data.readDaily(storage));
        process.stdout.write(JSON.stringify(out));
        """
    )
    assert got["first"] is True and got["again"] is False
    assert got["days"] == [{"day": "2026-12-03", "at": 1, "totals": [120, 40], "deals": 4, "gins": 1, "undercuts": 0}]
    assert got["count"] == 400 and got["older"]["days"] == 6
    tally = got["tally"]
    assert tally["days"] == 406 and tally["won"] + tally["lost"] + tally["drawn"] == 406
    assert tally["won"] == 1 + 202 and tally["lost"] == 203  # 120-40, then 100-80 on odd days, 50-80 on even ones
    assert tally["gins"] == 1 + 135 and tally["best"]["totals"] == [120, 40]
    assert got["declined"] == "2026-12-03"
    assert got["cleared"] == {"days": [], "older": None, "declined": None}


def test_challenges_are_kept_once_answered_once_and_bounded():
    got = run(
        KEEP_BODY
        + """
        const c = (seed, from) => ({seed, rules: "traditional", level: "hard", from});
        out.first = data.receiveChallenge(storage, c("AAAA-1111", r(150, 20)), null, 1);
        out.same = data.receiveChallenge(storage, c("AAAA-1111", r(150, 20)), null, 2);
        out.other = data.receiveChallenge(storage, c("AAAA-1111", r(90, 120)), null, 3);
        out.bad = data.receiveChallenge(storage, {seed: "x y", rules: "traditional", level: "hard", from: r(1, 2)}, null, 4);
        const key = challenge.matchKey("AAAA-1111", "traditional", "hard");
        out.answered = data.answerChallenges(storage, key, r(130, 60));
        out.again = data.answerChallenges(storage, key, r(0, 200));
        out.for = data.challengesFor(storage, key).map((e) => e.mine);
        for (let i = 0; i < 60; i++) data.receiveChallenge(storage, c(`B${i}`, r(100, i)), null, 100 + i);
        const all = data.readChallenges(storage);
        out.count = all.length;
        out.oldest = all[0].seed;
        process.stdout.write(JSON.stringify(out));
        """
    )
    assert got["first"]["at"] == 1 and got["same"]["at"] == 1 and got["other"]["at"] == 3
    assert got["bad"] is None
    assert got["answered"] == 2 and got["again"] == 0
    assert got["for"] == [{"totals": [130, 60], "deals": 4, "gins": 1, "undercuts": 0}] * 2
    assert got["count"] == 50 and got["oldest"] == "B10"


def test_unreadable_values_are_kept_aside_before_anything_is_written_over_them():
    bad_days = json.dumps({"days": [{"day": "2026-12-01", "at": 1, "totals": [1, 2], "deals": 1, "gins": 0, "undercuts": 0}, {"day": "nope"}]})
    got = run(
        KEEP_BODY
        + """
        out.days = data.readDaily(storage).days.map((d) => d.day);
        out.challenges = data.readChallenges(storage);
        data.recordDay(storage, "2026-12-03", r(100, 0), 5);
        out.after = data.readDaily(storage).days.map((d) => d.day);
        out.aside = storage.asideList().map((s) => [s.key, s.raw]);
        process.stdout.write(JSON.stringify(out));
        """,
        {"items": {"gin.daily.v1": bad_days, "gin.challenges.v1": "[1, 2"}},
    )
    assert got["days"] == ["2026-12-01"] and got["challenges"] == []
    assert got["after"] == ["2026-12-01", "2026-12-03"]
    assert ["gin.daily.v1", bad_days] in got["aside"] and ["gin.challenges.v1", "[1, 2"] in got["aside"]


def test_an_import_adds_what_is_new_keeps_what_is_here_and_refuses_a_bad_part_whole():
    got = run(
        KEEP_BODY
        + """
        data.recordDay(storage, "2026-12-02", r(101, 20), 1);
        const file = {
          daily: {days: [{day: "2026-12-01", at: 2, ...r(130, 45)}, {day: "2026-12-02", at: 3, ...r(0, 100)}], older: null},
          challenges: [{at: 4, seed: "AAAA-1111", rules: "traditional", level: "hard", from: r(150, 20), mine: null}],
        };
        out.parts = data.readImport(file);
        out.merged = data.mergeImport(storage, out.parts);
        out.twice = data.mergeImport(storage, data.readImport(file));
        out.days = data.readDaily(storage).days.map((d) => [d.day, d.totals]);
        out.refusals = [
          {daily: {days: [{day: "2026-02-30", at: 1, ...r(1, 2)}]}},
          {daily: {days: "x"}},
          {challenges: [{at: 1, seed: "AAAA-1111", rules: "traditional", level: "hard", from: r(1, 2)}]},
          {challenges: {}},
        ].map((f) => { try { data.readImport(f); return null; } catch (e) { return e.key; } });
        out.none = data.readImport({});
        process.stdout.write(JSON.stringify(out));
        """
    )
    assert got["merged"] == {"days": 1, "challenges": 1} and got["twice"] == {"days": 0, "challenges": 0}
    assert got["days"] == [["2026-12-01", [130, 45]], ["2026-12-02", [101, 20]]]
    assert got["refusals"] == ["data.bad_daily"] * 4
    assert got["none"] == {"days": [], "older": None, "challenges": []}


# --- the formats' versions (issue 36) ----------------------------------------------------------

FIXTURE = Path(__file__).parent / "fixtures" / "stored" / "287f3da-daily" / "localStorage.json"


def test_what_build_287f3da_stored_loads_and_is_written_back_with_its_version():
    # Build 287f3da stored the days without a version and the challenges as a bare list under
    # gin.challenges.v1 (tests/fixtures/stored/make_daily.mjs ran that build's own module).
    items = json.loads(FIXTURE.read_text())
    got = run(
        KEEP_BODY
        + """
        const before = data.readDaily(storage);
        out.days = [before.days.length, before.days[0].day, before.days.at(-1).day];
        out.older = before.older;
        out.declined = before.declined;
        out.tally = data.dayTally(before);
        out.challenges = data.readChallenges(storage).map((c) => [c.seed, c.from.totals, c.mine && c.mine.totals]);
        out.aside = storage.asideList().length;
        // Written by this build: the same entries, with the version.
        out.recorded = data.recordDay(storage, "2026-11-07", r(100, 50, 4, 1, 0), 5);
        out.received = Boolean(data.receiveChallenge(storage, {seed: "CCCC-3333", rules: "traditional", level: "normal", from: r(10, 100, 3, 0, 0)}, null, 1796000000004));
        const days = JSON.parse(store.map.get("gin.daily.v1"));
        out.dailyStored = [days.version, days.days.length, days.older.days, days.declined];
        const v2 = JSON.parse(store.map.get("gin.challenges.v2"));
        out.v2 = [v2.version, v2.challenges.map((c) => c.seed)];
        out.v1Untouched = store.map.get("gin.challenges.v1") === cases.items["gin.challenges.v1"];
        // A tab of the older build, still open, answers a challenge and receives one in gin.challenges.v1.
        const v1 = JSON.parse(store.map.get("gin.challenges.v1"));
        v1[2].mine = r(120, 30, 5, 2, 0);
        v1.push({at: 1796000000009, seed: "DDDD-4444", rules: "traditional", level: "hard", from: r(99, 98, 9, 0, 0), mine: null});
        store.setItem("gin.challenges.v1", JSON.stringify(v1));
        out.merged = data.readChallenges(storage).map((c) => [c.seed, c.mine && c.mine.totals]);
        process.stdout.write(JSON.stringify(out));
        """,
        {"items": items},
    )
    # What make_daily.mjs fed that build: 402 days from 2025-10-01, every third (from the first)
    # lost 40-110 in 5 deals with an undercut, the others won 120+i to 35 in 4 deals with a gin.
    lost = [i for i in range(402) if i % 3 == 0]
    assert got["days"] == [400, "2025-10-03", "2026-11-06"]
    assert got["older"] == {"days": 2, "won": 1, "lost": 1, "drawn": 0, "deals": 9, "gins": 1, "undercuts": 1,
                            "best": {"totals": [121, 35], "deals": 4, "gins": 1, "undercuts": 0}}
    assert got["declined"] == "2026-11-06"
    tally = got["tally"]
    assert (tally["days"], tally["won"], tally["lost"], tally["drawn"]) == (402, 402 - len(lost), len(lost), 0)
    assert (tally["deals"], tally["gins"], tally["undercuts"]) == (5 * len(lost) + 4 * (402 - len(lost)), 402 - len(lost), len(lost))
    assert tally["best"]["totals"] == [120 + 401, 35]
    assert got["challenges"] == [["AAAA-1111", [150, 20], [111, 77]], ["DIA-2026-11-05", [90, 120], [130, 60]], ["BBBB-2222", [101, 99], None]]
    assert got["aside"] == 0, "a value of the older build was taken for an unreadable one"
    assert got["recorded"] is True and got["received"] is True
    assert got["dailyStored"] == [1, 400, 3, "2026-11-06"]
    assert got["v2"] == [2, ["AAAA-1111", "DIA-2026-11-05", "BBBB-2222", "CCCC-3333"]]
    assert got["v1Untouched"] is True, "this build rewrote the older build's list"
    assert got["merged"] == [["AAAA-1111", [111, 77]], ["DIA-2026-11-05", [130, 60]], ["BBBB-2222", [120, 30]],
                             ["CCCC-3333", None], ["DDDD-4444", None]]


def test_a_newer_format_of_the_days_or_the_challenges_is_neither_read_nor_rewritten():
    newer_days = json.dumps({"version": 2, "days": {"kept": "differently"}})
    newer_challenges = json.dumps({"version": 3, "received": []})
    got = run(
        KEEP_BODY
        + """
        out.days = data.readDaily(storage).days;
        out.challenges = data.readChallenges(storage);
        out.recorded = data.recordDay(storage, "2026-12-03", r(100, 0), 5);
        out.declined = data.declineDay(storage, "2026-12-03");
        out.received = data.receiveChallenge(storage, {seed: "AAAA-1111", rules: "traditional", level: "hard", from: r(1, 2)}, null, 1);
        try { data.mergeImport(storage, data.readImport({daily: {days: [{day: "2026-12-01", at: 2, ...r(130, 45)}], older: null}})); out.imported = true; }
        catch (e) { out.imported = e.key; }
        out.stored = [store.map.get("gin.daily.v1"), store.map.get("gin.challenges.v2")];
        out.aside = storage.asideList().length;
        process.stdout.write(JSON.stringify(out));
        """,
        {"items": {"gin.daily.v1": newer_days, "gin.challenges.v2": newer_challenges}},
    )
    assert got["days"] == [] and got["challenges"] == []
    assert got["recorded"] is False and got["declined"] is False and got["received"] is None
    assert got["imported"] == "data.newer_here"
    assert got["stored"] == [newer_days, newer_challenges] and got["aside"] == 0
