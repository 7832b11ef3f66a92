"""Finding one's way, in Chromium: contents, back to the top, search in the
page's language, the printed quick reference, and 404 pages served from another address.

What the built files alone establish (heading ids alike in every language, the previous/next
chain, og:locale, a language's 404 list) is checked in test_site_files.py, without a
browser; narrow screens, large text and the measure in test_pages.py's visits of every page.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from urllib.parse import quote, urlsplit

import pytest
from conftest import copy_project, keep_two_languages, run_cli
from playwright.sync_api import Browser, Page

from site_builder.render import context as menus

from .conftest import build_site, serving
from .e2e_site import (
    LANGS,
    PAGES,
    READING_ORDER,
    SHEETS,
    TEMPLATE_LANGS,
    ServedSite,
    SitePage,
)
from .visit import DESKTOP, PHONE, Tab, search_links

pytestmark = pytest.mark.e2e

# The rule pages of one language: their headings' ids are the same in every language, and
# every language's contents list them (test_site_files.test_heading_ids_are_the_same_in_every_
# language, test_contents_lead_to_the_sections_and_headings_link_to_themselves).
RULE_PAGES = [p for p in PAGES if p.slug in READING_ORDER and p.lang == "en" and not p.play]


@pytest.mark.parametrize("rule_page", RULE_PAGES, ids=[p.id for p in RULE_PAGES])
def test_contents_links_land_on_their_sections(tab: Tab, rule_page: SitePage) -> None:
    page = tab.page
    tab.open(rule_page.path, PHONE)
    page.click(".toc summary")  # folded on a phone: one line above the text
    links = page.locator(".toc a")
    headings = page.locator("main h2[id]")
    assert links.count() == headings.count() >= 2
    for i in range(links.count()):
        link = links.nth(i)
        target = (link.get_attribute("href") or "").lstrip("#")
        assert target == headings.nth(i).get_attribute("id")
        page.evaluate("scrollTo(0, 0)")  # each link clicked from the top of the page
        link.click()
        assert urlsplit(page.url).fragment == target
        top = page.eval_on_selector(f"[id='{target}']", "e => e.getBoundingClientRect().top")
        # just below the bar, which stays at the top of the screen
        bar = page.eval_on_selector(".site-header", "e => e.getBoundingClientRect().bottom")
        assert bar - 1 <= top <= bar + 24 or page.evaluate(
            "innerHeight + scrollY >= document.documentElement.scrollHeight - 1"), (target, top)
        # the heading links to itself
        assert headings.nth(i).locator("a").get_attribute("href") == f"#{target}"


@pytest.mark.parametrize("lang", TEMPLATE_LANGS)
def test_back_to_the_top(tab: Tab, lang: str) -> None:
    """The link at a rule page's end leads back to its top (a template's link: on the first
    rule page of the reading order, in TEMPLATE_LANGS)."""
    page = tab.page
    tab.open(f"{lang}/{READING_ORDER[0]}/", DESKTOP)
    page.click(".to-top a")  # scrolled into view first: the page's end
    assert page.evaluate("scrollY") == 0


# A game term from the glossary (site_builder/i18n/checks.py), and a query without its accents.
GLOSSARY_TERM = {"en": "sequence", "ms": "jujukan", "pl": "sekwens", "vi": "sảnh",
                 "id": "urutan"}
WITHOUT_ACCENTS = {"pl": ("dokladac", "dokładać"), "vi": ("sanh", "sảnh")}


def _search(page: Page, query: str, every: bool = False) -> list[str]:
    """The paths of the results listed for *query* (with *every*, all of them: see
    search_links)."""
    return [urlsplit(h).path for h in search_links(page, query, every)]


def _pages_containing(site: ServedSite, lang: str, word: str) -> set[str]:
    """The served paths of *lang*'s rule pages whose main text holds *word*."""
    found = set()
    for slug in ("index", *READING_ORDER):
        file = site.dir / lang / ("index.html" if slug == "index" else f"{slug}/index.html")
        html = file.read_text(encoding="utf-8")
        main = html[html.index("<main"):html.index("</main>")]
        main = _without_examples(main)  # not indexed: see site_builder/render/search.py
        # nor the definitions the term links name (site_builder/render/terms.py)
        main = re.sub(r'<div class="term-defs" hidden>.*?</div>', "", main, flags=re.S)
        # nor a script's data (the practice table's words)
        main = re.sub(r"<script\b.*?</script>", "", main, flags=re.S)
        text = re.sub(r"<[^>]+>", " ", main).lower()
        if word.lower() in text:
            found.add(f"/{lang}/" if slug == "index" else f"/{lang}/{slug}/")
    return found


