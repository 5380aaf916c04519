// The replay viewer of a finished match, with Difícil's review.
// The engine's `replay` gives every step (both hands face up: the match is
// over, it refuses an unfinished one); `review` is asked a few deals at a
// time so the page never freezes and the progress shows, and for a long match
// of extra engine workers too (reviewAll below). Keyboard: arrows
// step, Home/End go to the first/last step, PageUp/PageDown jump a deal,
// Escape closes. Every redraw (a step, the review's progress) is the keyed
// update of morph.js, as for the table: a control that stays is the same
// node, so a press that began before a progress update still lands.

import { button, choice, el, faceCard } from "../table/dom.js";
import { byRank, orderMeld } from "../model/cards.js";
import { openSheet } from "./sheet.js";
import { morphChildren } from "../table/morph.js";
import { operation } from "../table/panels.js";
import { hintAction, loosePoints, newDeal, pointsText, reasonText, theCard } from "../text/words.js";

const PLAY_MS = { slow: 1400, normal: 700, fast: 250 };
// Deals per review call: starts small (progress shows at once), then sized
// so each call takes about REVIEW_MS: each call replays the match (about
// 50 ms in the page for 50 deals), so fewer, longer calls; the viewer answers
// meanwhile (the worker reviews), and closing it waits for one call at most.
const REVIEW_FIRST = 2;
const REVIEW_MS = 800;
// Extra engines (worker.js REVIEWER) join the page's own for a match of
// HELPERS_FROM deals or more: below that one engine is done about as soon as
// another has booted from the snapshot (about 1.3 s; bench/web.py review).
const HELPERS_FROM = 9;
const MAX_HELPERS = 3;
const GB_PER_HELPER = 2;
const reviews = new Map(); // matchId -> finished review, for this page's life
let reviewing = Promise.resolve(); // the review under way, if any

// The sentence of an action, per seat (literal keys: i18n tests look for them).
const ACTION_KEYS = {
  take: ["viewer.take_0", "viewer.take_1"],
  pass: ["viewer.pass_0", "viewer.pass_1"],
  draw_stock: ["viewer.draw_stock_0", "viewer.draw_stock_1"],
  draw_discard: ["viewer.draw_discard_0", "viewer.draw_discard_1"],
  discard: ["viewer.discard_0", "viewer.discard_1"],
  knock: ["viewer.knock_0", "viewer.knock_1"],
  gin: ["viewer.gin_0", "viewer.gin_1"],
  big_gin: ["viewer.big_gin_0", "viewer.big_gin_1"],
};

function number(lang, n) {
  return new Intl.NumberFormat(lang === "en" ? "en-GB" : "es-ES", { maximumFractionDigits: 1 }).format(n);
}

// What happened at step `i` (steps from `replay`), in words.
export function stepText(t, steps, i) {
  const step = steps[i];
  if (step.kind === "deal") return newDeal(t, step.deal_number, step.state.dealer);
  const a = step.action;
  const prev = i > 0 ? steps[i - 1].state : null;
  const top = prev && prev.discard.length ? prev.discard[prev.discard.length - 1] : null;
  let kind = a.type;
  let card = a.card || null;
  if (a.type === "take") card = step.state.taken || top;
  if (a.type === "draw") {
    kind = a.from === "discard" ? "draw_discard" : "draw_stock";
    card = step.state.drawn || (a.from === "discard" ? top : null);
  }
  if (a.type === "knock" && step.result && step.result.kind === "gin") kind = "gin";
  const text = t(ACTION_KEYS[kind][step.seat], { card: card ? theCard(t, card) : "" });
  return text;
}

function hardText(t, entry) {
  const gin = entry.hard.type === "knock" && (entry.reason === "gin_available" || entry.reason === "big_gin_available");
  return hintAction(t, entry.hard, gin);
}



