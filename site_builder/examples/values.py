"""The value parsers of example fields: a field's text in, its value out, or
:class:`BadValue` saying why not (reported at the field's line)."""

from __future__ import annotations

import re
from collections.abc import Callable

from site_builder import engine
from site_builder.sources.files import MAX_DIGITS

Parser = Callable[[str], object]


class BadValue(Exception):
    """A field's value that its parser refuses; the message says why."""


def integer(value: str) -> int:
    # digits 0-9 only: int() would also take "+3", "1_000", " 3" and other scripts' digits
    if not re.fullmatch(rf"-?[0-9]{{1,{MAX_DIGITS}}}", value):
        raise BadValue(f"{value[:20]!r} is not a whole number (digits 0-9, at most "
                       f"{MAX_DIGITS})")
    return int(value)


def integers(value: str) -> list[int]:
    return [integer(v.strip()) for v in value.split(",")]


def integer_groups(value: str) -> list[list[int]]:
    """Lists of whole numbers separated by ``|`` (a game's rounds)."""
    return [integers(part) for part in value.split("|")]


def choice(*options: str) -> Callable[[str], str]:
    def parse(value: str) -> str:
        if value not in options:
            raise BadValue(f"{value!r} is not one of: {', '.join(options)}")
        return value
    return parse


def codes(value: str) -> list[str]:
    """Reason codes, separated by commas or spaces; ``none`` for none (as a table shows
    them).

    >>> codes("wrap, gap"), codes("none")
    (['gap', 'wrap'], [])
    """
    found = sorted(v.strip() for v in value.replace(",", " ").split() if v.strip())
    return [] if found == ["none"] else found


def cards(value: str) -> tuple[engine.Card, ...]:
    try:
        return engine.parse_cards(value)
    except engine.CardError as exc:
        raise BadValue(f"{exc}; write cards like QH 10S AD JK") from None


def card_codes(value: str) -> list[str]:
    return [c.code for c in cards(value)]


def sorted_codes(value: str) -> list[str]:
    """Cards as their codes in order, to compare as a set of cards (a hand)."""
    return sorted(card_codes(value))


def groups(value: str) -> tuple[tuple[engine.Card, ...], ...]:
    """Groups of cards separated by ``|`` (melds, or seats' hands); none may be empty.

    >>> [[c.code for c in group] for group in groups("QH KH AH | JK 7S 8S")]
    [['QH', 'KH', 'AH'], ['JK', '7S', '8S']]
    >>> groups("QH KH AH |")
    Traceback (most recent call last):
    ...
    site_builder.examples.values.BadValue: group 2 (after '|') holds no card; remove the \
extra '|'
    """
    found = tuple(cards(part) for part in value.split("|"))
    empty = [n for n, group in enumerate(found, 1) if not group]
    if empty:
        raise BadValue(f"group {empty[0]} (after '|') holds no card; remove the extra '|'"
                       if empty[0] > 1 else "group 1 (before '|') holds no card; remove the "
                       "extra '|'")
    return found


def yes_no_text(value: str) -> str:
    if value not in ("yes", "no"):
        raise BadValue(f"{value!r} must be yes or no")
    return value


def yes_no(value: str) -> bool:
    return yes_no_text(value) == "yes"


def seats(value: str) -> list[int]:
    return [] if value.strip() in ("", "none") else integers(value)
