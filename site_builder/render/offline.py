"""Offline reading at the card table: each language folder's service worker
(``<lang>/sw.js``) and web app manifest (``<lang>/manifest.webmanifest``).

The worker's scope is its language folder, so a reader caches the languages they visit and
no other. It precaches the language's pages, search index and quick references, and the
shared assets (:func:`precached`); the practice table's runtime is cached only once a reader
starts the table, when it is fetched. Its cache is named after :func:`version`, the content
hash of what it precaches: a republished site installs beside the old cache and replaces it
in one step, and a build that changes nothing in a language leaves its worker as it was.

The site's root has a worker too (``sw.js``, :func:`site_worker`) that saves nothing: with no
connection, it answers an address of a language never opened on this device with the offline
page of a language that is saved, instead of the browser's error.

A preview (``site-builder serve``) answers every ``<lang>/sw.js`` with a worker that caches
nothing and removes an earlier one (:data:`PREVIEW_WORKER`): a translator never sees
an old page.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from site_builder.i18n.locales import text_direction
from site_builder.i18n.translator import N_
from site_builder.project import TEMPLATES_DIR
from site_builder.render.minify import script

ASSETS_DIR = "assets"  # the shared assets' folder (templates/assets, copied as it is)

WORKER = "sw.js"
SITE_WORKER = "site-sw.js"  # templates/offline/: written as the root's sw.js
MANIFEST = "manifest.webmanifest"
#: The language's page for what it cannot show offline (templates/offline.html): a page not
#: saved, or a language not yet saved on this device; precached with the language's pages.
PAGE = "offline.html"
ICONS = ((192, f"{ASSETS_DIR}/icons/icon-192.png"), (512, f"{ASSETS_DIR}/icons/icon-512.png"))
# The same card on a wider margin of its blue, for a launcher that cuts the icon to its own
# shape (a circle, a squircle): the card stays inside the middle 80% that every shape keeps.
MASKABLE_ICONS = ((192, f"{ASSETS_DIR}/icons/icon-maskable-192.png"),
                  (512, f"{ASSETS_DIR}/icons/icon-maskable-512.png"))
# Translators: the installed app's name under its icon on a phone, at most 12 characters.
# Name the language, so that the rules installed in two languages are told apart.
SHORT_NAME = N_("Rami")
# Translators: what the installed app is, shown when a reader installs it.
DESCRIPTION = N_("The rules of Rami 40 and Rami 51 at the card table, with a score sheet, "
                 "ready to read offline.")
# Colours of the installed app's title bar and splash screen: site.css's --accent and --bg.
THEME_COLOR = "#0b5cad"
BACKGROUND_COLOR = "#fdfcf8"
# The practice table's runtime (Python in WebAssembly, about 10 MB): cached when a reader starts
# the table, not before. The packed engine (under 100 KB) is precached with the assets.
RUNTIME_PARTS = ("assets/pyodide/",)  # site_builder/render/play.py: runtime_path


def precached(lang: str, files: Iterable[str]) -> list[str]:
    """The output files that *lang*'s worker precaches: its folder and the shared assets,
    without its own worker and without the practice table's runtime.

    >>> precached("pl", ["pl/index.html", "pl/sw.js", "vi/index.html", "assets/site.css",
    ...                  "assets/pyodide/pyodide.asm.wasm", "index.html", ".site-builder"])
    ['assets/site.css', 'pl/index.html']
    """
    return sorted(rel for rel in files
                  if (rel.startswith(f"{lang}/") and rel != f"{lang}/{WORKER}"
                      or rel.startswith(f"{ASSETS_DIR}/"))
                  and not any(part in rel for part in RUNTIME_PARTS))


def version(out: Path, files: list[str]) -> str:
    """The content hash of *files* (paths under *out*): the name of their cache."""
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode() + b"\0" + (out / rel).read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def worker(root: Path, lang: str, out: Path, files: list[str]) -> bytes:
    """*lang*'s service worker: the file list and its version above the worker's code,
    served as the site's other scripts are (:func:`~site_builder.render.minify.script`:
    the template's comments are for its readers, not the site's).

    The list's paths are relative to the worker (``<lang>/``); a page is listed as its
    folder's ``index.html``, the address the pages link to."""
    listed = [rel[len(lang) + 1:] if rel.startswith(f"{lang}/") else f"../{rel}"
              for rel in files]
    code = script((root / TEMPLATES_DIR / "offline" / WORKER).read_bytes())
    head = (f"const VERSION = {json.dumps(version(out, files))};\n"
            f"const FILES = {json.dumps(listed, ensure_ascii=False, indent=0)};\n")
    return head.encode("utf-8") + code


