// The one rule for how long a notice stays (play/notices.js keeps the
// clocks, table/notices.js finds it a place on the felt). A notice is
// {key, kind, vars, actions}: kind "info" | "warning" | "error" (its
// colour); actions [{label, intent}] are the answers it asks for. A notice
// that asks for an answer stays until it gets one (or ×); every other one
// goes by itself once it has been on the screen long enough to read twice
// at an unhurried pace, longer for a warning or an error. Whoever adds a
// notice (data, runtime, the table) only calls notify(key, kind, vars):
// its life is decided here, never at the call.

export const NOTICE_KINDS = ["info", "warning", "error"];

// About 15 characters a second read, and a moment to notice it first.
const READ_MS_PER_CHAR = 65;
const NOTICE_MS_MIN = 6000;
const NOTICE_MS_MAX = 20000;
const KIND_FACTOR = { info: 1, warning: 1.5, error: 1.5 };

// Needs an answer: it stays.
export function asksAnswer(notice) {
  return Array.isArray(notice.actions) && notice.actions.length > 0;
}

// How long the notice stays on the screen, in ms (Infinity: until answered),
// given its text as shown.
export function noticeLife(notice, text = "") {
  if (asksAnswer(notice)) return Infinity;
  const factor = KIND_FACTOR[notice.kind] ?? KIND_FACTOR.info;
  const read = 1500 + String(text).length * READ_MS_PER_CHAR;
  return Math.round(Math.min(NOTICE_MS_MAX, Math.max(NOTICE_MS_MIN, read * factor)));
}

// A notice as the list keeps it (one per key): the kind checked, the
// actions kept only when each names a label and an intent.
export function makeNotice(key, kind = "info", vars = {}, actions = []) {
  const good = Array.isArray(actions) ? actions.filter((a) => a && typeof a.label === "string" && typeof a.intent === "string") : [];
  return { key, kind: NOTICE_KINDS.includes(kind) ? kind : "info", vars: vars || {}, actions: good };
}

// The notice's sentence in the language of t. A var given as {text: key}
// is a text of its own, translated here too (so a switch of language
// retells the whole notice).
export function noticeText(t, notice) {
  const vars = {};
  for (const [name, value] of Object.entries(notice.vars || {})) vars[name] = value && typeof value === "object" && typeof value.text === "string" ? t(value.text) : value;
  return t(notice.key, vars);
}
