"""``site-builder build``: load, verify, render, then replace the output folder."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any


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
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="processes to render with (default: one per CPU core)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from site_builder.build import build

    start = time.perf_counter()
    root = args.root
    out = args.out if args.out is not None else root / "dist"
    result = build(root, out, base_url=args.base_url, strict=args.strict,
                   cache=not args.no_cache, jobs=args.jobs)
    elapsed = time.perf_counter() - start
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
