// Offline: precache every file of the build, then answer from the cache first.
// build.py replaces the token below with {version, files: {path: integrity},
// snapshot: {path, integrity, raw_integrity}}, so every new build is a new
// script: the browser installs it, it fills a new cache (reusing unchanged
// files from the old one), and once no page uses the old build it activates
// and deletes the old cache.
//
// The memory snapshot (see worker.js) is not part of the install: it is
// fetched in the background once this build is active, so neither a first
// visit nor going offline waits for it, and it is tried again on a later
// navigation if that failed. The worker reads it from Cache Storage itself.
const MANIFEST = self.__GIN_MANIFEST;
const PREFIX = "gin-";
const CACHE = PREFIX + MANIFEST.version;
const STAGING = PREFIX + "staging"; // what the page's worker fetched before this script ran
const SCOPE = new URL(self.registration.scope);
const SNAPSHOT = MANIFEST.snapshot || null;

const urlFor = (path) => new URL(path, SCOPE).href;

async function integrityOf(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return "sha256-" + btoa(binary);
}

// A response to keep: the checked bytes, their integrity, and the headers that
// still describe them (the body is already decoded, so no Content-Encoding).
function keep(bytes, integrity, headers) {
  const kept = new Headers(headers);
  kept.delete("content-encoding");
  kept.delete("content-length");
  kept.set("x-gin-integrity", integrity);
  return new Response(bytes, { status: 200, headers: kept });
}

// A file whose bytes are unchanged since an earlier build is copied from that
// build's cache (same integrity), and one the page has just fetched from the
// staging cache (checked here), instead of being downloaded again.
async function reuse(path, integrity) {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const cache = await caches.open(name);
    const response = await cache.match(urlFor(path));
    if (!response) continue;
    if (response.headers.get("x-gin-integrity") === integrity) return response;
    if (name === STAGING) {
      const bytes = await response.arrayBuffer();
      if ((await integrityOf(bytes)) === integrity) return keep(bytes, integrity, response.headers);
    }
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
  if (SNAPSHOT) {
    const old = await reuse(SNAPSHOT.path, SNAPSHOT.integrity);
    if (old) await cache.put(urlFor(SNAPSHOT.path), old);
  }
}

// The snapshot, checked before it is kept: gzip as built, or decoded if the
// host sent it with Content-Encoding.
let fetchingSnapshot = null;
function fetchSnapshot() {
  if (!SNAPSHOT) return Promise.resolve();
  fetchingSnapshot ||= (async () => {
    // A worker a newer build has replaced keeps running for the pages it
    // still serves: it must not bring back the cache the new one deleted.
    if (!(await caches.has(CACHE))) return;
    const cache = await caches.open(CACHE);
    const url = urlFor(SNAPSHOT.path);
    if (await cache.match(url)) return;
    const fetched = await fetch(url, { cache: "no-cache" });
    if (!fetched.ok) throw new Error(`HTTP ${fetched.status}`);
    const bytes = await fetched.arrayBuffer();
    const head = new Uint8Array(bytes, 0, Math.min(2, bytes.byteLength));
    const want = head[0] === 0x1f && head[1] === 0x8b ? SNAPSHOT.integrity : SNAPSHOT.raw_integrity;
    const got = await integrityOf(bytes);
    if (got !== want) throw new Error(`${SNAPSHOT.path} has ${got}, the build says ${want}`);
    await cache.put(url, keep(bytes, got, { "content-type": "application/octet-stream" }));
  })().catch((err) => {
    console.warn("gin: snapshot not cached:", String(err && err.message ? err.message : err));
  }).finally(() => {
    fetchingSnapshot = null;
  });
  return fetchingSnapshot;
}

// No skipWaiting(): a new build waits until no page uses the old one (every
// tab of the game closed or gone elsewhere), then activates. Activating it
// over a page that is still loading lets Chromium stop the old worker while
// it holds a fetch event it has begun (a reload's navigation, a script): that
// request is never answered and the page never starts. Waiting also keeps a
// page on one build: it is never handed to the new worker half-loaded.
self.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
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
  // Started again on a navigation if an earlier try failed; each request
  // while it runs keeps this worker alive until it is done.
  if (request.mode === "navigate" && SNAPSHOT) fetchSnapshot();
  if (fetchingSnapshot) event.waitUntil(fetchingSnapshot);
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
