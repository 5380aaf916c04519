// Drag a card of the hand onto the discard pile to discard it (pointer
// events: touch, pen and mouse). The pile lights up as a drop target; a
// short press stays a tap (select), so tap-to-select keeps working. The
// drop becomes the same intent as a discard by taps. With the "manual"
// sort, a drop on the hand puts the card where it was let go (reorder).
// A dropped card is held where it was let go (a paused Web Animation, which
// the next renders keep) until the render that moves it, so it travels
// from the drop point, not from its old place in the hand.
// The click a browser may send after a drag is that gesture's own, and
// input.js swallows it (only it: the next tap always works).

import { HELD } from "./dom.js";
import { TAP_SLOP_PX } from "./input.js";
import { MOTION_ID } from "./motion.js";

const HAND_MARGIN_PX = 40; // how far above or below the hand a drop still reorders

const still = (root) =>
  root.dataset.speed === "instant" || matchMedia("(prefers-reduced-motion: reduce)").matches;

// Keep the node at its dragged transform through renders (the keyed
// update strips the style attribute, not animations). motion.js ignores
// this animation when it measures what is moving.
function hold(node, transform) {
  const frame = { transform, zIndex: 6 };
  const held = node.animate([frame, frame], { duration: 1000, fill: "both", id: "held" });
  held.pause();
  return held;
}

// While a card is dragged along a manually sorted hand, the others make
// room: each slides (the CSS `translate`, which composes with the lift of a
// selected card) to the place it takes if the card is let go there. The
// transition is inline too, so when the render of the new order strips the
// style attribute (the keyed update does) the cards stay where they stand,
// now by layout, without sliding back; the motion layer measures them there.
const ROOM_MS = 160;

function makeRoom(drag, at) {
  if (!drag.others || drag.room === at) return;
  drag.room = at;
  drag.others.forEach((node, j) => {
    const from = j < drag.index ? j : j + 1;
    const to = at === null ? from : j < at ? j : j + 1;
    const dx = drag.lefts[to] - drag.lefts[from];
    node.style.transition = drag.still ? "none" : `translate ${ROOM_MS}ms ease-out`;
    if (dx) node.style.translate = `${dx}px 0`;
    else node.style.removeProperty("translate");
  });
}

export function bindDrag(root, intents) {
  const dnd = {
    root, // the page's #app
    intents, // dragDiscard and reorder (play/intents.js)
    drag: null, // the card being dragged: {card, node, x, y, moved, pointerId; manual sort: index, others, lefts, room, still}
  };
  root.addEventListener("pointerdown", (event) => pointerDown(dnd, event));
  root.addEventListener("pointermove", (event) => pointerMove(dnd, event));
  root.addEventListener("pointerup", (event) => end(dnd, event, true));
  root.addEventListener("pointercancel", (event) => end(dnd, event, false));
}

function pileAt(dnd, x, y) {
  const pile = dnd.root.querySelector(".table .discard-pile");
  if (!pile) return null;
  const r = pile.getBoundingClientRect();
  return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom ? pile : null;
}

// Where among the other cards a drop at (x, y) puts the dragged card
// (their places when the drag began), or null when it is not on the hand
// or the sort is not "manual".
function slot(dnd, x, y) {
  const { drag } = dnd;
  const hand = dnd.root.querySelector(".table .hand.sort-manual");
  if (!hand || !drag.others) return null;
  const r = hand.getBoundingClientRect();
  if (y < r.top - HAND_MARGIN_PX || y > r.bottom + HAND_MARGIN_PX) return null;
  const width = drag.node.getBoundingClientRect().width;
  return drag.others.filter((_, j) => drag.lefts[j < drag.index ? j : j + 1] + width / 2 < x).length;
}

// The hand's order with the dragged card moved to where x falls, or null.
function reordered(dnd, x, y) {
  const at = slot(dnd, x, y);
  if (at === null) return null;
  const order = dnd.drag.others.map((n) => n.dataset.card);
  order.splice(at, 0, dnd.drag.card);
  return order;
}

function back(dnd, node, transform) {
  if (transform && !still(dnd.root) && node.isConnected)
    node.animate([{ transform }, { transform: "none" }], { id: MOTION_ID, duration: 180, easing: "ease-out" });
}

function end(dnd, event, drop) {
  if (!dnd.drag) return;
  const { root, intents } = dnd;
  const current = dnd.drag;
  const { node, card, moved } = current;
  const pile = root.querySelector(".table .discard-pile");
  if (pile) pile.classList.remove("drop-target");
  if (pile) pile.removeAttribute("data-drop");
  node.classList.remove("dragging");
  if (!moved) {
    dnd.drag = null;
    return;
  }
  const order = drop && !pileAt(dnd, event.clientX, event.clientY) ? reordered(dnd, event.clientX, event.clientY) : null;
  dnd.drag = null;
  const transform = node.style.transform;
  const held = hold(node, transform || "none");
  node.style.removeProperty("transform");
  if (drop && pileAt(dnd, event.clientX, event.clientY)) {
    makeRoom(current, null);
    // Held until the engine has answered: gone with the node when the
    // card went to the pile; back to its place when the move was refused.
    Promise.resolve(intents.dragDiscard({ card })).finally(() => {
      held.cancel();
      back(dnd, node, transform);
    });
    return;
  }
  const before = [...root.querySelectorAll(".table .hand .hand-card")].map((n) => n.dataset.card);
  if (order && order.join() !== before.join()) {
    intents.reorder({ order }); // renders now: motion flies the cards on from where they stand
    held.cancel();
    return;
  }
  // Not on the pile nor a new place: everything back to its place.
  makeRoom(current, null);
  held.cancel();
  back(dnd, node, transform);
}

function pointerDown(dnd, event) {
  const node = event.target.closest(".hand .hand-card");
  if (!node || event.button !== 0 || !event.isPrimary || !dnd.root.contains(node) || node.closest(HELD)) return;
  dnd.drag = {
    card: node.dataset.card,
    node,
    x: event.clientX,
    y: event.clientY,
    moved: false,
    pointerId: event.pointerId,
  };
}

// The drag begins once the pointer has moved TAP_SLOP_PX: the card lifts,
// and with the "manual" sort the places of the others are read.
function lift(dnd, event) {
  const { drag, root } = dnd;
  drag.moved = true;
  drag.node.classList.add("dragging");
  drag.node.setPointerCapture?.(event.pointerId);
  const cards = [...root.querySelectorAll(".table .hand.sort-manual .hand-card")];
  if (cards.includes(drag.node)) {
    drag.index = cards.indexOf(drag.node);
    drag.others = cards.filter((n) => n !== drag.node);
    drag.lefts = cards.map((n) => n.getBoundingClientRect().left);
    drag.room = undefined;
    drag.still = still(root);
  }
}

function pointerMove(dnd, event) {
  const { drag } = dnd;
  if (!drag || event.pointerId !== drag.pointerId) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.moved && Math.hypot(dx, dy) < TAP_SLOP_PX) return;
  if (!drag.moved) lift(dnd, event);
  drag.node.style.transform = `translate(${dx}px, ${dy}px) rotate(${Math.max(-8, Math.min(8, dx / 20))}deg)`;
  const over = Boolean(pileAt(dnd, event.clientX, event.clientY));
  makeRoom(drag, over ? null : slot(dnd, event.clientX, event.clientY));
  const pile = dnd.root.querySelector(".table .discard-pile");
  if (!pile) return;
  pile.classList.toggle("drop-target", over);
  pile.toggleAttribute("data-drop", over);
}
