"""Finding one's way in the built site: each rule page's contents, previous and
next pages in reading order, and what every page's head and print footer need (the
``og:locale`` with its region, the build date).

The build calls two hooks: :func:`common_context` for every page and
:func:`page_context` for each content page. Search is in :mod:`site_builder.render.search`, the
quick-reference sheets in :mod:`site_builder.render.quickref`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import date
from types import SimpleNamespace as Item
from typing import Any

from babel import Locale
from babel.core import get_global
from babel.dates import format_date
from markupsafe import Markup

from site_builder.i18n.locales import bcp47, text_direction
from site_builder.i18n.translator import N_
from site_builder.project import (
    ABOUT_SLUG,
    SOURCE_LANG,
    STATUS_SLUG,
    page_path,
    page_url,
    relative,
    root_path,
)
from site_builder.render import search
from site_builder.render.markdown import Text
from site_builder.render.minify import compact_json
from site_builder.render.offline import ASSETS_DIR as ASSETS_DIR  # re-exported: its one home
from site_builder.render.offline import MANIFEST
from site_builder.render.quickref import links, sheet_for
from site_builder.sources.page import Page
from site_builder.sources.site import Site

# Pages with at least this many sections get a table of contents.
TOC_MIN_SECTIONS = 2

# The pages' Content-Security-Policy: their own files only. Pagefind fetches its index and
# runs it as WebAssembly, in a worker: pages with search need 'wasm-unsafe-eval'
# (compiling WebAssembly; it allows no JavaScript eval) and connect-src 'self' (fetching
# the index); the worker is covered by script-src 'self'.
CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; "
       "base-uri 'none'; form-action 'none'")
# A language folder's pages also link its web app manifest (manifest-src 'self'; its service
# worker is covered by script-src 'self'; see site_builder/render/offline.py).
SEARCH_CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; "
              "script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; manifest-src 'self'; "
              "base-uri 'none'; form-action 'none'")

#: What the site's scripts say in a language, in one file beside its manifest
#: (``<lang>/words.json``, :func:`site_words`), fetched when first needed
#: (``assets/lib/words.js``): the search box's question words (search.QUESTION_WORDS), its
#: empty result and the button that lists the results after the first ones; the language
#: menu's mark of a language saved offline and the notice of a newer version. In every page
#: they cost 300 to 500 bytes, which a reader who never searches pays on every page.
WORDS_FILE = "words.json"
# Translators: the only line of the search box's result list when no page matches
# what the reader typed; a full sentence.
NO_MATCH = N_("No page matches.")
# Translators: the button under the first search results that lists the others.
MORE_RESULTS = N_("More results")
# Translators: beside a language in the language menu whose pages this device has saved.
READY_OFFLINE = N_("ready offline")
# Translators: a notice at the top of a page when this device holds an older copy of the site
# (saved for offline reading) and the new one is ready; a "Show it" button follows.
NEWER = N_("A newer version of these rules is ready.")
# Translators: the button of the notice 'A newer version of these rules is ready.'
SHOW_NEWER = N_("Show it")


def site_words(lang: str, gettext: Callable[[str], str]) -> tuple[str, bytes]:
    """*lang*'s :data:`WORDS_FILE` and its bytes."""
    data = {"ignore": gettext(search.QUESTION_WORDS), "none": gettext(NO_MATCH),
            "more": gettext(MORE_RESULTS), "ready": gettext(READY_OFFLINE),
            "newer": gettext(NEWER), "show": gettext(SHOW_NEWER)}
    return f"{lang}/{WORDS_FILE}", compact_json(data).encode("utf-8")


def _attribute_safe(value: str) -> Markup:
    """*value*, a constant of ours, unescaped in a double-quoted attribute.

    >>> str(_attribute_safe("script-src 'self'"))
    "script-src 'self'"
    """
    if set(value) & set('"<>&'):
        raise ValueError(f"not safe unescaped in an attribute: {value!r}")
    return Markup(value)


@functools.cache
def og_locale(lang: str) -> str:
    """The Open Graph locale of *lang*: language and region, as Open Graph expects
    (``ms_MY``), from CLDR's likely subtags (via Babel).

    >>> [og_locale(lang) for lang in ("en", "ms", "pl", "vi", "id")]
    ['en_US', 'ms_MY', 'pl_PL', 'vi_VN', 'id_ID']
    """
    likely = get_global("likely_subtags").get(lang, lang)
    locale = Locale.parse(likely)
    return f"{locale.language}_{locale.territory}" if locale.territory else locale.language


