// The service worker of one language folder: the rules offline, at the card table.
//
// The build writes this file as <lang>/sw.js, without its comments (as the site's other
// scripts), after two lines that it adds above it: VERSION, the content hash of every file
// below, and FILES, the language's pages, its search index, its quick references and the
// shared assets, as paths relative to this file. Its scope is the language folder, so a
// reader caches only the languages they visit.
//
// - install: every file of FILES into one cache named after VERSION, all or nothing (a failed
//   install keeps the last good cache and worker);
// - activate: the caches of older builds of this folder are removed;
// - fetch: the cache of this build first, so that a page never mixes two builds; anything
//   else (another language's page, the practice table's runtime) from the network, kept in
//   the same cache for the next time offline; a page neither saved nor reachable gets the
//   language's own offline page (offline.html, in the language, with the languages ready);
// - a new build waits until the reader accepts it (the page shows "a newer version is
//   ready"); the message "activate" lets it take over, and the page reloads.

const PREFIX = `rami:${self.registration.scope}:`;
const CACHE = PREFIX + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FILES.map((file) => new Request(file, { cache: "reload" })));
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "activate") self.skipWaiting();
});

// A folder's address is its index.html, as the pages link it from disk.
const cacheKey = (request) => {
  const url = new URL(request.url);
  url.hash = "";
  url.search = "";
  if (url.pathname.endsWith("/")) url.pathname += "index.html";
  return url.href;
};

const fromNetwork = async (request, cache) => {
  const response = await fetch(request);
  const url = new URL(request.url);
  if (response.ok && url.origin === self.location.origin && !url.pathname.endsWith("/sw.js")) {
    await cache.put(cacheKey(request), response.clone());
  }
  return response;
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(cacheKey(request));
    if (hit) return hit;
    try {
      return await fromNetwork(request, cache);
    } catch (error) {
      // a page not saved, with no connection: the language's own offline page
      const page = request.mode === "navigate"
        && await cache.match(new URL("offline.html", self.registration.scope).href);
      if (page) return page;
      throw error;
    }
  })());
});
