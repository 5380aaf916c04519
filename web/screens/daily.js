// "Partida del día": today's match, a calendar of the last 30 days (each
// day played or not, with its result) and the challenges received, in a
// sheet (sheet.js). (The days' record is in "Estadísticas", stats.js.) Keyboard: the calendar is one Tab stop, the arrows move by a
// day (left, right) or a week (up, down), Home/End go to its first and last
// day, Enter plays the day. Text through textContent only (table/dom.js).

import { button, el } from "../table/dom.js";
import { openSheet } from "./sheet.js";
import { dailySeed, dateOfDay, lastDays } from "../model/daily.js";
import { outcomeOf } from "../model/challenge.js";
import { readChallenges } from "../data/daily.js";
import { localeOf, whenFormat } from "../text/i18n.js";
import { dayText, matchName, resultText } from "../text/daily-words.js";

// Each day's name for a screen reader, by its status (literal keys: the i18n tests look for them).
const DAY_NAMES = { won: "daily.day_won", lost: "daily.day_lost", drawn: "daily.day_drawn", open: "daily.day_open", none: "daily.day_none" };
const MARKS = { won: "✓", lost: "✗", drawn: "=", open: "…", none: "" };
const MOVES = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };

// ctx: {t(), lang(), now (a Date), storage, current() → {view, save},
//       openMatches(), readDaily(), playDay(day), playChallenge(challenge),
//       onClose(opener)} (play/daily.js).
export function openDailySheet(ctx) {
  const days = lastDays(ctx.now).reverse(); // oldest first, today last
  const cal = {
    ctx, // what the sheet may see and do
    days, // the calendar's days, oldest first
    focusDay: days[days.length - 1], // the calendar's Tab stop (roving tabindex)
    sheet: null, // the dialog (sheet.js)
  };
  cal.sheet = openSheet({ id: "daily", onClose: ctx.onClose, onKey: (event) => onKey(cal, event) });
  renderDaily(cal, "daily-today");
  return { close: () => cal.sheet.close() };
}

// {day: {kind: won|lost|drawn|open|none, result}} for the calendar's days.
function statusOf(cal) {
  const { ctx } = cal;
  const played = new Map(ctx.readDaily().days.map((d) => [d.day, d]));
  const { view, save } = ctx.current();
  const open = new Set(ctx.openMatches().map((m) => m.seed));
  if (save && view && !view.over) open.add(String(save.seed));
  const out = {};
  for (const day of cal.days) {
    const result = played.get(day) || null;
    out[day] = { kind: result ? outcomeOf(result) : open.has(dailySeed(day)) ? "open" : "none", result };
  }
  return out;
}

function dayName(t, lang, day, status) {
  const date = dayText(lang, day);
  const r = status.result;
  return t(DAY_NAMES[status.kind], r ? { date, a: r.totals[0], b: r.totals[1] } : { date });
}

function todaySection(cal, t, lang, status) {
  const { ctx } = cal;
  const today = cal.days[cal.days.length - 1];
  const s = status[today];
  const line = s.result ? resultText(t, s.result, "you") : t(s.kind === "open" ? "daily.status_open" : "daily.status_none");
  const label = s.result ? "daily.again_today" : s.kind === "open" ? "daily.resume_today" : "daily.play_today";
  const play = () => {
    cal.sheet.close();
    ctx.playDay(today);
  };
  return el(
    "section",
    { class: "daily-today", dataset: { day: today, status: s.kind } },
    el("h3", { text: t("daily.today", { date: dayText(lang, today, { weekday: true }) }) }),
    el("p", { class: "daily-status", text: line }),
    button(t(label), "daily-today", play, { class: "btn primary" }),
  );
}

