// Difícil with your cards (issue 32): when a deal ends, the same deal is
// played again with Difícil in the player's seat (the bridge's `duplicate`)
// and the deal result shows both lines when the answer comes ("Tú: +8 ·
// Difícil con tus cartas: +21"). It runs on an extra engine worker of its
// own (runtime's REVIEW_ROLE, as the viewer's review: booted from the cached
// snapshot), never on the page's engine: that one answers one call at a
// time, and a replay queued there (385 ms median, 677 ms p99 in Pyodide on
// this machine, four times that on a phone: bench/README.md) would hold the
// player's next move behind it. Without an extra engine (no cached snapshot
// yet, no module workers) the line is not shown and the next deal tries
// again. What the panel shows of it: table/panels.js; its words:
// text/luck-words.js.

import { guided } from "./tutorial.js";

// The extra engine stays up between deals (a deal takes a minute or two, and
// a boot costs a second or more of CPU), and goes LINGER_MS after its last
// answer, so an idle page holds no second worker's memory (some 120 MB).
const LINGER_MS = 5 * 60_000;

// The module's state:
//   engine   the extra engine ({ready, call, terminate}: runtime/engine.js), or null
//   linger   the timer that ends it
//   asked    the last deal asked ("seed:deal:actions"): one replay per deal result
const luck = { engine: null, linger: null, asked: "" };

function engineOf(makeEngine) {
  clearTimeout(luck.linger);
  if (!luck.engine) {
    try {
      luck.engine = makeEngine();
    } catch {
      return null;
    }
  }
  return luck.engine;
}

function endEngine(engine) {
  if (luck.engine !== engine) return;
  luck.engine = null;
  clearTimeout(luck.linger);
  engine.terminate();
}

// The deal result in state.ui.result has just been shown (a deal ended, or
// a reload opened a result not closed yet): Difícil plays it again in the
// background. state.ui.duplicate is {seed, deal, points, played, replayed}
// (points null until the answer; `failed` if there is none); onRecord(record)
// receives the engine's record of it. render() once it is known.
export function askDuplicate({ makeEngine, later = async () => {}, state, render, onRecord = () => {} }) {
  const result = state.ui.result;
  const save = state.save;
  if (!result || !save || !state.view || guided(state) || !Array.isArray(save.actions)) return;
  const seed = state.view.seed;
  const deal = result.number;
  const key = `${seed}:${deal}:${save.actions.length}`;
  if (luck.asked === key) return;
  luck.asked = key;
  const shown = { seed, deal, points: null, played: null, replayed: null, failed: false };
  state.ui.duplicate = shown;
  const ask = () => {
    const engine = engineOf(makeEngine);
    if (!engine) {
      shown.failed = true;
      return render();
    }
    engine.ready
      .then(() => engine.call("duplicate", { save, deal }))
      .then((answer) => {
        Object.assign(shown, { points: answer.points, played: answer.played, replayed: answer.replayed });
        onRecord(answer.record);
        luck.linger = setTimeout(() => endEngine(engine), LINGER_MS);
      })
      .catch((err) => {
        // No extra engine before the snapshot is cached (a first visit): no
        // fault, the line is not shown and the next deal's end tries again.
        if (!(err && err.name === "BootError" && err.code === "no_snapshot")) console.warn("duplicate:", err);
        shown.failed = true;
        // An engine that did not start or died: a new one at the next deal's end.
        if (!(err && err.name === "EngineError") || err.code === "not_ready" || err.code === "engine_dead") endEngine(engine);
      })
      .then(() => render());
  };
  // An engine up already is asked at once. A new one's worker starts at
  // later()'s moment (the panel shown, the page idle): `new Worker` took
  // ~15 % of the move that ends the deal, the frame that draws the next
  // deal's table (issue 33); the replay itself needs seconds anyway.
  if (luck.engine) ask();
  else later().then(ask, ask);
}
