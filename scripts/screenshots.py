"""Screenshots of the reading on a phone and a desktop, for review and the
closing note.

Takes a site already built (``site-builder build --out DIST``; this script builds nothing),
serves it on 127.0.0.1 with Python's http.server, and saves PNGs at phone (360x800) and
desktop (1280 or 1440 px) size, in Polish and Vietnamese, to ``docs/screenshots/``: a rule
page's first screen (also at 200 % text), the page and language menus, the sidebar and the
contents beside the text, search results that open a section, a caution and a folded trace,
the quick-reference sheet on screen and printed, the checker, and the 404 pages; and the
"you are here" bar, a term's definition shown in place, and a search for a word
typed without its diacritics, on a phone.

    .venv/bin/site-builder build --out /tmp/dist
    .venv/bin/python scripts/screenshots.py /tmp/dist            # -> docs/screenshots/*.png
    .venv/bin/python scripts/screenshots.py /tmp/dist --only here tooltip search-folded

Chromium is Debian's (/usr/bin/chromium), with the flags of tests/e2e/conftest.py.
"""

from __future__ import annotations

import argparse
import functools
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
PHONE = {"width": 360, "height": 800}
DESKTOP = {"width": 1280, "height": 900}
WIDE = {"width": 1440, "height": 900}  # wide enough for the contents beside the text


