"""The page's storage module (web/data/storage.js) run in Node over an in-memory localStorage:
a finished match is never filed among the unfinished ones, so finished matches cannot push out
a match the player left unfinished (issue 36, path 1)."""

from __future__ import annotations

import json

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
function memory() {
  const m = new Map();
  const used = () => [...m].reduce((n, [k, v]) => n + k.length + v.length, 0);
  return {
    quota: Infinity,  // characters, keys and values, as browsers count them
    used,
    getItem: (k) => (m.has(k) ? m.get(k) : null),
    setItem(k, v) {
      const before = m.get(k);
      m.set(k, String(v));
      if (used() > this.quota) {
        if (before === undefined) m.delete(k); else m.set(k, before);
        throw new Error("QuotaExceededError");
      }
    },
    removeItem: (k) => void m.delete(k),
    key: (i) => [...m.keys()][i] ?? null,
    get length() { return m.size; },
  };
}
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
const m = new Map();
const used = () => [...m].reduce((n, [k, v]) => n + k.length + v.length, 0);
const local = {
  quota: Infinity,
  getItem: (k) => (m.has(k) ? m.get(k) : null),
  setItem(k, v) {
    const before = m.get(k);
    m.set(k, String(v));
    if (used() > this.quota) { if (before === undefined) m.delete(k); else m.set(k, before); throw new Error("QuotaExceededError"); }
  },
  removeItem: (k) => void m.delete(k),
  key: (i) => [...m.keys()][i] ?? null,
  get length() { return m.size; },
};
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
local.quota = used() + 20;  // no room for another line
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
