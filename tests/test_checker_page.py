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
        assert page.count('<form data-checker data-mode="opening" hidden>') == 1
        assert page.count('class="checker-off"') == 1  # what a reader without JavaScript sees
        assert page.count('<script type="application/json" id="checker-text">') == 1
        claims = re.findall(r'<tr data-claim="([^"]*)"[^>]*>', page)
        links = re.findall(r'<a class="try" href="#try=([^"]*)">', page)
        assert len(claims) == len(links) >= 9
        assert "accepted 52 51" in claims and "rami51:reference:QH+KH+AH%7CJK+7S+8S" in links
        assert "valid sequence 21" in claims and "rami51:reference:JK+7S+8S" in links
        for other in ("cardverse/index.html", "index.html", "translation-status/index.html",
                      "404.html"):
            html = (out / lang / other).read_text(encoding="utf-8")
            # no checker (the search client is on every page, the checker on its pages only)
            assert "data-checker" not in html and "checker-form.js" not in html
            assert "#try=" not in html


def test_a_page_without_the_flag_has_no_checker(project: Path) -> None:
    page = project / "content" / "first-meld.md"
    page.write_text(page.read_text(encoding="utf-8").replace("checker: true\n", ""),
                    encoding="utf-8")
    out = project / "dist"
    assert run_cli("build", "--root", str(project), "--out", str(out)).code == 0
    html = (out / "en" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert "checker-form.js" not in html and "data-claim" not in html and "#try=" not in html


def test_the_menu_offers_only_the_profiles_that_can_change_the_answer() -> None:
    """Derived from the profiles' rules, for one meld and for a first meld."""
    from conftest import ROOT

    from site_builder.render.checker_rules import MODES, offered, rules_table

    profiles, _, _ = load_profiles(ROOT)
    table, offer = rules_table(profiles), offered(profiles)
    first = next(iter(profiles))

    def rules(key: str, fields: tuple[str, ...]) -> list[list[object]]:
        return [[table[game][key][f] for f in fields] for game in sorted(table)]

    for mode, fields in MODES.items():
        keys, alias = offer[mode]["keys"], offer[mode]["alias"]
        assert keys[0] == first and set(alias) == set(profiles) and set(alias.values()) == set(keys)
        for key, profile in profiles.items():
            assert rules(key, fields) == rules(alias[key], fields), (mode, key)
            if not set(profile.overrides) & set(fields):  # changes nothing the checker reads
                assert alias[key] == first, (mode, key)
        for i, key in enumerate(keys):  # each one offered changes an answer
            assert all(rules(key, fields) != rules(other, fields) for other in keys[:i])
    # a profile that changes only points in hand, the ace or the discard changes no verdict
    for key, profile in profiles.items():
        if profile.overrides and set(profile.overrides) <= {
                "joker_hand_points", "unopened_hand_points", "ace_high", "discard_must_be_used"}:
            assert key not in offer["meld"]["keys"] and key not in offer["opening"]["keys"]


def test_melds_checks_one_meld_and_first_meld_a_first_meld(project: Path) -> None:
    from site_builder.render.checker_rules import offered

    out = project / "dist"
    assert run_cli("build", "--root", str(project), "--out", str(out)).code == 0
    profiles, _, _ = load_profiles(project)
    offer = offered(profiles)
    for lang in ("en", "pl"):
        for slug, mode in (("melds", "meld"), ("first-meld", "opening")):
            html = (out / lang / slug / "index.html").read_text(encoding="utf-8")
            assert f'<form data-checker data-mode="{mode}" hidden>' in html
            menu = re.search(r'<select name="profile">(.*?)</select>', html, re.S)
            assert menu and re.findall(r'<option value="([^"]*)"', menu[1]) == \
                offer[mode]["keys"]
            assert ("data-add" in html) == (mode == "opening")
            assert ('data-field="verdict"' in html) == (mode == "opening")
            links = re.findall(r'<a class="try" href="#try=([^"]*)">', html)
            assert links and all(link.split(":")[1] in offer[mode]["alias"] for link in links)
