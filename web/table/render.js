// The page from the state: renderPage(root, view, ui) rebuilds the page from the
// current view and the UI state (selection, panel, message...). Text goes in
// through textContent only. Controls carry data-intent (and data-* arguments)
// for input.js, data-key so focus survives a rebuild, and their single-key
// shortcut (shortcuts.js) in aria-keyshortcuts.

import { BOOT_STAGES } from "../runtime/engine.js";
import { bySuit, byRank, orderMeld, isSet } from "../model/cards.js";
import { cardBack, cardClasses, cardFace } from "./card-faces.js";
import { HELD, el, faceCard, holdPage, intentButton } from "./dom.js";
import { morphChildren } from "./morph.js";
import { shortcutsFor } from "./shortcuts.js";
import { cardName, computerTurn, handCardName, ifDiscard, selectedPrompt } from "../text/words.js";
import { menuPanel, helpPanel, confirmNewPanel, confirmReplayPanel } from "./menu-panels.js";
import { dealResultPanel, matchResultPanel, knockPanel } from "./panels.js";
import { coachNote } from "./coach-views.js";
import { tutorialBar } from "./tutorial-bar.js";
import { noticesSection } from "./notices.js";
import { dailyBar, profileMark } from "./daily-views.js";
import { limitText } from "../model/variants.js";
import { applyLook, soundButton } from "./look-views.js";
import { tableFrame, wakingMark } from "./waking-views.js";

// A section built again only when what it is made from (`from`: everything
// it reads) changed; else a bare stand-in of the same tag and data-static,
// which the keyed update takes for the live section as it is (morph.js). A
// phone saves the section's build and comparison at every move.
let liveRoot = null;
function memo(name, tag, from, build) {
  const sig = JSON.stringify(from);
  const live = liveRoot && liveRoot.querySelector(`[data-memo="${name}"]`);
  if (live && live.getAttribute("data-static") === sig) return el(tag, { dataset: { memo: name, static: sig } });
  const node = build();
  node.dataset.memo = name;
  node.dataset.static = sig;
  return node;
}

// A hand card built again only when what it shows changed (issue 33): the
// same rule as memo() for one keyed card. The live cards of the hand, by key,
// read once per render.
function liveHandCards() {
  const cards = new Map();
  if (liveRoot) for (const node of liveRoot.querySelectorAll(".table .hand > .hand-card")) cards.set(node.dataset.key, node);
  return cards;
}

// `attrs`: the button's attributes (el()'s), `rest`: the rest it shows.
// A live card that shows the same and carries nothing of its own (drag.js's
// inline style or class, a flight's mark is fine: morph.js keeps it) gets a
// bare stand-in with its key and data-static, which the keyed update takes
// as it is: neither its face nor its attributes are built or compared.
function cardButton(live, attrs, rest, build) {
  const key = attrs.dataset.key;
  const sig = JSON.stringify([attrs, rest]);
  const node = live.get(key);
  const marked = Boolean(node) && node.getAttribute("data-static") === sig;
  // input.js moves the hand's tab stop on the live cards (focusIn): a card whose tabindex it changed is built again.
  if (marked && node.className === attrs.class && node.getAttribute("tabindex") === attrs.tabindex && !node.hasAttribute("style"))
    return el("button", { dataset: { key, static: sig } });
  const built = build();
  // A live card that carries the same mark but something of its own (a
  // drag's inline style, the tab stop input.js moved) must be compared
  // whole, so the built one does not carry that mark: the keyed update
  // would take the live card as it is, style and all. Its mark comes back
  // at the next render.
  built.dataset.static = marked ? "" : sig;
  return built;
}

function topBar(view, ui) {
  const limit = limitText(view, ui.t);
  const rules = view.rules;
  const from = [ui.lang, view.scores, rules.target, rules.profile, view.deal_number, view.games, limit, ui.settings.speed, ui.fixed];
  return memo("topbar", "header", from, () => buildTopBar(view, ui, limit));
}

