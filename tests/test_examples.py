"""The worked examples as the built site draws them."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import lxml.html

SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def _codes(group: lxml.html.HtmlElement) -> list[str]:
    """The cards of one group of chips (``role="img"``) as codes: a joker chip is ``JK``."""
    codes = []
    for chip in group:
        if "joker" in (chip.get("class") or "").split():
            codes.append("JK")
        else:
            text = chip.text_content()
            codes.append(text[:-1] + SUITS[text[-1]])
    return codes


def _meld_number(cell: lxml.html.HtmlElement) -> int | None:
    """The meld number an action names ("lays meld 2", "układ 2"), or None (a draw, a
    discard): the only digits in the cell's words, outside its cards."""
    words = "".join(t for t in cell.xpath("text()|*[not(@role='img')]//text()"))
    numbers = re.findall(r"[0-9]+", words)
    return int(numbers[-1]) if numbers else None


def test_a_table_list_never_draws_a_card_that_was_not_laid_in_its_meld(built_site: Path) -> None:
    """A joker on the table is drawn as a joker, never as its stand-in. Each
    "On the table" list of a worked round, and the meld that a lay-off or an exchange
    shows, holds only cards laid into that meld by the steps above it (as the action
    column draws them), and each joker in it names its stand-in."""
    lists = 0
    for page in sorted(built_site.glob("*/*/index.html")):
        html = lxml.html.fromstring(page.read_bytes())
        for trace in html.xpath("//table[thead//th[4]]"):
            rows = trace.xpath("tbody/tr")
            if not rows or len(rows[0].xpath("td")) != 3 or not trace.xpath(".//ol"):
                continue
            laid: dict[int, Counter[str]] = {}
            for row in rows:
                _seat, action, result = row.xpath("td")
                number = _meld_number(action)
                groups = action.xpath("span[@role='img']")
                if number is not None and groups:  # laid, added, or put in a joker's place
                    laid.setdefault(number, Counter()).update(_codes(groups[-1]))
                shown = [(number, result.xpath("span[@role='img']"))] if number else []
                shown += [
                    (int(re.findall(r"[0-9]+", li.text or "")[0]), li.xpath("span[@role='img']"))
                    for li in result.xpath("ol/li")
                    if li.xpath("span[@role='img']")
                ]
                for meld, found in shown:
                    if not found:
                        continue
                    cards = Counter(_codes(found[0]))
                    where = f"{page.relative_to(built_site)}: meld {meld}"
                    extra = cards - laid.get(meld, Counter())
                    assert not extra, f"{where} shows {sorted(extra)}, never laid in it"
                    note = found[0].getnext()
                    if cards["JK"]:
                        assert note is not None and "stand-in" in note.get("class", ""), (
                            f"{where}: a joker without its stand-in"
                        )
                    lists += 1
    assert lists > 20  # the whole round and the joker exchange, in every language


# --- the kinds of table: one module, one partial, one row in docs/writing.md each ------------

ROOT = Path(__file__).resolve().parent.parent


def test_the_documented_table_of_fields_is_the_registrys() -> None:
    """The table of each kind's fields in docs/writing.md is the one the registry prints, and
    every field a kind reads is named in its row."""
    from site_builder.examples import KINDS, fields_table

    assert fields_table() in (ROOT / "docs" / "writing.md").read_text(encoding="utf-8")
    for kind in KINDS.values():
        named = set(re.findall(r"`([a-z_]+)`", kind.doc_inputs + kind.doc_claims))
        assert set(kind.inputs) | set(kind.claims) <= named, kind.name


def test_every_kind_has_its_partial_and_nothing_else_is_one() -> None:
    from site_builder.examples import KINDS

    partials = {p.relative_to(ROOT / "templates").as_posix()
                for p in (ROOT / "templates" / "examples").glob("*.html")}
    assert partials == {kind.partial for kind in KINDS.values()}


def test_no_kind_module_is_large() -> None:
    """One module per kind, none over about 250 lines."""
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines())
             for p in (ROOT / "site_builder" / "examples").glob("*.py")}
    assert max(sizes.values()) <= 250, sizes
