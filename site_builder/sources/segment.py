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

import bisect
import functools
import re
import string
from collections import Counter

from markdown.extensions.toc import slugify as md_slugify

NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
IMAGE_RE = re.compile(r"!\[")
REFERENCE_RE = re.compile(r"\]\s?\[")  # [text][ref], [text][]
DEFINITION_RE = re.compile(r"(?m)^[^\S\n]*\[[^\][]*\]:")  # linear: no [ inside, as Markdown's
HTML_RE = re.compile(r"<\s*+(?:/\s*+)?[A-Za-z!?][^>]*>")  # a tag, a comment or an autolink
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


def html_tags(text: str) -> list[str]:
    """The raw HTML in *text* (tags, comments, autolinks), as ``HTML_RE.findall`` finds
    it, in linear time: nothing after the last ``>`` is searched (a ``<`` there starts no
    tag), so no ``<`` scans to the end of a text without ``>`` (50,000 ``<a``
    would take seconds).

    >>> html_tags("a <b>c</b> <x" + " <y" * 3)
    ['<b>', '</b>']
    """
    end = text.rfind(">")
    return HTML_RE.findall(text, 0, end + 1) if end != -1 and "<" in text else []


def link_targets(text: str) -> list[str]:
    r"""The targets of the inline links ``[text](target)`` in *text*, stripped: what the
    regular expression ``\]\(\s*<?([^)>]*?)>?(?:\s+"[^"]*")?\s*\)`` finds (``re.findall``),
    found in one scan of *text*: that expression backtracks in cubic time on a ``](`` and
    a run of spaces, and in quadratic time on many ``](``.
    ``tests/test_invalid.py`` keeps it as the reference and compares the two on random
    text.

    >>> link_targets('See [a](../x/ "t"), [b]( <https://a.org/> ) and [c](' + ' ' * 9999)
    ['../x/', 'https://a.org/']
    """
    if "](" not in text:
        return []
    found = []
    i = text.find("](")
    while i != -1:  # the usual links first: a target of no space, quote, < or >, then ')'
        simple = _SIMPLE_TARGET_RE.match(text, i + 2)
        if simple is None:
            return _link_targets_scan(text)
        found.append(simple.group(1))
        i = text.find("](", simple.end())
    return found


# A link's target as the expression above reads it when it holds no space, '"', '<', '>'
# or ')': what its lazy target stops at, with nothing for the title or the spaces to take.
_SIMPLE_TARGET_RE = re.compile(r"([^\s)>\"<]*)\)")


def _link_targets_scan(text: str) -> list[str]:
    """:func:`link_targets` for any text, in one scan (the arrays below)."""
    n = len(text)
    space = [c.isspace() for c in text]
    # run_end[p]: the end of the run of spaces at p (p itself if text[p] is no space)
    run_end = [0] * (n + 1)
    run_end[n] = n
    for p in range(n - 1, -1, -1):
        run_end[p] = run_end[p + 1] if space[p] else p
    # next_quote[p] and next_stop[p]: the first '"', and the first ')' or '>', at or after p
    next_quote = [n] * (n + 1)
    next_stop = [n] * (n + 1)
    for p in range(n - 1, -1, -1):
        next_quote[p] = p if text[p] == '"' else next_quote[p + 1]
        next_stop[p] = p if text[p] in ")>" else next_stop[p + 1]

    def title_end(p: int) -> int:
        """Where ``\\s+"[^"]*"\\s*\\)`` matched at p ends, or -1."""
        j = run_end[p]
        if j == p or j >= n or text[j] != '"':
            return -1
        c = next_quote[j + 1] if j + 1 <= n else n
        if c >= n:
            return -1
        m = run_end[c + 1] if c + 1 <= n else n
        return m + 1 if m < n and text[m] == ")" else -1

    def tail_end(p: int) -> int:
        """Where ``(?:\\s+"[^"]*")?\\s*\\)`` matched at p ends, or -1."""
        end = title_end(p)
        if end != -1:
            return end
        m = run_end[p]
        return m + 1 if m < n and text[m] == ")" else -1

    # ok[p]: the first space at or after p whose run a target may end at (followed by a
    # title and ')', or by ')' alone); n if none
    ok = [n] * (n + 1)
    for p in range(n - 1, -1, -1):
        if space[p]:
            r = run_end[p]
            ok[p] = p if (r < n and text[r] == ")") or title_end(p) != -1 else n
            if ok[p] == n:
                ok[p] = ok[r]
        else:
            ok[p] = ok[p + 1]
    found = []
    i = text.find("](")
    while i != -1:
        lead = i + 2
        s = run_end[lead]
        if s < n and text[s] == "<":
            s += 1
        q = next_stop[s]
        k = ok[s]
        end = -1
        if k < q:
            end = tail_end(k)
            target = text[s:k]
        elif q < n:
            end = q + 1 if text[q] == ")" else tail_end(q + 1)
            target = text[s:q]
        if end == -1 and run_end[lead] > lead:  # the leading spaces, then a title
            end, target = title_end(run_end[lead] - 1), ""
        if end == -1:
            i = text.find("](", i + 1)
            continue
        found.append(target.strip())
        i = text.find("](", end)
    return found


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


