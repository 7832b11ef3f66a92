"""Segments of inline Markdown for the cost of Python-Markdown, and that cost counted:
used by ``tests/test_markdown_cost.py`` (which bounds the count) and
``benchmarks/markdown_cost.py`` (which times the same segments beside prose).

A segment is built as ``"See " + head + unit * times + tail``, cut at
:data:`~site_builder.sources.segment.MAX_SEGMENT`: a unit of markup repeated (the shape of
every slow input found so far) between random pieces.
"""

from __future__ import annotations

import random

from counting import Lines

from site_builder.render.markdown import MarkdownRenderer
from site_builder.sources.segment import MAX_SEGMENT

# Pieces of markup that Python-Markdown's inline parser scans ahead for, mixed with words.
PIECES = ["``\\", "`", "``", "\\", "\\\\", "[a](b)", "[", "]", "(", ")", "*", "**", "_",
          "&", "word ", " ", "--", "![a](b)", "<", ">", "\\`"]

# Prose of the largest size a segment may have, that only Python-Markdown renders (a
# dash for smarty, emphasis), as a paragraph of the site's is written.
PROSE = ("The joker counts fifteen points -- *always*, in every game. "
         * (MAX_SEGMENT // 60 + 1))[:MAX_SEGMENT].rstrip()

# An accepted segment may cost Python-Markdown at most this many times what prose of its
# size does (the start of PROSE).
FACTOR = 25

# Segments that once cost seconds a language (unit, times, head, tail): the checks refuse
# each (structure_problems), and every test of the cost tries them first.
KNOWN = [
    (["``\\"], 3326, [], []),  # the costliest: seconds of CPU a language, before the check
    (["``", "\\"], 3000, ["`"], []),
    (["`", "\\"], 3000, ["``"], []),
    (["``a`"], 2500, [], []),  # runs of 3 that Markdown reads from their middle
    (["\\", "``\\"], 2400, [], []),  # pairs of backslashes read from their middle
]
# Segments the checks accept that cost the most found so far, tried first too: links, each
# followed by a character that leaves the segment to Python-Markdown (3.11.4 reads the
# whole text again for each link: 9.7 s of CPU here, against 0.17 s with 3.11.3).
ACCEPTED = [
    (["[a](b)", ">"], 1400, [], []),
]


def segment(unit: list[str], times: int, head: list[str], tail: list[str]) -> str:
    """``"See " + head + unit * times + tail``, at most MAX_SEGMENT characters, without
    the trailing space that a page's line never has."""
    text = "See " + "".join(head) + "".join(unit) * times + "".join(tail)
    return text[:MAX_SEGMENT].rstrip()


def prose(size: int) -> str:
    """Prose of *size* characters (fewer if a space would end it), as PROSE starts."""
    return PROSE[:size].rstrip()


def random_segment(rnd: random.Random) -> str:
    """A segment drawn as the test's strategy draws one (a unit of 1 to 4 pieces repeated
    500 to 3,400 times, up to 40 pieces either side)."""
    def pieces(low: int, high: int) -> list[str]:
        return [rnd.choice(PIECES) for _ in range(rnd.randint(low, high))]

    return segment(pieces(1, 4), rnd.randint(500, 3400), pieces(0, 40), pieces(0, 40))


def lines_to_render(text: str, limit: int | None = None) -> int:
    """The lines of Python run to render *text* (a renderer made for it, so that nothing
    is remembered, and Python-Markdown set up before counting); past *limit*,
    :class:`~counting.TooMuchWork`."""
    renderer = MarkdownRenderer()
    renderer.inline("Set up -- once.")  # makes the Markdown instance: not the text's work
    with Lines(limit=limit) as work:
        renderer.inline(text)
    return work.count
