// DOM events → intents. One delegated listener per event type on the root
// (keys on the document, so a shortcut works wherever the focus is);
// what to do comes from data-intent, its arguments from the other data-*.
// Game code never reads the DOM; it receives intents(name, args).
// One pointer model for touch, mouse and pen: a tap is a pointerdown and a
// pointerup on the same control that moved less than TAP_SLOP_PX (a longer
// move is a drag, drag.js); it acts on the pointerup, so a tap never depends
// on the browser's click (which a touch browser may drop, e.g. right after a
// drag it took for a fling). The click that a gesture produces is its own
// and is swallowed, only that one (until the next pointerdown); a click
// with no gesture (Enter/Space on a button, assistive technology) acts.
// Keyboard: the hand is one Tab stop and the arrows move inside it (roving
// tabindex; also the knock panel's cards); Enter/Space press the focused
// control (native buttons); Alt+Left/Right moves a card of the hand with
// the "manual" sort; Escape cancels; a single letter presses the
// visible button whose aria-keyshortcuts it is (shortcuts.js).
// While a new deal lands (motion.js's DEALING on the root) the first tap on
// the table or key only lands it at once (intents.skipDeal): the deal's
// cards are not targets yet, and nothing it hides can be pressed. A tap on
// the top bar lands it too and presses what it tapped (Menú opens the menu).
import { HELD } from "./dom.js";

const CARD_GROUPS = [".hand .hand-card", ".panel.knock .knock-card"];
// A move this long is a drag (drag.js), not a tap.
export const TAP_SLOP_PX = 8;
const CLICK_AFTER_MS = 1000; // a gesture's own click comes at once; later, it is another
const MOVES = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity };

function usable(node) {
  return !node.disabled && !node.closest(`${HELD}, [hidden]`) && node.getClientRects().length > 0;
}

export function bindInput(root, intents) {
  const input = {
    root, // the page's #app: what is pressed must be inside it
    intents, // {name: (args) => void} (play/intents.js)
    gesture: null, // {id, target, x, y, moved}: the pointer that is down on the table
    gestureEnded: 0, // when the last such gesture ended (its click, if any, is swallowed)
    pointer: null, // the last pointerdown's pointerType ("touch", "mouse", "pen")
  };
  // On the document, capture: before drag.js, and whatever the target, so a
  // gesture anywhere (a sheet's too) is a new one.
  document.addEventListener("pointerdown", (event) => pointerDown(input, event), true);
  document.addEventListener("pointermove", (event) => pointerMove(input, event), true);
  document.addEventListener("pointerup", (event) => pointerUp(input, event), true);
  document.addEventListener("pointercancel", (event) => pointerCancel(input, event), true);
  document.addEventListener("click", (event) => click(input, event), true);
  root.addEventListener("change", (event) => {
    const target = event.target.closest("select[data-intent], input[data-intent]");
    if (target && root.contains(target)) dispatch(input, target);
  });
  root.addEventListener("mousedown", (event) => touchFocus(input, event));
  root.addEventListener("focusin", (event) => focusIn(input, event));
  document.addEventListener("keydown", (event) => keyDown(input, event));
}

function dispatch(input, target, extra = {}) {
  const name = target.dataset.intent;
  const handler = input.intents[name];
  if (!handler) return;
  const args = { ...target.dataset, ...extra };
  if (target.type === "checkbox") args.value = target.checked;
  else if ("value" in target && target.tagName !== "BUTTON") args.value = target.value;
  handler(args);
}

function pressable(input, node) {
  const target = node && node.closest && node.closest("[data-intent]");
  if (!target || !input.root.contains(target) || target.tagName === "SELECT" || target.tagName === "INPUT") return null;
  return target;
}

// A touch player never sees the focus, and letting it go costs a phone a
// style pass of its own (3-6 ms of the engine's answer at x4, issue 33). A
// touch tap on a table button does not take it at all: the browser would
// focus the button at the tap's compatibility mousedown, after the pointerup
// the intent ran on, so it could only be let go at the next render, the
// engine's answer. Dialogs, the menu and the top bar keep the tap's focus,
// and a mouse's press, a key and assistive technology are untouched.
function touchFocus(input, event) {
  if (input.pointer === "touch" && event.target.closest && event.target.closest(".table button")) event.preventDefault();
}

function pointerDown(input, event) {
  input.gestureEnded = 0;
  input.gesture = null;
  input.pointer = event.pointerType || "mouse";
  if (input.intents.modality) input.intents.modality({ kind: event.pointerType || "mouse" });
  if (!event.isPrimary || event.button !== 0 || !input.root.contains(event.target)) return;
  // A tap on the table while the deal lands: only that (its click swallowed
  // too). The top bar hides nothing of the deal: a tap there (Menú, Pista)
  // lands the deal and does what it says.
  const skips = dealing(input) && event.target.closest(".page");
  if (skips) input.intents.skipDeal();
  const only = skips && !event.target.closest(".topbar");
  input.gesture = { id: event.pointerId, target: only ? null : pressable(input, event.target), x: event.clientX, y: event.clientY, moved: false };
}

