"""Every page in every language, in Chromium, in one visit at 1280 px and one on a phone.

The desktop visit checks the page's load (no console error, no failed request, exactly its
files), its card chips, ``lang``, the language switcher's links, the measure (the width of
its paragraphs and the characters a line), 24-px targets, axe in the light scheme and the
printed page. The phone visit checks that nothing overflows at 360 px, at 320 px and with
the text at 200 %.

A template's own behaviour (the keyboard's order, the skip link, the focus outline, the
switcher's clicks) is checked on one page of each template (``template_page``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page

from .e2e_site import (
    CHECKER_CSS,
    CHECKER_SCRIPTS,
    LANGS,
    LIB_MODULES,
    PLAY_MODULES,
    READING_ORDER,
    TEMPLATE_PAGES,
    SitePage,
    page_at,
)
from .e2e_site import served_path as _path
from .visit import (
    AXE_PATH,
    DESKTOP,
    DOUBLE_FONT_SIZES,
    LAPTOP,
    NARROW_PHONE,
    PHONE,
    Problems,
    Tab,
    describe_violations,
    inject_axe,
    run_axe,
)

pytestmark = pytest.mark.e2e


# -- the desktop visit ------------------------------------------------------------------------

def test_page_at_1280_px(tab: Tab, site_page: SitePage) -> None:
    page = tab.page
    response = tab.open(site_page.path, DESKTOP)
    assert response.status == 200
    inject_axe(page)  # first: its request is over by the time the network is idle
    # the stylesheet applied (the CSP allows it): the skip link is moved off screen
    assert page.eval_on_selector(".skip-link", "e => e.getBoundingClientRect().bottom") <= 0
    assert page.locator("html").get_attribute("lang") == (site_page.lang or "en")
    assert page.locator("h1").count() == 1
    assert page.title().strip()
    _check_card_chips(page, site_page)
    _check_switcher(page, site_page)
    _check_measure(page)
    _check_targets(page)
    _check_axe(page)
    _check_print(page)
    # the load, once the network is idle (the checks above ran in the meantime): no error,
    # and exactly the page's own files, nothing more (axe, the test's, aside)
    page.wait_for_load_state("networkidle")
    assert tab.problems.errors == []
    _check_requests(tab.problems, site_page)


def _check_requests(problems: Problems, site_page: SitePage) -> None:
    kinds = sorted((r.resource_type, _path(r.url)) for r in problems.requests
                   if _path(r.url) != AXE_PATH)
    expected = [("document", "/" + site_page.path), ("stylesheet", "/assets/site.css")]
    islands = {"shell": site_page.searchable, "checker": site_page.checker,
               "score": site_page.slug == "score", "play": site_page.play}
    # each shared module once, whichever islands import it
    lib = {name for island, loaded in islands.items() if loaded for name in LIB_MODULES[island]}
    expected += [("script", f"/assets/lib/{name}.js") for name in lib]
    if site_page.searchable:  # the search client; the index loads only when one searches
        expected.append(("script", "/assets/site.js"))
        # and the modules it imports: the offline worker's registration (blocked in these
        # tests: test_offline.py has the worker), my table's rules, with their words, and
        # the page menu of a language of many pages
        expected += [("script", "/assets/offline.js"), ("script", "/assets/table-rules.js"),
                     ("fetch", f"/{site_page.lang}/table-rules.json"),
                     ("script", "/assets/menu.js")]
        # where you are, search's results and the terms' definitions
        expected += [("script", f"/assets/{name}.js")
                     for name in ("here", "search-results", "terms")]
    if site_page.slug == "score":  # the score keeper's modules
        expected += [("script", f"/assets/score/{name}.js") for name in ("page", "check", "sheet")]
    if site_page.checker:  # its scripts, and the stylesheet the checker's script adds
        expected += [("script", "/" + name) for name in CHECKER_SCRIPTS]
        expected.append(("stylesheet", "/" + CHECKER_CSS))
    if site_page.play:  # the table's modules and the stylesheet main.js adds; no runtime
        expected += [("script", f"/assets/play/{name}.js") for name in PLAY_MODULES]
        expected.append(("stylesheet", "/assets/play/play.css"))
    assert kinds == sorted(expected)


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


def _check_switcher(page: Page, site_page: SitePage) -> None:
    """The language switcher's links, as they are (tests/test_build.py resolves every one of
    them in the built files; test_switcher_click_through clicks them on each template)."""
    if site_page.lang is None:
        # the chooser and the root 404 page are the language choice: one list of every
        # language, no switcher above it, no language marked as current
        assert page.locator("nav.languages").count() == 0
        links = page.eval_on_selector_all("main a[hreflang]", """as => as.map(a =>
            [a.getAttribute('hreflang'), a.href])""")
        assert sorted(lang for lang, _ in links) == sorted(LANGS)
        assert {lang: _path(href) for lang, href in links} == {lang: f"/{lang}/"
                                                               for lang in LANGS}
        assert page.locator("[aria-current]").count() == 0
        return
    links = page.eval_on_selector_all("nav.languages a[hreflang]", """as => as.map(a => ({
        hreflang: a.getAttribute('hreflang'), lang: a.getAttribute('lang'), href: a.href,
        text: a.textContent.trim(), current: a.getAttribute('aria-current')}))""")
    assert sorted(link["hreflang"] or "" for link in links) == sorted(LANGS)
    for link in links:
        lang = link["hreflang"]
        assert link["lang"] == lang
        assert link["text"], "the switcher shows each language's native name"
        assert _path(link["href"]) == "/" + site_page.same_page_in(lang), link
    # the page's own language is marked: as the current page where the link leads here,
    # else (404 pages) as the current item of the list
    current = [link for link in links if link["current"] is not None]
    lang = page.locator("html").get_attribute("lang") or ""
    assert [link["hreflang"] for link in current] == [lang]
    here = site_page.same_page_in(lang) == site_page.path
    assert current[0]["current"] == ("page" if here else "true")


# The characters on each line of running text (main p, main li), the longest line of all:
# a text node on one line is counted whole, with its white space collapsed as it is laid out;
# one that wraps is split at its line breaks, found by bisection over its characters, so that
# a few Ranges a line are measured, not one a character. A line is the rounded bottom of its
# characters' boxes, as a Range's client rects give them.
LONGEST_LINE = """() => {
    const range = document.createRange();
    const lineAt = (n, i, step) => {  // the first laid-out character from i on (step 1)
        for (; i >= 0 && i < n.data.length; i += step) {  // or back (step -1), and its line
            range.setStart(n, i); range.setEnd(n, i + 1);
            const q = range.getClientRects()[0];
            if (q) return [i, Math.round(q.bottom)];
        }
        return [i, null];
    };
    let longest = 0;
    for (const block of document.querySelectorAll('main p, main li')) {
        const lines = new Map();
        const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            range.selectNodeContents(n);
            const boxes = [...range.getClientRects()];
            if (!boxes.length) continue;  // not laid out (hidden)
            const pre = /^(pre|pre-wrap|break-spaces)$/.test(
                getComputedStyle(n.parentElement).whiteSpace);
            const add = (from, to, y) => {
                const text = n.data.slice(from, to);
                const count = pre ? text.replace(/\\n/g, '').length
                                  : text.replace(/\\s+/g, ' ').length;
                lines.set(y, (lines.get(y) || 0) + count);
            };
            // [from, to): from is a laid-out character, on line y
            const split = (from, y, to) => {
                const [last, yLast] = lineAt(n, to - 1, -1);
                if (yLast === y) { add(from, to, y); return; }
                const [mid, yMid] = lineAt(n, (from + last + 1) >> 1, 1);
                if (mid >= to || mid === from) { add(from, to, y); return; }
                split(from, y, mid);
                split(mid, yMid, to);
            };
            const ys = new Set(boxes.map(q => Math.round(q.bottom)));
            if (ys.size === 1) { add(0, n.data.length, [...ys][0]); continue; }
            const [first, y] = lineAt(n, 0, 1);
            if (y !== null) split(first, y, n.data.length);
        }
        for (const count of lines.values()) longest = Math.max(longest, count);
    }
    return longest;
}"""


def _check_measure(page: Page) -> None:
    scroll_width, inner_width = _scroll_width(page)
    assert scroll_width <= inner_width
    assert _tables_fit(page) == []
    # running text keeps a readable measure instead of spanning the whole window
    widths = page.evaluate("""() => [...document.querySelectorAll('main p')]
        .map(p => p.getBoundingClientRect().width)""")
    assert widths and max(widths) <= 900
    # about 75 characters a line
    longest = page.evaluate(LONGEST_LINE)
    assert longest <= 80, longest


def _check_targets(page: Page) -> None:
    """Stand-alone links are targets at least 24 px high."""
    small = page.evaluate("""() => [...document.querySelectorAll(
        '.site-header a, .sidebar a, .breadcrumbs a, .site-footer a, .toc a, .pager a, .to-top a')]
        .filter(a => a.getClientRects().length)
        .map(a => [a.textContent.trim(), a.getBoundingClientRect().height])
        .filter(([, h]) => h < 24)""")
    assert small == []


def _check_axe(page: Page) -> None:
    assert page.evaluate("matchMedia('(prefers-color-scheme: light)').matches")
    result = run_axe(page)
    assert result["passes"], "axe ran no check at all"
    assert result["violations"] == [], describe_violations(result["violations"])


def _check_print(page: Page) -> None:
    """Printed, the navigation is hidden and the cards are black on white."""
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
    # a folded step-by-step round prints open, every row of it, without its summary line
    # (CSS); site.js also opens it at "beforeprint" and folds it again at "afterprint"
    traces = page.evaluate("""() => [...document.querySelectorAll('details.trace')].map(t => [
        t.querySelector('summary').checkVisibility(), t.open,
        [...t.querySelectorAll('tbody tr')].filter(r => !r.checkVisibility()).length,
        t.querySelectorAll('tbody tr').length])""")
    assert all(not summary and not opened and hidden == 0 and rows > 0
               for summary, opened, hidden, rows in traces), traces
    if traces and page.evaluate("() => !!document.querySelector('script[src$=\"site.js\"]')"):
        page.evaluate("() => dispatchEvent(new Event('beforeprint'))")
        assert page.evaluate("() => [...document.querySelectorAll('details.trace')]"
                             ".every(t => t.open)")
        page.evaluate("() => dispatchEvent(new Event('afterprint'))")
        assert page.evaluate("() => [...document.querySelectorAll('details.trace')]"
                             ".every(t => !t.open)")


def _scroll_width(page: Page) -> tuple[int, int]:
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


def _tables_fit(page: Page) -> list[str]:
    """Tables wider than the main column (they would be cut off, or scroll the page). A
    table may scroll within a region of its own that fits, which a keyboard reaches (the
    score sheet with many players: its columns are never squeezed to break a number)."""
    return page.evaluate("""() => {
        const main = document.querySelector('main'), s = getComputedStyle(main);
        const right = main.getBoundingClientRect().right - parseFloat(s.paddingRight);
        const box = (t) => {
            const own = t.parentElement.closest('[tabindex="0"][role=region]');
            return own && getComputedStyle(own).overflowX === 'auto' ? own : t;
        };
        return [...main.querySelectorAll('table')]
            .filter(t => box(t).getBoundingClientRect().right > right + 1)
            .map(t => t.querySelector('th').textContent);
    }""")


# -- the phone visit --------------------------------------------------------------------------

def test_page_on_a_phone(tab: Tab, site_page: SitePage) -> None:
    """No horizontal scroll at 360 px, then (the same document, resized) at 320 px, then at
    360 px with the text at 200 %."""
    page = tab.page
    tab.open(site_page.path, PHONE)
    assert _root_font_size(page) == 16
    rule_page = site_page.slug in READING_ORDER
    if rule_page:  # the page's own text starts on the first screen
        top = _first_text_top(page)
        assert top < PHONE["height"] - 40, f"the first rule text starts at {top} px"
        assert page.eval_on_selector(".site-header", "e => e.getBoundingClientRect().height") <= 64
    scroll_width, inner_width = _scroll_width(page)
    assert inner_width == PHONE["width"]
    assert scroll_width <= inner_width
    # nothing is cut off inside a table either: every cell fits in its table
    overflowing = page.evaluate("""() => [...document.querySelectorAll('tbody td, tbody th')]
        .filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent.slice(0, 60))""")
    assert overflowing == []
    assert _tables_fit(page) == []

    page.set_viewport_size(NARROW_PHONE)
    assert page.evaluate("innerWidth") == NARROW_PHONE["width"]
    assert _overflow(page) == []

    page.set_viewport_size(PHONE)
    if rule_page and page.locator("main details.toc").count():
        _shows_the_section_being_read(page)

    # text at 200%: the default font size doubled, which rem, em and media queries in em
    # follow (the open document is laid out again, as a fresh load at that size would be)
    tab.font_sizes(DOUBLE_FONT_SIZES)
    assert _root_font_size(page) == 32
    assert _overflow(page) == []
    # the header's name, search, language and menu stay on the screen, each usable
    outside = page.evaluate("""() => [...document.querySelectorAll(
            '.brand, .search-open:not([hidden]), .lang-menu > summary, .menu-button')]
        .map(e => [e.className, e.getBoundingClientRect()])
        .filter(([, r]) => r.left < 0 || r.right > innerWidth || r.width < 24 || r.height < 24)
        .map(([c]) => c)""")
    assert outside == []
    if rule_page:  # and within two screens at 200 % text
        top = _first_text_top(page)
        assert top < 2 * PHONE["height"] - 40, f"at 200 %, the first rule text starts at {top} px"
    page.set_viewport_size(NARROW_PHONE)  # and on the narrowest phone, still at 200 %
    assert _overflow(page) == []


def _shows_the_section_being_read(page: Page) -> None:
    """Read on to the page's last section (or the page's end, if it is shorter): the bar
    under the header names the section whose heading is above the reading line, a third
    down the screen (here.js), and the page is still no wider than the phone; then back to
    the top, where the bar goes."""
    last = page.eval_on_selector_all("main details.toc a[href^='#']",
                                     "as => as.map(a => a.hash.slice(1))")[-1]
    page.evaluate("""id => { const h = document.getElementById(id);
        scrollTo(0, h.getBoundingClientRect().top + scrollY - 150); }""", last)
    # at the page's foot, where the last sections cannot rise to that line, the last
    # heading in view (here.js)
    reading = page.evaluate("""() => {
        const foot = scrollY + innerHeight >= document.documentElement.scrollHeight - 2;
        return [...document.querySelectorAll('main details.toc a')]
            .map(a => document.getElementById(a.hash.slice(1)))
            .filter(h => h && h.getBoundingClientRect().top <= (foot ? innerHeight - 1
                                                                 : innerHeight / 3))
            .map(h => h.textContent.trim()).pop(); }""")
    assert reading, "the page scrolls past a heading"
    page.wait_for_function("t => document.querySelector('.here-now')?.textContent === t",
                           arg=reading)
    assert page.locator(".here").is_visible()
    scroll_width, inner_width = _scroll_width(page)
    assert scroll_width <= inner_width
    page.evaluate("scrollTo(0, 0)")
    page.wait_for_function("() => document.querySelector('.here').hidden")


def _first_text_top(page: Page) -> float:
    """Where the page's own text starts: its first paragraph or list item after the title,
    leaving out the ways around the page (breadcrumbs, contents, the sheet's link) and the
    notice of a partial translation."""
    return page.evaluate("""() => {
        const skip = '.breadcrumbs, .toc, .sheet-link, .notice, .example, .checker';
        const first = [...document.querySelectorAll('main p, main li')]
            .find(e => !e.closest(skip) && e.textContent.trim());
        return first.getBoundingClientRect().top + scrollY;
    }""")


def _root_font_size(page: Page) -> float:
    return page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")


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
                // knows the syllables); any other break is a fault. clientWidth is a whole
                // number of pixels and the line's own width is not: a word within 2 px of
                // it (id/sources at 200 %: 316.9 px in a 317 px line) may not fit.
                const wide = rects.reduce((w, q) => w + q.width, 0);
                const line = e.closest('p, li, td, th, dd, dt, h1, h2, h3, a') || e;
                const ls = getComputedStyle(line);  // the line's width inside its padding
                const room = line.clientWidth - parseFloat(ls.paddingLeft)
                    - parseFloat(ls.paddingRight);
                if (tops.size > 1 && wide + 2 <= room)
                    out.push('broken word: ' + m[0]);
            }
        }
        return out;
    }""")


