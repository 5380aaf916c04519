// The words of the day's match and of a challenge, in both languages: a
// day's date, the line a player shares, a result told from either side.
// Functions take the translator t (i18n.js) and return finished text.

import { localeOf } from "./i18n.js";
import { dateOfDay, dayOfSeed } from "../model/daily.js";
import { outcomeOf } from "../model/challenge.js";
import { profileName, rulesFromHash } from "../model/variants.js";

// "3 de diciembre de 2026" / "3 December 2026"; with the weekday, "jueves, 3 de…"; without the year, "3 de diciembre".
export function dayText(lang, day, { weekday = false, year = true } = {}) {
  const date = dateOfDay(day);
  if (!date) return day;
  const options = { day: "numeric", month: "long", ...(year ? { year: "numeric" } : {}), ...(weekday ? { weekday: "long" } : {}) };
  return new Intl.DateTimeFormat(localeOf(lang), options).format(date);
}

// "1 mano" / "6 manos", "2 gin", "1 undercut" (literal keys: the i18n tests look for them).
const COUNTS = {
  deals: ["count.deals_one", "count.deals_other"],
  gins: ["count.gins_one", "count.gins_other"],
  undercuts: ["count.undercuts_one", "count.undercuts_other"],
};
export const countText = (t, what, n) => t(COUNTS[what][n === 1 ? 0 : 1], { n });

// A result as its player tells it ("gané 245 a 112"), as the table tells the
// player theirs ("Ganaste 245 a 112") and as it tells someone else's ("Ganó…").
const TOLD = {
  sender: { won: "share.won", lost: "share.lost", drawn: "share.drawn" },
  you: { won: "games.won", lost: "games.lost", drawn: "games.drawn" },
  them: { won: "challenge.their_won", lost: "challenge.their_lost", drawn: "challenge.their_drawn" },
};
export function resultText(t, summary, who) {
  return t(TOLD[who][outcomeOf(summary)], { a: summary.totals[0], b: summary.totals[1] });
}

// What a match is called in a list: "Partida del día del 3 de diciembre de
// 2026", or "Partida K7Q2-M9XD · Oklahoma · Difícil". rules: as a link writes them.
export function matchName(t, lang, seed, rules, level) {
  const day = dayOfSeed(seed);
  if (day && rules === "traditional" && level === "hard") return t("challenge.match_daily", { date: dayText(lang, day) });
  const parsed = rulesFromHash(`#rules=${rules}`) || { profile: "traditional", options: {} };
  const profile = profileName(t, `${parsed.profile}${parsed.options.hollywood ? "-hollywood" : ""}`);
  return t("challenge.match", { seed, profile, level: t(`level.${level}`) });
}

// The line Compartir sends before the link: the match, the result, deals, gins, undercuts.
export function shareLine(t, lang, summary, { seed, rules, level }) {
  const day = dayOfSeed(seed);
  const daily = day && rules === "traditional" && level === "hard";
  const parts = {
    result: resultText(t, summary, "sender"),
    deals: countText(t, "deals", summary.deals),
    gins: countText(t, "gins", summary.gins),
    undercuts: countText(t, "undercuts", summary.undercuts),
  };
  if (daily) return t("share.line_daily", { date: dayText(lang, day), ...parts });
  return t("share.line", { match: matchName(t, lang, seed, rules, level), ...parts });
}
