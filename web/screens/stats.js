// "Estadísticas" (the record per level and rules, export / import / clear)
// and "Partidas" (the kept finished matches, each opens in the viewer).
// Text through textContent only (dom.js).

import { button, choice, el } from "../table/dom.js";
import { openSheet } from "./sheet.js";
import { summarize, KEEP, LEVELS, PROFILES, ImportRefused } from "../data/finished.js";
import { clearCoachLog } from "../data/coachlog.js";
import { coachChart } from "./coach-chart.js";
import { profileName } from "../model/variants.js";
import { KEYS } from "../data/keys.js";
import { ASIDE_SLOTS } from "../data/storage.js";

// What each key kept aside holds, in words.
const ASIDE_NAMES = {
  [KEYS.match]: "aside.match",
  [KEYS.settings]: "aside.settings",
  [KEYS.finished]: "aside.finished",
  [KEYS.records]: "aside.records",
  [KEYS.open]: "aside.open",
  [KEYS.totals]: "aside.records",
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
  const when = new Intl.DateTimeFormat(lang === "en" ? "en-GB" : "es-ES", { dateStyle: "short", timeStyle: "short" });
  const kb = Math.ceil(storage.used() / 1024);
  const aside = storage.asideList();
  const items = aside.map((slot, i) => {
    const what = t(ASIDE_NAMES[slot.key] || "aside.other");
    const stamp = Number.isFinite(slot.at) ? when.format(new Date(slot.at)) : "—";
    const save = () => download(slot.raw, `gin-apartado-${i + 1}.txt`, "text/plain");
    return el("li", {}, button(t("stats.aside_download", { what, when: stamp }), `aside:${i}`, save, { class: "btn game-item" }));
  });
  return el(
    "div",
    { class: "stats-data" },
    el("p", { class: "note space-note", text: t("stats.space", { kb: number(lang, kb), max: number(lang, QUOTA_KB) }) }),
    items.length ? el("h3", { text: t("stats.aside_title") }) : null,
    items.length ? el("p", { class: "note", text: t("stats.aside_note", { n: ASIDE_SLOTS }) }) : null,
    items.length ? el("ul", { class: "game-list aside-list" }, items) : null,
  );
}

function number(lang, n) {
  return new Intl.NumberFormat(lang === "en" ? "en-GB" : "es-ES", { maximumFractionDigits: 2 }).format(n);
}

// ctx: {t: () => translator, lang: () => "es"|"en", history, settings: () => {...},
//       currentSave: () => the match in progress's save | null, applySettings(settings), onClose(opener)}
export function openStats(ctx) {
  const filter = { level: "", profile: "" };
  let status = null; // {kind: "ok"|"error"|"busy", text: (t) => string}
  let asking = false;
  const sheet = openSheet({ id: "stats", onClose: ctx.onClose });
  const input = el("input", { type: "file", accept: ".json,application/json", class: "file-input", hidden: true, "aria-hidden": "true", tabindex: "-1" });
  input.addEventListener("change", () => {
    const file = input.files && input.files[0];
    input.value = "";
    if (file) importFile(file);
  });

  function rows(t, lang, s) {
    const row = (key, value, name) => el("div", { class: "stat", dataset: { stat: name } }, el("dt", { text: t(key) }), el("dd", { text: value }));
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
      row("stats.knock_deadwood", s.knock_deadwood_avg === null ? "—" : number(lang, s.knock_deadwood_avg), "knock_deadwood_avg"),
      // The best margin may be a loss (every match lost): named as one.
      row(s.best_match && s.best_match.totals[0] < s.best_match.totals[1] ? "stats.best_loss" : "stats.best", best, "best_match"),
      row("stats.streak", String(s.streak), "streak"),
      row("stats.best_streak", String(s.best_streak), "best_streak"),
    );
  }

  function draw(focusKey = null) {
    const t = ctx.t();
    const lang = ctx.lang();
    const records = ctx.history.records();
    const s = summarize(records, { level: filter.level || null, profile: filter.profile || null }, ctx.history.totals());
    const statusLine = status
      ? el("p", { class: `message ${status.kind === "error" ? "refusal" : "info"} data-status`, role: status.kind === "error" ? "alert" : "status", text: status.text(t) })
      : null;
    const confirm = asking
      ? el(
          "div",
          { class: "confirm-clear", role: "group", "aria-label": t("stats.clear") },
          el("p", { text: t("stats.clear_ask") }),
          el(
            "div",
            { class: "panel-buttons" },
            button(t("stats.clear_yes"), "clearYes", () => {
              asking = false;
              const ok = ctx.history.clear(ctx.currentSave()) && clearCoachLog();
              status = { kind: ok ? "ok" : "error", text: (tt) => tt(ok ? "stats.cleared" : "data.cannot_save") };
              draw("clear");
            }, { class: "btn danger" }),
            button(t("btn.cancel"), "clearNo", () => {
              asking = false;
              draw("clear");
            }, { class: "btn ghost" }),
          ),
        )
      : null;
    sheet.fill(
      t("stats.title"),
      [
        el("p", { class: "note local-note", text: t("stats.local") }),
        el("p", { class: "note counting-note", text: t("stats.counting") }),
        el(
          "div",
          { class: "stats-filters" },
          choice("stats-level", t("stats.level"), filter.level, [["", t("stats.any_level")], ...LEVELS.map((v) => [v, t(`level.${v}`)])], (v) => {
            filter.level = v;
            draw("stats-level");
          }),
          choice("stats-profile", t("stats.profile"), filter.profile, [["", t("stats.any_profile")], ...PROFILES.map((v) => [v, profileName(t, v)])], (v) => {
            filter.profile = v;
            draw("stats-profile");
          }),
        ),
        s.matches || s.deals ? rows(t, lang, s) : el("p", { class: "none stats-empty", text: t("stats.empty") }),
        coachChart(t, lang),
        statusLine,
        confirm,
        el(
          "div",
          { class: "panel-buttons stats-buttons" },
          button(t("stats.export"), "export", exportFile),
          button(t("stats.import"), "import", () => input.click()),
          button(t("stats.clear"), "clear", () => {
            asking = true;
            status = null;
            draw("clearNo");
          }),
          button(t("sheet.back_menu"), "closeStats", () => sheet.close(), { class: "btn primary" }),
        ),
        dataSection(t, lang, ctx.storage),
        input,
      ],
      focusKey,
    );
  }

  function exportFile() {
    const data = ctx.history.exportData(ctx.settings());
    const stamp = new Date().toISOString().slice(0, 10);
    download(JSON.stringify(data, null, 1), `gin-rummy-${stamp}.json`, "application/json");
    const n = data.matches.length;
    status = { kind: "ok", text: (t) => t("stats.exported", { n }) };
    draw("export");
  }

  async function importFile(file) {
    status = { kind: "busy", text: (t) => t("stats.importing") };
    draw("import");
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch {
      status = { kind: "error", text: (t) => `${t("data.refused")} ${t("data.not_json")}` };
      draw("import");
      return;
    }
    try {
      const done = await ctx.history.importData(data);
      if (done.settings) ctx.applySettings(done.settings);
      // Exactly what was kept: new matches and lines, and what was not.
      status = {
        kind: "ok",
        text: (t) =>
          [
            t("stats.imported", { matches: done.matches, records: done.records }),
            done.duplicates ? t("stats.import_duplicates", { n: done.duplicates }) : null,
            done.notKept ? t("stats.import_not_kept", { n: done.notKept, keep: KEEP }) : null,
            done.unchecked ? t("stats.import_unchecked", { n: done.unchecked }) : null,
          ]
            .filter(Boolean)
            .join(" "),
      };
    } catch (err) {
      const refusal = err instanceof ImportRefused ? err : new ImportRefused("data.bad_file");
      status = { kind: "error", text: (t) => `${t("data.refused")} ${t(refusal.key, refusal.vars)}` };
      if (!(err instanceof ImportRefused)) console.warn("import:", err);
    }
    draw("import");
  }

  draw("closeStats");
  return { redraw: () => draw(), close: () => sheet.close() };
}

