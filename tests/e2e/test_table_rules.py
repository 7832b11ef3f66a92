"""My table's rules: the game a table plays, chosen once in the page menu, folds
the other game's example rows, opens the checker on that game, marks it on the quick
reference and starts the score keeper with it; before any choice nothing changes."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .visit import DESKTOP, PHONE


def _shown_games(page: Page) -> set[str]:
    """The games of the example rows shown (a table says its game once, or each row does)."""
    shown = page.eval_on_selector_all(
        "main .example tbody tr", "rows => rows.filter(r => !r.hidden)"
        ".map(r => r.closest('.example').dataset.game || r.dataset.game).filter(g => g)")
    return set(shown) - {"cardverse"}


@pytest.mark.parametrize("lang", ["pl", "vi"])
def test_the_switch_follows_the_table(page: Page, lang: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{lang}/first-meld/")
    page.wait_for_function("() => document.querySelector('form.table-rules') !== null")
    # before any choice: every example, and the checker on its own default
    assert _shown_games(page) == {"rami40", "rami51"}
    assert page.locator(".other-game").count() == 0
    page.locator("label.menu-button").click()  # the switch sits in the page menu
    switch = page.locator("form.table-rules")
    switch.locator("select[name=table-game]").select_option("rami40")
    page.keyboard.press("Escape")  # the menu closes; the page shows the folded tables
    assert _shown_games(page) == {"rami40"}
    note = page.locator(".other-game").first
    assert "Rami 51" in note.inner_text() and "Rami 40" in note.inner_text()
    assert page.locator("form[data-checker] select[name=game]").input_value() == "rami40"
    note.locator("button").click()  # the folded rows can be shown again
    assert note.locator("button").get_attribute("aria-expanded") == "true"

    # kept on the device, for every page
    page.goto(f"{lang}/first-meld/")
    page.wait_for_selector(".other-game")
    assert _shown_games(page) == {"rami40"}
    page.goto(f"{lang}/quick-reference/rami/")
    page.wait_for_selector(".quickref li.mine")
    assert page.locator(".quickref li.mine").get_attribute("data-game") == "rami40"
    page.goto(f"{lang}/score/")
    page.wait_for_function(
        "() => document.querySelector('select[data-table-rules]').value === 'rami40:reference'")
    page.goto(f"{lang}/play/")  # the practice table starts with the table's game
    page.wait_for_function(
        "() => document.querySelector('select[data-table-game]').value === 'rami40'")

    # both games again: everything shows, as without the switch
    page.set_viewport_size(DESKTOP)
    page.goto(f"{lang}/first-meld/")
    page.locator("form.table-rules select[name=table-game]").select_option("")
    assert _shown_games(page) == {"rami40", "rami51"}
    assert page.locator(".other-game").count() == 0
    assert page.evaluate("localStorage.getItem('rami-table-rules')") is None


def test_a_damaged_choice_changes_nothing(page: Page) -> None:
    page.goto("pl/first-meld/")
    page.evaluate("localStorage.setItem('rami-table-rules', '{\"game\": \"<img>\"}')")
    page.reload()
    page.wait_for_function("() => document.querySelector('form.table-rules') !== null")
    assert _shown_games(page) == {"rami40", "rami51"}
    assert page.locator("form.table-rules select[name=table-game]").input_value() == ""


def test_a_choice_in_another_tab_holds_here_at_once(page: Page) -> None:
    """Two tabs of the rules: the table's game chosen in one folds the other's examples at
    once (the storage event), and both games again in it unfold them."""
    page.goto("pl/melds/")
    page.wait_for_function("() => document.querySelector('form.table-rules') !== null")
    other = page.context.new_page()
    other.goto("pl/first-meld/")
    other.wait_for_function("() => document.querySelector('form.table-rules') !== null")
    page.locator("form.table-rules select[name=table-game]").select_option("rami40")
    other.wait_for_selector(".other-game")
    assert _shown_games(other) == {"rami40"}
    assert other.locator("form.table-rules select[name=table-game]").input_value() == "rami40"
    page.locator("form.table-rules select[name=table-game]").select_option("")
    other.wait_for_function("() => document.querySelector('.other-game') === null")
    assert _shown_games(other) == {"rami40", "rami51"}
    other.close()
