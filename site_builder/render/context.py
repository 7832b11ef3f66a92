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
import re
import subprocess
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace as Item
from typing import Any

from babel import Locale
from babel.core import get_global

from site_builder.project import page_path
from site_builder.render import search
from site_builder.render.quickref import links
from site_builder.render.urls import relative

# Pages with at least this many sections get a table of contents.
TOC_MIN_SECTIONS = 2


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


def common_context(root: Path, lang: str, path: str, href: Callable[[str], str]
                   ) -> dict[str, Any]:
    """What every page's head, search box and print footer take beyond the shared context;
    *href* makes a link to an output file from the page at *path*."""
    return {"og_locale": og_locale(lang), "build_date": build_date(root),
            **search.context(lang, path, href)}


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
