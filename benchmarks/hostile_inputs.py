"""Measure: CPU seconds that hostile inputs (text built to stall a regular expression or a
parser) cost the checks, Markdown and the engine (``time.process_time``; each stopped at 10 s
of CPU).

    .venv/bin/python benchmarks/hostile_inputs.py [--size 100000]

Each text case is one segment of about --size characters, run through the content checks
(``segment_problems``), the translation checks, ``parse_page``, and Markdown (which the
build asks only for text that the checks accept: "refused" says whether they do). The
engine cases are ``draw discard`` rounds that once ran the search for minutes.
"""

from __future__ import annotations

import argparse
import dataclasses
import signal
import time
from collections.abc import Callable

from babel.messages.catalog import Message

from site_builder.engine import RoundState, get_rules, parse_cards
from site_builder.i18n.checks import check_message
from site_builder.render.markdown import MarkdownRenderer
from site_builder.sources.page import parse_page
from site_builder.sources.segment import segment_problems, translation_problems

HEAD = "---\ntitle: X\nslug: x\norder: 50\ndescription: d.\n---\n\n"


class Stop(Exception):
    pass


def cpu(run: Callable[[], object], limit: float = 10) -> str:
    def stop(*_: object) -> None:
        raise Stop

    signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, limit)
    start = time.process_time()
    try:
        run()
        return f"{time.process_time() - start:6.2f}"
    except Stop:
        return f">{limit:.0f} s "
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def texts(n: int) -> dict[str, str]:
    return {
        "[a]( + spaces": "See [a](" + " " * n + "x",
        "many [a](": "See " + "[a](" * (n // 4),
        "nested [ ]": "See " + "[" * (n // 2) + "x" + "]" * (n // 2),
        "open [": "See " + "[" * n,
        "![ repeated": "See " + "![" * (n // 2),
        "\\n[ repeated": "See " + "\n[" * (n // 2),
        "<a repeated": "See " + "<a" * (n // 2),
        "backslashes": "See " + "\\" * n,
        "stars": "See " + "*" * n,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=100_000)
    args = parser.parse_args()
    md = MarkdownRenderer()
    for name, text in texts(args.size).items():
        refused = bool(segment_problems(text))
        page = HEAD + text.replace("\n", " ") + "\n"
        checks = cpu(lambda t=text: segment_problems(t))
        translation = cpu(lambda t=text: (translation_problems("Goal", t),
                                          check_message(Message("Goal", t), "pl")))
        parsed = cpu(lambda p=page: parse_page(p, "x.md"))
        rendered = "(refused)" if refused else cpu(lambda t=text: md._inline(t))
        print(f"{name:16} checks {checks}  translation {translation}  page {parsed}  "
              f"markdown {rendered}", flush=True)
    headings = HEAD + "## More\n\n" * (args.size // 8)
    print(f"{args.size // 8} equal headings: parse {cpu(lambda: parse_page(headings, 'x.md'))}")
    ranks = "2 4 6 8 10 Q".split()
    cards = " ".join(f"{r}{s}" for r in ranks for s in "CDHS")
    rami51 = get_rules("rami51")
    for name, rules, hand in [
        ("two_jokers, 51 cards", dataclasses.replace(rami51, max_jokers_per_meld=2,
                                                     adjacent_jokers=True),
         f"{cards} {cards} JK JK JK"),
        ("threshold 1000, 26 cards", get_rules("rami40", opening_threshold=1000),
         f"{cards} JK JK")]:
        state = RoundState(rules, [parse_cards(hand), parse_cards("KC KD")],
                           parse_cards("3C 3D"), parse_cards("JK"))
        print(f"draw discard, {name}: {cpu(lambda s=state: s.can_draw_discard())}")


if __name__ == "__main__":
    main()
