// Offline reading: registers the language folder's service worker (<lang>/sw.js,
// next to the manifest the page links), and tells the reader when a newer version of the
// rules is ready. Nothing happens from disk (file://) or where service workers are
// unavailable or blocked: the site then works online as before.

const manifest = document.querySelector('link[rel="manifest"]');
const notice = document.querySelector(".update-ready");

const offerUpdate = (worker) => {
  if (!notice || !navigator.serviceWorker.controller) return;  // a first install: no notice
  notice.hidden = false;
  notice.querySelector("button").addEventListener("click", () => {
    worker.postMessage("activate");
  }, { once: true });
};

const watch = (registration) => {
  if (registration.waiting) offerUpdate(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    if (!worker) return;
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed") offerUpdate(worker);
    });
  });
};

const register = async () => {
  const url = new URL("sw.js", manifest.href);
  try {
    watch(await navigator.serviceWorker.register(url));  // its scope: the language folder
  } catch {
    // A worker that cannot install (storage full, blocked by the browser): online as before.
  }
};

if (manifest && "serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading || !notice || notice.hidden) return;
    reloading = true;
    location.reload();
  });
  register();
}
