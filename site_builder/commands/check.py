"""``site-builder check``: verify every example and translation, writing nothing.

``--format text`` (the default) prints ``path:line: message`` on stderr; ``json`` a
report on stdout; ``github`` one GitHub Actions workflow command per problem on stdout
(``::error file=…,line=…``), which annotates that line of a pull request. Missing and
fuzzy translations, and catalog entries whose msgid the template lacks (an edited msgid),
are warnings (``::warning``), errors with ``--strict``; as text, each is printed at its
catalog line, ten a catalog at most, then how many more.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from site_builder.build import check
from site_builder.errors import FORMATS, Problem, UserError, print_github
from site_builder.i18n.coverage import listed, orphans, untranslated

TITLE = "site-builder check"


def add_format_option(p: argparse.ArgumentParser) -> None:
    """``--format text|json|github``, with ``--json`` kept as ``--format json``."""
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="text (path:line on stderr, the default), json (a report on stdout) "
                        "or github (GitHub Actions annotations on stdout)")
    p.add_argument("--json", dest="format", action="store_const", const="json",
                   help="the same as --format json")


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("check", parents=[common], help="verify examples and translations",
                       description="Run the build's verification without writing anything.")
    p.add_argument("--root", type=Path, default=Path("."), help="project folder (default: .)")
    add_format_option(p)
    p.add_argument("--strict", action="store_true",
                   help="treat missing and fuzzy translations as errors, as build --strict")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Every problem in one run, as the build reports them: load and verify, then the
    # templates rendered in memory (writing nothing).
    verified = check(args.root)
    problems, claims = verified.problems, [c.as_json() for c in verified.claims]
    warnings = (orphans(verified.source, verified.catalogs)  # first: they are slips
                + untranslated(verified.source, verified.catalogs))
    if args.strict:
        problems, warnings = problems + warnings, []
    code = 2 if problems else 0
    if args.format == "json":
        print(json.dumps({
            "ok": not problems,
            "claims": claims,
            "errors": [_as_json(p) for p in problems],
            "warnings": [_as_json(p) for p in warnings],
        }, ensure_ascii=False, indent=2))
        return code
    if args.format == "github":
        print_github(problems, warnings, TITLE)
        print(f"site-builder check: {len(problems)} errors, {len(warnings)} warnings, "
              f"{len(claims)} claims", file=sys.stderr)
        return code
    if problems:
        raise UserError(problems)
    line = f"ok: {len(claims)} claims verified, every translation checked"
    if warnings:
        line += (f"; {len(warnings)} translations missing or fuzzy (shown in English; "
                 "--strict makes them errors)")
    print(line)
    for each in listed(warnings):  # each at its catalog line, a few a language
        print(each, file=sys.stderr)
    return 0


def _as_json(problem: Problem) -> dict[str, Any]:
    return {"source": problem.path, "line": problem.line, "message": problem.message}
