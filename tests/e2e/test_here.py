""""You are here", in Chromium: the bar on a phone, the marked contents on a
wide screen, and the language switch that lands on the section being read. Every rule page
in every language shows its section while reading: test_pages.test_page_on_a_phone, in its
visit of each page.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page

from .visit import PHONE

pytestmark = pytest.mark.e2e
WIDE = {"width": 1440, "height": 900}


def _tap(page: Page, selector: str) -> None:
    """Click where *selector* is on the screen, as a finger does: Playwright's own click
    first scrolls the element "into view", which for the sticky header scrolls the page."""
    box = page.locator(selector).first.bounding_box()
    assert box, selector
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _read(page: Page, section: str) -> None:
    """Scroll as a reader does, until *section*'s heading is a little under the header."""
    page.evaluate("""id => { const h = document.getElementById(id);
        scrollTo(0, h.getBoundingClientRect().top + scrollY - 150); }""", section)
    page.wait_for_function("id => document.querySelector('.here-now')?.textContent === "
                           "document.getElementById(id).textContent.trim()", arg=section)


def test_the_bar_names_the_section_and_opens_the_contents(page: Page) -> None:
    page.set_viewport_size(PHONE)
    page.goto("pl/turn/")
    assert page.locator(".here").is_hidden()  # not over the first screen
    _read(page, "laying-off")
    bar = page.locator(".here button")
    assert bar.is_visible()
    assert "Na tej stronie" in bar.inner_text() and "Dokładanie kart" in bar.inner_text()
    assert bar.get_attribute("aria-expanded") == "false"
    _tap(page, ".here button")
    assert bar.get_attribute("aria-expanded") == "true"
    assert page.locator("#here-list a[aria-current=location]").inner_text() == "Dokładanie kart"
    page.keyboard.press("Escape")
    assert page.locator("#here-list").is_hidden()
    assert page.evaluate("document.activeElement.getAttribute('aria-controls')") == "here-list"
    _tap(page, ".here button")
    page.locator("#here-list a").first.click()
    assert urlsplit(page.url).fragment == "your-turn-step-by-step"
    assert page.locator("#here-list").is_hidden()
    # the heading it leads to is under the header and the bar, not behind them
    top = page.evaluate("document.getElementById('your-turn-step-by-step')"
                        ".getBoundingClientRect().top")
    bottom = page.evaluate("document.querySelector('.here').getBoundingClientRect().bottom")
    assert top >= bottom - 1, (top, bottom)


def _names(page: Page, section: str) -> None:
    """Wait until the bar names *section* (the page may still be scrolling smoothly)."""
    page.wait_for_function("id => document.querySelector('.here-now')?.textContent === "
                           "document.getElementById(id).textContent.trim()", arg=section,
                           timeout=5_000)


def test_after_the_end_key_a_jump_and_a_search_the_bar_names_the_section(page: Page) -> None:
    """Any scroll, however far: the End key lands at the foot of the page, where the last
    section cannot rise to the reading line; a jump to a section (an anchor); a search
    result that leads to the last section of another page."""
    page.set_viewport_size(PHONE)
    page.goto("ms/turn/")
    last = page.eval_on_selector_all("main details.toc a", "as => as.at(-1).hash.slice(1)")
    page.locator("main h1").click()  # the keys go to the page, not a field
    page.keyboard.press("End")
    page.wait_for_function(
        "() => scrollY + innerHeight >= document.documentElement.scrollHeight - 2")
    _names(page, last)
    page.evaluate("location.hash = 'taking-the-discard'")
    _names(page, "taking-the-discard")
    page.keyboard.press("Home")
    page.wait_for_function("() => scrollY === 0")
    page.locator(".search-open").click()
    page.fill("#q", "siapa menang permainan")
    link = page.locator(".search ol li a").first
    link.wait_for()
    assert "#the-end-of-the-game" in (link.get_attribute("href") or "")
    with page.expect_navigation():
        link.click()
    assert urlsplit(page.url).path.rstrip("/").endswith("/ms/scoring")
    _names(page, "the-end-of-the-game")
    assert page.locator(".here").is_visible()
    # the heading jumped to stands under the bar that appeared, not behind it
    top = page.evaluate("document.getElementById('the-end-of-the-game')"
                        ".getBoundingClientRect().top")
    bottom = page.evaluate("document.querySelector('.here').getBoundingClientRect().bottom")
    assert top >= bottom - 1, (top, bottom)


def test_wide_contents_mark_the_section_and_the_language_switch_lands_on_it(page: Page) -> None:
    page.set_viewport_size(WIDE)  # type: ignore[arg-type]
    page.goto("vi/scoring/")
    assert page.locator(".here").is_hidden()
    page.evaluate("""() => { const h = document.getElementById('penalty-points');
        scrollTo(0, h.getBoundingClientRect().top + scrollY - 150); }""")
    # a function, not an expression: an expression is evaluated again at each poll, by an
    # eval that the page's CSP refuses (test_checker.py's SHOWN)
    page.wait_for_function("() => document.querySelector('.toc a[aria-current]')?.hash"
                           " === '#penalty-points'")
    assert page.locator(".here").is_hidden()  # the contents beside the text say it
    assert "#" not in page.url
    _tap(page, ".lang-menu summary")
    with page.expect_navigation():
        _tap(page, ".languages a[hreflang=pl]")
    assert urlsplit(page.url).path.endswith("/pl/scoring/index.html")
    assert urlsplit(page.url).fragment == "penalty-points"
    assert page.evaluate("document.getElementById('penalty-points').getBoundingClientRect().top"
                         ) < 200


def test_a_hostile_hash_reaches_no_selector(page: Page) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto("pl/turn/#x'],a[href^='h")
    page.click(".lang-menu summary")
    with page.expect_navigation():
        page.click(".languages a[hreflang=vi]")
    assert urlsplit(page.url).fragment == ""
    page.goto("pl/turn/#%3Cimg%20src=x%3E")
    page.evaluate("scrollTo(0, 3000)")
    page.wait_for_timeout(200)
    assert errors == []


def test_without_javascript_there_is_no_bar(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, java_script_enabled=False,
                                  viewport=PHONE)
    try:
        page = context.new_page()
        page.goto("pl/turn/")
        assert page.locator(".here").count() == 0
        assert page.locator("details.toc a").count() >= 2
    finally:
        context.close()
