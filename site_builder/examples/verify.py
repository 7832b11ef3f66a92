"""Replay every worked example through the engine and compare it with what the page
states.

Each kind of table (:data:`site_builder.examples.KINDS`) declares its input fields, the
claims it may state, the claims it must state, and how the engine computes them. Every
stated claim becomes a :class:`Claim`; a claim whose stated value differs from the
computed one is a disagreement and fails the build.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from site_builder import engine
from site_builder.errors import Problem
from site_builder.examples.base import (
    Claim,
    Kind,
    Verification,
    VerifiedRow,
    VerifiedTable,
    profile_key,
    resolve,
    rules_for,
)
from site_builder.examples.notes import note_problems
from site_builder.examples.registry import KINDS
from site_builder.examples.values import BadValue
from site_builder.sources.page import ExampleBlock, ExampleRow, Field, Page
from site_builder.sources.profiles import Profile

COMMON_FIELDS = ("game", "profile")

# The engine's work that one run (``check`` or ``build``) may do for all its examples
# together, in search steps (see site_builder.engine.search.NODE_LIMIT, the bound of one
# question): each question is bounded, but a page of many costly ones adds up.
# About 40 questions that reach their own bound, some 2 s of CPU; the real site's examples
# take 1,170 steps (benchmarks/hostile_page.py --steps measures it, and a hostile page).
ENGINE_STEPS = 2_000_000


def verify_pages(pages: list[Page], profiles: dict[str, Profile],
                 broken: frozenset[str] = frozenset(), kinds: Mapping[str, Kind] = KINDS,
                 total: engine.Budget | None = None) -> Verification:
    """Replay every example of every page with its kind (*kinds*); collect claims and
    problems (never raises). An example under a *broken* profile (declared, but it did
    not load: its problem is reported) is left out. The engine's questions all draw on
    *total* (a new budget of :data:`ENGINE_STEPS` if none is given): once it is spent,
    each further question is refused at its row."""
    total = engine.Budget(ENGINE_STEPS) if total is None else total
    out = Verification()
    for page in pages:
        for block in page.examples:
            if profile_key(block.defaults.get("profile")) in broken:
                continue
            kind = kinds.get(block.table)
            if kind is not None and kind.verify_block is not None:
                rows = kind.verify_block(page.source, block, profiles, out.problems, total)
            else:
                rows = []
                for row in block.rows:
                    if profile_key(row.get("profile", block.defaults)) in broken:
                        continue
                    if kind is None:
                        out.problems.append(Problem(
                            page.source, block.table_line, f"unknown table type "
                            f"{block.table!r}; use one of: {', '.join(kinds)}"))
                        continue
                    verified = _verify_row(page.source, block, row, kind, profiles,
                                           out.problems)
                    if verified is not None:
                        rows.append(verified)
            out.claims.extend(c for vr in rows for c in vr.claims)
            table = out.tables[(page.source, block.line)] = VerifiedTable(block, tuple(rows))
            if kind is not None:  # the numbers of its captions and notes
                out.problems.extend(note_problems(page.source, table, out.wrong_notes))
    return out


def _verify_row(source: str, block: ExampleBlock, row: ExampleRow, kind: Kind,
                profiles: Mapping[str, Profile], problems: list[Problem]) -> VerifiedRow | None:
    before = len(problems)

    def error(line: int, message: str) -> None:
        problems.append(Problem(source, line, f"example {row.caption.text!r}: {message}"))

    known = set(kind.inputs) | set(kind.claims) | set(COMMON_FIELDS)
    for fld in [*block.defaults.values(), *row.fields.values()]:
        if fld.key not in known:
            error(fld.line, f"unknown field {fld.key!r} for a {block.table} table; "
                            f"expected: {', '.join(sorted(known))}")
    found = resolve(row.get("game", block.defaults), row.get("profile", block.defaults),
                    row.line, profiles, error)
    inputs: dict[str, Any] = {}
    for key, parse in kind.inputs.items():
        given = row.get(key, block.defaults)
        if given is None:
            if key not in kind.options:
                error(row.line, f"missing input {key!r}")
            continue
        try:
            inputs[key] = parse(given.value)
        except BadValue as exc:
            error(given.line, f"{key}: {exc}")
    stated: dict[str, tuple[Any, Field]] = {}
    for key, parse in kind.claims.items():
        claim = row.get(key, block.defaults)  # a claim before the first caption: every row's
        if claim is None:
            continue
        try:
            stated[key] = (parse(claim.value), claim)
        except BadValue as exc:
            error(claim.line, f"{key}: {exc}")
    if len(problems) > before or found is None or kind.compute is None:
        return None
    game, profile = found
    for key in kind.required({k: v for k, (v, _) in stated.items()}, engine.PRESETS[game]):
        if key not in stated:
            error(row.line, f"missing claim {key!r}: state what the example shows, "
                            f"e.g. '{key}: ...'")
    try:
        rules = rules_for(game, profile, **{k: inputs[k] for k in kind.options if k in inputs})
        computed = kind.compute(inputs, rules)
    except (engine.RulesError, ValueError) as exc:
        # the inputs led to it: at the row's first input line (e.g. players: 0)
        first = [f for k in kind.inputs if (f := row.fields.get(k)) is not None]
        error(first[0].line if first else row.line, str(exc))
        return None
    claims = tuple(
        Claim(source, fld.line, row.caption.text, key, value, computed.get(key))
        for key, (value, fld) in sorted(stated.items(), key=lambda kv: kv[1][1].line)
    )
    return VerifiedRow(row, game, profile, rules, inputs, computed, claims)


def describe(claim: Claim, row: VerifiedRow | None = None) -> str:
    """The message for a disagreement, as printed by ``build`` and ``check``."""
    context = f" ({row.context})" if row is not None else ""
    return (f"example {claim.example!r}: stated {claim.field} {_show(claim.stated)}, "
            f"the engine computes {_show(claim.computed)}{context}")


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    if value is None:
        return "nothing"
    return str(value)
