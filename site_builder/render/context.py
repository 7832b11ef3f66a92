"""Finding one's way in the built site (issue 16): each rule page's contents, previous and
next pages in reading order, and what every page's head and print footer need (the
``og:locale`` with its region, the build date).

The build calls two hooks: :func:`common_context` for every page and
:func:`page_context` for each content page. Search is in :mod:`site_builder.render.search`, the
quick-reference sheets in :mod:`site_builder.render.quickref`.
"""

from __future__ import annotations

import functools
import os
import posixpath
import re
import subprocess
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace as Item
from typing import Any

# Pages with at least this many sections get a table of contents.
TOC_MIN_SECTIONS = 2


@functools.cache
def og_locale(lang: str) -> str:
    """The Open Graph locale of *lang*: language and region, as Open Graph expects
    (``ms_MY``), from CLDR's likely subtags (via Babel).

    >>> [og_locale(lang) for lang in ("en", "ms", "pl", "vi", "id")]
    ['en_US', 'ms_MY', 'pl_PL', 'vi_VN', 'id_ID']
    """
    from babel import Locale
    from babel.core import get_global

    likely = get_global("likely_subtags").get(lang, lang)
    locale = Locale.parse(likely)
    return f"{locale.language}_{locale.territory}" if locale.territory else locale.language


@functools.cache
def build_date(root: Path) -> str | None:
    """The date printed on paper (ISO 8601, UTC), derived from the inputs so that the same
    inputs give the same bytes: ``SOURCE_DATE_EPOCH`` when it is set (the reproducible-builds
    convention), else the date of the git commit checked out in *root*, else none.

    (A file's modification time is not used: a fresh checkout would change it.)
    """
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        try:
            done = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%ct"],
                                  capture_output=True, text=True, timeout=10, check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        epoch = done.stdout.strip() if done.returncode == 0 else ""
    try:
        return datetime.fromtimestamp(int(epoch), UTC).date().isoformat()
    except (ValueError, OverflowError, OSError):
        return None


def root_path(base_url: str) -> str:
    """The path of the site's root in *base_url*, which the 404 pages link from: a 404
    page is served at any address, so its links cannot be relative, and with the host left
    out they work on any host (a local preview, a mirror).

    >>> root_path("https://rami.example.org/"), root_path("https://example.org/rami/")
    ('/', '/rami/')
    """
    from urllib.parse import urlsplit

    path = urlsplit(base_url).path or "/"
    return path if path.endswith("/") else path + "/"


def common_context(root: Path, lang: str, path: str, href: Callable[[str], str]
                   ) -> dict[str, Any]:
    """What every page's head, search box and print footer take beyond the shared context;
    *href* makes a link to an output file from the page at *path*."""
    from site_builder.render.search import context

    return {"og_locale": og_locale(lang), "build_date": build_date(root),
            **context(lang, path, href)}


def toc(blocks: Sequence[Any]) -> list[Any]:
    """The page's sections (its ``##`` headings), for its table of contents; none when a
    page has fewer than :data:`TOC_MIN_SECTIONS`. Each heading's id comes from its English
    text (:func:`site_builder.sources.segment.slugify`), so a link to a section is the same in every
    language."""
    sections = [Item(id=b.id, text=b.text) for b in blocks
                if b.type == "heading" and b.level == 2]
    return sections if len(sections) >= TOC_MIN_SECTIONS else []


def page_path(lang: str, slug: str) -> str:
    """The output file of a page: ``pl/index.html``, ``pl/first-meld/index.html``."""
    return f"{lang}/index.html" if slug == "index" else f"{lang}/{slug}/index.html"


def relative(from_file: str, to_file: str) -> str:
    """A relative link from one output file to another (works from ``file://``).

    >>> relative("pl/first-meld/index.html", "ms/first-meld/index.html")
    '../../ms/first-meld/index.html'
    >>> relative("index.html", "assets/site.css")
    'assets/site.css'
    """
    if ".." in from_file or ".." in to_file or from_file.startswith("/") \
            or to_file.startswith("/") or "//" in from_file or "//" in to_file \
            or "/./" in f"/{from_file}/{to_file}/":
        return posixpath.relpath(to_file, posixpath.dirname(from_file) or ".")
    src = from_file.split("/")[:-1]
    dst = to_file.split("/")
    common = 0
    while common < len(src) and common < len(dst) - 1 and src[common] == dst[common]:
        common += 1
    return "../" * (len(src) - common) + "/".join(dst[common:])


def page_context(nav: Any, path: str, lang: str, index: int, blocks: Sequence[Any]
                 ) -> dict[str, Any]:
    """A content page's contents, and its previous and next pages in reading order (the
    pages' ``order``); *nav* gives ``(page, title, description)`` by position."""
    def link(i: int) -> Any:
        if not 0 <= i < len(nav):
            return None
        page, title, _ = nav[i]
        return Item(href=relative(path, page_path(lang, page.slug)), title=title)

    from site_builder.render.quickref import links

    return {"toc": toc(blocks), "prev_page": link(index - 1), "next_page": link(index + 1),
            "sheets": links(lang, relative, path)}


def stylesheet(css: bytes) -> bytes:
    r"""The stylesheet as served: without its comments, and without the spaces around
    ``{ } ;`` and after ``,``, the start of lines and blank lines, which every page pays for
    (a page and the stylesheet stay under 30 KB). Strings in the stylesheet hold none of
    these characters (``content: " #"`` is kept as it is).

    >>> stylesheet(b"/* note */\na, b { color: red; }\n\n  p::after { content: \" #\"; }\n")
    b'a,b{color: red}\np::after{content: " #"}\n'
    """
    text = re.sub(rb"/\*.*?\*/", b"", css, flags=re.S)
    text = re.sub(rb"\s*([{};])\s*", rb"\1", text)
    text = re.sub(rb",\s+", b",", text).replace(b";}", b"}")
    lines = text.replace(b"}", b"}\n").splitlines()
    return b"".join(line.strip() + b"\n" for line in lines if line.strip())
