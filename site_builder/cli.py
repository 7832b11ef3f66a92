"""The ``site-builder`` command line.

Each subcommand lives in ``site_builder/commands/<name>.py`` and provides
``add_parser(subparsers)``; the parser it adds sets ``func`` to a callable
taking the parsed arguments and returning an exit code. Commands are imported
lazily so that a command only pays for what it uses.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS = ("build", "check", "i18n", "serve", "engine")


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="site-builder",
        description="Build the verified, multilingual Rami rules site.",
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks for errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    argv = sys.argv[1:]
    wanted = [a for a in argv if a in COMMANDS][:1] or list(COMMANDS)
    for name in COMMANDS:
        if name in wanted:
            module = importlib.import_module(f"site_builder.commands.{name}")
            module.add_parser(sub)
        else:
            sub.add_parser(name, help=f"see site-builder {name} --help")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from site_builder.errors import UserError

    if argv is not None:
        sys.argv = [sys.argv[0], *argv]
    parser = make_parser()
    args = parser.parse_args()
    try:
        code = args.func(args)
        return int(code or 0)
    except UserError as exc:
        if args.debug:
            raise
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - last line of defence: no tracebacks for users
        if args.debug:
            raise
        print(f"site-builder: internal error: {exc!r} (run with --debug for a traceback)",
              file=sys.stderr)
        return 1
