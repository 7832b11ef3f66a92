"""``site-builder serve``: build, serve on 127.0.0.1, rebuild on change and reload the page."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from site_builder.commands.arguments import bounded
from site_builder.errors import UserError
from site_builder.project import SOURCE_LANG, po_path
from site_builder.serve import serve


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("serve", parents=[common], help="preview with live reload",
                       description="Serve the site on 127.0.0.1 and rebuild when content, "
                                   "catalogs or templates change.")
    p.add_argument("--root", type=Path, default=Path("."), help="project folder (default: .)")
    p.add_argument("--port", type=bounded(0, 65535), default=8000, help="port (default: 8000)")
    p.add_argument("--translate", metavar="LANG",
                   help="the translator's preview of LANG: pick a text on a page to see its "
                        "catalog entry, and save its translation from the page")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.translate is not None:
        catalog = args.root / po_path(args.translate)
        if args.translate == SOURCE_LANG or not catalog.is_file():
            raise UserError(f"--translate {args.translate}: no catalog {po_path(args.translate)};"
                            " give a language of locales/ (site-builder i18n init LANG "
                            "starts one)")
    return serve(args.root, args.port, translate=args.translate)
