"""How far a reader on a phone scrolls and taps: two built sites side by side.

Serves each site (a ``site-builder build --out`` folder) on 127.0.0.1 and measures, in
Debian's Chromium at 360x800 and at 200 % text:

* for every rule page in every language, the header's height and where the page's own
  text starts (its first paragraph or list item after the title, leaving out the ways
  around the page and the examples);
* the UX review's stopwatch tasks (``docs/ux-review`` in the closing note), as taps and
  as the distance scrolled before the answer is on screen.

    .venv/bin/site-builder build --out /tmp/after
    git worktree add /tmp/old 4810d1b && (cd /tmp/old && PYTHONPATH=. ../main/.venv/bin/python \\
        -m site_builder build --out /tmp/before)
    .venv/bin/python benchmarks/reading.py /tmp/before /tmp/after

The tasks locate their answers by the page's structure (a section's id, the first step
of a list), the same in every language; a site that has no such element says so.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
PHONE = {"width": 360, "height": 800}
LANGS = ("en", "id", "ms", "pl", "vi")
RULE_PAGES = ("at-a-glance", "setup", "melds", "turn", "first-meld", "joker-exchange",
              "scoring", "whole-round", "variations", "variations-discard",
              "variations-going-out", "cardverse", "glossary", "sources")

FIRST_TEXT = """() => {
    const skip = '.breadcrumbs, .toc, .sheet-link, .notice, .example, .checker';
    const first = [...document.querySelectorAll('main p, main li')]
        .find(e => !e.closest(skip) && e.textContent.trim());
    return first ? first.getBoundingClientRect().top + scrollY : null;
}"""
HEADER = "document.querySelector('header').getBoundingClientRect().height"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base's name)
        pass

    def handle(self) -> None:
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):  # the browser left for another page
            pass


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()


def _page(browser: Browser, scale: int = 1) -> Page:
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    if scale != 1:  # text at 200 %: the default font size doubled, as a reader sets it
        cdp = context.new_cdp_session(page)
        cdp.send("Page.enable")
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 16 * scale,
                                                      "fixed": 13 * scale}})
    return page


def first_screens(browser: Browser, base: str,
                  langs: tuple[str, ...] = LANGS) -> dict[str, list[float]]:
    """Per measure, the values over every rule page of every language of *langs*."""
    out: dict[str, list[float]] = {"header": [], "text": [], "header200": [], "text200": []}
    for scale, suffix in ((1, ""), (2, "200")):
        page = _page(browser, scale)
        for lang in langs:
            for slug in RULE_PAGES:
                page.goto(f"{base}{lang}/{slug}/")
                out["header" + suffix].append(page.evaluate(HEADER))
                top = page.evaluate(FIRST_TEXT)
                if top is not None:
                    out["text" + suffix].append(top)
        page.context.close()
    return out


def _below_fold(page: Page, selector: str) -> float | None:
    """How far the reader scrolls before the element's first line is on screen."""
    box = page.evaluate(f"""() => {{ const e = document.querySelector({selector!r});
        return e ? e.getBoundingClientRect().top + scrollY : null; }}""")
    if box is None:
        return None
    return max(0.0, box + 40 - PHONE["height"])  # its first line, about 40 px, in view


def tasks(browser: Browser, base: str, lang: str) -> list[tuple[str, str, Any]]:
    page = _page(browser)
    rows: list[tuple[str, str, Any]] = []
    # 1. Where does the turn say when you may take the top discard? The step list comes
    # first; the condition is in its first step, or in the section below the trace.
    page.goto(f"{base}{lang}/turn/")
    cond = page.evaluate("""() => {
        const first = document.querySelector('#your-turn-step-by-step ~ ol li');
        return first && first.querySelector('a[href*="glossary"]') && first.textContent.length > 90;
    }""")
    where = "#your-turn-step-by-step ~ ol li" if cond else "#taking-the-discard ~ p"
    rows.append(("discard condition on Turn: scroll (px)", lang, _below_fold(page, where)))
    # 2. The quick reference: taps from a rule page, and scrolling to its link
    link = page.evaluate("""() => { const a = [...document.querySelectorAll('a')]
        .find(a => a.href.includes('quick-reference/rami') && a.getClientRects().length);
        return a ? a.getBoundingClientRect().top + scrollY : null; }""")
    if link is not None:
        rows.append(("quick reference from a rule page: taps, scroll (px)", lang,
                     (1, max(0.0, link + 40 - PHONE["height"]))))
    else:
        page.goto(f"{base}{lang}/")
        home = _below_fold(page, 'a[href*="quick-reference/rami"]')
        rows.append(("quick reference from a rule page: taps, scroll (px)", lang,
                     (2, home)))  # to the home page, then its link at the bottom
    # 3. Switching language in the middle of a page
    page.goto(f"{base}{lang}/turn/#laying-off")
    page.wait_for_timeout(100)
    sticky = page.evaluate("document.querySelector('header').getBoundingClientRect().bottom > 0")
    scrolled = 0 if sticky else page.evaluate("scrollY")
    other = "vi" if lang != "vi" else "pl"
    menu = page.locator(".lang-menu summary")
    taps = 1
    if menu.count():
        menu.click()
        taps = 2
    else:
        page.evaluate("scrollTo(0, 0)")
    with page.expect_navigation():
        page.click(f'nav.languages a[hreflang="{other}"]')
    page.wait_for_timeout(100)
    kept = page.url.endswith("#laying-off") and page.evaluate("scrollY") > 0
    rows.append(("switch language mid-page: taps, scroll up (px), section kept", lang,
                 (taps, scrolled, kept)))
    # 4. Search: does the first result open its section?
    page.goto(f"{base}{lang}/first-meld/")
    button = page.locator(".search-open")
    if button.count():
        button.click()
    query = {"pl": "sekwens", "vi": "sanh"}.get(lang, "sequence")
    page.fill("#q", query)
    page.wait_for_function("() => document.querySelectorAll('.search ol li a').length > 0")
    page.wait_for_timeout(300)
    href = page.eval_on_selector(".search ol li a", "a => a.href")
    rows.append((f"search {query!r}: first result opens a section", lang, "#" in href))
    page.context.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sites", nargs="+", type=Path, help="built site folders, side by side")
    parser.add_argument("--langs", default=",".join(LANGS),
                        help="languages measured (default: all); the tasks run in pl and vi "
                             "when they are among them, else in the first")
    args = parser.parse_args(argv)
    langs = tuple(args.langs.split(","))
    task_langs = [lang for lang in ("pl", "vi") if lang in langs] or [langs[0]]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for site in args.sites:
            with serving(site) as base:
                screens = first_screens(browser, base, langs)
                print(f"## {site}")
                for key, values in screens.items():
                    median = statistics.median(values)
                    print(f"{key:10} min {min(values):7.0f}  median {median:7.0f}"
                          f"  max {max(values):7.0f}  (n={len(values)})")
                limit = {"text": PHONE["height"], "text200": 2 * PHONE["height"]}
                for key, bound in limit.items():
                    inside = sum(v + 40 <= bound for v in screens[key])
                    print(f"{key}: {inside} of {len(screens[key])} pages show their text "
                          f"{'on the first screen' if key == 'text' else 'within two screens'}")
                for lang in task_langs:
                    for name, lang_, value in tasks(browser, base, lang):
                        print(f"{lang_}  {name}: {value}")
                print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
