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

const CARD_GROUPS = [".hand .hand-card", ".panel.knock .knock-card"];
// A move this long is a drag (drag.js), not a tap.
export const TAP_SLOP_PX = 8;
const CLICK_AFTER_MS = 1000; // a gesture's own click comes at once; later, it is another
const MOVES = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity };

function usable(node) {
  return !node.disabled && !node.closest("[inert], [hidden]") && node.getClientRects().length > 0;
}

export function bindInput(root, intents) {
  function dispatch(target, extra = {}) {
    const name = target.dataset.intent;
    const handler = intents[name];
    if (!handler) return;
    const args = { ...target.dataset, ...extra };
    if (target.type === "checkbox") args.value = target.checked;
    else if ("value" in target && target.tagName !== "BUTTON") args.value = target.value;
    handler(args);
  }

  function pressable(node) {
    const target = node && node.closest && node.closest("[data-intent]");
    if (!target || !root.contains(target) || target.tagName === "SELECT" || target.tagName === "INPUT") return null;
    return target;
  }

  let gesture = null; // {id, target, x, y, moved}: the pointer that is down on the table
  let gestureEnded = 0; // when the last such gesture ended (its click, if any, is swallowed)

  // On the document, capture: before drag.js, and whatever the target, so a
  // gesture anywhere (a sheet's too) is a new one.
  document.addEventListener(
    "pointerdown",
    (event) => {
      gestureEnded = 0;
      gesture = null;
      if (intents.modality) intents.modality({ kind: event.pointerType || "mouse" });
      if (!event.isPrimary || event.button !== 0 || !root.contains(event.target)) return;
      gesture = { id: event.pointerId, target: pressable(event.target), x: event.clientX, y: event.clientY, moved: false };
    },
    true,
  );
  document.addEventListener(
    "pointermove",
    (event) => {
      if (!gesture || event.pointerId !== gesture.id || gesture.moved) return;
      if (Math.hypot(event.clientX - gesture.x, event.clientY - gesture.y) >= TAP_SLOP_PX) gesture.moved = true;
    },
    true,
  );
  document.addEventListener(
    "pointerup",
    (event) => {
      if (!gesture || event.pointerId !== gesture.id) return;
      const { target, moved } = gesture;
      gesture = null;
      gestureEnded = performance.now();
      // Touch keeps the pointer on its first target: the tap must also end there.
      const under = document.elementFromPoint(event.clientX, event.clientY);
      if (moved || !target || !target.isConnected || target.disabled || !usable(target)) return;
      if (under && !target.contains(under)) return;
      dispatch(target);
    },
    true,
  );
  document.addEventListener(
    "pointercancel",
    (event) => {
      if (!gesture || event.pointerId !== gesture.id) return;
      gesture = null;
      gestureEnded = performance.now();
    },
    true,
  );
  // The gesture's own click (detail > 0, right after it) is swallowed on
  // whatever button it lands, the table's or one the tap just opened (a
  // sheet's); labels, checkboxes and selects keep their click.
  document.addEventListener(
    "click",
    (event) => {
      const own = event.detail > 0 && gestureEnded && performance.now() - gestureEnded < CLICK_AFTER_MS;
      if (own && event.target.closest && event.target.closest("button")) {
        gestureEnded = 0;
        event.preventDefault();
        event.stopPropagation();
        return;
      }
      const target = pressable(event.target);
      if (target && !target.disabled) dispatch(target);
    },
    true,
  );
  root.addEventListener("change", (event) => {
    const target = event.target.closest("select[data-intent], input[data-intent]");
    if (target && root.contains(target)) dispatch(target);
  });
  // The hand card that has the focus is the hand's Tab stop from now on.
  root.addEventListener("focusin", (event) => {
    const card = event.target.closest && event.target.closest(".hand .hand-card");
    if (!card) return;
    for (const other of root.querySelectorAll(".hand .hand-card")) other.tabIndex = other === card ? 0 : -1;
    if (intents.rove) intents.rove({ card: card.dataset.card });
  });

  function arrow(event) {
    const current = event.target.closest && event.target.closest(CARD_GROUPS.join(","));
    if (!current || !root.contains(current)) return false;
    const group = CARD_GROUPS.map((sel) => [...root.querySelectorAll(sel)]).find((list) => list.includes(current));
    if (!group || !group.length) return false;
    const step = MOVES[event.key];
    const index = group.indexOf(current);
    const next =
      step === -Infinity ? 0 : step === Infinity ? group.length - 1 : (index + step + group.length) % group.length;
    group[next].focus();
    return true;
  }

  // Alt+Left/Right moves the focused card along the hand ("manual" sort).
  function moveCard(event) {
    const current = event.target.closest && event.target.closest(".hand.sort-manual .hand-card");
    const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (!current || !step || !root.contains(current) || !intents.reorder) return false;
    const order = [...current.parentNode.querySelectorAll(".hand-card")].map((n) => n.dataset.card);
    const from = order.indexOf(current.dataset.card);
    const to = from + step;
    if (to < 0 || to >= order.length) return true;
    order.splice(to, 0, ...order.splice(from, 1));
    intents.reorder({ order, card: current.dataset.card });
    return true;
  }

  function shortcut(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return false;
    const tag = event.target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return false;
    const key = event.key.toUpperCase();
    const target = [...root.querySelectorAll("[aria-keyshortcuts]")].find(
      (node) => node.getAttribute("aria-keyshortcuts").toUpperCase() === key && usable(node),
    );
    if (!target) return false;
    dispatch(target);
    return true;
  }

  document.addEventListener("keydown", (event) => {
    if (intents.modality && !["Shift", "Control", "Alt", "Meta"].includes(event.key)) intents.modality({ kind: "key" });
    if (event.defaultPrevented) return;
    if (event.key === "Escape") {
      if (intents.escape) intents.escape({});
      event.preventDefault();
      return;
    }
    const handled = (event.altKey && moveCard(event)) || (event.key in MOVES ? arrow(event) : shortcut(event));
    if (handled) event.preventDefault();
  });
}
