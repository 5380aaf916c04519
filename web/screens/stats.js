// "Estadísticas": the record per level and rules, export / import / clear,
// the coach's chart, the space used and the values kept aside. A sheet
// (sheet.js); text through textContent only (table/dom.js).

import { button, choice, el } from "../table/dom.js";
import { openSheet } from "./sheet.js";
import { summarize, KEEP, LEVELS, PROFILES, ImportRefused, MAX_IMPORT_BYTES } from "../data/finished.js";
import { clearCoachLog } from "../data/coachlog.js";
import { coachChart } from "./coach-chart.js";
import { askLuck, luckSection } from "./luck-chart.js";
import { checkDuplicates, clearDuplicates, mergeDuplicates, readDuplicates } from "../data/duplicates.js";
import { profileName } from "../model/variants.js";
import { KEYS } from "../data/keys.js";
import { ASIDE_SLOTS } from "../data/storage.js";
import { formatNumber, whenFormat } from "../text/i18n.js";
import { isDailyLine } from "../model/daily.js";
import { clearDays, dayTally, exportDaily, mergeImport, readDaily, readImport } from "../data/daily.js";

// What each key kept aside holds, in words.
const ASIDE_NAMES = {
  [KEYS.match]: "aside.match",
  [KEYS.settings]: "aside.settings",
  [KEYS.finished]: "aside.finished",
  [KEYS.records]: "aside.records",
  [KEYS.open]: "aside.open",
  [KEYS.totals]: "aside.records",
  [KEYS.duplicate]: "aside.records",
  [KEYS.daily]: "aside.daily",
  [KEYS.challenges]: "aside.challenges",
  [KEYS.challengesV1]: "aside.challenges",
};
// About what a browser gives one site in localStorage (5,242,880 characters in Chromium).
const QUOTA_KB = 5120;

