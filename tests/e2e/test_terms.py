"""Glossary terms explained in place, in Chromium: a term link shows the
glossary's definition on hover, focus and tap, in every language, and still leads to it."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page

from .e2e_site import LANGS, ServedSite
from .visit import PHONE

pytestmark = pytest.mark.e2e


def _glossary_entries(site: ServedSite, lang: str) -> list[str]:
    """The plain text of each entry of *lang*'s glossary, as the glossary page shows it."""
    html = (site.dir / lang / "glossary" / "index.html").read_text(encoding="utf-8")
    start = html.index('<h2 id="game-terms"')
    items = re.findall(r"<li>(.*?)</li>", html[start:html.index("<h2", start + 1)], re.S)
    return [" ".join(unescape(re.sub(r"<[^>]+>", "", i)).split()) for i in items]


@pytest.mark.parametrize("lang", LANGS)
def test_a_term_link_shows_the_glossarys_definition(page: Page, served_site: ServedSite,
                                                    lang: str) -> None:
    page.goto(f"{lang}/turn/")
    links = page.locator("main a.term")
    assert links.count() >= 2
    entries = _glossary_entries(served_site, lang)
    tip = page.locator(".term-tip")
    for i in range(links.count()):
        link = links.nth(i)
        # in the middle of the screen, as a reader scrolls to read it: not under the
        # header's "you are here" bar, which appears as the page scrolls
        link.evaluate("a => a.scrollIntoView({block: 'center'})")
        link.hover()
        tip.wait_for(state="visible")
        assert tip.inner_text() in entries, (tip.inner_text(), entries)
        # the same text is the link's accessible description
        described = link.evaluate("a => document.getElementById("
                                  "a.getAttribute('aria-describedby')).textContent")
        assert described == tip.inner_text()
    page.mouse.move(0, 0)
    assert tip.is_hidden()
    links.first.focus()  # by keyboard too, and Escape puts it away
    assert tip.is_visible()
    page.keyboard.press("Escape")
    assert tip.is_hidden()
    href = links.first.get_attribute("href") or ""
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert urlsplit(page.url).path.endswith(href.split("#")[0].removeprefix("..")), page.url


def test_a_first_tap_shows_the_definition_and_a_second_follows_the_link(
        browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, viewport=PHONE, has_touch=True,
                                  is_mobile=True)
    try:
        page = context.new_page()
        page.goto("vi/setup/")
        link = page.locator("main a.term").first
        link.scroll_into_view_if_needed()
        link.tap()
        assert page.locator(".term-tip").is_visible()
        assert urlsplit(page.url).path.endswith("/vi/setup/")
        box = page.locator(".term-tip").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        with page.expect_navigation():
            link.tap()
        assert "/vi/glossary/" in page.url or "/vi/melds/" in page.url
    finally:
        context.close()


def test_without_javascript_a_term_link_is_a_link_with_its_description(
        browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto("pl/turn/")
        link = page.locator("main a.term").first
        target = link.get_attribute("aria-describedby")
        assert page.locator(f"[id='{target}']").count() == 1
        assert page.locator(".term-tip").count() == 0
    finally:
        context.close()