function handRow(t, state, seat, fresh) {
  const arrangement = state.arrangements[seat];
  const melds = arrangement.melds.map((m) => orderMeld(m));
  const loose = [...arrangement.deadwood].sort(byRank);
  const known = new Set(state.known[seat] || []);
  const card = (c) => faceCard(c, t, `mini${c === fresh ? " fresh" : ""}${known.has(c) ? " known" : ""}`);
  return el(
    "div",
    { class: "viewer-cards", role: "group", "aria-label": t(seat === 0 ? "viewer.your_hand" : "viewer.opp_hand"), dataset: { seat, cards: state.hands[seat].join(" ") } },
    melds.map((m) => el("span", { class: "viewer-meld" }, m.map(card))),
    loose.length ? el("span", { class: "viewer-loose" }, loose.map(card)) : null,
  );
}

function resultBox(t, rules, result) {
  const headline =
    result.kind === "void" ? t("result.void") : t(result.winner === 0 ? "result.you_win" : "result.opp_wins", { points: pointsText(t, result.points) });
  const op = operation(result, rules, t);
  return el(
    "section",
    { class: `viewer-result ${result.winner === 0 ? "good" : result.winner === 1 ? "bad" : ""}`, "aria-label": t("result.title", { number: result.number }) },
    el("h3", { text: `${t("result.title", { number: result.number })} · ${t(`kind.${result.kind}`)}` }),
    el("p", { class: "headline", text: headline }),
    op ? el("p", { class: "operation", text: op }) : null,
    el("p", { class: "totals", text: t("result.totals", { a: result.scores[0], b: result.scores[1], target: rules.target }) }),
  );
}

// One deal of the engine's replay (asked with {deal}) as a replay of its own:
// its steps counted from 0, the review's steps with them (the coach's deal
// summary opens a deal just ended, mid-match).
function dealOnly(result, number) {
  const offset = result.steps[0].index;
  const steps = result.steps.map((s) => ({ ...s, index: s.index - offset }));
  const deal = result.deals.find((d) => d.number === number);
  return { ...result, steps, count: steps.length, deals: [{ ...deal, start: 0, end: steps.length - 1 }], final: null, offset };
}

// The sheet's contents brought to `children` keeping every node that stays
// (their click handlers are those of the first draw: they read the viewer's
// state when pressed, never a copy); the focus on `focusKey` when given,
// else where it was, else on the first control.
function fillKeyed(sheet, heading, children, focusKey) {
  const { panel, title, body } = sheet;
  if (title.textContent !== heading) title.textContent = heading;
  const next = document.createElement("div");
  next.append(...children.filter(Boolean));
  morphChildren(body, next);
  const target = focusKey ? panel.querySelector(`[data-key="${CSS.escape(focusKey)}"]`) : null;
  if (target && !target.disabled) target.focus({ preventScroll: true });
  else if (!panel.contains(document.activeElement) || document.activeElement.disabled) {
    const first = panel.querySelector("button:not([disabled]), select, input:not([hidden])");
    (first || panel).focus({ preventScroll: true });
  }
}

