"""The ``site-builder`` command line.

Each subcommand lives in ``site_builder/commands/<name>.py`` and provides
``add_parser(subparsers, common)`` (pass ``parents=[common]`` so that every
command accepts ``--debug``); the parser it adds sets ``func`` to a callable
taking the parsed arguments and returning an exit code. Commands are imported
lazily so that a command only pays for what it uses.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from site_builder.commands.arguments import OneLineParser
from site_builder.errors import DISK_FULL, Problem, UserError, disk_full

COMMANDS = ("build", "check", "i18n", "serve", "engine")
# A process ended by a closed pipe (``site-builder check --json | head``) exits as the
# shell reports one killed by SIGPIPE: 128 + 13, as ``yes | head`` does.
EXIT_BROKEN_PIPE = 128 + 13


def make_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """Build the parser, importing only the subcommand named in *argv*."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show a traceback for errors")
    parser = OneLineParser(
        prog="site-builder",
        description="Build the verified, multilingual Rami rules site.",
        parents=[common],
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    wanted = [a for a in argv if a in COMMANDS][:1] or list(COMMANDS)
    for name in COMMANDS:
        if name in wanted:
            module = importlib.import_module(f"site_builder.commands.{name}")
            module.add_parser(sub, common)
        else:
            sub.add_parser(name, help=f"see site-builder {name} --help")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = make_parser(argv)
    args = parser.parse_args(argv)
    args.debug = getattr(args, "debug", False)
    try:
        root = getattr(args, "root", None)
        if root is not None and not root.is_dir():  # a typo must not make folders there
            why = "not a folder" if root.exists() else "no such folder"
            raise UserError(f"--root {root}: {why}; pass --root with the project folder")
        code = args.func(args)
        return int(code or 0)
    except UserError as exc:
        if args.debug:
            raise
        for problem in dict.fromkeys(exc.problems):  # each once, in the order found
            print(problem, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (``| head``): nothing more to show
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as exc:  # a file the command writes is a folder, a disk full, ...
        if args.debug or not (exc.filename or exc.errno in DISK_FULL):
            raise
        print(_file_problem(exc, getattr(args, "root", None)) if exc.filename
              else f"site-builder: {disk_full(exc)}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - last line of defence: no tracebacks for users
        if args.debug:
            raise
        print(f"site-builder: internal error: {exc!r} (run with --debug for a traceback)",
              file=sys.stderr)
        return 1


def _file_problem(exc: OSError, root: Path | None) -> str:
    """``path: what is wrong`` for an operating system error on one file (the i18n
    commands' catalogs and ``.mo`` files, say a folder where the file should be); the
    path relative to the project when it is in it."""
    path = Path(os.fsdecode(exc.filename))
    if root is not None:
        try:
            path = path.resolve().relative_to(root.resolve())
        except (ValueError, OSError):
            pass
    if exc.errno in DISK_FULL:
        return str(Problem(path.as_posix(), 0, f"cannot write it: {disk_full(exc)}"))
    return str(Problem(path.as_posix(), 0, f"cannot write or read it: "
                                           f"{exc.strerror or exc}; make it a regular file "
                                           "in a folder you can write to, or remove it"))


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that flushing what is left at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def console() -> None:
    """The ``site-builder`` command: :func:`main`, then exit at once.

    A build leaves many objects behind; the operating system takes the process's memory
    back at once, where freeing each object would take a noticeable part of a build.
    """
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # what was left in the buffer met a closed pipe
            if stream is sys.stdout:
                code = EXIT_BROKEN_PIPE
        except (OSError, ValueError):  # nothing more can be shown
            pass
    os._exit(code)
