// The one rule of every stored format (issue 36, path 4): a page of an older
// build (a tab left open since last week, a rollback) meets what a newer
// build wrote. It keeps every well-formed entry it does not understand,
// untouched, and it never rewrites a collection whose format is newer than
// its own. storage.js applies the second half to every write and read
// (write refuses, readChecked neither reads nor sets aside such a value);
// the modules that keep lists (finished.js) sort their entries with
// splitEntries and write the foreign ones back as they found them.
//
// From now on every stored format carries its version: a list in its key's
// name (".v2"), an object in its `version` field (listed here). A change of
// format comes with a migration, a fixture under tests/fixtures/stored/ and
// a higher number here.

import { KEYS } from "./keys.js";

// The objects whose format is their `version` field, and the version this
// build reads and writes.
export const OBJECT_VERSIONS = Object.freeze({
  [KEYS.totals]: 2, // finished.js TOTALS_VERSION (1: every digest kept, converted by currentTotals)
  [KEYS.duplicate]: 1, // duplicates.js DUPLICATE_VERSION
  [KEYS.shown]: 1, // storage.js SHOWN_VERSION: the table last shown (issue 33)
  [KEYS.daily]: 1, // daily.js DAILY_VERSION (before it: no version, the same fields)
  [KEYS.challenges]: 2, // daily.js CHALLENGES_VERSION (1: the bare list under gin.challenges.v1)
});

// True when `value` (a parsed stored object) is of a format newer than
// the one this build has for `key`.
export function isNewer(key, value) {
  const mine = OBJECT_VERSIONS[key];
  if (mine === undefined || !value || typeof value !== "object" || Array.isArray(value)) return false;
  return typeof value.version === "number" && value.version > mine;
}

// The entries of a stored list: `known` (this build reads them), `foreign`
// (well formed but of something this build does not know, such as a rule
// profile added later: kept untouched, neither read nor set aside) and
// `bad` (not what an entry should be: the list is kept aside first).
export function splitEntries(list, understood, wellFormed) {
  const known = [];
  const foreign = [];
  const bad = [];
  for (const entry of list) {
    if (understood(entry)) known.push(entry);
    else if (wellFormed(entry)) foreign.push(entry);
    else bad.push(entry);
  }
  return { known, foreign, bad };
}
