// DOM events → intents. One delegated listener per event type on the root;
// what to do comes from data-intent, its arguments from the other data-*.
// Game code never reads the DOM; it receives intents(name, args).

export function bindInput(root, intents) {
  function dispatch(target) {
    const name = target.dataset.intent;
    const handler = intents[name];
    if (!handler) return;
    const args = { ...target.dataset };
    if ("value" in target) args.value = target.value;
    handler(args);
  }
  root.addEventListener("click", (event) => {
    const target = event.target.closest("[data-intent]");
    if (!target || !root.contains(target) || target.tagName === "SELECT" || target.disabled) return;
    dispatch(target);
  });
  root.addEventListener("change", (event) => {
    const target = event.target.closest("select[data-intent]");
    if (target && root.contains(target)) dispatch(target);
  });
}
