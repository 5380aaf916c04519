"""The page's side of the engine worker (web/runtime/engine.js) in Node, with a fake Worker and
a fake clock: the watchdog tells a busy engine from a dead one, every call settles after a
failed start, and an engine of another build is refused at the handshake (issue 36, items 10
and 13)."""

from __future__ import annotations

from webnode import run_web

# A fake Worker the test drives (post: what the worker says), a clock whose timers run
# when the test advances it, and the engine module loaded over them.
HARNESS = r"""
const web = process.argv[1];
const timers = [];
let now = 0;
globalThis.performance = { now: () => now, timeOrigin: 0 };
globalThis.setTimeout = (fn, ms) => { const t = { at: now + (ms || 0), fn, live: true }; timers.push(t); return t; };
globalThis.clearTimeout = (t) => { if (t) t.live = false; };
async function advance(ms) {
  const end = now + ms;
  for (;;) {
    const due = timers.filter((t) => t.live && t.at <= end).sort((a, b) => a.at - b.at)[0];
    if (!due) break;
    now = due.at; due.live = false; due.fn();
    await new Promise((r) => setImmediate(r));
  }
  now = end;
  await new Promise((r) => setImmediate(r));
}
const workers = [];
class FakeWorker {
  constructor() { this.listeners = { message: [], error: [] }; this.sent = []; this.terminated = false; workers.push(this); }
  addEventListener(type, fn) { this.listeners[type].push(fn); }
  removeEventListener() {}
  postMessage(m) { this.sent.push(m); }
  terminate() { this.terminated = true; }
  say(data) { for (const fn of this.listeners.message) fn({ type: "message", data }); }
}
globalThis.Worker = FakeWorker;
const { createEngine } = await import(new URL("runtime/engine.js", web + "/"));
const settle = (p) => p.then((v) => ({ ok: v }), (e) => ({ code: e.code || String(e) }));
"""


def run(body: str):
    return run_web(HARNESS + body)


def test_a_busy_engine_is_not_taken_for_a_dead_one():
    out = run(r"""
const dead = [];
const engine = createEngine({ workerUrl: "x", build: "B1", onDead: (d) => dead.push(d) });
const w = workers[0];
w.say({ type: "ready", timings: { build: "B1" } });
await engine.ready;
const load = settle(engine.call("load", { save: {} }));
const view = settle(engine.call("view", {}));
w.say({ type: "busy", id: 1 });           // the worker began the load: a long one
await advance(60_000);                      // 60 s busy: four times the old 15 s limit
const busyAt60 = { dead: dead.length, terminated: w.terminated };
w.say({ id: 1, ok: true, result: { ok: true, view: 1 } });
w.say({ type: "busy", id: 2 });
w.say({ id: 2, ok: true, result: { ok: true, view: 2 } });
const answers = [await load, await view];
// A worker that never begins a call (dead) is found after 15 s of silence.
const lost = settle(engine.call("view", {}));
await advance(14_000);
const at14 = dead.length;
await advance(1_500);
console.log(JSON.stringify({ busyAt60, answers, at14, dead, lost: await lost, terminated: w.terminated }));
""")
    assert out["busyAt60"] == {"dead": 0, "terminated": False}, out
    assert out["answers"] == [{"ok": {"ok": True, "view": 1}}, {"ok": {"ok": True, "view": 2}}], out
    assert out["at14"] == 0 and len(out["dead"]) == 1 and "silent" in out["dead"][0], out
    assert out["lost"] == {"code": "engine_dead"} and out["terminated"] is True, out


def test_a_call_busy_past_its_limit_counts_as_stuck():
    out = run(r"""
const dead = [];
const engine = createEngine({ workerUrl: "x", build: "B1", onDead: (d) => dead.push(d) });
const w = workers[0];
w.say({ type: "ready", timings: { build: "B1" } });
await engine.ready;
const call = settle(engine.call("replay", {}));
w.say({ type: "busy", id: 1 });
await advance(119_000);
const before = dead.length;
await advance(2_000);
console.log(JSON.stringify({ before, dead, call: await call }));
""")
    assert out["before"] == 0 and len(out["dead"]) == 1 and "replay busy" in out["dead"][0], out
    assert out["call"] == {"code": "engine_dead"}, out


