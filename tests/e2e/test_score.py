"""The score keeper, in Chromium on a phone: a whole game kept to its end (who deals next,
the points to the limit, the winner in words), the refusals of impossible rounds, of what
is not a number and of negative points in the reader's language, a round corrected, a sheet
that survives a reload, one sheet a language, two tabs on one sheet, names shown as text,
and a damaged saved sheet kept aside with a message, its readable rounds kept."""

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
    """The totals row's numbers (without the marks beside them)."""
    return page.eval_on_selector_all(".score-table tfoot tr:first-child td",
                                     "tds => tds.map(td => td.firstChild?.textContent ?? '')")


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

    # negative points have their own reason; who deals next and the points to the limit
    assert _add(page, ["0", "-5", "12"]) == text["problems"]["negative"].format(  # type: ignore[index]
        player="Bartek", score="-5")
    assert page.locator("[data-status]").inner_text().endswith(
        text["next_deal"].format(player="Ala"))  # type: ignore[index]
    assert _add(page, ["0", "20", "30"]) == ""
    assert page.locator("[data-status]").inner_text().endswith(
        text["next_deal"].format(player="Bartek"))  # type: ignore[index]
    assert page.locator(".score-table tfoot tr.togo td").all_inner_texts() == [
        "500", "480", "470"]
    # a round is corrected, not only the last one removed
    page.locator("[data-fix='0']").click()
    assert page.locator("[data-round] input[name=p1]").input_value() == "20"
    assert _add(page, ["0", "25", "30"]) == ""
    assert _totals(page) == ["0", "25", "30"]
    page.locator("[data-undo]").click()
    assert _totals(page) == ["", "", ""]

    # rounds to the limit: the round's winner scores 0 (tapped), the others their hands
    for _ in range(3):
        assert _add(page, ["", "95", "150"], winner=0) == ""
    assert page.locator("[data-round]").is_visible()  # 450 is below the limit
    assert _add(page, ["60", "", "178"], winner=1) == ""
    assert _totals(page) == ["60", "285", "628"]
    assert page.locator("[data-round]").is_hidden()  # the game is over
    status = page.locator("[data-status]").inner_text()
    assert status == text["winner"].format(players="Ala", total="60")  # type: ignore[index]
    marks = page.locator(".score-table tfoot tr:first-child .mark").all_inner_texts()
    assert [m.split("\n")[-1].strip() for m in marks] == [text["winner_mark"], text["past"]]  # type: ignore[index]

    # kept on the device: a reload shows the same sheet; a round can be taken back
    page.reload()
    assert len(page.locator(".score-table tbody tr:not(.blank)").all()) == 4
    page.locator("[data-undo]").click()
    assert page.locator("[data-round]").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_damaged_sheet_is_kept_aside_with_a_message(page: Page, served_site: ServedSite
                                                       ) -> None:
    text = _text(served_site, "pl")["text"]
    assert isinstance(text, dict)
    page.goto("pl/score/")
    # the device's one sheet of an earlier version, one round the rules refuse: the
    # language takes it over and keeps the round it can read
    page.evaluate("localStorage.setItem('rami-score-sheet', "
                  "'{\"v\":1,\"rules\":\"rami51:reference\",\"names\":[\"A\",\"B\"],"
                  "\"rounds\":[[0,1],[0,20]]}')")
    page.reload()
    assert page.locator(".score-message").inner_text() == text["partly"]
    assert _totals(page) == ["0", "20"]
    assert page.evaluate("localStorage.getItem('rami-score-sheet')") is None
    assert page.evaluate("JSON.parse(localStorage.getItem('rami-score-sheet:pl')).rounds") == [
        [0, 20]]
    # not a sheet at all: kept aside, untouched, and said
    page.evaluate("localStorage.setItem('rami-score-sheet:pl', '{not json')")
    page.reload()
    assert page.locator(".score-message").inner_text() == text["damaged_kept"]
    assert page.locator("[data-setup]").is_visible()
    assert page.evaluate("localStorage.getItem('rami-score-sheet:pl:damaged')") == "{not json"


def test_two_tabs_one_sheet_lose_no_round(page: Page, served_site: ServedSite) -> None:
    text = _text(served_site, "ms")["text"]
    assert isinstance(text, dict)
    page.goto("ms/score/")
    setup = page.locator("[data-setup]")
    setup.locator("select[name=players]").select_option("2")
    setup.locator("[data-name] input").nth(0).fill("<b>Aminah</b>")
    setup.locator("[data-name] input").nth(1).fill("Budi\u202e\u0007")
    setup.locator("button[type=submit]").click()
    # names with markup or control characters are shown as text
    assert page.locator(".score-table thead th").all_inner_texts()[1:] == ["<b>Aminah</b>", "Budi"]
    other = page.context.new_page()
    other.goto(page.url)
    # a round added in the other tab: this one shows it (the storage event), and says so
    assert _add(other, ["0", "30"]) == ""
    page.wait_for_function("() => document.querySelectorAll('.score-table tbody tr:not(.blank)')"
                           ".length === 1")
    assert page.locator(".score-message").inner_text() == text["changed"]
    # a round written under this tab before it heard of it (as a tab in the background
    # is): its own round is added to the stored sheet, not over it
    page.evaluate("""() => { const key = 'rami-score-sheet:ms';
        const s = JSON.parse(localStorage.getItem(key)); s.rounds.push([0, 10]); s.rev += 1;
        localStorage.setItem(key, JSON.stringify(s)); }""")
    assert _add(page, ["40", "0"]) == ""
    assert _totals(page) == ["40", "40"]
    assert page.locator(".score-message").inner_text() == text["changed"]
    other.wait_for_function("document.querySelectorAll('.score-table tbody tr:not(.blank)')"
                            ".length === 3")
    assert _totals(other) == ["40", "40"]
    # the sheet is the language's: the Indonesian pages start their own
    other.goto(page.url.replace("/ms/", "/id/"))
    assert other.locator("[data-setup]").is_visible()
    other.close()


def test_full_storage_keeps_the_sheet_for_the_visit(page: Page) -> None:
    page.add_init_script("Storage.prototype.setItem = function () {"
                         " throw new DOMException('full', 'QuotaExceededError'); };")
    page.goto("pl/score/")
    page.locator("[data-setup] button[type=submit]").click()
    assert page.locator(".score-message").is_visible()
    assert _add(page, ["0", "30", "40"]) == ""
    assert _totals(page) == ["0", "30", "40"]
