"""The page menu of a language of many pages: each page lists its section of the reading
order under a link to every page, and the whole list is one file a language
(site_builder/render/context.py: sidebar, menu_file); a language of a few pages, as the real
site's, lists every page in every menu, as before. Built in this process, with the menu's
sizes lowered so that the real site's pages are "many"; the browser's side (assets/menu.js)
is in tests/e2e/test_navigation.py."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urljoin

import pytest
from conftest import keep_two_languages, run_cli

from site_builder.render import context

SIDEBAR_RE = re.compile(r'<nav class="sidebar site-nav".*?</nav>', re.S)
HREF_RE = re.compile(r'<a href="([^"#]*)(#[^"]*)?"')


def _sidebar(page: Path) -> str:
    found = SIDEBAR_RE.search(page.read_text(encoding="utf-8"))
    assert found, page
    return found.group(0)


def _targets(html: str, at: str) -> list[str]:
    """The output files *html*'s links lead to, from the output file *at*."""
    return [urljoin(at, m[1]) for m in HREF_RE.finditer(html) if m[1]]


def test_a_section_of_a_thousand_pages_menu() -> None:
    """The menu of a page of a 2,000-page language links MENU_SECTION pages, its own
    among them, and the list of every page: the same at every size."""
    nav = [(SimpleNamespace(slug=f"p{i}"), SimpleNamespace(html=f"P{i}", lang_attr=""), None)
           for i in range(2000)]

    def draw(item: SimpleNamespace) -> str:
        return f'<li><a href="{item.href}">{item.title.html}</a></li>'

    for index in (0, 1000, 1999):
        path = f"en/p{index}/index.html"
        got = context.sidebar(nav, path, "en", f"p{index}", draw, index=index)  # type: ignore[arg-type]
        assert len(got["nav"]) == got["sidebar"].count("<li>") == context.MENU_SECTION
        assert [i.current for i in got["nav"]].count(True) == 1
        assert got["all_pages"].menu == "../menu.html"
        assert got["all_pages"].href == "../index.html#rule-pages"
    whole = context.menu_file(nav, "en", draw)  # type: ignore[arg-type]
    assert whole is not None and whole[0] == "en/menu.html"
    assert whole[1].decode().count("<li>") == 2000
    assert 'href="p1999/index.html"' in whole[1].decode()


@pytest.mark.parametrize("large", [False, True], ids=["a few pages", "many pages"])
def test_the_menus_of_a_built_site(project: Path, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch, large: bool) -> None:
    """Many pages: each page's menu lists its section (its own page marked) under a link to
    the home page's list of every page, and names the language's menu.html, which lists every
    page the home page lists, each a built page. A few pages (the real site): every menu lists
    every page, and there is no menu.html."""
    if large:
        monkeypatch.setattr(context, "MENU_ALL", 4)
        monkeypatch.setattr(context, "MENU_SECTION", 5)
    root = keep_two_languages(project)
    out = tmp_path / "dist"
    result = run_cli("build", "--root", str(root), "--out", str(out), "--no-cache")
    assert result.code == 0, result.err
    home = (out / "en" / "index.html").read_text(encoding="utf-8")
    index = re.search(r'<h2 id="rule-pages">.*?</ul>', home, re.S)
    assert index is not None
    every = _targets(index.group(0), "en/index.html")
    assert len(every) > 10, every
    for lang in ("en", "pl"):
        listing = [t.replace("en/", f"{lang}/", 1) for t in every]  # the same in each
        pages = sorted(out.glob(f"{lang}/*/index.html"))
        assert len(pages) > 10
        for page in pages:
            at = page.relative_to(out).as_posix()
            sidebar = _sidebar(page)
            pages_list = sidebar.split('<li class="sheet">')[0]  # not the sheets
            if large:  # nor what the menu has above the pages (the score sheet)
                pages_list = pages_list[pages_list.find('<li class="all-pages"'):]
            linked = _targets(pages_list, at)
            if not large:
                assert 'data-menu' not in sidebar
                assert set(listing) <= set(linked), at
                continue
            menu = re.search(r'<li class="all-pages" data-menu="([^"]+)"><a href="([^"]+)">',
                             sidebar)
            assert menu, at
            assert urljoin(at, menu[1]) == f"{lang}/menu.html"
            assert menu[2] == "../index.html#rule-pages"
            assert 1 + 5 == len(linked), (at, linked)  # the home page's list, the section
            if at in listing:
                assert '<a href="index.html" aria-current="page"' in sidebar, at
        whole = out / lang / "menu.html"
        assert whole.is_file() == large
        if large:
            listed = _targets(whole.read_text(encoding="utf-8"), f"{lang}/menu.html")
            # every page, the home page first, as the home page lists the others
            assert listed == [f"{lang}/index.html", *listing], listed
            assert all((out / t).is_file() for t in listed), listed
