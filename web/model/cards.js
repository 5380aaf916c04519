// Playing cards as the rules see them: ranks, suits, points, melds and the
// hand's display orders. Pure functions of card codes ("7H", "TS"): no DOM.

export const SUITS = ["C", "D", "H", "S"];
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];

export function rankOf(card) {
  return card[0];
}
export function suitOf(card) {
  return card[1];
}
export function rankIndex(card) {
  return RANKS.indexOf(card[0]);
}
export function cardPoints(card) {
  return Math.min(10, rankIndex(card) + 1);
}
// The sum of the cards' points (deadwood: ace 1, 2-10 their value, J/Q/K 10).
export function deadwoodPoints(cards) {
  return cards.reduce((sum, c) => sum + cardPoints(c), 0);
}
// The rank as printed on the card ("10" for T).
export function rankText(card) {
  return card[0] === "T" ? "10" : card[0];
}

// Sort keys for the hand's display orders.
export function bySuit(a, b) {
  return SUITS.indexOf(suitOf(a)) - SUITS.indexOf(suitOf(b)) || rankIndex(a) - rankIndex(b);
}
export function byRank(a, b) {
  return rankIndex(a) - rankIndex(b) || SUITS.indexOf(suitOf(a)) - SUITS.indexOf(suitOf(b));
}

// Meld checks for the knock panel's rearranging (the engine validates again).
export function isSet(cards) {
  return cards.length >= 3 && cards.length <= 4 && cards.every((c) => rankOf(c) === rankOf(cards[0]));
}
export function isRun(cards) {
  if (cards.length < 3 || !cards.every((c) => suitOf(c) === suitOf(cards[0]))) return false;
  const ranks = cards.map(rankIndex).sort((a, b) => a - b);
  return ranks.every((r, i) => i === 0 || r === ranks[i - 1] + 1);
}
export function isMeld(cards) {
  return isSet(cards) || isRun(cards);
}
export function orderMeld(cards) {
  return [...cards].sort(isSet(cards) ? bySuit : byRank);
}
