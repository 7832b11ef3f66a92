"""The built files themselves: the expected pages, their weight, what blocks rendering, validity."""

from __future__ import annotations

import gzip
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from .e2e_site import CHECKER_SCRIPTS, NODE_MODULES, PAGES, ServedSite, SitePage

pytestmark = pytest.mark.e2e

# A page's weight: its HTML under 30 KB uncompressed, and the page plus the stylesheet under
# 30 KB as a static host sends them (gzip). The stylesheet is one file for the whole site, so
# a reader pays for it once; with the complete rulebook the longest pages (CardVerse, melds)
# no longer fit 30 KB together with it uncompressed (see the README's page weights).
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


def test_the_build_makes_exactly_the_expected_pages(served_site: ServedSite) -> None:
    built = sorted(p.relative_to(served_site.dir).as_posix()
                   for p in served_site.dir.rglob("*.html"))
    assert built == sorted(p.file for p in PAGES)
    for name in ("sitemap.xml", "robots.txt", CSS):
        assert (served_site.dir / name).is_file(), name


def test_page_stays_under_30_kb(served_site: ServedSite, site_page: SitePage) -> None:
    html = (served_site.dir / site_page.file).read_bytes()
    css = (served_site.dir / CSS).read_bytes()
    assert len(html) < BUDGET, f"{site_page.file}: {len(html)} B >= {BUDGET} B"
    sent = len(gzip.compress(html, mtime=0)) + len(gzip.compress(css, mtime=0))
    assert sent < BUDGET, f"{site_page.file} + {CSS}: {sent} B gzipped >= {BUDGET} B"


def test_only_one_stylesheet_blocks_rendering(served_site: ServedSite, site_page: SitePage) -> None:
    page_file = served_site.dir / site_page.file
    head = _parse(page_file)
    assert len(head.stylesheets) == 1, head.stylesheets
    href = head.stylesheets[0]
    if href.startswith("/"):  # the 404 pages link from the site's root, served at any path
        assert href == "/" + CSS
    else:
        assert (page_file.parent / href).resolve() == (served_site.dir / CSS).resolve()
    # no JavaScript but the search client, a deferred module, and on the checker's pages
    # the checker's text (data, not code) and its two deferred scripts: the pages read
    # without them
    scripts = head.scripts
    if site_page.searchable:
        assert scripts[0] == {"type": "module", "src": href.replace("site.css", "search.js")}
        scripts = scripts[1:]
    if site_page.checker:
        assert scripts[0] == {"type": "application/json", "id": "checker-text"}
        scripts = scripts[1:]
        assert [s.keys() == {"defer", "src"} for s in scripts] == [True, True], scripts
        assert [(page_file.parent / (s["src"] or "")).resolve() for s in scripts] == [
            (served_site.dir / name).resolve() for name in CHECKER_SCRIPTS]
    else:
        assert scripts == [], "no other JavaScript: the pages must read without it"
    assert head.event_handlers == []
    assert head.styles == 0 and head.style_attrs == 0, "inline styles: CSP style-src 'self'"
    assert head.preloads == []


def test_the_checker_script_and_its_rule_data_stay_under_20_kb(served_site: ServedSite) -> None:
    size = sum((served_site.dir / name).stat().st_size for name in CHECKER_SCRIPTS)
    assert size < 20 * 1024, f"{CHECKER_SCRIPTS}: {size} B"


def test_the_stylesheet_loads_nothing_else(served_site: ServedSite) -> None:
    css = (served_site.dir / CSS).read_text(encoding="utf-8")
    assert "@import" not in css
    assert "@font-face" not in css, "system fonts only"
    assert "url(" not in css


def test_nu_html_checker_finds_no_error(served_site: ServedSite) -> None:
    java = shutil.which("java")
    assert java, "Java (for the Nu Html Checker) is missing: run `bash scripts/setup`"
    assert VNU.is_file(), f"{VNU} is missing: run `bash scripts/setup`"
    result = subprocess.run(
        [java, "-jar", str(VNU), "--errors-only", "--skip-non-html", "--also-check-css",
         "--format", "gnu", str(served_site.dir)],
        capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
