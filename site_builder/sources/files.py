"""Reading an input file (a page, a catalog, a settings file): anything but a readable
regular file is a user error at that file, never an internal error or a hang.

A directory named ``page.md``, a dangling symlink, a symlink loop, a FIFO (opening
one waits for a writer forever), a device or a file that cannot be read each become
one :class:`~site_builder.errors.Problem` naming the file.
"""

from __future__ import annotations

import codecs
import errno
import os
import re
import stat
import tomllib
import unicodedata
from pathlib import Path
from typing import Any

from site_builder.errors import Problem
from site_builder.sources.parsing import MAX_BYTES, parse, too_large

# The bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069):
# invisible, they reverse the text after them on the page, past the end of a title or
# a translation when they are not closed. They are refused wherever a
# person writes text (pages, catalogs, profile names); the marks U+200E and U+200F,
# which set a direction without reversing anything, are not.
BIDI_RE = re.compile("[\u202a-\u202e\u2066-\u2069]")


def bidi_message(char: str) -> str:
    """The problem with the bidi control *char*, and how to fix it.

    >>> bidi_message("\u202e").split(":")[0]
    'bidi control U+202E (RIGHT-TO-LEFT OVERRIDE) in the text'
    """
    return (f"bidi control U+{ord(char):04X} ({unicodedata.name(char)}) in the text: it "
            "reverses the text after it on the page; remove it (a direction mark, U+200E "
            "or U+200F, is allowed)")

# Every number a user types is bounded: a value this long is never meant.
MAX_DIGITS = 6


def not_regular(path: Path, rel: str) -> Problem | None:
    """Why *path* cannot be read as an input file, or None if it is a regular file."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if os.path.islink(path):
            why = ("a symlink loop" if exc.errno == errno.ELOOP
                   else "a symlink to nothing (dangling)")
            return Problem(rel, 0, f"cannot read: {why}; make it a file, or remove it")
        return Problem(rel, 0, f"cannot read: {exc.strerror or exc}")
    if stat.S_ISREG(mode):
        return None
    kind = ("a directory" if stat.S_ISDIR(mode) else "a FIFO (named pipe)"
            if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a file")
    return Problem(rel, 0, f"cannot read: it is {kind}, not a regular file; make it a file, "
                           "or remove it")


def read_input(path: Path, rel: str) -> tuple[bytes | None, Problem | None]:
    """The bytes of input file *path* (shown as *rel*), or the problem of reading it."""
    problem = not_regular(path, rel)
    if problem is not None:
        return None, problem
    try:
        with open(path, "rb") as stream:
            data = stream.read(MAX_BYTES + 1)  # never more than the bound into memory
    except OSError as exc:
        return None, Problem(rel, 0, f"cannot read: {exc.strerror or exc}")
    except MemoryError:
        return None, too_large(rel)
    if len(data) > MAX_BYTES:
        return None, too_large(rel)
    return data, None


def decode_utf8(data: bytes, rel: str) -> tuple[str | None, Problem | None]:
    """*data*, the bytes of input file *rel*, as text; or the problem at the line of the
    first byte that is not UTF-8. A byte order mark at the start, which some editors on
    Windows write, is dropped: the front matter, tomllib and Babel would each reject the
    first line for it, and no one can see it.

    >>> decode_utf8(codecs.BOM_UTF8 + "---\\nr\u00e9gle".encode(), "a.md")
    ('---\\nrégle', None)
    >>> print(decode_utf8(b"ok\\n\\xffno", "a.md")[1])
    a.md:2: file is not valid UTF-8 (byte 0xff); save it as UTF-8
    """
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return None, Problem(rel, data[: exc.start].count(b"\n") + 1,
                             f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x}); "
                             "save it as UTF-8")


def read_toml(path: Path, rel: str) -> tuple[dict[str, Any], str, list[Problem]]:
    """*path* read as a UTF-8 TOML file: its table and its text, or the problem at its
    line (cannot be read, not UTF-8, not valid TOML)."""
    data, problem = read_input(path, rel)
    if data is None:
        return {}, "", [problem] if problem else []
    text, problem = decode_utf8(data, rel)
    if text is None:
        return {}, "", [problem] if problem else []
    try:  # its size and nesting bounded, its RecursionError a problem at its line
        table, problem = parse(tomllib.loads, text, rel, "toml")
    except tomllib.TOMLDecodeError as exc:
        return {}, text, [_toml_problem(rel, text, exc)]
    return (table, text, []) if table is not None else ({}, text, [problem] if problem else [])


def _toml_problem(rel: str, text: str, exc: tomllib.TOMLDecodeError) -> Problem:
    """tomllib's message, at its line: "... (at line 3, column 7)", or "... (at end of
    document)", which is the file's last line.

    >>> def problem(text):
    ...     try:
    ...         tomllib.loads(text)
    ...     except tomllib.TOMLDecodeError as exc:
    ...         return str(_toml_problem("a.toml", text, exc))
    >>> problem("x = 1\\ny = ]\\n")
    'a.toml:2: invalid TOML at column 5: Invalid value'
    >>> problem("x = 1\\ny = [\\n")
    'a.toml:2: invalid TOML at the end of the file: Invalid value'
    """
    message, line = str(exc), 1
    found = re.search(r" \(at line (\d+), column (\d+)\)$", message)
    if found:
        line = int(found.group(1))
        message = f"invalid TOML at column {found.group(2)}: {message[:found.start()]}"
    elif message.endswith(" (at end of document)"):
        line = max(1, len(text.splitlines()))
        message = f"invalid TOML at the end of the file: {message.rsplit(' (', 1)[0]}"
    else:
        message = f"invalid TOML: {message}"
    return Problem(rel, line, message)


def toml_line(lines: list[str], header: int, key: str) -> int:
    """The line of ``key = ...`` in a TOML file's *lines* after line *header* (its
    ``[section]``, 0 for the top of the file), else the line of a table header naming it
    (``[key]``, ``[ 'key' ]``, ``[section.key]``, ``[[key]]``), else *header* (1 for the
    top). The one scanner of TOML lines (``tomllib`` gives no positions).

    >>> toml_line(["# settings", "base_url = 'x'"], 0, "base_url")
    2
    >>> toml_line(["[a]", "x = 1", "[b]", "x = 2"], 3, "x")
    4
    >>> toml_line(["# profiles", "[ 'house' ]  # the seed's", "name = 'h'"], 0, "house")
    2
    >>> toml_line(["a = 1", 'house = { name = "h", joker_value = 150 }'], 0, "house")
    2
    """
    name = rf"""(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')"""
    pattern = re.compile(rf"^\s*{name}\s*=")
    for i in range(header, len(lines)):
        if lines[i].lstrip().startswith("["):
            break
        if pattern.match(lines[i]):
            return i + 1
    table = re.compile(rf"^\s*\[\[?\s*(?:[^\]]*\.\s*)?{name}\s*\]")
    for i in range(len(lines)):
        if table.match(lines[i]):
            return i + 1
    return header or 1
