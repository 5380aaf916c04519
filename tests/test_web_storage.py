"""The page's data modules (web/data/storage.js, finished.js, duplicates.js, tabs.js) run in Node over
an in-memory localStorage with a quota: issue 36's paths, one test (or two) each, named for the path.
1: a finished match is never filed among the unfinished ones; 2: a kept match the engine refuses goes
aside without the match being played; 3: a link on a nearly full storage never replaces the match it
could not keep; 6: a failed write of the statistics is told; 4: an older build keeps a newer one's data;
5: the kept order is the stored one and an import refuses a bad entry alone; 8: the shared collections
are written in one locked section, after the engine's answers; 9: Borrar stays done; item 11: without
Web Locks the tabs talk over a BroadcastChannel. Each of 4, 5, 8, 9 and 11 fails on 66db853."""

from __future__ import annotations

import json
from pathlib import Path

from webnode import WEB, run_web

# Each scenario is a list of steps over one shared localStorage; a step is
# ["tab", n] (a fresh page: a new storage record over the same storage),
# ["write", seed, actions, over], ["file", seed, actions] (finished.js kept it
# with the finished matches), ["refuse", seed] (the engine refused that kept
# match, or the one on the key: the page sets it aside), and what is recorded:
# ["open"] (the seeds of openMatches()), ["current"] (the match on the key),
# ["aside"] (the seeds kept aside).
SCRIPT = """
const web = process.argv[1];
const { createStorage } = await import(web + "/data/storage.js");
const { KEYS } = await import(web + "/data/keys.js");
const { memory } = await import(web + "/../tests/webdata.mjs");
const save = (seed, n) => ({ version: 1, seed, rules: { profile: "standard", options: {} }, level: "easy",
                             actions: Array.from({ length: n }, (_, i) => ({ type: "discard", card: String(i) })) });
const out = [];
for (const steps of JSON.parse(process.argv[2])) {
  const local = memory();
  const session = memory();
  let storage = createStorage(() => local, () => session);
  const seen = [];
  for (const [op, ...args] of steps) {
    if (op === "tab") storage = createStorage(() => local, () => session);
    else if (op === "write") storage.writeMatch(save(args[0], args[1]), args[2]);
    else if (op === "file") {
      const list = JSON.parse(local.getItem(KEYS.finished) || "[]");
      list.push({ at: list.length, save: save(args[0], args[1]) });
      local.setItem(KEYS.finished, JSON.stringify(list));
    } else if (op === "open") seen.push(storage.openMatches().map((m) => m.seed));
    else if (op === "put_open") local.setItem(KEYS.open, JSON.stringify(args[0].map(([seed, n]) => ({ seed, at: 0, save: save(seed, n) }))));
    else if (op === "refuse") {  // the engine refused this kept save: the page sets it aside
      const kept = storage.openMatches().find((m) => m.seed === args[0]);
      storage.setAsideMatch(kept ? JSON.stringify(kept.save) : local.getItem(KEYS.match));
    } else if (op === "full") local.quota = local.used() + args[0];
    else if (op === "saved") seen.push(storage.writeMatch(save(args[0], args[1]), false));
    else if (op === "corrupt_key") local.setItem(KEYS.match, "{not json" + "x".repeat(2000));
    else if (op === "raw_key") seen.push(local.getItem(KEYS.match));
    else if (op === "current") {
      const m = storage.readMatch();
      seen.push(m.status === "ok" ? [m.save.seed, m.save.actions.length] : m.status);
    } else if (op === "aside") seen.push(JSON.parse(local.getItem(KEYS.aside) || "[]").map((s) => JSON.parse(s.raw).seed));
  }
  out.push(seen);
}
process.stdout.write(JSON.stringify(out));
"""


def run(scenarios: list) -> list:
    return run_web(SCRIPT, scenarios)


