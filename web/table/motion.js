// The motion layer: FLIP with the Web Animations API. Before a render it
// measures where every card on the table is (by card, not by node: a card
// that goes from the hand to the pile is followed); after the render it
// animates each card from where it was to where it is now. Cards that were
// not on the table come from where the game says: a draw from the stock,
// the computer's discard from its hand; a new deal flies from the stock one
// card at a time, then turns the upcard; a deal result turns the
// computer's cards face up and moves the layoffs onto the melds they join.
// Nothing moves with prefers-reduced-motion or speed "instant"; animations
// never hold input (they are visual only), and a card in flight is no target
// (pointer-events none while it moves): a tap goes to what lies under it; a
// hand card that only slides along the hand (less than its width: room made
// for a card drawn, a thrown card's gap closed) stays one (fly's `slide`).
// Only the card that moves flies, from where it is now (mid-flight too).
// settled() resolves once nothing of ours moves any more: the computer
// waits on it before its move (play/controller.js). landed() is the one
// notion of "the deal has landed": it resolves once every card of the deal
// on the table has landed, the upcard's turn included (at once when no deal
// is in flight), and dealing() says whether that is still to come; settled()
// waits for it too. While it lands the page root carries DEALING (style.css
// hides what the deal would tell: Tomar/Pasar, the upcard's name, the
// deadwood, the prompt), and skipDeal() (a tap or a key during the deal:
// input.js) lands every card at once. The layer's state is one record (createMotion); its
// functions take it first.

// Every animation of the motion layer carries this id (drag.js's "held" and
// the CSS transitions of a selection are not motion).
export const MOTION_ID = "motion";
// A card in flight carries this attribute (style.css: on top, no target;
// FAN below), set when it starts and taken off when it lands (not on a
// card that only slides along the hand: fly's `slide`); the renderer never
// writes it and the keyed update leaves it (morph.js). Not an animation of
// z-index and pointer-events: those run on the page's thread and restyle
// the card and its whole face at every frame (pointer-events is inherited);
// the flight itself animates the transform only, which the compositor runs
// by itself (smooth even while the page's thread is busy).
export const FLYING = "data-flying";
// FLYING's value on a card that flies into the hand while the card after it
// slides aside (a card drawn or taken, most of the hand's flights): it keeps
// the fan's order (style.css), under that neighbour, as when every card in
// flight was marked; on top it would cover the neighbour until it landed,
// then drop under it. A card whose right-hand neighbour stays (a card
// dropped where the others made room for it) still flies on top of it.
const FAN = "fan";
// On the page root (#app) from the first card of a new deal until its last lands.
export const DEALING = "data-dealing";

const reducedMotion = () => globalThis.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;

function cardId(node) {
  return node.dataset.card || node.dataset.face || null;
}

function rectOf(node) {
  return node ? node.getBoundingClientRect() : null;
}

const moving = (a) => a.id === MOTION_ID && (a.playState === "running" || a.playState === "pending");


function translate(from, to) {
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = to.width ? from.width / to.width : 1;
  return { dx, dy, scale };
}

export function createMotion(root) {
  const motion = {
    root, // the page's #app
    before: null, // where the cards were at the last measure(): {cards, stock, pile, opp, backs}
    shownDeal: null, // "seed:deal" of the deal last shown (a new one is dealt)
    shownResult: null, // "seed:deal" of the deal result last shown (its showdown played once)
    playedBefore: 0, // moves of the deal at the last animate() (a replay from the seed restarts at 0)
    // Every card in flight and its flight, for settled() too: asking the page
    // (getAnimations) would bring its style up to date, a phone's whole frame.
    flights: new Map(),
    planned: null, // [{node, from, duration, delay, turn}]: flights planned, launched together
    // The deal in flight: the flights of its cards (the upcard's turn
    // included, though it starts last in the stagger), or null.
    dealFlights: null,
  };
  return {
    measure: () => measure(motion),
    animate: (view, ui, duration) => animate(motion, view, ui, duration),
    settled: () => settled(motion),
    landed: () => landed(motion),
    dealing: () => dealing(motion),
    skipDeal: () => skipDeal(motion),
  };
}