def site_worker(root: Path) -> bytes:
    """The site root's worker, served as the site's other scripts are."""
    return script((root / TEMPLATES_DIR / "offline" / SITE_WORKER).read_bytes())


def manifest(lang: str, name: str, short_name: str, description: str) -> bytes:
    """*lang*'s web app manifest: the site's name, short name and description in that
    language, its start page (the language's home) and icons, each also as a maskable one.
    Relative addresses: any base path.

    >>> data = json.loads(manifest("pl", "Zasady gry Rami", "Zasady Rami", "Zasady."))
    >>> data["start_url"], data["short_name"], [i["purpose"] for i in data["icons"]]
    ('./index.html', 'Zasady Rami', ['any', 'any', 'maskable', 'maskable'])
    """
    data: dict[str, Any] = {
        "name": name, "short_name": short_name, "description": description,
        "lang": lang, "dir": text_direction(lang),
        "start_url": "./index.html", "scope": "./", "id": "./",
        "display": "standalone", "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [{"src": f"../{src}", "sizes": f"{size}x{size}", "type": "image/png",
                   "purpose": purpose}
                  for icons, purpose in ((ICONS, "any"), (MASKABLE_ICONS, "maskable"))
                  for size, src in icons],
    }
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def manifests(languages: Iterable[str], words: dict[str, tuple[str, str, str]]
              ) -> dict[str, bytes]:
    """Each language's manifest, by output path; *words*: the site's name, short name and
    description in each."""
    return {f"{lang}/{MANIFEST}": manifest(lang, *words[lang]) for lang in languages}


def workers(root: Path, out: Path, languages: Iterable[str], files: Iterable[str]
            ) -> dict[str, bytes]:
    """Each language's worker, by output path, from the files already in *out* (its
    pages, search index, manifest and the assets)."""
    files = list(files)
    return {f"{lang}/{WORKER}": worker(root, lang, out, precached(lang, files))
            for lang in languages}


def offline_files(job: Any, out: Path, files: Iterable[str]) -> dict[str, tuple[int, int]]:
    """Write each language's manifest, then its worker and the root's, into *out* (a
    :class:`~site_builder.render.pages.Job`'s staging folder): the files written."""
    site = job.site
    words = {lang: tuple(job.translator(lang).gettext(text)
                         for text in ("Rami rules", SHORT_NAME, DESCRIPTION))
             for lang in site.languages}
    written = {rel: job.write(rel, data)
               for rel, data in manifests(site.languages, words).items()}
    made = workers(site.root, out, site.languages, [*files, *written])
    made[WORKER] = site_worker(site.root)
    written.update((rel, job.write(rel, data)) for rel, data in made.items())
    return written


PREVIEW_WORKER = """\
// The service worker of a preview (`site-builder serve` answers it for every <lang>/sw.js):
// a translator's preview must never show an old page, so it caches nothing. It replaces a
// worker that a build served earlier at this address registered, removes that worker's
// caches and unregisters itself; the pages that the old worker held are reloaded from the
// preview, once.

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const prefix = `rami:${self.registration.scope}:`;
    let removed = false;
    for (const name of await caches.keys()) {
      if (name.startsWith(prefix)) removed = (await caches.delete(name)) || removed;
    }
    await self.registration.unregister();
    if (!removed) return;
    for (const client of await self.clients.matchAll({ type: "window" })) {
      client.navigate(client.url);
    }
  })());
});
"""
