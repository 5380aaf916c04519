// The replay viewer of a finished match, with Difícil's review.
// The engine's `replay` gives every step (both hands face up: the match is
// over, it refuses an unfinished one); `review` is asked a few deals at a
// time so the page never freezes and the progress shows, and for a long match
// of extra engine workers too (review.js). Keyboard: arrows
// step, Home/End go to the first/last step, PageUp/PageDown jump a deal,
// Escape closes. Every render (a step, the review's progress) is the keyed
// update of table/morph.js, as for the table: a control that stays is the
// same node, so a press that began before a progress update still lands.
// The viewer's state is one record (openViewer); the functions below take it.

import { button, choice, el, faceCard } from "../table/dom.js";
import { byRank, orderMeld } from "../model/cards.js";
import { openSheet } from "./sheet.js";
import { startReview } from "./review.js";
import { checkSection, newCheck, runCheck } from "./verify.js";
import { copyText, openPasteSheet, textButtons, textStatus } from "./match-text.js";
import { morphChildren } from "../table/morph.js";
import { operation } from "../table/panels.js";
import { formatNumber } from "../text/i18n.js";
import { hintAction, loosePoints, newDeal, pointsText, reasonText, theCard } from "../text/words.js";

// The pause between two steps of the autoplay, by its speed.
const AUTOPLAY_MS = { slow: 1400, normal: 700, fast: 250 };
const reviews = new Map(); // matchId -> finished review, for this page's life
const checks = new Map(); // matchId -> Comprobar's check (verify.js), for this page's life
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

const number = (lang, n) => formatNumber(lang, n, 1);

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
    { class: `viewer-result ${result.winner === 0 ? "good" : result.winner === 1 ? "bad" : ""}`, "aria-label": t("result.title", { number: result.number }), dataset: { key: "viewer-result" } },
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
// else where it was, else on the first control — unless another sheet is on top.
function fillKeyed(sheet, heading, children, focusKey) {
  const { panel, title, body } = sheet;
  if (title.textContent !== heading) title.textContent = heading;
  const next = document.createElement("div");
  next.append(...children.filter(Boolean));
  morphChildren(body, next);
  // Under another sheet ("Pegar una partida"), the review still running: the focus stays on the top one.
  const sheets = document.querySelectorAll(".sheet-overlay");
  if (sheets[sheets.length - 1] !== sheet.box) return;
  const target = focusKey ? panel.querySelector(`[data-key="${CSS.escape(focusKey)}"]`) : null;
  if (target && !target.disabled) target.focus({ preventScroll: true });
  else if (!panel.contains(document.activeElement) || document.activeElement.disabled) {
    const first = panel.querySelector("button:not([disabled]), select, input:not([hidden])");
    (first || panel).focus({ preventScroll: true });
  }
}

// ctx: {t: () => translator, lang: () => lang, call(method, params), speed,
//       reviewEngine(), matchId(save), onClose(opener), deal?: n, step?: i}:
//       with `deal`, only that deal (which has ended; the match may not have),
//       opened at the match's step `step` (replay's index).
export function openViewer(save, ctx) {
  const only = Number.isInteger(ctx.deal) ? ctx.deal : null;
  const id = only ? `${ctx.matchId(save)}:deal${only}` : ctx.matchId(save);
  const viewer = {
    save, // the match shown
    ctx, // what the sheet may see and do (play/menu-intents.js sheetContext)
    only, // the one deal shown, or null for the whole match
    id, // the review's key in `reviews`
    data: null, // the engine's replay
    error: null, // the text key of why there is no replay
    index: 0, // the step shown
    autoplay: null, // the autoplay's interval id, while it plays
    speed: AUTOPLAY_MS[ctx.speed] ? ctx.speed : "fast", // the autoplay's speed
    review: reviews.get(id) || null, // {differing, summary, done, total, finished} | {failed}
    endReview: null, // terminates the review's extra engines
    check: !only && checks.has(id) && checks.get(id).finished ? checks.get(id) : null, // Comprobar's check (verify.js), once asked
    live: el("p", { class: "viewer-live sr-only", "aria-live": "polite", dataset: { key: "viewer-live" } }),
    sheet: null, // the dialog (sheet.js)
    text: null, // the match as text (docs/notation.md), for "Copiar la partida"
    copied: null, // "copied" | "manual" (shown to copy by hand) after "Copiar la partida"
  };
  viewer.sheet = openSheet({
    id: "viewer",
    onClose: (opener) => {
      stopAutoplay(viewer);
      if (viewer.endReview) viewer.endReview(); // its extra engines go at once
      ctx.onClose(opener);
    },
    onKey: (event) => onKey(viewer, event),
  });
  renderViewer(viewer, "closeViewer");
  // Asked now, so that the copy is written within the player's press. Not
  // for one deal of a match under way: the text would deal its open hands.
  if (!only)
    ctx
      .call("match_text", { save })
      .then(({ text }) => {
        viewer.text = text;
        renderViewer(viewer);
      })
      .catch(() => {}); // no text: "Copiar la partida" stays disabled
  ctx
    .call("replay", only ? { save, deal: only } : { save })
    .then((result) => showReplay(viewer, result))
    .catch((err) => {
      viewer.error = err && err.code === "match_not_over" ? "viewer.not_over" : "viewer.bad_match";
      renderViewer(viewer);
    });
  return { close: () => viewer.sheet.close() };
}