// "Partidas": the kept matches, newest first; each opens in the viewer.
export function openGames(ctx) {
  const sheet = openSheet({ id: "games", onClose: ctx.onClose });
  function draw(focusKey = null) {
    const t = ctx.t();
    const lang = ctx.lang();
    const list = ctx.history.matches().slice().reverse();
    const recs = new Map(ctx.history.records().map((r) => [r.id, r]));
    const when = new Intl.DateTimeFormat(lang === "en" ? "en-GB" : "es-ES", { dateStyle: "short", timeStyle: "short" });
    const items = list.map((m, i) => {
      const r = recs.get(ctx.matchId(m.save));
      const outcome = r ? t(r.won ? "games.won" : r.lost ? "games.lost" : "games.drawn", { a: r.totals[0], b: r.totals[1] }) : "";
      const details = r ? t("games.details", { level: t(`level.${r.level}`), profile: profileName(t, r.profile), deals: r.deal }) : "";
      const node = el(
        "button",
        { type: "button", class: "btn game-item", dataset: { key: `game:${i}`, seed: m.save.seed } },
        el("span", { class: "game-outcome", text: outcome || t("games.match") }),
        el("span", { class: "game-details", text: [details, `${t("menu.seed")} ${m.save.seed}`, Number.isFinite(m.at) ? when.format(new Date(m.at)) : null].filter(Boolean).join(" · ") }),
      );
      node.addEventListener("click", () => ctx.watch(m.save, () => draw(`game:${i}`)));
      return el("li", {}, node);
    });
    const open = ctx.openMatches().map((m) =>
      el(
        "li",
        {},
        button(t("games.resume", { seed: m.seed }), `open:${m.seed}`, () => {
          sheet.close();
          ctx.resume(m.seed);
        }, { class: "btn game-item" }),
      ),
    );
    sheet.fill(
      t("games.title"),
      [
        open.length ? el("h3", { text: t("games.open_title") }) : null,
        open.length ? el("ul", { class: "game-list open-list" }, open) : null,
        el("p", { class: "note", text: t("games.note", { n: KEEP }) }),
        items.length ? el("ol", { class: "game-list" }, items) : el("p", { class: "none", text: t("games.empty") }),
        el("div", { class: "panel-buttons" }, button(t("sheet.back_menu"), "closeGames", () => sheet.close(), { class: "btn primary" })),
      ],
      focusKey,
    );
  }
  draw(ctx.history.matches().length ? "game:0" : "closeGames");
  return { redraw: () => draw(), close: () => sheet.close() };
}
