"""docs/architecture.md documents every command and option that ``--help`` lists, and
the build's promises. The commands and options are read from the parser itself, so a new
one fails this test until the "Commands" section of docs/architecture.md names it."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

from site_builder.cli import make_parser

DOC = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"


def _walk(parser: argparse.ArgumentParser, path: list[str]) -> Iterator[tuple[str, set[str]]]:
    options = {o for a in parser._actions for o in a.option_strings
               if o.startswith("--") and o != "--help"}
    yield " ".join(path), options
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _walk(sub, [*path, name])


def commands() -> dict[str, set[str]]:
    """Every command path (``i18n compile``) and its long options, as ``--help`` lists them
    (each command's parser is made as the command line makes it: on its name)."""
    found: dict[str, set[str]] = {}
    top = make_parser(["--help"])
    [names] = [list(a.choices) for a in top._actions
               if isinstance(a, argparse._SubParsersAction)]
    for name in names:
        [sub] = [a.choices[name] for a in make_parser([name])._actions
                 if isinstance(a, argparse._SubParsersAction)]
        found.update(_walk(sub, [name]))
    return found


def section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end]


def test_every_command_and_option_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    documented = section(text, "Commands")
    found = commands()
    assert {"build", "check", "serve", "i18n compile", "engine round"} <= found.keys()
    missing = [f"site-builder {path}" for path in found
               if f"site-builder {path}" not in documented]
    assert not missing, f"not in the Commands section of docs/architecture.md: {missing}"
    options = sorted({o for opts in found.values() for o in opts if o not in documented})
    assert not options, f"options not in the Commands section of docs/architecture.md: {options}"


def test_the_docs_state_the_builds_promises() -> None:
    text = DOC.read_text(encoding="utf-8")
    build = section(text, "How a build works")
    for promise in (".site-builder", "refuses", "--no-cache", "build record", "lock",
                    "SOURCE_DATE_EPOCH", ".site-builder-leftover"):
        assert promise in build, promise
    commands_section = section(text, "Commands")
    for promise in ("path:line", "exits with 2", "`Host` header", "--port", "--debug",
                    "--root"):
        assert promise in commands_section, promise
