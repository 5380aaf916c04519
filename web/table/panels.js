// The panels over the table: the knock confirmation, the deal result and the
// match result. Built from the view and the UI state only.

import { el, faceCard, intentButton, panel } from "./dom.js";
import { byRank, deadwoodPoints, orderMeld } from "../model/cards.js";
import { cardClasses, cardFace } from "./card-faces.js";
import { shortcutsFor } from "./shortcuts.js";
import { cardName, knockDiscard, knockLoss, layoffsLabel, loosePoints, pointsText } from "../text/words.js";
import { coachSummary } from "./coach-views.js";
import { duplicateResult } from "./luck-views.js";
import { matchDay, matchResultButtons, matchResultExtras } from "./daily-views.js";


function cardRow(cards, t, cls = "") {
  return el(
    "div",
    { class: `mini-row ${cls}`.trim() },
    cards.map((c) => faceCard(c, t, "mini")),
  );
}

// --- knock confirmation -----------------------------------------------------

const meldsKey = (melds) => melds.map((m) => [...m].sort().join(" ")).sort().join("|");
const edited = (draft) => meldsKey(draft.melds) !== meldsKey(draft.proposed.melds);

export function knockPanel(view, ui) {
  const { t } = ui;
  const draft = ui.knock;
  const points = deadwoodPoints(draft.deadwood);
  const proposed = deadwoodPoints(draft.proposed.deadwood);
  const kind = draft.type === "big_gin" ? "big_gin" : points === 0 ? "gin" : "knock";
  // An edit that costs points (a gin turned into a knock, more deadwood
  // than proposed) says so before the player confirms it.
  const loss = draft.type === "big_gin" ? "" : knockLoss(t, proposed, points, view.rules.gin_bonus);
  const cardButton = (card, where) =>
    el(
      "button",
      {
        type: "button",
        class: `${cardClasses(card)} knock-card ${where}`,
        "aria-label": cardName(card, t),
        dataset: { intent: "knockMove", card, key: `knock:${card}` },
        disabled: draft.type === "big_gin" ? true : null,
      },
      cardFace(card),
    );
  const melds = draft.melds.map((meld, i) =>
    el(
      "div",
      {
        class: "knock-meld",
        role: "group",
        "aria-label": `${t("knock.melds")} ${i + 1}`,
        dataset: { meld: orderMeld(meld).join(" ") },
      },
      orderMeld(meld).map((c) => cardButton(c, "in-meld")),
    ),
  );
  const discard = draft.card
    ? el(
        "div",
        { class: "knock-discard" },
        faceCard(draft.card, t, "mini face-down-ish"),
        el("span", { text: knockDiscard(t, draft.card) }),
      )
    : null;
  const loose = draft.deadwood.length
    ? [...draft.deadwood].sort(byRank).map((c) => cardButton(c, "in-deadwood"))
    : el("p", { class: "none", text: t("knock.none") });
  return panel(
    "knock",
    t(`knock.title_${kind}`),
    discard,
    el("h3", { text: t("knock.melds") }),
    el("div", { class: "knock-melds" }, melds.length ? melds : el("p", { text: t("knock.none") })),
    el("h3", {
      class: "knock-dw-title",
      dataset: { points },
      text: t("knock.deadwood", { points: pointsText(t, points) }),
    }),
    el("div", { class: "knock-deadwood" }, loose),
    draft.type === "big_gin" ? null : el("p", { class: "panel-help", text: t("knock.help") }),
    loss ? el("p", { class: "message warning knock-loss", role: "alert", text: loss }) : null,
    ui.message ? el("p", { class: `message ${ui.message.kind}`, role: "alert", text: ui.message.text }) : null,
    el(
      "div",
      { class: "panel-buttons" },
      intentButton(t("btn.confirm"), "confirmKnock", { class: "btn primary", key: "confirm" }),
      // Only once the player has changed the proposal.
      draft.type === "big_gin" || !edited(draft) ? null : intentButton(t("btn.reset"), "resetKnock", { key: "reset" }),
      intentButton(t("btn.cancel"), "cancel", { class: "btn ghost" }),
    ),
  );
}

// --- deal result ----------------------------------------------------------------