# -- one page of each template ----------------------------------------------------------------

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


# The templates with a language switcher, each from its English page.
SWITCHER_PAGES = [p for p in TEMPLATE_PAGES if p.lang == "en"]


@pytest.mark.parametrize("start", SWITCHER_PAGES, ids=[p.id for p in SWITCHER_PAGES])
def test_switcher_click_through(page: Page, start: SitePage) -> None:
    """Clicking the switcher leads to the same page in that language: from the English page
    to each other language in turn, and back to English, each click from the page the last
    one reached (a 404 page's switcher leads to the home page: the next click is made from
    that language's 404 page again)."""
    assert start.lang is not None
    here = start
    page.goto(here.path)
    for lang in (*(lang for lang in LANGS if lang != start.lang), start.lang):
        page.click(".lang-menu summary")
        link = page.locator(f'nav.languages a[hreflang="{lang}"]')
        with page.expect_navigation():
            link.click()
        assert _path(page.url) == "/" + here.same_page_in(lang)
        assert page.locator("html").get_attribute("lang") == lang
        here = page_at(start.path.replace(f"{start.lang}/", f"{lang}/", 1))
        if _path(page.url) != "/" + here.path:
            page.goto(here.path)


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


def test_keyboard_reaches_skip_link_switcher_and_main(tab: Tab, template_page: SitePage) -> None:
    page = tab.page
    tab.open(template_page.path, LAPTOP)
    page.keyboard.press("Tab")
    first = _focused(page)
    assert first["cls"] == "skip-link", first
    assert first["visible"], "the skip link shows when it has focus"
    assert first["outline"] >= 2, "visible focus indicator"

    # Tab on through the page: the language menu opens with Enter and Tab reaches every
    # language in it, then something inside main
    seen: list[dict[str, object]] = []
    for _ in range(60):
        page.keyboard.press("Tab")
        focused = _focused(page)
        seen.append(focused)
        assert focused["visible"], focused
        assert focused["outline"] >= 2, f"no visible focus indicator on {focused}"
        if focused["tag"] == "summary" and "lang-menu" in page.evaluate(
                "document.activeElement.parentElement.className"):
            page.keyboard.press("Enter")
        if focused["inMain"]:
            break
    switcher = {f["hreflang"] for f in seen if f["inLanguages"]}
    # (the chooser and the root 404 page have no switcher: their list is the choice)
    assert switcher == (set(LANGS) if template_page.lang else set())
    assert seen[-1]["inMain"], "Tab never reached the main content"

    # the skip link moves focus to main, and the next Tab stays inside it
    page.goto(template_page.path)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert _focused(page)["id"] == "main"
    page.keyboard.press("Tab")
    assert _focused(page)["inMain"]


