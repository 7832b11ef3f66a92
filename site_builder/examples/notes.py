"""The numbers beside a worked example: in its caption and its note.

A number in a caption or a note is part of the example, so the engine checks it as it
checks a stated claim. Each number is one of:

* part of a game's name ("Rami 40", "Remi 51"): left alone;
* an identifier, "seat 2", "seats 1 and 3", "meld 2", "round 4": the seat, the meld on
  the table after the row's step, or the round must exist in the example (a table of
  one hand or one meld has no seats: a seat it names is that of an example beside it);
* a point value (a card's value, a meld's points, a total, a score, a threshold): it must
  be one of the values the engine computes for the row. Where the clause that holds it
  also names seats and the row has values by seat (a stock-out's points, the hand
  points and scores of a round that ends, a game's totals), it must be the value of the
  seat it names ("seats 1 and 3 score 20 and 15": seat 1's 20, seat 3's 15).

Why a check, not a placeholder such as ``{total}`` in the note: the writer reads and
writes the number the reader sees ("make only 50 points"), the note's msgid keeps it,
and every translation must keep the msgid's numbers (:mod:`site_builder.i18n.checks`).
So the English note checked against the engine checks every translation's numbers too,
and a note the engine disagrees with is reported at its line and at the line of each
catalog entry that translates it (:func:`translated_note_problems`). A number written
in words ("ten points short") is not checked: write a point value in digits.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from site_builder import engine
from site_builder.errors import Problem
from site_builder.examples.base import VerifiedRow, VerifiedTable

# Values of a row that are points, by the name its kind computes them under; those that
# are lists by seat (seat 1 first) are also in SEAT_VALUES.
POINT_VALUES = ("points", "total", "threshold", "hand_points", "scores", "totals",
                "card_points", "refused_opening", "rounds")
SEAT_VALUES = ("hand_points", "scores", "totals", "seat_points")

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_GAME_NAME = re.compile(r"\b(?:Rami|Remi)\s+\d+")
_LIST = r"\d+(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)\d+)*"
_IDENTIFIER = re.compile(rf"\b(seat|meld|round)s?\s+({_LIST})", re.IGNORECASE)
_NUMBER = re.compile(r"\d+")
# a clause ends at a stop, or at a comma that does not go on with a list of numbers
_CLAUSE_END = re.compile(r"[;:.!?](?:\s|$)|,\s+(?!(?:and\s+|or\s+)?\d)")


@dataclass(frozen=True, slots=True)
class Said:
    """What one clause of a note or caption says: the identifiers it names and its
    point values, in order."""

    seats: tuple[int, ...]
    melds: tuple[int, ...]
    rounds: tuple[int, ...]
    points: tuple[int, ...]


def clauses(text: str) -> list[Said]:
    """The clauses of *text*, each with its identifiers and point values.

    >>> [(s.seats, s.points) for s in clauses(
    ...     "Seat 2 holds the fewest points: it scores 0, seats 1 and 3 score 20 and 15.")]
    [((2,), ()), ((), (0,)), ((1, 3), (20, 15))]
    >>> clauses("Seats 1, 2 and 3 hold 5, 6 and 7")[0].seats
    (1, 2, 3)
    >>> clauses("Three sevens (21) in Rami 51 and meld 2")[0]
    Said(seats=(), melds=(2,), rounds=(), points=(21,))
    >>> clauses("At most {max_set_cards} cards; seat 1's turn")[0].seats
    (1,)
    """
    found = []
    for part in _CLAUSE_END.split(_GAME_NAME.sub(" ", _PLACEHOLDER.sub(" ", text))):
        named: dict[str, list[int]] = {"seat": [], "meld": [], "round": []}

        def identifier(match: re.Match[str], named: dict[str, list[int]] = named) -> str:
            named[match.group(1).lower()].extend(int(n) for n in _NUMBER.findall(match.group(2)))
            return " "

        rest = _IDENTIFIER.sub(identifier, part)
        points = tuple(int(n) for n in _NUMBER.findall(rest))
        if points or any(named.values()):
            found.append(Said(tuple(named["seat"]), tuple(named["meld"]),
                              tuple(named["round"]), points))
    return found


def _ints(value: Any) -> list[int]:
    """The whole numbers in a value: itself, or those of a list (of lists)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, list | tuple):
        return [n for item in value for n in _ints(item)]
    return []


@dataclass(frozen=True, slots=True)
class RowValues:
    """What a note beside one row may name: its point values, its values by seat, and
    how many seats, which melds and how many rounds the example has (None: it has none)."""

    points: frozenset[int]
    by_seat: Mapping[str, Sequence[int]]
    seats: int | None
    melds: tuple[int, ...] | None
    rounds: int | None


