"""``site-builder check``: verify every example and translation, writing nothing.

``--format text`` (the default) prints ``path:line: message`` on stderr; ``json`` a
report on stdout; ``github`` one GitHub Actions workflow command per problem on stdout
(``::error file=…,line=…``), which annotates that line of a pull request. Missing and
fuzzy translations are warnings (``::warning``), errors with ``--strict``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from site_builder.errors import Problem

from site_builder.report import FORMATS

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
    from site_builder.errors import UserError
    from site_builder.sources.site import load, verify

    # The claims and the templates' messages, for the report; every problem in one run,
    # as the build reports them, by building the site (writing nothing of the project).
    site, problems = load(args.root)
    checked = verify(site, problems, catalogs=False)  # the build reads the catalogs
    problems = render_problems(args.root)
    warnings = untranslated(site, checked.templates)
    if args.strict:
        problems, warnings = problems + warnings, []
    claims = [c.as_json() for c in checked.claims]
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
        from site_builder.report import print_github

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
    return 0


def render_problems(root: Path) -> list[Problem]:
    """Every problem ``build`` finds (issue 14), found by building the site into a scratch
    folder: loading, the examples, the templates, the catalogs and rendering."""
    import shutil
    import tempfile

    from site_builder.build import build
    from site_builder.errors import UserError

    scratch = Path(tempfile.mkdtemp(prefix="site-builder-check-"))
    try:  # rendered into a scratch folder, without the cache (the project is not touched)
        # or a search index (Pagefind reads the pages rendered, not the project's files)
        build(root, scratch / "dist", cache=False, search=False)
    except UserError as exc:
        return exc.problems
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return []


def _as_json(problem: Any) -> dict[str, Any]:
    return {"source": problem.path, "line": problem.line, "message": problem.message}


def untranslated(site: Any, templates: Any) -> list[Any]:
    """A problem for each message a language shows in English: at its catalog entry when
    the catalog has one (fuzzy or empty), else where the English text is.

    *templates* are the templates' messages as ``verify`` found them in the trees it
    compiled (:class:`site_builder.i18n.messages.TemplateMessage`), not extracted again.
    """
    from site_builder.errors import Problem
    from site_builder.i18n.catalog import coverage_state, load_catalog, po_path
    from site_builder.i18n.messages import page_entries
    from site_builder.verify.examples import PROFILES_FILE

    source: dict[tuple[Any, str | None], tuple[str, int]] = {}
    for page in sorted(site.pages, key=lambda p: p.source):
        for msgid, context, path, line, _ in page_entries(page):
            source.setdefault((msgid, context), (path, line))
    for profile in sorted(site.profiles.values(), key=lambda p: p.line):
        source.setdefault((profile.name, None), (PROFILES_FILE, profile.name_line))
    for message in templates:
        source.setdefault((message.msgid, message.context), (message.source, message.line))
    found: list[Problem] = []
    for lang in site.languages[1:]:
        loaded, _ = load_catalog(site.root, lang, comments=False)
        if loaded is None:  # it did not load: its problem is reported already
            continue
        for (msgid, context), (path, line) in source.items():
            if not msgid:
                continue
            entry = loaded.catalog.get(msgid, context)
            state = coverage_state(entry)
            if state == "translated":
                continue
            text = msgid if isinstance(msgid, str) else msgid[0]
            what = "fuzzy" if state == "fuzzy" else "missing"
            said = f"[{lang}] {what} translation, shown in English: {text!r}"
            if entry is not None and getattr(entry, "lineno", None):
                found.append(Problem(po_path(lang), int(entry.lineno), said))
            else:
                found.append(Problem(path, line, said))
    return found