def test_the_language_switch_keeps_the_section(page: Page) -> None:
    """The heading ids are the same in every language: switching keeps the reader's place."""
    page.goto("pl/turn/#laying-off")
    # clicked where they are on the screen, as a reader does: Playwright's own click first
    # scrolls the sticky header's element "into view", which moves the page, and the switch
    # leads to the section being read (here.js), which would then be another
    for selector in (".lang-menu summary", 'nav.languages a[hreflang="vi"]'):
        box = page.locator(selector).bounding_box()
        assert box, selector
        if selector.startswith("nav"):
            with page.expect_navigation():
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        else:
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert _path(page.url) == "/vi/turn/"
    assert urlsplit(page.url).fragment == "laying-off"
    top = page.eval_on_selector("#laying-off", "e => e.getBoundingClientRect().top")
    bar = page.eval_on_selector(".site-header", "e => e.getBoundingClientRect().bottom")
    assert bar - 1 <= top <= bar + 80, (top, bar)


def test_menus_work_by_keyboard_and_without_javascript(browser: Any, base_url: str) -> None:
    """On a phone, the page menu (a checkbox) and the language menu (a <details>) open and
    close by keyboard, with JavaScript off as well; Escape closes them where it is on."""
    for javascript in (False, True):
        context = browser.new_context(base_url=base_url, java_script_enabled=javascript,
                                      viewport=PHONE)
        try:
            page = context.new_page()
            page.goto("vi/melds/")
            assert page.locator(".sidebar").is_hidden()
            page.focus(".menu-toggle")
            page.keyboard.press("Space")
            assert page.locator(".sidebar").is_visible()
            assert page.locator('.sidebar a[aria-current="page"]').is_visible()
            if javascript:
                page.keyboard.press("Escape")
            else:
                page.keyboard.press("Space")
            assert page.locator(".sidebar").is_hidden()
            page.focus(".lang-menu summary")
            page.keyboard.press("Enter")
            assert page.locator('nav.languages a[hreflang="pl"]').is_visible()
            assert (page.locator(".search-open").is_visible()) == javascript
        finally:
            context.close()
