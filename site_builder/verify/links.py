"""Links between pages: every relative link leads to a page of the site, and every
``#anchor`` to a section of its page."""

from __future__ import annotations

import itertools
import posixpath
from collections.abc import Iterable
from urllib.parse import urljoin, urlsplit

from site_builder.errors import Problem
from site_builder.project import SOURCE_LANG, page_folder
from site_builder.sources.page import PAGE_IDS, Heading, Page
from site_builder.sources.segment import link_targets


def link_problems(pages: list[Page], complete: bool = True,
                  generated: Iterable[str] = ()) -> list[Problem]:
    """A problem for each relative link in *pages* that leads to no page of the site, or
    to no section of its page (a heading's id). The English text is enough: a translation
    keeps the links of its source (:mod:`site_builder.i18n.checks`). With *complete* false,
    some page did not read: a link to an unknown page may be to it, and is let pass.
    *generated*: the folders of the pages the build makes in each language (``a/b``), which
    a link may lead to as well (without an anchor check).

    >>> from site_builder.sources.page import Paragraph, Segment
    >>> def page(slug, *blocks):
    ...     return Page(f"content/{slug}.md", slug, 0, Segment(slug, 2), Segment("d", 5), blocks)
    >>> pages = [page("index", Paragraph(Segment("[a](melds/#sets) [b](#nope)", 8))),
    ...          page("melds", Heading(2, Segment("Sets", 8), "sets"),
    ...               Paragraph(Segment("[c](index/) [d](../#top) [e](https://x.org/)", 10)),
    ...               Paragraph(Segment("[f](../../pl/)", 12)))]
    >>> for problem in link_problems(pages): print(problem.line, problem.message.split(";")[0])
    8 link target '#nope' leads to no section of this page: it has no headings
    10 link target 'index/' leads to no page of the site
    12 link target '../../pl/' leads to no page of the site
    >>> print(*(p.message.split("; ")[1] for p in link_problems(pages)[1:]), sep="\\n")
    did you mean '../'?
    link to a page as seen from this one: ../ (the home page), or '#id' for a section of this page
    """
    by_path: dict[str, Page | None] = {_folder(page.slug): page for page in pages}
    by_path.update((_folder(folder), None) for folder in generated)
    problems = []
    for page in pages:
        for segment in page.segments():
            targets = link_targets(segment.text)
            for index, target in enumerate(targets):
                why = _broken_link(target, page, by_path, complete)
                if why is not None:  # the line of this link, the nth to this target
                    nth = targets[:index + 1].count(target)
                    def holds(text: str, target: str = target, nth: int = nth) -> bool:
                        return link_targets(text).count(target) >= nth
                    line = segment.line_where(holds)
                    problems.append(Problem(page.source, line,
                                            f"link target {target!r} {why}"))
    return problems


def _broken_link(target: str, page: Page, by_path: dict[str, Page | None], complete: bool
                 ) -> str | None:
    """Why the link *target* on *page* leads nowhere, or None."""
    if urlsplit(target).scheme:
        return None  # http(s) or mailto: other schemes are refused with the segment
    if target.startswith("//"):
        return "leaves the site without naming a scheme; write https://..."
    if target.startswith("/"):
        return ("is an absolute path, which breaks when the site is published in a folder; "
                "write it as seen from this page, e.g. '../melds/'")
    here = _folder(page.slug)
    resolved = urlsplit(urljoin("https://site.invalid" + here, target))
    path = resolved.path.removesuffix("index.html")
    if path not in by_path:
        if not complete:
            return None
        return f"leads to no page of the site; {_page_hint(path, here, by_path)}"
    found, anchor = by_path[path], resolved.fragment
    if not anchor or found is None:  # a page the build makes: its ids are the templates'
        return None
    ids = [b.id for b in found.blocks if isinstance(b, Heading)]
    if anchor in ids or anchor in PAGE_IDS or (found.checker and anchor == "checker"):
        return None
    where = "this page" if found is page else found.source
    if not ids:
        return f"leads to no section of {where}: it has no headings"
    shown = ", ".join("#" + i for i in ids[:15]) + (", ..." if len(ids) > 15 else "")
    return f"leads to no section of {where}: its headings' ids are {shown}"


def _page_hint(path: str, here: str, by_path: dict[str, Page | None]) -> str:
    """How to link from the page at *here* to a page, for a link that resolved to *path*."""
    def href(to: str) -> str:
        return posixpath.relpath(to, here) + "/"

    slug = path.rstrip("/").rsplit("/", 1)[-1].lower()
    if slug and _folder(slug) in by_path and _folder(slug) != here:
        return f"did you mean '{href(_folder(slug))}'?"
    # the first 15 only: a site of many pages, each with a broken link, would otherwise
    # make every page's link once for each of them (the square of the pages)
    others = itertools.islice((to for to in by_path if to != here), 16)
    hrefs = [href(to) + (" (the home page)" if to == _folder("index") else "")
             for to in others]
    shown = ", ".join(hrefs[:15]) + (", ..." if len(hrefs) > 15 else "")
    return (f"link to a page as seen from this one: {shown}, or '#id' for a section of "
            "this page")


def _folder(slug: str) -> str:
    """The folder of a page in one language (the same in every language)."""
    return page_folder(SOURCE_LANG, slug)