MAX_NESTING = 8  # brackets and parentheses inside each other, at most
# The longest segment, in characters (the site's longest message has 755): Markdown's
# inline parser takes quadratic time on some text (a run of backslashes, say), so a
# segment is bounded, and a page or catalog of any size costs linear time.
MAX_SEGMENT = 10_000


# Runs of backticks that open a code span never closed, at most: Python-Markdown's inline
# parser looks for each one's closing run to the end of the text, so that a paragraph of
# ``\ repeated cost seconds; a few such runs cost what prose does.
MAX_OPEN_TICKS = 8
# Runs of backticks in one segment, at most (16 code spans; the site's most is 2): each may
# cost Python-Markdown a scan to the end of the text, whatever the reading above misses.
MAX_TICK_RUNS = 32
_TICKS_RE = re.compile(r"`+")


def unclosed_code_spans(text: str) -> int:
    r"""How many runs of backticks in *text* open a code span that Python-Markdown looks
    for to the end of the text and does not find closed by a run of as many: its
    ``BacktickInlineProcessor`` read the same way (a backtick after an odd number of
    backslashes is escaped; after a run that is not closed, it reads on twice the run's
    length further), in one pass.

    >>> unclosed_code_spans("`a` and ``b`` and `c``")  # `c, and the `` after it
    2
    >>> unclosed_code_spans("See " + ("``" + chr(92)) * 5)  # each \`` leaves a ` open
    3
    """
    runs = [(m.start(), m.end()) for m in _TICKS_RE.finditer(text)]
    starts: dict[int, list[int]] = {}
    for start, end in runs:
        starts.setdefault(end - start, []).append(start)
    count = 0
    pos = 0
    for start, end in runs:
        if end <= pos:
            continue
        at = max(start, pos)
        slashes = 0
        while at - slashes > 0 and text[at - slashes - 1] == "\\":
            slashes += 1
        if slashes % 2 or (slashes and at - slashes < pos):
            at += 1  # escaped (by one backslash, or by one of a pair read from its middle)
        if at >= end:
            continue
        same = starts[end - at] if end - at in starts else []
        k = bisect.bisect_left(same, end)
        if k < len(same):
            pos = same[k] + end - at  # closed there: read on after it
        else:  # scanned to the end; Markdown reads on 2 x the run's length further,
            count += 1  # which may be in the middle of a later run (``a``` repeated)
            pos = at + 2 * (end - at)
    return count


def _code_span_end(text: str, at: int) -> int:
    """Where the code span opened by the run of backticks at *at* ends (after its closing
    run, of as many backticks), or *at* plus the run's length if it is not closed (the
    backticks are then text)."""
    run = at
    while run < len(text) and text[run] == "`":
        run += 1
    ticks = text[at:run]
    find = run
    while (close := text.find(ticks, find)) != -1:
        end = close + len(ticks)
        if text[end:end + 1] != "`" and text[close - 1] != "`":
            return end
        while end < len(text) and text[end] == "`":
            end += 1
        find = end
    return run


_BRACKET_RE = re.compile(r"[\\`\[\]()]")  # what bracket_problems reads; it skips the rest


