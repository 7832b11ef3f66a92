"""The translator's preview (``site-builder serve --translate pl``) in Chromium: a reader
picks a sentence by keyboard, edits it and sees it on the page, at 320 px, while a text
editor saves another entry of the same catalog, and both are kept. The preview's guards and
checks without a browser: tests/test_translate.py, whose served instance this uses."""

from __future__ import annotations

import re
import time

from conftest import HANG
from playwright.sync_api import Browser
from playwright.sync_api import Error as PlaywrightError
from test_translate import EDITOR, PICKED, PO, Preview, preview

from site_builder.translate.marks import message_id

__all__ = ["preview"]  # the served instance, a fixture of test_translate.py


def test_a_reader_picks_a_sentence_edits_it_and_sees_it_while_an_editor_saves(
        preview: Preview, browser: Browser) -> None:
    new = "Jak sprawdzane są przykłady, zdanie czytelnika"
    editor_text = "Układy, zapisane w edytorze"
    context = browser.new_context(viewport={"width": 320, "height": 700})
    try:
        page = context.new_page()
        page.goto(f"{preview.base}/pl/about/")
        shown = f'main [data-sb-msg="{message_id(PICKED, None)}"]:visible'
        sentence = page.locator(shown).first
        panel = page.locator(".sb-panel")
        where = panel.get_by_text(f"{PO}:", exact=False)
        deadline = time.monotonic() + HANG
        while not where.count():  # a rebuild of the earlier tests' saves reloads the page
            assert time.monotonic() < deadline, "the panel never showed the entry"
            sentence.wait_for(timeout=HANG * 1000)
            sentence.focus()  # by keyboard
            page.keyboard.press("Enter")
            page.wait_for_timeout(1000)
        assert panel.get_by_text(PICKED).count() >= 1
        # a text editor saves the same catalog (another entry) before the reader saves
        text = preview.catalog.read_text(encoding="utf-8")
        pattern = re.compile(rf'(msgctxt "nav"\nmsgid "{EDITOR}"\nmsgstr ")[^"]*(")')
        if not pattern.search(text):
            pattern = re.compile(rf'(\nmsgid "{EDITOR}"\nmsgstr ")[^"]*(")')
        assert pattern.search(text)
        preview.catalog.write_text(pattern.sub(rf"\g<1>{editor_text}\g<2>", text, count=1),
                                   encoding="utf-8")
        field = panel.locator("textarea").first
        field.fill(new)
        panel.get_by_role("button").filter(has_text=re.compile(".")).last.click()
        page.locator(shown, has_text=new).first.wait_for(timeout=HANG * 1000)
        # no sideways scroll; the preview may reload the page meanwhile (a rebuild of the
        # saves), which ends an evaluation: it is asked again of the reloaded page
        for _ in range(5):
            try:
                width = page.evaluate("document.documentElement.scrollWidth")
                break
            except PlaywrightError:
                page.wait_for_load_state()
        assert width <= 320
    finally:
        context.close()
    saved = preview.catalog.read_text(encoding="utf-8")
    assert f'msgstr "{new}"' in saved and editor_text in saved