function tableCards(motion) {
  return [...motion.root.querySelectorAll(".table [data-card], .table [data-face]")];
}

// Where every card on the table is, read before a render.
function measure(motion) {
  const { root } = motion;
  const cards = new Map();
  for (const node of tableCards(motion)) {
    const id = cardId(node);
    if (id && !cards.has(id)) cards.set(id, { rect: rectOf(node), animating: node.hasAttribute(FLYING), node });
  }
  motion.before = {
    cards,
    stock: rectOf(root.querySelector(".table .stock .pile-cards")),
    pile: rectOf(root.querySelector(".table .discard-pile .pile-cards")),
    // One of the computer's cards (the last), not its whole row: a card
    // it discards leaves from there at a card's size.
    opp: rectOf(root.querySelector(".table .opp-backs .card:last-child") || root.querySelector(".table .opp-backs")),
    backs: root.querySelectorAll(".table .opp-backs .card").length,
  };
}

function land(motion, node, animation) {
  const done = () => {
    if (motion.flights.get(node) !== animation) return; // a newer flight took over
    motion.flights.delete(node);
    node.removeAttribute(FLYING);
  };
  animation.finished.then(done, done);
}

// A card still flying (a drawn card discarded at once) starts from where
// it is: its flight so far is given up first.
function ground(motion, node) {
  const before = motion.flights.get(node);
  if (before) before.cancel();
}

// mark: the value of FLYING ("" on top; "fan" in the fan's order, FAN), or
// null for a card that only slides along the hand (fly's `slide`).
function startFlight(motion, node, keyframes, options, mark = "") {
  if (mark !== null) node.setAttribute(FLYING, mark);
  const animation = node.animate(keyframes, { ...options, id: MOTION_ID, fill: "backwards" });
  motion.flights.set(node, animation);
  land(motion, node, animation);
}

function start(motion, node, keyframes, options) {
  ground(motion, node);
  startFlight(motion, node, keyframes, options);
}

// slide: a hand card that only slides along the hand, by less than its
// width, to make room for a card drawn or close a thrown card's gap: it
// keeps its place in the stack and stays a target, so it is not marked
// (FLYING): the mark restyled each card of the hand as it took off and again
// as it landed, the longest part of a move's frames on a phone (issue 33).
function fly(motion, node, from, duration, { delay = 0, turn = false, slide = false } = {}) {
  if (from && node) motion.planned.push({ node, from, duration, delay, turn, slide });
}

// Reads, then writes: every card's place (one layout; a card still in
// flight is brought down first, to where the page puts it now), then
// every flight. A read after a write would lay the page out again.
function launch(motion) {
  const list = motion.planned;
  motion.planned = null;
  const planned = new Set(list.map((f) => f.node));
  for (const f of list) ground(motion, f.node);
  const rects = list.map((f) => rectOf(f.node));
  list.forEach((f, i) => {
    const to = rects[i];
    if (!to) return;
    const { dx, dy, scale } = translate(f.from, to);
    const first = `translate(${dx}px, ${dy}px) scale(${scale})${f.turn ? " scaleX(0.15)" : ""}`;
    startFlight(motion, f.node, [{ transform: first }, { transform: "none" }], {
      duration: f.duration,
      delay: f.delay,
      easing: "cubic-bezier(.2,.7,.3,1)",
    }, f.slide ? null : planned.has(f.node.nextElementSibling) && f.node.closest(".hand") ? FAN : "");
  });
}

function turnOver(motion, node, duration, delay = 0) {
  start(motion, node, [{ transform: "scaleX(0.05)" }, { transform: "none" }], { duration, delay, easing: "ease-out" });
}