function showReplay(viewer, result) {
  const { only, ctx } = viewer;
  const data = only ? dealOnly(result, only) : result;
  viewer.data = data;
  viewer.index = only && Number.isInteger(ctx.step) ? Math.max(0, Math.min(data.count - 1, ctx.step - data.offset)) : 0;
  renderViewer(viewer, "forward");
  if (viewer.review && viewer.review.finished) markReviewed(viewer);
  return runReview(viewer);
}

// Arrows, Home/End, PageUp/PageDown; true when the key was the viewer's.
function onKey(viewer, event) {
  const { data, index } = viewer;
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
  stopAutoplay(viewer);
  go(viewer, moves[event.key], true);
  return true;
}

function stopAutoplay(viewer) {
  if (viewer.autoplay !== null) clearInterval(viewer.autoplay);
  viewer.autoplay = null;
}

function go(viewer, i, speak = false) {
  viewer.index = Math.max(0, Math.min(viewer.data.count - 1, i));
  renderViewer(viewer);
  if (speak) viewer.live.textContent = stepText(viewer.ctx.t(), viewer.data.steps, viewer.index);
}

// "Reproducir" / "Pausa": one step every AUTOPLAY_MS of its speed.
function toggleAutoplay(viewer) {
  if (viewer.autoplay !== null) {
    stopAutoplay(viewer);
    renderViewer(viewer, "play");
    return;
  }
  if (viewer.index >= viewer.data.count - 1) viewer.index = 0;
  viewer.autoplay = setInterval(() => {
    if (viewer.sheet.closed || viewer.index >= viewer.data.count - 1) {
      stopAutoplay(viewer);
      if (!viewer.sheet.closed) renderViewer(viewer, "play");
      return;
    }
    go(viewer, viewer.index + 1);
  }, AUTOPLAY_MS[viewer.speed]);
  renderViewer(viewer, "play");
}

function reviewMark(t, lang, entry) {
  const cost = entry.cost === null || entry.cost === undefined ? null : entry.cost;
  return el(
    "section",
    { class: "review-mark", role: "note", "aria-label": t("review.mark_label"), dataset: { step: entry.step, key: "review-mark" } },
    el("p", { class: "review-hard", text: `${t("review.hard", { action: hardText(t, entry) })} ${reasonText(t, entry.reason, entry.why)}`.trim() }),
    cost !== null ? el("p", { class: "review-cost", text: t("review.cost", { cost: number(lang, cost) }) }) : el("p", { class: "review-cost", text: t("review.no_cost") }),
  );
}

// A part of the viewer built again only when what it shows (`from`: all it
// reads) changed; else a bare stand-in of the same tag, key and data-static,
// which the keyed update takes for the live part as it is (morph.js), as
// render.js's memo() does for the table. Stepping through a match saves the
// part's build and comparison at every step (the review's list: up to one
// button per decision of the match).
function memo(viewer, key, tag, from, build) {
  const sig = JSON.stringify(from);
  const live = viewer.sheet.body.querySelector(`${tag}[data-key="${key}"]`);
  if (live && live.getAttribute("data-static") === sig) return el(tag, { dataset: { key, static: sig } });
  const node = build();
  node.dataset.key = key;
  node.dataset.static = sig;
  return node;
}

