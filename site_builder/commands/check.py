"""``site-builder check``: verify every example and translation, writing nothing."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("check", parents=[common], help="verify examples and translations",
                       description="Run the build's verification without writing anything.")
    p.add_argument("--root", type=Path, default=Path("."), help="project folder (default: .)")
    p.add_argument("--json", action="store_true", help="print a JSON report on stdout")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from site_builder.errors import UserError
    from site_builder.load import load, verify

    # Every problem in one run, as the build reports them: what loaded is checked too.
    site, problems = load(args.root)
    checked = verify(site, problems)
    problems = checked.problems
    claims = [c.as_json() for c in checked.claims]
    if args.json:
        print(json.dumps({
            "ok": not problems,
            "claims": claims,
            "errors": [{"source": p.path, "line": p.line, "message": p.message}
                       for p in problems],
        }, ensure_ascii=False, indent=2))
        return 2 if problems else 0
    if problems:
        raise UserError(problems)
    print(f"ok: {len(claims)} claims verified, every translation checked")
    return 0
