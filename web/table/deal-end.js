// The deal's end on a slow phone (issue 33). The move that ends a deal
// brings the next deal's table, the deal result panel and its showdown (the
// computer's cards turned, the layoffs flown onto their melds): at a quarter
// of a phone's CPU, all of it in one frame was a frame of 100–300 ms. When
// the panel animates, its work is spread over three frames, each its own
// task after the paint of the one before:
//   "held"     the render of the move: the table, no panel, nothing moves
//              (the cards under the panel-to-be are not dealt by motion:
//              the next deal flies from the stock once "Siguiente" closes it);
//   "building" the panel built and laid out, hidden (its overlay carries
//              data-building: visibility hidden, style.css);
//   shown      (null) the panel shown as it was laid out (no render: the
//              mark taken off, the table held: dom.js's holdPage, which
//              restyles nothing, where `inert` restyled the whole table), its
//              showdown started (positions read from a page already laid
//              out, before those writes), its focus given.
// With no animation (speed instant, reduced motion, the page's boot) the
// panel is shown at once. done() settles once the panel is shown
// (ginApp.idle waits for it). Once per page, at the first idle moment after
// the table animates, a made-up result panel is laid out hidden and taken
// away (warm), its words part by part first, then whole: the first panel
// laid out pays for its fonts and styles.

import { whenIdle } from "./idle.js";

// The task after the next frame's paint.
function afterNextPaint(fn) {
  requestAnimationFrame(() => setTimeout(fn, 0));
}

// render(): the page's full render; reveal(): shows the panel built hidden
// (or renders, if there is none to show); sample(): a made-up result panel
// (an overlay node) to warm with, or null.
export function createDealEnd(root, { render, reveal, sample }) {
  let warmed = false;
  function warm() {
    warmed = true;
    // A panel of its own meanwhile (the menu's overlay is always in the
    // page, hidden: it does not count; with it counted, no page warmed).
    const busy = () => end.stage || root.querySelector(':scope > .overlay[data-key^="panel:"]');
    // Idle moments, each a phone's frame of its own: the panel's script run
    // once (its first run compiles it); then its words laid out, one part
    // of the panel at a time (its title, its summary, the hands' words, its
    // foot: the first layout of each part's fonts); then the whole panel,
    // its cards too (cheap by then). One layout of it all at once was a
    // phone's frame of 63-127 ms at x4 (issue 33), its words first alone
    // 59-65. The made-up panel is in the page only inside each task.
    const layOut = (node) => {
      root.append(node);
      void node.offsetHeight; // laid out now, in the idle time,
      node.remove(); // and gone before anything sees it
    };
    whenIdle(() => {
      if (busy()) return;
      const node = sample();
      if (!node) return;
      node.setAttribute("data-building", "");
      node.setAttribute("aria-hidden", "true");
      const words = node.cloneNode(true);
      for (const card of words.querySelectorAll("[data-face]")) card.remove();
      const count = words.querySelector(".panel").children.length;
      const steps = Array.from({ length: count }, (_, i) => () => {
        const part = words.cloneNode(true);
        [...part.querySelector(".panel").children].forEach((child, j) => j === i || child.remove());
        return part;
      });
      steps.push(() => node);
      const next = () =>
        whenIdle(() => {
          if (busy()) return;
          layOut(steps.shift()());
          if (steps.length) next();
        });
      next();
    });
  }

  const end = {
    key: null, // "seed:deal:opened" of the last deal result seen
    stage: null, // "held" | "building" | null: where that result's panel is
    done: Promise.resolve(),
  };

  // The stage of the deal result panel for this render, for `state`.
  function stageOf(state, animated) {
    const { ui, view } = state;
    if (!warmed && animated && view) warm();
    if (ui.panel !== "deal" || !ui.result || !view) return null;
    const key = `${view.seed}:${ui.result.number}:${ui.opened || 0}`;
    if (key === end.key) return end.stage;
    end.key = key;
    // A hidden page paints no frame: it would wait for the player's return.
    end.stage = animated && !document.hidden ? "held" : null;
    if (end.stage) {
      end.done = new Promise((resolve) => {
        const next = (stage, then) =>
          afterNextPaint(() => {
            if (end.key !== key || !end.stage) return resolve(); // another result, or shown already
            end.stage = stage;
            if (stage) render();
            else reveal();
            then();
          });
        next("building", () => next(null, resolve));
      });
    }
    return end.stage;
  }

  return { stageOf, done: () => end.done };
}
