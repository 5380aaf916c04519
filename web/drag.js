// Drag a card of the hand onto the discard pile to discard it (pointer
// events: touch, pen and mouse). The pile lights up as a drop target; a
// short press stays a tap (select), so tap-to-select keeps working. The
// drop becomes the same intent as a discard by taps.

const THRESHOLD_PX = 8;

export function bindDrag(root, intents) {
  let drag = null; // {card, node, x, y, moved, pointerId}
  let swallowClick = false;

  function pileAt(x, y) {
    const pile = root.querySelector(".table .discard-pile");
    if (!pile) return null;
    const r = pile.getBoundingClientRect();
    return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom ? pile : null;
  }

  function end(event, drop) {
    if (!drag) return;
    const { node, card, moved } = drag;
    const pile = root.querySelector(".table .discard-pile");
    if (pile) pile.classList.remove("drop-target");
    node.classList.remove("dragging");
    drag = null;
    if (!moved) return;
    swallowClick = true;
    if (drop && pileAt(event.clientX, event.clientY)) {
      node.style.removeProperty("transform");
      intents.dragDiscard({ card });
      return;
    }
    // Not on the pile: back to its place.
    const back = node.style.transform;
    node.style.removeProperty("transform");
    const still = root.dataset.speed === "instant" || matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (back && !still)
      node.animate([{ transform: back }, { transform: "none" }], { duration: 180, easing: "ease-out" });
  }

  root.addEventListener("pointerdown", (event) => {
    const node = event.target.closest(".hand .hand-card");
    if (!node || event.button !== 0 || !root.contains(node) || node.closest("[inert]")) return;
    drag = {
      card: node.dataset.card,
      node,
      x: event.clientX,
      y: event.clientY,
      moved: false,
      pointerId: event.pointerId,
    };
  });
  root.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < THRESHOLD_PX) return;
    if (!drag.moved) {
      drag.moved = true;
      drag.node.classList.add("dragging");
      drag.node.setPointerCapture?.(event.pointerId);
    }
    drag.node.style.transform = `translate(${dx}px, ${dy}px) rotate(${Math.max(-8, Math.min(8, dx / 20))}deg)`;
    const pile = root.querySelector(".table .discard-pile");
    if (pile) pile.classList.toggle("drop-target", Boolean(pileAt(event.clientX, event.clientY)));
  });
  root.addEventListener("pointerup", (event) => end(event, true));
  root.addEventListener("pointercancel", (event) => end(event, false));
  // The click that follows a drag is not a tap.
  root.addEventListener(
    "click",
    (event) => {
      if (!swallowClick) return;
      swallowClick = false;
      event.stopPropagation();
      event.preventDefault();
    },
    true,
  );
}