def _without_examples(html: str) -> str:
    """*html* without its worked-example blocks (``<div class="example">``, with the divs
    inside them)."""
    out, depth, pos = [], 0, 0
    for m in re.finditer(r'<div class="example"[^>]*>|<div\b|</div>', html):
        if depth == 0 and m[0].startswith('<div class="example"'):
            out.append(html[pos:m.start()])
            depth = 1
        elif depth and m[0] == "</div>":
            depth -= 1
            if depth == 0:
                pos = m.end()
        elif depth:
            depth += 1
    out.append(html[pos:] if depth == 0 else "")
    return "".join(out)


@pytest.mark.parametrize("lang", LANGS)
def test_search_finds_pages_in_the_pages_language_only(page: Page, served_site: ServedSite,
                                                       lang: str) -> None:
    page.goto(f"{lang}/first-meld/")
    assert page.locator(".search").is_hidden()
    page.keyboard.press("/")  # the shortcut the button shows
    assert page.locator(".search").is_visible()
    assert page.evaluate("document.activeElement.id") == "q"
    term = GLOSSARY_TERM[lang]
    results = _search(page, term, every=True)
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
        assert expected and expected <= set(_search(page, plain, every=True)), (plain, accented)


def _fold(word: str) -> str:
    """A word without case or diacritics, as the search compares them."""
    plain = "".join(c for c in unicodedata.normalize("NFD", word)
                    if not unicodedata.combining(c))
    return plain.replace("ł", "l").replace("Ł", "l").replace("đ", "d").replace("Đ", "d").lower()


@pytest.mark.parametrize("lang,plain", [("pl", "sekwens"), ("pl", "dokładać"), ("vi", "sanh")])
def test_a_search_result_opens_its_section_and_marks_the_words(page: Page, lang: str,
                                                               plain: str) -> None:
    """A result is a section (Pagefind's sub-result): it opens there, with the words found
    marked on the page (every marked word holds the query's first letters: not a short word
    that merely starts it, as "do" for "dokladac")."""
    page.goto(f"{lang}/first-meld/")
    page.click(".search-open")
    _search(page, plain)
    # a result on a page with sections is a section (a page without any is the page)
    first = page.locator(".search ol li.sub-result a").first
    fragment = urlsplit(first.get_attribute("href") or "").fragment
    assert fragment, "a result is a section of its page"
    marked = page.locator(".search ol li mark").all_text_contents()
    assert marked and all(_fold(plain)[:4] in _fold(m) for m in marked), marked
    with page.expect_navigation():
        first.click()
    assert urlsplit(page.url).fragment == fragment
    assert page.locator(f"[id='{fragment}']").count() == 1
    on_page = page.locator("main mark").all_text_contents()
    assert on_page and all(_fold(plain)[:4] in _fold(m) for m in on_page), on_page


def test_the_highlight_reads_words_with_their_combining_marks(page: Page) -> None:
    """``?highlight=`` with sảnh typed decomposed (a combining hook above)
    marks the word on the page as the composed one does; a mark no longer ends a word."""
    page.goto(f"vi/melds/?highlight={quote('SA' + chr(0x309) + 'NH')}")
    on_page = page.locator("main mark").all_text_contents()
    assert on_page and all(_fold(m) == "sanh" for m in on_page), on_page


