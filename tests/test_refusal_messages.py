"""The engine's refusals on the site: every code marked for translation, translated in every
catalog with the same placeholders, and linked to a rule section that exists."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from site_builder.engine import REFUSALS, Refusal
from site_builder.i18n.translator import Translations, Translator
from site_builder.render.refusals import (
    CONTEXT,
    RULE_SECTIONS,
    TEMPLATES,
    refusal_messages,
    refusal_table,
)
from site_builder.sources.page import Heading, read_page

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("id", "ms", "pl", "vi")


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_engine_code_is_marked_word_for_word() -> None:
    assert dict(TEMPLATES) == dict(REFUSALS)
    pot = read_po((ROOT / "locales" / "messages.pot").open("rb"))
    for template in REFUSALS.values():
        assert pot.get(template, CONTEXT) is not None, template


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalog_translates_every_refusal(lang: str) -> None:
    path = ROOT / "locales" / lang / "LC_MESSAGES" / "messages.po"
    catalog = read_po(path.open("rb"))
    messages = refusal_messages(Translator(lang, Translations(catalog)))
    table = refusal_table(Translator(lang, Translations(catalog)))
    assert set(messages) == set(REFUSALS)
    for code, template in REFUSALS.items():
        entry = catalog.get(template, CONTEXT)
        assert entry is not None and entry.string and not entry.fuzzy, (lang, code)
        assert messages[code] == entry.string != template, (lang, code)
        assert table[code] == {
            "template": messages[code], "page": RULE_SECTIONS[code][0],
            "anchor": RULE_SECTIONS[code][1]}
        assert placeholders(messages[code]) == placeholders(template), (lang, code)
        # filled as the engine fills the English: every value by its name
        values = dict.fromkeys(placeholders(template), "7C")
        assert "{" not in messages[code].format_map(values)


def test_english_is_the_engines_sentence() -> None:
    english = refusal_messages(Translator("en"))
    refusal = Refusal("discard-take-needs-final-discard", seat=2, card="KD")
    assert english[refusal.code].format_map(refusal.values) == str(refusal)


def test_every_code_links_to_a_rule_section_that_exists() -> None:
    assert set(RULE_SECTIONS) == set(REFUSALS)
    ids: dict[str, set[str]] = {}
    for slug in sorted({slug for slug, _ in RULE_SECTIONS.values()}):
        source = f"content/{slug}.md"
        page, _, problems = read_page(ROOT / source, source)
        assert page is not None and not problems, (slug, problems)
        assert page.slug == slug
        ids[slug] = {block.id for block in page.blocks if isinstance(block, Heading)}
    for code, (slug, anchor) in RULE_SECTIONS.items():
        assert anchor in ids[slug], (code, slug, anchor)
