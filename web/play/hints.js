// Where Difícil's hint points on the table (the "Pista" button's message
// and the guided deal's bar mark the same control).

// The control a hint's action points at ("take", "stock", "card:7H"...),
// marked on the table; dd: the view's discard_deadwood.
export function hintTargetOf(action, dd = {}) {
  const targets = { take: "take", pass: "pass", big_gin: "big_gin", discard: `card:${action.card}` };
  if (action.type === "draw") return action.from === "discard" ? "discard" : "stock";
  if (action.type === "knock") return dd[action.card] === 0 ? "gin" : "knock";
  return targets[action.type] || null;
}