def test_search_box_is_absent_without_javascript(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto("pl/first-meld/")
        assert page.locator(".search").is_hidden()
        assert page.locator(".search-open").is_hidden()
        assert page.locator(".toc a").count() >= 2  # the rest works without it
    finally:
        context.close()


@pytest.mark.parametrize("sheet", [f"{lang}/{slug}/" for lang in LANGS for slug in SHEETS])
def test_quick_reference_prints_on_one_a4_page(tab: Tab, sheet: str) -> None:
    page = tab.page
    tab.open(sheet, DESKTOP)
    # laid points count only towards a threshold: the CardVerse sheet has no such table
    cards_in_tables = page.locator("main table [role=img]").count()
    assert cards_in_tables >= 3 if sheet.endswith("/rami/") else cards_in_tables == 0
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 1
    page.emulate_media(media="print")
    printed = page.locator(".printed").inner_text()
    assert urlsplit(page.url).path in printed  # the page's address (canonical)
    assert re.search(r"\b20\d\d\b", printed)  # the build date, as the language writes it


@pytest.fixture(scope="module")
def other_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site built for its real address, served from another one (a local preview)."""
    out = tmp_path_factory.mktemp("other") / "dist"
    build_site(out, "https://rami-rules.example.org/")
    with serving(out) as url:
        yield url


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


# The menu's list holds every page: assets/menu.js read the language's menu.html.
WHOLE_LIST = "n => document.querySelectorAll('.site-nav .all-pages li').length === n"


@pytest.fixture(scope="module")
def many_pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site, in English and Polish, built in this process with the menu of a language of
    many pages (its sizes lowered: a section of 5 pages, from 5 pages), and served."""
    folder = tmp_path_factory.mktemp("many-pages")
    root = keep_two_languages(copy_project(folder / "project"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(menus, "MENU_ALL", 4)
        patch.setattr(menus, "MENU_SECTION", 5)
        result = run_cli("build", "--root", str(root), "--out", str(folder / "dist"),
                         "--no-cache")
    assert result.code == 0, result.err
    with serving(folder / "dist") as url:
        yield url


def test_a_language_of_many_pages_any_page_in_two_taps_on_a_phone(
        tab: Tab, many_pages: str) -> None:
    """Each page lists its section; the menu's button shows every page (assets/menu.js
    reads the language's menu.html), and a page far from this one is the second tap."""
    page = tab.page
    tab.open(f"{many_pages}pl/{READING_ORDER[0]}/", PHONE)
    section = page.locator(".site-nav .all-pages li a")
    assert section.count() == 5
    page.click(".menu-button")  # the first tap
    every = len(READING_ORDER) + 1  # and the home page
    page.wait_for_function(WHOLE_LIST, arg=every)
    current = page.locator('.site-nav a[aria-current="page"]')
    assert current.count() == 1 and current.is_visible()
    assert not tab.problems.errors, tab.problems.errors
    far = page.locator(f'.site-nav .all-pages a[href$="/pl/{READING_ORDER[-1]}/index.html"]')
    far.click()  # the second tap
    assert urlsplit(page.url).path == f"/pl/{READING_ORDER[-1]}/index.html"


def test_a_language_of_many_pages_lists_every_page_beside_the_text(
        tab: Tab, many_pages: str) -> None:
    """On a wide screen the sidebar shows the whole list at once, the page marked."""
    page = tab.page
    tab.open(f"{many_pages}en/{READING_ORDER[-1]}/", DESKTOP)
    every = len(READING_ORDER) + 1
    page.wait_for_function(WHOLE_LIST, arg=every)
    current = page.locator('.sidebar a[aria-current="page"]')
    assert current.count() == 1 and current.is_visible()
    assert urlsplit(current.evaluate("a => a.href")).path == f"/en/{READING_ORDER[-1]}/index.html"


def test_a_language_of_many_pages_without_javascript(browser: Browser, many_pages: str
                                                     ) -> None:
    """Without JavaScript the section stays, and its link leads to the home page's list of
    every page."""
    context = browser.new_context(base_url=many_pages, java_script_enabled=False,
                                  viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(f"en/{READING_ORDER[0]}/")
        page.click(".menu-button")
        assert page.locator(".site-nav .all-pages li a").count() == 5
        page.click(".site-nav .all-pages > a")
        assert urlsplit(page.url).path == "/en/index.html"
        assert page.locator(f'#rule-pages + .page-index a[href$="{READING_ORDER[-1]}/index.html"]'
                            ).is_visible()
    finally:
        context.close()
