"""Every page in every language, in Chromium: loading, language switcher, phone width,
keyboard, print. Screenshots at 360 px and 1280 px go to screenshots/ for review."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import ConsoleMessage, Page, Request, Response, ViewportSize

from .e2e_site import CHECKER_CSS, CHECKER_SCRIPTS, LANGS, ServedSite, SitePage

pytestmark = pytest.mark.e2e

PHONE: ViewportSize = {"width": 360, "height": 780}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}


class Problems:
    """Console errors, uncaught exceptions, failed requests and HTTP errors of one page."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        self.requests: list[Request] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(f"uncaught: {exc}"))
        page.on("request", lambda r: self.requests.append(r))
        page.on("requestfailed", lambda r: self.errors.append(
            f"request failed: {r.url} ({r.failure})"))
        page.on("response", self._response)

    def _console(self, msg: ConsoleMessage) -> None:
        if msg.type in ("error", "assert"):
            self.errors.append(f"console {msg.type}: {msg.text} ({msg.location.get('url')})")

    def _response(self, response: Response) -> None:
        if response.status >= 400:
            self.errors.append(f"HTTP {response.status}: {response.url}")


def _path(url: str) -> str:
    """The served path of a URL, with a trailing ``index.html`` dropped."""
    path = urlsplit(url).path
    return path[: -len("index.html")] if path.endswith("/index.html") else path


def test_page_loads_without_errors(page: Page, served_site: ServedSite,
                                   site_page: SitePage) -> None:
    problems = Problems(page)
    response = page.goto(site_page.path, wait_until="load")
    assert response is not None and response.status == 200
    page.wait_for_load_state("networkidle")
    assert problems.errors == []
    kinds = sorted((r.resource_type, _path(r.url)) for r in problems.requests)
    expected = [("document", "/" + site_page.path), ("stylesheet", "/assets/site.css")]
    if site_page.searchable:  # the search client; the index loads only when one searches
        expected.append(("script", "/assets/search.js"))
    if site_page.checker:  # its scripts, and the stylesheet the checker's script adds
        expected += [("script", "/" + name) for name in CHECKER_SCRIPTS]
        expected.append(("stylesheet", "/" + CHECKER_CSS))
    assert kinds == sorted(expected)
    # the stylesheet applied (the CSP allows it): the skip link is moved off screen
    assert page.eval_on_selector(".skip-link", "e => e.getBoundingClientRect().bottom") <= 0
    assert page.locator("html").get_attribute("lang") == (site_page.lang or "en")
    assert page.locator("h1").count() == 1
    assert page.title().strip()
    _check_card_chips(page, site_page)


def _check_card_chips(page: Page, site_page: SitePage) -> None:
    """Each group of chips is one image named after every card in it; red suits are red,
    black suits in the text colour; a joker shows its name in the page's language (the
    name in the group's label), not a rank letter."""
    groups = page.evaluate("""() => [...document.querySelectorAll('main [role=img]')]
      .map(g => ({
        label: g.getAttribute('aria-label') || '',
        chips: [...g.children].map(c => [c.textContent, getComputedStyle(c).color,
                                         c.classList.contains('joker')]),
    }))""")
    text_colour = page.evaluate("getComputedStyle(document.body).color")
    if site_page.slug in ("first-meld", "cardverse"):
        assert groups, "a rule page shows its examples' cards"
    for group in groups:
        names = [n for n in group["label"].split(", ") if n.strip()]
        assert len(names) == len(group["chips"]), group
        for (text, colour, joker), name in zip(group["chips"], names, strict=True):
            if joker:
                assert text.strip().lower() == name.lower(), (text, name)
                continue
            suit = text[-1]
            assert suit in "♣♦♥♠", text
            assert (colour != text_colour) == (suit in "♦♥"), f"{text}: {colour}"


def test_missing_address_shows_the_root_404_page_with_its_styles(page: Page) -> None:
    """A static host answers an unknown address with /404.html: its absolute links must work
    from any depth."""
    problems = Problems(page)
    response = page.goto("pl/no/such/page/", wait_until="load")
    assert response is not None and response.status == 404
    page.wait_for_load_state("networkidle")
    assert [e for e in problems.errors if "/pl/no/such/page/" not in e] == []
    assert page.eval_on_selector(".skip-link", "e => e.getBoundingClientRect().bottom") <= 0
    links = page.locator("main a[hreflang]")
    assert links.count() == len(LANGS)
    targets = {links.nth(i).get_attribute("hreflang"): _path(
        links.nth(i).evaluate("a => a.href")) for i in range(links.count())}
    assert targets == {lang: f"/{lang}/" for lang in LANGS}


def test_language_switcher_leads_to_the_same_page(page: Page, served_site: ServedSite,
                                                  site_page: SitePage) -> None:
    page.goto(site_page.path)
    if site_page.lang is None:
        # the chooser and the root 404 page are the language choice: one list of every
        # language, no switcher above it, no language marked as current
        assert page.locator("nav.languages").count() == 0
        links = page.locator("main a[hreflang]")
        assert sorted(links.nth(i).get_attribute("hreflang") or ""
                      for i in range(links.count())) == sorted(LANGS)
        assert page.locator("[aria-current]").count() == 0
        return
    switcher = page.locator("nav.languages a[hreflang]")
    offered = [switcher.nth(i).get_attribute("hreflang") or "" for i in range(switcher.count())]
    assert sorted(offered) == sorted(LANGS)
    # the page's own language is marked: as the current page where the link leads here,
    # else (404 pages, the chooser) as the current item of the list
    current = page.locator("nav.languages a[aria-current]")
    assert current.count() == 1
    lang = page.locator("html").get_attribute("lang") or ""
    assert current.get_attribute("hreflang") == lang
    here = site_page.same_page_in(lang) == site_page.path
    assert current.get_attribute("aria-current") == ("page" if here else "true")
    for lang in LANGS:
        page.goto(site_page.path)
        link = page.locator(f'nav.languages a[hreflang="{lang}"]')
        assert link.get_attribute("lang") == lang
        assert link.inner_text().strip(), "the switcher shows each language's native name"
        with page.expect_navigation():
            link.click()
        assert _path(page.url) == "/" + site_page.same_page_in(lang)
        assert page.locator("html").get_attribute("lang") == lang