def test_a_match_left_unfinished_is_kept_and_a_finished_one_is_not():
    unfinished, otra_vez, link_from_the_end, other_tab = run([
        # "Nueva partida" in the middle of A (the menu's path): A is kept unfinished.
        [["write", "A", 3, False], ["write", "B", 0, False], ["open"]],
        # "Otra vez" at A's end: A is finished, not unfinished.
        [["write", "A", 3, False], ["write", "A", 9, True], ["write", "B", 0, False], ["open"]],
        # A link followed while A's end is on the table, finished.js having filed it.
        [["write", "A", 9, True], ["file", "A", 9], ["write", "B", 0, False], ["open"]],
        # Another tab (it never wrote A) finds A finished under the key: it is filed, not kept.
        [["write", "A", 9, True], ["file", "A", 9], ["tab", 2], ["write", "B", 0, False], ["open"]],
    ])
    assert unfinished == [["A"]]
    assert otra_vez == [[]]
    assert link_from_the_end == [[]]
    assert other_tab == [[]]


def test_eight_finished_matches_do_not_push_out_the_one_left_unfinished():
    steps = [["write", "LEFT", 5, False], ["write", "M0", 0, False]]  # LEFT kept for a link to M0
    for i in range(10):  # then ten matches played to their end, each followed by "Otra vez"
        steps += [["write", f"M{i}", 7, False], ["write", f"M{i}", 20, True], ["write", f"M{i + 1}", 0, False]]
    steps.append(["open"])
    assert run([steps]) == [[["LEFT"]]]


# A player with 50 replays kept and the day's match left unfinished plays another match: the
# reads of each key while its moves are saved, and the unfinished matches before and after.
MOVES_SAVED = """
const web = process.argv[1];
const { createStorage } = await import(web + "/data/storage.js");
const { KEYS } = await import(web + "/data/keys.js");
const { memory, save } = await import(web + "/../tests/webdata.mjs");
const local = memory();
const reads = {};
const getItem = local.getItem;
local.getItem = (k) => { reads[k] = (reads[k] || 0) + 1; return getItem(k); };
local.setItem(KEYS.finished, JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ at: i, save: save(`F${i}`, 90, { end: true }) }))));
local.setItem(KEYS.open, JSON.stringify([{ seed: "DAY", at: 0, save: save("DAY", 12) }]));
const storage = createStorage(() => local, () => memory());
storage.writeMatch(save("PLAY", 1), false);
const first = { ...reads };
for (let n = 2; n <= 30; n++) storage.writeMatch(save("PLAY", n), false);
const out = { replayReads: (reads[KEYS.finished] || 0) - (first[KEYS.finished] || 0), open: storage.openMatches().map((m) => m.seed) };
storage.writeMatch(save("DAY", 13), false);  // the day's match taken up again: off the list, PLAY on it
out.then = storage.openMatches().map((m) => m.seed);
out.current = storage.readMatch().save.seed;
process.stdout.write(JSON.stringify(out));
"""


def test_a_move_saved_reads_no_replay_while_another_match_is_left_unfinished():
    """Each move's save looked for its match among the unfinished ones through the list without the
    finished matches, which parsed every kept replay (some 370,000 characters with 50 kept) at every
    move of a player who had left the day's match unfinished. Now only a list that holds the seed
    is read that way; the list is what it was."""
    seen = run_web(MOVES_SAVED)
    assert seen["replayReads"] == 0, seen
    assert seen["open"] == ["DAY"]
    assert seen["then"] == ["PLAY"] and seen["current"] == "DAY"


def test_finished_matches_an_older_build_filed_as_unfinished_are_no_longer_listed():
    (seen,) = run([[
        ["put_open", [["OLD", 4], ["DONE1", 30], ["DONE2", 25]]],
        ["file", "DONE1", 30], ["file", "DONE2", 25],
        ["open"],
        ["write", "NEW", 1, False], ["write", "NEXT", 0, False],  # the list is written again
        ["open"],
    ]])
    assert seen == [["OLD"], ["OLD", "NEW"]]
    # A match with the same seed but more moves than the finished copy is still unfinished.
    (seen,) = run([[["put_open", [["X", 4]]], ["file", "X", 30], ["open"]]])
    assert seen == [["X"]]


