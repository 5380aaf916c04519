// DOM events → intents. One delegated listener per event type on the root;
// what to do comes from data-intent, its arguments from the other data-*.
// Game code never reads the DOM; it receives intents(name, args).
// Keyboard: arrows move through the hand (and the knock panel's cards),
// Enter/Space press the focused control (native buttons), Escape cancels.

const CARD_GROUPS = [".hand .hand-card", ".panel.knock .knock-card"];

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
    if (!target || !root.contains(target) || target.tagName === "SELECT" || target.tagName === "INPUT" || target.disabled) return;
    dispatch(target);
  });
  root.addEventListener("change", (event) => {
    const target = event.target.closest("select[data-intent], input[data-intent]");
    if (target && root.contains(target)) dispatch(target);
  });
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      if (intents.escape) intents.escape({});
      event.preventDefault();
      return;
    }
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity };
    if (!(event.key in moves)) return;
    const current = event.target.closest && event.target.closest(CARD_GROUPS.join(","));
    if (!current) return;
    const group = CARD_GROUPS.map((sel) => [...root.querySelectorAll(sel)]).find((list) => list.includes(current));
    if (!group || !group.length) return;
    const step = moves[event.key];
    const index = group.indexOf(current);
    const next = step === -Infinity ? 0 : step === Infinity ? group.length - 1 : (index + step + group.length) % group.length;
    group[next].focus();
    event.preventDefault();
  });
}
