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


def checked_with(project: Path, texts: dict[str, str], changed: dict[str, str]) -> Any:
    """``check`` of *project* with the *changed* sources written (path -> text); every
    source is back to its text in *texts* afterwards."""
    try:
        for source, text in changed.items():
            (project / source).write_text(text, encoding="utf-8")
        return run_main("check", "--root", str(project))
    finally:
        for source in changed:
            (project / source).write_text(texts[source], encoding="utf-8")


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
        result = checked_with(project, texts, {k: "".join(v) for k, v in changed.items()})
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
            translated = re.search(r"engine disagrees with \((content/[^:]+):(\d+)\)", error)
            if translated:  # a catalog entry that translates a mutated row's note
                source, number = translated.group(1), translated.group(2)
                error = f"{source}:{number}:"
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


# --- the numbers beside the examples: in their captions and notes ---------------------------

# A number that is not a point value: part of a game's name, or a seat, meld or round
# named (a list of them: "seats 1 and 3"); a {placeholder} is a rule value, checked apart.
NOT_POINTS = re.compile(r"\{[^{}]*\}|\b(?:Rami|Remi)\s+\d+|\b(?:seat|meld|round)s?\s+\d+"
                        r"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)\d+)*", re.I)
IDENTIFIER = re.compile(r"\b(?:seat|meld|round)s?\s+(\d+)", re.I)


# The tables of one hand, meld or first meld have no seats: a seat named beside one is
# that of an example next to it, which check does not look for.
SEATLESS = ("melds", "layoffs", "openings", "hands")


def beside_examples(project: Path, seated: bool = False) -> dict[tuple[str, int], str]:
    """Every caption and note line of an example block in content/*.md, by (path, line);
    with *seated*, only those of tables that have seats."""
    found = {}
    for path in sorted((project / "content").glob("*.md")):
        inside, table = False, ""
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("```"):
                inside = line.startswith("```example") if not inside else False
            elif inside and line.startswith("table:"):
                table = line.split(":", 1)[1].strip()
            elif inside and line.startswith(("caption:", "note:")) and not (
                    seated and table in SEATLESS):
                found[f"content/{path.name}", number] = line
    return found


def point_values(line: str) -> list[re.Match[str]]:
    """The point values written in digits on a caption or note line."""
    spans = [m.span() for m in NOT_POINTS.finditer(line)]
    return [m for m in re.finditer(r"\d+", line)
            if not any(a <= m.start() < b for a, b in spans)]


def mutated_runs(lines: dict[tuple[str, int], str], seated: dict[tuple[str, int], str]
                 ) -> list[dict[tuple[str, int], str]]:
    """Runs of check, each with at most one change a line: run *k* adds one to the *k*-th
    point value of every line of *lines* that has one; a last run names seat, meld or
    round 9 (no example has nine) in place of the first identifier of every line of
    *seated* (those beside a table that has seats)."""
    runs: list[dict[tuple[str, int], str]] = []
    for where, line in lines.items():
        for k, match in enumerate(point_values(line)):
            while len(runs) <= k:
                runs.append({})
            runs[k][where] = (line[:match.start()] + str(int(match.group()) + 1)
                              + line[match.end():])
    identifiers = {where: IDENTIFIER.sub(lambda m: m.group(0)[:m.start(1) - m.start()] + "9",
                                         line, count=1)
                   for where, line in seated.items() if IDENTIFIER.search(line)}
    return [*runs, identifiers]


def test_every_number_beside_an_example_is_checked(project: Path) -> None:
    """Each point value in a caption or note changed by one, and each seat, meld or round
    named changed to one the example lacks: check names the line of each."""
    assert run_main("check", "--root", str(project)).code == 0
    lines = beside_examples(project)
    runs = mutated_runs(lines, beside_examples(project, seated=True))
    points = sum(len(run) for run in runs[:-1])
    assert points >= 10 and len(runs[-1]) >= 20, (points, len(runs[-1]))
    texts = {source: (project / source).read_text(encoding="utf-8")
             for source in {source for source, _ in lines}}
    missed = []
    for run in runs:
        changed: dict[str, list[str]] = {}
        for (source, number), line in run.items():
            changed.setdefault(source, texts[source].split("\n"))[number - 1] = line
        result = checked_with(project, texts, {k: "\n".join(v) for k, v in changed.items()})
        assert result.code == 2, result.err
        missed += [(where, line) for where, line in run.items()
                   if f"{where[0]}:{where[1]}: " not in result.err]
    print(f"{points} point values and {len(runs[-1])} identifiers mutated beside the examples, "
          f"{points + len(runs[-1]) - len(missed)} caught")
    assert not missed, missed


def test_a_changed_number_in_a_translated_note_is_caught(project: Path) -> None:
    """In every catalog, each translated note or caption with a point value, changed by
    one: check names the entry's line."""
    from babel.messages.pofile import read_po

    notes = {line.split(":", 1)[1].strip() for line in beside_examples(project).values()
             if point_values(line)}
    wanted = []
    for po in sorted((project / "locales").glob("*/LC_MESSAGES/messages.po")):
        text = po.read_text(encoding="utf-8")
        catalog = read_po(po.open("rb"))
        lines = text.split("\n")
        for message in catalog:
            if message.id in notes and message.string and not message.fuzzy:
                start = next(i for i in range(message.lineno, len(lines))
                             if lines[i].startswith("msgstr"))
                at = next(i for i in range(start, len(lines))  # msgstr "" and its lines
                          if re.search(r"\d", lines[i]) or not lines[i].strip())
                found = re.search(r"\d+", lines[at])
                assert found, (po, message.id)
                lines[at] = (lines[at][:found.start()] + str(int(found.group()) + 1)
                             + lines[at][found.end():])
                wanted.append(f"{po.relative_to(project)}:{message.lineno}: ")
        po.write_text("\n".join(lines), encoding="utf-8")
    assert len(wanted) >= 4 * 8, wanted
    result = run_main("check", "--root", str(project))
    assert result.code == 2
    missed = [w for w in wanted if w not in result.err]
    assert not missed, missed
