// The service worker (served as /sw.js, scope /: docs/offline.md). It caches the client and the offline engine
// (Pyodide from this server's /pyodide/, taash's bundle of pure modules) when installed, so that the app opens and
// plays against bots with no network. Pages and the client's files: the network first, the cache when offline (a
// person online always gets the server's latest). Pyodide and the bundle: the cache first (they are large, and
// the cache's name changes with the bundle's version). Nothing else is cached (the API's answers are the
// server's own, never stale copies), except the games' list the table's page reads to load their views.

const VERSION = "__BUNDLE__";
const CACHE = `taash-${VERSION}`;
const FILES = __FILES__;
const CACHE_FIRST = /^\/(pyodide\/|offline\/engine\.zip)/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith("taash-") && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

/** The network's answer (kept in the cache when it is one of the files cached), else the cache's. */
async function networkFirst(request, path) {
  try {
    const response = await fetch(request);
    if (response.ok && FILES.includes(path)) {
      const cache = await caches.open(CACHE);
      await cache.put(path, response.clone());
    }
    return response;
  } catch (e) {
    const cached = await caches.match(path, { ignoreSearch: true });
    if (cached) return cached;
    throw e;
  }
}

async function cacheFirst(request, path) {
  const cached = await caches.match(path, { ignoreSearch: true });
  return cached || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  const path = url.pathname;
  if (CACHE_FIRST.test(path)) event.respondWith(cacheFirst(event.request, path));
  else if (FILES.includes(path)) event.respondWith(networkFirst(event.request, path));
});
