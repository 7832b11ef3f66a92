"""No segment the checks accept costs Python-Markdown more than prose of its
size, within a small factor, and an English paragraph shown in several languages (a
missing translation) is rendered once. Costs are CPU seconds of this thread, never wall
time."""

from __future__ import annotations

import time
from pathlib import Path

import markdown
import pytest
from conftest import run_cli
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from site_builder.render.markdown import MarkdownRenderer
from site_builder.sources.segment import MAX_SEGMENT, structure_problems

# Pieces of markup that Python-Markdown's inline parser scans ahead for, mixed with words.
PIECES = ["``\\", "`", "``", "\\", "\\\\", "[a](b)", "[", "]", "(", ")", "*", "**", "_",
          "&", "word ", " ", "--", "![a](b)", "<", ">", "\\`"]
LIMIT = 0.25  # CPU seconds for one segment; prose of 10,000 characters costs about 0.01


def cost(text: str) -> float:
    start = time.thread_time()
    MarkdownRenderer().inline(text)
    return time.thread_time() - start


def test_the_worst_segment_of_the_review_is_refused() -> None:
    text = "See 1 " + "``\\" * 3326  # 9,984 characters: 1 s of CPU a language before
    assert len(text) <= MAX_SEGMENT
    assert any("runs of backticks" in p for p in structure_problems(text, False))


PIECE = st.sampled_from(PIECES)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECE, min_size=1, max_size=4), st.integers(500, 3400),
       st.lists(PIECE, max_size=40), st.lists(PIECE, max_size=40))
@example(["``\\"], 3326, [], [])  # once 11 s of CPU a paragraph
@example(["``", "\\"], 3000, ["`"], [])
@example(["`", "\\"], 3000, ["``"], [])
@example(["``a`"], 2500, [], [])  # runs of 3 that Markdown reads from their middle
@example(["\\", "``\\"], 2400, [], [])  # pairs of backslashes read from their middle
def test_an_accepted_segment_costs_what_prose_does(unit: list[str], times: int,
                                                   head: list[str], tail: list[str]) -> None:
    """Random segments up to the bound: a unit of markup repeated (the shape of every
    slow input found so far), between random pieces."""
    text = "See " + "".join(head) + "".join(unit) * times + "".join(tail)
    text = text[:MAX_SEGMENT].rstrip()
    if structure_problems(text, breaks=False):
        return  # refused at its line: never rendered
    assert cost(text) < LIMIT, text[:200]


def test_an_untranslated_paragraph_is_rendered_once(project: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A paragraph that needs Python-Markdown (a dash: smarty), in English in every
    language: one conversion for the whole check, not one a language."""
    paragraph = "A paragraph no catalog translates -- *yet*, with `code`."
    with open(project / "content" / "glossary.md", "a", encoding="utf-8") as fh:
        fh.write(f"\n{paragraph}\n")
    seen: list[str] = []
    real = markdown.Markdown.convert

    def convert(self: markdown.Markdown, source: str) -> str:
        seen.append(source)
        return real(self, source)

    monkeypatch.setattr(markdown.Markdown, "convert", convert)
    result = run_cli("check", "--root", str(project))
    assert result.code == 0, result.err
    assert seen.count(paragraph) == 1
