// What the player can do: each intent (from table/input.js, table/drag.js)
// changes the UI state or asks the controller for a move. Intents never read
// the DOM. Each is a named function of the intents' record (createIntents
// below) and the intent's arguments (the pressed control's data-*); this
// file holds the moves at the table, play/menu-intents.js the menu, the
// settings and the sheets.

import { cardPoints } from "../model/cards.js";
import { newSeed } from "../model/seed.js";
import { hintAction, newDeal, reasonText } from "../text/words.js";
import { knockDraft, moveInDraft, resetDraft } from "../model/knock.js";
import { COACH_INTENTS } from "./coach.js";
import { DAILY_INTENTS } from "./daily.js";
import { hintTargetOf } from "./hints.js";
import { MENU_INTENTS, closeMenu, helpToMenu, watchAt } from "./menu-intents.js";
import { LOOK_INTENTS } from "./look-intents.js";

// deps: {state, controller, render, announce, setLanguage, clearLog, tutorial, notices}.
// Returns {name: (args) => void} for input.js and drag.js.
export function createIntents({ state, controller, render, announce, setLanguage, clearLog, tutorial, notices }) {
  const ctx = {
    state, // the page's shared state (app.js)
    controller, // moves, the engine, the player's data (play/controller.js)
    render, // app.js's render funnel
    announce, // a line for the screen reader's log
    setLanguage, // switches the page's language (app.js)
    clearLog, // empties the screen reader's log
    tutorial, // the guided deal (play/tutorial.js)
    notices, // the notices over the felt (play/notices.js)
    watchAt: null, // (deal, step, key): the viewer on a deal just ended (the coach's summary)
  };
  ctx.watchAt = (deal, step, key) => watchAt(ctx, deal, step, key);
  const table = { ...TABLE_INTENTS, ...MENU_INTENTS, ...COACH_INTENTS, ...DAILY_INTENTS, ...LOOK_INTENTS };
  const intents = Object.fromEntries(Object.entries(table).map(([name, intent]) => [name, (args) => intent(ctx, args)]));
  // A notice's answer: the notice goes, then the intent it names.
  intents.noticeAnswer = (args) => {
    notices.dismiss(args.notice);
    if (args.then !== "noticeAnswer" && intents[args.then]) intents[args.then](args);
  };
  return { ...intents, ...tutorial.intents };
}

// --- choosing and discarding a card ----------------------------------------------

function select(ctx, { card }) {
  const { state } = ctx;
  if (!state.view || state.ui.panel) return;
  if (state.ui.selected === card) {
    ctx.controller.act({ type: "discard", card });
    return;
  }
  state.ui.selected = card;
  if (state.ui.message && state.ui.message.kind === "refusal") state.ui.message = null;
  state.ui.focus = `card:${card}`;
  ctx.render();
}

function discardSelected(ctx) {
  const { state, controller } = ctx;
  if (!state.view) return;
  if (!state.ui.selected || !state.view.hand.includes(state.ui.selected)) {
    if (state.view.phase === "discard" || state.view.to_act !== 0)
      controller.refuseLocally(state.view.to_act === 0 ? "select_first" : "not_your_turn");
    else controller.act({ type: "discard", card: state.view.hand[0] }); // the engine says why not
    return;
  }
  controller.act({ type: "discard", card: state.ui.selected });
}

// A card dropped on the pile: the same discard as two taps.
// Returns the engine's promise (or nothing when refused at once), so
// drag.js knows when to let go of the card it holds at the drop point.
function dragDiscard(ctx, { card }) {
  const { state } = ctx;
  if (!state.view || !state.view.hand.includes(card) || state.ui.panel) return undefined;
  return ctx.controller.act({ type: "discard", card });
}

// The hand in the player's order ("manual" sort; drag.js and Alt+arrows
// in input.js): kept for this deal, beside the save.
function reorder(ctx, { order, card }) {
  const { state } = ctx;
  const view = state.view;
  if (!view || state.settings.sort !== "manual" || !Array.isArray(order)) return;
  if (order.length !== view.hand.length || !view.hand.every((c) => order.includes(c))) return;
  state.ui.order = { seed: view.seed, deal: view.deal_number, cards: [...order] };
  if (card) state.ui.focus = `card:${card}`;
  ctx.render();
}