// The last 30 days as a month calendar: weeks in rows, Monday first.
function calendar(cal, t, lang, status) {
  const { ctx, days } = cal;
  const weekday = new Intl.DateTimeFormat(localeOf(lang), { weekday: "narrow" });
  const head = Array.from({ length: 7 }, (_, i) => el("span", { class: "weekday", text: weekday.format(new Date(2024, 0, 1 + i)) }));
  const first = dateOfDay(days[0]);
  const blanks = Array.from({ length: (first.getDay() + 6) % 7 }, () => el("li", { class: "blank", "aria-hidden": "true" }));
  const cells = days.map((day) => {
    const s = status[day];
    const play = () => {
      cal.sheet.close();
      ctx.playDay(day);
    };
    const node = button("", `day:${day}`, play, {
      class: `btn day ${s.kind}`,
      "aria-label": dayName(t, lang, day, s),
      "aria-current": day === days[days.length - 1] ? "date" : null,
      tabindex: day === cal.focusDay ? "0" : "-1",
      dataset: { key: `day:${day}`, day, status: s.kind }, // button()'s data-key with them
    });
    node.append(el("span", { class: "day-number", "aria-hidden": "true", text: String(Number(day.slice(8))) }), el("span", { class: "day-mark", "aria-hidden": "true", text: MARKS[s.kind] }));
    return el("li", {}, node);
  });
  return el(
    "section",
    { class: "daily-calendar", "aria-labelledby": "daily-calendar-title" },
    // The span in the heading ("del 4 de noviembre al 3 de diciembre"): the grid has no month names.
    el("h3", { id: "daily-calendar-title", text: t("daily.calendar", { from: dayText(lang, days[0], { year: false }), to: dayText(lang, days[days.length - 1], { year: false }) }) }),
    el("div", { class: "weekdays", "aria-hidden": "true" }, head),
    el("ol", { class: "days", "aria-labelledby": "daily-calendar-title" }, blanks, cells),
    el("p", { class: "note daily-legend", text: t("daily.legend") }),
    el("p", { class: "note", text: `${t("daily.calendar_note")} ${t("daily.keys")}` }),
  );
}

// The challenges received, newest first: the sender's result only once the player's is there.
function challengeList(cal, t, lang) {
  const { ctx } = cal;
  const list = readChallenges(ctx.storage).slice().reverse();
  const when = whenFormat(lang);
  const items = list.map((c, i) => {
    const status = c.mine ? t("challenge.vs", { mine: resultText(t, c.mine, "you"), theirs: resultText(t, c.from, "them") }) : t("challenge.hidden");
    const node = el(
      "button",
      { type: "button", class: "btn game-item challenge-item", dataset: { key: `challenge:${i}`, seed: c.seed, answered: String(Boolean(c.mine)) } },
      el("span", { class: "game-outcome", text: `${matchName(t, lang, c.seed, c.rules, c.level)} · ${t(c.mine ? "challenge.play_again" : "challenge.play")}` }),
      el("span", { class: "game-details", text: `${status} · ${when.format(new Date(c.at))}` }),
    );
    node.addEventListener("click", () => {
      cal.sheet.close();
      ctx.playChallenge(c);
    });
    return el("li", {}, node);
  });
  return el(
    "section",
    { class: "daily-challenges" },
    el("h3", { text: t("challenge.title") }),
    items.length ? el("ul", { class: "game-list" }, items) : el("p", { class: "none", text: t("challenge.none") }),
  );
}

function renderDaily(cal, focusKey = null) {
  const { ctx, sheet } = cal;
  const t = ctx.t();
  const lang = ctx.lang();
  const status = statusOf(cal);
  sheet.fill(
    t("daily.title"),
    [
      el("p", { class: "note", text: t("daily.about") }),
      todaySection(cal, t, lang, status),
      calendar(cal, t, lang, status),
      challengeList(cal, t, lang),
      el("div", { class: "panel-buttons" }, button(t("sheet.back_menu"), "closeDaily", () => sheet.close(), { class: "btn primary" })),
    ],
    focusKey,
  );
}

// The arrows inside the calendar; true when the key was the calendar's.
function onKey(cal, event) {
  const day = event.target && event.target.dataset ? event.target.dataset.day : null;
  if (!day || !event.target.classList.contains("day") || event.ctrlKey || event.metaKey || event.altKey) return false;
  const at = cal.days.indexOf(day);
  let to = null;
  if (event.key in MOVES) to = at + MOVES[event.key];
  else if (event.key === "Home") to = 0;
  else if (event.key === "End") to = cal.days.length - 1;
  if (to === null) return false;
  cal.focusDay = cal.days[Math.max(0, Math.min(cal.days.length - 1, to))];
  renderDaily(cal, `day:${cal.focusDay}`);
  return true;
}