def test_a_kept_match_the_engine_refuses_goes_aside_and_the_match_being_played_stays():
    # A is played, B was left for it; B's save cannot be read by this build (Partidas → B).
    (seen,) = run([[
        ["write", "B", 4, False], ["write", "A", 6, False],
        ["open"], ["refuse", "B"], ["current"], ["open"], ["aside"],
        # B starts again from its first deal: A joins the unfinished ones, nothing lost.
        ["write", "B", 0, False], ["open"],
    ]])
    assert seen == [["B"], ["A", 6], [], ["B"], ["A"]]
    # The match on the key refused (a reload): it goes aside and the key is freed for a new one.
    (seen,) = run([[["write", "A", 6, False], ["tab", 2], ["refuse", "A"], ["current"], ["aside"]]])
    assert seen == ["none", ["A"]]


def test_a_link_on_a_nearly_full_storage_never_replaces_the_match_it_could_not_keep():
    (seen,) = run([[
        ["write", "A", 40, False],
        ["full", 200],  # room for a few more characters, not for A's copy among the unfinished
        ["saved", "LINK", 0], ["current"], ["open"],
        # A's own moves still save where they fit.
        ["saved", "A", 41], ["current"],
    ]])
    assert seen == [False, ["A", 40], [], True, ["A", 41]]
    # An unreadable value on the key that cannot be kept aside is not overwritten either.
    (seen,) = run([[["write", "A", 40, False], ["tab", 2], ["corrupt_key"], ["full", 50], ["saved", "LINK", 0], ["raw_key"]]])
    assert seen == [False, "{not json" + "x" * 2000]


FINISHED_SCRIPT = """
const web = process.argv[1];
const { createStorage } = await import(web + "/data/storage.js");
const { createFinished, NotSaved } = await import(web + "/data/finished.js");
const { memory } = await import(web + "/../tests/webdata.mjs");
const local = memory();
const storage = createStorage(() => local, () => null);
// The engine's `stats` for a save: one ended deal, lost by the human.
const deal = (save) => ({ kind: "deal", seed: save.seed, deal: 1, actions: save.actions.length, level: "easy", profile: "traditional",
  matches: 0, won: 0, lost: 0, drawn: 0, deals: 1, deals_won: 0, gins: 0, big_gins: 0, knocks: 0, undercuts_made: 0,
  undercuts_suffered: 0, knock_count: 0, knock_deadwood: 0 });
const fin = createFinished(storage, async (method, { saves }) => ({ counted: 0, records: [deal(saves[0])] }));
const save = (seed) => ({ version: 1, seed, rules: { profile: "traditional", options: {} }, level: "easy", actions: [{ type: "pass" }, { type: "pass" }] });
const out = [];
const outcome = (p) => p.then((n) => ["counted", n], (e) => [e instanceof NotSaved ? "not_saved" : "other", e.key || String(e)]);
out.push(await outcome(fin.count(save("ROOM-0001"))));
local.quota = local.used() + 20;  // no room for another line
out.push(await outcome(fin.count(save("FULL-0002"))));
out.push(fin.records().map((r) => r.seed));
process.stdout.write(JSON.stringify(out));
"""


def test_statistics_that_cannot_be_written_are_told_not_dropped_in_silence():
    first, full, kept = run_web(FINISHED_SCRIPT)
    assert first == ["counted", 1]
    assert full == ["not_saved", "storage.stats_full"]  # the page shows this key as a notice (i18n.js)
    assert kept == ["ROOM-0001"]
    words = (WEB / "text" / "i18n.js").read_text()
    assert words.count('"storage.stats_full":') == 2  # Spanish and English


# --- paths 4, 5, 8 and 9: data/finished.js over the same in-memory storage (tests/webdata.mjs) -------

DATA_PRELUDE = """
const web = process.argv[1];
const args = JSON.parse(process.argv[2]);
const { memory, save, engine } = await import(web + "/../tests/webdata.mjs");
const { createStorage } = await import(web + "/data/storage.js");
const { createFinished, KEEP, RECENT_LINES } = await import(web + "/data/finished.js");
const { KEYS } = await import(web + "/data/keys.js");
const local = memory();
const tab = (eng = engine()) => { const storage = createStorage(() => local, () => null); return { storage, fin: createFinished(storage, eng.call) }; };
const stored = (key) => JSON.parse(local.getItem(key));
const asideKeys = () => (stored(KEYS.aside) || []).map((s) => s.key);
const out = {};
"""