def bracket_problems(text: str) -> list[str]:
    r"""Brackets that Markdown's link parser would take quadratic time over (a
    paragraph of 6,000 nested ``[`` would run past 30 s): a ``[`` that is never closed, the
    ``(`` of a link (``](``) that is never closed, or brackets or parentheses nested
    more than :data:`MAX_NESTING` deep. Escaped brackets (``\[``) and code spans are
    text, as Markdown reads them. One scan of *text*.

    >>> bracket_problems(r"See [the rules](../x/) (and [this](y/)), `[` and \[.")
    []
    >>> bracket_problems("See [the rules](../x/ and more")[0][:40]
    "a link's '(' is never closed by a ')'; c"
    >>> bracket_problems("[" * 9 + "x" + "]" * 9)[0][:50]
    'brackets or parentheses nested more than 8 deep; w'
    """
    problems: list[str] = []
    stack: list[tuple[str, bool]] = []  # each open bracket, and whether it opens a target
    deepest = 0
    search = _BRACKET_RE.search
    found = search(text)
    while found is not None:  # from one character that matters to the next
        i = found.start()
        c = text[i]
        if c == "\\":
            found = search(text, i + 2)
            continue
        if c == "`":
            found = search(text, _code_span_end(text, i))
            continue
        if c in "[(":
            stack.append((c, c == "(" and text[i - 1:i] == "]"))
            deepest = max(deepest, len(stack))
        elif c in "])":
            opener = "[" if c == "]" else "("
            while stack and stack[-1][0] != opener and stack[-1][0] == "(" \
                    and not stack[-1][1]:
                stack.pop()  # a parenthesis of the text, left open: Markdown reads on
            if stack and stack[-1][0] == opener:
                stack.pop()
        found = search(text, i + 1)
    if deepest > MAX_NESTING:
        problems.append(f"brackets or parentheses nested more than {MAX_NESTING} deep; write "
                        "the text without them")
    if any(opener == "[" for opener, _ in stack):
        problems.append("a '[' is never closed by a ']'; close it, or write \\[ for a "
                        "bracket in the text")
    if any(target for _, target in stack):
        problems.append("a link's '(' is never closed by a ')'; close it: [text](target)")
    return problems


def structure_problems(text: str, breaks: bool = True) -> list[str]:
    """Markup a segment never holds: block markup, line breaks (unless not *breaks*: a
    page's lines are split at line feeds already), reference-style links, images, raw
    HTML, unclosed or deeply nested brackets; and more than :data:`MAX_SEGMENT`
    characters."""
    problems = []
    if len(text) > MAX_SEGMENT:
        problems.append(f"a segment of {len(text):,} characters, more than {MAX_SEGMENT:,}: "
                        "split it into shorter paragraphs")
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
    if html_tags(text):
        problems.append("raw HTML (or an <autolink>) is not allowed; use Markdown, and "
                        "[text](target) for a link")
    runs = text.count("`") and len(_TICKS_RE.findall(text))
    opened = unclosed_code_spans(text) if runs else 0
    if runs > MAX_TICK_RUNS:
        problems.append(f"{runs} runs of backticks in one segment (at most {MAX_TICK_RUNS}, "
                        "16 code spans), which Markdown reads slowly; split the paragraph, "
                        "or write \\` for a backtick in the text")
    elif opened > MAX_OPEN_TICKS:
        problems.append(f"{opened} runs of backticks open a code span that is never closed "
                        f"(at most {MAX_OPEN_TICKS}), which Markdown reads slowly; close each "
                        "with as many backticks as opened it, or write \\` for a backtick "
                        "in the text")
    elif "[" in text or "(" in text:  # (its scan of code spans is as slow on those)
        problems.extend(bracket_problems(text))
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
    source_bad, source_literal, have = _source_markup(source)
    if not source_bad:  # the source is a format string: so must the translation be
        _, bad, literal = fields(translated)
        problems.extend(bad)
        if not bad and literal != source_literal:
            problems.append(f"literal braces differ from the source's; {HINT_BRACES}")
    problems.extend(p for p in structure_problems(translated) if p not in have)
    for target in link_targets(translated):
        why = unsafe_target(target)
        if why is not None:
            problems.append(f"link target {target!r} is refused: {why}")
    if Counter(IMAGE_RE.findall(source)) != Counter(IMAGE_RE.findall(translated)) and \
            "images (![alt](src)) are not supported in text" not in problems:
        problems.append("images differ from the source's")
    return problems


# A source is checked against each language's translation: read once.
@functools.lru_cache(maxsize=4096)
def _source_markup(source: str) -> tuple[bool, int, frozenset[str]]:
    """Whether *source* has placeholder problems, its literal braces, and its markup
    problems (:func:`structure_problems`), which a translation may share."""
    _, bad, literal = fields(source)
    return bool(bad), literal, frozenset(structure_problems(source))


@functools.lru_cache(maxsize=1024)  # a heading's id is that of its English text, in every language
def slugify(text: str) -> str:
    return str(md_slugify(text, "-")) or "section"
