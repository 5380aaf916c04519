// Offline: precache every file of the build, then answer from the cache first.
// build.py replaces the token below with {version, files: {path: integrity},
// snapshot: {path, raw_path, integrity, xor_integrity, raw_integrity,
// raw_size, xor_wasm}}, so every
// new build is a new script: the browser installs it, it fills a new cache
// (reusing unchanged files from the old one), and once no page uses the old
// build it activates and deletes the old cache.
//
// The memory snapshot (see worker.js) is not part of the install's list: a
// first visit's worker fetches it (gzip, its memory XORed with the wasm's
// data segments) beside the wasm and boots from it, and this worker keeps it
// decoded, not XORed and sparse (raw_path; the forms:
// runtime/snapshotformat.js), as the engine reads it: from the page's staged
// copy at install, from the worker's request as it passes through, or fetched
// in the background once this build is active. A copy that fails to restore
// is deleted by the engine's worker and fetched again on the next visit; the
// failures are noted in NOTES_CACHE, kept until the next build.
importScripts("runtime/wasmdata.js", "runtime/snapshotformat.js"); // self.ginWasmData, self.ginSnapshotFormat

const { integrityOf, isGzip, gunzip, sparseOf, INTEGRITY_HEADER, SPARSE_INTEGRITY_HEADER, cacheNames, MAX_FAILURES, notePath } = self.ginSnapshotFormat;

const MANIFEST = self.__GIN_MANIFEST;
const PREFIX = "gin-";
const SCOPE = new URL(self.registration.scope);
// Every name ends with this copy's path (snapshotformat.js cacheNames): a
// copy of the game at another path of the origin keeps its own caches.
const NAMES = cacheNames(SCOPE.href);
const CACHE = NAMES.build(MANIFEST.version);
const STAGING = NAMES.staging; // what the page's worker fetched before this script ran (runtime/staging.js)
const NOTES_CACHE = NAMES.notes;
const SNAPSHOT = MANIFEST.snapshot || null;

const urlFor = (path) => new URL(path, SCOPE).href;
const ENTRY = SCOPE.href;

// A response to keep: the checked bytes, their integrity, and the headers that
// still describe them (the body is already decoded, so no Content-Encoding).
function keep(bytes, integrity, headers) {
  const kept = new Headers(headers);
  kept.delete("content-encoding");
  kept.delete("content-length");
  kept.set(INTEGRITY_HEADER, integrity);
  return new Response(bytes, { status: 200, headers: kept });
}

// A file whose bytes are unchanged since an earlier build is copied from that
// build's cache (same integrity), and one the page has just fetched from the
// staging cache (checked here), instead of being downloaded again. Only this
// service worker's own caches, written from bytes it had checked, are taken
// at their integrity header's word; a staged copy is what the network (or
// whoever answered the page's worker) sent, headers included: it is hashed
// here (issue 36, item 13).
async function reuse(path, integrity) {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const cache = await caches.open(name);
    const response = await cache.match(urlFor(path));
    if (!response) continue;
    if (!name.startsWith(PREFIX + "staging")) {
      if (response.headers.get(INTEGRITY_HEADER) === integrity) return response;
      continue;
    }
    const bytes = await response.arrayBuffer();
    if ((await integrityOf(bytes)) === integrity) return keep(bytes, integrity, response.headers);
  }
  return null;
}

