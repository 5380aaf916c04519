// The notices as the table shows them: each floats over the felt where
// nothing is played (position: fixed), so it never moves the table, and
// never covers a control or a card. After each render placeNotices()
// measures what is on the screen and finds each notice a spot: first where
// it covers nothing at all, else where it covers only some text (the
// rival's last move, a pile's label), never a button, a pile, a hand, the
// prompt, the hand's labels or a dialog. A notice
// with no such spot waits (hidden, its clock stopped: play/notices.js) until
// there is room again; so does every notice while a dialog or the menu is
// open. How long each stays is model/notices.js's rule.

import { el, intentButton } from "./dom.js";
import { noticeText } from "../model/notices.js";

// What a notice never covers: the player's controls and the cards, and
// what the player reads to play: the prompt and the hand's labels ("Tu
// mano", "Sueltas: N").
const HARD = [".topbar", ".opp-cards", ".piles .pile", ".hand", ".hand-info > *", ".messages > *", ".actions .btn", ".coach-note", ".tutorial-bar", ".boot"];
// What it covers only when there is no other room: text.
const SOFT = [".opp-last", ".opponent .seat-label", ".pile-label"];
const GAP = 6; // px kept clear around what a notice must not touch
const MARGIN = 8; // px from the screen's edges
const WIDE = 440; // px: the widest a notice gets
const NARROW = [320, 250]; // px: narrower tries, for a gap that is tall but not wide

// The notices section (renderPage puts it first in #app).
export function noticesSection(ui) {
  if (!ui.notices.length) return null;
  const { t } = ui;
  return el(
    "section",
    { class: "notices", "aria-label": t("notice.title"), dataset: { key: "notices" } },
    ui.notices.map((notice) =>
      el(
        "div",
        { class: `notice ${notice.kind}`, dataset: { notice: notice.key, key: `notice:${notice.key}` } },
        el("span", { class: "notice-text", text: noticeText(t, notice) }),
        (notice.actions || []).map((a) =>
          intentButton(t(a.label), "noticeAnswer", { class: "btn answer", key: `answer:${notice.key}:${a.intent}`, dataset: { notice: notice.key, then: a.intent } }),
        ),
        intentButton("×", "dismiss", { class: "dismiss", key: `dismiss:${notice.key}`, dataset: { notice: notice.key }, "aria-label": t("notice.dismiss") }),
      ),
    ),
  );
}

const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const area = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
const grow = (r, by) => ({ left: r.left - by, top: r.top - by, right: r.right + by, bottom: r.bottom + by });

// The free runs of height in the column [x, x + w) of `screen` once the
// `hard` rectangles that cross it are taken out: [[top, bottom]].
function freeRuns(screen, hard, x, w) {
  const blocked = hard
    .filter((r) => r.left < x + w && x < r.right)
    .map((r) => [r.top, r.bottom])
    .sort((a, b) => a[0] - b[0]);
  const runs = [];
  let top = screen.top;
  for (const [from, to] of blocked) {
    if (from > top) runs.push([top, from]);
    top = Math.max(top, to);
  }
  if (screen.bottom > top) runs.push([top, screen.bottom]);
  return runs;
}

// Where a w × h notice goes on `screen` ({left, top, right, bottom}, the
// margins already off), clear of every `hard` rectangle (each kept GAP
// away) and covering as little of the `soft` ones as it can: {left, top,
// soft} (soft: the area of text covered), or null when nowhere. Among
// equals: the highest spot, then the one nearest the middle. Pure: the
// tests run it alone.
export function findSpot(screen, hard, soft, w, h) {
  if (w > screen.right - screen.left) return null;
  const blocks = hard.map((r) => grow(r, GAP));
  const middle = (screen.left + screen.right - w) / 2;
  const xs = new Set([screen.left, middle, screen.right - w]);
  for (const r of blocks) {
    xs.add(r.right);
    xs.add(r.left - w);
  }
  const texts = soft.map((r) => grow(r, GAP / 2));
  let best = null;
  for (const x of xs) {
    if (x < screen.left || x + w > screen.right) continue;
    for (const [top, bottom] of freeRuns(screen, blocks, x, w)) {
      if (bottom - top < h) continue;
      // In a roomy gap a notice keeps off the edge it would touch; else it
      // may sit just under or over a text of the column.
      const ys = [top + Math.min((bottom - top - h) / 2, 16)];
      for (const r of texts) {
        if (r.left < x + w && x < r.right) ys.push(r.bottom, r.top - h);
      }
      for (const y of ys) {
        if (y < top || y + h > bottom) continue;
        const spot = { left: x, top: y, right: x + w, bottom: y + h };
        const covered = texts.reduce((sum, r) => sum + area(spot, r), 0);
        if (!best || covered < best.soft || (covered === best.soft && nearer(y, x, best, middle))) best = { left: x, top: y, soft: covered };
      }
    }
  }
  return best;
}