// The finished review's list: each decision Difícil would have made otherwise.
function reviewList(viewer, t, lang) {
  const { review, index } = viewer;
  // What it reads of the step shown: whether it is one of the list's (marked current).
  const current = review.differing.some((d) => d.step === index) ? index : -1;
  return memo(viewer, "review-list", "ol", [lang, review.differing.length, current], () => buildReviewList(viewer, t));
}

function buildReviewList(viewer, t) {
  const { review, data, index } = viewer;
  const item = (d) => {
    const text = t("review.item", { deal: d.deal_number, human: stepText(t, data.steps, d.step), hard: hardText(t, d) });
    const open = () => {
      stopAutoplay(viewer);
      go(viewer, d.step, true);
    };
    const node = button(text, `review:${d.step}`, open, { class: `btn ghost review-item${d.step === index ? " current" : ""}` });
    if (d.step === index) node.setAttribute("aria-current", "step");
    return el("li", {}, node);
  };
  return el("ol", { class: "review-list" }, review.differing.map(item));
}

function reviewSection(viewer, t, lang) {
  const { review, data } = viewer;
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
    lines.push(reviewList(viewer, t, lang));
  }
  const summed = { differing: s.differing, decisions: s.decisions, withCost: s.with_cost, totalCost: s.total_cost, costliest: s.costliest ? s.costliest.step : "" };
  return el("section", { class: "review", dataset: summed }, head, lines, opinion);
}

// The table at this step: the computer's hand, the piles, the player's hand.
// The hands and the pile are memo'd (memo() below): a step changes one hand
// or the pile at most, and each is two dozen cards to build and compare.
function viewerTable(viewer, t, lang, step) {
  const state = step.state;
  const fresh = step.kind === "action" && (step.action.type === "draw" || step.action.type === "take") ? state.drawn || state.taken : null;
  const who = (seat) => el("h3", { class: "viewer-who" }, el("span", { text: t(seat === 0 ? "bar.you" : "bar.opponent") }), state.dealer === seat ? el("span", { class: "chip dealer", text: t("table.dealer") }) : null, el("span", { class: "viewer-dw", text: loosePoints(t, state.arrangements[seat].points) }));
  // What a hand's row reads of the step (handRow).
  const hand = (seat) => {
    const { melds, deadwood } = state.arrangements[seat];
    const from = [lang, seat, state.hands[seat], melds, deadwood, state.known[seat] || [], state.hands[seat].includes(fresh) ? fresh : null];
    return memo(viewer, `viewer-hand-${seat}`, "div", from, () => handRow(t, state, seat, fresh));
  };
  const pile = state.discard.slice(-6);
  return el(
    "div",
    { class: "viewer-table", dataset: { phase: state.phase } },
    el("section", { class: "viewer-seat seat-1" }, who(1), hand(1)),
    el(
      "section",
      { class: "viewer-piles", "aria-label": t("viewer.piles") },
      el("p", { class: "viewer-stock", dataset: { count: state.stock_count }, text: t("viewer.stock", { n: state.stock_count }) }),
      memo(viewer, "viewer-discard", "div", [lang, pile], () =>
        el(
          "div",
          { class: "viewer-discard", role: "group", "aria-label": t("btn.pile"), dataset: { top: state.discard.length ? state.discard[state.discard.length - 1] : "" } },
          el("span", { class: "viewer-label", text: t("btn.pile") }),
          pile.length ? pile.map((c, i) => faceCard(c, t, `mini${i === pile.length - 1 ? " top" : " under"}`)) : el("span", { class: "none", text: t("viewer.empty_pile") }),
        ),
      ),
    ),
    el("section", { class: "viewer-seat seat-0" }, who(0), hand(0)),
  );
}

