"""The score keeper, in Chromium on a phone: a whole game kept to its end, the
refusals of impossible rounds and of what is not a number in the reader's language, a sheet
that survives a reload, and a damaged saved sheet dropped with a message."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page

from site_builder import engine
from site_builder.engine.scoring import check_round

from .e2e_site import ServedSite
from .visit import PHONE


def _text(site: ServedSite, lang: str) -> dict[str, object]:
    html = (site.dir / lang / "score" / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="score-data">(.*?)</script>', html, re.S)
    assert found
    return json.loads(found[1])


def _add(page: Page, points: list[str], winner: int | None = None) -> str:
    """Add a round; the error shown, or ""."""
    form = page.locator("[data-round]")
    if winner is not None:
        form.locator(f'input[name=winner][value="{winner}"]').check()
    for i, value in enumerate(points):
        field = form.locator(f"input[name=p{i}]")
        if field.is_enabled():
            field.fill(value)
    form.locator("button[type=submit]").click()
    error = page.locator(".score-error")
    return error.inner_text() if error.is_visible() else ""


def _totals(page: Page) -> list[str]:
    return page.locator(".score-table tfoot td").all_inner_texts()


@pytest.mark.parametrize("lang", ["pl", "vi"])
def test_a_whole_game(page: Page, served_site: ServedSite, lang: str) -> None:
    data = _text(served_site, lang)
    text = data["text"]
    assert isinstance(text, dict)
    page.set_viewport_size(PHONE)
    page.goto(f"{lang}/score/")
    setup = page.locator("[data-setup]")
    setup.locator("select[name=rules]").select_option("rami51:reference")
    setup.locator("select[name=players]").select_option("3")
    for i, name in enumerate(["Ala", "Bartek", "Cường"]):
        setup.locator("[data-name] input").nth(i).fill(name)
    setup.locator("button[type=submit]").click()
    assert page.locator(".score-table thead th").all_inner_texts()[1:] == ["Ala", "Bartek",
                                                                            "Cường"]

    # not a number, then an impossible round: refused in the page's language, nothing added
    assert _add(page, ["0", "abc", "12"]) == text["not_a_number"].format(  # type: ignore[index]
        value="abc", player="Bartek")
    assert _add(page, ["0", "1", "12"]) != ""
    rules = engine.get_rules("rami51")
    problem = check_round([0, 1, 12], rules)
    assert problem is not None and problem.code == "hand_low"
    assert page.locator(".score-error").inner_text().startswith("Bartek")
    assert _totals(page) == ["", "", ""]

    # rounds to the limit: who went out scores 0 (tapped), the others their hands
    for _ in range(3):
        assert _add(page, ["", "95", "150"], winner=0) == ""
    assert page.locator("[data-round]").is_visible()  # 450 is below the limit
    assert _add(page, ["60", "", "178"], winner=1) == ""
    assert _totals(page) == ["60", "285", "628"]
    assert page.locator("[data-round]").is_hidden()  # the game is over
    assert "Ala" in page.locator("[data-status]").inner_text()

    # kept on the device: a reload shows the same sheet; a round can be taken back
    page.reload()
    assert len(page.locator(".score-table tbody tr:not(.blank)").all()) == 4
    page.locator("[data-undo]").click()
    assert page.locator("[data-round]").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_damaged_sheet_is_dropped_with_a_message(page: Page, served_site: ServedSite) -> None:
    text = _text(served_site, "pl")["text"]
    page.goto("pl/score/")
    page.evaluate("localStorage.setItem('rami-score-sheet', "
                  "'{\"v\":1,\"rules\":\"rami51:reference\",\"names\":[\"A\",\"B\"],"
                  "\"rounds\":[[0,1]]}')")  # a round the rules refuse
    page.reload()
    assert page.locator(".score-message").inner_text() == text["damaged"]  # type: ignore[index]
    assert page.locator("[data-setup]").is_visible()
    assert page.evaluate("localStorage.getItem('rami-score-sheet')") is None
    page.evaluate("localStorage.setItem('rami-score-sheet', '{not json')")
    page.reload()
    assert page.locator(".score-message").inner_text() == text["damaged"]  # type: ignore[index]


def test_full_storage_keeps_the_sheet_for_the_visit(page: Page) -> None:
    page.add_init_script("Storage.prototype.setItem = function () {"
                         " throw new DOMException('full', 'QuotaExceededError'); };")
    page.goto("pl/score/")
    page.locator("[data-setup] button[type=submit]").click()
    assert page.locator(".score-message").is_visible()
    assert _add(page, ["0", "30", "40"]) == ""
    assert _totals(page) == ["0", "30", "40"]
