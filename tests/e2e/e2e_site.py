"""What the e2e tests expect of the built site: its pages, by language, and the tool paths."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from site_builder.sources.page import parse_page

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "node_modules"
CHROMIUM = "/usr/bin/chromium"

# The site this test suite expects; test_site_files checks that the build makes exactly these.
LANGS = ("en", "id", "ms", "pl", "vi")
SLUGS = (*sorted(p.stem for p in (ROOT / "content").glob("*.md") if p.stem != "index"),
         "translation-status")


def _order(path: Path) -> int:
    """A page's ``order:``, as the site's own front-matter reader reads it."""
    page, problems = parse_page(path.read_text(encoding="utf-8"), f"content/{path.name}")
    assert page is not None, problems
    return page.order


# The rule pages in reading order (their front matter's ``order:``), after the home page.
READING_ORDER = tuple(p.stem for p in sorted(
    (p for p in (ROOT / "content").glob("*.md") if p.stem != "index"), key=_order))
# The quick-reference sheets, as the suite expects them (the build's list is
# site_builder/project.py's SHEETS; test_site_files checks that it makes exactly these).
SHEETS = ("quick-reference/rami", "quick-reference/cardverse")
# The pages of tools for the table: the score keeper (site_builder/render/score.py).
TOOLS = ("score",)
# The pages whose front matter says `checker: true`: they alone load the checker's scripts.
CHECKER_SLUGS = ("first-meld", "melds")
CHECKER_SCRIPTS = ("assets/checker-rules.js", "assets/checker-form.js",
                   "assets/checker-core.js", "assets/checker-notation.js")
CHECKER_CSS = "assets/checker.css"
# The practice table's page (`play: true`): its text (data), a classic script that speaks
# for a page opened from disk, and its module.
PLAY_SLUGS = ("play",)
PLAY_SCRIPTS = ("assets/play/disk.js", "assets/play/main.js")
# What the practice page loads before Start: its modules (the runtime loads on Start only).
PLAY_MODULES = ("board", "disk", "hand", "hash", "loader", "log", "main", "refusals", "review",
                "store", "text")
# The shared modules of templates/assets/lib/ that each island imports (facts.js is the
# build's): the site shell's on every page with search, the others' on their own pages.
LIB_MODULES = {
    "shell": ("elements", "facts", "storage", "text", "words"),
    "checker": ("cards", "elements", "facts", "text"),
    "score": ("elements", "facts", "storage", "text"),
    "play": ("cards", "elements", "facts", "storage", "text"),
}
AXE = NODE_MODULES / "axe-core" / "axe.min.js"
# A template's own behaviour (keyboard order, skip link, focus outline, the switcher's
# clicks) is checked on one page of each template, in English and in a language whose text
# is long: Vietnamese has, with Malay, the longest header and footer of the five.
TEMPLATE_LANGS = ("en", "vi")


def served_path(url: str) -> str:
    """The served path of a URL, with a trailing ``index.html`` dropped."""
    path = urlsplit(url).path
    return path[: -len("index.html")] if path.endswith("/index.html") else path


@dataclass(frozen=True)
class SitePage:
    """One HTML page of the built site, by its served path (``pl/first-meld/``)."""

    path: str
    file: str
    lang: str | None  # None for the language-neutral root pages (chooser, root 404)
    slug: str | None  # "index" for a language's home; None for 404 pages

    @property
    def searchable(self) -> bool:
        """Whether the page has the search box (every page in a language folder)."""
        return self.lang is not None

    @property
    def play(self) -> bool:
        return self.lang is not None and self.slug in PLAY_SLUGS

    @property
    def checker(self) -> bool:
        return self.lang is not None and self.slug in CHECKER_SLUGS

    @property
    def id(self) -> str:
        return self.path.strip("/") or "chooser"

    def same_page_in(self, lang: str) -> str:
        """Where the language switcher of this page should lead for ``lang``.

        A rule page leads to the same rule page; a 404 page or a root page leads
        to that language's rules index.
        """
        if self.lang is None or self.slug in (None, "index"):
            return f"{lang}/"
        return f"{lang}/{self.slug}/"


def _pages() -> list[SitePage]:
    pages = [SitePage("", "index.html", None, "index"),
             SitePage("404.html", "404.html", None, None)]
    for lang in LANGS:
        pages.append(SitePage(f"{lang}/", f"{lang}/index.html", lang, "index"))
        pages += [SitePage(f"{lang}/{slug}/", f"{lang}/{slug}/index.html", lang, slug)
                  for slug in SLUGS + SHEETS + TOOLS]
        pages.append(SitePage(f"{lang}/404.html", f"{lang}/404.html", lang, None))
        # what the offline worker shows of a page or a language not saved on this device
        pages.append(SitePage(f"{lang}/offline.html", f"{lang}/offline.html", lang, None))
    return pages


PAGES = _pages()
_BY_PATH = {p.path: p for p in PAGES}


def page_at(path: str) -> SitePage:
    """The page served at ``path`` (``"pl/first-meld/"``)."""
    return _BY_PATH[path]


# One page of each template: the chooser (chooser.html) and the root 404 page (404-root.html),
# and in each of TEMPLATE_LANGS the home page (home.html), a rule page and the checker's rule
# page (page.html, without and with the checker), a quick-reference sheet (quickref.html),
# the translation status (status.html) and the language's 404 page (404.html).
TEMPLATE_SLUGS = ("index", next(s for s in READING_ORDER if s not in CHECKER_SLUGS),
                  CHECKER_SLUGS[0], SHEETS[0], "translation-status", *TOOLS, None)


def template_page(lang: str, slug: str | None) -> SitePage:
    if slug is None:
        return page_at(f"{lang}/404.html")
    return page_at(f"{lang}/" if slug == "index" else f"{lang}/{slug}/")


TEMPLATE_PAGES = [page_at(""), page_at("404.html"),
                  *(template_page(lang, slug) for lang in TEMPLATE_LANGS
                    for slug in TEMPLATE_SLUGS)]


@dataclass(frozen=True)
class ServedSite:
    """The build under test: its folder, and the address it is served at."""

    dir: Path
    url: str
