// A challenge by link: the same match (seed, rules, level) and the sender's
// result, in the address after the "#", so nothing leaves the device but
// what the player sends. A link reads
//   #seed=DIA-2026-12-03&rules=traditional&level=hard&reto=MS4yNDUuMTEyLjYuMi4x
// `reto` is the sender's result, versioned and in base64url so that a glance
// at the address tells nothing (the page hides it until the match is over).
// No DOM: also run under Node by the tests.

import { DAILY_RULES, dayOfSeed, levelOfSave } from "./daily.js";
import { normalizeSeed, seedFromHash } from "./seed.js";
import { rulesFromHash, rulesHash } from "./variants.js";

export const RESULT_VERSION = "1";
export const LEVELS = ["easy", "normal", "hard"];
const MAX_TOKEN = 64;
const MAX_POINTS = 99_999;
const MAX_DEALS = 999;

// The result a player shares: {totals: [yours, the computer's], deals, gins,
// undercuts} (their own gins and big gins, the undercuts they made).
export function summaryOf(view) {
  const history = view.history || [];
  const mine = (r) => r.knocker === 0 && (r.kind === "gin" || r.kind === "big_gin");
  return {
    totals: [view.final.totals[0], view.final.totals[1]],
    deals: history.length,
    gins: history.filter(mine).length,
    undercuts: history.filter((r) => r.kind === "undercut" && r.winner === 0).length,
  };
}

const isCount = (n, most) => Number.isInteger(n) && n >= 0 && n <= most;

// A summary read from a link, storage or a file: every field in its range.
export function validSummary(s) {
  if (!s || typeof s !== "object" || Array.isArray(s) || !Array.isArray(s.totals) || s.totals.length !== 2) return false;
  if (!s.totals.every((n) => isCount(n, MAX_POINTS)) || !isCount(s.deals, MAX_DEALS) || s.deals < 1) return false;
  return isCount(s.gins, s.deals) && isCount(s.undercuts, s.deals);
}

// "won" | "lost" | "drawn", from the totals (as gin.match decides the winner).
export function outcomeOf(summary) {
  const [a, b] = summary.totals;
  return a > b ? "won" : a < b ? "lost" : "drawn";
}

const toBase64Url = (text) => btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export function encodeSummary(s) {
  return toBase64Url([RESULT_VERSION, s.totals[0], s.totals[1], s.deals, s.gins, s.undercuts].join("."));
}

// The summary a token carries, or null (another version, or not one).
export function decodeSummary(token) {
  if (typeof token !== "string" || token.length > MAX_TOKEN || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  let text;
  try {
    text = atob(token.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
  const m = /^1\.(\d{1,5})\.(\d{1,5})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return null;
  const [a, b, deals, gins, undercuts] = m.slice(1).map(Number);
  const summary = { totals: [a, b], deals, gins, undercuts };
  return validSummary(summary) ? summary : null;
}

// The rules as a link writes them, always named ("traditional" too: a link
// without rules would be played under the receiver's settings).
// `rules`: a view's or save's rules, or {profile, options} as a link names them.
export function rulesParam(rules) {
  const flat = rules.options ? { profile: rules.profile, ...rules.options } : rules;
  return rulesHash(flat).replace(/^&rules=/, "") || flat.profile;
}

// What identifies a match to compare results on: seed, rules and level.
export const matchKey = (seed, rules, level) => `${String(seed).toUpperCase()}|${rules}|${level}`;

// The key of the match a save is of, or null when its level changed mid-match.
export function keyOfSave(save, rules) {
  const level = levelOfSave(save);
  return level ? matchKey(save.seed, rulesParam(rules), level) : null;
}

// Is this save the day's match: its seed, the default rules, Difícil throughout?
export function isDailyMatch(save, rules) {
  const day = dayOfSeed(String(save && save.seed));
  return day !== null && keyOfSave(save, rules) === matchKey(save.seed, DAILY_RULES.profile, DAILY_RULES.level);
}

// The address part of a link to this match (and, with a summary, the challenge).
export function linkHash(seed, rules, level, summary = null) {
  const parts = [`seed=${encodeURIComponent(seed)}`, `rules=${rulesParam(rules)}`, `level=${level}`];
  if (summary) parts.push(`reto=${encodeSummary(summary)}`);
  return `#${parts.join("&")}`;
}

function param(hash, name) {
  const m = new RegExp(`(?:^#|&)${name}=([^&]*)`).exec(hash || "");
  return m ? m[1] : null;
}

export function levelFromHash(hash) {
  const level = param(hash, "level");
  return LEVELS.includes(level) ? level : null;
}

// The rules a link names for the match it opens: {profile, options} and,
// when it names one, its level; null when it names none of them.
export function linkRules(hash) {
  const rules = rulesFromHash(hash);
  const level = levelFromHash(hash);
  if (!level) return rules;
  return { ...(rules || { profile: DAILY_RULES.profile, options: {} }), level };
}

// The challenge a link carries: {seed, rules (as the link writes them),
// level, from: the sender's summary}, or null (none, or not readable).
export function challengeFromHash(hash) {
  const token = param(hash, "reto");
  if (token === null) return null;
  const seed = seedFromHash(hash);
  const rules = rulesFromHash(hash);
  const level = levelFromHash(hash);
  const from = decodeSummary(token);
  if (!seed || !normalizeSeed(seed) || !rules || !level || !from) return null;
  return { seed, rules: rulesParam(rules), level, from };
}
