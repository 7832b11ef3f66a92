"""``site-builder build``: load, verify, render, then replace the output folder."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from site_builder.build import build
from site_builder.cache import read_record
from site_builder.errors import DISK_FULL, UserError
from site_builder.output import MARKER, try_writing, written_by_build
from site_builder.project import output_problem
from site_builder.sources.settings import base_url_problem


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("build", parents=[common], help="build the site into dist/",
                       description="Build the site. Nothing is written unless every example "
                                   "and translation checks out.")
    p.add_argument("--root", type=Path, default=Path("."), help="project folder (default: .)")
    p.add_argument("--out", type=Path, default=None, help="output folder (default: ROOT/dist)")
    p.add_argument("--base-url", default=None,
                   help="public address of the site, for canonical links and sitemap.xml")
    p.add_argument("--strict", action="store_true",
                   help="treat missing and fuzzy translations as errors")
    p.add_argument("--no-cache", action="store_true",
                   help="neither use nor update the build cache in ROOT/.cache/")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    root = args.root
    out = args.out if args.out is not None else root / "dist"
    if args.base_url is not None:
        why = base_url_problem(args.base_url)
        if why is not None:
            raise UserError(f"--base-url: {why.replace('base_url must', 'it must', 1)}")

    refused = output_problem(root, out)  # sources first: the worse mistake
    if refused is not None:
        raise UserError([refused])
    problem = out_problem(out, root)
    if problem is not None:
        raise UserError(problem)
    try:
        result = build(root, out, base_url=args.base_url, strict=args.strict,
                       cache=not args.no_cache)
    except OSError as exc:  # the output's disk full, or taken away during the build
        if exc.errno in DISK_FULL:  # os.write names no file
            raise UserError(f"--out {out}: cannot write the site: the disk is full "
                            f"({exc.strerror or exc}); free some space and build again; the "
                            "earlier site is kept") from None
        place = Path(os.path.abspath(out)).parent
        names = [Path(os.path.abspath(n)) for n in (exc.filename, exc.filename2) if n]
        if not any(n == place or place in n.parents for n in names):
            raise
        raise UserError(f"--out {out}: cannot write {names[0]} ({exc.strerror or exc}); "
                        "the earlier site is kept") from None
    elapsed = time.perf_counter() - start
    for warning in result.unknown:  # an error with --strict (raised by build)
        print(f"{warning} (a warning; an error with --strict)", file=sys.stderr)
    languages = ", ".join(result.languages)
    if not result.rendered:
        done = "nothing changed"
    elif len(result.rendered) < len(result.languages):
        done = f"rendered again: {', '.join(result.rendered)}"
    else:
        done = "rendered every language"
    print(f"built {len(result.files)} files in {len(result.languages)} languages "
          f"({languages}); {result.claims} claims verified by the engine; {done}; "
          f"{elapsed:.2f} s -> {out}", file=sys.stderr)
    return 0


def out_problem(out: Path, root: Path | None = None) -> str | None:
    """Why the output folder *out* cannot be written, before anything is read: it is a
    file, a folder on its way is a file, it holds files that no build wrote (a build
    replaces the whole folder: issue 14, class 1; an index.html is no proof, the
    build's marker is: :func:`~site_builder.output.written_by_build`, issue 28), it is a
    mount point (it cannot be renamed), or the folder its staging folder goes in cannot
    be written. Whether a folder can be written is tried (a folder made and removed), not asked of
    ``os.access``: root may write anywhere by permissions, yet not in /proc or /sys, nor
    on a read-only file system (issue 14, class 10)."""
    if out.exists() and not out.is_dir():
        return f"--out {out}: it is a file, not a folder; pass --out with a folder"
    for parent in [out, *out.parents]:
        if parent.exists() and not parent.is_dir():
            return f"--out {out}: {parent} is a file, not a folder; pass --out with a folder"
    if out.is_dir():
        if os.path.ismount(out):
            return f"--out {out}: it is a mount point, which a build cannot replace; pass " \
                   "--out with a folder inside it"
        if any(out.iterdir()) and not written_by_build(out) \
                and not (root is not None and recorded(root, out)):
            return f"--out {out}: it holds files that no build of site-builder wrote (no " \
                   f"valid {MARKER} in it), and a build replaces the whole folder; pass " \
                   "--out with a new or empty folder, or one that a build wrote"
    where = next(p for p in out.absolute().parents if p.exists())
    try:
        try_writing(where, out)
    except OSError as exc:
        return f"--out {out}: cannot write in {where} ({exc.strerror or exc}); pass --out " \
               "with a folder you can write to"
    return None


def recorded(root: Path, out: Path) -> bool:
    """Whether *out* holds every file that the last build of it from *root* recorded
    (:mod:`site_builder.cache`), as that build wrote it: an output written before builds
    wrote their marker (:data:`~site_builder.output.MARKER`)."""
    found = read_record(root, out.resolve())
    if found is None or not found["files"]:
        return False
    try:
        return all([(st := os.stat(out / rel)).st_size, st.st_mtime_ns] == list(expected)
                   for rel, expected in found["files"].items() if rel != MARKER)
    except OSError:
        return False
