"""The built files themselves, without a browser: the expected pages, their weight, what
blocks rendering, validity, and what the HTML alone establishes about finding one's way
(heading ids alike in every language, contents, the previous/next chain, og:locale, a
language's 404 list)."""

from __future__ import annotations

import gzip
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import pytest

from .e2e_site import (
    CHECKER_SCRIPTS,
    LANGS,
    LIB_MODULES,
    NODE_MODULES,
    PAGES,
    PLAY_SCRIPTS,
    READING_ORDER,
    ROOT,
    ServedSite,
    SitePage,
    page_at,
    served_path,
)

pytestmark = pytest.mark.e2e

# A page's weight: its HTML under 30 KB uncompressed, and the page plus the stylesheet under
# 30 KB as a static host sends them (gzip). The stylesheet is one file for the whole site, so
# a reader pays for it once; with the complete rulebook the longest pages (CardVerse, melds)
# no longer fit 30 KB together with it uncompressed.
BUDGET = 30 * 1024
CSS = "assets/site.css"
VNU = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"


class _Head(HTMLParser):
    """Collects what can block rendering or run code: stylesheets, scripts, styles, imports."""

    def __init__(self) -> None:
        super().__init__()
        self.stylesheets: list[str] = []
        self.scripts: list[dict[str, str | None]] = []
        self.styles = 0
        self.style_attrs = 0
        self.event_handlers: list[str] = []
        self.preloads: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        rel = (a.get("rel") or "").lower().split()
        if tag == "link" and "stylesheet" in rel:
            self.stylesheets.append(a.get("href") or "")
        if tag == "link" and ({"preload", "modulepreload", "import"} & set(rel)):
            self.preloads.append(a.get("href") or "")
        if tag == "script":
            self.scripts.append(a)
        if tag == "style":
            self.styles += 1
        if "style" in a:
            self.style_attrs += 1
        self.event_handlers += [f"<{tag} {k}>" for k in a if k.startswith("on")]


def _parse(path: Path) -> _Head:
    head = _Head()
    head.feed(path.read_text(encoding="utf-8"))
    head.close()
    return head


def test_the_build_makes_exactly_the_expected_pages(site_files: ServedSite) -> None:
    built = sorted(p.relative_to(site_files.dir).as_posix()
                   for p in site_files.dir.rglob("*.html"))
    assert built == sorted(p.file for p in PAGES)
    for name in ("sitemap.xml", "robots.txt", CSS):
        assert (site_files.dir / name).is_file(), name


def test_page_stays_under_30_kb(site_files: ServedSite, site_page: SitePage) -> None:
    html = (site_files.dir / site_page.file).read_bytes()
    css = (site_files.dir / CSS).read_bytes()
    assert len(html) < BUDGET, f"{site_page.file}: {len(html)} B >= {BUDGET} B"
    sent = len(gzip.compress(html, mtime=0)) + len(gzip.compress(css, mtime=0))
    assert sent < BUDGET, f"{site_page.file} + {CSS}: {sent} B gzipped >= {BUDGET} B"


def test_only_one_stylesheet_blocks_rendering(site_files: ServedSite, site_page: SitePage) -> None:
    page_file = site_files.dir / site_page.file
    head = _parse(page_file)
    assert len(head.stylesheets) == 1, head.stylesheets
    href = head.stylesheets[0]
    if href.startswith("/"):  # the 404 pages link from the site's root, served at any path
        assert href == "/" + CSS
    else:
        assert (page_file.parent / href).resolve() == (site_files.dir / CSS).resolve()
    # no JavaScript but the search client, a deferred module, and on the checker's pages
    # the checker's text (data, not code) and its two deferred scripts: the pages read
    # without them
    scripts = head.scripts
    if site_page.searchable:
        assert scripts[0] == {"type": "module", "src": href.replace("site.css", "site.js")}
        scripts = scripts[1:]
    if site_page.slug == "score":  # its words, then its module (the page is a blank sheet without)
        assert scripts == [{"type": "application/json", "id": "score-data"},
                           {"type": "module", "src": href.replace("site.css", "score/page.js")}]
        scripts = []
    if site_page.checker:
        assert scripts[0] == {"type": "application/json", "id": "checker-text"}
        scripts = scripts[1:]
        # the rule data, deferred, then the form's module (deferred too), which imports
        # checker-core.js and checker-notation.js
        assert [set(s.keys()) for s in scripts] == [{"defer", "src"}, {"type", "src"}], scripts
        assert scripts[1]["type"] == "module"
        assert [(page_file.parent / (s["src"] or "")).resolve() for s in scripts] == [
            (site_files.dir / name).resolve() for name in CHECKER_SCRIPTS[:2]]
    elif site_page.play:
        assert scripts[0] == {"type": "application/json", "id": "play-text"}
        assert [s["src"] and (page_file.parent / s["src"]).resolve() for s in scripts[1:]] == [
            (site_files.dir / name).resolve() for name in PLAY_SCRIPTS]
        assert "defer" in scripts[1] and scripts[2]["type"] == "module", scripts
    else:
        assert scripts == [], "no other JavaScript: the pages must read without it"
    assert head.event_handlers == []
    assert head.styles == 0 and head.style_attrs == 0, "inline styles: CSP style-src 'self'"
    assert head.preloads == []


