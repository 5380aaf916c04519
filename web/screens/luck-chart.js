// Your play with the luck removed, in Estadísticas (issue 32): the mean
// difference per deal between the player's points and Difícil's on the same
// cards, with its 95 % interval, for the level and rules the sheet's filter
// shows, and a small chart of that difference over the last matches. The
// figures are the engine's (`duplicate_stats` over data/duplicates.js's
// records and totals), asked when the sheet opens; drawn as inline SVG.

import { el } from "../table/dom.js";
import { formatNumber } from "../text/i18n.js";
import { readDuplicates } from "../data/duplicates.js";
import { svg } from "./coach-chart.js";

const MATCHES = 10; // bars in the chart

// "+1,5" / "−2,3" / "0": a mean in the page's language, with its sign.
function signed(lang, n) {
  const text = formatNumber(lang, Math.abs(n), 1);
  return n > 0 ? `+${text}` : n < 0 ? `\u2212${text}` : text;
}

// Asks the engine for the figures: resolves to {answer} or {failed: true}.
export async function askLuck(storage, call) {
  const kept = readDuplicates(storage);
  if (!kept.records.length && !kept.totals) return { answer: null };
  try {
    const params = { records: kept.records, matches: MATCHES, ...(kept.totals ? { totals: kept.totals } : {}) };
    return { answer: await call("duplicate_stats", params) };
  } catch (err) {
    console.warn("duplicate_stats:", err);
    return { failed: true };
  }
}

// The group the filter shows ("" for any level or profile), or null.
function groupFor(answer, filter) {
  const level = filter.level || null;
  const profile = filter.profile || null;
  if (!level && !profile) return answer.all;
  return answer.groups.find((g) => g.level === level && g.profile === profile) || null;
}

function chart(t, lang, matches) {
  const W = 300;
  const H = 110;
  const MID = H / 2;
  const LEFT = 26;
  const top = Math.max(1, Math.ceil(Math.max(...matches.map((m) => Math.abs(m.difference)))));
  const bar = Math.min(28, (W - LEFT) / MATCHES);
  const label = (x, y, text, anchor = "middle") => svg("text", { x, y, "font-size": 10, "text-anchor": anchor, fill: "#3d4a41" }, text);
  const bars = matches.map((m, i) => {
    const h = (Math.abs(m.difference) / top) * (MID - 6);
    const x = LEFT + i * bar;
    return svg(
      "g",
      { "data-match": m.match, "data-deals": m.deals, "data-difference": m.difference },
      svg("rect", { x: x + bar * 0.15, y: m.difference >= 0 ? MID - h : MID, width: bar * 0.7, height: Math.max(h, 0.5), fill: m.difference >= 0 ? "#2e7d32" : "#c62828" }),
      label(x + bar / 2, H + 11, String(i + 1)),
    );
  });
  const words = matches.map((m, i) => t("luck.chart_match", { n: i + 1, value: signed(lang, m.difference) }));
  return svg(
    "svg",
    { viewBox: `0 0 ${W} ${H + 14}`, class: "luck-chart-svg", role: "img", "aria-label": t("luck.chart_label", { n: matches.length, list: words.join("; ") }) },
    svg("line", { x1: LEFT, y1: MID, x2: W, y2: MID, stroke: "#9aa59d", "stroke-width": 1 }),
    label(LEFT - 4, MID + 3, "0", "end"),
    label(LEFT - 4, 10, `+${top}`, "end"),
    label(LEFT - 4, H, `\u2212${top}`, "end"),
    ...bars,
  );
}

// The section: luck is askLuck's answer (or null while it is asked).
export function luckSection(t, lang, luck, filter) {
  const head = el("h3", { text: t("luck.stats_title") });
  const note = el("p", { class: "note", text: t("luck.stats_note") });
  if (!luck) return el("section", { class: "luck-stats", "aria-busy": "true" }, head, el("p", { role: "status", text: t("luck.stats_loading") }));
  if (luck.failed) return el("section", { class: "luck-stats" }, head, el("p", { class: "message refusal", text: t("luck.stats_failed") }));
  const group = luck.answer ? groupFor(luck.answer, filter) : null;
  if (!group) return el("section", { class: "luck-stats", dataset: { deals: 0 } }, head, el("p", { class: "note", text: t("luck.stats_empty") }));
  const figure = t("luck.stats_figure", { diff: signed(lang, group.difference), n: group.deals });
  const interval = group.interval
    ? t("luck.stats_interval", { low: signed(lang, group.interval[0]), high: signed(lang, group.interval[1]) })
    : t("luck.stats_few");
  const matches = luck.answer.matches;
  return el(
    "section",
    { class: "luck-stats", dataset: { deals: group.deals, difference: group.difference, low: group.interval ? group.interval[0] : "", high: group.interval ? group.interval[1] : "" } },
    head,
    el("p", { class: "luck-figure", text: `${figure} ${interval}` }),
    note,
    matches.length ? chart(t, lang, matches) : null,
  );
}