// The page's worker may still be writing the staging cache when this script
// installs (the page registers it as soon as it is playable): wait for its
// mark, a few seconds at most.
async function stagingSettled() {
  for (let i = 0; i < 100 && (await caches.has(STAGING)); i++) {
    const staging = await caches.open(STAGING);
    if (await staging.match(urlFor("gin-staging-complete"))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function precache() {
  await stagingSettled();
  const cache = await caches.open(CACHE);
  await Promise.all(
    Object.entries(MANIFEST.files).map(async ([path, integrity]) => {
      const url = urlFor(path);
      if (await cache.match(url)) return;
      let response = await reuse(path, integrity);
      if (!response) {
        // integrity makes the browser check the bytes against the manifest;
        // no-cache revalidates, so the HTTP cache answers when it can.
        const fetched = await fetch(url, { integrity, cache: "no-cache" });
        if (!fetched.ok) throw new Error(`precache ${path}: HTTP ${fetched.status}`);
        response = keep(await fetched.arrayBuffer(), integrity, fetched.headers);
      }
      await cache.put(url, response);
    }),
  );
  // The copy's own address ("…/gin/", how a player opens it) answers with
  // index.html too: static routes match the cache by address.
  const index = (await cache.match(ENTRY)) ? null : await cache.match(urlFor("index.html"));
  if (index) await cache.put(ENTRY, index);
  if (SNAPSHOT) {
    const old = await reuse(SNAPSHOT.raw_path, SNAPSHOT.raw_integrity);
    if (old) {
      await cache.put(urlFor(SNAPSHOT.raw_path), old);
    } else {
      const staged = await caches.match(urlFor(SNAPSHOT.path), { cacheName: STAGING });
      if (staged) await storeSnapshot(cache, await staged.arrayBuffer()).catch(warnSnapshot);
    }
  }
}

function warnSnapshot(err) {
  console.warn("gin: snapshot not cached:", String(err && err.message ? err.message : err));
}

// The snapshot's bytes as served (gzip as built, or decoded if the host sent
// it with Content-Encoding), checked, decoded, XORed back with the wasm's data
// segments (from this build's cache) and kept sparse: a repeat visit reads it
// with nothing to undo on its way to playable. Kept with the build's
// integrity of the whole it was checked to rebuild (INTEGRITY_HEADER) and its
// own (SPARSE_INTEGRITY_HEADER), which the engine checks what it reads against.
async function storeSnapshot(cache, bytes) {
  const packed = isGzip(new Uint8Array(bytes, 0, Math.min(2, bytes.byteLength)));
  const want = packed ? SNAPSHOT.integrity : SNAPSHOT.xor_integrity;
  const got = await integrityOf(bytes);
  if (got !== want) throw new Error(`${SNAPSHOT.path} has ${got}, the build says ${want}`);
  const raw = packed ? await gunzip(bytes) : bytes;
  if (raw.byteLength !== SNAPSHOT.raw_size) throw new Error(`${SNAPSHOT.path} decodes to ${raw.byteLength} bytes`);
  const wasm = await cache.match(urlFor(SNAPSHOT.xor_wasm));
  if (!wasm) throw new Error(`${SNAPSHOT.xor_wasm} is not cached yet`);
  const whole = self.ginWasmData.xorWasmData(new Uint8Array(raw), new Uint8Array(await wasm.arrayBuffer()));
  if ((await integrityOf(whole)) !== SNAPSHOT.raw_integrity) throw new Error(`${SNAPSHOT.path} does not rebuild to the build's snapshot`);
  const sparse = sparseOf(whole);
  const headers = { "content-type": "application/octet-stream", [SPARSE_INTEGRITY_HEADER]: await integrityOf(sparse) };
  await cache.put(urlFor(SNAPSHOT.raw_path), keep(sparse, SNAPSHOT.raw_integrity, headers));
}

// How often the engine found this build's snapshot unusable (runtime/snapshot.js forgetSnapshot).
async function snapshotFailures() {
  const note = await caches.match(urlFor(notePath(SNAPSHOT.path)), { cacheName: NOTES_CACHE });
  return note ? (await note.json()).count : 0;
}

// This build's cache, unless a newer build has replaced this worker (it keeps
// running for the pages it still serves, and must not bring back the cache
// the new one deleted).
async function ownCache() {
  return (await caches.has(CACHE)) ? caches.open(CACHE) : null;
}

// One store of the snapshot at a time (issue 36, item 12): right after a new
// build activates, its background fetch and the first visit's worker both
// want it; two stores meant two downloads of 6 MB and twice the service
// worker's work (gunzip, XOR and hash of 31 MB) at the very moment the
// returning page loads through it. `bytesOf()` gives the bytes, or null.
let storing = null;
function storeOnce(bytesOf) {
  storing ||= (async () => {
    const cache = await ownCache();
    if (!cache || (await cache.match(urlFor(SNAPSHOT.raw_path)))) return;
    const bytes = await bytesOf();
    if (bytes) await storeSnapshot(cache, bytes);
  })()
    .catch(warnSnapshot)
    .finally(() => {
      storing = null;
    });
  return storing;
}

// In the background once active: the snapshot, when no visit has brought it.
let fetchingSnapshot = null;
function fetchSnapshot() {
  if (!SNAPSHOT) return Promise.resolve();
  fetchingSnapshot ||= storeOnce(async () => {
    if ((await snapshotFailures()) >= MAX_FAILURES) return null;
    const fetched = await fetch(urlFor(SNAPSHOT.path), { cache: "no-cache" });
    if (!fetched.ok) throw new Error(`HTTP ${fetched.status}`);
    return fetched.arrayBuffer();
  }).finally(() => {
    fetchingSnapshot = null;
  });
  return fetchingSnapshot;
}

// The engine's worker fetching the snapshot (a visit that had no good copy):
// it boots from these bytes, and a copy of them is kept decoded, unless a
// store is already under way (then no copy is even made).
function passSnapshot(event) {
  event.respondWith(
    (async () => {
      const response = await fetch(event.request);
      if (response.ok && !storing) {
        const copy = response.clone();
        event.waitUntil(storeOnce(() => copy.arrayBuffer()));
      }
      return response;
    })(),
  );
}

// No skipWaiting(): a new build waits until no page uses the old one (every
// tab of the game closed or gone elsewhere), then activates. Activating it
// over a page that is still loading lets Chromium stop the old worker while
// it holds a fetch event it has begun (a reload's navigation, a script): that
// request is never answered and the page never starts. Waiting also keeps a
// page on one build: it is never handed to the new worker half-loaded.
//
// Waiting has the same hazard at its end (issue 36, item 12): when the last
// page of the old build goes while a new one waits, Chromium asks the old
// worker to stop as soon as it is idle, and a visit arriving at that moment
// (a player back at once) hands its navigation to the worker as it stops:
// that fetch event is lost and the page never loads (seen in a trace of
// tests/e2e/repeat_update.py: the main frame's fetch dispatched to the
// running worker in the same instant as its termination, "Worker Stopped",
// no response ever). So the build's own files never wait for this worker:
// static routes (Chromium's InstallEvent.addRoutes) have the browser answer
// them from this build's cache, or the network when the cache lacks them,
// with no fetch event. Only the snapshot keeps its fetch event (a copy is
// kept, passSnapshot); a browser without routes uses the fetch handler below.
self.addEventListener("install", (event) => {
  event.waitUntil(Promise.all([addRoutes(event), precache()]));
});

async function addRoutes(event) {
  if (typeof event.addRoutes !== "function") return;
  const literal = (text) => text.replace(/[\\:*?+(){}]/g, "\\$&"); // URLPattern's syntax
  const at = (pathname, more = {}) => ({
    urlPattern: { protocol: SCOPE.protocol.slice(0, -1), hostname: SCOPE.hostname, port: SCOPE.port, pathname, ...more },
  });
  const routes = [];
  if (SNAPSHOT) routes.push({ condition: at(literal(SCOPE.pathname + SNAPSHOT.path)), source: "fetch-event" });
  // Without a query: the cache holds every file at its plain address (and
  // index.html at the copy's own, ENTRY). A query is left to the handler.
  routes.push({ condition: at(literal(SCOPE.pathname) + "*", { search: "" }), source: { cacheName: CACHE } });
  try {
    await event.addRoutes(routes);
  } catch (err) {
    console.warn("gin: no static routes:", String(err && err.message ? err.message : err));
  }
}

// A cache an earlier build of this copy left: named for this copy's path,
// or named before names carried one ("gin-<version>", "gin-staging",
// "gin-snapshot-notes") and holding this copy's files. Another copy's caches
// are never touched.
async function earlierOfThisCopy(name) {
  if (!name.startsWith(PREFIX)) return false;
  if (name.endsWith(NAMES.at)) return true;
  if (name.includes("@")) return false;
  if (name === PREFIX + "staging" || name === PREFIX + "snapshot-notes") return true; // short-lived; at worst a snapshot fetched again
  return Boolean(await (await caches.open(name)).match(urlFor("index.html")));
}

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== CACHE && name !== NOTES_CACHE && (await earlierOfThisCopy(name))) await caches.delete(name);
      }
      // Notes on older builds' snapshots go; this build's stay (the engine
      // may have noted a failure before this worker activated).
      if (await caches.has(NOTES_CACHE)) {
        const notes = await caches.open(NOTES_CACHE);
        const mine = SNAPSHOT ? SNAPSHOT.path.slice(SNAPSHOT.path.lastIndexOf("/") + 1) : null;
        for (const request of await notes.keys()) {
          if (!request.url.endsWith(`/${mine}`)) await notes.delete(request);
        }
        if (!(await notes.keys()).length) await caches.delete(NOTES_CACHE);
      }
      // Only pages no worker controlled yet (a first visit) are claimed:
      // every page of the old build is gone by now.
      await self.clients.claim();
    })(),
  );
  // Not part of activation: fetch events wait while a worker activates.
  fetchSnapshot();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  let path = url.pathname.slice(SCOPE.pathname.length);
  if (request.mode === "navigate" && (path === "" || path === "index.html")) path = "index.html";
  // Each request while the background fetch runs keeps this worker alive
  // until it is done. (A visit with no good copy has its engine's worker
  // fetch the snapshot, below: no second download.)
  if (fetchingSnapshot) event.waitUntil(fetchingSnapshot);
  if (SNAPSHOT && path === SNAPSHOT.path) return passSnapshot(event);
  if (!(path in MANIFEST.files)) return; // not ours to answer: the network decides
  event.respondWith(
    (async () => {
      // matched by name, never opened: while a newer build's worker takes
      // over, this build's cache may be gone (then the network answers).
      let hit;
      try {
        hit = await caches.match(urlFor(path), { cacheName: CACHE });
      } catch {
        hit = undefined;
      }
      return hit || fetch(request);
    })(),
  );
});
