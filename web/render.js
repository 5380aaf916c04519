// The one render funnel: render(root, view, ui) rebuilds the page from the
// current view and the UI state (selection, panel, message...). Text goes in
// through textContent only. Controls carry data-intent (and data-* arguments)
// for input.js, and data-key so focus survives a rebuild.

import { BOOT_STAGES } from "./engine.js";
import { cardFace, cardBack, cardClasses, cardName, bySuit, byRank, orderMeld } from "./cards.js";
import { menuPanel, helpPanel, confirmNewPanel } from "./menu.js";
import { dealResultPanel, matchResultPanel, knockPanel } from "./panels.js";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else if (name === "class") node.className = value;
    else if (name === "dataset") {
      for (const [key, v] of Object.entries(value)) if (v !== null && v !== undefined) node.dataset[key] = v;
    }
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

// A face-up card that is not a control (piles, panels, the opponent's known cards).
export function faceCard(card, t, extra = "") {
  return el("span", { class: `${cardClasses(card)}${extra ? ` ${extra}` : ""}`, role: "img", "aria-label": cardName(card, t), dataset: { face: card } }, cardFace(card));
}

// "el 7 de picas", "la reina de corazones", "the ace of spades".
export function cardWithArticle(card, t) {
  const article = t(`article.${card[0]}`) !== `article.${card[0]}` ? t(`article.${card[0]}`) : t("article.other");
  return `${article} ${cardName(card, t)}`;
}

function topBar(view, ui) {
  const { t } = ui;
  const rules = view.rules;
  return el(
    "header",
    { class: "topbar" },
    el("button", { type: "button", class: "btn ghost menu-btn", dataset: { intent: "openMenu", key: "menu" }, "aria-haspopup": "dialog", text: t("btn.menu") }),
    el(
      "div",
      { class: "scoreboard", role: "group", "aria-label": t("bar.scores") },
      el("span", { class: "score you" }, el("span", { class: "who", text: t("bar.you") }), el("strong", { class: "score-human", text: String(view.scores[0]) })),
      el("span", { class: "score them" }, el("span", { class: "who", text: t("bar.opponent") }), el("strong", { class: "score-computer", text: String(view.scores[1]) })),
    ),
    el("span", { class: "match-info" }, el("span", { class: "target", text: t("bar.target", { target: rules.target }) }), el("span", { class: "profile", text: t(`profile.${rules.profile}`) }), el("span", { class: "deal-no", text: t("bar.deal", { number: view.deal_number }) })),
    el("button", {
      type: "button",
      class: "btn ghost faster",
      "aria-pressed": String(ui.settings.speed === "fast" || ui.settings.speed === "instant"),
      dataset: { intent: "faster", key: "faster" },
      text: t("btn.faster"),
    }),
    el("button", { type: "button", class: "btn hint-btn", dataset: { intent: "hint", key: "hint" }, text: t("btn.hint") }),
  );
}

function opponentArea(view, ui) {
  const { t } = ui;
  const known = view.opponent.known || [];
  const hidden = Math.max(0, view.opponent.count - known.length);
  const backs = el("div", { class: "opp-backs", "aria-hidden": "true" }, Array.from({ length: hidden }, () => cardBack("small")));
  const knownRow = known.length
    ? el("div", { class: "opp-known", role: "group", "aria-label": t("table.known") }, known.map((c) => faceCard(c, t, "small")))
    : null;
  return el(
    "section",
    { class: `opponent${ui.fresh.oppDraw ? " fresh-opp" : ""}`, "aria-label": t("table.opponent") },
    el(
      "div",
      { class: "seat-label" },
      el("span", { class: "name", text: t("table.opponent") }),
      el("span", { class: "count", text: t("table.opponent_count", { count: view.opponent.count }) }),
      view.dealer === 1 ? el("span", { class: "chip dealer", text: t("table.dealer") }) : null,
    ),
    el("div", { class: "opp-cards" }, backs, knownRow),
    el("p", { class: "opp-last", text: ui.lastComputer || "\u00a0" }),
  );
}

function piles(view, ui) {
  const { t } = ui;
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  const under = view.discard.length > 1 ? view.discard[view.discard.length - 2] : null;
  const hinted = ui.hintTarget;
  const stock = el(
    "button",
    {
      type: "button",
      class: `pile stock${hinted === "stock" ? " hinted" : ""}`,
      "aria-label": t("btn.stock"),
      "aria-describedby": "stock-count",
      dataset: { intent: "drawStock", key: "stock" },
    },
    el("span", { class: "pile-cards", "aria-hidden": "true" }, view.stock_count > 1 ? cardBack("under") : null, view.stock_count > 0 ? cardBack() : el("span", { class: "card empty" })),
    el("span", { class: "pile-label", id: "stock-count" }, el("span", { class: "stock-count", text: String(view.stock_count) }), ` ${t("table.stock_count", { count: "" }).trim()}`),
  );
  const pile = el(
    "button",
    {
      type: "button",
      class: `pile discard-pile${hinted === "discard" ? " hinted" : ""}`,
      "aria-label": t("btn.pile"),
      "aria-describedby": "pile-top",
      dataset: { intent: "drawDiscard", key: "pile", top: top || "" },
    },
    el(
      "span",
      { class: "pile-cards", "aria-hidden": "true" },
      under ? el("span", { class: `${cardClasses(under)} under` }, cardFace(under)) : null,
      top ? el("span", { class: `${cardClasses(top)} top${ui.fresh.discard ? ` fresh-land from-${ui.fresh.discard}` : ""}` }, cardFace(top)) : el("span", { class: "card empty" }),
    ),
    el("span", { class: "pile-label", id: "pile-top", text: top ? t("table.pile_top", { card: cardName(top, t) }) : t("table.pile_empty") }),
  );
  return el("div", { class: "piles" }, stock, pile);
}

