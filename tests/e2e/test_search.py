"""Search that finds the answer, in Chromium: every glossary term typed without
diacritics, the keys of the result list, and queries of any shape.

The ten players' questions per language, and the rank of each answer, are measured by
``benchmarks/search_questions.py``; here every glossary term must find its definition.
"""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlsplit

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Page

from site_builder.render.search import PLAYERS_WORDS, fold

from .e2e_site import LANGS, ROOT, ServedSite
from .visit import search_links

pytestmark = pytest.mark.e2e


def _search(page: Page, query: str) -> list[str]:
    """The results listed for *query*, as ``page#section`` (``page`` for a whole page)."""
    return [_section(h) for h in search_links(page, query)]


def _section(href: str) -> str:
    parts = urlsplit(href)
    slug = parts.path.removesuffix("index.html").rstrip("/").rsplit("/", 1)[-1]
    return f"{slug}#{parts.fragment}" if parts.fragment else slug


def headings(site: ServedSite, lang: str) -> dict[str, str]:
    """The sections of *lang*'s pages, ``page#section``, and their headings, folded."""
    out = {}
    for file in (site.dir / lang).glob("*/index.html"):
        html = file.read_text(encoding="utf-8")
        for id_, text in re.findall(r'<h[23] id="([^"]+)"[^>]*>(.*?)</h[23]>', html, re.S):
            out[f"{file.parent.name}#{id_}"] = fold(unescape(re.sub(r"<[^>]+>", "", text)))
    return out


def _names(title: str, term: str) -> bool:
    """Whether a heading names *term*: each of its words, by its first four letters, as
    the search box marks a word (inflected: "stosu kart odrzuconych" names "stos kart
    odrzuconych")."""
    words = re.findall(r"\w+", title)
    return all(any(w.startswith(stem[:4]) for w in words)
               for stem in re.findall(r"\w+", fold(term)))


def glossary_terms(site: ServedSite, lang: str) -> list[tuple[str, set[str]]]:
    """Each term of *lang*'s glossary (its game terms, with their other names) and where it
    is defined: the glossary's section, the rule page or section its entry links to, and
    a section whose heading names it."""
    titles = headings(site, lang)
    html = (site.dir / lang / "glossary" / "index.html").read_text(encoding="utf-8")
    start = html.index('<h2 id="game-terms"')
    items = re.findall(r"<li>(.*?)</li>", html[start:html.index("<h2", start + 1)], re.S)
    out = []
    for item in items:
        where = {"glossary#game-terms"}
        for href in re.findall(r'<a href="([^"]+)"', item):
            target = _section("http://x/" + href.replace("../", ""))
            where.add(target)
        for term in re.findall(r"<strong>(.*?)</strong>", item):
            term = unescape(term)
            named = {s for s, title in titles.items() if _names(title, term)}
            out.append((term, where | named))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_glossary_term_typed_without_diacritics_finds_its_definition(
        page: Page, served_site: ServedSite, lang: str) -> None:
    page.goto(f"{lang}/glossary/")
    page.keyboard.press("/")
    terms = glossary_terms(served_site, lang)
    assert len(terms) >= 12, terms
    missed = []
    for term, where in terms:
        plain = fold(term)
        found = _search(page, plain)[:3]
        # a page without a section of its own in the results counts by its sections too
        if not any(r in where or r.split("#")[0] in where for r in found):
            missed.append((term, plain, sorted(where), found))
    assert missed == [], "\n".join(map(str, missed))


def test_the_arrow_keys_move_through_the_results_and_enter_opens_one(page: Page) -> None:
    page.goto("pl/turn/")
    page.keyboard.press("/")
    found = _search(page, "dokladanie")
    assert found[0] == "turn#laying-off", found
    page.keyboard.press("ArrowDown")
    links = page.locator(".search ol li a")
    assert page.evaluate("document.activeElement.href") == links.nth(0).evaluate("a => a.href")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.href") == links.nth(1).evaluate("a => a.href")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.id") == "q"
    page.keyboard.press("ArrowDown")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert urlsplit(page.url).fragment == "laying-off"
    # the words found are marked on the page, though the reader typed them without "ł"
    assert [fold(m) for m in page.locator("main mark").all_text_contents()][:1] == ["dokladanie"]