// Among spots that cover as much text: the higher, then the nearer the middle.
function nearer(y, x, best, middle) {
  if (Math.abs(y - best.top) > 0.5) return y < best.top;
  return Math.abs(x - middle) < Math.abs(best.left - middle);
}

function rects(root, selectors) {
  const out = [];
  for (const node of root.querySelectorAll(selectors.join(","))) {
    const r = node.getBoundingClientRect();
    if (r.width && r.height) out.push({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
  }
  return out;
}

// No room for any notice: a dialog, the menu or a sheet is open.
function covered(root) {
  return root.hasAttribute("inert") || Boolean(root.dataset.panel) || root.dataset.menu === "true" || Boolean(document.querySelector(".sheet-overlay"));
}

// Each notice's height at each width tried (one layout per width).
function heights(items, widths) {
  return widths.map((w) => {
    for (const node of items) node.style.width = `${w}px`;
    return items.map((node) => node.getBoundingClientRect().height);
  });
}

// After a render (and a resize): every notice placed or waiting. Returns
// the keys of those on the screen now (play/notices.js runs their clocks).
export function placeNotices(root) {
  const items = [...root.querySelectorAll(".notices .notice")];
  if (!items.length) return [];
  for (const node of items) {
    node.removeAttribute("data-placed");
    node.style.left = "0px";
    node.style.top = "0px";
  }
  if (covered(root)) return [];
  const view = document.documentElement;
  const screen = { left: MARGIN, top: MARGIN, right: view.clientWidth - MARGIN, bottom: window.innerHeight - MARGIN };
  const hard = rects(root, HARD);
  const soft = rects(root, SOFT);
  const widths = [Math.min(WIDE, screen.right - screen.left), ...NARROW.filter((w) => w < Math.min(WIDE, screen.right - screen.left))];
  const tall = heights(items, widths);
  const shown = [];
  const spots = [];
  items.forEach((node, i) => {
    let pick = null;
    widths.forEach((w, k) => {
      const spot = findSpot(screen, hard, soft, w, Math.ceil(tall[k][i]));
      if (spot && (!pick || spot.soft < pick.soft)) pick = { ...spot, w };
    });
    if (!pick) return;
    spots.push({ node, pick });
    hard.push({ left: pick.left, top: pick.top, right: pick.left + pick.w, bottom: pick.top + Math.ceil(tall[widths.indexOf(pick.w)][i]) });
    shown.push(node.dataset.notice);
  });
  for (const { node, pick } of spots) {
    node.style.width = `${pick.w}px`;
    node.style.left = `${Math.round(pick.left)}px`;
    node.style.top = `${Math.round(pick.top)}px`;
    node.setAttribute("data-placed", "");
  }
  return shown;
}

// The pointer over a notice or the focus in one holds every notice's clock
// (play/notices.js): hold(reason, on).
export function bindNoticeHold(root, hold) {
  const inNotice = (node) => Boolean(node && node.closest && node.closest(".notices .notice"));
  root.addEventListener("pointerover", (event) => {
    if (inNotice(event.target)) hold("pointer", true);
  });
  root.addEventListener("pointerout", (event) => {
    if (inNotice(event.target) && !inNotice(event.relatedTarget)) hold("pointer", false);
  });
  root.addEventListener("focusin", (event) => hold("focus", inNotice(event.target)));
  root.addEventListener("focusout", (event) => {
    if (!inNotice(event.relatedTarget)) hold("focus", false);
  });
}
