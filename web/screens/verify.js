// Comprobar in the replay viewer (issue 32): every decision the computer made
// in a finished match asked again by the engine's `verify` (gin/fairness.py,
// docs/fairness.md) with the player's hidden cards and the stock dealt other
// ways; the viewer shows the progress and "N de N decisiones iguales: el
// ordenador solo vio sus cartas y las públicas", or the differences as they
// are. The decisions are asked a part at a time, each part sized from the
// engine's pace to about PART_MS, so the progress moves and the viewer
// answers between parts (the engine answers one call at a time).

import { button, el } from "../table/dom.js";

const PART_FIRST = 8; // decisions in the first part: the progress shows at once
const PART_MS = 700;
const PART_MAX = 200;

// A new check: {done, total (null until the engine says), same, peeking,
// changed, worlds, differing, finished, failed}.
export function newCheck() {
  return { done: 0, total: null, same: 0, peeking: 0, changed: 0, worlds: 0, differing: [], finished: false, failed: false };
}

// Runs the check of `save` on call(method, params) (the page's engine),
// filling `check` and calling onProgress() after each part; stops quietly
// once closed() says the viewer went away.
export async function runCheck({ save, call, check, closed, onProgress }) {
  let start = 0;
  let size = PART_FIRST;
  try {
    while (start !== null && !closed()) {
      const began = performance.now();
      const part = await call("verify", { save, start, count: size });
      check.total = part.decisions;
      check.done += part.checked;
      check.same += part.same;
      check.peeking += part.peeking;
      check.changed += part.changed;
      check.worlds += part.worlds;
      check.differing.push(...part.differing);
      start = part.next;
      const perDecision = (performance.now() - began) / Math.max(1, part.checked);
      size = Math.max(1, Math.min(PART_MAX, Math.round(PART_MS / Math.max(perDecision, 0.5))));
      check.finished = start === null;
      onProgress();
    }
  } catch (err) {
    console.warn("verify:", err);
    check.failed = true;
    onProgress();
  }
}

// The viewer's section: the button before, the progress during, the verdict after.
export function checkSection(t, check, onStart) {
  const head = el("h3", { text: t("verify.title") });
  const about = el("p", { class: "note", text: t("verify.about") });
  if (!check) return el("section", { class: "verify" }, head, about, button(t("verify.button"), "verify", onStart, { class: "btn" }));
  if (check.failed) return el("section", { class: "verify" }, head, el("p", { class: "message refusal", role: "alert", text: t("verify.failed") }));
  if (!check.finished) {
    const total = check.total ?? 0;
    const text = check.total === null ? t("verify.starting") : t("verify.progress", { done: check.done, total });
    return el(
      "section",
      { class: "verify", "aria-busy": "true" },
      head,
      el("progress", { class: "verify-progress", max: total || 1, value: check.done, "aria-label": text }),
      el("p", { class: "verify-status", role: "status", text }),
    );
  }
  const all = check.same === check.total;
  const lines = [
    el("p", { class: `verify-verdict ${all ? "good" : "bad"}`, role: "status", text: t(all ? "verify.all_same" : "verify.some_differ", { same: check.same, total: check.total }) }),
    el("p", { class: "note", text: t("verify.worlds", { worlds: check.worlds }) }),
  ];
  if (check.peeking) lines.push(el("p", { class: "verify-peeking", text: t("verify.peeking", { n: check.peeking }) }));
  if (check.changed) lines.push(el("p", { class: "verify-changed", text: t("verify.changed", { n: check.changed }) }));
  const counts = { same: check.same, total: check.total, peeking: check.peeking, changed: check.changed, worlds: check.worlds };
  return el("section", { class: "verify", dataset: counts }, head, lines);
}
