"""No segment the checks accept costs Python-Markdown more than prose of its size, within
a small factor, and an English paragraph shown in several languages (a missing
translation) is rendered once.

The cost is counted, not timed: the lines of Python run to render a segment
(``tests/counting.py``), the same on every machine and under any load. Python-Markdown's
slow readings are loops in Python (looking to the end of the text for the run of backticks
that closes a code span, or for the bracket or parenthesis that closes a link), so a
segment that makes it read the text again and again runs that many more lines.
``benchmarks/markdown_cost.py`` times the same segments beside the prose and prints both
ratios."""

from __future__ import annotations

import functools
from pathlib import Path

import markdown
import pytest
from conftest import run_cli
from counting import TooMuchWork
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_segments import (
    ACCEPTED,
    FACTOR,
    KNOWN,
    PIECES,
    PROSE,
    lines_to_render,
    prose,
    segment,
)

from site_builder.render.markdown import is_plain, simple_inline
from site_builder.sources.segment import MAX_SEGMENT, structure_problems


@functools.cache
def bound(size: int) -> int:
    """The most lines of Python an accepted segment of *size* characters may run: FACTOR
    times what prose of its size runs."""
    return FACTOR * lines_to_render(prose(size))


def test_the_prose_is_work_for_python_markdown() -> None:
    """The yardstick is prose, up to the largest size the checks accept, that only
    Python-Markdown renders (the fast path for plain text and simple markup would cost
    next to nothing)."""
    assert len(PROSE) == MAX_SEGMENT and not structure_problems(PROSE, breaks=False)
    assert not is_plain(PROSE) and simple_inline(PROSE) is None


def test_the_costliest_segment_known_is_refused_and_would_cost_past_the_bound() -> None:
    """The segment that cost the most (runs of two backticks and a backslash): the checks
    refuse it, and rendering even a quarter of it would run more than the bound of its
    size, so that the count tells a costly segment from prose."""
    unit, times, head, tail = KNOWN[0]
    text = segment(unit, times, head, tail)
    assert len(text) <= MAX_SEGMENT
    assert any("runs of backticks" in p for p in structure_problems(text, False))
    quarter = segment(unit, times // 4, head, tail)
    with pytest.raises(TooMuchWork):
        lines_to_render(quarter, limit=bound(len(quarter)))


PIECE = st.sampled_from(PIECES)


def known_examples(test):  # type: ignore[no-untyped-def]
    """*test* with each segment of KNOWN and ACCEPTED as an explicit example, tried first."""
    for args in KNOWN + ACCEPTED:
        test = example(*args)(test)
    return test


@settings(max_examples=60)
@given(st.lists(PIECE, min_size=1, max_size=4), st.integers(500, 3400),
       st.lists(PIECE, max_size=40), st.lists(PIECE, max_size=40))
@known_examples
def test_an_accepted_segment_costs_what_prose_does(unit: list[str], times: int,
                                                   head: list[str], tail: list[str]) -> None:
    """Random segments up to the largest size: a unit of markup repeated (the shape of
    every slow input found so far), between random pieces; each that the checks accept
    runs at most FACTOR times the lines that prose of its size runs."""
    text = segment(unit, times, head, tail)
    if structure_problems(text, breaks=False):
        return  # refused at its line: never rendered
    limit = bound(len(text))
    try:
        lines_to_render(text, limit=limit)
    except TooMuchWork:
        pytest.fail(f"more than {limit:,} lines of Python ({FACTOR}x prose of its size) to "
                    f"render {text[:200]!r}")


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
