// One tab plays a match at a time. Each tab holds the Web Lock named after
// the match it plays (`gin.match.<SEED>`) for as long as it plays it; a
// second tab on the same match finds the lock taken and says so, and "Jugar
// aquí" steals it: the platform then aborts the first tab's hold, which
// stops writing at once (storage.js asks `owns()` before every write of the
// match). A tab on another seed holds another lock: both play.
//
// Where the browser has no Web Locks (a page served over plain HTTP from a
// LAN address is no secure context: no Web Locks, no service worker, no
// Cache Storage), a BroadcastChannel stands in (issue 36, item 11): a tab
// that opens a match asks the others whether one plays it and waits ASK_MS
// for an answer; "Jugar aquí" tells the one that plays it to stop. Two tabs
// asking for the same match at once: the one with the smaller id wins. Only
// with neither (no Web Locks, no BroadcastChannel) does every tab own its match.
//
// The module's state is one record (createTabs); its functions take it first.

import { MATCH_LOCK_PREFIX as PREFIX } from "./keys.js";

export const ASK_MS = 200; // how long a tab waits for another to say it plays the match
const CHANNEL = "gin.tabs";

// locks: navigator.locks or null; channel(name): a BroadcastChannel, or null.
export function createTabs({
  onLost = () => {},
  locks = globalThis.navigator && navigator.locks,
  channel = (name) => (typeof BroadcastChannel === "function" ? new BroadcastChannel(name) : null),
} = {}) {
  const tabs = {
    onLost, // onLost(seed): another tab took this tab's match over
    locks: locks || null, // Web Locks, or null
    held: null, // with Web Locks: {name, release}; without: {seed}
    owner: false, // does this tab own the match it plays?
    channel: null, // without Web Locks: the BroadcastChannel the tabs talk on
    id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`, // this tab, in the channel's messages
    asking: null, // without Web Locks: {seed, answered} while this tab asks
  };
  if (!tabs.locks) {
    tabs.channel = channel(CHANNEL);
    if (tabs.channel) tabs.channel.onmessage = (event) => heard(tabs, event.data);
  }
  tabs.owner = !tabs.locks && !tabs.channel;
  return {
    claim: (seed, options) => claim(tabs, seed, options),
    release: () => release(tabs),
    owns: () => tabs.owner,
    // How this tab keeps other tabs off its match: "locks", "channel" or "none".
    get guard() {
      return tabs.locks ? "locks" : tabs.channel ? "channel" : "none";
    },
  };
}

// Resolves true when this tab now holds the match of `seed` (any other it
// held is let go), false when another tab has it (unless `steal`).
function claim(tabs, seed, { steal = false } = {}) {
  if (tabs.locks) return claimLock(tabs, seed, steal);
  if (tabs.channel) return claimChannel(tabs, seed, steal);
  return Promise.resolve((tabs.owner = true));
}

function claimLock(tabs, seed, steal) {
  const name = PREFIX + seed;
  if (tabs.held && tabs.held.name === name) return Promise.resolve((tabs.owner = true));
  release(tabs);
  return new Promise((resolve) => {
    let letGo;
    const hold = new Promise((r) => {
      letGo = r;
    });
    const mine = { name, release: letGo };
    const options = steal ? { steal: true } : { ifAvailable: true };
    tabs.locks
      .request(name, options, (lock) => {
        if (!lock) {
          resolve((tabs.owner = false));
          return null;
        }
        tabs.held = mine;
        tabs.owner = true;
        resolve(true);
        return hold;
      })
      .catch(() => {
        // AbortError: another tab took this match over.
        if (tabs.held !== mine) return resolve(false);
        tabs.held = null;
        tabs.owner = false;
        tabs.onLost(seed);
      });
  });
}

function claimChannel(tabs, seed, steal) {
  if (tabs.held && tabs.held.seed === seed && tabs.owner) return Promise.resolve(true);
  release(tabs);
  if (steal) {
    tabs.channel.postMessage({ type: "take", seed, from: tabs.id });
    tabs.held = { seed };
    return Promise.resolve((tabs.owner = true));
  }
  const asking = { seed, answered: false };
  tabs.asking = asking;
  tabs.channel.postMessage({ type: "ask", seed, from: tabs.id });
  return new Promise((resolve) => {
    setTimeout(() => {
      if (tabs.asking === asking) tabs.asking = null;
      if (asking.answered) return resolve((tabs.owner = false));
      tabs.held = { seed };
      resolve((tabs.owner = true));
    }, ASK_MS);
  });
}

// A message of another tab on the channel.
function heard(tabs, message) {
  if (!message || typeof message !== "object" || message.from === tabs.id) return;
  const { type, seed, from } = message;
  const mine = tabs.held && tabs.held.seed === seed && tabs.owner;
  if (type === "ask" && (mine || (tabs.asking && tabs.asking.seed === seed && tabs.id < from))) {
    tabs.channel.postMessage({ type: "have", seed, to: from, from: tabs.id });
  } else if (type === "have" && message.to === tabs.id && tabs.asking && tabs.asking.seed === seed) {
    tabs.asking.answered = true;
  } else if (type === "take" && mine) {
    tabs.held = null;
    tabs.owner = false;
    tabs.onLost(seed);
  }
}

function release(tabs) {
  if (tabs.held && tabs.held.release) tabs.held.release();
  tabs.held = null;
}