// The scoring written out, e.g. "7 − 5 + 10 = 12 (undercut)".
export function operation(result, rules, t) {
  const hands = result.hands;
  if (result.kind === "void" || result.winner === null || result.winner === undefined) return null;
  const K = hands[result.knocker].points;
  const D = hands[1 - result.knocker].points;
  // An Oklahoma spade upcard doubles the whole deal: "(20 + 76) × 2 = 192".
  const x = result.multiplier > 1 ? (sum) => `(${sum}) × ${result.multiplier}` : (sum) => sum;
  switch (result.kind) {
    case "knock":
      return `${x(`${D} − ${K}`)} = ${result.points}`;
    case "undercut":
      return `${x(`${K} − ${D} + ${rules.undercut_bonus}`)} = ${result.points} (${t("result.op_undercut")})`;
    case "gin":
      return `${x(`${rules.gin_bonus} + ${D}`)} = ${result.points} (${t("result.op_gin")})`;
    case "big_gin":
      return `${x(`${rules.big_gin_bonus} + ${D}`)} = ${result.points} (${t("result.op_big_gin")})`;
    default:
      return `${result.points}`;
  }
}

function handSummary(result, seat, t) {
  const hand = result.hands[seat];
  const who = seat === 0 ? t("bar.you") : t("bar.opponent");
  const role = result.kind === "void" ? "" : result.knocker === seat ? t("result.knocker") : t("result.defender");
  const knocker = result.knocker;
  const layoffs = seat !== knocker ? result.layoffs || [] : [];
  const laidOn = seat === knocker ? result.layoffs || [] : [];
  const melds = hand.melds.map((meld, i) => {
    const extra = laidOn.filter((l) => l.meld === i).map((l) => l.card);
    const cards = orderMeld([...meld, ...extra]);
    // A laid-off card shows once, in the meld it joined, marked (ring and
    // "+", and named so).
    const shown = (c) => {
      if (!extra.includes(c)) return faceCard(c, t, "mini");
      const node = faceCard(c, t, "mini laid");
      node.setAttribute("aria-label", t("result.laid_card", { card: cardName(c, t) }));
      return node;
    };
    return el("div", { class: "mini-row meld-row" }, cards.map(shown));
  });
  return el(
    "section",
    { class: `hand-summary seat-${seat}`, dataset: { seat, points: hand.points } },
    el("h3", {}, el("span", { text: who }), role ? el("span", { class: "role", text: ` · ${role}` }) : null),
    el("p", { class: "label", text: t("result.melds") }),
    melds.length ? el("div", { class: "melds-list" }, melds) : el("p", { class: "none", text: t("result.none") }),
    // The defender's layoffs by name: the cards themselves are in the melds they joined.
    layoffs.length
      ? [
          el("p", { class: "label", text: layoffsLabel(t, knocker) }),
          el("p", {
            class: "laid-names",
            dataset: { cards: layoffs.map((l) => l.card).join(" ") },
            text: layoffs.map((l) => cardName(l.card, t)).join(", "),
          }),
        ]
      : null,
    el("p", { class: "label", text: t("result.deadwood") }),
    hand.deadwood.length
      ? cardRow([...hand.deadwood].sort(byRank), t)
      : el("p", { class: "none", text: t("result.none") }),
    el("p", { class: "dw-points", text: loosePoints(t, hand.points) }),
  );
}

export function dealResultPanel(view, ui) {
  const { t } = ui;
  const result = ui.result;
  if (!result) return null;
  const rules = view.rules;
  const op = operation(result, rules, t);
  const headline =
    result.kind === "void"
      ? t("result.void")
      : t(result.winner === 0 ? "result.you_win" : "result.opp_wins", { points: pointsText(t, result.points) });
  const hands = result.hands && result.hands.length === 2 ? [handSummary(result, 0, t), handSummary(result, 1, t)] : [];
  return panel(
    "deal",
    `${t("result.title", { number: result.number })} · ${t(`kind.${result.kind}`)}`,
    el(
      "div",
      { class: "summary-line" },
      el("p", { class: `headline ${result.winner === 0 ? "good" : result.winner === 1 ? "bad" : ""}`, text: headline }),
      op
        ? el("p", {
            class: "operation",
            dataset: { points: result.points, winner: result.winner, kind: result.kind },
            "aria-label": `${t("result.operation")}: ${op}`,
            text: op,
          })
        : null,
    ),
    duplicateResult(view, ui),
    el("div", { class: "hands" }, hands),
    coachSummary(view, ui),
    el(
      "div",
      { class: "panel-foot" },
      el("p", {
        class: "totals",
        dataset: { a: result.scores[0], b: result.scores[1] },
        text: t("result.totals", { a: result.scores[0], b: result.scores[1], target: rules.target }),
      }),
      intentButton(t("btn.next"), "next", { class: "btn primary", "aria-keyshortcuts": shortcutsFor(ui.lang).next }),
    ),
  );
}

