"""Offline reading: what a language's service worker costs and gives.

For a built site (``site-builder build --out DIR``), served on 127.0.0.1 and read in
Debian's Chromium at 360x800, for each language:

* the bytes it precaches (its pages, search index, quick references and the shared assets,
  as its ``sw.js`` lists them), and how many files;
* the time to install: from the start of the first visit to the page being controlled by
  the worker, with every file cached;
* the first offline page view: with the connection off, a reload of the home page and a
  visit to another page, to their ``load`` event.

Medians of ``--runs`` fresh browser contexts (a first visit each time)::

    .venv/bin/site-builder build --out /tmp/site
    .venv/bin/python benchmarks/offline.py /tmp/site --runs 5

``--smoke`` runs one language once (the test suite's check that this script runs).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright
from reading import CHROMIUM, FLAGS, PHONE, serving  # benchmarks/reading.py, beside this

LANGS = ("en", "id", "ms", "pl", "vi")


def precached(site: Path, lang: str) -> tuple[int, int]:
    """The files *lang*'s worker lists, and their bytes."""
    worker = (site / lang / "sw.js").read_text(encoding="utf-8")
    match = re.search(r"const FILES = (\[.*?\]);", worker, re.S)
    assert match, f"{lang}/sw.js lists no FILES"
    files = json.loads(match[1])
    return len(files), sum((site / lang / f).resolve().stat().st_size for f in files)


def one_run(browser: Browser, url: str, lang: str) -> tuple[float, float]:
    """One first visit: seconds to install, and to the first offline page view."""
    context = browser.new_context(viewport=PHONE, service_workers="allow")
    page = context.new_page()
    try:
        start = time.perf_counter()
        page.goto(f"{url}{lang}/index.html")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                               timeout=60_000)
        installed = time.perf_counter() - start
        context.set_offline(True)
        start = time.perf_counter()
        page.reload(wait_until="load")
        page.goto(f"{url}{lang}/turn/index.html", wait_until="load")
        offline = time.perf_counter() - start
        return installed, offline
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="a built site (site-builder build --out)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="one language, once")
    args = parser.parse_args()
    langs = LANGS[3:4] if args.smoke else LANGS
    runs = 1 if args.smoke else args.runs
    print("| language | files | precached | install (median) | first offline view (median) |")
    print("|---|---:|---:|---:|---:|")
    with serving(args.site) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            for lang in langs:
                count, size = precached(args.site, lang)
                times = [one_run(browser, url, lang) for _ in range(runs)]
                install = statistics.median(t[0] for t in times)
                offline = statistics.median(t[1] for t in times)
                print(f"| {lang} | {count} | {size / 1024:.0f} KiB | {install:.2f} s "
                      f"| {offline * 1000:.0f} ms |")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
