// Offline reading: registers the language folder's service worker (<lang>/sw.js,
// next to the manifest the page links), and tells the reader when a newer version of the
// rules is ready. Nothing happens from disk (file://) or where service workers are
// unavailable or blocked: the site then works online as before.
//
// Which languages are ready offline: those whose worker has saved its pages on this device
// (a cache "rami:<folder>:<version>" holding the folder's index.html, all or nothing).
// - The language menu marks each of them ("ready offline").
// - With no connection, a link to a language not saved opens this language's offline page
//   (offline.html, which names the language asked for) instead of the browser's error.
// - An address of such a language typed or bookmarked is answered by the site root's worker
//   (offline/site-sw.js, registered here too) with the offline page of the language last
//   read: this script notes that language on every page.
// - The offline page lists the languages ready, each linked to its home page.

import { el } from "./lib/elements.js";
import { fill } from "./lib/text.js";
import { siteWords } from "./lib/words.js";

const manifest = document.querySelector('link[rel="manifest"]');
const notice = document.querySelector(".update-ready");
const languageMenu = document.querySelector("nav.languages");

// *worker* waits behind *registration*'s active one: a newer build. (A first install has no
// active worker: no notice. The page's controller says nothing here: it may be the site
// root's worker.)
const offerUpdate = async (registration, worker) => {
  if (!notice || !registration.active) return;
  const words = await siteWords();
  const show = el("button", { type: "button" }, words.show);
  show.addEventListener("click", () => { worker.postMessage("activate"); }, { once: true });
  notice.replaceChildren(el("p", {}, words.newer, " ", show));
  notice.hidden = false;
};

const watch = (registration) => {
  if (registration.waiting) offerUpdate(registration, registration.waiting).catch(() => {});
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    if (!worker) return;
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed") offerUpdate(registration, worker).catch(() => {});
    });
  });
};

const register = async () => {
  try {
    watch(await navigator.serviceWorker.register(new URL("sw.js", folder)));  // the folder's
    await navigator.serviceWorker.register(new URL("sw.js", root));  // the rest of the site
  } catch {
    // A worker that cannot install (storage full, blocked by the browser): online as before.
  }
};

const folder = manifest && new URL(".", manifest.href);  // this language's folder
const root = folder && new URL("..", folder);
// The language folder of *url* on this site, or null.
const folderOf = (url) => {
  if (!root || url.origin !== root.origin || !url.href.startsWith(root.href)) return null;
  const name = url.href.slice(root.href.length).split(/[/?#]/)[0];
  return name && url.href.length > root.href.length + name.length ? name : null;
};
const here = folder && folderOf(folder);  // this language's folder name ("pl")
const CACHE_PREFIX = "rami:";  // offline/sw.js: rami:<the worker's scope>:<version>
const READING = "rami-reading:";  // offline/site-sw.js: rami-reading:<the site's root>

// The language being read, for the site root's worker (a page typed while offline).
const noteReading = async () => {
  const cache = await caches.open(READING + root.href);
  await cache.put(root.href, new Response(here));
};

// The language folders saved whole on this device.
const readyFolders = async () => {
  const ready = new Set();
  for (const name of await caches.keys()) {
    if (!name.startsWith(CACHE_PREFIX + root.href)) continue;
    const scope = name.slice(CACHE_PREFIX.length, name.lastIndexOf(":"));
    const cache = await caches.open(name);
    if (await cache.match(new URL("index.html", scope).href)) ready.add(folderOf(new URL(scope)));
  }
  return ready;
};

// The language links of the header: [folder, link].
const languageLinks = () => (languageMenu ? [...languageMenu.querySelectorAll("a[hreflang]")] : [])
  .map(a => [folderOf(new URL(a.href)), a]).filter(([name]) => name);

const showReady = async (ready) => {
  const list = document.querySelector(".offline-ready");
  if (list) {  // the offline page: the languages ready, and the one asked for
    const items = languageLinks().filter(([name]) => ready.has(name)).map(([name, a]) =>
      el("li", {}, el("a", { href: new URL(`${name}/index.html`, root).href,
        lang: a.getAttribute("lang") || name }, a.firstChild.textContent)));
    list.replaceChildren(...(items.length ? items : [el("li", {}, list.dataset.none)]));
    // asked by a link (?lang=), or by an address of that language (the root's worker)
    const there = folderOf(new URL(location.href));
    const asked = new URLSearchParams(location.search).get("lang")
      || (there !== here ? there : null);
    const link = languageLinks().find(([name]) => name === asked);
    const said = document.querySelector(".offline-asked");
    if (link && said) {
      said.textContent = fill(said.dataset.text, { language: link[1].firstChild.textContent });
      said.hidden = false;
    }
  }
  // the language menu's marks, in the page's words (fetched: none if they cannot be)
  const words = ready.size ? await siteWords().catch(() => ({})) : {};
  for (const [name, a] of languageLinks()) {
    a.querySelector(".offline-mark")?.remove();
    if (ready.has(name) && words.ready) a.append(el("span", { class: "offline-mark" }, words.ready));
  }
};

const offerOffline = async () => {
  let ready = await readyFolders();
  await showReady(ready);
  // a language not saved, with no connection: our offline page, not the browser's error
  document.addEventListener("click", (event) => {
    const a = event.target.closest && event.target.closest("a[href]");
    if (!a || navigator.onLine || event.defaultPrevented) return;
    const name = folderOf(new URL(a.href, location.href));
    if (!name || name === here || ready.has(name)) return;
    event.preventDefault();
    const page = new URL("offline.html", folder);
    page.searchParams.set("lang", name);
    location.assign(page.href);
  });
  // a worker that finishes saving while the page is open
  navigator.serviceWorker.addEventListener("controllerchange", async () => {
    ready = await readyFolders();
    await showReady(ready);
  });
};

if (manifest && "serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading || !notice || notice.hidden) return;
    reloading = true;
    location.reload();
  });
  register();
  if ("caches" in self) {  // storage blocked: nothing to show
    noteReading().catch(() => {});
    offerOffline().catch(() => {});
  }
}
