// The knock editor: the proposed declaration for a knock (or gin, or big
// gin), moving one card between melds and deadwood while the knock stays
// legal, and checking a draft kept over a reload. Pure functions of the
// view and the draft; the engine validates the declaration again.

import { deadwoodPoints, isMeld, orderMeld } from "./cards.js";

// The knock (or gin) proposed for a discard: the engine's legal action
// carries the best arrangement of the other ten cards.
export function knockDraft(view, action) {
  const hand = view.hand.filter((c) => c !== action.card);
  const melded = new Set(action.melds.flat());
  const melds = action.melds.map((m) => orderMeld(m));
  return {
    type: action.type,
    card: action.card || null,
    melds,
    deadwood: hand.filter((c) => !melded.has(c)),
    proposed: { melds: melds.map((m) => [...m]), deadwood: hand.filter((c) => !melded.has(c)) },
  };
}

// A kept knock draft comes back only if it is still a legal declaration of
// this hand: its discard is a legal knock, its melds valid and disjoint, its
// deadwood within the limit.
export function restoredKnock(view, kept) {
  if (!kept || typeof kept !== "object" || !Array.isArray(kept.melds)) return null;
  const action = view.legal.find((a) => a.type === kept.type && (a.type === "big_gin" || a.card === kept.card));
  if (!action || (action.type !== "knock" && action.type !== "big_gin")) return null;
  const hand = view.hand.filter((c) => c !== action.card);
  const used = new Set();
  for (const meld of kept.melds) {
    if (!Array.isArray(meld) || !meld.every((c) => typeof c === "string" && hand.includes(c) && !used.has(c)))
      return null;
    if (!isMeld(meld)) return null;
    meld.forEach((c) => used.add(c));
  }
  const deadwood = hand.filter((c) => !used.has(c));
  if (deadwoodPoints(deadwood) > (view.knock_limit ?? view.rules.knock_limit) || (action.type === "big_gin" && deadwood.length)) return null;
  const draft = knockDraft(view, action);
  draft.melds = kept.melds.map((m) => orderMeld(m));
  draft.deadwood = deadwood;
  return draft;
}

// Move `card` between the draft's melds and its deadwood. Returns null when
// done, or the reason it cannot be: "cannot_add" (a loose card fits no
// meld) or "cannot_move" (leaving the meld would break the limit).
export function moveInDraft(draft, card, limit) {
  const index = draft.melds.findIndex((m) => m.includes(card));
  if (index === -1) {
    const target = draft.melds.findIndex((m) => isMeld([...m, card]));
    if (target === -1) return "cannot_add";
    draft.melds[target] = orderMeld([...draft.melds[target], card]);
    draft.deadwood = draft.deadwood.filter((c) => c !== card);
    return null;
  }
  const rest = draft.melds[index].filter((c) => c !== card);
  const freed = isMeld(rest) ? [card] : draft.melds[index];
  if (deadwoodPoints(draft.deadwood) + deadwoodPoints(freed) > limit) return "cannot_move";
  if (isMeld(rest)) draft.melds[index] = rest;
  else draft.melds.splice(index, 1);
  draft.deadwood = [...draft.deadwood, ...freed];
  return null;
}

export function resetDraft(draft) {
  draft.melds = draft.proposed.melds.map((m) => [...m]);
  draft.deadwood = [...draft.proposed.deadwood];
}