def _scroll_width(page: Page) -> tuple[int, int]:
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


def _tables_fit(page: Page) -> list[str]:
    """Tables wider than the main column (they would be cut off or scroll)."""
    return page.evaluate("""() => {
        const main = document.querySelector('main'), s = getComputedStyle(main);
        const right = main.getBoundingClientRect().right - parseFloat(s.paddingRight);
        return [...main.querySelectorAll('table')]
            .filter(t => t.getBoundingClientRect().right > right + 1)
            .map(t => t.querySelector('th').textContent);
    }""")


def _shot(page: Page, folder: Path, site_page: SitePage, width: int) -> None:
    name = (site_page.id.replace("/", "_").replace(".html", "")) + f"-{width}.png"
    page.screenshot(path=str(folder / name), full_page=True)


def test_no_horizontal_scroll_on_a_360_px_phone(page: Page, screenshots_dir: Path,
                                                site_page: SitePage) -> None:
    page.set_viewport_size(PHONE)
    page.goto(site_page.path)
    scroll_width, inner_width = _scroll_width(page)
    _shot(page, screenshots_dir, site_page, PHONE["width"])
    assert inner_width == PHONE["width"]
    assert scroll_width <= inner_width
    # nothing is cut off inside a table either: every cell fits in its table
    overflowing = page.evaluate("""() => [...document.querySelectorAll('tbody td, tbody th')]
        .filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent.slice(0, 60))""")
    assert overflowing == []
    assert _tables_fit(page) == []


def test_readable_line_length_at_1280_px(page: Page, screenshots_dir: Path,
                                         site_page: SitePage) -> None:
    page.set_viewport_size(DESKTOP)
    page.goto(site_page.path)
    _shot(page, screenshots_dir, site_page, DESKTOP["width"])
    scroll_width, inner_width = _scroll_width(page)
    assert scroll_width <= inner_width
    assert _tables_fit(page) == []
    # running text keeps a readable measure instead of spanning the whole window
    widths = page.evaluate("""() => [...document.querySelectorAll('main p')]
        .map(p => p.getBoundingClientRect().width)""")
    assert widths and max(widths) <= 900


def _focused(page: Page) -> dict[str, Any]:
    return page.evaluate("""() => {
        const e = document.activeElement, s = getComputedStyle(e), r = e.getBoundingClientRect();
        return {tag: e.tagName.toLowerCase(), id: e.id, cls: e.className,
                hreflang: e.getAttribute('hreflang'), text: e.textContent.trim().slice(0, 40),
                inMain: !!e.closest('main'), inLanguages: !!e.closest('nav.languages'),
                outline: s.outlineStyle === 'none' ? 0 : parseFloat(s.outlineWidth),
                visible: r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0
                         && r.top < innerHeight && r.left < innerWidth};
    }""")


def test_keyboard_reaches_skip_link_switcher_and_main(page: Page, site_page: SitePage) -> None:
    page.goto(site_page.path)
    page.keyboard.press("Tab")
    first = _focused(page)
    assert first["cls"] == "skip-link", first
    assert first["visible"], "the skip link shows when it has focus"
    assert first["outline"] >= 2, "visible focus indicator"

    # Tab on through the page: every switcher link, then something inside main
    seen: list[dict[str, object]] = []
    for _ in range(40):
        page.keyboard.press("Tab")
        focused = _focused(page)
        seen.append(focused)
        assert focused["visible"], focused
        assert focused["outline"] >= 2, f"no visible focus indicator on {focused}"
        if focused["inMain"]:
            break
    switcher = {f["hreflang"] for f in seen if f["inLanguages"]}
    # (the chooser and the root 404 page have no switcher: their list is the choice)
    assert switcher == (set(LANGS) if site_page.lang else set())
    assert seen[-1]["inMain"], "Tab never reached the main content"

    # the skip link moves focus to main, and the next Tab stays inside it
    page.goto(site_page.path)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert _focused(page)["id"] == "main"
    page.keyboard.press("Tab")
    assert _focused(page)["inMain"]


def test_print_hides_navigation_and_keeps_cards_black_on_white(page: Page,
                                                               site_page: SitePage) -> None:
    page.goto(site_page.path)
    page.emulate_media(media="print")
    for selector in (".skip-link", "nav.languages", ".site-nav", ".breadcrumbs", "footer",
                     ".toc", ".pager", ".search"):
        for i in range(page.locator(selector).count()):
            assert page.locator(selector).nth(i).is_hidden(), selector
    assert page.locator("main h1").is_visible()
    colours = page.evaluate("""() => [...document.querySelectorAll('[role=img] > *')].map(c => {
        const s = getComputedStyle(c);
        return [s.color, s.backgroundColor, s.borderTopStyle, c.tagName.toLowerCase()];
    })""")
    for color, background, border, tag in colours:
        assert color == "rgb(0, 0, 0)", tag
        assert background in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"), tag
        assert border != "none", tag
    # red and black suits stay distinguishable without colour, by their border (red
    # suits are <i>), and the page says so on paper
    red = {border for _, _, border, tag in colours if tag == "i"}
    black = {border for _, _, border, tag in colours if tag != "i"}
    assert not red & black, (red, black)
    if red:
        assert page.locator(".printed").first.is_visible()
