// The keyed update behind render(): the renderer describes the page as a
// fresh, detached tree; morph() brings the live DOM to that tree while
// keeping every node that is still there. Children match by data-key (cards,
// buttons, panels), else by position and tag. A kept node keeps its focus,
// its running animations and its scroll position. A subtree with the same
// data-static value on both sides is taken as it is (a card's face).
//
// Why our own and not a library: it is ~70 lines, needs no build step or
// vendored copy, and knows our one rule (data-key). See the README.

function keyOf(node) {
  return node.nodeType === 1 ? node.getAttribute("data-key") : null;
}

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== 1) return true;
  return a.tagName === b.tagName && keyOf(a) === keyOf(b);
}

function morphAttributes(live, next) {
  for (const { name } of [...live.attributes]) {
    if (!next.hasAttribute(name)) live.removeAttribute(name);
  }
  for (const { name, value } of next.attributes) {
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

// Make live's children those of next (next's children are used up).
export function morphChildren(live, next) {
  const keyed = new Map();
  for (const child of live.childNodes) {
    const key = keyOf(child);
    if (key !== null) keyed.set(key, child);
  }
  let cursor = live.firstChild;
  for (const child of [...next.childNodes]) {
    const key = keyOf(child);
    let match = null;
    if (key !== null) {
      const found = keyed.get(key);
      if (found && sameKind(found, child)) {
        match = found;
        keyed.delete(key);
      }
    } else if (cursor && keyOf(cursor) === null && sameKind(cursor, child)) {
      match = cursor;
    }
    if (!match) {
      live.insertBefore(child, cursor);
      continue;
    }
    if (match === cursor) cursor = cursor.nextSibling;
    else live.insertBefore(match, cursor);
    // A subtree marked data-static (a card's face) is all its value says: nothing to compare.
    if (match.nodeType === 1 && match.hasAttribute("data-static") && match.getAttribute("data-static") === child.getAttribute("data-static"))
      continue;
    morphNode(match, child);
  }
  while (cursor) {
    const after = cursor.nextSibling;
    cursor.remove();
    cursor = after;
  }
}