function download(text, name, type) {
  const blob = new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const link = el("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// The space used, and each value kept aside with its raw text to download.
function dataSection(t, lang, storage) {
  const when = whenFormat(lang);
  const kb = Math.ceil(storage.used() / 1024);
  const aside = storage.asideList();
  const items = aside.map((slot, i) => {
    const what = t(Object.hasOwn(ASIDE_NAMES, slot.key) ? ASIDE_NAMES[slot.key] : "aside.other");
    const stamp = Number.isFinite(slot.at) ? when.format(new Date(slot.at)) : "—";
    const save = () => download(slot.raw, `gin-apartado-${i + 1}.txt`, "text/plain");
    return el("li", {}, button(t("stats.aside_download", { what, when: stamp }), `aside:${i}`, save, { class: "btn game-item" }));
  });
  return el(
    "div",
    { class: "stats-data" },
    el("p", { class: "note space-note", text: t("stats.space", { kb: formatNumber(lang, kb, 2), max: formatNumber(lang, QUOTA_KB, 2) }) }),
    items.length ? el("h3", { text: t("stats.aside_title") }) : null,
    items.length ? el("p", { class: "note", text: t("stats.aside_note", { n: ASIDE_SLOTS }) }) : null,
    items.length ? el("ul", { class: "game-list aside-list" }, items) : null,
  );
}

// ctx: {t: () => translator, lang: () => "es"|"en", finished (data/finished.js),
//       storage, settings: () => {...}, currentSave: () => the match in progress's
//       save | null, applySettings(settings), onClose(opener)}
export function openStatsSheet(ctx) {
  const stats = {
    ctx, // what the sheet may see and do (play/menu-intents.js sheetContext)
    sheet: openSheet({ id: "stats", onClose: ctx.onClose }), // the dialog (sheet.js)
    filter: { level: "", profile: "" }, // the record shown: "" for any level or profile
    status: null, // {kind: "ok"|"error"|"busy", text: (t) => string}: the last export, import or clear
    asking: false, // "Borrar" pressed: the confirmation is shown
    input: null, // the hidden file input "Importar" opens
    luck: null, // your play with the luck removed: askLuck's answer, null while asked (luck-chart.js)
  };
  stats.input = el("input", { type: "file", accept: ".json,application/json", class: "file-input", hidden: true, "aria-hidden": "true", tabindex: "-1" });
  stats.input.addEventListener("change", () => {
    const file = stats.input.files && stats.input.files[0];
    stats.input.value = "";
    if (file) importFile(stats, file);
  });
  renderStats(stats, "closeStats");
  refreshLuck(stats);
  return { rerender: () => renderStats(stats), close: () => stats.sheet.close() };
}

// The engine's figures of Difícil with your cards, asked again after a change.
function refreshLuck(stats) {
  stats.luck = null;
  askLuck(stats.ctx.storage, stats.ctx.call).then((luck) => {
    stats.luck = luck;
    if (!stats.sheet.closed) renderStats(stats);
  });
}
const statRow = (t, key, value, name) => el("div", { class: "stat", dataset: { stat: name } }, el("dt", { text: t(key) }), el("dd", { text: value }));

// The record summed, one line per counter.
function rows(t, lang, s) {
  const row = (key, value, name) => statRow(t, key, value, name);
  const best = s.best_match ? t("stats.best_value", { a: s.best_match.totals[0], b: s.best_match.totals[1] }) : "—";
  return el(
    "dl",
    { class: "stats-list" },
    row("stats.matches", String(s.matches), "matches"),
    row("stats.won", String(s.won), "won"),
    row("stats.lost", String(s.lost), "lost"),
    row("stats.drawn", String(s.drawn), "drawn"),
    row("stats.deals", String(s.deals), "deals"),
    row("stats.deals_won", String(s.deals_won), "deals_won"),
    row("stats.gins", String(s.gins), "gins"),
    row("stats.big_gins", String(s.big_gins), "big_gins"),
    row("stats.knocks", String(s.knocks), "knocks"),
    row("stats.undercuts_made", String(s.undercuts_made), "undercuts_made"),
    row("stats.undercuts_suffered", String(s.undercuts_suffered), "undercuts_suffered"),
    row("stats.knock_deadwood", s.knock_deadwood_avg === null ? "—" : formatNumber(lang, s.knock_deadwood_avg, 2), "knock_deadwood_avg"),
    // The best margin may be a loss (every match lost): named as one, and a
    // single loss is not the "narrowest" of anything.
    row(bestName(s), best, "best_match"),
    row("stats.streak", String(s.streak), "streak"),
    row("stats.best_streak", String(s.best_streak), "best_streak"),
  );
}

function bestName(s) {
  if (!s.best_match || s.best_match.totals[0] >= s.best_match.totals[1]) return "stats.best";
  return s.lost === 1 ? "stats.only_loss" : "stats.best_loss";
}

// "Estadísticas": the days' record, apart from free play.
function dailyStats(t, daily) {
  const s = dayTally(daily);
  const row = (key, value, name) => statRow(t, key, value, name);
  const best = s.best ? t("stats.best_value", { a: s.best.totals[0], b: s.best.totals[1] }) : "—";
  return el(
    "section",
    { class: "daily-stats", "aria-labelledby": "daily-stats-title" },
    el("h3", { id: "daily-stats-title", text: t("daily.title") }),
    el("p", { class: "note", text: t("daily.stats_note") }),
    s.days
      ? el(
          "dl",
          { class: "stats-list" },
          row("daily.stats_days", String(s.days), "days"),
          row("daily.stats_won", String(s.won), "won"),
          row("daily.stats_lost", String(s.lost), "lost"),
          row("daily.stats_drawn", String(s.drawn), "drawn"),
          row("stats.gins", String(s.gins), "gins"),
          row("stats.undercuts_made", String(s.undercuts), "undercuts"),
          row("daily.stats_best", best, "best"),
        )
      : el("p", { class: "none", text: t("daily.stats_empty") }),
  );
}

// "Borrar" asks first.
function clearConfirm(stats, t) {
  if (!stats.asking) return null;
  const yes = () => {
    stats.asking = false;
    const ok = stats.ctx.finished.clear(stats.ctx.currentSave()) && clearCoachLog() && clearDays(stats.ctx.storage) && clearDuplicates(stats.ctx.storage);
    stats.status = { kind: ok ? "ok" : "error", text: (tt) => tt(ok ? "stats.cleared" : "data.cannot_save") };
    renderStats(stats, "clear");
    refreshLuck(stats);
  };
  const no = () => {
    stats.asking = false;
    renderStats(stats, "clear");
  };
  return el(
    "div",
    { class: "confirm-clear", role: "group", "aria-label": t("stats.clear") },
    el("p", { text: t("stats.clear_ask") }),
    el("div", { class: "panel-buttons" }, button(t("stats.clear_yes"), "clearYes", yes, { class: "btn danger" }), button(t("btn.cancel"), "clearNo", no, { class: "btn ghost" })),
  );
}

function filters(stats, t) {
  const { filter } = stats;
  return el(
    "div",
    { class: "stats-filters" },
    choice("stats-level", t("stats.level"), filter.level, [["", t("stats.any_level")], ...LEVELS.map((v) => [v, t(`level.${v}`)])], (v) => {
      filter.level = v;
      renderStats(stats, "stats-level");
    }),
    choice("stats-profile", t("stats.profile"), filter.profile, [["", t("stats.any_profile")], ...PROFILES.map((v) => [v, profileName(t, v)])], (v) => {
      filter.profile = v;
      renderStats(stats, "stats-profile");
    }),
  );
}

function renderStats(stats, focusKey = null) {
  const { ctx, filter, status } = stats;
  const t = ctx.t();
  const lang = ctx.lang();
  // Free play: the day's matches are counted apart (screens/daily.js dailyStats).
  const records = ctx.finished.records().filter((r) => !isDailyLine(r));
  const s = summarize(records, { level: filter.level || null, profile: filter.profile || null }, ctx.finished.totals());
  const statusLine = status
    ? el("p", { class: `message ${status.kind === "error" ? "refusal" : "info"} data-status`, role: status.kind === "error" ? "alert" : "status", text: status.text(t) })
    : null;
  const ask = () => {
    stats.asking = true;
    stats.status = null;
    renderStats(stats, "clearNo");
  };
  stats.sheet.fill(
    t("stats.title"),
    [
      el("p", { class: "note local-note", text: t("stats.local") }),
      el("p", { class: "note counting-note", text: `${t("stats.counting")} ${t("daily.stats_apart")}` }),
      filters(stats, t),
      s.matches || s.deals ? rows(t, lang, s) : el("p", { class: "none stats-empty", text: t("stats.empty") }),
      luckSection(t, lang, stats.luck, filter),
      dailyStats(t, readDaily(ctx.storage)),
      coachChart(t, lang),
      statusLine,
      clearConfirm(stats, t),
      el(
        "div",
        { class: "panel-buttons stats-buttons" },
        button(t("stats.export"), "export", () => exportFile(stats)),
        button(t("stats.import"), "import", () => stats.input.click()),
        button(t("stats.clear"), "clear", ask),
        button(t("sheet.back_menu"), "closeStats", () => stats.sheet.close(), { class: "btn primary" }),
      ),
      dataSection(t, lang, ctx.storage),
      stats.input,
    ],
    focusKey,
  );
}

function exportFile(stats) {
  // The day's results and the challenges received travel in the same file (data/daily.js).
  const data = { ...stats.ctx.finished.exportData(stats.ctx.settings()), ...exportDaily(stats.ctx.storage) };
  data.duplicates = readDuplicates(stats.ctx.storage); // Difícil with your cards (data/duplicates.js)
  const stamp = new Date().toISOString().slice(0, 10);
  download(JSON.stringify(data, null, 1), `gin-rummy-${stamp}.json`, "application/json");
  const n = data.matches.length;
  stats.status = { kind: "ok", text: (t) => t("stats.exported", { n }) };
  renderStats(stats, "export");
}

// Exactly what was kept: new matches and lines, and what was not.
function importedText(done, daily = { days: 0, challenges: 0 }) {
  return (t) =>
    [
      t("stats.imported", { matches: done.matches, records: done.records }),
      daily.days || daily.challenges ? t("daily.imported", daily) : null,
      done.duplicates ? t("stats.import_duplicates", { n: done.duplicates }) : null,
      done.notKept ? t("stats.import_not_kept", { n: done.notKept, keep: KEEP }) : null,
      done.unchecked ? t("stats.import_unchecked", { n: done.unchecked }) : null,
      done.refused ? `${t("stats.import_refused", { n: done.refused })} ${t(done.refusal.key, done.refusal.vars)}` : null,
    ]
      .filter(Boolean)
      .join(" ");
}

async function importFile(stats, file) {
  stats.status = { kind: "busy", text: (t) => t("stats.importing") };
  renderStats(stats, "import");
  if (file.size > MAX_IMPORT_BYTES) {
    // Too large to be an export of this game: refused before it is read.
    const mb = (n) => String(Math.ceil(n / (1024 * 1024)));
    stats.status = { kind: "error", text: (t) => `${t("data.refused")} ${t("data.oversized_file", { mb: mb(file.size), max: mb(MAX_IMPORT_BYTES) })}` };
    renderStats(stats, "import");
    return;
  }
  let data;
  try {
    data = JSON.parse(await file.text());
  } catch {
    stats.status = { kind: "error", text: (t) => `${t("data.refused")} ${t("data.not_json")}` };
    renderStats(stats, "import");
    return;
  }
  try {
    // Every part is checked before anything is written.
    const dailyParts = data && typeof data === "object" && !Array.isArray(data) ? readImport(data) : null;
    // Difícil with your cards: checked by the engine before anything is written, merged after the rest.
    const duplicates = data && typeof data === "object" && !Array.isArray(data) ? data.duplicates : undefined;
    await checkDuplicates(stats.ctx.call, duplicates).catch(() => {
      throw new ImportRefused("data.bad_file");
    });
    const done = await stats.ctx.finished.importData(data);
    const daily = dailyParts ? mergeImport(stats.ctx.storage, dailyParts) : undefined;
    await mergeDuplicates(stats.ctx.storage, stats.ctx.call, duplicates);
    refreshLuck(stats);
    if (done.settings) stats.ctx.applySettings(done.settings);
    stats.status = { kind: "ok", text: importedText(done, daily) };
  } catch (err) {
    const refusal = err instanceof ImportRefused ? err : new ImportRefused("data.bad_file");
    stats.status = { kind: "error", text: (t) => `${t("data.refused")} ${t(refusal.key, refusal.vars)}` };
    if (!(err instanceof ImportRefused)) console.warn("import:", err);
  }
  renderStats(stats, "import");
}
