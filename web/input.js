// DOM events → intents. One delegated listener per event type on the root
// (keys on the document, so a shortcut works wherever the focus is);
// what to do comes from data-intent, its arguments from the other data-*.
// Game code never reads the DOM; it receives intents(name, args).
// Keyboard: the hand is one Tab stop and the arrows move inside it (roving
// tabindex; also the knock panel's cards); Enter/Space press the focused
// control (native buttons); Alt+Left/Right moves a card of the hand with
// the "manual" sort; Escape cancels; a single letter presses the
// visible button whose aria-keyshortcuts it is (shortcuts.js).

const CARD_GROUPS = [".hand .hand-card", ".panel.knock .knock-card"];
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

  root.addEventListener("click", (event) => {
    const target = event.target.closest("[data-intent]");
    if (
      !target ||
      !root.contains(target) ||
      target.tagName === "SELECT" ||
      target.tagName === "INPUT" ||
      target.disabled
    )
      return;
    dispatch(target);
  });
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
