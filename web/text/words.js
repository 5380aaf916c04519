// Every sentence that names a card or a person is built here, so that it
// agrees in both languages: Spanish cards have a gender ("la reina", "el
// rey", "el 7"; "descártala" / "descártalo"), verbs a person ("repartes tú",
// "reparte el rival"), points a number ("1 punto", "2 puntos").
// Functions take the translator t (i18n.js) and return finished text.

import { isSet, rankOf, rankText, suitOf } from "../model/cards.js";

// "7 de corazones", "as de picas", "rey de tréboles" (t from i18n.js).
export function cardName(card, t) {
  const rank = card[0];
  const word = "AJQK".includes(rank) ? t(`rank.${rank}`) : rankText(card);
  return t("card.name", { rank: word, suit: t(`suit.${card[1]}`) });
}

// Spanish: la jota, la reina; the rest (as, 2..10, rey) are masculine.
const FEMININE_RANKS = new Set(["J", "Q"]);

export function gender(card) {
  return FEMININE_RANKS.has(rankOf(card)) ? "f" : "m";
}

// "el 7 de picas", "la reina de corazones", "the ace of spades".
export function theCard(t, card) {
  return t(`card.the_${gender(card)}`, { card: cardName(card, t) });
}

// "1 punto" / "12 puntos"; "1 point" / "12 points".
export function pointsText(t, n) {
  return t(n === 1 ? "points.one" : "points.other", { n });
}

// "1 punto suelto" / "12 puntos sueltos"; "1 point of deadwood".
export function loosePoints(t, n) {
  return t(n === 1 ? "loose.one" : "loose.other", { n });
}

// "Mano 2: repartes tú." / "Deal 2: the computer deals."
export function newDeal(t, number, dealerSeat) {
  return t(dealerSeat === 0 ? "deal.start_you" : "deal.start_opp", { number });
}

// "Has elegido la reina de picas: descártala con Descartar o tocándola otra vez."
export function selectedPrompt(t, card) {
  return t(`turn.selected_${gender(card)}`, { card: theCard(t, card) });
}

// "Si descartas el 7 de picas, te quedas con 12 puntos sueltos."
export function ifDiscard(t, card, n) {
  return t("table.if_discard", { card: theCard(t, card), points: loosePoints(t, n) });
}

// A card of the hand for a screen reader: "7 de picas, en escalera de picas",
// "rey de tréboles, en grupo de reyes", "as de oros, suelta".
export function handCardName(t, card, meld) {
  const name = cardName(card, t);
  if (!meld) return t("hand.loose", { card: name });
  if (isSet(meld)) return t("hand.in_set", { card: name, ranks: t(`ranks.${rankOf(card)}`) });
  return t("hand.in_run", { card: name, suit: t(`suit.${suitOf(card)}`) });
}

// What the computer did, from a move {type, from, card, gin}.
export function computerMove(t, move) {
  if (!move) return "";
  switch (move.type) {
    case "take":
      return t("opp.take", { card: theCard(t, move.card) });
    case "pass":
      return t("opp.pass");
    case "draw":
      return move.from === "discard" ? t("opp.draw_discard", { card: theCard(t, move.card) }) : t("opp.draw_stock");
    case "discard":
      return t("opp.discard", { card: theCard(t, move.card) });
    case "knock":
      return move.gin ? t("opp.gin") : t("opp.knock");
    case "big_gin":
      return t("opp.big_gin");
    default:
      return "";
  }
}

// The computer's turn so far, from the deal's events (so a reload keeps it):
// its moves since the player's last one, in one line ("El rival roba del
// mazo y descarta el 7 de picas"), until the player moves; "" before.
export function computerTurn(t, events) {
  const run = [];
  for (let i = (events || []).length - 1; i >= 0 && events[i].seat !== 0; i--) if (events[i].seat === 1) run.unshift(events[i]);
  if (!run.length) return "";
  const gin = (events || []).some((e) => e.type === "showdown" && e.kind === "gin");
  const [first, next] = run.slice(-2).map((e) => ({ type: e.type, from: e.from || null, card: e.card || null, gin }));
  if (next && next.type === "discard") return t("opp.and_discard", { first: computerMove(t, first), card: theCard(t, next.card) });
  return computerMove(t, next || first);
}

// The heading over the defender's laid-off cards: onto whose melds.
export function layoffsLabel(t, knockerSeat) {
  return t(knockerSeat === 0 ? "result.layoffs_on_you" : "result.layoffs_on_opp");
}

// "descarta el 7 de picas", "cierra descartando la jota de picas".
export function hintAction(t, action, gin) {
  switch (action.type) {
    case "take":
      return t("hint.take");
    case "pass":
      return t("hint.pass");
    case "draw":
      return action.from === "discard" ? t("hint.draw_discard") : t("hint.draw_stock");
    case "discard":
      return t("hint.discard", { card: theCard(t, action.card) });
    case "knock":
      return t(gin ? "hint.gin" : "hint.knock", { card: theCard(t, action.card) });
    case "big_gin":
      return t("hint.big_gin");
    default:
      return "";
  }
}

// "Descartas boca abajo la reina de picas."
export function knockDiscard(t, card) {
  return t("knock.discard", { card: theCard(t, card) });
}

// What an edit of the knock panel costs against the proposal, or "".
// proposed/now: deadwood points; bonus: the gin bonus of these rules.
export function knockLoss(t, proposed, now, bonus) {
  if (proposed === 0 && now > 0) {
    return t("knock.loses_gin", { bonus: pointsText(t, bonus), points: loosePoints(t, now) });
  }
  if (now > proposed) {
    return t("knock.more_deadwood", { from: proposed, to: pointsText(t, now), lost: pointsText(t, now - proposed) });
  }
  return "";
}

// The meld a card completes: "el grupo de jotas", "la escalera de picas".
function theMeld(t, cards) {
  if (isSet(cards)) return t("meld.the_set", { ranks: t(`ranks.${rankOf(cards[0])}`) });
  return t("meld.the_run", { suit: t(`suit.${suitOf(cards[0])}`) });
}

// Difícil's reason for a hint or a review mark, from its code and the facts
// behind it (gin/ai: the hint's "why"): cards with their article, points and
// deadwood with their unit, the sentence capitalised. "" for an unknown code.
export function reasonText(t, code, why = {}) {
  const key = `reason.${code}`;
  const facts = {};
  for (const [name, value] of Object.entries(why || {})) {
    if (["card", "avoid", "picked"].includes(name)) facts[name] = theCard(t, value);
    else if (name === "meld" && Array.isArray(value)) facts[name] = theMeld(t, value);
    else if (name === "deadwood" || name === "opp_deadwood") facts[name] = loosePoints(t, value);
    else if (name === "points") facts[name] = pointsText(t, value);
    else facts[name] = value;
  }
  const text = t(key, facts);
  if (text === key) return "";
  return text.charAt(0).toUpperCase() + text.slice(1);
}