// --- the knock confirmation ----------------------------------------------------

function knock(ctx, { kind }) {
  const { state } = ctx;
  const view = state.view;
  if (!view || state.busy || view.to_act !== 0) return;
  const dd = view.discard_deadwood || {};
  const options = view.legal.filter((a) => a.type === "knock" && (kind === "gin" ? dd[a.card] === 0 : dd[a.card] > 0));
  if (!options.length) return;
  // The selected card if it allows this, else the best discard for it:
  // least deadwood left, then the highest card thrown.
  let action = options.find((a) => a.card === state.ui.selected);
  if (!action) {
    action = [...options].sort((a, b) => dd[a.card] - dd[b.card] || cardPoints(b.card) - cardPoints(a.card))[0];
    state.ui.selected = action.card;
  }
  state.ui.knock = knockDraft(state.view, action);
  state.ui.panel = "knock";
  state.ui.message = null;
  state.ui.focus = "confirm";
  ctx.render();
}

function bigGin(ctx) {
  const { state } = ctx;
  const view = state.view;
  const action = view && view.legal.find((a) => a.type === "big_gin");
  if (!action || state.busy) return;
  state.ui.knock = knockDraft(state.view, action);
  state.ui.panel = "knock";
  state.ui.focus = "confirm";
  ctx.render();
}

// Move one card between melds and deadwood while the knock stays legal.
function knockMove(ctx, { card }) {
  const { state } = ctx;
  const draft = state.ui.knock;
  if (!draft || draft.type === "big_gin") return;
  const refused = moveInDraft(draft, card, state.view.knock_limit ?? state.view.rules.knock_limit);
  const key = refused === "cannot_add" ? "knock.cannot_add" : "knock.cannot_move";
  if (refused) ctx.controller.setMessage("info", refused, (t) => t(key));
  else state.ui.message = null;
  state.ui.focus = `knock:${card}`;
  ctx.render();
}

function resetKnock(ctx) {
  const draft = ctx.state.ui.knock;
  if (!draft) return;
  resetDraft(draft);
  ctx.state.ui.message = null;
  ctx.render();
}

function confirmKnock(ctx) {
  const { state, controller } = ctx;
  const draft = state.ui.knock;
  if (!draft || state.busy) return;
  const action = draft.type === "big_gin" ? { type: "big_gin", melds: draft.melds } : { type: "knock", card: draft.card, melds: draft.melds };
  // On a refusal the panel stays open with the message; while the engine
  // wakes it is queued like any move (controller.moveTask).
  controller.moveTask(async () => {
    const result = await controller.call("act", { action });
    state.ui.message = null;
    state.ui.hintTarget = null;
    state.ui.panel = null;
    state.ui.knock = null;
    controller.accept(result);
  });
}

// --- a hint, the next deal, a new match ------------------------------------------

function hint(ctx) {
  const { state, controller } = ctx;
  if (!state.view || state.busy || state.view.to_act !== 0 || state.view.over) {
    if (state.view && state.view.to_act === 1) controller.refuseLocally("not_your_turn");
    return;
  }
  controller.runTask(async () => {
    const { hint } = await controller.call("hint", {});
    const a = hint.action;
    const dd = state.view.discard_deadwood || {};
    const gin = a.type === "knock" && dd[a.card] === 0;
    // Reason codes come from gin/ai with the facts behind them (hint.why).
    const reasonOf = (t) => reasonText(t, hint.reason, hint.why);
    controller.setMessage("hint", hint.reason, (t) => t("hint.label", { action: hintAction(t, a, gin), reason: reasonOf(t) }).trim());
    // Marked, not chosen: the natural tap on the card marked then only
    // selects it (a second one discards), and the keyboard's focus is on it.
    const target = hintTargetOf(a, dd);
    state.ui.hintTarget = target;
    state.ui.focus = HINT_FOCUS[target] || target;
    if (target && target.startsWith("card:")) state.ui.rover = a.card;
  });
}

