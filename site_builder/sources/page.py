"""Read ``content/*.md``: front matter, prose blocks and example blocks, all with line numbers.

A page is a small, strict subset of Markdown, split into *segments* (the units
that translators see in the catalogs):

* front matter between ``---`` lines: ``title``, ``slug``, ``order``, ``description``, and
  optionally ``checker: true`` (the page shows the in-browser meld checker),
  ``search: reference`` (search ranks the page after the rule pages: variations, sources) and
  ``play: true`` (the page is the practice table, ``templates/_play.html``);
* headings (``##`` to ``####``), paragraphs, and ``-`` or ``1.`` list items, one segment each;
* callouts: ``!!! caution`` or ``!!! note`` on a line, then one indented paragraph;
* fenced ```` ```example ```` blocks, holding worked examples (see the README, "Worked examples").

Inline Markdown (emphasis, links, code) is kept inside segments and rendered later.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.errors import Problem
from site_builder.sources.files import BIDI_RE, MAX_DIGITS, bidi_message, decode_utf8, read_input
from site_builder.sources.segment import (
    BLOCK_MARKUP,
    BLOCK_START_RE,
    fields,
    link_targets,
    segment_problems,
    slugify,
)

FRONT_MATTER_KEYS = ("title", "slug", "order", "description")
OPTIONAL_KEYS = ("checker", "search", "play")
SEARCH_KINDS = ("rules", "reference")
SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
BULLET_RE = re.compile(r"^[-*+]\s+(.*)$")
ORDERED_RE = re.compile(r"^([0-9]{1,9})[.)]\s+(.*)$")  # as many digits as CommonMark reads
FENCE_RE = re.compile(r"^```\s*([\w-]*)\s*$")
# A callout: "!!! caution" (or "!!! note") on a line of its own, its text indented below,
# as Python-Markdown's admonitions are written; one paragraph, rendered set apart with a
# title in the reader's language.
CALLOUT_RE = re.compile(r"^!!!\s*(\S*)\s*$")
TITLED_CALLOUT_RE = re.compile(r"^!!!\s*(\S+)\s+\S")  # !!! note "A title"
CALLOUT_KINDS = ("note", "caution")
LONG_NUMBER_RE = re.compile(rf"\d{{{MAX_DIGITS + 1}}}")
FIELD_RE = re.compile(r"^([a-z_][a-z0-9_-]*)\s*:\s*(.*)$")
# A line that Markdown reads as the underline of the paragraph line above it: a heading.
SETEXT_RE = re.compile(r"^(?:=+|-+)\s*$")
# A table's delimiter row under its header row, with or without outer pipes: "--- | :---:".
TABLE_DELIMITER_RE = re.compile(r"^\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?$|^\|\s*:?-+:?\s*\|?$")
# The ids the templates give elements of a page (grep templates/ for 'id="'): a heading
# never takes one of them (tests/test_build.py keeps this list complete).
TEMPLATE_IDS = frozenset({"top", "main", "q", "checker", "checker-text", "rule-pages",
                          "table", "play-text",
                          "quick-reference", "search", "menu-open", "pages", "score-data"})
# What a link may name on every page besides its headings (the checker on a checker page).
PAGE_IDS = frozenset({"top", "main"})


@dataclass(frozen=True, slots=True)
class Segment:
    """One translatable unit of English source text, with the line it starts on.

    A paragraph or list item written on several lines is one segment, its lines joined
    by a space; *breaks* are the offsets of those spaces in *text*.
    """

    text: str
    line: int
    breaks: tuple[int, ...] = ()

    def line_where(self, holds: Callable[[str], bool]) -> int:
        """The source line by which the text read so far *holds* (e.g. shows a problem):
        the line that holds the problem; the first line if no part of the text holds.

        >>> Segment("one two three", 7, (3, 7)).line_where(lambda text: "two" in text)
        8
        """
        if not self.breaks:
            return self.line
        for count, end in enumerate((*self.breaks, len(self.text))):
            if holds(self.text[:end]):
                return self.line + count
        return self.line


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    segment: Segment
    id: str = ""  # unique on its page; from the English text, so the same in every language


@dataclass(frozen=True, slots=True)
class Paragraph:
    segment: Segment
    callout: str = ""  # "note" or "caution": the paragraph is set apart (``!!! caution``)


@dataclass(frozen=True, slots=True)
class ListBlock:
    ordered: bool
    items: tuple[Segment, ...]
    start: int = 1  # an ordered list's first number


@dataclass(frozen=True, slots=True)
class Field:
    """A ``key: value`` line of an example block."""

    key: str
    value: str
    line: int


@dataclass(frozen=True, slots=True)
class ExampleRow:
    """One worked example: a table row. ``fields`` excludes caption and note."""

    line: int
    caption: Segment
    note: Segment | None
    fields: dict[str, Field]

    def get(self, key: str, defaults: dict[str, Field]) -> Field | None:
        return self.fields.get(key) or defaults.get(key)


@dataclass(frozen=True, slots=True)
class ExampleBlock:
    """A fenced ```` ```example ```` block: a table of worked examples."""

    line: int
    table: str
    table_line: int
    defaults: dict[str, Field]
    rows: tuple[ExampleRow, ...]


Block = Heading | Paragraph | ListBlock | ExampleBlock


@dataclass(frozen=True, slots=True)
class Page:
    """A content page: its front matter and its blocks, in source order."""

    source: str  # path relative to the project root, with forward slashes
    slug: str
    order: int
    title: Segment
    description: Segment
    blocks: tuple[Block, ...]
    slug_line: int = 0
    checker: bool = False  # front matter ``checker: true``: the page has the meld checker
    # front matter ``search: reference``: search ranks it after the rule pages
    reference: bool = False
    play: bool = False  # front matter ``play: true``: the page is the practice table

    def segments(self) -> list[Segment]:
        """Every translatable segment, in source order (title and description first)."""
        out = [self.title, self.description]
        for block in self.blocks:
            if isinstance(block, Heading | Paragraph):
                out.append(block.segment)
            elif isinstance(block, ListBlock):
                out.extend(block.items)
            else:
                for row in block.rows:
                    out.append(row.caption)
                    if row.note is not None:
                        out.append(row.note)
        return out

    @property
    def examples(self) -> list[ExampleBlock]:
        return [b for b in self.blocks if isinstance(b, ExampleBlock)]


@dataclass
class _Reader:
    source: str
    lines: list[str]
    problems: list[Problem] = field(default_factory=list)

    def error(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.source, line, message))


def placeholders(text: str) -> list[str]:
    """The ``{name}`` placeholders in *text*, in order; none where its braces do not
    parse (:func:`~site_builder.sources.segment.segment_problems` says why).

    >>> placeholders("at least {rami40_threshold} points, {{literal}}")
    ['rami40_threshold']
    >>> placeholders("a { brace and {rami51_threshold}")
    []
    """
    return fields(text)[0]


# C0 control characters other than tab, line feed and form feed (and a carriage return
# but before a line feed): invisible in an editor, never meant in a page.
CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]|\r(?!\n)")


def read_page(path: Path, source: str) -> tuple[Page | None, bytes | None, list[Problem]]:
    """Read, decode and parse the page at *path* (shown as *source*): the page and its
    bytes, or the problems (a file that is not a regular file is one, see
    :mod:`site_builder.sources.files`)."""
    data, problem = read_input(path, source)
    if data is None:
        return None, None, [problem] if problem else []
    text, problem = decode_utf8(data, source)
    if text is None:
        return None, None, [problem] if problem else []
    problems = [Problem(source, text.count("\n", 0, found.start()) + 1,
                        f"control character U+{ord(found.group()):04X} in the text; remove it")
                for found in CONTROL_RE.finditer(text)]
    problems += [Problem(source, text.count("\n", 0, found.start()) + 1,
                         bidi_message(found.group()))
                 for found in BIDI_RE.finditer(text)]
    page, errs = parse_page(text, source)
    # a page that parses is verified even with a control character in it, so that its
    # examples' problems are reported in the same run
    return page, data if page is not None else None, problems + errs


def parse_page(text: str, source: str) -> tuple[Page | None, list[Problem]]:
    """Parse one page. Returns the page (or None) and every problem found."""
    reader = _Reader(source, split_lines(text))
    meta, body_start = _front_matter(reader)
    blocks = _blocks(reader, body_start)
    if reader.problems or meta is None:  # no page to go on with
        return None, reader.problems
    for segment in _segments(meta, blocks):
        for message in segment_problems(segment.text):
            def shows(text: str, message: str = message) -> bool:
                return message in segment_problems(text)
            reader.error(segment.line_where(shows), message)
    page = Page(
        source=source,
        slug=meta["slug"].value,
        order=int(meta["order"].value),
        title=Segment(meta["title"].value, meta["title"].line),
        description=Segment(meta["description"].value, meta["description"].line),
        blocks=tuple(blocks),
        slug_line=meta["slug"].line,
        checker="checker" in meta and meta["checker"].value == "true",
        reference="search" in meta and meta["search"].value == "reference",
        play="play" in meta and meta["play"].value == "true",
    )
    # a page whose text alone has problems is still verified (examples, placeholders,
    # links), so that all of its problems are reported in one run
    return page, reader.problems


def split_lines(text: str) -> list[str]:
    """The lines of *text*, split at ``\\n`` only (and without a ``\\r`` before it), as
    editors, ``grep -n`` and the catalogs' references count them: ``str.splitlines``
    would also split at U+2028, a form feed, NEL and others, and shift every later line.

    >>> split_lines("a\\u2028b\\r\\nc\\x0cd\\n")
    ['a\\u2028b', 'c\\x0cd']
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _segments(meta: dict[str, Field] | None, blocks: list[Block]) -> list[Segment]:
    """Every segment of a page as read (those of the front matter that were given)."""
    out = [Segment(meta[key].value, meta[key].line) for key in ("title", "description")
           if meta is not None and key in meta]
    for block in blocks:
        if isinstance(block, Heading | Paragraph):
            out.append(block.segment)
        elif isinstance(block, ListBlock):
            out.extend(block.items)
        elif isinstance(block, ExampleBlock):
            for row in block.rows:
                out.extend(s for s in (row.caption, row.note) if s is not None)
    return out


def _front_matter(r: _Reader) -> tuple[dict[str, Field] | None, int]:
    if not r.lines or r.lines[0].strip() != "---":
        r.error(1, "missing front matter: start the file with a '---' line, then "
                   "title, slug, order and description, then '---'")
        return None, 0
    meta: dict[str, Field] = {}
    for i in range(1, len(r.lines)):
        raw = r.lines[i]
        lineno = i + 1
        if raw.strip() == "---":
            break
        if not raw.strip():
            continue
        m = FIELD_RE.match(raw.strip())
        if not m:
            r.error(lineno, f"malformed front matter line {raw.strip()!r}: expected 'key: value'")
            continue
        key, value = m.group(1), m.group(2).strip()
        if len(value) > 1 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1].strip()  # quoted as YAML front matter often is
        if key not in FRONT_MATTER_KEYS + OPTIONAL_KEYS:
            r.error(lineno, f"unknown front matter key {key!r}; "
                            f"expected one of: {', '.join(FRONT_MATTER_KEYS + OPTIONAL_KEYS)}")
        elif key in meta:
            r.error(lineno, f"duplicate front matter key {key!r} (first on line {meta[key].line})")
        elif not value:
            r.error(lineno, f"front matter key {key!r} has no value")
        else:
            meta[key] = Field(key, value, lineno)
    else:
        r.error(1, "front matter is not closed: add a '---' line after the last key")
        return None, len(r.lines)
    end = i + 1
    ok = True
    for key in FRONT_MATTER_KEYS:
        if key not in meta:
            r.error(end, f"front matter is missing {key!r}")
            ok = False
    if "slug" in meta and not SLUG_RE.match(meta["slug"].value):
        r.error(meta["slug"].line, f"slug {meta['slug'].value!r} must be lowercase letters, "
                                   "digits and single hyphens")
        ok = False
    for flag in ("checker", "play"):
        if flag in meta and meta[flag].value not in ("true", "false"):
            r.error(meta[flag].line, f"{flag} {meta[flag].value!r} must be true or false")
            ok = False
    if "search" in meta and meta["search"].value not in SEARCH_KINDS:
        r.error(meta["search"].line,
                f"search {meta['search'].value!r} must be one of: {', '.join(SEARCH_KINDS)}")
        ok = False
    if "order" in meta and not re.fullmatch(rf"-?[0-9]{{1,{MAX_DIGITS}}}",
                                            meta["order"].value):
        r.error(meta["order"].line, f"order {meta['order'].value[:20]!r} must be a whole "
                                    f"number of at most {MAX_DIGITS} digits (0-9)")
        ok = False
    return (meta if ok else None), end


def _blocks(r: _Reader, start: int) -> list[Block]:
    blocks: list[Block] = []
    para: list[tuple[str, int]] = []
    items: list[tuple[list[str], int]] = []  # each item's lines, and its first line
    ordered = False
    list_start = 1
    ids: set[str] = set(TEMPLATE_IDS)  # the heading ids given so far, and the templates'
    callout: tuple[str, int] | None = None  # an open callout's kind and line
    ended: tuple[str, int] | None = None  # a callout that a blank line just closed
    last: dict[str, int] = {}  # see _unique_id
    i = start

    def flush() -> None:
        nonlocal para, items, callout
        if callout is not None and not para:
            r.error(callout[1], f"callout '!!! {callout[0]}' has no text: write its text "
                                "on the next lines, indented by four spaces")
        if para:
            blocks.append(Paragraph(_joined([t for t, _ in para], para[0][1]),
                                    callout[0] if callout else ""))
            para = []
        callout = None
        if items:
            blocks.append(ListBlock(ordered, tuple(_joined(*item) for item in items),
                                    list_start if ordered else 1))
            items = []

    while i < len(r.lines):
        raw = r.lines[i]
        lineno = i + 1
        stripped = raw.strip()
        i += 1
        if not stripped:
            if callout is not None and para:
                ended = callout  # an indented paragraph next would be the callout's
            flush()
            continue
        if ended is not None and raw[:1].isspace():  # Python-Markdown would put it in the callout
            r.error(lineno, f"a callout holds one paragraph: this second one, indented under "
                            f"'!!! {ended[0]}' (line {ended[1]}), would leave it; join the "
                            "two, or start a new callout")
            continue
        ended = None
        fence = FENCE_RE.match(stripped)
        if fence:
            flush()
            end = i
            while end < len(r.lines) and r.lines[end].strip() != "```":
                end += 1
            if end >= len(r.lines):
                r.error(lineno, "example block is not closed: add a line with ``` after it")
                break
            if fence.group(1) != "example":
                r.error(lineno, f"unsupported fenced block {fence.group(1) or '(none)'!r}: "
                                "only ```example blocks are allowed in content")
            else:
                block = _example_block(r, lineno, i, end)
                if block is not None:
                    blocks.append(block)
            i = end + 1
            continue
        heading = parse_heading(stripped)
        if heading:
            flush()
            level, text = heading
            if level < 2:
                r.error(lineno, "use '##' or deeper for headings: the page title comes from "
                                "the front matter")
            elif level > 4:
                r.error(lineno, f"a '{'#' * level}' heading is deeper than a page goes: "
                                "use '##' to '####'")
            if link_targets(text):
                r.error(lineno, "a heading holds no link (it links to itself); put the link "
                                "in the text below")
            blocks.append(Heading(level, Segment(text, lineno), _unique_id(text, ids, last)))
            continue
        if stripped.startswith("<"):
            r.error(lineno, "raw HTML is not allowed in content; use Markdown")
            continue
        titled = TITLED_CALLOUT_RE.match(stripped)
        if titled and not CALLOUT_RE.match(stripped):  # Python-Markdown's, not ours
            flush()
            r.error(lineno, f"a callout takes no title: it is titled by its kind, in the "
                            f"reader's language ('Note', 'Watch out'); write '!!! "
                            f"{titled.group(1)}' alone on its line and the words in its text")
            continue
        opened = CALLOUT_RE.match(stripped)
        if opened:
            flush()
            if opened.group(1) not in CALLOUT_KINDS:
                r.error(lineno, f"unknown callout {opened.group(1)!r}: write '!!! note' or "
                                "'!!! caution'")
                continue
            callout = (opened.group(1), lineno)
            continue
        if callout is not None and not raw[:1].isspace():
            flush()  # the callout's text ends (or, not indented, is missing: flush says so)
        if stripped.startswith("|"):
            r.error(lineno, "Markdown tables are not supported in prose; "
                            "write worked examples as ```example blocks")
            continue
        bullet = BULLET_RE.match(stripped)
        number = ORDERED_RE.match(stripped)
        if bullet or number:
            is_ordered = number is not None
            if para or (items and ordered != is_ordered):
                flush()
            if not items:
                ordered = is_ordered
                list_start = int(number.group(1)) if number else 1
            m = number or bullet
            assert m is not None
            items.append(([m.groups()[-1].strip()], lineno))
            continue
        continued = para or (items and raw[:1].isspace())
        if continued and (problem := _continuation_problem(
                stripped, para[-1][0] if para else None)):
            r.error(lineno, problem)
            continue
        if items and raw[:1].isspace():  # continuation of a list item
            items[-1][0].append(stripped)
            continue
        if items:
            flush()
        para.append((stripped, lineno))
    flush()
    return blocks