def players_words(lang: str, key: str) -> list[str]:
    """The words players type for *key* (``page#section`` or ``page``) in *lang*, from its
    catalog, as the site shows them to search (English: the message itself)."""
    message = PLAYERS_WORDS[key]
    if lang != "en":
        with (ROOT / "locales" / lang / "LC_MESSAGES" / "messages.po").open("rb") as file:
            message = read_po(file)[message].string
    return [w.strip() for w in message.split(",") if w.strip()]


@pytest.mark.parametrize("lang", LANGS)
def test_players_words_find_the_score_sheet_a_variation_and_the_rule_before_a_variation(
        page: Page, lang: str) -> None:
    page.goto(f"{lang}/")
    page.keyboard.press("/")
    # a variation, asked about in the players' words: found, though a reference page; and
    # found by the page's first search, before any of the index is loaded
    rami_sec = "variations-going-out#rami-sec-going-out-all-at-once"
    assert rami_sec in _search(page, f"{fold(players_words(lang, rami_sec)[0])} co to jest")[:3]
    assert rami_sec in _search(page, fold(players_words(lang, rami_sec)[2]))[:3]
    # the score sheet: a page drawn by its template, found by what players call it
    assert "score" in _search(page, fold(players_words(lang, "score")[1]))[:3]
    # the meld checker, a form out of the index, found by its players' words
    checker = _search(page, fold(players_words(lang, "melds#checker")[0]))[:3]
    assert {"melds#checker", "first-meld#checker"} & set(checker), checker
    # a rules question in words that a variation's players' words hold too ("two jokers in
    # a meld", the last but one of the jokers' words): the rule first
    two_jokers = players_words(lang, "melds#jokers")[-2]
    assert _search(page, fold(two_jokers))[0] == "melds#jokers"
    # a page named by a word of its title: CardVerse compared, a reference page, before Rami
    # 40 or Rami 51 at a glance, which holds "rami 51" but not "cardverse"
    compared = "cardverse-compared#the-rules-side-by-side"
    assert _search(page, "cardverse rami 51")[0] == compared


def test_a_word_the_site_never_writes_as_typed_is_found_by_its_stem(page: Page) -> None:
    """"skończyła" (the stock "ran out", feminine past): the pages write "skończy..." in
    other forms, and Pagefind, asked for the word as typed, finds nothing; its stem finds
    the section on the stock running out, alone and inside a question."""
    page.goto("pl/")
    page.keyboard.press("/")
    assert _search(page, "skonczyla")[:1] == ["scoring#going-out"]
    assert "scoring#going-out" in _search(page, "skonczyla sie talia co teraz")[:3]


# Queries of any length, markup, regular-expression characters and any Unicode.
HOSTILE = ["<img src=x onerror=alert(1)>", "(.*)+[?", "\\", "⁅ ⁆ ⁅", "🂡🃏 ł\u0301",
           "a" * 3000, "\u202e dokladanie", "<mark>x</mark>", "%00 ../../"]


def test_hostile_queries_break_neither_the_search_nor_the_page(page: Page) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto("vi/scoring/")
    page.keyboard.press("/")
    for query in HOSTILE:
        page.fill("#q", query)
        page.wait_for_timeout(250)
        page.wait_for_load_state("networkidle")
        assert page.locator(".search ol img, .search ol script").count() == 0
    assert _search(page, "diem phat")[0] == "scoring#penalty-points"
    href = page.locator(".search ol li a").first.get_attribute("href") or ""
    page.goto(href.replace("highlight=", "highlight=" + "(.*<b>x</b>" * 50))
    assert page.locator("main b", has_text=re.compile("^x$")).count() == 0
    assert errors == []