def run_data(body: str, args=None):
    return run_web(DATA_PRELUDE + body + "\nprocess.stdout.write(JSON.stringify(out));", args)


def test_path4_an_older_build_keeps_the_lines_and_totals_a_newer_one_wrote():
    out = run_data("""
const { fin, storage } = tab();
await fin.count(save("A", 10));
// A newer build added a rule profile and wrote a line of it, then moved its totals to version 3.
const line = { ...stored(KEYS.records)[0], id: "deal1:NEW", seed: "N", profile: "future-rules", extra: [1, 2] };
local.setItem(KEYS.records, JSON.stringify([line, ...stored(KEYS.records)]));
const newer = JSON.stringify({ version: 3, shape: "unknown here", ids: ["x"] });
local.setItem(KEYS.totals, newer);
await fin.count(save("A", 20));
out.lines = stored(KEYS.records).map((r) => r.id.split(":")[0] + ":" + r.seed);
out.foreignKept = JSON.stringify(stored(KEYS.records)[0]) === JSON.stringify(line);
out.totalsKept = local.getItem(KEYS.totals) === newer;
out.aside = asideKeys();
out.shown = fin.records().map((r) => r.seed);
// Borrar removes them on the player's word; an import's sums are not merged into the newer totals.
// Totals of version 1 with a group of the newer profile: folding more lines keeps that group.
local.setItem(KEYS.totals, JSON.stringify({ version: 1, groups: { "easy|future-rules": { matches: 1, won: 1, lost: 0, drawn: 0, deals: 3, deals_won: 2, gins: 1, big_gins: 0, knocks: 1, undercuts_made: 0, undercuts_suffered: 0, knock_deadwood: 4, knock_count: 2 } }, best: {}, streaks: {}, ids: [], until: 0 }));
const many = Array.from({ length: RECENT_LINES }, (_, i) => ({ ...stored(KEYS.records)[1], id: `deal1:F${i}`, seed: `F${i}` }));
local.setItem(KEYS.records, JSON.stringify(many));
await fin.count(save("B", 10));
out.foldedGroups = Object.keys(stored(KEYS.totals).groups).sort();
out.asideAfter = asideKeys();
""")
    assert out["lines"] == ["deal1:N", "deal1:A", "deal2:A"]
    assert out["foreignKept"] and out["totalsKept"]
    assert out["aside"] == []  # not unreadable: newer
    assert out["shown"] == ["A", "A"]  # this build shows what it knows
    assert out["foldedGroups"] == ["easy|future-rules", "easy|standard"]
    assert out["asideAfter"] == []


def test_path4_a_newer_format_is_never_rewritten_by_any_write_of_this_build():
    out = run_data("""
const { storage } = tab();
const { keepDuplicate } = await import(web + "/data/duplicates.js");
const newer = JSON.stringify({ version: 7, records: "elsewhere" });
local.setItem(KEYS.duplicate, newer);
const record = { seed: "A", deal: 1, actions: 10, match: "A:10:x", level: "easy", profile: "standard", player: 20, hard: 10 };
out.kept = await keepDuplicate(storage, async () => ({}), record);
out.written = storage.writeJson(KEYS.duplicate, { version: 1, records: [], totals: null });
out.same = local.getItem(KEYS.duplicate) === newer;
out.aside = asideKeys();
""")
    assert out == {"kept": False, "written": False, "same": True, "aside": []}


def test_path5_the_kept_order_is_the_stored_one_whatever_the_clock_says():
    out = run_data("""
const { fin, storage } = tab();
const T0 = 1_800_000_000_000;
for (let i = 0; i < KEEP; i++) await fin.count(save(`K${i}`, 10, { end: true }), T0 + i * 60_000);
// The clock is set back a year: the match just finished is kept, the oldest kept goes.
await fin.count(save("BACK", 10, { end: true }), T0 - 365 * 86_400_000);
const seeds = fin.matches().map((m) => m.save.seed);
out.first = seeds[0]; out.last = seeds[seeds.length - 1]; out.n = seeds.length;
// Storage full: the replay dropped for room is the oldest kept, not the one with the earliest clock.
local.quota = local.used() + 50;
storage.writeJson(KEYS.settings, { pad: "x".repeat(400) });
out.afterEvict = fin.matches().map((m) => m.save.seed).slice(0, 1).concat(fin.matches().map((m) => m.save.seed).slice(-1));
out.streakOrder = fin.records().filter((r) => r.kind === "match").slice(-1).map((r) => r.seed);
""")
    assert out["n"] == 50 and out["first"] == "K1" and out["last"] == "BACK"
    assert out["afterEvict"] == ["K2", "BACK"]
    assert out["streakOrder"] == ["BACK"]  # counted last, summed last


