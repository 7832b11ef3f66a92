"""Mutation test: change each stated claim by one, flip each verdict; ``check`` must catch it.

Each mutation is made in a scratch copy of the real project. ``check`` must exit 2
and name the mutated file and line. Every mutation must be caught.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import run_cli

from site_builder.cli import main

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


def test_every_mutation_is_caught(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = json.loads(run_cli("check", "--json", "--root", str(project)).out)
    assert report["ok"], report["errors"]
    claims = report["claims"]
    assert len(claims) >= 50
    missed = []
    for claim in claims:
        path = project / claim["source"]
        original = path.read_text(encoding="utf-8")
        lines = original.splitlines(keepends=True)
        key, value = lines[claim["line"] - 1].rstrip("\n").split(":", 1)
        assert key == claim["field"]
        lines[claim["line"] - 1] = f"{key}: {mutate(key, value.strip())}\n"
        path.write_text("".join(lines), encoding="utf-8")
        try:
            code = main(["check", "--root", str(project)])
            err = capsys.readouterr().err
        finally:
            path.write_text(original, encoding="utf-8")
        where = f"{claim['source']}:{claim['line']}:"
        if code != 2 or not any(line.startswith(where) for line in err.splitlines()):
            missed.append((where, claim["field"], code, err))
    assert not missed, missed
    # and the untouched project is clean again
    assert main(["check", "--root", str(project)]) == 0
