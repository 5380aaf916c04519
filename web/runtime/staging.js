// The precache's staging: on a visit no service worker of this build controls
// yet (a first visit), keep what Pyodide fetched for the service worker's
// precache (it checks every file against the manifest and moves it into its
// own cache), so nothing is downloaded twice. The service worker waits for
// STAGED_MARK before it looks there.

// The staging cache's name: startup.caches.staging (snapshotformat.js cacheNames; sw.js's STAGING).
const STAGED_MARK = "gin-staging-complete";

// Whether this build's service worker has done its work: the gin wheel is
// precached with every file of the build, so if it is in Cache Storage, it has.
async function controlledBuild(startup) {
  try {
    return typeof caches === "undefined" || Boolean(await caches.match(startup.urls.gin));
  } catch {
    return true;
  }
}

// Staging under way: self.fetch keeps a copy of each response in the
// staging cache until endStaging.
//   original  the fetch it replaced
//   staged    promises of the copies being written (the first: the cache's opening)
//   ended     endStaging has run
//   name      the staging cache's name
function stageFetches(startup) {
  const original = self.fetch;
  const name = startup.caches.staging;
  const staging = { original, name, staged: [caches.open(name)], ended: false, markURL: new URL(STAGED_MARK, self.location.href).href };
  staging.staged[0].catch(() => {}); // its existence says "staging under way"
  self.fetch = function (input, init) {
    const result = original.call(this, input, init);
    const url = new URL(typeof input === "string" ? input : input.url || String(input), self.location.href);
    if (url.origin === self.location.origin && (!init || !init.method || init.method === "GET")) {
      staging.staged.push(keepCopy(staging.name, url, result));
    }
    return result;
  };
  return staging;
}

async function keepCopy(name, url, result) {
  try {
    const response = await result;
    if (!response.ok || response.type !== "basic") return;
    const copy = response.clone(); // now, before Pyodide reads the body
    // Never bring back a staging cache the service worker has already
    // used and deleted (a slow start can outlast its wait for the mark).
    if (await caches.has(name)) await (await caches.open(name)).put(url.href, copy);
  } catch {
    // the service worker downloads it instead
  }
}

// A first visit (not an extra engine, which never writes shared storage)
// stages its fetches: the staging record, else null.
export async function stageFirstVisit(startup) {
  if (startup.reviewer || (await controlledBuild(startup))) return null;
  return stageFetches(startup);
}

// After the start's fetches (once; null: nothing staged): fetch is itself
// again, and the staging cache is marked complete once every copy is in.
export function endStaging(staging) {
  if (!staging || staging.ended) return;
  staging.ended = true;
  self.fetch = staging.original;
  Promise.all(staging.staged)
    .then(async () => {
      if (await caches.has(staging.name)) await (await caches.open(staging.name)).put(staging.markURL, new Response("1"));
    })
    .catch(() => {});
}
