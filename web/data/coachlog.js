// The coach's record over time: how many notes (decisions that cost 3 points
// or more by Difícil's estimate, gin/coach.py) each deal played with the coach
// on had, by kind of decision, and the last matches summed from it.
// Counted as the notes come (play/coach.js), before the page's
// one-note-per-advice rule, and written when the deal ends; the guided deal is
// not counted. Kept in its own key (keys.js), through local.js. The chart is
// screens/coach-chart.js.

import { KEYS } from "./keys.js";
import { localBackend, readText, removeKey, writeText } from "./local.js";

const KEEP = 300; // deals
export const MATCHES = 10; // bars in the chart
export const KINDS = ["upcard", "draw", "discard", "knock"];
const open = new Map(); // "seed:deal" -> counts of the deal under way

function read() {
  try {
    const list = JSON.parse(readText(localBackend(), KEYS.coach) || "[]");
    return Array.isArray(list) ? list.filter((r) => r && typeof r.seed === "string" && r.kinds) : [];
  } catch {
    return [];
  }
}

function write(list) {
  // blocked or full: the chart misses this deal
  writeText(localBackend(), KEYS.coach, JSON.stringify(list.slice(-KEEP)));
}

// "Borrar" in Estadísticas clears it with the rest (false: storage refused).
export function clearCoachLog() {
  open.clear();
  return removeKey(localBackend(), KEYS.coach);
}

export function noteSeen(seed, deal, kind) {
  const key = `${seed}:${deal}`;
  const counts = open.get(key) || Object.fromEntries(KINDS.map((k) => [k, 0]));
  if (Object.hasOwn(counts, kind)) counts[kind] += 1;
  open.set(key, counts);
}

export function dealEnded(seed, deal, at = Date.now()) {
  const key = `${seed}:${deal}`;
  const kinds = open.get(key) || Object.fromEntries(KINDS.map((k) => [k, 0]));
  open.delete(key);
  const list = read().filter((r) => !(r.seed === seed && r.deal === deal));
  list.push({ seed, deal, at, kinds });
  write(list);
}

// The last matches (by seed, in the order last played): deals and notes by kind.
export function lastMatches(list = read(), count = MATCHES) {
  const bySeed = new Map();
  for (const r of list) {
    const m = bySeed.get(r.seed) || { seed: r.seed, deals: 0, kinds: Object.fromEntries(KINDS.map((k) => [k, 0])), at: 0 };
    m.deals += 1;
    for (const k of KINDS) m.kinds[k] += Number(r.kinds[k]) || 0;
    m.at = Math.max(m.at, r.at || 0);
    bySeed.delete(r.seed);
    bySeed.set(r.seed, m);
  }
  return [...bySeed.values()].slice(-count);
}
