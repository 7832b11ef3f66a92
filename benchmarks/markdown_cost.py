"""The cost of Python-Markdown on one segment, side by side with prose of the same size.

    .venv/bin/python benchmarks/markdown_cost.py [--segments 300] [--seed 7] [--repeat 3]

Renders, each with a renderer of its own (nothing remembered): the prose of
``tests/markdown_segments.py`` (MAX_SEGMENT characters that only Python-Markdown renders),
the costliest of SEGMENTS random segments that the checks accept (built as
``tests/test_markdown_cost.py`` builds them), the costliest accepted ones known, and the
segments that once cost seconds, which the checks refuse (rendered anyway, to show what
refusing them saves). For each it
prints the CPU time of this thread (the best of REPEAT) and the lines of Python run (what
the test bounds: FACTOR times those of prose of the same size), each as a ratio to prose
of the same size rendered in the same run. The target: no accepted segment over FACTOR
times prose, in either column.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import markdown  # noqa: E402
from counting import TooMuchWork  # noqa: E402
from markdown_segments import (  # noqa: E402
    ACCEPTED,
    FACTOR,
    KNOWN,
    PROSE,
    lines_to_render,
    prose,
    random_segment,
    segment,
)

from site_builder.render.markdown import MarkdownRenderer  # noqa: E402
from site_builder.sources.segment import structure_problems  # noqa: E402


def cpu(text: str, repeat: int) -> float:
    """The least CPU time of this thread that rendering *text* took, of *repeat* runs."""
    best = float("inf")
    for _ in range(repeat):
        renderer = MarkdownRenderer()
        renderer.inline("Set up -- once.")
        started = time.thread_time()
        renderer.inline(text)
        best = min(best, time.thread_time() - started)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--segments", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--show", type=int, default=5, help="accepted segments shown")
    args = parser.parse_args(argv)

    yardsticks: dict[int, tuple[int, float]] = {}

    def yardstick(size: int) -> tuple[int, float]:
        """The lines and CPU time of prose of *size* characters (the start of PROSE)."""
        if size not in yardsticks:
            yardsticks[size] = (lines_to_render(prose(size)), cpu(prose(size), args.repeat))
        return yardsticks[size]

    rnd = random.Random(args.seed)
    accepted = []
    for _ in range(args.segments):
        text = random_segment(rnd)
        if not structure_problems(text, breaks=False):
            bound = FACTOR * yardstick(len(text))[0]
            try:
                accepted.append((lines_to_render(text, bound) / yardstick(len(text))[0], text))
            except TooMuchWork:
                accepted.append((float("inf"), text))
    accepted.sort(key=lambda row: -row[0])

    print(f"Python-Markdown {markdown.__version__}, Python {sys.version.split()[0]}; "
          f"{len(accepted)} of {args.segments} random segments accepted; the test's bound: "
          f"{FACTOR}x the lines of prose of the segment's size")
    print(f"{'segment':36} {'chars':>6} {'CPU ms':>9} {'x prose':>8} {'lines':>12} "
          f"{'x prose':>8}")

    def row(name: str, text: str) -> None:
        prose_lines, prose_cpu = yardstick(len(text))
        bound = FACTOR * prose_lines
        try:
            lines = f"{lines_to_render(text, bound):,}"
            ratio = f"{int(lines.replace(',', '')) / prose_lines:.1f}"
        except TooMuchWork:
            lines, ratio = f"> {bound:,}", f"> {FACTOR}"
        spent = prose_cpu if text == prose(len(text)) else cpu(text, args.repeat)
        print(f"{name[:36]:36} {len(text):6} {spent * 1000:9.1f} {spent / prose_cpu:8.1f} "
              f"{lines:>12} {ratio:>8}")

    row("prose", PROSE)
    for _, text in accepted[:args.show]:
        row(f"accepted: {text[4:30]!r}", text)
    for known, verdict in ((ACCEPTED, "accepted"), (KNOWN, "refused")):
        for unit, times, head, tail in known:
            text = segment(unit, times, head, tail)
            found = "refused" if structure_problems(text, breaks=False) else "accepted"
            label = found if found == verdict else f"{found.upper()}, NOT {verdict.upper()}"
            row(f"{label}: {''.join(head)}({''.join(unit)}) x {times}", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
