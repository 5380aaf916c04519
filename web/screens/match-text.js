// The match as text in the viewer: "Copiar la partida" (the engine's
// match_text, docs/notation.md, to the clipboard, or shown to copy by hand
// where the page may not write it) and "Pegar una partida" (a sheet with a
// box to paste into; the engine's parse_text replays and checks every move,
// and a finished match opens in the viewer; a bad paste says which line and
// why, and changes nothing). Text through textContent only (table/dom.js).

import { button, el } from "../table/dom.js";
import { openSheet } from "./sheet.js";

// The engine reads at most this many characters (gin.notation.MAX_CHARS):
// a longer paste is refused here, without sending it to the worker.
export const MAX_TEXT_CHARS = 100_000;

// Why a paste was refused, by the notation's code (literal keys: the i18n tests look for them).
const REASONS = {
  too_long: "notation.too_long",
  bad_format: "notation.bad_format",
  wrong_version: "notation.wrong_version",
  wrong_shuffle: "notation.wrong_shuffle",
  bad_seed: "notation.bad_seed",
  bad_rules: "notation.bad_rules",
  bad_level: "notation.bad_level",
  bad_card: "notation.bad_card",
  bad_syntax: "notation.bad_syntax",
  incomplete: "notation.incomplete",
  mismatch: "notation.mismatch",
  game_over: "notation.game_over",
};

// True when the text is now on the clipboard.
export async function copyText(text, nav = globalThis.navigator) {
  try {
    await nav.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

// A refusal of parse_text in words: the line at fault, as pasted, and why.
export function refusalText(t, err) {
  const code = err && err.code;
  const { kind, line, text } = (err && err.details) || {};
  // An illegal move says the engine's own reason; anything else (the engine
  // stopped, say) did not read the text at all.
  let reason = REASONS[code] ? t(REASONS[code]) : t(kind === "illegal" ? "notation.illegal" : "notation.not_read");
  const engine = `error.${code}`;
  if (kind === "illegal" && !REASONS[code] && t(engine) !== engine) reason = `${reason} ${t(engine)}`;
  return Number.isInteger(line) ? t("text.paste_bad_line", { line, text: text || "", reason }) : t("text.paste_bad", { reason });
}

// The viewer's part: what came of "Copiar la partida" (`copied`: "copied",
// "manual" or null; `text`: the match's text, once the engine gave it) and
// the two buttons.
export function textStatus(t, copied, text) {
  if (!copied) return null;
  return el(
    "div",
    { class: "copy-status", dataset: { kind: copied } },
    el("p", { class: "message info", role: "status", text: t(copied === "copied" ? "text.copied" : "text.copy_manual") }),
    copied === "manual" ? el("textarea", { class: "match-text", readonly: true, rows: 6, "aria-label": t("text.copy_label"), dataset: { key: "match-text" }, text }) : null,
  );
}

// canCopy: false for one deal of a match under way (its text would show the deal's hands).
export function textButtons(t, { text, canCopy = true, onCopy, onPaste }) {
  return [
    canCopy ? button(t("text.copy"), "copyMatch", onCopy, { disabled: text ? null : true }) : null,
    button(t("text.paste"), "pasteMatch", onPaste, { "aria-haspopup": "dialog" }),
  ];
}

// ctx: {t: () => translator, call(method, params), onOpen(save): a finished
// match pasted (the paste sheet is closed first), onClose(opener)}.
export function openPasteSheet(ctx) {
  const paste = {
    ctx, // what the sheet may see and do
    sheet: openSheet({ id: "paste", onClose: ctx.onClose || (() => {}) }), // the dialog (sheet.js)
    // The box, built once: every render puts the same node back, so what
    // was pasted stays (and where the caret was).
    area: el("textarea", { id: "paste-text", class: "paste-text", rows: 8, spellcheck: "false", autocomplete: "off", dataset: { key: "paste-text" } }),
    status: null, // {kind: "busy"|"error", text: (t) => string}
    busy: false, // the engine is reading the text
  };
  renderPaste(paste, "paste-text");
  return { close: () => paste.sheet.close() };
}

function renderPaste(paste, focusKey = null) {
  const { ctx, sheet, status } = paste;
  const t = ctx.t();
  sheet.fill(
    t("text.paste"),
    [
      el("p", { class: "note", id: "paste-help", text: t("text.paste_help") }),
      el("label", { for: "paste-text", class: "paste-label", text: t("text.paste_label") }),
      paste.area,
      status
        ? el("p", { class: `message ${status.kind === "error" ? "refusal" : "info"} paste-status`, role: status.kind === "error" ? "alert" : "status", text: status.text(t) })
        : null,
      el(
        "div",
        { class: "panel-buttons" },
        button(t("text.paste_open"), "pasteOpen", () => readPaste(paste), { class: "btn primary", disabled: paste.busy ? true : null }),
        button(t("btn.cancel"), "pasteCancel", () => sheet.close(), { class: "btn ghost" }),
      ),
    ],
    focusKey,
  );
  paste.area.setAttribute("aria-describedby", "paste-help");
}

function refuse(paste, text) {
  paste.busy = false;
  paste.status = { kind: "error", text };
  renderPaste(paste, "paste-text");
}

// The text read by the engine: a finished match opens in the viewer; anything
// else is told, and the box keeps what was pasted.
async function readPaste(paste) {
  const { ctx } = paste;
  const text = paste.area.value;
  if (paste.busy) return;
  if (!text.trim()) return refuse(paste, (t) => t("text.paste_empty"));
  if (text.length > MAX_TEXT_CHARS) return refuse(paste, (t) => refusalText(t, { code: "too_long" }));
  paste.busy = true;
  paste.status = { kind: "busy", text: (t) => t("text.paste_reading") };
  renderPaste(paste, "pasteOpen");
  let read;
  try {
    read = await ctx.call("parse_text", { text });
  } catch (err) {
    if (paste.sheet.closed) return;
    return refuse(paste, (t) => refusalText(t, err));
  }
  if (paste.sheet.closed) return;
  if (!read.over) return refuse(paste, (t) => t("text.paste_not_over"));
  paste.sheet.close();
  ctx.onOpen(read.save);
}