function buildTopBar(view, ui, limit) {
  const { t } = ui;
  const rules = view.rules;
  return el(
    "header",
    { class: "topbar" },
    intentButton(t("btn.menu"), "openMenu", { class: "btn ghost menu-btn", key: "menu", "aria-haspopup": "dialog" }),
    el(
      "div",
      { class: "scoreboard", role: "group", "aria-label": t("bar.scores") },
      el(
        "span",
        { class: "score you" },
        el("span", { class: "who", text: t("bar.you") }),
        el("strong", { class: "score-human", text: String(view.scores[0]) }),
      ),
      el(
        "span",
        { class: "score them" },
        el("span", { class: "who", text: t("bar.opponent") }),
        el("strong", { class: "score-computer", text: String(view.scores[1]) }),
      ),
    ),
    el(
      "span",
      { class: "match-info" },
      limit ? el("span", { class: "mi deal-limit", text: limit }) : null,
      view.games
        ? el("span", {
            class: "mi hw-games",
            text: view.games
              .map((g, i) => `${t("bar.game", { n: i + 1 })} ${g.scores[0]}–${g.scores[1]}${g.over ? " ✓" : ""}`)
              .join("  "),
          })
        : null,
      el("span", { class: "mi target", text: t("bar.target", { target: rules.target }) }),
      el("span", { class: "mi profile", text: profileMark(t, ui, rules) }), // the day's match, a challenge: said so (daily-views.js)
      el("span", { class: "mi deal-no", text: t("bar.deal", { number: view.deal_number }) }),
    ),
    intentButton(t("btn.faster"), "faster", {
      class: "btn ghost faster",
      "aria-pressed": String(ui.settings.speed === "fast" || ui.settings.speed === "instant"),
    }),
    intentButton(t("btn.hint"), "hint", { class: "btn hint-btn", "aria-keyshortcuts": shortcutsFor(ui.lang).hint }),
  );
}

function opponentArea(view, ui) {
  const line = computerTurn(ui.t, view.events) || "\u00a0";
  const from = [ui.lang, view.opponent, view.dealer, line];
  return memo("opponent", "section", from, () => buildOpponentArea(view, ui, line));
}

function buildOpponentArea(view, ui, line) {
  const { t } = ui;
  const known = view.opponent.known || [];
  const hidden = Math.max(0, view.opponent.count - known.length);
  const backs = el(
    "div",
    { class: "opp-backs", "aria-hidden": "true" },
    Array.from({ length: hidden }, () => cardBack("small")),
  );
  const knownRow = known.length
    ? el(
        "div",
        { class: "opp-known", role: "group", "aria-label": t("table.known") },
        known.map((c) => faceCard(c, t, "small")),
      )
    : null;
  return el(
    "section",
    { class: "opponent", "aria-label": t("table.opponent") },
    el(
      "div",
      { class: "seat-label" },
      el("span", { class: "name", text: t("table.opponent") }),
      el("span", { class: "count", text: t("table.opponent_count", { count: view.opponent.count }) }),
      view.dealer === 1 ? el("span", { class: "chip dealer", text: t("table.dealer") }) : null,
    ),
    el("div", { class: "opp-cards" }, backs, knownRow),
    el("p", { class: "opp-last", text: line }),
  );
}

function piles(view, ui) {
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  const under = view.discard.length > 1 ? view.discard[view.discard.length - 2] : null;
  const hinted = ui.hintTarget === "stock" || ui.hintTarget === "discard" ? ui.hintTarget : null;
  // A selection, a message, a hint elsewhere change nothing here (issue 33).
  return memo("piles", "div", [ui.lang, top, under, view.stock_count, hinted], () => buildPiles(view, ui, top, under, hinted));
}