// ctx: {t: () => translator, lang: () => lang, call(method, params), speed,
//       matchId(save), onClose(opener), deal?: n, step?: i}: with `deal`, only
//       that deal (which has ended; the match may not have), opened at the
//       match's step `step` (replay's index).
export function openViewer(save, ctx) {
  let data = null; // the engine's replay
  let error = null;
  let index = 0;
  let playing = null; // interval id
  let speed = PLAY_MS[ctx.speed] ? ctx.speed : "fast";
  const only = Number.isInteger(ctx.deal) ? ctx.deal : null;
  const id = only ? `${ctx.matchId(save)}:deal${only}` : ctx.matchId(save);
  let review = reviews.get(id) || null; // {differing, summary, done, total, failed}
  let endReview = null; // terminates the review's extra engines
  const live = el("p", { class: "viewer-live sr-only", "aria-live": "polite", dataset: { key: "viewer-live" } });

  const sheet = openSheet({
    id: "viewer",
    onClose: (opener) => {
      stop();
      if (endReview) endReview(); // its extra engines go at once
      ctx.onClose(opener);
    },
    onKey(event) {
      if (!data || event.target.tagName === "SELECT" || event.ctrlKey || event.metaKey || event.altKey) return false;
      const at = data.deals.findIndex((d) => d.number === data.steps[index].deal_number);
      const moves = {
        ArrowRight: index + 1,
        ArrowDown: index + 1,
        ArrowLeft: index - 1,
        ArrowUp: index - 1,
        Home: 0,
        End: data.count - 1,
        PageDown: at + 1 < data.deals.length ? data.deals[at + 1].start : data.count - 1,
        PageUp: at > 0 && index === data.deals[at].start ? data.deals[at - 1].start : data.deals[at].start,
      };
      if (!(event.key in moves)) return false;
      stop();
      go(moves[event.key], true);
      return true;
    },
  });

  function stop() {
    if (playing !== null) clearInterval(playing);
    playing = null;
  }

  function go(i, speak = false) {
    index = Math.max(0, Math.min(data.count - 1, i));
    draw();
    if (speak) live.textContent = stepText(ctx.t(), data.steps, index);
  }

  function play() {
    if (playing !== null) {
      stop();
      draw("play");
      return;
    }
    if (index >= data.count - 1) index = 0;
    playing = setInterval(() => {
      if (sheet.closed || index >= data.count - 1) {
        stop();
        if (!sheet.closed) draw("play");
        return;
      }
      go(index + 1);
    }, PLAY_MS[speed]);
    draw("play");
  }

  function reviewMark(t, lang, entry) {
    const cost = entry.cost === null || entry.cost === undefined ? null : entry.cost;
    return el(
      "section",
      { class: "review-mark", role: "note", "aria-label": t("review.mark_label"), dataset: { step: entry.step } },
      el("p", { class: "review-hard", text: `${t("review.hard", { action: hardText(t, entry) })} ${reasonText(t, entry.reason, entry.why)}`.trim() }),
      cost !== null ? el("p", { class: "review-cost", text: t("review.cost", { cost: number(lang, cost) }) }) : el("p", { class: "review-cost", text: t("review.no_cost") }),
    );
  }

  function reviewSection(t, lang) {
    const head = el("h3", { text: t("review.title") });
    const opinion = el("p", { class: "note review-opinion", text: t("review.opinion") });
    if (!review) return el("section", { class: "review" }, head, opinion);
    if (review.failed) return el("section", { class: "review" }, head, el("p", { class: "message refusal", role: "alert", text: t("review.failed") }));
    if (!review.finished) {
      return el(
        "section",
        { class: "review", "aria-busy": "true" },
        head,
        el("progress", { class: "review-progress", max: review.total, value: review.done, "aria-label": t("review.progress", { done: review.done, total: review.total }) }),
        el("p", { class: "review-status", role: "status", text: t("review.progress", { done: review.done, total: review.total }) }),
        opinion,
      );
    }
    const s = review.summary;
    const lines = [];
    if (!s.differing) lines.push(el("p", { class: "review-summary", text: t("review.none", { total: s.decisions }) }));
    else {
      const c = s.costliest;
      const human = stepText(t, data.steps, c.step);
      const costly =
        c.cost !== null && c.cost !== undefined
          ? t("review.costliest_cost", { deal: c.deal_number, cost: number(lang, c.cost), human, hard: hardText(t, c) })
          : t("review.costliest", { deal: c.deal_number, human, hard: hardText(t, c) });
      lines.push(el("p", { class: "review-summary", text: `${t(s.differing === 1 ? "review.summary_one" : "review.summary", { n: s.differing, total: s.decisions })} ${costly}` }));
      lines.push(
        el(
          "ol",
          { class: "review-list" },
          review.differing.map((d) =>
            el(
              "li",
              {},
              (() => {
                const node = button(t("review.item", { deal: d.deal_number, human: stepText(t, data.steps, d.step), hard: hardText(t, d) }), `review:${d.step}`, () => {
                  stop();
                  go(d.step, true);
                }, { class: `btn ghost review-item${d.step === index ? " current" : ""}` });
                if (d.step === index) node.setAttribute("aria-current", "step");
                return node;
              })(),
            ),
          ),
        ),
      );
    }
    const summed = { differing: s.differing, decisions: s.decisions, withCost: s.with_cost, totalCost: s.total_cost, costliest: s.costliest ? s.costliest.step : "" };
    return el("section", { class: "review", dataset: summed }, head, lines, opinion);
  }

  function draw(focusKey = null) {
    if (sheet.closed) return;
    const t = ctx.t();
    const lang = ctx.lang();
    if (error) {
      fillKeyed(sheet, t("viewer.title"), [el("p", { class: "message refusal", role: "alert", text: t(error) }), button(t("viewer.close"), "closeViewer", () => sheet.close(), { class: "btn primary" })], focusKey || "closeViewer");
      return;
    }
    if (!data) {
      fillKeyed(sheet, t("viewer.title"), [el("p", { role: "status", text: t("viewer.loading") }), button(t("viewer.close"), "closeViewer", () => sheet.close(), { class: "btn primary" })], focusKey);
      return;
    }
    const step = data.steps[index];
    const state = step.state;
    const rules = data.rules;
    const mark = review && review.finished ? review.differing.find((d) => d.step === index) : null;
    const fresh = step.kind === "action" && (step.action.type === "draw" || step.action.type === "take") ? state.drawn || state.taken : null;
    const who = (seat) => el("h3", { class: "viewer-who" }, el("span", { text: t(seat === 0 ? "bar.you" : "bar.opponent") }), state.dealer === seat ? el("span", { class: "chip dealer", text: t("table.dealer") }) : null, el("span", { class: "viewer-dw", text: loosePoints(t, state.arrangements[seat].points) }));
    const pile = state.discard.slice(-6);
    sheet.panel.dataset.step = String(index);
    fillKeyed(sheet, 
      `${t("viewer.title")} · ${t("menu.seed")} ${data.seed}`,
      [
        el(
          "p",
          { class: "viewer-where" },
          el("span", { class: "viewer-deal", text: t("bar.deal", { number: step.deal_number }) }),
          el("span", { class: "viewer-step", text: t("viewer.step", { n: index + 1, count: data.count }) }),
          el("span", { class: "viewer-scores", text: t("viewer.scores", { a: state.scores[0], b: state.scores[1] }) }),
        ),
        el(
          "div",
          { class: "viewer-table", dataset: { phase: state.phase } },
          el("section", { class: "viewer-seat seat-1" }, who(1), handRow(t, state, 1, fresh)),
          el(
            "section",
            { class: "viewer-piles", "aria-label": t("viewer.piles") },
            el("p", { class: "viewer-stock", dataset: { count: state.stock_count }, text: t("viewer.stock", { n: state.stock_count }) }),
            el(
              "div",
              { class: "viewer-discard", role: "group", "aria-label": t("btn.pile"), dataset: { top: state.discard.length ? state.discard[state.discard.length - 1] : "" } },
              el("span", { class: "viewer-label", text: t("btn.pile") }),
              pile.length ? pile.map((c, i) => faceCard(c, t, `mini${i === pile.length - 1 ? " top" : " under"}`)) : el("span", { class: "none", text: t("viewer.empty_pile") }),
            ),
          ),
          el("section", { class: "viewer-seat seat-0" }, who(0), handRow(t, state, 0, fresh)),
        ),
        // Right under the table: what the review adds below never moves them.
        el(
          "div",
          { class: "viewer-controls", role: "group", "aria-label": t("viewer.controls") },
          button(t("viewer.first"), "first", () => (stop(), go(0, true)), { "aria-keyshortcuts": "Home", disabled: index === 0 }),
          button(t("viewer.back"), "back", () => (stop(), go(index - 1, true)), { "aria-keyshortcuts": "ArrowLeft", disabled: index === 0 }),
          button(t(playing !== null ? "viewer.pause" : "viewer.play"), "play", play, { class: "btn primary" }),
          button(t("viewer.forward"), "forward", () => (stop(), go(index + 1, true)), { "aria-keyshortcuts": "ArrowRight", disabled: index === data.count - 1 }),
          button(t("viewer.last"), "last", () => (stop(), go(data.count - 1, true)), { "aria-keyshortcuts": "End", disabled: index === data.count - 1 }),
        ),
        el("p", { class: `viewer-action${mark ? " marked" : ""}`, text: stepText(t, data.steps, index) }),
        mark ? reviewMark(t, lang, mark) : null,
        step.result ? resultBox(t, rules, step.result) : null,
        index === data.count - 1 && data.final ? el("p", { class: "viewer-final headline", text: t(data.final.winner === 0 ? "match.won" : data.final.winner === 1 ? "match.lost" : "match.draw") + " " + t("viewer.final", { a: data.final.totals[0], b: data.final.totals[1] }) }) : null,
        el(
          "div",
          { class: "viewer-options" },
          choice(
            "viewer-deal",
            t("viewer.deal"),
            step.deal_number,
            data.deals.map((d) => [d.number, d.result ? `${t("bar.deal", { number: d.number })} · ${t(`kind.${d.result.kind}`)}${d.result.winner === 0 ? ` · ${t("viewer.you_won_deal", { points: d.result.points })}` : d.result.winner === 1 ? ` · ${t("viewer.opp_won_deal", { points: d.result.points })}` : ""}` : t("bar.deal", { number: d.number })]),
            (v) => {
              stop();
              go(data.deals.find((d) => d.number === Number(v)).start, true);
            },
          ),
          choice("viewer-speed", t("menu.speed"), speed, ["slow", "normal", "fast"].map((v) => [v, t(`speed.${v}`)]), (v) => {
            speed = v;
            if (playing !== null) {
              stop();
              play();
            }
          }),
        ),
        el("p", { class: "note viewer-keys", text: t("viewer.keys") }),
        reviewSection(t, lang),
        live,
        el("div", { class: "panel-buttons" }, button(t("viewer.close"), "closeViewer", () => sheet.close(), { class: "btn ghost" })),
      ],
      focusKey,
    );
  }

  // The review: the deals are handed out in parts, each engine asking for the
  // next part as soon as it has answered one, so a slow or late engine never
  // holds the others up; the parts are merged in deal order at the end (each
  // part's steps are those of the whole match), so the result is the one a
  // single `review` of the whole match gives.
  async function runReview() {
    if (review && (review.finished || review.failed)) return;
    const previous = reviewing;
    let release;
    reviewing = new Promise((resolve) => (release = resolve));
    try {
      await previous; // never two reviews at once (a viewer closed and opened again)
      if (sheet.closed) return;
      review = reviews.get(id) || null;
      if (review) {
        markReviewed();
        draw();
        return;
      }
      await reviewAll();
    } finally {
      release();
    }
  }

  async function reviewAll() {
    const total = data.deals.length;
    const base = only ? only - 1 : 0; // deal numbers: base + 1 .. base + total
    review = { differing: [], summary: null, done: 0, total, finished: false };
    const parts = new Map(); // first deal -> the engine's answer for its part
    const returned = []; // parts an extra engine failed to answer
    const helpers = extraEngines(total);
    let next = 1;
    const take = (size) => {
      if (returned.length) return returned.shift();
      if (next > total) return null;
      // Near the end, no engine takes more than its share of what is left,
      // so they finish together.
      const working = 1 + helpers.filter((h) => !h.gone).length;
      const share = Math.max(1, Math.ceil((total - next + 1) / working));
      const part = [next, Math.min(total, next + Math.min(size, share) - 1)];
      next = part[1] + 1;
      return [part[0] + base, part[1] + base];
    };
    const engaged = new Set(); // the engines that answered a part
    let over = false; // failed or closed: late answers are dropped
    const answered = (engine, part, result) => {
      if (over) return;
      parts.set(part[0], result);
      engaged.add(engine);
      review.done += part[1] - part[0] + 1;
      draw();
    };
    // Each engine sizes its parts from its own pace (see REVIEW_MS).
    const nextSize = (began, part) => {
      const perDeal = (performance.now() - began) / (part[1] - part[0] + 1);
      return Math.max(1, Math.min(10, Math.round(REVIEW_MS / Math.max(perDeal, 1))));
    };
    endReview = () => helpers.forEach(dismiss);

    async function mainLoop() {
      let size = REVIEW_FIRST;
      for (let part; !sheet.closed && (part = take(size)); ) {
        const began = performance.now();
        const result = await ctx.call("review", { save, deals: part });
        size = nextSize(began, part);
        answered("main", part, result);
      }
    }

    async function helperLoop(helper) {
      try {
        await helper.engine.ready;
      } catch {
        dismiss(helper); // no snapshot, no worker: the others do its share
        return;
      }
      let size = REVIEW_FIRST;
      for (let part; !helper.gone && !sheet.closed && (part = take(size)); ) {
        const began = performance.now();
        helper.busy = true;
        try {
          const result = await helper.engine.call("review", { save, deals: part });
          size = nextSize(began, part);
          answered(helper, part, result);
        } catch (err) {
          if (!helper.gone) console.warn("review (extra engine):", err);
          returned.push(part); // someone else reviews it
          dismiss(helper);
        } finally {
          helper.busy = false;
        }
      }
      dismiss(helper);
    }

    const helping = helpers.map(helperLoop);
    try {
      await mainLoop();
      // Nothing left to hand out: an engine still booting is not needed.
      helpers.forEach((h) => h.busy || dismiss(h));
      await Promise.all(helping);
      if (returned.length) await mainLoop(); // what a failing extra engine left
    } catch (err) {
      console.warn("review:", err);
      review = { failed: true };
      draw();
      return;
    } finally {
      over = true;
      helpers.forEach(dismiss);
      endReview = null;
    }
    if (sheet.closed) {
      review = null;
      return;
    }
    const ordered = [...parts.keys()].sort((a, b) => a - b).map((first) => parts.get(first));
    const offset = data.offset || 0; // one deal: its steps counted from 0
    const differing = ordered.flatMap((part) => part.differing).map((d) => (offset ? { ...d, step: d.step - offset } : d));
    const decisions = ordered.reduce((n, part) => n + part.summary.decisions, 0);
    // As gin.replay.review sums it up.
    const costed = differing.filter((d) => d.cost !== null && d.cost !== undefined);
    const costliest = costed.length ? costed.reduce((a, b) => (b.cost > a.cost ? b : a)) : differing[0] || null;
    const totalCost = Number(costed.reduce((sum, d) => sum + d.cost, 0).toFixed(2));
    review = {
      differing,
      summary: { decisions, differing: differing.length, with_cost: costed.length, total_cost: totalCost, costliest },
      done: total,
      total,
      finished: true,
      engines: engaged.size,
    };
    reviews.set(id, review);
    markReviewed();
    draw();
  }

  // For tests: done, and by how many engines (the page's and extra ones).
  function markReviewed() {
    sheet.panel.dataset.reviewed = "true";
    sheet.panel.dataset.reviewEngines = String(review.engines);
  }

  // Extra engines for a long match, one fewer than the cores (the page's own
  // engine is one), at most MAX_HELPERS, and one per GB_PER_HELPER of the
  // device's memory where the browser says (navigator.deviceMemory), one
  // where it does not (Safari, Firefox): each costs a worker's memory (about
  // 120 MB at its peak in Chromium, bench/web.py review) until the review
  // ends or the viewer closes.
  function extraEngines(total) {
    if (total < HELPERS_FROM || typeof ctx.reviewEngine !== "function") return [];
    const cores = Number(navigator.hardwareConcurrency) || 1;
    const memory = Number(navigator.deviceMemory) || 0; // GB, 0: not said
    const byMemory = memory ? Math.floor(memory / GB_PER_HELPER) : 1;
    const count = Math.max(0, Math.min(MAX_HELPERS, cores - 1, byMemory));
    const helpers = [];
    for (let i = 0; i < count; i++) {
      let engine;
      try {
        engine = ctx.reviewEngine();
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

  draw("closeViewer");
  ctx
    .call("replay", only ? { save, deal: only } : { save })
    .then((result) => {
      data = only ? dealOnly(result, only) : result;
      index = only && Number.isInteger(ctx.step) ? Math.max(0, Math.min(data.count - 1, ctx.step - data.offset)) : 0;
      draw("forward");
      if (review && review.finished) markReviewed();
      return runReview();
    })
    .catch((err) => {
      error = err && err.code === "match_not_over" ? "viewer.not_over" : "viewer.bad_match";
      draw();
    });
  return { close: () => sheet.close() };
}
