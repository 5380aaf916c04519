"""The table last shown, kept beside the save (web/data/storage.js, KEYS.shown; issue 33), run in
Node over an in-memory localStorage: what is written reads back; an unreadable, foreign-version,
malformed or oversized copy reads as nothing (it is never drawn); a tab that does not own the
match never writes it."""

from __future__ import annotations

from webnode import run_web

SCRIPT = """
const web = process.argv[1];
const { createStorage, MAX_SHOWN_CHARS } = await import(web + "/data/storage.js");
const { KEYS } = await import(web + "/data/keys.js");
const m = new Map();
const local = {
  getItem: (k) => (m.has(k) ? m.get(k) : null),
  setItem: (k, v) => void m.set(k, String(v)),
  removeItem: (k) => void m.delete(k),
  key: (i) => [...m.keys()][i] ?? null,
  get length() { return m.size; },
};
const view = { seed: "K7Q2-M9XD", hand: ["AS", "2S"], discard: ["9H"], history: [], events: [], legal: [],
               phase: "draw", rules: { profile: "standard" }, deal_number: 1, to_act: 0, scores: [0, 0],
               opponent: { count: 10, known: [] } };
const storage = createStorage(() => local);
const out = {};
out.written = storage.writeShown("K7Q2-M9XD", 3, view);
out.read = storage.readShown();
const put = (text) => { m.set(KEYS.shown, text); return storage.readShown(); };
const good = JSON.parse(m.get(KEYS.shown));
out.unreadable = put('{"version": 1, "seed"');
out.version = put(JSON.stringify({ ...good, version: 2 }));
out.actions = put(JSON.stringify({ ...good, actions: "3" }));
out.otherSeed = put(JSON.stringify({ ...good, view: { ...view, seed: "OTRA-0001" } }));
out.noHand = put(JSON.stringify({ ...good, view: { ...view, hand: "AS" } }));
out.noOpponent = put(JSON.stringify({ ...good, view: { ...view, opponent: null } }));
out.huge = put(JSON.stringify({ ...good, view: { ...view, pad: "x".repeat(MAX_SHOWN_CHARS) } }));
out.bigWrite = storage.writeShown("K7Q2-M9XD", 3, { ...view, pad: "x".repeat(MAX_SHOWN_CHARS) });
m.set(KEYS.shown, "kept");
storage.setOwner(() => false);
out.notOwner = storage.writeShown("K7Q2-M9XD", 4, view);
out.left = m.get(KEYS.shown);
console.log(JSON.stringify(out));
"""


def test_the_table_last_shown_is_kept_checked_and_guarded():
    out = run_web(SCRIPT)
    assert out["written"] is True
    assert out["read"]["seed"] == "K7Q2-M9XD" and out["read"]["actions"] == 3
    assert out["read"]["view"]["hand"] == ["AS", "2S"]
    for spoiled in ("unreadable", "version", "actions", "otherSeed", "noHand", "noOpponent", "huge"):
        assert out[spoiled] is None, spoiled
    assert out["bigWrite"] is False
    assert out["notOwner"] is False and out["left"] == "kept"


NO_EVICTION = """
const web = process.argv[1];
const { createStorage } = await import(web + "/data/storage.js");
const { KEYS } = await import(web + "/data/keys.js");
const m = new Map();
let quota = Infinity;
const used = () => [...m].reduce((n, [k, v]) => n + k.length + v.length, 0);
const local = {
  getItem: (k) => (m.has(k) ? m.get(k) : null),
  setItem(k, v) { const before = m.get(k); m.set(k, String(v)); if (used() > quota) { if (before === undefined) m.delete(k); else m.set(k, before); throw new Error("QuotaExceededError"); } },
  removeItem: (k) => void m.delete(k),
  key: (i) => [...m.keys()][i] ?? null,
  get length() { return m.size; },
};
const view = { seed: "K7Q2-M9XD", hand: ["AS"], discard: [], history: [], events: [], legal: [], phase: "draw",
               rules: {}, deal_number: 1, to_act: 0, scores: [0, 0], opponent: { count: 10, known: [] }, pad: "x".repeat(500) };
const storage = createStorage(() => local);
m.set(KEYS.finished, JSON.stringify([{ at: 1, save: { seed: "OLD-0001", actions: [] } }]));
quota = used() + 100;  // room for a little, not for the view
const out = { written: storage.writeShown("K7Q2-M9XD", 1, view), finished: JSON.parse(m.get(KEYS.finished)).length,
              writable: storage.writable };
quota = Infinity;
m.set(KEYS.shown, JSON.stringify({ version: 2, seed: "K7Q2-M9XD", actions: 1, view }));
out.overNewer = storage.writeShown("K7Q2-M9XD", 1, view);
out.newerKept = JSON.parse(m.get(KEYS.shown)).version;
out.newerRead = storage.readShown();
console.log(JSON.stringify(out));
"""


def test_the_copy_never_makes_room_by_dropping_a_replay_nor_overwrites_a_newer_format():
    out = run_web(NO_EVICTION)
    assert out["written"] is False and out["finished"] == 1  # the kept replay stays
    assert out["writable"] is True  # the page does not say it cannot save
    assert out["overNewer"] is False and out["newerKept"] == 2 and out["newerRead"] is None
