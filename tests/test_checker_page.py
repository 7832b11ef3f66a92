"""The checker in the built site: on the pages that ask for it, and nowhere else."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import run_cli

from site_builder.render.checker_rules import ASSET, SCRIPT, rules_asset
from site_builder.sources.profiles import load_profiles


def test_only_checker_pages_get_the_checker_and_try_links(project: Path) -> None:
    out = project / "dist"
    result = run_cli("build", "--root", str(project), "--out", str(out))
    assert result.code == 0, result.err
    profiles, _, _ = load_profiles(project)
    assert (out / ASSET).read_bytes() == rules_asset(profiles)
    assert (out / SCRIPT).is_file()
    for lang in ("en", "pl", "vi"):
        page = (out / lang / "first-meld" / "index.html").read_text(encoding="utf-8")
        assert page.count("<form data-checker hidden>") == 1
        assert page.count('class="checker-off"') == 1  # what a reader without JavaScript sees
        assert page.count('<script type="application/json" id="checker-text">') == 1
        claims = re.findall(r'<tr data-claim="([^"]*)">', page)
        links = re.findall(r'<a class="try" href="#try=([^"]*)">', page)
        assert len(claims) == len(links) >= 9
        assert "accepted 52 51" in claims and "rami51:reference:QH+KH+AH%7CJK+7S+8S" in links
        assert "valid sequence 21" in claims and "rami51:reference:JK+7S+8S" in links
        for other in ("cardverse/index.html", "index.html", "translation-status/index.html",
                      "404.html"):
            html = (out / lang / other).read_text(encoding="utf-8")
            # no checker (the search client is on every page, the checker on its pages only)
            assert "data-checker" not in html and "checker.js" not in html
            assert "#try=" not in html


def test_a_page_without_the_flag_has_no_checker(project: Path) -> None:
    page = project / "content" / "first-meld.md"
    page.write_text(page.read_text(encoding="utf-8").replace("checker: true\n", ""),
                    encoding="utf-8")
    out = project / "dist"
    assert run_cli("build", "--root", str(project), "--out", str(out)).code == 0
    html = (out / "en" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert "checker.js" not in html and "data-claim" not in html and "#try=" not in html
