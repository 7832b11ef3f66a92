"""What every command's parser shares: one-line usage errors and bounded numbers. Here,
not in ``cli.py``, which imports the commands: a command importing ``cli`` back would close
a circle."""

from __future__ import annotations

import argparse
import re
from typing import Any


class OneLineParser(argparse.ArgumentParser):
    """Reports a usage error in one line (no usage block) and exits 2; the subcommands'
    parsers are made of this class too (argparse's default ``parser_class``)."""

    def error(self, message: str) -> Any:  # argparse declares NoReturn
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def bounded(low: int, high: int) -> Any:
    """An argparse type: a whole number from *low* to *high* (every number a
    user types is bounded, so that none makes a run exhaust the memory). ASCII digits of
    any length are read as a number, so that a number too large is said to be out of
    range; its digits are counted, never converted (``int()`` of 5,000 digits refuses).

    >>> bounded(1, 4)("3"), bounded(1, 4).__name__
    (3, 'whole number from 1 to 4')
    >>> bounded(1, 100_000)("10000000")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 10000000 is out of range: expected a whole number from 1 to 100000
    >>> bounded(1, 4)("3.0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: '3.0' is not a whole number: expected one from 1 to 4
    """
    expected = f"a whole number from {low} to {high}"

    def parse(text: str) -> int:
        if not re.fullmatch(r"-?[0-9]+", text):  # ASCII digits: int() reads " 3", "٣", "3_0"
            raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number: "
                                             f"expected one from {low} to {high}")
        digits = text.lstrip("-").lstrip("0") or "0"
        if len(digits) > max(len(str(abs(low))), len(str(abs(high)))):
            raise argparse.ArgumentTypeError(f"{shown(text, quote=False)} is out of range: "
                                             f"expected {expected}")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is out of range: expected {expected}")
        return value
    parse.__name__ = f"whole number from {low} to {high}"
    return parse


def shown(text: str, quote: bool = True) -> str:
    """*text*, a value given on the command line, as a message shows it: quoted (unless
    *quote* is false, for digits), and cut to its first 20 characters if it is longer.

    >>> shown("1" * 30, quote=False)
    '11111111111111111111... (30 characters)'
    """
    cut = text if len(text) <= 20 else text[:20]
    out = repr(cut) if quote else cut
    return out if cut == text else f"{out}... ({len(text)} characters)"
