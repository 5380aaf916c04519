// The keyed update behind renderPage(): the renderer describes the page as a
// fresh, detached tree; morph() brings the live DOM to that tree while
// keeping every node that is still there. Children match by data-key (cards,
// buttons, panels), else by position and tag. A kept node keeps its focus,
// its running animations and its scroll position. A subtree with the same
// data-static value on both sides is taken as it is (a card's face).
//
// Why our own and not a library: it is ~110 lines, needs no build step or
// vendored copy, and knows our one rule (data-key). See the README.

function keyOf(node) {
  return node.nodeType === 1 ? node.getAttribute("data-key") : null;
}

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== 1) return true;
  return a.tagName === b.tagName && keyOf(a) === keyOf(b);
}

// Set on live nodes by the motion layer for a card's flight (motion.js's
// FLYING); no render writes it, so it stays until the card lands.
const LIVE_ONLY = "data-flying";

// By index, no copies: a render compares some 400 nodes (issue 33).
function morphAttributes(live, next) {
  const gone = live.attributes; // live: from the end, so a removal moves nothing still to see
  for (let i = gone.length - 1; i >= 0; i--) {
    const { name } = gone[i];
    if (name !== LIVE_ONLY && !next.hasAttribute(name)) live.removeAttribute(name);
  }
  const wanted = next.attributes;
  for (let i = 0; i < wanted.length; i++) {
    const { name, value } = wanted[i];
    if (live.getAttribute(name) !== value) live.setAttribute(name, value);
  }
}

function morphNode(live, next) {
  if (live.nodeType !== 1) {
    if (live.nodeValue !== next.nodeValue) live.nodeValue = next.nodeValue;
    return;
  }
  morphAttributes(live, next);
  morphChildren(live, next);
  // Form state lives in properties, not attributes.
  if (live.tagName === "INPUT") live.checked = next.checked;
  if (live.tagName === "SELECT") live.value = next.value;
}

// The positions (indexes into seq) of a longest strictly increasing run of
// seq's values, -1s skipped: the kept nodes already in order, which stay put.
function inOrder(seq) {
  const tails = []; // tails[k]: index of the smallest last value of a run of length k + 1
  const prev = new Array(seq.length).fill(-1);
  for (let i = 0; i < seq.length; i++) {
    if (seq[i] < 0) continue;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]] < seq[i]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1];
    tails[lo] = i;
  }
  const stay = new Set();
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = prev[i]) stay.add(i);
  return stay;
}

// Make live's children those of next (next's children are used up).
// Nodes leave first, then only the kept nodes out of order move: moving a
// node takes it out of the page and back (its subtree is styled and laid out
// again, a focused node loses the focus), so a card thrown from the middle
// of the hand moves nothing, and a card the sort moves is the one that moves.
export function morphChildren(live, next) {
  if (samePlaces(live, next)) {
    // The usual case (issue 33): each child where it was, so no maps, no
    // moves: each pair compared in place.
    for (let a = live.firstChild, b = next.firstChild; a; a = a.nextSibling, b = b.nextSibling) morphPair(a, b);
    return;
  }
  const incoming = [...next.childNodes];
  const keyed = new Map();
  const loose = []; // the live children without a key, in order
  for (const child of live.childNodes) {
    const key = keyOf(child);
    if (key !== null) keyed.set(key, child);
    else loose.push(child);
  }
  let j = 0;
  const pairs = incoming.map((child) => {
    const key = keyOf(child);
    if (key !== null) {
      const found = keyed.get(key);
      if (!found || !sameKind(found, child)) return null;
      keyed.delete(key);
      return found;
    }
    if (j < loose.length && sameKind(loose[j], child)) return loose[j++];
    return null;
  });
  const kept = new Set(pairs.filter(Boolean));
  for (const child of [...live.childNodes]) if (!kept.has(child)) child.remove();
  const position = new Map([...live.childNodes].map((node, i) => [node, i]));
  const stay = inOrder(pairs.map((node) => (node ? position.get(node) : -1)));
  let anchor = null;
  for (let i = incoming.length - 1; i >= 0; i--) {
    const node = pairs[i] || incoming[i];
    if (!pairs[i] || !stay.has(i)) live.insertBefore(node, anchor);
    anchor = node;
  }
  incoming.forEach((child, i) => {
    if (pairs[i]) morphPair(pairs[i], child);
  });
}

// Whether next's children are live's, one for one in the same order (the
// same kind and key): what the matching below finds then, with nothing to
// remove, insert or move.
function samePlaces(live, next) {
  let a = live.firstChild;
  let b = next.firstChild;
  for (; a && b; a = a.nextSibling, b = b.nextSibling) if (!sameKind(a, b)) return false;
  return !a && !b;
}

function morphPair(match, child) {
  // A subtree marked data-static (a card's face) is all its value says: nothing to compare.
  if (match.nodeType === 1 && match.hasAttribute("data-static") && match.getAttribute("data-static") === child.getAttribute("data-static"))
    return;
  morphNode(match, child);
}
