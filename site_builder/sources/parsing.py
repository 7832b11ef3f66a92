"""The one way every parser of user input is called: TOML (``content/site.toml``,
``content/profiles.toml``), catalogs, templates and JSON. A third-party parser
recurses once per level of nesting, so ``zz = [[[...]]]`` 1,000 deep would raise
``RecursionError`` from inside it, and a huge file ``MemoryError``: both would reach the
user as an internal error, with no line.

So, before a parser is called, :func:`parse` bounds the text's size and measures its
nesting with a cheap scan (brackets, braces and parentheses outside strings and
comments; a template's blocks too): deeper than :data:`MAX_NESTING` is one problem at the
line where it goes too deep. What the scan cannot see (``not not not ...`` in a
template) is bounded by the parser's own recursion: a ``RecursionError`` or
``MemoryError`` raised inside the parser becomes the same ``path:line: nested too
deep`` (or ``too large``), exit 2, at the line the parser had reached.

The Markdown of pages and translations is bounded where segments are read
(:mod:`site_builder.sources.segment`: brackets 8 deep, 10,000 characters a segment);
the front matter is read line by line, with no nesting.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import TracebackType
from typing import Literal, TypeVar

from site_builder.errors import Problem

T = TypeVar("T")

Syntax = Literal["toml", "json", "template", "text"]

# Brackets, braces and parentheses inside each other, at most (and a template's blocks
# with them). The project's own files go 4 deep (templates) and 2 (TOML); a settings file
# or template a person writes has no reason to go near 32, and every parser here goes
# 32 deep well inside Python's recursion limit (tomllib gave up between 300 and 600).
MAX_NESTING = 32

# The largest input file read, in bytes: the largest today is a catalog of 0.3 MB; a
# file of 64 MB is never meant, and reading a larger one whole could exhaust the memory.
MAX_BYTES = 64 << 20

# What the scan skips (strings and comments, where a bracket is text), and what it counts.
_SKIP = {
    "toml": r'"""[\s\S]*?(?:"""|$(?![\s\S]))|\'\'\'[\s\S]*?(?:\'\'\'|$(?![\s\S]))'
            r'|"(?:\\.|[^"\\\n])*"?|\'[^\'\n]*\'?|#[^\n]*',
    "json": r'"(?:\\.|[^"\\\n])*"?',
    "template": r'"(?:\\.|[^"\\])*"?|\'(?:\\.|[^\'\\])*\'?',  # inside a tag
    "text": r"(?!)",  # never scanned: see nesting
}
_TOKENS = {syntax: re.compile(rf"(?P<skip>{skip})|(?P<open>[\[{{(])|(?P<close>[\]}})])")
           for syntax, skip in _SKIP.items()}
# A template's tags (only their insides are code: the HTML around them is text, its
# parentheses too), and those of its blocks that hold others, opened and ended.
_END = r"|$(?![\s\S]))"  # or the end of the text, for a tag left open
_TAG = re.compile(rf"\{{#[\s\S]*?(?:#\}}{_END}|\{{%[-+]?\s*(\w*)([\s\S]*?)(?:[-+]?%\}}{_END}"
                  rf"|\{{\{{([\s\S]*?)(?:\}}\}}{_END}")
_BLOCKS = frozenset({"if", "for", "macro", "call", "filter", "block", "with", "trans",
                     "autoescape"})


def nesting(text: str, syntax: Syntax) -> tuple[int, int]:
    """How deep *text* nests (brackets, braces and parentheses outside strings and
    comments; in a template, inside its tags, and its blocks), and the offset where it
    first goes past :data:`MAX_NESTING` (or where it is deepest, if it never does).

    >>> nesting('a = [[1], {b = "]]]]"}]  # [[[', "toml")
    (2, 5)
    >>> nesting("(see {% if a %}{{ (b) }}{% endif %}", "template")[0]
    2
    >>> nesting("[" * 40, "json")
    (33, 32)

    Plain text (a PO catalog) has no nesting: a bracket there is a character of a
    message, whose own checks say what is wrong with it (sources/segment.py).

    >>> nesting("[" * 40, "text")
    (0, 0)
    """
    if syntax == "text":
        return 0, 0
    if syntax != "template":
        return _brackets(text, syntax, 0, len(text), 0)
    blocks = deepest = where = 0
    for tag in _TAG.finditer(text):
        name, inside, expression = tag.group(1), tag.group(2), tag.group(3)
        if name is not None and name.startswith("end"):
            blocks = max(0, blocks - 1)
            continue
        opens = int(name in _BLOCKS)
        group = 2 if inside is not None else 3 if expression is not None else 0
        if group:
            depth, at = _brackets(text, syntax, tag.start(group), tag.end(group),
                                  blocks + opens)
        else:  # a comment
            depth, at = blocks, tag.start()
        if depth > deepest:
            deepest, where = depth, at or tag.start()
            if depth > MAX_NESTING:
                break
        blocks += opens
    return deepest, where


def _brackets(text: str, syntax: Syntax, start: int, end: int, base: int
              ) -> tuple[int, int]:
    """The deepest nesting of brackets in *text* from *start* to *end*, counted from
    *base*, and the offset where it first goes past :data:`MAX_NESTING` (or is deepest;
    0 if it never goes past *base*)."""
    depth = deepest = base
    where = 0
    for found in _TOKENS[syntax].finditer(text, start, end):
        kind = found.lastgroup
        if kind == "open":
            depth += 1
            if depth > deepest:
                deepest, where = depth, found.start()
                if depth > MAX_NESTING:
                    break
        elif kind == "close":
            depth = max(base, depth - 1)
    return deepest, where


def line_at(text: str, offset: int) -> int:
    """The line (from 1) of *offset* in *text*."""
    return text.count("\n", 0, offset) + 1


def too_deep(rel: str, line: int, scanned: bool = True) -> Problem:
    """The problem of a file nested too deep, at *line*: by the scan (*scanned*), or for
    its parser."""
    what = (f"more than {MAX_NESTING} brackets, braces or blocks inside each other"
            if scanned else "a value or an expression inside too many others (a long "
            "chain of operators, 'not not ...', '1 + 1 + ...')")
    return Problem(rel, line, f"nested too deep: {what}; write it flatter (a table of its "
                              "own, a variable, a macro)")


def too_large(rel: str) -> Problem:
    """The problem of a file too large to read (or to parse in the memory there is)."""
    return Problem(rel, 0, f"too large: more than {MAX_BYTES >> 20} MB ({MAX_BYTES:,} bytes) "
                           "to read, or to parse in the memory there is; split it, or "
                           "remove what is not meant")


def parse(parser: Callable[[str], T], text: str, rel: str, syntax: Syntax
          ) -> tuple[T | None, Problem | None]:
    """*parser* called on *text* (the file *rel*), its size and nesting bounded first:
    its result, or the problem (too large, nested too deep) and None. The parser's own
    errors (a syntax error) are raised, for its caller to report as it does; its
    ``RecursionError`` and ``MemoryError`` are returned as problems.

    >>> import json
    >>> parse(json.loads, '{"a": [1, 2]}', "x.json", "json")
    ({'a': [1, 2]}, None)
    >>> print(parse(json.loads, "[\\n" + "[" * 10_000, "x.json", "json")[1])
    x.json:2: nested too deep: more than 32 brackets, braces or blocks inside each other; ...
    """
    if len(text) > MAX_BYTES:  # its characters: its bytes are as many or more
        return None, too_large(rel)
    depth, where = nesting(text, syntax)
    if depth > MAX_NESTING:
        return None, too_deep(rel, line_at(text, where))
    try:
        return parser(text), None
    except RecursionError as exc:  # nesting the scan does not see, e.g. "not not not ..."
        line = _reached(exc.__traceback__, text)  # 1: the template's own node, often
        return None, too_deep(rel, line if line > 1 else _longest_line(text), scanned=False)
    except MemoryError:
        return None, too_large(rel)


def _longest_line(text: str) -> int:
    """The longest line of *text* (from 1): where a chain too long for the parser is.

    >>> _longest_line("a\\nbbb\\ncc")
    2
    """
    lines = text.split("\n")
    return max(range(len(lines)), key=lambda i: len(lines[i])) + 1


def _reached(tb: TracebackType | None, text: str) -> int:
    """The line the parser had reached when it gave up, from its innermost frame that
    knows it (tomllib's ``pos`` in ``src``, Jinja2's token stream or the node its
    compiler was at), or 0."""
    line = 0
    while tb is not None:
        names = tb.tb_frame.f_locals
        pos, src = names.get("pos"), names.get("src")
        current = getattr(getattr(names.get("self"), "stream", None), "current", None)
        for where in (getattr(current, "lineno", None),
                      getattr(names.get("node"), "lineno", None)):
            if isinstance(where, int) and where > 0:
                line = where
        if isinstance(pos, int) and src is text:
            line = line_at(text, pos)
        tb = tb.tb_next
    return line