def test_the_checker_script_and_its_rule_data_stay_under_32_kb(site_files: ServedSite) -> None:
    """The checker's own scripts and the shared modules that only it needs on a page with
    search (which loads the others already)."""
    own = [*CHECKER_SCRIPTS, *(f"assets/lib/{name}.js" for name in LIB_MODULES["checker"]
                               if name not in LIB_MODULES["shell"])]
    size = sum((site_files.dir / name).stat().st_size for name in own)
    assert size < 32 * 1024, f"{own}: {size} B"


def test_the_stylesheet_loads_nothing_else(site_files: ServedSite) -> None:
    css = (site_files.dir / CSS).read_text(encoding="utf-8")
    assert "@import" not in css
    assert "@font-face" not in css, "system fonts only"
    assert "url(" not in css


@pytest.mark.slow  # a Java start and the whole site: in the full run
def test_nu_html_checker_finds_no_error(site_files: ServedSite) -> None:
    java = shutil.which("java")
    assert java, "Java (for the Nu Html Checker) is missing: run `bash scripts/setup`"
    assert VNU.is_file(), f"{VNU} is missing: run `bash scripts/setup`"
    result = subprocess.run(
        [java, "-jar", str(VNU), "--errors-only", "--skip-non-html", "--also-check-css",
         "--format", "gnu", str(site_files.dir)],
        capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


# -- what the HTML alone says about finding one's way ----------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


@dataclass
class Element:
    """An element of a parsed page: enough of a DOM for the selectors below."""

    tag: str
    attrs: dict[str, str]
    parent: Element | None = None
    children: list[Element] = field(default_factory=list)

    def has_class(self, name: str) -> bool:
        return name in self.attrs.get("class", "").split()

    def within(self, match: Callable[[Element], bool]) -> bool:
        """Whether an ancestor matches."""
        node = self.parent
        while node is not None:
            if match(node):
                return True
            node = node.parent
        return False

    def iter(self) -> Iterator[Element]:
        """This element's descendants, in document order."""
        for child in self.children:
            yield child
            yield from child.iter()

    def select(self, match: Callable[[Element], bool]) -> list[Element]:
        return [e for e in self.iter() if match(e)]


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.root = self.current = Element("#document", {})

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs}, self.current)
        self.current.children.append(element)
        if tag not in VOID:
            self.current = element

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.current.children.append(Element(tag, {k: v or "" for k, v in attrs}, self.current))

    def handle_endtag(self, tag: str) -> None:
        node: Element | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent


def _tree(site: ServedSite, page: SitePage) -> Element:
    parser = _Tree()
    parser.feed((site.dir / page.file).read_text(encoding="utf-8"))
    parser.close()
    return parser.root


def _in_main(e: Element) -> bool:
    return e.within(lambda a: a.tag == "main")


def _served(site: ServedSite, page: SitePage, href: str) -> str:
    """Where a link of *page* leads, as a served path (``/pl/turn/``)."""
    return served_path(urljoin(site.url + page.path, href))


def _page_served_at(path: str) -> SitePage:
    return page_at(path.lstrip("/"))


RULE_PAGES = [p for p in PAGES if p.slug in READING_ORDER and not p.play]  # the table: no contents