const dealing = (input) => input.root.hasAttribute("data-dealing") && Boolean(input.intents.skipDeal);

function pointerMove(input, event) {
  const { gesture } = input;
  if (!gesture || event.pointerId !== gesture.id || gesture.moved) return;
  if (Math.hypot(event.clientX - gesture.x, event.clientY - gesture.y) >= TAP_SLOP_PX) gesture.moved = true;
}

function pointerUp(input, event) {
  if (!input.gesture || event.pointerId !== input.gesture.id) return;
  const { target, moved } = input.gesture;
  input.gesture = null;
  input.gestureEnded = performance.now();
  // Touch keeps the pointer on its first target: the tap must also end there.
  const under = document.elementFromPoint(event.clientX, event.clientY);
  if (moved || !target || !target.isConnected || target.disabled || !usable(target)) return;
  if (under && !target.contains(under)) return;
  dispatch(input, target);
}

function pointerCancel(input, event) {
  if (!input.gesture || event.pointerId !== input.gesture.id) return;
  input.gesture = null;
  input.gestureEnded = performance.now();
}

// The gesture's own click (detail > 0, right after it) is swallowed on
// whatever button it lands, the table's or one the tap just opened (a
// sheet's); labels, checkboxes and selects keep their click.
function click(input, event) {
  const own = event.detail > 0 && input.gestureEnded && performance.now() - input.gestureEnded < CLICK_AFTER_MS;
  if (own && event.target.closest && event.target.closest("button")) {
    input.gestureEnded = 0;
    event.preventDefault();
    event.stopPropagation();
    return;
  }
  const target = pressable(input, event.target);
  if (target && !target.disabled) dispatch(input, target);
}

// The hand card that has the focus is the hand's Tab stop from now on.
function focusIn(input, event) {
  const card = event.target.closest && event.target.closest(".hand .hand-card");
  if (!card) return;
  for (const other of input.root.querySelectorAll(".hand .hand-card")) other.tabIndex = other === card ? 0 : -1;
  if (input.intents.rove) input.intents.rove({ card: card.dataset.card });
}

function arrow(input, event) {
  const { root } = input;
  const current = event.target.closest && event.target.closest(CARD_GROUPS.join(","));
  if (!current || !root.contains(current)) return false;
  const group = CARD_GROUPS.map((sel) => [...root.querySelectorAll(sel)]).find((list) => list.includes(current));
  if (!group || !group.length) return false;
  const step = MOVES[event.key];
  const index = group.indexOf(current);
  const next = step === -Infinity ? 0 : step === Infinity ? group.length - 1 : (index + step + group.length) % group.length;
  group[next].focus();
  return true;
}

// Alt+Left/Right moves the focused card along the hand ("manual" sort).
function moveCard(input, event) {
  const current = event.target.closest && event.target.closest(".hand.sort-manual .hand-card");
  const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
  if (!current || !step || !input.root.contains(current) || !input.intents.reorder) return false;
  const order = [...current.parentNode.querySelectorAll(".hand-card")].map((n) => n.dataset.card);
  const from = order.indexOf(current.dataset.card);
  const to = from + step;
  if (to < 0 || to >= order.length) return true;
  order.splice(to, 0, ...order.splice(from, 1));
  input.intents.reorder({ order, card: current.dataset.card });
  return true;
}

function shortcut(input, event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return false;
  const tag = event.target.tagName;
  if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return false;
  const key = event.key.toUpperCase();
  const target = [...input.root.querySelectorAll("[aria-keyshortcuts]")].find(
    (node) => node.getAttribute("aria-keyshortcuts").toUpperCase() === key && usable(node),
  );
  if (!target) return false;
  dispatch(input, target);
  return true;
}

function keyDown(input, event) {
  const { intents } = input;
  if (intents.modality && !["Shift", "Control", "Alt", "Meta"].includes(event.key)) intents.modality({ kind: "key" });
  if (event.defaultPrevented) return;
  if (dealing(input) && !["Shift", "Control", "Alt", "Meta", "Tab"].includes(event.key)) {
    intents.skipDeal();
    event.preventDefault();
    return;
  }
  if (event.key === "Escape") {
    // In the day's offer (a dialog over the table): "Ahora no".
    const offer = event.target && event.target.closest ? event.target.closest('[data-key="daily-offer"]') : null;
    if (offer && intents.dailyNo) intents.dailyNo({});
    else if (intents.escape) intents.escape({});
    event.preventDefault();
    return;
  }
  const handled = (event.altKey && moveCard(input, event)) || (event.key in MOVES ? arrow(input, event) : shortcut(input, event));
  if (handled) event.preventDefault();
}
