"""The move reasons (site_builder/engine/reasons.py) on the site: each marked for translation
where the engine writes it, in the template catalog, and translated in every catalog with the
same placeholders; in Polish a card's name stands where its base form is right."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from site_builder.engine.reasons import CONTEXT, MOVE_REASONS, Reason, reason_messages
from site_builder.i18n.messages import code_messages
from site_builder.i18n.translator import Translations, Translator

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("id", "ms", "pl", "vi")


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_reason_is_marked_where_the_engine_writes_it() -> None:
    found = {(m.msgid, m.context): m.source for m in code_messages()}
    with (ROOT / "locales" / "messages.pot").open("rb") as fh:
        pot = read_po(fh)
    for template in MOVE_REASONS.values():
        assert found.get((template, CONTEXT)) == "site_builder/engine/reasons.py", template
        assert pot.get(template, CONTEXT) is not None, template


@pytest.mark.parametrize("lang", LANGS)
def test_every_reason_is_translated_with_the_same_values(lang: str) -> None:
    with (ROOT / "locales" / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        catalog = read_po(fh)
    for code, template in MOVE_REASONS.items():
        entry = catalog.get(template, CONTEXT)
        assert entry is not None and entry.string and not entry.fuzzy, (lang, code)
        assert placeholders(entry.string) == placeholders(template), (lang, code)
    messages = reason_messages(Translator(lang, Translations(catalog)).gettext)
    sample = Reason("take-completes", card="7H", cards="5H 6H JK")
    assert messages[sample.code].format_map(sample.values) != str(sample)


def test_polish_names_a_card_where_its_base_form_is_right() -> None:
    """A card's name is shown in its base form (the nominative, "dama trefl"), so each
    Polish reason puts it at the start of the sentence, as its subject, or after a colon
    (never as the object of a verb, which asks for another case: "odrzuć damę trefl")."""
    with (ROOT / "locales" / "pl" / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        messages = reason_messages(Translator("pl", Translations(read_po(fh))).gettext)
    assert messages["take-completes"] != MOVE_REASONS["take-completes"]
    for code, text in messages.items():
        for match in re.finditer(r"\{(card|cards|next)\}", text):
            before = text[:match.start()]
            assert before == "" or before.endswith(": "), (code, text)