function promptText(view, ui) {
  const { t } = ui;
  if (view.over) return t("turn.over");
  if (view.to_act !== 0) return t("turn.computer");
  if (view.phase.startsWith("upcard")) return view.phase === "upcard_dealer" ? t("turn.upcard_after_pass") : t("turn.upcard");
  if (view.phase === "draw") return view.both_passed ? t("turn.draw_stock") : t("turn.draw");
  if (ui.selected && view.hand.includes(ui.selected)) return t("turn.selected", { card: cardName(ui.selected, t) });
  return t("turn.discard");
}

function messageArea(view, ui) {
  const { t } = ui;
  const children = [];
  if (ui.message) {
    children.push(el("p", { class: `message ${ui.message.kind}`, role: ui.message.kind === "refusal" ? "alert" : "status", dataset: { message: ui.message.code || ui.message.kind }, text: ui.message.text }));
  } else {
    children.push(el("p", { class: "prompt", text: promptText(view, ui) }));
  }
  return el("div", { class: "messages" }, children);
}

// The hand in display order: [{card, group}] with group = meld index or "dw".
function handOrder(view, ui) {
  const arrangement = view.arrangement || { melds: [], deadwood: view.hand };
  const melds = arrangement.melds.map(orderMeld);
  const deadwood = [...arrangement.deadwood];
  const meldOf = new Map();
  melds.forEach((meld, i) => meld.forEach((card) => meldOf.set(card, i)));
  const sort = ui.settings.sort;
  if (sort === "suit" || sort === "rank") {
    return [...view.hand].sort(sort === "suit" ? bySuit : byRank).map((card) => ({ card, group: meldOf.has(card) ? meldOf.get(card) : "dw" }));
  }
  const out = [];
  melds.forEach((meld, i) => meld.forEach((card) => out.push({ card, group: i })));
  deadwood.sort(byRank).forEach((card) => out.push({ card, group: "dw" }));
  return out;
}

function handArea(view, ui) {
  const { t } = ui;
  const order = handOrder(view, ui);
  const dd = view.discard_deadwood || null;
  const selected = ui.selected && view.hand.includes(ui.selected) ? ui.selected : null;
  let previous = null;
  const cards = order.map(({ card, group }, index) => {
    const taken = view.taken === card;
    const classes = [cardClasses(card), "hand-card"];
    if (group !== "dw") classes.push("melded", `meld-${group % 4}`);
    else classes.push("loose");
    if (ui.settings.sort === "melds" && group !== previous && index > 0) classes.push("group-start");
    if (selected === card) classes.push("selected");
    if (taken) classes.push("unavailable");
    if (ui.fresh.draw === card) classes.push(`fresh-in from-${ui.fresh.drawFrom}`);
    if (ui.hintTarget === `card:${card}`) classes.push("hinted");
    previous = group;
    const badge = taken ? el("span", { class: "badge taken-badge", "aria-hidden": "true", text: "✕" }) : null;
    const ddBadge = dd && dd[card] !== undefined && selected === card ? el("span", { class: "badge dd-badge", "aria-hidden": "true", text: String(dd[card]) }) : null;
    return el(
      "button",
      {
        type: "button",
        class: classes.join(" "),
        "aria-label": cardName(card, t),
        "aria-pressed": String(selected === card),
        "aria-describedby": taken ? "taken-note" : null,
        title: taken ? t("table.taken") : null,
        // Still a live control: trying to discard it explains why not.
        dataset: { intent: "select", card, key: `card:${card}`, index, unavailable: taken ? "taken" : null },
      },
      cardFace(card),
      badge,
      ddBadge,
    );
  });
  const points = view.arrangement ? view.arrangement.points : null;
  const info = [el("span", { class: "deadwood-count", dataset: { points: points ?? "" }, text: t("table.deadwood", { points: points ?? "?" }) })];
  if (selected && dd && dd[selected] !== undefined) {
    info.push(el("span", { class: "if-discard", dataset: { points: dd[selected] }, text: t("table.if_discard", { card: cardName(selected, t), points: dd[selected] }) }));
  }
  return el(
    "section",
    { class: "hand-area", "aria-label": t("table.hand") },
    el("div", { class: "hand-info" }, el("span", { class: "seat-label" }, el("span", { class: "name", text: t("table.hand") }), view.dealer === 0 ? el("span", { class: "chip dealer", text: t("table.dealer") }) : null), info),
    el("div", { class: `hand sort-${ui.settings.sort}`, role: "group", "aria-label": t("table.hand") }, cards),
    view.taken ? el("span", { id: "taken-note", class: "sr-only", text: t("table.taken") }) : null,
  );
}