// The control a hint's target names, by its data-key (a card's is its target).
const HINT_FOCUS = { take: "act:take", pass: "act:pass", stock: "stock", discard: "pile", knock: "act:knock:knock", gin: "act:knock:gin", big_gin: "act:bigGin" };

function next(ctx) {
  const { state, controller } = ctx;
  if (state.ui.panel !== "deal") return;
  if (state.ui.tutorial) return ctx.tutorial.finish(); // the guided deal ends with its first deal
  if (state.ui.result) controller.acknowledge(state.ui.result.number);
  state.ui.result = null;
  state.ui.panel = state.view && state.view.over ? "match" : null;
  state.ui.focus = state.ui.panel === "match" ? "again" : null;
  state.ui.lastComputer = null;
  if (!state.ui.panel) {
    ctx.announce(newDeal(state.t, state.view.deal_number, state.view.dealer));
    state.ui.focus = state.view.to_act === 0 ? (state.view.phase.startsWith("upcard") ? "act:take" : "stock") : null;
  }
  // The next deal's table is under the panel already: the panel only closes
  // (app.js closeDealResult); the match result is a render.
  ctx.render(state.ui.panel ? "full" : "close");
  controller.playOn(); // the computer may deal the first move
}

function again(ctx) {
  ctx.state.ui.panel = null;
  ctx.controller.runTask(() => ctx.controller.startMatch(newSeed()));
}

// The match result closes to look at the table (and reach the menu);
// "Ver el resultado" on the table opens it again.
function closeResult(ctx) {
  const { state } = ctx;
  if (state.ui.panel !== "match") return;
  state.ui.panel = null;
  state.ui.focus = "act:showResult";
  ctx.render();
}

function showResult(ctx) {
  const { state } = ctx;
  if (!state.view || !state.view.over || state.ui.panel) return;
  state.ui.panel = "match";
  state.ui.focus = "again";
  ctx.render();
}

// Closes the knock panel, a confirmation or the rules page.
function cancel(ctx) {
  const { state } = ctx;
  if (state.ui.panel === "knock") {
    state.ui.knock = null;
    state.ui.focus = state.ui.selected ? `card:${state.ui.selected}` : null;
  }
  if (["knock", "confirmNew", "confirmReplay", "help"].includes(state.ui.panel)) state.ui.panel = null;
  state.ui.message = null;
  ctx.render();
  ctx.controller.playOn();
}

// --- the keyboard's and the pointer's own --------------------------------------------

// Escape: one step back (the menu, the rules page, a result, a panel), else
// the selection and the hint go.
function escape(ctx) {
  const { state } = ctx;
  if (state.ui.menuOpen) return closeMenu(ctx);
  if (state.ui.panel === "help") return helpToMenu(ctx);
  if (state.ui.panel === "match") return closeResult(ctx);
  if (["knock", "confirmNew", "confirmReplay"].includes(state.ui.panel)) return cancel(ctx);
  if (state.ui.panel) return;
  const focused = state.ui.selected;
  state.ui.selected = null;
  state.ui.hintTarget = null;
  state.ui.message = null;
  if (focused) state.ui.focus = `card:${focused}`;
  ctx.render();
}

function rove(ctx, { card }) {
  ctx.state.ui.rover = card || null; // no render: input.js moved the focus itself
}

// How the player last pressed something: "touch", "mouse", "pen" or "key" (no render).
function modality(ctx, { kind }) {
  ctx.state.ui.modality = kind;
}

const TABLE_INTENTS = {
  select,
  discardSelected,
  dragDiscard,
  reorder,
  take: (ctx) => ctx.controller.act({ type: "take" }),
  pass: (ctx) => ctx.controller.act({ type: "pass" }),
  drawStock: (ctx) => ctx.controller.act({ type: "draw", from: "stock" }),
  drawDiscard: (ctx) => ctx.controller.act({ type: "draw", from: "discard" }),
  knock,
  bigGin,
  knockMove,
  resetKnock,
  confirmKnock,
  hint,
  next,
  again,
  closeResult,
  showResult,
  cancel,
  escape,
  rove,
  modality,
};