function viewerControls(viewer, t) {
  const { index, data } = viewer;
  // A kept button keeps the handler of its first render (fillKeyed): each
  // reads the step shown when it is pressed.
  const step = (to) => () => {
    stopAutoplay(viewer);
    go(viewer, to(viewer.index), true);
  };
  return el(
    "div",
    { class: "viewer-controls", role: "group", "aria-label": t("viewer.controls") },
    button(t("viewer.first"), "first", step(() => 0), { "aria-keyshortcuts": "Home", disabled: index === 0 }),
    button(t("viewer.back"), "back", step((i) => i - 1), { "aria-keyshortcuts": "ArrowLeft", disabled: index === 0 }),
    button(t(viewer.autoplay !== null ? "viewer.pause" : "viewer.play"), "play", () => toggleAutoplay(viewer), { class: "btn primary" }),
    button(t("viewer.forward"), "forward", step((i) => i + 1), { "aria-keyshortcuts": "ArrowRight", disabled: index === data.count - 1 }),
    button(t("viewer.last"), "last", step(() => viewer.data.count - 1), { "aria-keyshortcuts": "End", disabled: index === data.count - 1 }),
  );
}

function dealLabel(t, d) {
  if (!d.result) return t("bar.deal", { number: d.number });
  const won = d.result.winner === 0 ? ` · ${t("viewer.you_won_deal", { points: d.result.points })}` : d.result.winner === 1 ? ` · ${t("viewer.opp_won_deal", { points: d.result.points })}` : "";
  return `${t("bar.deal", { number: d.number })} · ${t(`kind.${d.result.kind}`)}${won}`;
}

// The deal to jump to and the autoplay's speed (built again only for another
// deal, speed or language: a label per deal).
function viewerOptions(viewer, t, step, lang) {
  return memo(viewer, "viewer-options", "div", [lang, step.deal_number, viewer.speed], () => buildViewerOptions(viewer, t, step));
}

function buildViewerOptions(viewer, t, step) {
  const { data } = viewer;
  const toDeal = (v) => {
    stopAutoplay(viewer);
    go(viewer, data.deals.find((d) => d.number === Number(v)).start, true);
  };
  const setSpeed = (v) => {
    viewer.speed = v;
    if (viewer.autoplay !== null) {
      stopAutoplay(viewer);
      toggleAutoplay(viewer);
    }
  };
  return el(
    "div",
    { class: "viewer-options" },
    choice("viewer-deal", t("viewer.deal"), step.deal_number, data.deals.map((d) => [d.number, dealLabel(t, d)]), toDeal),
    choice("viewer-speed", t("menu.speed"), viewer.speed, ["slow", "normal", "fast"].map((v) => [v, t(`speed.${v}`)]), setSpeed),
  );
}

function renderViewer(viewer, focusKey = null) {
  const { sheet, ctx, data, index, review } = viewer;
  if (sheet.closed) return;
  const t = ctx.t();
  const lang = ctx.lang();
  const close = button(t("viewer.close"), "closeViewer", () => sheet.close(), { class: "btn primary" });
  if (viewer.error) return fillKeyed(sheet, t("viewer.title"), [el("p", { class: "message refusal", role: "alert", text: t(viewer.error) }), close], focusKey || "closeViewer");
  if (!data) return fillKeyed(sheet, t("viewer.title"), [el("p", { role: "status", text: t("viewer.loading") }), close], focusKey);
  const step = data.steps[index];
  const state = step.state;
  const mark = review && review.finished ? review.differing.find((d) => d.step === index) : null;
  const final = data.final;
  sheet.panel.dataset.step = String(index);
  fillKeyed(
    sheet,
    `${t("viewer.title")} · ${t("menu.seed")} ${data.seed}`,
    [
      el(
        "p",
        { class: "viewer-where" },
        el("span", { class: "viewer-deal", text: t("bar.deal", { number: step.deal_number }) }),
        el("span", { class: "viewer-step", text: t("viewer.step", { n: index + 1, count: data.count }) }),
        el("span", { class: "viewer-scores", text: t("viewer.scores", { a: state.scores[0], b: state.scores[1] }) }),
      ),
      viewerTable(viewer, t, lang, step),
      // Right under the table: what the review adds below never moves them.
      viewerControls(viewer, t),
      el("p", { class: `viewer-action${mark ? " marked" : ""}`, text: stepText(t, data.steps, index) }),
      // The parts shown at some steps only are keyed (as are the memo'd
      // ones), so that each part always shown meets its live self by
      // position (morph.js), whatever comes and goes before it.
      mark ? reviewMark(t, lang, mark) : null,
      step.result ? resultBox(t, data.rules, step.result) : null,
      index === data.count - 1 && final ? el("p", { class: "viewer-final headline", dataset: { key: "viewer-final" }, text: t(final.winner === 0 ? "match.won" : final.winner === 1 ? "match.lost" : "match.draw") + " " + t("viewer.final", { a: final.totals[0], b: final.totals[1] }) }) : null,
      viewerOptions(viewer, t, step, lang),
      el("p", { class: "note viewer-keys", text: t("viewer.keys") }),
      reviewSection(viewer, t, lang),
      // Comprobar: a finished match as a whole (verify refuses one not over).
      !viewer.only && final ? checkSection(t, viewer.check, () => startCheck(viewer)) : null,
      viewer.live,
      textStatus(t, viewer.copied, viewer.text),
      el(
        "div",
        { class: "panel-buttons" },
        textButtons(t, { text: viewer.text, canCopy: !viewer.only, onCopy: () => copyMatch(viewer), onPaste: () => pasteMatch(viewer) }),
        button(t("viewer.close"), "closeViewer", () => sheet.close(), { class: "btn ghost" }),
      ),
    ],
    focusKey,
  );
}

