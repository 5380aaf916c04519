// The coach's view over time in Estadísticas: notes per deal, by kind of
// decision, in each of the last matches played with the coach on (the data:
// data/coachlog.js), drawn by the page as inline SVG.

import { el } from "../table/dom.js";
import { KINDS, MATCHES, lastMatches } from "../data/coachlog.js";
import { formatNumber } from "../text/i18n.js";

const KIND_KEYS = {
  upcard: "coach.kind.upcard",
  draw: "coach.kind.draw",
  discard: "coach.kind.discard",
  knock: "coach.kind.knock",
};
const COLOURS = { upcard: "#7e57c2", draw: "#29b6f6", discard: "#ffb300", knock: "#ef5350" };

const SVG = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

const number = (lang, n) => formatNumber(lang, n, 1);

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