class _Handler(SimpleHTTPRequestHandler):
    """Static files; a missing path gets the nearest 404.html above it, with status 404
    (as hosts with per-folder 404 pages do), so /pl/no-such-page/ shows the Polish 404."""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (stdlib signature)
        pass

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        folder = Path(self.translate_path(self.path))
        site = Path(self.directory)
        while code == 404 and self.command == "GET" and site in (folder, *folder.parents):
            if (folder / "404.html").is_file():
                body = (folder / "404.html").read_bytes()
                self.send_response(404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            folder = folder.parent
        super().send_error(code, message, explain)


@contextmanager
def serve(dist: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(_Handler, directory=str(dist)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class Shooter:
    def __init__(self, browser: Browser, base_url: str, out: Path,
                 only: list[str] | None = None) -> None:
        self.browser, self.base_url, self.out = browser, base_url, out
        self.saved: list[Path] = []
        self.only = only  # the names to take, by their start (None: all)

    def shot(self, name: str, viewport: dict[str, int], path: str,
             take: Callable[[Page, Path], None], font_size: int | None = None) -> None:
        if self.only and not any(name.startswith(o) for o in self.only):
            return
        context = self.browser.new_context(base_url=self.base_url, viewport=viewport)
        try:
            page = context.new_page()
            if font_size:  # the browser's text size, as Android's font scaling sets it
                cdp = context.new_cdp_session(page)
                cdp.send("Page.enable")
                cdp.send("Page.setFontSizes",
                         {"fontSizes": {"standard": font_size, "fixed": font_size * 13 // 16}})
            page.goto(path)
            page.wait_for_load_state("networkidle")
            file = self.out / f"{name}.png"
            take(page, file)
            self.saved.append(file)
        finally:
            context.close()


def element(selector: str, before: Callable[[Page], None] | None = None,
            ) -> Callable[[Page, Path], None]:
    """Screenshot of one element (after ``before``, e.g. a hover or a query)."""
    def take(page: Page, file: Path) -> None:
        if before:
            before(page)
        page.locator(selector).first.screenshot(path=str(file), animations="disabled")
    return take


def viewport(before: Callable[[Page], None] | None = None) -> Callable[[Page, Path], None]:
    """Screenshot of what the screen shows (not the full page)."""
    def take(page: Page, file: Path) -> None:
        if before:
            before(page)
        page.screenshot(path=str(file), animations="disabled")
    return take


def column(until: str | None = None, before: Callable[[Page], None] | None = None,
           ) -> Callable[[Page, Path], None]:
    """The page's text column (no empty margins on a desktop), from the top of the page down
    to the end of ``until``, or one screen's height."""
    def take(page: Page, file: Path) -> None:
        if before:
            before(page)
        box = page.evaluate("""until => {
            const main = document.querySelector('main').getBoundingClientRect();
            const end = until ? document.querySelector(until).getBoundingClientRect().bottom
                                + scrollY + 8 : innerHeight;
            const x = Math.max(0, main.left - 8);
            return {x: x, y: 0, width: Math.min(innerWidth - x, main.width + 16), height: end};
        }""", until)
        page.screenshot(path=str(file), clip=box, full_page=True, animations="disabled")
    return take


def search_for(query: str) -> Callable[[Page], None]:
    def before(page: Page) -> None:
        page.click(".search-open")
        page.locator(".search input").fill(query)
        page.locator(".search ol li a").first.wait_for()
    return before


def hover_heading(page: Page) -> None:
    page.locator("main h2 > a").nth(1).hover()


def scroll_to(selector: str) -> Callable[[Page], None]:
    def before(page: Page) -> None:
        page.locator(selector).first.evaluate("e => e.scrollIntoView({block: 'center'})")
    return before


def header_and_toc(page: Page, file: Path) -> None:
    """From the top of the page down to the end of the table of contents."""
    bottom = page.locator(".toc").evaluate("e => e.getBoundingClientRect().bottom")
    width = page.viewport_size["width"] if page.viewport_size else 1280
    page.screenshot(path=str(file), clip={"x": 0, "y": 0, "width": width, "height": bottom + 8})


def pager(page: Page, file: Path) -> None:
    """The pager and the way back to the top."""
    box = page.evaluate("""() => {
        const a = document.querySelector('.pager').getBoundingClientRect();
        const b = document.querySelector('.to-top').getBoundingClientRect();
        return {x: 0, y: a.top + scrollY - 8, width: innerWidth, height: b.bottom - a.top + 16};
    }""")
    page.screenshot(path=str(file), clip=box, full_page=True)


def reading(section: str, open_bar: bool = False) -> Callable[[Page], None]:
    """Scroll as a reader does until *section*'s heading is under the header; the "you are
    here" bar then names it (and, with *open_bar*, lists the page's sections)."""
    def before(page: Page) -> None:
        page.evaluate("""id => { const h = document.getElementById(id);
            scrollTo(0, h.getBoundingClientRect().top + scrollY - 150); }""", section)
        page.locator(".here").wait_for()
        if open_bar:
            page.locator(".here button").click()
    return before


def term_shown(page: Page) -> None:
    """A term link's definition shown, as a tap or the keyboard's focus shows it."""
    link = page.locator("main a.term").first
    link.evaluate("e => e.scrollIntoView({block: 'center'})")
    link.focus()
    page.locator(".term-tip").wait_for()


def take_all(shooter: Shooter) -> None:
    s = shooter.shot
    # where you are, a term explained in place, a word typed without diacritics
    s("here-pl-phone", PHONE, "pl/turn/", viewport(reading("laying-off")))
    s("here-vi-phone-open", PHONE, "vi/scoring/", viewport(reading("penalty-points", True)))
    s("tooltip-pl-phone", PHONE, "pl/setup/", viewport(term_shown))
    s("tooltip-vi-phone", PHONE, "vi/turn/", viewport(term_shown))
    s("search-folded-pl-phone", PHONE, "pl/", viewport(search_for("dokladanie")))
    s("search-folded-vi-phone", PHONE, "vi/", viewport(search_for("doi joker")))
    # the first screen of a rule page on a phone: one bar, then the rules
    s("first-screen-pl-phone", PHONE, "pl/turn/", viewport())
    s("first-screen-vi-phone", PHONE, "vi/first-meld/", viewport())
    s("first-screen-vi-phone-text200", PHONE, "vi/melds/", viewport(), font_size=32)
    # the page menu and the language menu, opened
    s("menu-pl-phone", PHONE, "pl/turn/", viewport(lambda p: p.click(".menu-button")))
    s("languages-vi-phone", PHONE, "vi/turn/#laying-off",
      viewport(lambda p: p.click(".lang-menu summary")))
    # a wide screen: the pages in a sidebar, the contents beside the text
    s("desktop-pl", WIDE, "pl/turn/", viewport())
    s("desktop-vi", WIDE, "vi/first-meld/", viewport())
    # search: a result is a section, the words found are marked
    s("search-pl-phone", PHONE, "pl/turn/", viewport(search_for("sekwens")))
    s("search-vi-desktop", DESKTOP, "vi/", viewport(search_for("sanh")))
    # a rule before its examples: the caution on Turn, a long trace folded
    s("callout-pl-phone", PHONE, "pl/turn/", element(".callout"))
    s("trace-folded-vi-phone", PHONE, "vi/whole-round/", element("details.trace"))
    # the quick-reference sheet, on screen and printed (one A4 page)
    s("quickref-pl-phone", PHONE, "pl/quick-reference/rami/", viewport())
    s("quickref-vi-print", {"width": 794, "height": 1123}, "vi/quick-reference/rami/",
      print_page)
    # the checker on Melds and on First meld
    s("checker-pl-phone", PHONE, "pl/melds/#try=rami51:reference:QH+KH+AH",
      viewport(scroll_to("#checker")))
    s("checker-vi-desktop", DESKTOP, "vi/first-meld/#try=rami51:reference:JK+7S+8S",
      element("#checker"))
    # the per-language 404 (served for a missing page under the language's folder)
    s("404-pl-phone", PHONE, "pl/no-such-page/", viewport())
    s("404-root-desktop", DESKTOP, "no-such-page/", column())


def print_page(page: Page, file: Path) -> None:
    """The sheet as printed: print media, at A4's width in CSS pixels."""
    page.emulate_media(media="print")
    page.screenshot(path=str(file), full_page=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dist", type=Path, help="a built site (site-builder build --out DIST)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots",
                        help="where to save the PNGs (default: docs/screenshots)")
    parser.add_argument("--only", nargs="*", help="take only the shots whose names start so")
    args = parser.parse_args(argv)
    if not (args.dist / "index.html").is_file():
        print(f"{args.dist}: no built site here (run site-builder build --out {args.dist})",
              file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    with serve(args.dist.resolve()) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            shooter = Shooter(browser, url, args.out, args.only)
            take_all(shooter)
        finally:
            browser.close()
    total = 0
    for file in shooter.saved:
        size = file.stat().st_size
        total += size
        print(f"{size:>9,} B  {file.relative_to(ROOT) if file.is_relative_to(ROOT) else file}")
    print(f"{total:>9,} B  in {len(shooter.saved)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