// "Copiar la partida": to the clipboard, else shown to copy by hand.
function copyMatch(viewer) {
  if (!viewer.text) return;
  return copyText(viewer.text).then((ok) => {
    viewer.copied = ok ? "copied" : "manual";
    renderViewer(viewer, ok ? "copyMatch" : "match-text");
  });
}

// "Pegar una partida": a finished match pasted opens in a viewer of its own,
// in this one's place (closing it comes back where this one would have).
function pasteMatch(viewer) {
  const { ctx } = viewer;
  stopAutoplay(viewer);
  openPasteSheet({
    t: ctx.t,
    call: ctx.call,
    onOpen: (save) => {
      viewer.sheet.close();
      openViewer(save, { ...ctx, deal: undefined, step: undefined });
    },
  });
}

// The review, once per match and page (reviews), one at a time (a viewer
// closed and opened again waits for the one before).
async function runReview(viewer) {
  if (viewer.review && (viewer.review.finished || viewer.review.failed)) return;
  const previous = reviewing;
  let release;
  reviewing = new Promise((resolve) => (release = resolve));
  try {
    await previous;
    if (viewer.sheet.closed) return;
    viewer.review = reviews.get(viewer.id) || null;
    if (viewer.review) {
      markReviewed(viewer);
      renderViewer(viewer);
      return;
    }
    await reviewAll(viewer);
  } finally {
    release();
  }
}

async function reviewAll(viewer) {
  const { data, only, ctx, sheet } = viewer;
  const total = data.deals.length;
  viewer.review = { differing: [], summary: null, done: 0, total, finished: false };
  const run = startReview({
    save: viewer.save,
    total,
    base: only ? only - 1 : 0, // deal numbers: base + 1 .. base + total
    offset: data.offset || 0, // one deal: its steps counted from 0
    call: ctx.call,
    reviewEngine: ctx.reviewEngine,
    closed: () => sheet.closed,
    onProgress(done) {
      viewer.review.done = done;
      renderViewer(viewer);
    },
  });
  viewer.endReview = run.end;
  const review = await run.done;
  viewer.endReview = null;
  viewer.review = review;
  if (!review || review.failed) {
    if (review) renderViewer(viewer);
    return;
  }
  reviews.set(viewer.id, review);
  markReviewed(viewer);
  renderViewer(viewer);
}

// Comprobar pressed: the check runs on the page's engine, a part at a time
// (verify.js); the focus stays in the section while the button goes.
function startCheck(viewer) {
  if (viewer.check) return;
  const check = newCheck();
  viewer.check = check;
  checks.set(viewer.id, check);
  renderViewer(viewer, "closeViewer");
  runCheck({
    save: viewer.save,
    call: viewer.ctx.call,
    check,
    closed: () => viewer.sheet.closed,
    onProgress: () => renderViewer(viewer),
  }).then(() => {
    if (!check.finished) checks.delete(viewer.id); // closed or failed: asked again next time
  });
}

// For tests: done, and by how many engines (the page's and extra ones).
function markReviewed(viewer) {
  viewer.sheet.panel.dataset.reviewed = "true";
  viewer.sheet.panel.dataset.reviewEngines = String(viewer.review.engines);
}
