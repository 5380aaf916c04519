// The coach's view over time: how many notes (decisions that cost 3 points or
// more by Difícil's estimate, gin/coach.py) each deal played with the coach on
// had, by kind of decision; and the chart of it in Estadísticas, mistakes per
// deal in each of the last matches, drawn by the page as inline SVG.
// Counted as the notes come (coach.js), before the page's one-note-per-advice
// rule, and written when the deal ends; the guided deal is not counted. Kept
// in its own key, read and written the never-throwing way of storage.js.

import { el } from "./dom.js";

const KEY = "gin.coach.v1"; // [{seed, deal, at, kinds: {upcard, draw, discard, knock}}], oldest first
const KEEP = 300; // deals
const MATCHES = 10; // bars in the chart
export const KINDS = ["upcard", "draw", "discard", "knock"];
const KIND_KEYS = {
  upcard: "coach.kind.upcard",
  draw: "coach.kind.draw",
  discard: "coach.kind.discard",
  knock: "coach.kind.knock",
};
const COLOURS = { upcard: "#7e57c2", draw: "#29b6f6", discard: "#ffb300", knock: "#ef5350" };
const open = new Map(); // "seed:deal" -> counts of the deal under way

function read() {
  try {
    const list = JSON.parse(window.localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list.filter((r) => r && typeof r.seed === "string" && r.kinds) : [];
  } catch {
    return [];
  }
}

function write(list) {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(list.slice(-KEEP)));
  } catch {
    // blocked or full: the chart misses this deal
  }
}

// "Borrar" in Estadísticas clears it with the rest (false: storage refused).
export function clearCoachLog() {
  open.clear();
  try {
    window.localStorage.removeItem(KEY);
    return true;
  } catch {
    return false;
  }
}

export function noteSeen(seed, deal, kind) {
  const key = `${seed}:${deal}`;
  const counts = open.get(key) || Object.fromEntries(KINDS.map((k) => [k, 0]));
  if (kind in counts) counts[kind] += 1;
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

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

function number(lang, n) {
  return new Intl.NumberFormat(lang === "en" ? "en-GB" : "es-ES", { maximumFractionDigits: 1 }).format(n);
}

// The chart's section for Estadísticas.
export function coachChart(t, lang) {
  const matches = lastMatches();
  const head = el("h3", { text: t("coach.chart_title") });
  if (!matches.length) return el("section", { class: "coach-chart", dataset: { matches: 0 } }, head, el("p", { class: "note", text: t("coach.chart_empty") }));
  const perDeal = matches.map((m) => Object.fromEntries(KINDS.map((k) => [k, m.kinds[k] / m.deals])));
  const totals = perDeal.map((p) => KINDS.reduce((s, k) => s + p[k], 0));
  const top = Math.max(1, Math.ceil(Math.max(...totals)));
  const W = 300;
  const H = 120;
  const LEFT = 18; // the scale's labels
  const bar = Math.min(30, (W - LEFT) / MATCHES);
  const label = (x, y, text, anchor = "middle") =>
    svg("text", { x, y, "font-size": 10, "text-anchor": anchor, fill: "#3d4a41" }, text);
  const bars = matches.map((m, i) => {
    let y = H;
    const x = LEFT + i * bar;
    const segments = KINDS.filter((k) => perDeal[i][k] > 0).map((k) => {
      const h = (perDeal[i][k] / top) * (H - 8);
      y -= h;
      return svg("rect", { x: x + bar * 0.15, y, width: bar * 0.7, height: h, fill: COLOURS[k], "data-kind": k, "data-count": m.kinds[k] });
    });
    return svg("g", { "data-seed": m.seed, "data-deals": m.deals }, ...segments, label(x + bar / 2, H + 11, String(i + 1)));
  });
  const one = matches.length === 1;
  const words = matches.map((m, i) => t("coach.chart_match", { n: i + 1, value: number(lang, totals[i]) }));
  const picture = svg(
    "svg",
    { viewBox: `0 0 ${W} ${H + 14}`, class: "coach-chart-svg", role: "img", "aria-label": t(one ? "coach.chart_label_one" : "coach.chart_label", { n: matches.length, list: words.join("; ") }) },
    svg("line", { x1: LEFT, y1: H, x2: W, y2: H, stroke: "#9aa59d", "stroke-width": 1 }),
    label(LEFT - 4, H, "0", "end"),
    label(LEFT - 4, 12, number(lang, top), "end"),
    ...bars,
  );
  return el(
    "section",
    { class: "coach-chart", dataset: { matches: matches.length } },
    head,
    el("p", { class: "note", text: t(one ? "coach.chart_note_one" : "coach.chart_note", { n: matches.length, top }) }),
    picture,
    el(
      "ul",
      { class: "coach-chart-legend" },
      KINDS.map((k) => el("li", {}, el("span", { class: "swatch", "aria-hidden": "true", dataset: { kind: k } }), t(KIND_KEYS[k]))),
    ),
  );
}
