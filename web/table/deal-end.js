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
//
// "Siguiente" closes the panel in a frame of its own (closePanel): the
// panel hidden, the table under it given back and focused, the next deal
// flying (app.js), with no render: that table is the next deal's already
// (the move that ended the deal drew it; nothing of it depends on the
// panel). A whole render there was half of a phone's frame of 170-210 ms
// at x4 (issue 33). The page's full render follows at an idle moment
// (closed()): it takes the hidden panel out and checks the rest.

import { HELD, holdPage } from "./dom.js";
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

  // "Siguiente" closed the panel (closePanel): `deal` (its veil taken off,
  // the next deal flying) in the task after the close's paint, a phone's
  // frame of its own; then `then` (the page's full render) at an idle
  // moment (the deal flies then: at the latest a few frames on); done()
  // settles after it.
  function closed(deal, then) {
    end.done = new Promise((resolve) =>
      afterNextPaint(() => {
        deal();
        afterNextPaint(() =>
          whenIdle(
            () => {
              then();
              resolve();
            },
            0,
            300,
          ),
        );
      }),
    );
  }

  return { stageOf, closed, done: () => end.done };
}

// The deal result panel shown over the page closes (for "Siguiente"): the
// panel goes and its veil stays (data-closing, style.css), over the table
// as it was and under the tap's own mouse events (a touch's come after its
// end, on what is under the finger then), till dropVeil() in the next
// frame; taken out by the next full render. Out of the accessibility tree
// at once, the table under it given back to the keyboard and the screen
// reader (as renderPage does once no panel is asked for) and the focus
// given to `focus` (a data-key); with none (the computer moves first in
// the next deal, so no control of the player's is there yet) the hand's Tab
// stop takes the panel's button's focus, not the page's body, which would
// send the next Tab back to the top bar. False when there is no such panel
// shown over a page: a full render then.
export function closePanel(root, focus) {
  const overlay = root.querySelector(':scope > .overlay[data-key="panel:deal"]:not([data-building]):not([data-closing]):not([data-closed])');
  const page = root.querySelector(":scope > .page");
  if (!overlay || !page) return false;
  const had = overlay.contains(document.activeElement);
  overlay.setAttribute("data-closing", "");
  overlay.setAttribute("aria-hidden", "true");
  root.dataset.panel = "";
  holdPage(page, false);
  const asked = focus ? page.querySelector(`[data-key="${CSS.escape(focus)}"]`) : null;
  const target = asked || (had ? page.querySelector('.hand .hand-card[tabindex="0"]') : null);
  if (target && !target.closest(HELD)) target.focus({ preventScroll: true });
  else if (had) document.activeElement.blur();
  return true;
}

// The veil a closing panel left (closePanel) goes: off the screen too.
export function dropVeil(root) {
  const overlay = root.querySelector(":scope > .overlay[data-closing]");
  if (!overlay) return;
  overlay.removeAttribute("data-closing");
  overlay.setAttribute("data-closed", "");
}
