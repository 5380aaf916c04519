// Offline: precache every file of the build, then answer from the cache first.
// build.py replaces the token below with {version, files: {path: integrity}},
// so every new build is a new script: the browser installs it, it fills a new
// cache (reusing unchanged files from the old one) and deletes the old cache.
const MANIFEST = self.__GIN_MANIFEST;
const PREFIX = "gin-";
const CACHE = PREFIX + MANIFEST.version;
const SCOPE = new URL(self.registration.scope);

const urlFor = (path) => new URL(path, SCOPE).href;

// A file whose bytes are unchanged since an earlier build is copied from that
// build's cache (same integrity) instead of being downloaded again.
async function fromOldCaches(path, integrity) {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const cache = await caches.open(name);
    const response = await cache.match(urlFor(path));
    if (response && response.headers.get("x-gin-integrity") === integrity) return response;
  }
  return null;
}

async function precache() {
  const cache = await caches.open(CACHE);
  await Promise.all(
    Object.entries(MANIFEST.files).map(async ([path, integrity]) => {
      const url = urlFor(path);
      if (await cache.match(url)) return;
      let response = await fromOldCaches(path, integrity);
      if (!response) {
        // integrity makes the browser check the bytes against the manifest.
        const fetched = await fetch(url, { integrity, cache: "no-cache" });
        if (!fetched.ok) throw new Error(`precache ${path}: HTTP ${fetched.status}`);
        const headers = new Headers(fetched.headers);
        headers.set("x-gin-integrity", integrity);
        response = new Response(await fetched.arrayBuffer(), {
          status: fetched.status,
          statusText: fetched.statusText,
          headers,
        });
      }
      await cache.put(url, response);
    }),
  );
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  let path = url.pathname.slice(SCOPE.pathname.length);
  if (request.mode === "navigate" && (path === "" || path === "index.html")) path = "index.html";
  if (!(path in MANIFEST.files)) return; // not ours to answer: the network decides
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const hit = await cache.match(urlFor(path));
      return hit || fetch(request);
    })(),
  );
});
