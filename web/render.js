// A plain table: render(root, view, uiState) rebuilds the page from the
// current view alone. Text goes in through textContent only. Controls carry
// data-intent (and data-* arguments) for input.js.

import { BOOT_STAGES } from "./engine.js";

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RED = new Set(["D", "H"]);

export function cardLabel(card) {
  const rank = card[0] === "T" ? "10" : card[0];
  return rank + (SUITS[card[1]] || card[1]);
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

function cardChip(card) {
  return el("span", { class: `card${RED.has(card[1]) ? " red" : ""}`, text: cardLabel(card), dataset: { card } });
}

function actionLabel(action, t) {
  switch (action.type) {
    case "take":
      return t("action.take");
    case "pass":
      return t("action.pass");
    case "draw":
      return t(action.from === "discard" ? "action.draw.discard" : "action.draw.stock");
    case "discard":
      return t("action.discard", { card: cardLabel(action.card) });
    case "knock": {
      const deadwood = action.deadwood ?? null;
      return t(deadwood === 0 ? "action.gin" : "action.knock", { card: cardLabel(action.card) });
    }
    case "big_gin":
      return t("action.big_gin");
    default:
      return JSON.stringify(action);
  }
}

function header(view, ui) {
  const { t } = ui;
  const level = el(
    "select",
    { "aria-label": t("menu.level"), dataset: { intent: "level" }, disabled: ui.busy || !view },
    ...["easy", "normal", "hard"].map((value) =>
      el("option", { value, selected: value === ui.settings.level, text: t(`level.${value}`) }),
    ),
  );
  return el(
    "header",
    { class: "bar" },
    el("h1", { text: t("title") }),
    view && el("p", { class: "seed" }, `${t("menu.seed")}: `, el("output", { class: "seed-value", text: view.seed })),
    el("button", { type: "button", dataset: { intent: "newMatch" }, disabled: ui.busy || !view, text: t("menu.new") }),
    el("button", { type: "button", dataset: { intent: "replay" }, disabled: ui.busy || !view, text: t("menu.replay") }),
    el("label", {}, `${t("menu.level")} `, level),
    el("button", { type: "button", dataset: { intent: "language" }, lang: ui.lang === "es" ? "en" : "es", text: t("menu.language") }),
  );
}

function notices(ui) {
  if (!ui.notices.length) return null;
  return el(
    "section",
    { class: "notices", "aria-live": "polite" },
    ui.notices.map((notice, index) =>
      el(
        "p",
        { class: `notice ${notice.kind}`, dataset: { notice: notice.key } },
        el("span", { text: ui.t(notice.key) }),
        el("button", { type: "button", class: "dismiss", "aria-label": "×", dataset: { intent: "dismiss", index }, text: "×" }),
      ),
    ),
  );
}

function bootPanel(ui) {
  const { t, boot } = ui;
  if (boot.error) {
    return el(
      "section",
      { class: "boot failed", role: "alert" },
      el("p", { text: t("boot.failed") }),
      el("p", { text: t(`boot.${boot.error.code}`) !== `boot.${boot.error.code}` ? t(`boot.${boot.error.code}`) : t("boot.boot_failed") }),
      el("p", { class: "detail", text: boot.error.detail }),
      el("button", { type: "button", dataset: { intent: "retry" }, text: t("boot.retry") }),
    );
  }
  const step = Math.max(0, BOOT_STAGES.indexOf(boot.stage));
  return el(
    "section",
    { class: "boot", "aria-busy": "true" },
    el("p", { class: "stage", text: t(`boot.${boot.stage}`) }),
    el("progress", { max: BOOT_STAGES.length - 1, value: step, "aria-label": t(`boot.${boot.stage}`) }),
  );
}

function dealResult(result, t) {
  if (!result) return null;
  if (result.kind === "void" || result.winner === null || result.winner === undefined) {
    return el("p", { class: "last-deal", text: t("deal.void", { number: result.number }) });
  }
  return el("p", {
    class: "last-deal",
    text: t("deal.result", {
      number: result.number,
      kind: t(`kind.${result.kind}`),
      points: result.points,
      winner: t(result.winner === 0 ? "table.you" : "table.computer"),
    }),
  });
}

function table(view, ui) {
  const { t } = ui;
  const status = view.over ? t("turn.over") : view.to_act === 0 ? t("turn.human") : t("turn.computer");
  const melds = (view.arrangement && view.arrangement.melds) || [];
  const deadwood = (view.arrangement && view.arrangement.deadwood) || view.hand;
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  let final = null;
  if (view.over && view.final) {
    const [a, b] = view.final.totals;
    const key = view.final.winner === 0 ? "final.won" : view.final.winner === 1 ? "final.lost" : "final.draw";
    final = el("p", { class: "final", role: "status", text: t(key, { a, b }) });
  }
  return el(
    "main",
    { class: "table" },
    el("p", { class: "status", role: "status", text: status }),
    el(
      "p",
      { class: "scores" },
      `${t("table.scores")}: ${t("table.you")} `,
      el("strong", { class: "score-human", text: String(view.scores[0]) }),
      ` · ${t("table.computer")} `,
      el("strong", { class: "score-computer", text: String(view.scores[1]) }),
      ` · ${t("table.deal")} ${view.deal_number}`,
    ),
    el(
      "section",
      { class: "opponent", "aria-label": t("table.opponent_cards") },
      `${t("table.opponent_cards")}: ${view.opponent.count}`,
      view.opponent.known.length ? ` (${t("table.known")}: ` : "",
      view.opponent.known.map(cardChip),
      view.opponent.known.length ? ")" : "",
    ),
    el(
      "section",
      { class: "piles" },
      el("p", { class: "stock" }, `${t("table.stock")}: `, el("strong", { class: "stock-count", text: String(view.stock_count) })),
      el("p", { class: "discard" }, `${t("table.discard")}: `, top ? cardChip(top) : "—"),
    ),
    el(
      "section",
      { class: "hand", "aria-label": t("table.hand") },
      el("h2", { text: t("table.hand") }),
      el("div", { class: "melds" }, melds.map((meld) => el("span", { class: "meld" }, meld.map(cardChip)))),
      el("div", { class: "deadwood" }, deadwood.map(cardChip)),
      el("p", { text: `${t("table.deadwood")}: ${view.arrangement ? view.arrangement.points : "?"}` }),
    ),
    el(
      "section",
      { class: "actions", "aria-label": t("table.actions") },
      view.legal.map((action, index) =>
        el("button", {
          type: "button",
          class: "action",
          disabled: ui.busy,
          dataset: { intent: "act", index, action: action.type },
          text: actionLabel(action, t),
        }),
      ),
    ),
    dealResult(view.last_deal, t),
    final,
  );
}

export function render(root, view, ui) {
  const children = [header(view, ui), notices(ui)];
  children.push(view ? table(view, ui) : bootPanel(ui));
  root.replaceChildren(...children.filter(Boolean));
}
