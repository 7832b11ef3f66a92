"""``site-builder build``: load, verify, render, then replace the output folder."""

from __future__ import annotations

import argparse
import errno
import os
import sys
import time
from pathlib import Path
from typing import Any

from site_builder.build import build, recorded_files
from site_builder.errors import DISK_FULL, Problem, UserError, disk_full
from site_builder.output import refusal, try_writing
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

    problem = out_problem(out, root)
    if problem is not None:
        raise UserError([problem])
    try:
        result = build(root, out, base_url=args.base_url, strict=args.strict,
                       cache=not args.no_cache)
    except OSError as exc:  # the output's disk full, or taken away during the build
        if exc.errno in DISK_FULL:  # os.write names no file
            why = (disk_full(exc).split(" (the files")[0] if exc.errno == errno.EFBIG
                   else f"the disk is full ({exc.strerror or exc}); free some space and "
                        "build again")
            raise UserError(f"--out {out}: cannot write the site: {why}; the earlier site is "
                            "kept") from None
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


def out_problem(out: Path, root: Path) -> Problem | None:
    """Why the output folder *out* cannot be written, before anything is read: the build
    may not replace it (:func:`~site_builder.output.refusal`, the one place that decides
    it), or the folder its staging folder goes in cannot be written. Whether a folder can be
    written is tried (a folder made and removed), not asked of ``os.access``: root may
    write anywhere by permissions, yet not in /proc or /sys, nor on a read-only file
    system."""
    refused = refusal(out, root, recorded_files(root, out.resolve()))
    if refused is not None:
        return refused
    where = next(p for p in out.absolute().parents if p.exists())
    try:
        try_writing(where, out)
    except OSError as exc:
        return Problem("site-builder", 0, f"--out {out}: cannot write in {where} "
                                          f"({exc.strerror or exc}); pass --out with a "
                                          "folder you can write to")
    return None
