// The day's match: one seed per local date ("DIA-2026-12-03"), the default
// rules and Difícil, so everyone who opens it that day gets the same cards
// whatever their settings. The date is the player's own (midnight in the
// local time zone), never UTC. No DOM: also run under Node by the tests.

export const DAILY_PREFIX = "DIA-";
export const CALENDAR_DAYS = 30; // the calendar: today and the 29 days before
// The day's rules and level, as the controller starts a match by them.
export const DAILY_RULES = Object.freeze({ profile: "traditional", options: Object.freeze({}), level: "hard" });

const pad = (n) => String(n).padStart(2, "0");

// "2026-12-03": the local date of `date` (a Date).
export function dayOf(date) {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

// The local midnight that begins `day`, or null when `day` is not a real date.
export function dateOfDay(day) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(typeof day === "string" ? day : "");
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const date = new Date(y, mo, d);
  return date.getFullYear() === y && date.getMonth() === mo && date.getDate() === d ? date : null;
}

export const dailySeed = (day) => `${DAILY_PREFIX}${day}`;

// The day a seed is the day's match of ("DIA-2026-12-03" → "2026-12-03"), or null.
export function dayOfSeed(seed) {
  if (typeof seed !== "string" || !seed.toUpperCase().startsWith(DAILY_PREFIX)) return null;
  const day = seed.slice(DAILY_PREFIX.length);
  return dateOfDay(day) ? day : null;
}

// The last `n` days up to `now`'s local date, newest first.
export function lastDays(now = new Date(), n = CALENDAR_DAYS) {
  const days = [];
  for (let i = 0; i < n; i++) days.push(dayOf(new Date(now.getFullYear(), now.getMonth(), now.getDate() - i)));
  return days;
}

// The level every deal of a save was played at, or null when it changed
// (the save's meta.levels; a pending change of level counts as a change).
export function levelOfSave(save) {
  const meta = (save && save.meta) || {};
  const levels = Array.isArray(meta.levels) && meta.levels.length ? meta.levels : [meta.level];
  const level = levels[0];
  if (!["easy", "normal", "hard"].includes(level) || !levels.every((l) => l === level)) return null;
  return meta.next_level && meta.next_level !== level ? null : level;
}

// A statistics line (data/finished.js) of a day's match: its seed, the
// default rules and Difícil. The statistics keep these apart from free play.
export function isDailyLine(line) {
  return Boolean(line) && dayOfSeed(line.seed) !== null && line.profile === "traditional" && line.level === "hard";
}
