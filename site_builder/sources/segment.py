"""What a segment of text may hold: the rules shared by content pages and translations.

A segment (a heading, a paragraph, a list item, a caption, a note, a title, a
description, or a template's message) is one unit of *inline* Markdown:

* placeholders are ``{name}`` and nothing else: no format spec (``{n:>999999999}``
  hangs a build), no conversion (``!r``), no index or attribute, no positional ``{}``;
  a literal brace is written twice (``{{``), as :meth:`str.format` reads it;
* links are inline (``[text](target)``) to http(s), mailto or a relative address; no
  reference-style links or definitions (``[r]: javascript:...``), no images, no raw
  HTML or autolinks;
* no block markup: a segment does not start with ``#``, ``>``, a list marker, a rule
  (``---``), a fence or indented code, and holds no line break.

:func:`segment_problems` checks a text written by a content author;
:func:`translation_problems` checks a translation against its source: it may use only
the markup the source uses, with the same link targets.
"""

from __future__ import annotations

import functools
import re
import string
from collections import Counter

from markdown.extensions.toc import slugify as md_slugify

NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
LINK_TARGET_RE = re.compile(r"\]\(\s*<?([^)>]*?)>?(?:\s+\"[^\"]*\")?\s*\)")
IMAGE_RE = re.compile(r"!\[")
REFERENCE_RE = re.compile(r"\]\s?\[")  # [text][ref], [text][]
DEFINITION_RE = re.compile(r"(?m)^\s*\[[^\]]*\]:")
HTML_RE = re.compile(r"<\s*/?\s*[A-Za-z!?][^>]*>")  # a tag, a comment or an autolink
BLOCK_START_RE = re.compile(
    r"^(?:\s{0,3}(?:#{1,6}(?:\s|$)|>|[-*+](?:\s|$)|\d{1,9}[.)](?:\s|$)|```|~~~|=+\s*$"
    r"|(?:[-*_]\s*){3,}$)|\s{4}|\t)")
LINE_BREAK_RE = re.compile(r"[\n\r]")  # as Markdown splits lines
SAFE_SCHEMES = ("http", "https", "mailto")
BLOCK_MARKUP = ("block markup (a heading '#', a quote '>', a list marker, a rule '---', a "
                "code fence or indented code) inside a segment; write it as plain text")

HINT_BRACES = "write {{ and }} for a literal brace, and {name} for a value"


def fields(text: str) -> tuple[list[str], list[str], int]:
    """The placeholders' names of *text*, its problems, and how many literal braces it has.

    >>> fields("at least {rami40_threshold} points {{x}}")
    (['rami40_threshold'], [], 2)
    >>> fields("{n:>999999999}")[1][0]
    'placeholder {n:>999999999} has a format spec; write {n}'
    """
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        return [], [f"stray brace ({exc}); {HINT_BRACES}"], 0
    names: list[str] = []
    problems: list[str] = []
    literal = 0
    for text_part, name, spec, conversion in parsed:
        literal += text_part.count("{") + text_part.count("}")
        if name is None:
            continue
        shown = "{" + name + (f"!{conversion}" if conversion else "") + \
            (f":{spec}" if spec else "") + "}"
        if not NAME_RE.fullmatch(name):
            problems.append(f"placeholder {shown} is not a name; {HINT_BRACES}")
        elif spec:
            problems.append(f"placeholder {shown} has a format spec; write {{{name}}}")
        elif conversion:
            problems.append(f"placeholder {shown} has a conversion; write {{{name}}}")
        else:
            names.append(name)
    return names, problems, literal


def link_targets(text: str) -> list[str]:
    return [t.strip() for t in LINK_TARGET_RE.findall(text)] if "](" in text else []


def unsafe_target(target: str) -> str | None:
    """Why a link target is refused, or None.

    >>> [unsafe_target(t) for t in ("https://a.org/", "cardverse/", "#x", "mailto:a@b.org")]
    [None, None, None, None]
    >>> unsafe_target("javascript:alert(1)")
    "scheme 'javascript:' is not allowed (only http, https, mailto or a relative address)"
    """
    if re.search(r"[\s\x00-\x1f\x7f\\`\"'<>]|&#|&[A-Za-z]+;", target):
        return "it holds a space, a quote, a backslash, a control character or an entity"
    head = re.split(r"[/?#]", target, maxsplit=1)[0]
    if ":" in head:
        scheme = head.split(":", 1)[0]
        if scheme.lower() not in SAFE_SCHEMES:
            return (f"scheme {scheme + ':'!r} is not allowed (only http, https, mailto or a "
                    "relative address)")
    return None


def structure_problems(text: str, breaks: bool = True) -> list[str]:
    """Markup a segment never holds: block markup, line breaks (unless not *breaks*: a
    page's lines are split at line feeds already), reference-style links, images, raw
    HTML."""
    problems = []
    if breaks and LINE_BREAK_RE.search(text):
        problems.append("line break in a segment: a heading, paragraph, list item, caption or "
                        "note is one line of text")
    if any(BLOCK_START_RE.match(line) for line in LINE_BREAK_RE.split(text)):
        problems.append(BLOCK_MARKUP)
    if REFERENCE_RE.search(text) or DEFINITION_RE.search(text):
        problems.append("reference-style links ([text][ref], [ref]: target) are not "
                        "supported; write [text](target)")
    if IMAGE_RE.search(text):
        problems.append("images (![alt](src)) are not supported in text")
    if HTML_RE.search(text):
        problems.append("raw HTML (or an <autolink>) is not allowed; use Markdown, and "
                        "[text](target) for a link")
    return problems


def segment_problems(text: str) -> list[str]:
    """Every problem with one segment written by a content author (see the module)."""
    _, problems, _ = fields(text)
    problems = list(problems) + structure_problems(text, breaks=False)
    for target in link_targets(text):
        why = unsafe_target(target)
        if why is not None:
            problems.append(f"link target {target!r} is refused: {why}")
    return problems


def translation_problems(source: str, translated: str) -> list[str]:
    """What a translation adds to its source's markup (the source is trusted as it is).

    >>> translation_problems("Goal", "[Cel][r] [r]: javascript:x")[0][:31]
    'reference-style links ([text][r'
    >>> translation_problems("Goal", "# Cel")[0][:12]
    'block markup'
    """
    problems = []
    source_fields = fields(source)
    if not source_fields[1]:  # the source is a format string: so must the translation be
        _, bad, literal = fields(translated)
        problems.extend(bad)
        if not bad and literal != source_fields[2]:
            problems.append(f"literal braces differ from the source's; {HINT_BRACES}")
    have = set(structure_problems(source))
    problems.extend(p for p in structure_problems(translated) if p not in have)
    for target in link_targets(translated):
        why = unsafe_target(target)
        if why is not None:
            problems.append(f"link target {target!r} is refused: {why}")
    if Counter(IMAGE_RE.findall(source)) != Counter(IMAGE_RE.findall(translated)) and \
            "images (![alt](src)) are not supported in text" not in problems:
        problems.append("images differ from the source's")
    return problems


@functools.lru_cache(maxsize=1024)  # a heading's id is that of its English text, in every language
def slugify(text: str) -> str:
    return str(md_slugify(text, "-")) or "section"
