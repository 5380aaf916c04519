// One tab plays a match at a time. Each tab holds the Web Lock named after
// the match it plays (`gin.match.<SEED>`) for as long as it plays it; a
// second tab on the same match finds the lock taken and says so, and "Jugar
// aquí" steals it: the platform then aborts the first tab's hold, which
// stops writing at once (storage.js asks `owns()` before every write of the
// match). A tab on another seed holds another lock: both play. Where the
// browser has no Web Locks, every tab owns its match (as before).

import { MATCH_LOCK_PREFIX as PREFIX } from "./keys.js";

export function createTabs({ onLost = () => {}, locks = globalThis.navigator && navigator.locks } = {}) {
  let held = null; // {name, release}
  let owner = !locks;

  // Resolves true when this tab now holds the lock of `seed` (any other it
  // held is let go), false when another tab has it (unless `steal`).
  function claim(seed, { steal = false } = {}) {
    const name = PREFIX + seed;
    if (!locks) return Promise.resolve((owner = true));
    if (held && held.name === name) return Promise.resolve((owner = true));
    release();
    return new Promise((resolve) => {
      let release;
      const hold = new Promise((r) => {
        release = r;
      });
      const mine = { name, release };
      const options = steal ? { steal: true } : { ifAvailable: true };
      locks
        .request(name, options, (lock) => {
          if (!lock) {
            resolve((owner = false));
            return null;
          }
          held = mine;
          owner = true;
          resolve(true);
          return hold;
        })
        .catch(() => {
          // AbortError: another tab took this match over.
          if (held !== mine) return resolve(false);
          held = null;
          owner = false;
          onLost(seed);
        });
    });
  }

  function release() {
    if (held) held.release();
    held = null;
  }

  return {
    claim,
    release,
    owns: () => owner,
  };
}