def test_path5_an_import_refuses_a_bad_entry_alone_never_the_whole_file():
    out = run_data("""
const { fin } = tab();
const { ImportRefused } = await import(web + "/data/finished.js");
const now = Date.now();
const file = { format: "gin-local-data", version: 2, records: [], matches: [
  { at: now + 400 * 86_400_000, save: save("AHEAD", 10, { end: true }) },  // its clock was ahead
  { at: now - 1000, save: save("GOOD", 20, { end: true }) },
  { at: now - 2000, save: { ...save("BROKEN", 10, { end: true }), broken: true } },
] };
const done = await fin.importData(file);
out.done = { matches: done.matches, refused: done.refused, refusal: done.refusal };
out.kept = fin.matches().map((m) => m.save.seed);
out.lines = fin.records().map((r) => r.seed);
// A file whose only entry is refused is refused with that entry's reason, and nothing changes.
const before = local.getItem(KEYS.finished);
try { await fin.importData({ ...file, matches: [file.matches[0]] }); out.alone = "imported"; }
catch (e) { out.alone = e instanceof ImportRefused ? [e.key, e.vars] : String(e); }
out.same = local.getItem(KEYS.finished) === before;
""")
    assert out["done"] == {"matches": 1, "refused": 2, "refusal": {"key": "data.future_match", "vars": {"n": 1}}}
    assert out["kept"] == ["GOOD"] and out["lines"] == ["GOOD", "GOOD", "GOOD"]
    assert out["alone"] == ["data.future_match", {"n": 1}] and out["same"]


def test_path8_a_reconcile_never_writes_back_what_it_read_before_its_awaits():
    out = run_data("""
// Tab A reconciles a kept match without lines; while the engine answers it,
// tab B counts a deal of its own match.
let open;
const gate = new Promise((r) => { open = r; });
const a = tab(engine({ gate: () => gate }));
const b = tab();
local.setItem(KEYS.finished, JSON.stringify([{ at: 1, save: save("KEPT", 10, { end: true }) }]));
const reconciling = a.fin.reconcile();
await b.fin.count(save("B", 10));
open();
out.added = await reconciling;
out.lines = b.fin.records().map((r) => `${r.kind}:${r.seed}`).sort();
""")
    assert out["added"] == 2
    assert out["lines"] == ["deal:B", "deal:KEPT", "match:KEPT"]


def test_path8_the_shared_collections_are_written_inside_one_web_lock():
    out = run_data("""
// A Web Locks stand-in that records who holds "gin.data" and when each section writes.
const held = [];
const log = [];
let chain = Promise.resolve();
const locks = { request(name, fn) { const run = chain.then(async () => { held.push(name); try { return await fn(); } finally { held.pop(); } }); chain = run.catch(() => {}); return run; } };
const storage = createStorage(() => ({ ...local, setItem(k, v) { log.push([k, held.includes("gin.data")]); return local.setItem(k, v); }, getItem: local.getItem, removeItem: local.removeItem, key: local.key, get length() { return local.length; } }), () => null, locks);
const fin = createFinished(storage, engine().call);
log.length = 0;
await fin.count(save("A", 10, { end: true }));
out.log = log;
""")
    assert out["log"] and all(locked for key, locked in out["log"] if key != "gin.probe")