def _joined(lines: list[str], line: int) -> Segment:
    """One segment of the source *lines* starting at *line*, joined by spaces."""
    breaks = []
    end = 0
    for text in lines[:-1]:
        end += len(text)
        breaks.append(end)
        end += 1
    return Segment(" ".join(lines), line, tuple(breaks))


def _continuation_problem(line: str, above: str | None) -> str | None:
    """What is wrong with *line*, stripped, as the next line of a paragraph (whose line
    *above* it is) or of a list item (None): block markup that Markdown would read there,
    and that joining the lines would hide."""
    if above is not None and SETEXT_RE.match(line):
        return (f"a line of {line[0]!r} under text makes it a heading (setext), which pages "
                f"do not use: write '## {above}' instead")
    if TABLE_DELIMITER_RE.match(line):
        return ("Markdown tables are not supported in prose; write worked examples as "
                "```example blocks")
    if BLOCK_START_RE.match(line):
        return BLOCK_MARKUP
    return None


def parse_heading(line: str) -> tuple[int, str] | None:
    r"""The level and text of the ATX heading *line* (one line), or None: what the
    regular expression ``^(#{1,6})\s+(.*?)\s*#*\s*$`` matches (its groups 1 and 2), read
    without it, as it backtracked in cubic time on a heading followed by many spaces
    (``tests/test_invalid.py`` keeps it as the reference).

    >>> parse_heading("## The threshold ##  "), parse_heading("####### seven")
    ((2, 'The threshold'), None)
    """
    level = len(line) - len(line.lstrip("#"))
    if not 1 <= level <= 6 or not line[level:level + 1].isspace():
        return None
    text = line[level:].lstrip()  # \s+, greedy
    return level, text.rstrip().rstrip("#").rstrip()  # the shortest text before \s*#*\s*$