def test_every_call_settles_after_a_failed_start():
    out = run(r"""
const engine = createEngine({ workerUrl: "x", build: "B1" });
const w = workers[0];
const early = settle(engine.call("view", {}));           // before the start ended
w.say({ type: "boot_error", stage: "runtime", code: "boot_failed", detail: "x" });
const ready = await settle(engine.ready);
const late = settle(engine.call("view", {}));            // after it failed
await advance(200_000);
console.log(JSON.stringify({ ready, early: await early, late: await Promise.race([late, new Promise((r) => setImmediate(() => r("pending")))]) }));
""")
    assert out["ready"] == {"code": "boot_failed"}, out
    assert out["early"] == {"code": "not_ready"}, out
    assert out["late"] == {"code": "not_ready"}, out


def test_an_engine_of_another_build_is_refused_at_the_handshake():
    out = run(r"""
const engine = createEngine({ workerUrl: "x", build: "PAGE" });
const w = workers[0];
w.say({ type: "ready", timings: { build: "NEWER" } });
const ready = await settle(engine.ready);
const call = await settle(engine.call("view", {}));
const same = createEngine({ workerUrl: "x", build: "PAGE" });
workers[1].say({ type: "ready", timings: { build: "PAGE" } });
console.log(JSON.stringify({ ready, call, terminated: w.terminated, sent: w.sent.length, same: Object.keys((await same.ready).timings).includes("build") }));
""")
    assert out["ready"] == {"code": "other_build"}, out
    assert out["call"] == {"code": "not_ready"} and out["terminated"] is True and out["sent"] == 0, out
    assert out["same"] is True, out


def test_an_engine_of_another_build_is_refused_at_its_first_word():
    # The worker's first word names its build: another build's worker is stopped there, before its
    # start downloads and restores the runtime (a phone's seconds and megabytes for nothing).
    out = run(r"""
const engine = createEngine({ workerUrl: "x", build: "PAGE" });
const w = workers[0];
w.say({ type: "progress", stage: "runtime", build: "NEWER" });
const soon = (p) => Promise.race([p, new Promise((r) => setImmediate(() => r("pending")))]);
const ready = await soon(settle(engine.ready));
const same = createEngine({ workerUrl: "x", build: "PAGE" });
workers[1].say({ type: "progress", stage: "runtime", build: "PAGE" });
const going = await soon(settle(same.ready));
workers[1].say({ type: "ready", timings: { build: "PAGE" } });
console.log(JSON.stringify({ ready, terminated: w.terminated, going, same: Object.keys((await settle(same.ready)).ok || {}), sameTerminated: workers[1].terminated }));
""")
    assert out["ready"] == {"code": "other_build"} and out["terminated"] is True, out
    assert out["going"] == "pending" and out["same"] == ["timings"] and out["sameTerminated"] is False, out


def test_a_start_that_hangs_after_its_first_word_fails_with_the_retry_screen():
    # The worker says "runtime" (its script runs) and then nothing: a fetch nobody answers, a
    # restore that never returns. The page must not wait forever on the loading screen: the
    # start fails (the page offers "Reintentar"), the hung worker is stopped, every call settles.
    # A start that keeps talking (each stage within the limit) is not cut short.
    out = run(r"""
const START_STALL_MS = (await import(new URL("runtime/engine.js", web + "/"))).START_STALL_MS ?? 120_000;
const engine = createEngine({ workerUrl: "x", build: "B1" });
const w = workers[0];
w.say({ type: "progress", stage: "runtime" });
const ready = settle(engine.ready);
const waiting = settle(engine.call("load", { save: {} }));
await advance(START_STALL_MS - 1_000);
const soon = (p) => Promise.race([p, new Promise((r) => setImmediate(() => r("pending")))]);
const pending = await soon(ready);
await advance(2_000);
const slow = createEngine({ workerUrl: "x", build: "B1" });
const s = workers[1];
s.say({ type: "progress", stage: "runtime" });
await advance(START_STALL_MS - 1_000);
s.say({ type: "progress", stage: "installer" });
await advance(START_STALL_MS - 1_000);
s.say({ type: "ready", timings: { build: "B1" } });
console.log(JSON.stringify({ limit: START_STALL_MS, pending, ready: await soon(ready), waiting: await soon(waiting), terminated: w.terminated,
  slow: Object.keys((await soon(settle(slow.ready))).ok || {}), slowTerminated: s.terminated }));
""")
    assert 60_000 <= out["limit"] <= 180_000, out
    assert out["pending"] == "pending", out
    assert out["ready"] == {"code": "stalled"}, out
    assert out["waiting"] == {"code": "not_ready"} and out["terminated"] is True, out
    assert out["slow"] == ["timings"] and out["slowTerminated"] is False, out