// A deal result of every kind of part (melds, a layoff, deadwood, the
// operation), for dealResultSample().
const SAMPLE_RESULT = {
  number: 1,
  kind: "knock",
  winner: 1,
  knocker: 1,
  points: 7,
  multiplier: 1,
  scores: [0, 7],
  hands: [
    { melds: [], deadwood: ["TC", "KH"], points: 20 },
    { melds: [["2S", "3S", "4S"]], deadwood: ["AD"], points: 1 },
  ],
  layoffs: [{ card: "5S", meld: 0 }],
};

// The deal result panel of a made-up deal, to be laid out once, hidden, at
// a quiet moment (table/deal-end.js): the first panel a page lays out pays
// for its fonts (the operation's monospace stack) and styles, a phone's
// whole frame at the deal's end.
export function dealResultSample(view, ui) {
  return dealResultPanel(view, { ...ui, result: SAMPLE_RESULT, duplicate: null, coachSummary: null });
}

// --- match result ---------------------------------------------------------------

export function matchResultPanel(view, ui) {
  const { t } = ui;
  const final = view.final;
  if (!final) return null;
  const headline = final.winner === 0 ? t("match.won") : final.winner === 1 ? t("match.lost") : t("match.draw");
  // Hollywood: each game written out as a match of its own, then the sums.
  const body = final.games
    ? el(
        "div",
        { class: "hw-results" },
        final.games.map((game, i) =>
          el(
            "section",
            { class: "hw-game", dataset: { game: i + 1 } },
            el("h3", { class: "hw-title", text: t("match.game", { n: i + 1 }) }),
            el("div", { class: "final-lines" }, finalLines(t, game)),
          ),
        ),
        el("p", {
          class: "hw-total",
          text: t("match.hollywood_total", { you: final.totals[0], them: final.totals[1] }),
        }),
      )
    : el("div", { class: "final-lines" }, finalLines(t, final));
  return panel(
    "match",
    t("match.title"),
    el("p", {
      class: `headline ${final.winner === 0 ? "good" : final.winner === 1 ? "bad" : ""}`,
      dataset: { winner: final.winner ?? "draw" },
      text: headline,
    }),
    matchDay(ui), // the day's match: which day (daily-views.js)
    body,
    matchResultExtras(view, ui), // the challenges, Compartir (daily-views.js)
    el(
      "div",
      { class: "panel-buttons" },
      intentButton(t("btn.again"), "again", { class: "btn primary" }),
      intentButton(t("btn.replay"), "replay", { key: "replay-final" }),
      intentButton(t("btn.watch"), "watch", { "aria-haspopup": "dialog" }),
      matchResultButtons(view, ui),
      intentButton(t("btn.see_table"), "closeResult", { class: "btn ghost" }),
    ),
  );
}

// Each seat's deal points, bonuses and total in one (Hollywood: one game's) result.
function finalLines(t, final) {
  return [0, 1].map((seat) => {
    const own = final.bonuses.filter((b) => b.seat === seat);
    const parts = [`${final.base[seat]}`, ...own.map((b) => `${b.points}`)];
    const expr = `${parts.join(" + ")} = ${final.totals[seat]}`;
    return el(
      "section",
      { class: `final-line seat-${seat}`, dataset: { seat, total: final.totals[seat] } },
      el(
        "h3",
        {},
        el("span", { text: seat === 0 ? t("bar.you") : t("bar.opponent") }),
        el("strong", { class: "final-total", text: String(final.totals[seat]) }),
      ),
      el(
        "ul",
        { class: "bonus-list" },
        el(
          "li",
          {},
          el("span", { class: "pts", text: String(final.base[seat]) }),
          el("span", { text: t("match.deal_points") }),
        ),
        own.map((b) =>
          el(
            "li",
            { dataset: { kind: b.kind, points: b.points } },
            el("span", { class: "pts", text: `+${b.points}` }),
            el("span", {
              text: b.detail !== String(b.points) ? `${t(`bonus.${b.kind}`)} (${b.detail})` : t(`bonus.${b.kind}`),
            }),
          ),
        ),
      ),
      el("p", { class: "operation", text: expr }),
    );
  });
}
