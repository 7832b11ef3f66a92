// The service worker of the site's root folder: with no connection, an address of a language
// never opened on this device (typed, or from a bookmark) gets the site's own offline page
// instead of the browser's error.
//
// The build writes this file as sw.js at the site's root, without its comments. Its scope is
// the whole site, but each language folder's own worker (offline/sw.js) answers for the
// folders saved on this device: this one answers only for the rest (a language not yet
// saved, the language chooser). It saves nothing itself. Online, every request goes to the
// network untouched. Offline, a page gets the offline page (offline.html) of a language that
// is saved here: the one the reader last read (offline.js notes it), else the first of the
// browser's languages that is saved, else any saved language. That page names the language
// asked for, from its address, and lists the languages ready; its styles and scripts come
// from the saved language's files.

const ROOT = self.registration.scope;
const SAVED = `rami:${ROOT}`;  // offline/sw.js: rami:<its scope>:<version>
const READING = `rami-reading:${ROOT}`;  // offline.js: the language folder last read

self.addEventListener("install", () => self.skipWaiting());

// The caches of the languages saved on this device: [the worker's scope, cache].
const savedCaches = async () => {
  const names = (await caches.keys()).filter(name => name.startsWith(SAVED));
  return Promise.all(names.map(async (name) =>
    [name.slice("rami:".length, name.lastIndexOf(":")), await caches.open(name)]));
};

// The saved languages' offline pages: folder name -> response.
const offlinePages = async () => {
  const pages = new Map();
  for (const [scope, cache] of await savedCaches()) {
    const page = await cache.match(new URL("offline.html", scope).href);
    if (page) pages.set(scope.slice(ROOT.length).replace(/\/$/, ""), page);
  }
  return pages;
};

const offlinePage = async () => {
  const pages = await offlinePages();
  const reading = await (await caches.open(READING)).match(ROOT);
  const last = reading && await reading.text();
  if (pages.has(last)) return pages.get(last);
  for (const tag of self.navigator.languages || []) {
    const wanted = tag.toLowerCase();
    for (const [name, page] of pages) {
      if (wanted === name || wanted.startsWith(`${name}-`)) return page;
    }
  }
  return pages.values().next().value || null;
};

// A file the offline page needs (the site's styles and scripts), from a saved language.
const savedFile = async (request) => {
  for (const [, cache] of await savedCaches()) {
    const hit = await cache.match(request, { ignoreSearch: true });
    if (hit) return hit;
  }
  return null;
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    try {
      return await fetch(request);  // online: the network, untouched
    } catch (error) {
      const saved = request.mode === "navigate" ? await offlinePage() : await savedFile(request);
      if (saved) return saved;
      throw error;
    }
  })());
});