// A new deal: the cards fly from the stock one at a time, then the upcard turns.
function animateDeal(motion, view, duration) {
  const { root } = motion;
  motion.planned = [];
  const stock = rectOf(root.querySelector(".table .stock .pile-cards"));
  const mine = [...root.querySelectorAll(".table .hand .hand-card")];
  const theirs = [...root.querySelectorAll(".table .opp-backs .card")];
  const step = duration * 0.3;
  const humanFirst = view.dealer === 1; // the non-dealer gets the first card
  mine.forEach((node, i) => fly(motion, node, stock, duration, { delay: (2 * i + (humanFirst ? 0 : 1)) * step, turn: true }));
  theirs.forEach((node, i) => fly(motion, node, stock, duration, { delay: (2 * i + (humanFirst ? 1 : 0)) * step }));
  const upcard = root.querySelector(".table .discard-pile .card.top");
  const last = 2 * Math.max(mine.length, theirs.length) * step;
  const to = upcard && stock ? rectOf(upcard) : null;
  const nodes = motion.planned.map((f) => f.node);
  launch(motion);
  if (to) {
    // From the stock, face down (edge-on), then turned face up on the pile.
    const { dx, dy, scale } = translate(stock, to);
    start(
      motion,
      upcard,
      [
        { transform: `translate(${dx}px, ${dy}px) scale(${scale}) scaleX(0.05)` },
        { transform: "scaleX(0.05)", offset: 0.5 },
        { transform: "none" },
      ],
      { duration: duration * 2, delay: last, easing: "ease-out" },
    );
    nodes.push(upcard);
  }
  // Every card of the deal is in flight from now on, each waiting for its
  // turn in the stagger: what "the deal has landed" waits for.
  motion.dealFlights = nodes.map((node) => motion.flights.get(node)).filter(Boolean);
  markDealing(motion);
}

// --- what the deal hides until it has landed (issue 35) ----------------------

// The page root carries DEALING until the deal has landed (landed()).
function markDealing(motion) {
  if (!motion.dealFlights || !motion.dealFlights.length) return;
  motion.root.setAttribute(DEALING, "");
  landed(motion).then(() => {
    if (!dealing(motion)) motion.root.removeAttribute(DEALING);
  });
}

// Every card of the deal down at once (a tap or a key while it lands).
function skipDeal(motion) {
  if (!motion.dealFlights) return;
  for (const a of [...motion.flights.values()]) {
    try {
      a.finish();
    } catch {
      a.cancel(); // an animation that cannot finish (no end) goes
    }
  }
  motion.dealFlights = null;
  motion.root.removeAttribute(DEALING);
}

// The deal result: the computer's cards turn face up one after another;
// laid-off cards travel from the defender's row onto the melds they join.
function animateShowdown(motion, duration) {
  const panel = motion.root.querySelector(".panel.deal");
  if (!panel) return;
  const theirs = [...panel.querySelectorAll(".hand-summary.seat-1 .card")];
  const after = theirs.length * duration * 0.12 + duration;
  // From the line that names them in the defender's part, at a card's size.
  motion.planned = [];
  const line = rectOf(panel.querySelector(".laid-names"));
  for (const laid of panel.querySelectorAll(".meld-row .card.laid")) {
    const to = rectOf(laid);
    if (line && to) fly(motion, laid, { left: line.left, top: line.top, width: to.width, height: to.height }, duration * 1.5, { delay: after });
  }
  launch(motion);
  theirs.forEach((node, i) => turnOver(motion, node, duration, i * duration * 0.12));
}