def _unique_id(text: str, ids: set[str], last: dict[str, int] | None = None) -> str:
    """The id of a heading: its English text slugified, and made unique among *ids*
    (which it joins) with ``-2``, ``-3``... *last*: for each slug, the number its last
    search ended at (every lower one is taken), so that n equal headings take linear
    time, not quadratic.

    >>> ids = {"main"}
    >>> [_unique_id(t, ids) for t in ("In short", "In short", "Main", "♥ ♦", "♣")]
    ['in-short', 'in-short-2', 'main-2', 'section', 'section-2']
    """
    base = found = slugify(text)
    count = 1 if last is None else last.get(base, 1)
    while found in ids:
        count += 1
        found = f"{base}-{count}"
    if last is not None:
        last[base] = count
    ids.add(found)
    return found


def _example_block(r: _Reader, line: int, start: int, end: int) -> ExampleBlock | None:
    defaults: dict[str, Field] = {}
    rows: list[ExampleRow] = []
    current: dict[str, Field] | None = None
    before = len(r.problems)

    def close_row() -> None:
        if current is None:
            return
        caption = current.pop("caption")
        note = current.pop("note", None)
        rows.append(ExampleRow(
            caption.line,
            Segment(caption.value, caption.line),
            Segment(note.value, note.line) if note else None,
            dict(current),
        ))

    for idx in range(start, end):
        raw = r.lines[idx].strip()
        lineno = idx + 1
        if not raw or raw.startswith("#"):
            continue
        m = FIELD_RE.match(raw)
        if not m:
            r.error(lineno, f"malformed example line {raw!r}: expected 'key: value'")
            continue
        key, value = m.group(1), m.group(2).strip()
        if not value:
            r.error(lineno, f"example field {key!r} has no value")
            continue
        if LONG_NUMBER_RE.search(value) and key not in ("caption", "note"):
            r.error(lineno, f"number too long in {key!r}: at most {MAX_DIGITS} digits")
            continue
        fld = Field(key, value, lineno)
        if key == "caption":
            close_row()
            current = {"caption": fld}
            continue
        target = defaults if current is None else current
        if key in target:
            r.error(lineno, f"duplicate field {key!r} (first on line {target[key].line})")
            continue
        target[key] = fld
    close_row()
    if "table" not in defaults:
        r.error(line, "example block has no 'table:' line; start it with e.g. 'table: melds'")
    if not rows:
        r.error(line, "example block has no rows; start each row with 'caption: ...'")
    if len(r.problems) > before:
        return None
    table = defaults.pop("table")
    return ExampleBlock(line, table.value, table.line, defaults, tuple(rows))