function buildPiles(view, ui, top, under, hinted) {
  const { t } = ui;
  const stock = el(
    "button",
    {
      type: "button",
      class: `pile stock${hinted === "stock" ? " hinted" : ""}`,
      "aria-label": t("btn.stock"),
      "aria-describedby": "stock-count",
      "aria-keyshortcuts": shortcutsFor(ui.lang).drawStock,
      dataset: { intent: "drawStock", key: "stock" },
    },
    el(
      "span",
      { class: "pile-cards", "aria-hidden": "true" },
      view.stock_count > 1 ? cardBack("under") : null,
      view.stock_count > 0 ? cardBack() : el("span", { class: "card empty" }),
    ),
  );
  // Each pile's label sits under its button, not in it: the button's name
  // is "Mazo" / "Descarte", the label describes it (WCAG 2.5.3).
  const stockLabel = el(
    "span",
    { class: "pile-label", id: "stock-count" },
    el("span", { class: "stock-count", text: String(view.stock_count) }),
    ` ${t("table.stock_count", { count: "" }).trim()}`,
  );
  const pile = el(
    "button",
    {
      type: "button",
      class: `pile discard-pile${hinted === "discard" ? " hinted" : ""}`,
      "aria-label": t("btn.pile"),
      "aria-describedby": "pile-top",
      "aria-keyshortcuts": shortcutsFor(ui.lang).drawDiscard,
      dataset: { intent: "drawDiscard", key: "pile", top: top || "" },
    },
    el(
      "span",
      { class: "pile-cards", "aria-hidden": "true" },
      under
        ? el(
            "span",
            { class: `${cardClasses(under)} under`, dataset: { face: under, key: `face:${under}` } },
            cardFace(under),
          )
        : null,
      top
        ? el("span", { class: `${cardClasses(top)} top`, dataset: { face: top, key: `face:${top}` } }, cardFace(top))
        : el("span", { class: "card empty" }),
    ),
  );
  const pileLabel = el("span", {
    class: "pile-label",
    id: "pile-top",
    text: top ? t("table.pile_top", { card: cardName(top, t) }) : t("table.pile_empty"),
  });
  return el(
    "div",
    { class: "piles" },
    el("div", { class: "pile-slot" }, stock, stockLabel),
    el("div", { class: "pile-slot" }, pile, pileLabel),
  );
}

function promptText(view, ui) {
  const { t } = ui;
  if (view.over) return t("turn.over");
  if (view.to_act !== 0) return t("turn.computer");
  if (view.phase.startsWith("upcard"))
    return view.phase === "upcard_dealer" ? t("turn.upcard_after_pass") : t("turn.upcard");
  if (view.phase === "draw") return view.both_passed ? t("turn.draw_stock") : t("turn.draw");
  if (ui.selected && view.hand.includes(ui.selected)) return selectedPrompt(t, ui.selected);
  return t("turn.discard");
}

