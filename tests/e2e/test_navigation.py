"""Finding one's way (issue 16), in Chromium, in every language: contents, previous/next,
search in the page's language, narrow screens and large text, the printed quick
reference, and 404 pages served from another address."""

from __future__ import annotations

import functools
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page

from .conftest import _QuietHandler
from .e2e_site import LANGS, PAGES, READING_ORDER, ROOT, SHEETS, ServedSite, SitePage

pytestmark = pytest.mark.e2e

RULE_PAGES = [p for p in PAGES if p.slug in READING_ORDER]


def _path(url: str) -> str:
    path = urlsplit(url).path
    return path[: -len("index.html")] if path.endswith("/index.html") else path


@pytest.mark.parametrize("rule_page", RULE_PAGES, ids=[p.id for p in RULE_PAGES])
def test_contents_links_land_on_their_sections(page: Page, rule_page: SitePage) -> None:
    page.set_viewport_size({"width": 360, "height": 780})
    page.goto(rule_page.path)
    links = page.locator(".toc a")
    headings = page.locator("main h2[id]")
    assert links.count() == headings.count() >= 2
    for i in range(links.count()):
        link = links.nth(i)
        target = (link.get_attribute("href") or "").lstrip("#")
        assert target == headings.nth(i).get_attribute("id")
        link.click()
        assert urlsplit(page.url).fragment == target
        top = page.eval_on_selector(f"[id='{target}']", "e => e.getBoundingClientRect().top")
        assert -1 <= top <= 5 or page.evaluate(
            "innerHeight + scrollY >= document.documentElement.scrollHeight - 1"), (target, top)
        # the heading links to itself, with the same id in every language
        assert headings.nth(i).locator("a").get_attribute("href") == f"#{target}"
        page.goto(rule_page.path)


@pytest.mark.parametrize("slug", READING_ORDER)
def test_heading_ids_are_the_same_in_every_language(page: Page, slug: str) -> None:
    ids = {}
    for lang in LANGS:
        page.goto(f"{lang}/{slug}/")
        ids[lang] = page.eval_on_selector_all("main h2[id], main h3[id]",
                                              "hs => hs.map(h => h.id)")
    assert ids["en"] and all(found == ids["en"] for found in ids.values()), ids


def _reading_order() -> list[str]:
    """The content pages by their front matter's ``order`` (the home page first)."""
    pages = []
    for source in (ROOT / "content").glob("*.md"):
        text = source.read_text(encoding="utf-8")
        order = int(re.search(r"^order:\s*(-?\d+)", text, re.M).group(1))  # type: ignore[union-attr]
        slug = re.search(r"^slug:\s*(\S+)", text, re.M).group(1)  # type: ignore[union-attr]
        pages.append((order, slug))
    return [slug for _, slug in sorted(pages)]


@pytest.mark.parametrize("lang", LANGS)
def test_previous_and_next_follow_the_reading_order(page: Page, lang: str) -> None:
    order = _reading_order()
    assert order[1:] == list(READING_ORDER)
    expected = [f"/{lang}/" if slug == "index" else f"/{lang}/{slug}/" for slug in order]
    page.goto(expected[1])
    seen = [_path(page.url)]
    while page.locator(".pager a[rel=next]").count():
        page.click(".pager a[rel=next]")
        seen.append(_path(page.url))
    assert seen == expected[1:]
    while page.locator(".pager a[rel=prev]").count():
        page.click(".pager a[rel=prev]")
        seen.append(_path(page.url))
    assert seen == expected[1:] + expected[::-1][1:]
    # and back to the top
    page.goto(expected[1])
    page.click(".to-top a")
    assert page.evaluate("scrollY") == 0


# A game term from the glossary (site_builder/checks.py), and a query without its accents.
GLOSSARY_TERM = {"en": "sequence", "ms": "jujukan", "pl": "sekwens", "vi": "sảnh",
                 "id": "urutan"}
WITHOUT_ACCENTS = {"pl": ("dokladac", "dokładać"), "vi": ("sanh", "sảnh")}


def _search(page: Page, query: str) -> list[str]:
    page.fill("#q", "")  # the list empties, so the next results are this query's
    page.wait_for_function("document.querySelectorAll('.search ol li').length === 0")
    page.fill("#q", query)
    page.wait_for_function(
        "q => document.querySelector('#q').value === q"
        " && document.querySelectorAll('.search ol li').length > 0", arg=query)
    page.wait_for_load_state("networkidle")
    return page.eval_on_selector_all(".search ol li a", "as => as.map(a => a.pathname)")


def _pages_containing(site: ServedSite, lang: str, word: str) -> set[str]:
    """The served paths of *lang*'s rule pages whose main text holds *word*."""
    found = set()
    for slug in ("index", *READING_ORDER):
        file = site.dir / lang / ("index.html" if slug == "index" else f"{slug}/index.html")
        html = file.read_text(encoding="utf-8")
        main = html[html.index("<main"):html.index("</main>")]
        text = re.sub(r"<[^>]+>", " ", main).lower()
        if word.lower() in text:
            found.add(f"/{lang}/" if slug == "index" else f"/{lang}/{slug}/")
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_search_finds_pages_in_the_pages_language_only(page: Page, served_site: ServedSite,
                                                       lang: str) -> None:
    page.goto(f"{lang}/first-meld/")
    assert page.locator(".search").is_visible()
    term = GLOSSARY_TERM[lang]
    results = _search(page, term)
    expected = _pages_containing(served_site, lang, term)
    assert expected, term
    assert all(r.startswith(f"/{lang}/") for r in results), results
    assert expected <= set(results), (term, results)
    # the same word in another language's pages is not found from here
    if lang != "en":
        assert not [r for r in _search(page, "the") if not r.startswith(f"/{lang}/")]
    if lang in WITHOUT_ACCENTS:
        plain, accented = WITHOUT_ACCENTS[lang]
        expected = _pages_containing(served_site, lang, accented)
        assert expected and expected <= set(_search(page, plain)), (plain, accented)