// After a render: each card from where it was (measure) to where it is now.
function animate(motion, view, ui, duration) {
  const was = motion.before;
  motion.before = null;
  if (!view || !duration || reducedMotion()) {
    if (view) motion.shownDeal = `${view.seed}:${view.deal_number}:${ui.opened || 0}`;
    return;
  }
  const played = view.events.filter((e) => e.type !== "pass").length;
  if (ui.panel === "deal" && ui.result) {
    const key = `${view.seed}:${ui.result.number}`;
    if (key !== motion.shownResult) animateShowdown(motion, duration);
    motion.shownResult = key;
    return;
  }
  if (ui.panel || ui.menuOpen) return;
  // A new deal (or the same seed replayed): nothing but passes played yet.
  // `opened` bumps whenever a match is put on the table (a replay of the
  // same seed included), so its first deal is dealt again.
  const dealKey = `${view.seed}:${view.deal_number}:${ui.opened || 0}`;
  const newDeal = dealKey !== motion.shownDeal || (played === 0 && motion.playedBefore > 0);
  motion.playedBefore = played;
  if (newDeal) {
    motion.shownDeal = dealKey;
    if (played === 0) animateDeal(motion, view, duration);
    return;
  }
  if (!was) return;
  motion.planned = [];
  for (const node of tableCards(motion)) planFlight(motion, was, node, duration);
  const backs = [...motion.root.querySelectorAll(".table .opp-backs .card")];
  // The computer drew from the stock (a card from the pile is a known one, above).
  if (backs.length > was.backs) fly(motion, backs[backs.length - 1], was.stock, duration * 1.2);
  launch(motion);
}

// One card's flight, if it moved or came onto the table since `was`.
function planFlight(motion, was, node, duration) {
  const old = was.cards.get(cardId(node));
  if (old) {
    // The same node still on its way: it goes on (a render in the
    // middle of the deal). A card that changed places (another node)
    // flies from where it was seen, mid-flight or not.
    if (old.animating && old.node === node) return;
    // A card that stays in the pile (under the top before, on top now
    // that the top was taken) was there all along: only new tops fly.
    if (old.node === node && node.closest(".discard-pile")) return;
    const now = rectOf(node);
    const dx = Math.abs(now.left - old.rect.left);
    const dy = Math.abs(now.top - old.rect.top);
    const slide = old.node === node && dx < now.width && dy < now.height / 2 && Boolean(node.closest(".hand"));
    if (old.node !== node || dx > 1 || dy > 1) fly(motion, node, old.rect, duration, { slide });
  } else if (node.closest(".hand")) {
    fly(motion, node, was.stock, duration * 1.2, { turn: true }); // drawn from the stock
  } else if (node.closest(".discard-pile")) {
    // The computer's discard lands on top; a card that shows under the
    // top now (the pile's top was taken) was there all along: it stays.
    if (node.classList.contains("top")) fly(motion, node, was.opp, duration * 1.2);
  } else if (node.closest(".opp-known")) {
    fly(motion, node, was.pile, duration);
  }
}

// Resolves once no flight of ours runs on the table (new ones started
// meanwhile are waited for too) and the deal has landed; at once when
// nothing moves. A card taken off the page is not waited for.
async function settled(motion) {
  for (;;) {
    await landed(motion);
    const flying = [...motion.flights].filter(([node, a]) => moving(a) && node.isConnected).map(([, a]) => a);
    if (!flying.length) return;
    await Promise.all(flying.map((a) => a.finished.catch(() => {})));
  }
}

// Whether the deal on the table is still landing: one of its cards has yet
// to land (a flight given up, or a card taken off the page, counts as landed).
function dealing(motion) {
  const flights = motion.dealFlights;
  if (!flights) return false;
  const still = flights.some((a) => moving(a) && a.effect.target.isConnected);
  if (!still) motion.dealFlights = null;
  return still;
}

// The one notion of "the deal has landed": resolves once every card of the
// deal in flight has landed and the upcard has turned (at once when no deal
// is in flight).
async function landed(motion) {
  while (dealing(motion)) await Promise.all(motion.dealFlights.map((a) => a.finished.catch(() => {})));
}