def row_values(kind: str, row: VerifiedRow) -> RowValues:
    """The values a note beside *row* (of a table of *kind*) may give."""
    computed, inputs, rules = row.computed, row.inputs, row.rules
    values: dict[str, Any] = {k: computed[k] for k in POINT_VALUES if k in computed}
    seats: int | None = None
    melds: tuple[int, ...] | None = None
    rounds: int | None = None
    if kind == "hands":  # each card's value too: "the ace counts 11"
        values["card_points"] = [engine.card_hand_points(c, rules) for c in inputs["cards"]]
    elif kind == "stock-out":
        hands = inputs["hands"]
        seats = len(hands)
        values["seat_points"] = computed["points"]
        values["scores"] = list(engine.round_scores(hands, computed["winner"] - 1, rules))
    elif kind == "game":
        values["rounds"] = inputs["rounds"]
        seats, rounds = len(computed["totals"]), len(inputs["rounds"])
    elif kind == "deals":
        seats = inputs["players"]
    elif kind == "round":
        seats = len(inputs["hands"])
        melds = tuple(number for number, _ in computed.get("table", ()))
    by_seat = {k: _ints(values[k]) for k in SEAT_VALUES if isinstance(values.get(k), list)}
    points = frozenset(n for k, v in values.items() if k != "seat_points" for n in _ints(v))
    return RowValues(points | {n for v in by_seat.values() for n in v}, by_seat, seats, melds,
                     rounds)


def _said_problems(said: Said, values: RowValues) -> list[str]:
    """What is wrong with one clause, against the row's *values*."""
    problems = []
    for name, named, have in (("seat", said.seats, values.seats),
                              ("round", said.rounds, values.rounds)):
        for number in named:
            if have is None:
                continue  # a table of one hand or meld: a seat named is another example's
            if not 1 <= number <= have:
                problems.append(f"it names {name} {number}, but this example has {have} "
                                f"{name}{'s' if have != 1 else ''}")
    for number in said.melds:
        if values.melds is None:
            problems.append(f"it names meld {number}, but this example has no melds on the "
                            "table")
        elif number not in values.melds:
            on = ", ".join(str(n) for n in values.melds) or "none"
            problems.append(f"it names meld {number}, but the table holds melds {on} after "
                            "this step")
    if not said.points:
        return problems
    seats = [s for s in said.seats if values.seats is not None and 1 <= s <= values.seats]
    if seats and values.by_seat:
        if len(said.points) == len(seats) > 1:  # "seats 1 and 3 score 20 and 15"
            if not any(all(values_[s - 1] == n for s, n in zip(seats, said.points, strict=True))
                       for values_ in values.by_seat.values()):
                problems.append(_by_seat(said.points, seats, values))
            return problems
        for number in said.points:
            if not any(values_[s - 1] == number for values_ in values.by_seat.values()
                       for s in seats):
                problems.append(_by_seat((number,), seats, values))
        return problems
    for number in said.points:
        if number not in values.points:
            computed = ", ".join(str(n) for n in sorted(values.points)) or "none"
            problems.append(f"it states {number}, which the engine does not compute for this "
                            f"example (its values: {computed})")
    return problems


def _by_seat(points: Sequence[int], seats: Sequence[int], values: RowValues) -> str:
    shown = "; ".join(f"{name.replace('_', ' ').replace('seat points', 'points')} "
                      + ", ".join(f"seat {s}: {v[s - 1]}" for s in seats)
                      for name, v in values.by_seat.items())
    return (f"it states {', '.join(str(n) for n in points)} for seat"
            f"{'s' if len(seats) > 1 else ''} {', '.join(str(s) for s in seats)}, but the "
            f"engine computes {shown}")


def note_problems(source: str, table: VerifiedTable,
                  wrong: dict[str, tuple[str, int]] | None = None) -> list[Problem]:
    """A problem at the line of each caption or note of *table* (on page *source*) that
    names a seat, meld or round the example lacks, or a point value the engine does not
    compute for its row. *wrong*, if given, gets each such text and where it is (its page
    and line): the catalog entries that translate it are wrong too."""
    problems = []
    for row in table.rows:
        values = row_values(table.block.table, row)
        for what, segment in (("caption", row.row.caption), ("note", row.row.note)):
            if segment is None:
                continue
            for said in clauses(segment.text):
                for problem in _said_problems(said, values):
                    problems.append(Problem(source, segment.line,
                                            f"example {row.row.caption.text!r}: the {what} "
                                            f"is wrong: {problem}"))
                    if wrong is not None:
                        wrong.setdefault(segment.text, (source, segment.line))
    return problems