def test_search_box_is_absent_without_javascript(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto("pl/first-meld/")
        assert page.locator(".search").is_hidden()
        assert page.locator(".toc a").count() >= 2  # the rest works without it
    finally:
        context.close()


def _overflow(page: Page) -> list[str]:
    """Elements wider than the window, and words broken across lines (outside code)."""
    return page.evaluate("""() => {
        const out = [];
        if (document.documentElement.scrollWidth > innerWidth)
            out.push('page ' + document.documentElement.scrollWidth + ' > ' + innerWidth);
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const e = n.parentElement;
            if (!e.getClientRects().length || e.closest('code, thead, .visually-hidden, [hidden]'))
                continue;
            const re = /[^\\s\\-\u2010]+/g;  // a break after a hyphen is no broken word
            for (let m = re.exec(n.data); m; m = re.exec(n.data)) {
                const r = document.createRange();
                r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
                const rects = [...r.getClientRects()];
                const tops = new Set(rects.map(q => Math.round(q.top)));
                // a word wider than its line must break (hyphenated where the browser
                // knows the syllables); any other break is a fault
                const wide = rects.reduce((w, q) => w + q.width, 0);
                const line = e.closest('p, li, td, th, dd, dt, h1, h2, h3, a') || e;
                if (tops.size > 1 && wide <= line.clientWidth)
                    out.push('broken word: ' + m[0]);
            }
        }
        return out;
    }""")


def test_no_overflow_at_320_px_or_at_200_percent_text(page: Page, site_page: SitePage) -> None:
    page.set_viewport_size({"width": 320, "height": 700})
    page.goto(site_page.path)
    assert _overflow(page) == []
    # text at 200%, as the browser's font-size setting (or a phone's font scaling) makes it:
    # the default font size doubled, which rem, em and media queries in em follow
    page.set_viewport_size({"width": 360, "height": 780})
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
    page.goto(site_page.path)
    assert page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)") == 32
    assert _overflow(page) == []


def test_rule_text_stays_under_about_75_characters_a_line(page: Page,
                                                          site_page: SitePage) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site_page.path)
    longest = page.evaluate("""() => {
        let longest = 0;
        for (const p of document.querySelectorAll('main p, main li')) {
            const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
            const lines = new Map();
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                for (let i = 0; i < n.data.length; i++) {
                    const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
                    const q = r.getClientRects()[0];
                    const y = q && Math.round(q.bottom);
                    if (q) lines.set(y, (lines.get(y) || 0) + 1);
                }
            }
            for (const count of lines.values()) longest = Math.max(longest, count);
        }
        return longest;
    }""")
    assert longest <= 80, longest


def test_stand_alone_links_are_24_px_targets(page: Page, site_page: SitePage) -> None:
    page.goto(site_page.path)
    small = page.evaluate("""() => [...document.querySelectorAll(
        '.site-header a, .breadcrumbs a, .site-footer a, .toc a, .pager a, .to-top a')]
        .filter(a => a.getClientRects().length)
        .map(a => [a.textContent.trim(), a.getBoundingClientRect().height])
        .filter(([, h]) => h < 24)""")
    assert small == []


@pytest.mark.parametrize("sheet", [f"{lang}/{slug}/" for lang in LANGS for slug in SHEETS])
def test_quick_reference_prints_on_one_a4_page(page: Page, sheet: str) -> None:
    page.goto(sheet)
    assert page.locator("main table [role=img]").count() >= 3
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 1
    page.emulate_media(media="print")
    printed = page.locator(".printed").inner_text()
    assert urlsplit(page.url).path in printed  # the page's address (canonical)
    assert re.search(r"\d{4}-\d{2}-\d{2}", printed)  # the build date


@pytest.fixture(scope="module")
def other_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site built for its real address, served from another one (a local preview)."""
    out = tmp_path_factory.mktemp("other") / "dist"
    build = subprocess.run([sys.executable, "-m", "site_builder", "build", "--out", str(out),
                            "--base-url", "https://rami-rules.example.org/"],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stdout + build.stderr
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(_QuietHandler, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("missing", ["no/such/page/", "pl/no/such/page/", "vi/x"])
def test_404_served_from_another_address_is_styled_and_its_links_work(
        page: Page, other_host: str, missing: str) -> None:
    response = page.goto(other_host + missing)
    assert response is not None and response.status == 404
    assert page.eval_on_selector(".skip-link", "e => e.getBoundingClientRect().bottom") <= 0
    hrefs = page.eval_on_selector_all("main a, header a", "as => as.map(a => a.href)")
    assert hrefs
    for href in hrefs:
        assert href.startswith(other_host), href
        assert page.request.get(href).status == 200, href


@pytest.mark.parametrize("lang", LANGS)
def test_language_404_lists_its_pages(page: Page, lang: str) -> None:
    page.goto(f"{lang}/404.html")
    listed = {_path(href) for href in
              page.eval_on_selector_all("main a", "as => as.map(a => a.href)")}
    assert {f"/{lang}/{slug}/" for slug in READING_ORDER} <= set(listed)
    assert page.locator(".search").count() == 1


def test_og_locale_has_a_region(page: Page) -> None:
    expected = {"en": "en_US", "ms": "ms_MY", "pl": "pl_PL", "vi": "vi_VN", "id": "id_ID"}
    for lang, locale in expected.items():
        page.goto(f"{lang}/first-meld/")
        assert page.get_attribute("meta[property='og:locale']", "content") == locale
