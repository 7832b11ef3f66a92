"""Mutation test: change each stated claim by one, flip each verdict; ``check`` must catch it.

The mutations are made in a scratch copy of the real project, one claim of each example
row at a time: run *k* changes the *k*-th claim of every row at once (claims of
different rows do not depend on each other, while a row's claims may: a flipped verdict
decides which of the others are read), so the real site takes as many runs as its
longest row has claims, and one more for each claim stated before a block's first
caption (it holds for every row of its block). Each run, ``check`` must exit 2, name
every mutated claim at its ``path:line`` and report nothing outside the mutated rows.
Every claim is mutated; every mutation must be caught.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from conftest import run_main

FLIPS = {"valid": "invalid", "invalid": "valid", "accepted": "rejected", "rejected": "accepted",
         "set": "sequence", "sequence": "set", "no_pure_sequence": "below_threshold",
         "below_threshold": "no_pure_sequence", "wrap": "gap", "ace_low_not_allowed": "wrap",
         "duplicate_suit": "mixed_ranks", "too_short": "gap", "mixed_suits": "gap",
         "gap": "wrap", "too_long": "too_short", "too_many_jokers": "gap",
         "joker_not_allowed": "gap", "yes": "no", "no": "yes",
         "out": "stock_out", "stock_out": "out", "duplicate_card": "gap", "mixed_ranks": "gap"}


def mutate(field: str, value: str) -> str:
    """The claim's value changed by one: numbers ±1, words flipped, cards moved one rank."""
    if re.fullmatch(r"\d+(,\s*\d+)*", value):
        first, *rest = value.split(",")
        return ",".join([str(int(first) + 1), *rest])
    if field == "refused":  # a step the engine allows (no seat 9): no longer refused
        return "9: draw stock"
    if field in ("jokers", "hand", "returned"):  # cards: the first card changes suit
        return re.sub(r"^(\w+?)([CDHS])", lambda m: m.group(1) + "DHSC"["CDHS".index(
            m.group(2))], value)
    return FLIPS[value]


def row_of(lines: list[str], line: int) -> int:
    """The first line of the example row that holds *line*: its ``caption:`` line, or the
    block's opening fence for a claim stated before the first caption (0: none)."""
    for number in range(min(line, len(lines)), 0, -1):
        text = lines[number - 1]
        if text.startswith("caption:") or text.startswith("```"):
            return number
    return 0


def test_every_mutation_is_caught(project: Path) -> None:
    result = run_main("check", "--json", "--root", str(project))
    report = json.loads(result.out)
    assert result.code == 0 and report["ok"], report["errors"]
    claims = report["claims"]
    assert len(claims) >= 50
    texts = {source: (project / source).read_text(encoding="utf-8")
             for source in {c["source"] for c in claims}}
    rows: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    alone = []  # a claim stated before a block's first caption holds for all its rows
    for claim in claims:
        lines = texts[claim["source"]].splitlines()
        row = row_of(lines, claim["line"])
        assert row, claim
        if lines[row - 1].startswith("```"):
            alone.append([claim])
        else:
            rows[claim["source"], row].append(claim)
    batches = [[row[k] for row in rows.values() if k < len(row)]
               for k in range(max(len(row) for row in rows.values()))] + alone
    runs = len(batches)
    mutated, caught = 0, 0
    missed: list[tuple[int, str, str]] = []
    elsewhere: list[tuple[int, str]] = []
    for k, batch in enumerate(batches):
        changed: dict[str, list[str]] = {}
        for claim in batch:
            lines = changed.setdefault(claim["source"],
                                       texts[claim["source"]].splitlines(keepends=True))
            key, value = lines[claim["line"] - 1].rstrip("\n").split(":", 1)
            assert key == claim["field"], (claim, key)
            lines[claim["line"] - 1] = f"{key}: {mutate(key, value.strip())}\n"
        try:
            for source, lines in changed.items():
                (project / source).write_text("".join(lines), encoding="utf-8")
            result = run_main("check", "--root", str(project))
        finally:
            for source in changed:
                (project / source).write_text(texts[source], encoding="utf-8")
        assert result.code == 2, (k, result.code, result.err)
        errors = result.err.splitlines()
        wanted = {f"{c['source']}:{c['line']}:" for c in batch}
        for claim in batch:
            where = f"{claim['source']}:{claim['line']}:"
            mutated += 1
            if any(e.startswith(where) for e in errors):
                caught += 1
            else:
                missed.append((k, where, claim["field"]))
        # every other error is in a mutated row (a flipped verdict asks for a reason, say):
        # no mutation is caught at its line because of another row's
        rows_changed = {(c["source"], row_of(texts[c["source"]].splitlines(), c["line"]))
                        for c in batch}
        for error in errors:
            if any(error.startswith(w) for w in wanted):
                continue
            source, _, rest = error.partition(":")
            number = rest.split(":", 1)[0]
            if not (source in texts and number.isdigit() and (
                    source, row_of(texts[source].splitlines(), int(number))) in rows_changed):
                elsewhere.append((k, error))
    print(f"{mutated} claims mutated in {runs} runs of check, {caught} caught")
    assert mutated == len(claims)
    assert not missed, missed
    assert not elsewhere, elsewhere
    assert caught == mutated
    # and the untouched project is clean again
    assert run_main("check", "--root", str(project)).code == 0