def test_path9_borrar_is_not_undone_by_resuming_a_kept_match():
    out = run_data("""
const { fin, storage } = tab();
storage.writeMatch(save("LEFT", 25), false);
await fin.count(save("LEFT", 25));           // two deals of LEFT counted
storage.writeMatch(save("NOW", 12), false);  // LEFT kept unfinished for NOW (a link)
await fin.count(save("NOW", 12));
out.before = fin.records().length;
out.cleared = fin.clear(save("NOW", 12));
// Partidas -> Seguir la partida LEFT, played on to its third deal; a reload counts NOW again.
await fin.count(save("LEFT", 31));
await fin.count(save("NOW", 12));
out.after = fin.records().map((r) => `${r.seed}:${r.deal}`);
// An older build's cleared ids (gin.cleared.v1) still count as cleared.
const old = tab();
local.clear = () => [...local.map.keys()].forEach((k) => local.map.delete(k));
local.clear();
await old.fin.count(save("OLD", 10));
local.setItem(KEYS.clearedV1, JSON.stringify(old.fin.records().map((r) => r.id)));
local.removeItem(KEYS.records);
await old.fin.count(save("OLD", 20));
out.legacy = old.fin.records().map((r) => `${r.seed}:${r.deal}`);
""")
    assert out["before"] == 3 and out["cleared"]
    assert out["after"] == ["LEFT:3"]
    assert out["legacy"] == ["OLD:2"]


def test_item11_without_web_locks_two_tabs_never_both_play_one_match():
    # Plain HTTP on a LAN address: no navigator.locks; the tabs talk over a BroadcastChannel.
    out = run_web("""
const web = process.argv[1];
const { createTabs } = await import(web + "/data/tabs.js");
const members = new Set();
function channel() {  // one origin's BroadcastChannel: a message reaches every other member, later
  const me = { onmessage: null, postMessage(data) { for (const m of members) if (m !== me) setTimeout(() => m.onmessage && m.onmessage({ data: structuredClone(data) }), 1); } };
  members.add(me);
  return me;
}
const lost = [];
const tab = (name) => createTabs({ locks: null, channel, onLost: (seed) => lost.push([name, seed]) });
const a = tab("a"), b = tab("b");
const out = { guard: a.guard };
out.first = await a.claim("S");
out.second = await b.claim("S");
out.owners = [a.owns(), b.owns()];
out.stolen = await b.claim("S", { steal: true });
await new Promise((r) => setTimeout(r, 20));
out.afterSteal = [a.owns(), b.owns()];
out.lost = lost;
out.other = await a.claim("T");
// Two fresh tabs asking for one match at the same moment: exactly one plays it.
const c = tab("c"), d = tab("d");
out.together = (await Promise.all([c.claim("U"), d.claim("U")])).filter(Boolean).length;
out.none = createTabs({ locks: null, channel: () => null }).guard;
process.stdout.write(JSON.stringify(out));
""")
    assert out["guard"] == "channel"
    assert out["first"] is True and out["second"] is False and out["owners"] == [True, False]
    assert out["stolen"] is True and out["afterSteal"] == [False, True] and out["lost"] == [["a", "S"]]
    assert out["other"] is True
    assert out["together"] == 1
    assert out["none"] == "none"
    words = (WEB / "text" / "i18n.js").read_text()
    assert words.count('"storage.insecure":') == 2 and 'notify("storage.insecure"' in (WEB / "app.js").read_text()


# --- 13 (review): the summed lines' digests are bounded, and no line is ever counted twice ---------

TOTALS_FIXTURE = Path(__file__).parent / "fixtures" / "stored" / "287f3da-totals" / "localStorage.json"