function actionBar(view, ui) {
  const { t } = ui;
  const mine = view.to_act === 0 && !view.over;
  const buttons = [];
  const button = (intent, label, cls = "", extra = {}) =>
    el("button", { type: "button", class: `btn action ${cls}`.trim(), dataset: { intent, key: `act:${intent}${extra.kind ? `:${extra.kind}` : ""}`, ...extra }, text: label });
  if (mine && view.phase.startsWith("upcard")) {
    buttons.push(button("take", t("btn.take"), `primary${ui.hintTarget === "take" ? " hinted" : ""}`));
    buttons.push(button("pass", t("btn.pass"), ui.hintTarget === "pass" ? "hinted" : ""));
  } else if (mine && (view.phase === "draw" || view.phase === "discard")) {
    buttons.push(button("discardSelected", t("btn.discard"), ui.selected && view.phase === "discard" ? "primary" : ""));
    const knocks = view.legal.filter((a) => a.type === "knock");
    const dd = view.discard_deadwood || {};
    if (knocks.some((a) => dd[a.card] > 0)) buttons.push(button("knock", t("btn.knock"), `knock${ui.hintTarget === "knock" ? " hinted" : ""}`, { kind: "knock" }));
    if (knocks.some((a) => dd[a.card] === 0)) buttons.push(button("knock", t("btn.gin"), `gin${ui.hintTarget === "gin" ? " hinted" : ""}`, { kind: "gin" }));
    if (view.legal.some((a) => a.type === "big_gin")) buttons.push(button("bigGin", t("btn.big_gin"), `gin${ui.hintTarget === "big_gin" ? " hinted" : ""}`));
  }
  return el("nav", { class: "actions", "aria-label": t("table.actions") }, buttons);
}

function table(view, ui) {
  return el(
    "main",
    { class: "table", "aria-busy": String(ui.busy && view.to_act === 1) },
    opponentArea(view, ui),
    el("div", { class: "centre" }, piles(view, ui), messageArea(view, ui)),
    handArea(view, ui),
    actionBar(view, ui),
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
        el("button", { type: "button", class: "dismiss", "aria-label": "×", dataset: { intent: "dismiss", index, key: `dismiss:${index}` }, text: "×" }),
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
      el("button", { type: "button", class: "btn primary", dataset: { intent: "retry" }, text: t("boot.retry") }),
    );
  }
  const step = Math.max(0, BOOT_STAGES.indexOf(boot.stage));
  return el(
    "section",
    { class: "boot", "aria-busy": "true" },
    el("h1", { text: t("title") }),
    el("div", { class: "boot-cards", "aria-hidden": "true" }, cardBack(), cardBack(), cardBack()),
    el("p", { class: "stage", text: t(`boot.${boot.stage}`) }),
    el("progress", { max: BOOT_STAGES.length - 1, value: step, "aria-label": t(`boot.${boot.stage}`) }),
  );
}

function overlay(view, ui) {
  switch (ui.panel) {
    case "knock":
      return knockPanel(view, ui);
    case "deal":
      return dealResultPanel(view, ui);
    case "match":
      return matchResultPanel(view, ui);
    case "confirmNew":
      return confirmNewPanel(view, ui);
    case "help":
      return helpPanel(view, ui);
    default:
      return null;
  }
}

function focusKeyOf(node) {
  return node && node.dataset ? node.dataset.key || null : null;
}

export function render(root, view, ui) {
  const active = document.activeElement;
  const hadFocus = root.contains(active) ? focusKeyOf(active) : null;
  const activeIndex = hadFocus && active.dataset.index !== undefined ? Number(active.dataset.index) : null;

  root.classList.toggle("four-colour", Boolean(ui.settings.fourColour));
  root.dataset.speed = ui.settings.speed;
  root.dataset.panel = ui.panel || "";
  root.dataset.menu = String(Boolean(ui.menuOpen));

  const children = [notices(ui)];
  if (view) {
    const modal = Boolean(ui.panel) || ui.menuOpen;
    const page = el("div", { class: "page" }, topBar(view, ui), table(view, ui));
    if (modal) page.setAttribute("inert", "");
    children.push(page, overlay(view, ui), menuPanel(view, ui));
  } else {
    children.push(bootPanel(ui));
  }
  root.replaceChildren(...children.filter(Boolean));

  // Focus: what the app asked for, else the same control as before the
  // rebuild, else (a card just left the hand) its neighbour.
  const wanted = ui.focus || hadFocus;
  let target = wanted ? root.querySelector(`[data-key="${CSS.escape(wanted)}"]`) : null;
  if (!target && activeIndex !== null && hadFocus && hadFocus.startsWith("card:")) {
    const cards = root.querySelectorAll(".hand .hand-card");
    target = cards[Math.min(activeIndex, cards.length - 1)] || null;
  }
  if (target && !target.closest("[inert]")) target.focus({ preventScroll: true });
}
