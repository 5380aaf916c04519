// What the table sounds and feels like, as cues: from what the page shows
// now and what it showed before (a record of it, `memory`), the moments a
// player would hear — the deal, each draw and discard, a knock or a gin, the
// layoffs, a deal won or lost, the match's end. A cue comes when its moment
// is shown (a render), never when the engine answers: the computer's move
// sounds when it appears after its pause, the player's own when the table
// shows it. Nothing sounds while a panel or the menu covers the table but
// the panel's own news (a deal result, the match's end). Pure: no DOM, no
// audio (table/feedback.js plays them), so Node runs it alone.

// Every cue there is (table/sound.js makes each; the README lists them
// with their lengths).
export const CUES = [
  "deal",
  "draw_stock",
  "draw_pile",
  "discard",
  "knock",
  "gin",
  "layoff",
  "won",
  "lost",
  "match_won",
  "match_lost",
  "match_draw",
];

// The record of what was last shown, one per page: which deal was on the
// table and how many of its events had been shown, which deal result and
// which match's end had sounded.
export function cueMemory() {
  return {
    deal: null, // "seed:deal:opened" of the deal last shown on the table
    events: 0, // how many of its events were shown
    result: null, // "seed:deal:opened" of the last deal result shown
    match: null, // "seed:opened" of the last match end shown
  };
}

// The cues of a render: [{name, seat, at}] (seat 0 the player, 1 the
// computer, null neither; at: ms after the render, at normal speed).
export function nextCues(memory, view, ui) {
  if (!view) return [];
  const opened = ui.opened || 0;
  if (ui.panel === "deal" && ui.result) {
    const key = `${view.seed}:${ui.result.number}:${opened}`;
    if (key === memory.result) return [];
    memory.result = key;
    return resultCues(ui.result);
  }
  if (ui.panel === "match" && view.over && view.final) {
    const key = `${view.seed}:${opened}`;
    if (key === memory.match) return [];
    memory.match = key;
    const winner = view.final.winner;
    return [{ name: winner === 0 ? "match_won" : winner === 1 ? "match_lost" : "match_draw", seat: null, at: 0 }];
  }
  if (ui.panel || ui.menuOpen) return []; // the table is covered: what changed sounds once it shows
  const events = view.events || [];
  const deal = `${view.seed}:${view.deal_number}:${opened}`;
  if (deal !== memory.deal || events.length < memory.events) {
    // A new deal on the table (or the same one dealt again): it is dealt
    // with a sound only from its start, not when a deal is resumed midway.
    memory.deal = deal;
    memory.events = events.length;
    return events.some((e) => e.type !== "pass") ? [] : [{ name: "deal", seat: null, at: 0 }];
  }
  const fresh = events.slice(memory.events);
  memory.events = events.length;
  return fresh.map(eventCue).filter(Boolean).map((cue, i) => ({ ...cue, at: i * 120 }));
}

// A move of the deal as a cue (a pass is silent).
function eventCue(event) {
  const seat = event.seat ?? null;
  if (event.type === "take") return { name: "draw_pile", seat };
  if (event.type === "draw") return { name: event.from === "discard" ? "draw_pile" : "draw_stock", seat };
  if (event.type === "discard") return { name: "discard", seat };
  return null;
}

// A deal result: the knock or the gin, the layoffs, then who won it.
function resultCues(result) {
  const cues = [];
  if (result.kind === "gin" || result.kind === "big_gin") cues.push({ name: "gin", seat: result.knocker ?? null, at: 0 });
  else if (result.knocker !== null && result.knocker !== undefined) cues.push({ name: "knock", seat: result.knocker, at: 0 });
  if (result.layoffs && result.layoffs.length) cues.push({ name: "layoff", seat: result.knocker === null ? null : 1 - result.knocker, at: 500 });
  if (result.winner === 0 || result.winner === 1) cues.push({ name: result.winner === 0 ? "won" : "lost", seat: null, at: 900 });
  return cues;
}
