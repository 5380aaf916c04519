// "Partidas": the matches left unfinished (each goes back to the table) and
// the kept finished matches, newest first (each opens in the viewer). A
// sheet (sheet.js); text through textContent only (table/dom.js).

import { button, el } from "../table/dom.js";
import { openSheet } from "./sheet.js";
import { KEEP } from "../data/finished.js";
import { profileName } from "../model/variants.js";
import { whenFormat } from "../text/i18n.js";
import { openPasteSheet } from "./match-text.js";

// ctx: {t, lang, finished, matchId(save), openMatches(), resume(seed),
//       watch(save, back), onClose(opener)} (play/menu-intents.js).
export function openMatchesSheet(ctx) {
  const list = {
    ctx, // what the sheet may see and do
    sheet: openSheet({ id: "games", onClose: ctx.onClose }), // the dialog (sheet.js)
  };
  renderMatches(list, ctx.finished.matches().length ? "game:0" : "closeGames");
  return { rerender: () => renderMatches(list), close: () => list.sheet.close() };
}

// One kept finished match: its outcome, rules, seed and date; opens the viewer.
function finishedItem(list, t, when, recs, m, i) {
  const { ctx } = list;
  const r = recs.get(ctx.matchId(m.save));
  const outcome = r ? t(r.won ? "games.won" : r.lost ? "games.lost" : "games.drawn", { a: r.totals[0], b: r.totals[1] }) : "";
  const details = r ? t("games.details", { level: t(`level.${r.level}`), profile: profileName(t, r.profile), deals: r.deal }) : "";
  const node = el(
    "button",
    { type: "button", class: "btn game-item", dataset: { key: `game:${i}`, seed: m.save.seed } },
    el("span", { class: "game-outcome", text: outcome || t("games.match") }),
    el("span", { class: "game-details", text: [details, `${t("menu.seed")} ${m.save.seed}`, Number.isFinite(m.at) ? when.format(new Date(m.at)) : null].filter(Boolean).join(" · ") }),
  );
  node.addEventListener("click", () => ctx.watch(m.save, () => renderMatches(list, `game:${i}`)));
  return el("li", {}, node);
}

function renderMatches(list, focusKey = null) {
  const { ctx, sheet } = list;
  const t = ctx.t();
  const lang = ctx.lang();
  const kept = ctx.finished.matches().slice().reverse();
  const recs = new Map(ctx.finished.records().map((r) => [r.id, r]));
  const when = whenFormat(lang);
  const items = kept.map((m, i) => finishedItem(list, t, when, recs, m, i));
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
      el(
        "div",
        { class: "panel-buttons" },
        // A match pasted as text (docs/notation.md) opens in the viewer.
        button(t("text.paste"), "pasteMatch", () => openPasteSheet({ t: ctx.t, call: ctx.call, onOpen: (save) => ctx.watch(save, () => renderMatches(list, "pasteMatch")) }), { "aria-haspopup": "dialog" }),
        button(t("sheet.back_menu"), "closeGames", () => sheet.close(), { class: "btn primary" }),
      ),
    ],
    focusKey,
  );
}