def common_context(date: str | None, lang: str, path: str, href: Callable[[str], str]
                   ) -> dict[str, Any]:
    """What every page's head, search box and print footer take beyond the shared context
    (*date*: the build's, ISO 8601); *href* makes a link to an output file from the page
    at *path*."""
    return {"og_locale": og_locale(lang), "build_date": printed_date(date, lang),
            **search.context(lang, path, href)}


#: Where a language writes a date in running text otherwise than CLDR's long format:
#: Vietnamese says "ngày 2 tháng 12 năm 2026", not CLDR's "2 tháng 12, 2026" (vi review).
DATE_PATTERNS: dict[str, str] = {"vi": "d 'tháng' M 'năm' y"}


@functools.lru_cache(maxsize=64)
def printed_date(iso: str | None, lang: str) -> str | None:
    """The build date as the language writes it (CLDR's long date, through Babel).

    >>> printed_date("2026-12-01", "pl"), printed_date("2026-12-01", "en"), printed_date(None, "vi")
    ('1 grudnia 2026', 'December 1, 2026', None)
    >>> printed_date("2026-12-02", "vi")
    '2 tháng 12 năm 2026'
    """
    if iso is None:
        return None
    return format_date(date.fromisoformat(iso), DATE_PATTERNS.get(lang, "long"), locale=lang)


def toc(blocks: Sequence[Any]) -> list[Any]:
    """The page's sections (its ``##`` headings), for its table of contents; none when a
    page has fewer than :data:`TOC_MIN_SECTIONS`. Each heading's id comes from its English
    text (:func:`site_builder.sources.segment.slugify`), so a link to a section is the same in every
    language."""
    sections = [Item(id=b.id, text=b.text) for b in blocks
                if b.type == "heading" and b.level == 2]
    return sections if len(sections) >= TOC_MIN_SECTIONS else []


def page_context(nav: Any, path: str, lang: str, index: int, blocks: Sequence[Any]
                 ) -> dict[str, Any]:
    """A content page's contents, and its previous and next pages in reading order (the
    pages' ``order``); *nav* gives ``(page, title, description)`` by position."""
    def link(i: int) -> Any:
        if not 0 <= i < len(nav):
            return None
        page, title, _ = nav[i]
        return Item(href=relative(path, page_path(lang, page.slug)), title=title)

    return {"toc": toc(blocks), "prev_page": link(index - 1), "next_page": link(index + 1),
            "sheet": sheet_for(nav[index][0].slug)}


def common(site: Site, lang: str, slug: str | None, path: str,
            names: dict[str, str], absolute: bool = False) -> dict[str, Any]:
    """Context every template gets: links, switcher, alternates, metadata."""
    base = site.config.base_url
    root = root_path(base)  # the 404 pages link from the site's root: any host

    def href(target: str) -> str:
        return root + target if absolute else relative(path, target)

    switcher = []
    alternates = []
    if slug is not None:
        for other in site.languages:
            switcher.append(Item(lang=bcp47(other), name=names[other], current=other == lang,
                                 href=href(page_path(other, slug))))
            alternates.append(Item(hreflang=bcp47(other), href=page_url(base, other, slug)))
        default = base if slug == "index" else page_url(base, SOURCE_LANG, slug)
        alternates.append(Item(hreflang="x-default", href=default))
    else:
        for other in site.languages:
            switcher.append(Item(lang=bcp47(other), name=names[other], current=other == lang,
                                 href=href(page_path(other, "index"))))
    canonical = (base if path == "index.html" else page_url(base, lang, slug)) if slug else None
    return {
        "lang": bcp47(lang),
        "dir": text_direction(lang),
        "language_name": names[lang],
        "css": href(f"{ASSETS_DIR}/site.css"),
        "home": href(page_path(lang, "index")),
        "status_href": href(page_path(lang, STATUS_SLUG)),
        "switcher": switcher,
        "alternates": alternates,
        "canonical": canonical,
        # as written: a policy's quotes escaped (&#39;) cost 64 bytes a page, and it holds
        # no character that needs escaping in a double-quoted attribute (_attribute_safe)
        "csp": _attribute_safe(SEARCH_CSP if path.startswith(f"{lang}/") else CSP),
        "slug": slug,
        # a language folder's manifest; site.js imports offline.js, which registers its worker
        "offline": Item(manifest=href(f"{lang}/{MANIFEST}")) if path.startswith(f"{lang}/")
        else None,
        "nav": [],
        "all_pages": None,  # a large language's menu: see sidebar
        "sheets": links(lang, href, path) if path.startswith(f"{lang}/") else [],
        "score_href": href(page_path(lang, "score")) if path.startswith(f"{lang}/") else None,
        "about_href": href(page_path(lang, ABOUT_SLUG)) if ABOUT_SLUG in site.slugs else None,
        **common_context(site.date, lang, path, href),
    }


