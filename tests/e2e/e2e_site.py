"""What the e2e tests expect of the built site: its pages, by language, and the tool paths."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "node_modules"
SCREENSHOTS = ROOT / "screenshots"
CHROMIUM = "/usr/bin/chromium"

# The site this test suite expects; test_site_files checks that the build makes exactly these.
LANGS = ("en", "id", "ms", "pl", "vi")
SLUGS = (*sorted(p.stem for p in (ROOT / "content").glob("*.md") if p.stem != "index"),
         "translation-status")
# The rule pages in reading order (their front matter's ``order:``), after the home page.
READING_ORDER = tuple(p.stem for p in sorted(
    (p for p in (ROOT / "content").glob("*.md") if p.stem != "index"),
    key=lambda p: int(re.search(r"^order:\s*(\d+)", p.read_text(encoding="utf-8"), re.M)[1])))
# The quick-reference sheets (site_builder/quickref.py).
SHEETS = ("quick-reference/rami", "quick-reference/cardverse")
# The pages whose front matter says `checker: true`: they alone load the checker's scripts.
CHECKER_SLUGS = ("first-meld",)
CHECKER_SCRIPTS = ("assets/checker-rules.js", "assets/checker.js")
CHECKER_CSS = "assets/checker.css"


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
                  for slug in SLUGS + SHEETS]
        pages.append(SitePage(f"{lang}/404.html", f"{lang}/404.html", lang, None))
    return pages


PAGES = _pages()


@dataclass(frozen=True)
class ServedSite:
    """The build under test: its folder, and the address it is served at."""

    dir: Path
    url: str