function messageArea(view, ui) {
  const { t } = ui;
  const children = [];
  if (ui.message) {
    children.push(
      el("p", {
        class: `message ${ui.message.kind}`,
        role: ui.message.kind === "refusal" ? "alert" : "status",
        dataset: { message: ui.message.code || ui.message.kind },
        text: ui.message.text,
      }),
    );
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
  const tagged = (card) => ({ card, group: meldOf.has(card) ? meldOf.get(card) : "dw" });
  if (sort === "suit" || sort === "rank") return [...view.hand].sort(sort === "suit" ? bySuit : byRank).map(tagged);
  const byMelds = [...melds.flat(), ...deadwood.sort(byRank)];
  if (sort !== "manual") return byMelds.map(tagged);
  // "manual": the player's order for this deal (intents.reorder), the cards
  // it does not know yet (a fresh draw) at the right end; until the first
  // move of the deal, the melds order.
  const mine = ui.order && ui.order.seed === view.seed && ui.order.deal === view.deal_number ? ui.order.cards : [];
  const kept = mine.filter((card) => view.hand.includes(card));
  return [...kept, ...byMelds.filter((card) => !kept.includes(card))].map(tagged);
}

// Which cards the hand shows as a group (gap, bar and kind label): a meld
// whose cards sit next to each other. With the "manual" sort the player may
// split one; its cards then keep their meld's colour bar (they still count
// as a meld) but lose the gap and the label. Other sorts group only "melds".
function shownGroups(order, sort) {
  if (sort === "melds") return order.map(({ group }) => group);
  if (sort !== "manual") return order.map(() => "dw");
  const where = new Map();
  order.forEach(({ group }, i) => {
    if (group !== "dw") where.set(group, [...(where.get(group) || []), i]);
  });
  const together = (list) => list[list.length - 1] - list[0] === list.length - 1;
  return order.map(({ group }) => (group !== "dw" && together(where.get(group)) ? group : "dw"));
}

// The hand is one Tab stop (roving tabindex): the card the arrows last
// reached, else the selected one, else the first, has tabindex 0.
function rovingCard(view, ui, order) {
  if (ui.rover && view.hand.includes(ui.rover)) return ui.rover;
  if (ui.selected && view.hand.includes(ui.selected)) return ui.selected;
  return order.length ? order[0].card : null;
}

function handArea(view, ui) {
  const { t } = ui;
  const order = handOrder(view, ui);
  const dd = view.discard_deadwood || null;
  const selected = ui.selected && view.hand.includes(ui.selected) ? ui.selected : null;
  const rover = rovingCard(view, ui, order);
  const melds = (view.arrangement ? view.arrangement.melds : []).map(orderMeld);
  const meldOf = (card) => melds.find((m) => m.includes(card)) || null;
  // The card just drawn from the stock stays marked until the discard (the
  // view says which it is, so a render or a reload keeps the mark).
  const fresh = view.drawn && view.hand.includes(view.drawn) ? view.drawn : null;
  const shown = shownGroups(order, ui.settings.sort);
  let previous = null;
  const live = liveHandCards();
  const cards = order.map(({ card, group }, index) => {
    const taken = view.taken === card;
    const classes = [cardClasses(card), "hand-card"];
    if (group !== "dw") classes.push("melded", `meld-${group % 4}`);
    else classes.push("loose");
    const first = shown[index] !== previous;
    if (first && index > 0) classes.push("group-start");
    if (first && shown[index] !== "dw") classes.push("meld-first");
    // The next card starts another group and covers this one's right edge:
    // the meld's bar stops where that card begins.
    if (shown[index] !== "dw" && index + 1 < order.length && shown[index + 1] !== shown[index]) {
      classes.push("meld-last");
    }
    if (selected === card) classes.push("selected");
    if (taken) classes.push("unavailable");
    if (fresh === card) classes.push("fresh");
    if (ui.hintTarget === `card:${card}`) classes.push("hinted");
    previous = shown[index];
    const described = [taken ? "taken-note" : null, fresh === card ? "fresh-note" : null].filter(Boolean).join(" ");
    const attrs = {
      type: "button",
      class: classes.join(" "),
      "aria-label": fresh === card ? `${handCardName(t, card, meldOf(card))}, ${t("table.fresh")}` : handCardName(t, card, meldOf(card)),
      "aria-pressed": String(selected === card),
      "aria-describedby": described || null,
      tabindex: card === rover ? "0" : "-1",
      // input.js: Alt+Left/Right moves the card along the hand.
      "aria-keyshortcuts": ui.settings.sort === "manual" ? "Alt+ArrowLeft Alt+ArrowRight" : null,
      title: taken ? t("table.taken") : null,
      "data-meld-label": classes.includes("meld-first")
        ? t(isSet(meldOf(card)) ? "hand.set_label" : "hand.run_label")
        : null,
      // Still a live control: trying to discard it explains why not.
      dataset: { intent: "select", card, key: `card:${card}`, unavailable: taken ? "taken" : null },
    };
    // Badges that repeat what is said elsewhere are drawn by CSS (no text in
    // the button beside its name); "nueva" is text, and in the name too.
    const freshText = fresh === card ? t("table.fresh") : null;
    const ddText = dd && dd[card] !== undefined && selected === card ? String(dd[card]) : null;
    return cardButton(live, attrs, [taken, freshText, ddText], () =>
      el(
        "button",
        attrs,
        cardFace(card),
        taken ? el("span", { class: "badge taken-badge", "aria-hidden": "true", dataset: { text: "✕" } }) : null,
        freshText ? el("span", { class: "badge fresh-badge", "aria-hidden": "true", text: freshText }) : null,
        ddText !== null ? el("span", { class: "badge dd-badge", "aria-hidden": "true", dataset: { text: ddText } }) : null,
      ),
    );
  });
  const points = view.arrangement ? view.arrangement.points : null;
  const info = [
    el("span", {
      class: "deadwood-count",
      dataset: { points: points ?? "" },
      text: t("table.deadwood", { points: points ?? "?" }),
    }),
  ];
  if (selected && dd && dd[selected] !== undefined) {
    info.push(
      el("span", {
        class: "if-discard",
        dataset: { points: dd[selected] },
        text: ifDiscard(t, selected, dd[selected]),
      }),
    );
  }
  const dealer = view.dealer === 0 ? el("span", { class: "chip dealer", text: t("table.dealer") }) : null;
  return el(
    "section",
    // Keyed, as the hand in it: its stand-in cards (cardButton) always meet their live nodes.
    { class: "hand-area", "aria-label": t("table.hand"), dataset: { key: "hand-area" } },
    el(
      "div",
      { class: "hand-info" },
      el("span", { class: "seat-label" }, el("span", { class: "name", text: t("table.hand") }), dealer),
      wakingMark(ui), // in the row's gap on a short landscape screen, else at the bottom (style.css)
      info,
    ),
    el(
      "div",
      {
        class: `hand sort-${ui.settings.sort}`,
        role: "group",
        "aria-label": t("table.hand"),
        dataset: { key: "hand", n: cards.length, g: shown.filter((g, i) => i > 0 && g !== shown[i - 1]).length },
      },
      cards,
    ),
    view.taken ? el("span", { id: "taken-note", class: "sr-only", text: t("table.taken") }) : null,
    fresh ? el("span", { id: "fresh-note", class: "sr-only", text: t("table.fresh_note") }) : null,
  );
}

function actionBar(view, ui) {
  const { t } = ui;
  const mine = view.to_act === 0 && !view.over;
  const buttons = [];
  const button = (intent, label, cls = "", extra = {}) =>
    intentButton(label, intent, {
      class: `btn action ${cls}`.trim(),
      key: `act:${intent}${extra.kind ? `:${extra.kind}` : ""}`,
      dataset: extra,
      "aria-keyshortcuts": shortcutsFor(ui.lang)[extra.kind || intent] || null,
    });
  if (mine && view.phase.startsWith("upcard")) {
    buttons.push(button("take", t("btn.take"), `primary${ui.hintTarget === "take" ? " hinted" : ""}`));
    buttons.push(button("pass", t("btn.pass"), ui.hintTarget === "pass" ? "hinted" : ""));
  } else if (mine && view.phase === "discard") {
    // Only once there is something to discard (not in the draw phase).
    buttons.push(button("discardSelected", t("btn.discard"), ui.selected ? "primary" : ""));
    const knocks = view.legal.filter((a) => a.type === "knock");
    const dd = view.discard_deadwood || {};
    if (knocks.some((a) => dd[a.card] > 0))
      buttons.push(
        button("knock", t("btn.knock"), `knock${ui.hintTarget === "knock" ? " hinted" : ""}`, { kind: "knock" }),
      );
    if (knocks.some((a) => dd[a.card] === 0))
      buttons.push(button("knock", t("btn.gin"), `gin${ui.hintTarget === "gin" ? " hinted" : ""}`, { kind: "gin" }));
    if (view.legal.some((a) => a.type === "big_gin"))
      buttons.push(button("bigGin", t("btn.big_gin"), `gin${ui.hintTarget === "big_gin" ? " hinted" : ""}`));
  } else if (view.over && view.final) {
    buttons.push(button("showResult", t("btn.show_result"), "primary")); // the match result, closed to look
  }
  return el("nav", { class: "actions", "aria-label": t("table.actions") }, buttons);
}

function table(view, ui) {
  // The bar over the table (the guided deal's, or an offer at the start): a
  // place of its own in the table's grid (style.css "a bar over the table"),
  // so the layout makes room for it instead of pushing the hand down.
  const bar = tutorialBar(view, ui) || dailyBar(view, ui);
  return el(
    "main",
    { class: bar ? "table with-bar" : "table", "aria-busy": String(ui.busy && view.to_act === 1) },
    soundButton(ui.t, ui.settings),
    opponentArea(view, ui),
    bar,
    el("div", { class: "centre" }, piles(view, ui), messageArea(view, ui), coachNote(view, ui)),
    handArea(view, ui),
    actionBar(view, ui),
  );
}

function bootPanel(ui) {
  const { t, boot } = ui;
  if (boot.error) {
    return el(
      "section",
      { class: "boot failed", role: "alert", dataset: { key: "boot-failed" } },
      el("p", { text: t("boot.failed") }),
      el("p", {
        text:
          t(`boot.${boot.error.code}`) !== `boot.${boot.error.code}`
            ? t(`boot.${boot.error.code}`)
            : t("boot.boot_failed"),
      }),
      el(
        "details",
        { class: "detail" },
        el("summary", { text: t("boot.details") }),
        el("p", { text: boot.error.detail }),
      ),
      el("button", { type: "button", class: "btn primary", dataset: { intent: "retry" }, text: t("boot.retry") }),
    );
  }
  const step = Math.max(0, BOOT_STAGES.indexOf(boot.stage));
  return el(
    "section",
    { class: "boot", "aria-busy": "true", dataset: { key: "boot" } },
    el("h1", { text: t("title") }),
    tableFrame(), // the table before its first deal (issue 33)
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
    case "confirmReplay":
      return confirmReplayPanel(view, ui);
    case "help":
      return helpPanel(view, ui);
    default:
      return null;
  }
}

function focusKeyOf(node) {
  return node && node.dataset ? node.dataset.key || null : null;
}

// A touch tap on a table button takes no focus (input.js). A table control
// that has the focus all the same (the keys moved it there before a tap)
// lets it go at a touch render, while the page is clean (the
// motion layer has just measured it), rather than when the morph removes it
// (a discarded card) or moves it; the focus is not carried to the card drawn
// or next to the one thrown. Dialogs keep theirs (ui.focus names their
// buttons).
function letGoTouchFocus(touch) {
  const active = document.activeElement;
  if (touch && active && active !== document.body && active.closest && active.closest(".table")) active.blur();
}

export function renderPage(root, view, ui) {
  liveRoot = root;
  const touch = ui.modality === "touch";
  letGoTouchFocus(touch);
  const active = document.activeElement;
  const hadFocus = root.contains(active) ? focusKeyOf(active) : null;
  // A hand card's place in the hand, for its neighbour if it leaves.
  const activeIndex =
    hadFocus && active.matches(".hand > .hand-card") ? [...active.parentNode.querySelectorAll(":scope > .hand-card")].indexOf(active) : null;

  root.classList.toggle("four-colour", Boolean(ui.settings.fourColour));
  applyLook(ui.settings);
  root.dataset.speed = ui.settings.speed;
  root.dataset.panel = ui.panel || "";
  root.dataset.menu = String(Boolean(ui.menuOpen));
  root.dataset.waking = String(Boolean(ui.waking));

  const children = [noticesSection(ui)];
  if (view) {
    const page = el("div", { class: "page", dataset: { key: "page" } }, topBar(view, ui), table(view, ui));
    const shown = overlay(view, ui);
    // The deal result panel laid out one frame before it shows (table/deal-end.js).
    if (shown && ui.building) hideBuilding(shown);
    children.push(page, shown, menuPanel(view, ui));
  } else {
    children.push(bootPanel(ui));
  }
  // Keyed update: what is still on the table stays the same node.
  const next = document.createElement("div");
  next.append(...children.filter(Boolean));
  morphChildren(root, next);
  // The table is held under a panel or the menu (dom.js), once the panel
  // shows (one laid out hidden is shown by revealPanel).
  const page = root.querySelector(":scope > .page");
  if (page) holdPage(page, Boolean(view) && (Boolean(ui.panel) || ui.menuOpen) && !ui.building);

  // Focus: what the app asked for, else the same control as before the
  // rebuild, else (a card just left the hand) its neighbour.
  const wanted = touch && ui.focus && ui.focus.startsWith("card:") ? hadFocus : ui.focus || hadFocus;
  let target = wanted ? root.querySelector(`[data-key="${CSS.escape(wanted)}"]`) : null;
  if (!target && activeIndex !== null && hadFocus && hadFocus.startsWith("card:")) {
    const cards = root.querySelectorAll(".hand .hand-card");
    target = cards[Math.min(activeIndex, cards.length - 1)] || null;
  }
  if (target && target !== document.activeElement && !target.closest(HELD)) target.focus({ preventScroll: true });
  offerFocus(root, hadFocus, ui.focus);
}

// The day's offer is a dialog: once it can be answered (no panel over it),
// the focus moves into it, unless the app has just put it somewhere on
// purpose (asked); when it goes, the focus comes back to where it was
// (else to Menú, where the day's match lives).
let offerOpen = false;
let offerReturn = null;
function offerFocus(root, hadFocus, asked) {
  const offer = root.querySelector('[data-key="daily-offer"]');
  const usable = Boolean(offer) && !offer.closest(HELD);
  if (usable && !offerOpen) {
    offerOpen = true;
    offerReturn = hadFocus && !hadFocus.startsWith("daily-") ? hadFocus : null;
    const play = offer.querySelector('[data-key="daily-play"]');
    if (play && !asked) play.focus({ preventScroll: true });
  } else if (!offer && offerOpen) {
    offerOpen = false;
    const active = document.activeElement;
    if (!active || active === document.body) {
      const back = (offerReturn && root.querySelector(`[data-key="${CSS.escape(offerReturn)}"]`)) || root.querySelector('[data-key="menu"]');
      if (back && !back.closest(HELD)) back.focus({ preventScroll: true });
    }
  }
}

// A panel laid out while hidden: data-building (style.css: off the screen,
// so not painted and not under a tap, by a property its parts do not
// inherit) and out of the accessibility tree. Not `visibility: hidden`,
// which is inherited: showing it restyled every element of the panel (~160
// for a deal result; issue 33).
function hideBuilding(node) {
  node.setAttribute("data-building", "");
  node.setAttribute("aria-hidden", "true");
}

// The deal result panel laid out hidden (ui.building, table/deal-end.js)
// over the page as the last render left it: only the panel is built and
// put in (the table, just rendered, is not built again). False when there
// is no page or no panel to build: a full render then.
export function buildPanel(root, view, ui) {
  const page = root.querySelector(":scope > .page");
  const shown = page && view ? overlay(view, ui) : null;
  if (!shown) return false;
  hideBuilding(shown);
  const live = root.querySelector(`:scope > [data-key="${CSS.escape(shown.dataset.key)}"]`);
  if (live) live.replaceWith(shown);
  else page.after(shown);
  root.dataset.panel = ui.panel || "";
  return true;
}

// The deal result panel laid out hidden one frame before (ui.building,
// table/deal-end.js) is shown as it is: no page built again, only the mark
// taken off and the focus it asks for given.
export function revealPanel(root, ui) {
  const overlay = root.querySelector(".overlay[data-building]");
  if (!overlay) return false;
  overlay.removeAttribute("data-building");
  overlay.removeAttribute("aria-hidden");
  const page = root.querySelector(":scope > .page");
  if (page) holdPage(page); // as renderPage holds it under a panel
  const target = ui.focus ? overlay.querySelector(`[data-key="${CSS.escape(ui.focus)}"]`) : null;
  if (target) target.focus({ preventScroll: true });
  return true;
}