#: A language of at most this many pages lists them all in every page's menu, as the
#: site of about 20 pages a language always has.
MENU_ALL = 40
#: Beyond :data:`MENU_ALL`, a page's menu lists its section of the reading order: this many
#: pages around it (the first ones on a page outside the reading order), under a link to
#: the home page's list of every page; the whole list is drawn once, in the language's
#: :data:`MENU_FILE`, which ``assets/menu.js`` puts in the section's place. Every page's
#: menu listing every page made each page's size, and its drawing, grow with the pages,
#: and the site's with their square (85 KB of links a page at 1,000 pages a language).
MENU_SECTION = 15
#: The whole list of a language's pages (``<lang>/menu.html``), links relative to it: an
#: HTML fragment, the ``<li>`` items of the menu's list.
MENU_FILE = "menu.html"


def nav_items(nav: Sequence[tuple[Page, Text, Text]], path: str, lang: str,
              current: str | None, base: str | None = None) -> list[Item]:
    """The navigation of the page at *path* (*current*: its slug, None if it is not a
    content page): every page of *nav*, linked from it (from *base*, the site's root path,
    on the 404 pages)."""
    return [Item(title=title, description=description, current=page.slug == current,
                 href=(base + page_path(lang, page.slug)) if base
                 else relative(path, page_path(lang, page.slug)))
            for page, title, description in nav]


def section(count: int, index: int | None) -> range:
    """The positions in the reading order of the pages that the menu of the page at *index*
    (None: a page outside the reading order) lists, of *count* pages: all of them, or
    :data:`MENU_SECTION` around it.

    >>> section(20, 7), section(1000, 0), section(1000, 500), section(1000, 999)
    (range(0, 20), range(0, 15), range(493, 508), range(985, 1000))
    """
    if count <= MENU_ALL:
        return range(count)
    at = 0 if index is None else index
    start = max(0, min(at - MENU_SECTION // 2, count - MENU_SECTION))
    return range(start, start + MENU_SECTION)


def sidebar(nav: list[tuple[Page, Text, Text]], path: str, lang: str, current: str | None,
            draw: Callable[[Item], str], base: str | None = None, index: int | None = None,
            every: bool = False) -> dict[str, Any]:
    """The navigation of the page at *path* (``nav``, as :func:`nav_items` gives it: every
    page with *every*, as the home and 404 pages list them, else those of its menu), and
    the menu's list (``sidebar``): each link drawn by *draw*, the ``sidebar_item`` macro of
    ``_nav.html``, which draws each distinct link once per language
    (:data:`~site_builder.sources.templates.MEMOIZED_MACROS`). *index*: the page's position
    in *nav*, if it has one.

    A language of more than :data:`MENU_ALL` pages lists the page's :func:`section` only,
    under ``all_pages``: a link to the home page's list of every page, and the address of
    the language's :data:`MENU_FILE` (``base.html``, ``assets/menu.js``); else
    ``all_pages`` is None."""
    shown = section(len(nav), index)
    items = nav_items(nav if every else nav[shown.start:shown.stop], path, lang, current, base)
    drawn = items[shown.start:shown.stop] if every else items
    all_pages = None
    if len(shown) < len(nav):
        def link(target: str) -> str:
            return base + target if base else relative(path, target)

        all_pages = Item(href=link(page_path(lang, "index")) + "#rule-pages",
                         menu=link(f"{lang}/{MENU_FILE}"))
    return {"nav": items, "sidebar": Markup("".join(draw(item) for item in drawn)),
            "all_pages": all_pages}


def menu_file(nav: list[tuple[Page, Text, Text]], lang: str, draw: Callable[[Item], str]
              ) -> tuple[str, bytes] | None:
    """The language's :data:`MENU_FILE` and its content, every page's link drawn by *draw*
    as the menus draw them (relative to the file); None for a language whose menus list
    every page."""
    if len(nav) <= MENU_ALL:
        return None
    path = f"{lang}/{MENU_FILE}"
    items = nav_items(nav, path, lang, None)
    return path, "".join(draw(item) for item in items).encode("utf-8")