def test_the_summed_digests_stay_bounded_and_no_line_comes_back_twice():
    out = run_data("""
const finished = await import(web + "/data/finished.js");
const MAX = finished.MAX_DIGESTS ?? 2000;
const { fin } = tab();
const T0 = 1_796_000_000_000;
const deals = () => finished.summarize(fin.records(), {}, fin.totals()).deals;
// A match left unfinished after 10 deals, kept in the unfinished list.
await fin.count(save("OPEN", 100), T0);
local.setItem(KEYS.open, JSON.stringify([{ seed: "OPEN", at: T0, save: save("OPEN", 100) }]));
// Three finished matches, exported now, and later gone from the 50 kept.
for (let i = 0; i < 3; i++) await fin.count(save(`OLD${i}`, 50, { end: true }), T0 + 1 + i);
const early = fin.exportData({});
local.setItem(KEYS.finished, "[]");
// Then 4,200 lines of 420 matches played since (one deal line each here), and one more deal:
// all but the last 2,000 lines are summed.
const deal = fin.records()[0];
const since = Array.from({ length: 4200 }, (_, i) => ({ ...deal, id: `deal${1 + (i % 10)}:F${Math.floor(i / 10)}:${i}`, seed: `F${Math.floor(i / 10)}`, at: T0 + 100 + i }));
local.setItem(KEYS.records, JSON.stringify([...fin.records(), ...since]));
await fin.count(save("LAST", 10), T0 + 5000);
const t = stored(KEYS.totals);
// Version 1 kept a flat list of every digest, of no known match.
out.loose = t.version === 1 ? t.ids.length : t.ids.filter((g) => g[0] !== "OPEN").reduce((n, g) => n + g[2].length / 12, 0);
out.max = MAX;
out.forgotten = t.forgotten > 0;
out.deals = deals();
// The unfinished match resumed: its summed deals are known, only the new one counts.
out.resumed = await fin.count(save("OPEN", 110), T0 + 6000);
// The early export imported again: its lines' digests went, so they are refused, not counted twice.
const before = deals();
try {
  const done = await fin.importData(early);
  out.imported = [done.records, done.refusal && done.refusal.key];
} catch (e) {
  out.imported = [0, e.key || String(e)]; // nothing new in it: refused with the first reason
}
out.sameDeals = deals() === before;
out.keptOld = fin.matches().map((m) => m.save.seed);
out.reconciled = await fin.reconcile();
""")
    assert out["loose"] <= out["max"], f"{out['loose']} digests of matches no longer here (at most {out['max']})"
    assert out["forgotten"] is True
    assert out["deals"] == 10 + 3 * 5 + 4200 + 1
    assert out["resumed"] == 1
    assert out["imported"] == [0, "data.old_record"]
    assert out["sameDeals"] is True
    assert out["keptOld"] == [] and out["reconciled"] == 0, "an old match kept, to be counted again"


def test_totals_of_build_287f3da_keep_their_figures_and_digests():
    # Version 1 of gin.totals.v1 as build 287f3da stored it (make_totals.mjs): matches S0..S19 of
    # 30 moves summed, 3 deals each (the odd ones won by a gin), each match won 100 to 20.
    fixture = json.loads(TOTALS_FIXTURE.read_text())
    out = run_data("""
const { summarize } = await import(web + "/data/finished.js");
local.setItem(KEYS.totals, args["gin.totals.v1"]);
const { fin } = tab();
const all = () => summarize(fin.records(), {}, fin.totals());
const s = all();
out.figures = [s.matches, s.won, s.deals, s.deals_won, s.gins, s.best_match.totals, s.best_streak];
out.again = await fin.count(save("S7", 30, { end: true }), 1_796_000_001_000);
// 2,000 more lines: the oldest are summed and the totals written in this build's format.
out.fresh0 = await fin.count(save("NEW0", 30, { end: true }), 1_796_000_001_500);
const line = fin.records()[0];
local.setItem(KEYS.records, JSON.stringify(Array.from({ length: RECENT_LINES }, (_, i) => ({ ...line, id: `deal1:F${i}`, seed: `F${i}`, at: 1_796_000_002_000 + i }))));
out.fresh = await fin.count(save("NEW1", 30, { end: true }), 1_796_000_009_000);
const t = stored(KEYS.totals);
out.version = t.version;
out.old = t.ids.filter((g) => g[0] === "").map((g) => g[2].length / 12);
out.after = [all().matches, all().deals];
out.againAfter = await fin.count(save("S19", 30, { end: true }), 1_796_000_010_000);
out.aside = asideKeys();
""", fixture)
    assert out["figures"] == [20, 20, 60, 40, 40, [100, 20], 20]
    assert out["again"] == 0, "a line summed by the older build was counted again"
    assert out["fresh0"] == 4 and out["fresh"] == 4 and out["version"] == 2 and out["old"] == [80]
    # S0..S19 and NEW1 (NEW0's lines were replaced by the 2,000 one-deal lines): 60 + 2,000 + 3 deals.
    assert out["after"] == [21, 60 + 2000 + 3]
    assert out["againAfter"] == 0 and out["aside"] == []