@pytest.mark.parametrize("slug", READING_ORDER)
def test_heading_ids_are_the_same_in_every_language(site_files: ServedSite, slug: str) -> None:
    ids = {}
    for lang in LANGS:
        tree = _tree(site_files, page_at(f"{lang}/{slug}/"))
        ids[lang] = [h.attrs["id"] for h in tree.select(
            lambda e: e.tag in ("h2", "h3") and "id" in e.attrs and _in_main(e))]
    assert ids["en"] and all(found == ids["en"] for found in ids.values()), ids


@pytest.mark.parametrize("rule_page", RULE_PAGES, ids=[p.id for p in RULE_PAGES])
def test_contents_lead_to_the_sections_and_headings_link_to_themselves(
        site_files: ServedSite, rule_page: SitePage) -> None:
    """The contents list every section (``main h2[id]``) in order, and each section's heading
    links to itself; test_navigation clicks the contents of one language's rule pages."""
    tree = _tree(site_files, rule_page)
    links = [a.attrs.get("href", "") for a in tree.select(
        lambda e: e.tag == "a" and e.within(lambda p: p.has_class("toc")))]
    headings = tree.select(lambda e: e.tag == "h2" and "id" in e.attrs and _in_main(e))
    assert len(links) == len(headings) >= 2
    assert links == ["#" + h.attrs["id"] for h in headings]
    for heading in headings:
        assert [a.attrs.get("href") for a in heading.select(lambda e: e.tag == "a")] == [
            "#" + heading.attrs["id"]]


def _reading_order() -> list[str]:
    """The content pages by their front matter's ``order`` (the home page first)."""
    pages = []
    for source in (ROOT / "content").glob("*.md"):
        text = source.read_text(encoding="utf-8")
        order = int(re.search(r"^order:\s*(-?\d+)", text, re.M).group(1))  # type: ignore[union-attr]
        slug = re.search(r"^slug:\s*(\S+)", text, re.M).group(1)  # type: ignore[union-attr]
        pages.append((order, slug))
    return [slug for _, slug in sorted(pages)]


def _pager_link(site: ServedSite, path: str, rel: str) -> str | None:
    """Where the page served at *path* leads by its ``.pager a[rel=REL]``, if it has one."""
    page = _page_served_at(path)
    links = _tree(site, page).select(lambda e: e.tag == "a" and e.attrs.get("rel") == rel
                                     and e.within(lambda p: p.has_class("pager")))
    return _served(site, page, links[0].attrs["href"]) if links else None


@pytest.mark.parametrize("lang", LANGS)
def test_previous_and_next_follow_the_reading_order(site_files: ServedSite, lang: str) -> None:
    order = _reading_order()
    assert order[1:] == list(READING_ORDER)
    expected = [f"/{lang}/" if slug == "index" else f"/{lang}/{slug}/" for slug in order]
    seen = [expected[1]]
    for rel in ("next", "prev"):
        while len(seen) <= 2 * len(expected) and (
                target := _pager_link(site_files, seen[-1], rel)) is not None:
            seen.append(target)
        if rel == "next":
            assert seen == expected[1:]
    assert seen == expected[1:] + expected[::-1][1:]


@pytest.mark.parametrize("lang", LANGS)
def test_language_404_lists_its_pages(site_files: ServedSite, lang: str) -> None:
    page = page_at(f"{lang}/404.html")
    tree = _tree(site_files, page)
    listed = {_served(site_files, page, a.attrs["href"])
              for a in tree.select(lambda e: e.tag == "a" and "href" in e.attrs and _in_main(e))}
    assert {f"/{lang}/{slug}/" for slug in READING_ORDER} <= listed
    assert len(tree.select(lambda e: e.has_class("search"))) == 1


def test_og_locale_has_a_region(site_files: ServedSite) -> None:
    expected = {"en": "en_US", "ms": "ms_MY", "pl": "pl_PL", "vi": "vi_VN", "id": "id_ID"}
    for lang, locale in expected.items():
        tree = _tree(site_files, page_at(f"{lang}/first-meld/"))
        found = [m.attrs.get("content") for m in tree.select(
            lambda e: e.tag == "meta" and e.attrs.get("property") == "og:locale")]
        assert found == [locale], (lang, found)
