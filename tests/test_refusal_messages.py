"""The engine's refusals on the site: every code marked for translation, translated in every
catalog with the same placeholders, and linked to a rule section that exists."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from site_builder.engine import REFUSALS, Refusal
from site_builder.engine.play.table import CODES, Table
from site_builder.engine.refusals import CONTEXT
from site_builder.i18n.messages import code_messages
from site_builder.i18n.translator import Translations, Translator
from site_builder.render.refusals import (
    EXCHANGE_SECTION,
    RULE_SECTIONS,
    TABLE_SECTIONS,
    refusal_messages,
    refusal_table,
)
from site_builder.sources.page import Heading, read_page

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("id", "ms", "pl", "vi")


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_engine_template_is_marked_where_the_engine_writes_it() -> None:
    """One home: Babel's extractor finds each template in the engine's own module, and the
    template catalog holds it."""
    found = {(m.msgid, m.context): m.source for m in code_messages()}
    pot = read_po((ROOT / "locales" / "messages.pot").open("rb"))
    for template in REFUSALS.values():
        assert found.get((template, CONTEXT)) == "site_builder/engine/refusals.py", template
        assert pot.get(template, CONTEXT) is not None, template


def _table_codes() -> set[str]:
    """The codes written in the practice table's module: each TableError's, each bound's
    (``_int``'s last argument) and each ``"code"`` of a refusal."""
    tree = ast.parse((ROOT / "site_builder" / "engine" / "play" / "table.py").read_text())
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            arg = {"TableError": node.args[0], "Refusal": node.args[0],
                   "_int": node.args[-1]}.get(node.func.id)
            if isinstance(arg, ast.Constant):
                out.add(str(arg.value))
        keys = [k.value for k in node.keys if isinstance(k, ast.Constant)] \
            if isinstance(node, ast.Dict) else []
        if "code" in keys and "values" in keys:  # a refusal (a hint's reason has no values)
            code = node.values[keys.index("code")]  # type: ignore[attr-defined]
            if isinstance(code, ast.Constant):
                out.add(str(code.value))
    return out


def test_the_table_answers_one_set_of_codes_in_one_spelling() -> None:
    """Every code the practice table answers is the engine's or one of its own, all in the
    engine's kebab-case, and each one the page explains in its own words has a section."""
    codes = _table_codes()
    assert codes and codes <= set(CODES) | set(REFUSALS), codes - set(CODES) - set(REFUSALS)
    assert not set(CODES) & set(REFUSALS)
    for code in (*CODES, *REFUSALS):
        assert code == code.lower() and "_" not in code and " " not in code, code
    assert set(TABLE_SECTIONS) <= set(CODES)


def test_a_move_out_of_turn_is_the_engines_refusal() -> None:
    """The reader's move while another seat plays: the engine's not-your-turn, with its
    values, its sentence and its rule section (once called not_your_turn by the table)."""
    table = Table.new({"game": "cardverse", "levels": ["hard"], "seed": 3})
    table.act({"kind": "draw_stock"})
    table.act({"kind": "discard", "cards": [table.view()["hand"][0]]})
    answer = table.act({"kind": "draw_stock"})
    assert answer == {"refusal": {"code": "not-your-turn", "values": {"turn": 2, "seat": 1},
                                  "message": "it is seat 2's turn, not seat 1's"}}
    assert table.hint()["refusal"]["code"] == "not-your-turn"


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
        exchange = {"exchange": {"page": EXCHANGE_SECTION[0], "anchor": EXCHANGE_SECTION[1]}}
        assert table[code] == {
            "template": messages[code], "page": RULE_SECTIONS[code][0],
            "anchor": RULE_SECTIONS[code][1], **(exchange if code.startswith("owed-") else {})}
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
    sections = {**RULE_SECTIONS, **TABLE_SECTIONS, "owed-* (exchange)": EXCHANGE_SECTION}
    ids: dict[str, set[str]] = {}
    for slug in sorted({slug for slug, _ in sections.values()}):
        source = f"content/{slug}.md"
        page, _, problems = read_page(ROOT / source, source)
        assert page is not None and not problems, (slug, problems)
        assert page.slug == slug
        ids[slug] = {block.id for block in page.blocks if isinstance(block, Heading)}
    for code, (slug, anchor) in sections.items():
        assert anchor in ids[slug], (code, slug, anchor)
