// Difícil's review of a finished match (or of one deal), for the viewer:
// the deals are handed out in parts to the page's engine and, for a long
// match, to extra engine workers, each engine asking for the next part as
// soon as it has answered one, so a slow or late engine never holds the
// others up; the parts are merged in deal order at the end (each part's
// steps are those of the whole match), so the result is the one a single
// `review` of the whole match gives (mergeReview). No DOM: the viewer
// renders the progress and the result.

// Deals per review call: starts small (progress shows at once), then sized
// so each call takes about REVIEW_MS: each call replays the match (about
// 50 ms in the page for 50 deals), so fewer, longer calls; the viewer answers
// meanwhile (the worker reviews), and closing it waits for one call at most.
const REVIEW_FIRST = 2;
const REVIEW_MS = 800;
// Extra engines (worker.js REVIEWER) join the page's own for a match of
// HELPERS_FROM deals or more: below that one engine is done about as soon as
// another has booted from the snapshot (about 1.3 s; bench/review.py).
const HELPERS_FROM = 9;
const MAX_HELPERS = 3;
const GB_PER_HELPER = 2;

// The review of `total` deals (deal numbers base + 1 .. base + total) of
// `save`: call(method, params) is the page's engine, reviewEngine() makes an
// extra one (or is missing), closed() says the viewer went away, and
// onProgress(done) tells how many deals are reviewed. `offset`: the step the
// reviewed steps are counted from (one deal alone: its first step).
// Returns {done, end}: done resolves to the merged review, {failed: true}, or
// null when the viewer closed first; end() terminates the extra engines.
export function startReview({ save, total, base = 0, offset = 0, call, reviewEngine, closed, onProgress }) {
  const run = {
    save, // the match reviewed
    total, // how many deals
    base, // the deal before the first reviewed (0: from the first deal)
    call, // the page's engine
    closed, // () => the viewer has closed: nothing more is asked
    onProgress, // (done): a part was answered
    helpers: extraEngines(total, reviewEngine), // [{engine, busy, gone}]: the extra engines
    next: 1, // the first deal (counted from 1) not handed out yet
    returned: [], // parts an extra engine failed to answer, to hand out again
    parts: new Map(), // first deal -> the engine's answer for its part
    engaged: new Set(), // the engines that answered a part
    done: 0, // deals answered
    over: false, // failed or closed: late answers are dropped
  };
  return { done: reviewAll(run, offset), end: () => run.helpers.forEach(dismiss) };
}

async function reviewAll(run, offset) {
  const helping = run.helpers.map((helper) => helperLoop(run, helper));
  try {
    await mainLoop(run);
    // Nothing left to hand out: an engine still booting is not needed.
    run.helpers.forEach((h) => h.busy || dismiss(h));
    await Promise.all(helping);
    if (run.returned.length) await mainLoop(run); // what a failing extra engine left
  } catch (err) {
    console.warn("review:", err);
    return { failed: true };
  } finally {
    run.over = true;
    run.helpers.forEach(dismiss);
  }
  if (run.closed()) return null;
  const ordered = [...run.parts.keys()].sort((a, b) => a - b).map((first) => run.parts.get(first));
  return { ...mergeReview(ordered, offset), done: run.total, total: run.total, finished: true, engines: run.engaged.size };
}

// The next part for an engine that takes `size` deals at a time: [first, last]
// as deal numbers, or null when everything is handed out.
function takePart(run, size) {
  if (run.returned.length) return run.returned.shift();
  if (run.next > run.total) return null;
  // Near the end, no engine takes more than its share of what is left,
  // so they finish together.
  const working = 1 + run.helpers.filter((h) => !h.gone).length;
  const share = Math.max(1, Math.ceil((run.total - run.next + 1) / working));
  const part = [run.next, Math.min(run.total, run.next + Math.min(size, share) - 1)];
  run.next = part[1] + 1;
  return [part[0] + run.base, part[1] + run.base];
}

function answered(run, engine, part, result) {
  if (run.over) return;
  run.parts.set(part[0], result);
  run.engaged.add(engine);
  run.done += part[1] - part[0] + 1;
  run.onProgress(run.done);
}

// Each engine sizes its parts from its own pace (see REVIEW_MS).
function nextSize(began, part) {
  const perDeal = (performance.now() - began) / (part[1] - part[0] + 1);
  return Math.max(1, Math.min(10, Math.round(REVIEW_MS / Math.max(perDeal, 1))));
}

async function mainLoop(run) {
  let size = REVIEW_FIRST;
  for (let part; !run.closed() && (part = takePart(run, size)); ) {
    const began = performance.now();
    const result = await run.call("review", { save: run.save, deals: part });
    size = nextSize(began, part);
    answered(run, "main", part, result);
  }
}

async function helperLoop(run, helper) {
  try {
    await helper.engine.ready;
  } catch {
    dismiss(helper); // no snapshot, no worker: the others do its share
    return;
  }
  let size = REVIEW_FIRST;
  for (let part; !helper.gone && !run.closed() && (part = takePart(run, size)); ) {
    const began = performance.now();
    helper.busy = true;
    try {
      const result = await helper.engine.call("review", { save: run.save, deals: part });
      size = nextSize(began, part);
      answered(run, helper, part, result);
    } catch (err) {
      if (!helper.gone) console.warn("review (extra engine):", err);
      run.returned.push(part); // someone else reviews it
      dismiss(helper);
    } finally {
      helper.busy = false;
    }
  }
  dismiss(helper);
}

// The engine's answers for the parts, in deal order, as one review:
// {differing, summary} as gin.replay.review sums it up, the steps counted
// from `offset` (one deal alone: from its first step).
export function mergeReview(parts, offset = 0) {
  const differing = parts.flatMap((part) => part.differing).map((d) => (offset ? { ...d, step: d.step - offset } : d));
  const decisions = parts.reduce((n, part) => n + part.summary.decisions, 0);
  const costed = differing.filter((d) => d.cost !== null && d.cost !== undefined);
  const costliest = costed.length ? costed.reduce((a, b) => (b.cost > a.cost ? b : a)) : differing[0] || null;
  const totalCost = Number(costed.reduce((sum, d) => sum + d.cost, 0).toFixed(2));
  return { differing, summary: { decisions, differing: differing.length, with_cost: costed.length, total_cost: totalCost, costliest } };
}

// Extra engines for a long match, one fewer than the cores (the page's own
// engine is one), at most MAX_HELPERS, and one per GB_PER_HELPER of the
// device's memory where the browser says (navigator.deviceMemory), one
// where it does not (Safari, Firefox): each costs a worker's memory (about
// 120 MB at its peak in Chromium, bench/review.py) until the review
// ends or the viewer closes.
function extraEngines(total, reviewEngine) {
  if (total < HELPERS_FROM || typeof reviewEngine !== "function") return [];
  const cores = Number(navigator.hardwareConcurrency) || 1;
  const memory = Number(navigator.deviceMemory) || 0; // GB, 0: not said
  const byMemory = memory ? Math.floor(memory / GB_PER_HELPER) : 1;
  const count = Math.max(0, Math.min(MAX_HELPERS, cores - 1, byMemory));
  const helpers = [];
  for (let i = 0; i < count; i++) {
    let engine;
    try {
      engine = reviewEngine();
    } catch {
      break;
    }
    engine.ready.catch(() => {}); // handled in helperLoop
    helpers.push({ engine, busy: false, gone: false });
  }
  return helpers;
}

function dismiss(helper) {
  if (helper.gone) return;
  helper.gone = true;
  helper.engine.terminate();
}
