"""What every command's parser shares: one-line usage errors and bounded numbers. Here,
not in ``cli.py``, which imports the commands: a command importing ``cli`` back would close
a circle."""

from __future__ import annotations

import argparse
from typing import Any


class OneLineParser(argparse.ArgumentParser):
    """Reports a usage error in one line (no usage block) and exits 2; the subcommands'
    parsers are made of this class too (argparse's default ``parser_class``)."""

    def error(self, message: str) -> Any:  # argparse declares NoReturn
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def bounded(low: int, high: int) -> Any:
    """An argparse type: a whole number from *low* to *high* (every number a
    user types is bounded, so that none makes a run exhaust the memory).

    >>> bounded(1, 4)("3"), bounded(1, 4).__name__
    (3, 'whole number from 1 to 4')
    """
    def parse(text: str) -> int:
        if not text.lstrip("-").isdigit() or not text.isascii() or len(text) > len(str(high)) + 1:
            raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a whole number")
        value = int(text)
        if value < 0 <= low:
            raise argparse.ArgumentTypeError(f"{value} must not be negative")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is out of range: from {low} to {high}")
        return value
    parse.__name__ = f"whole number from {low} to {high}"
    return parse
