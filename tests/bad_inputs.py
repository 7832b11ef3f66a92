"""The bad inputs of ``tests/test_bad_inputs.py``, one :class:`Case` each.

A case changes one thing in a scratch copy of the real project (that has been built
once); ``check`` and ``build`` must then exit 2 naming ``path:line`` (or 0 where the
input is valid), report the same problems, print no traceback, leave the earlier
``dist/`` as it was and touch no source. ``at`` is a piece of text of the changed file
whose line is the line the error must name (``offset`` lines from it), or the line
number itself; ``words``, words that error must hold.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

Change = Callable[[Path], object]  # what a change returns is not used

FM = "content/first-meld.md"
CV = "content/cardverse.md"
IX = "content/index.md"
SITE = "content/site.toml"
PROF = "content/profiles.toml"
PL = "locales/pl/LC_MESSAGES/messages.po"
MS = "locales/ms/LC_MESSAGES/messages.po"
VI = "locales/vi/LC_MESSAGES/messages.po"
TERMS = "locales/pl/terms.toml"
PAGE = "templates/page.html"
BASE = "templates/base.html"
EX = "templates/_examples.html"


@dataclass(frozen=True)
class Case:
    name: str
    change: Change
    path: str | None  # the file the error must name; None for a valid input (exit 0)
    at: str | int | None = None  # text of the changed file on the error's line, or a line
    offset: int = 0
    slack: int = 0  # the error may be up to this many lines after the expected one
    words: str = ""  # words the message must hold
    args: tuple[str, ...] = ()  # for build
    commands: tuple[str, ...] = ("build", "check")  # build alone for its own options
    item: str = ""  # a known defect, while it is open: the case is a strict xfail
    alone: bool = False  # run alone, not batched with cases of other files (test_bad_inputs)


# --- changes --------------------------------------------------------------------------------


def sub(rel: str, find: str, replace: str) -> Change:
    def change(root: Path) -> None:
        path = root / rel
        with path.open(encoding="utf-8", newline="") as stream:  # keeping any lone \r
            text = stream.read()
        assert find in text, f"{find!r} not in {rel}"
        path.write_text(text.replace(find, replace, 1), encoding="utf-8", newline="")
    change.file = rel  # type: ignore[attr-defined]  # the one file it changes
    return change


def subb(rel: str, find: bytes, replace: bytes) -> Change:
    def change(root: Path) -> None:
        path = root / rel
        data = path.read_bytes()
        assert find in data, f"{find!r} not in {rel}"
        path.write_bytes(data.replace(find, replace, 1))
    change.file = rel  # type: ignore[attr-defined]  # the one file it changes
    return change


def put(rel: str, text: str) -> Change:
    def change(root: Path) -> None:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8", newline="")
    change.file = rel  # type: ignore[attr-defined]  # the one file it changes
    return change


def put_bytes(rel: str, data: bytes) -> Change:
    def change(root: Path) -> None:
        (root / rel).write_bytes(data)
    change.file = rel  # type: ignore[attr-defined]  # the one file it changes
    return change


def replace_by_dir(rel: str) -> Change:
    def change(root: Path) -> None:
        if (root / rel).exists():
            (root / rel).unlink()
        (root / rel).mkdir()
    return change


def mkdir(rel: str) -> Change:
    def change(root: Path) -> None:
        (root / rel).mkdir(parents=True)
    return change


def symlink(rel: str, target: str) -> Change:
    def change(root: Path) -> None:
        if (root / rel).exists():
            (root / rel).unlink()
        os.symlink(target, root / rel)
    return change


def fifo(rel: str) -> Change:
    def change(root: Path) -> None:
        if (root / rel).exists():
            (root / rel).unlink()
        os.mkfifo(root / rel)
    return change


def chain(*changes: Change) -> Change:
    def change(root: Path) -> None:
        for one in changes:
            one(root)
    return change


def nothing(root: Path) -> None:
    pass


PAGE_HEAD = "---\ntitle: Extra\nslug: extra\norder: 50\ndescription: An extra page.\n---\n\n"


def page(body: str, head: str = PAGE_HEAD) -> Change:
    """A new page, content/extra.md, with *body* after valid front matter."""
    return put("content/extra.md", head + body)


def example(body: str) -> Change:
    """A new page holding one example block."""
    return page("## Examples\n\n```example\n" + body + "```\n")


def msgstr(rel: str, msgid: str, new: str) -> Change:
    """Replace the msgstr of the entry whose msgid is the one-line *msgid*."""
    def change(root: Path) -> None:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        entry = text.index(f"\nmsgid {msgid}\n") + 1
        start = text.index("\nmsgstr", entry) + 1
        end = text.find("\n\n", start)
        end = len(text) if end < 0 else end
        path.write_text(text[:start] + "msgstr " + new + text[end:], encoding="utf-8")
    change.file = rel  # type: ignore[attr-defined]  # the one file it changes
    return change


def po_append(rel: str, text: str) -> Change:
    def change(root: Path) -> None:
        with open(root / rel, "a", encoding="utf-8") as stream:
            stream.write("\n" + text)
    change.file = rel  # type: ignore[attr-defined]  # the one file it changes
    return change


# --- the cases ------------------------------------------------------------------------------

CASES: list[Case] = []


def case(name: str, change: Change, path: str | None, at: str | int | None = None,
         **kw: object) -> None:
    CASES.append(Case(name, change, path, at, **kw))  # type: ignore[arg-type]


def valid(name: str, change: Change, **kw: object) -> None:
    CASES.append(Case(name, change, None, **kw))  # type: ignore[arg-type]


# Front matter ---------------------------------------------------------------------------
CV_TITLE = "title: Rami, the CardVerse variant\n"
case("fm: missing", sub(CV, "---\n" + CV_TITLE, CV_TITLE), CV, 1)
case("fm: not closed", sub(CV, "with verified examples for each rule.\n---",
                           "with verified examples for each rule.\n"), CV, 1)
case("fm: malformed line", sub(CV, "order: 12", "order twenty"), CV, "order twenty",
     words="malformed front matter")
case("fm: malformed line, the description's", sub(CV, "description: The CardVerse",
                                                  "description The CardVerse"),
     CV, "description The CardVerse", words="malformed front matter")
case("fm: unknown key", sub(CV, "order: 12", "order: 12\nauthor: me"), CV, "author: me")
case("fm: duplicate key", sub(CV, "order: 12", "order: 12\norder: 21"), CV, "order: 21")
case("fm: empty value", sub(CV, "order: 12", "order:"), CV, "order:")
case("fm: missing title", sub(CV, CV_TITLE, ""), CV, 5)
case("fm: missing slug", sub(CV, "slug: cardverse\n", ""), CV, 5)
case("fm: missing order", sub(CV, "order: 12\n", ""), CV, 5)
case("fm: missing description", sub(CV, "description: The CardVerse", "x: y\n#"), CV, 5)
case("fm: slug uppercase", sub(CV, "slug: cardverse", "slug: CardVerse"), CV, "slug:")
case("fm: slug with space", sub(CV, "slug: cardverse", "slug: card verse"), CV, "slug:")
case("fm: slug double hyphen", sub(CV, "slug: cardverse", "slug: card--verse"), CV, "slug:")
case("fm: slug trailing hyphen", sub(CV, "slug: cardverse", "slug: cardverse-"), CV, "slug:")
case("fm: slug with dots", sub(CV, "slug: cardverse", "slug: ../etc"), CV, "slug:")
case("fm: slug of the translation status page",
     sub(CV, "slug: cardverse", "slug: translation-status"), CV, "slug:")
case("fm: slug of the search index", sub(CV, "slug: cardverse", "slug: pagefind"), CV, "slug:")
valid("fm: an editor's lock file beside a page (a dangling link named .#page.md)",
      lambda r: os.symlink("user@host.1234:1700000000", r / "content/.#cardverse.md"))
case("fm: slug non-ascii", sub(CV, "slug: cardverse", "slug: kartę"), CV, "slug:")
case("fm: order not a number", sub(CV, "order: 12", "order: twenty"), CV, "order:",
     words="must be a whole number")
case("fm: order a fraction", sub(CV, "order: 12", "order: 2.5"), CV, "order:")
case("fm: order with 5000 digits", sub(CV, "order: 12", "order: " + "9" * 5000), CV, "order:")
case("fm: order huge", sub(CV, "order: 12", "order: 99999999999999999999"), CV, "order:")
case("fm: order negative huge", sub(CV, "order: 12", "order: -99999999999999999999"),
     CV, "order:")
case("fm: order with underscores", sub(CV, "order: 12", "order: 1_000"), CV, "order:")
case("fm: order in arabic digits", sub(CV, "order: 12", "order: ٢٠"), CV, "order:")
case("fm: duplicate slug", sub(CV, "slug: cardverse", "slug: first-meld"), CV, "slug:",
     words="duplicate slug 'first-meld'")
case("fm: no home page", sub(IX, "slug: index", "slug: home"), "content", None)
case("fm: unknown placeholder in title", sub(CV, "title: Rami", "title: Rami {nope}"),
     CV, "title:")
case("fm: html in title", sub(CV, "title: Rami", "title: <b>Rami</b>"), CV, "title:",
    )
case("fm: empty file", put(CV, ""), CV, 1)
case("fm: only dashes", put(CV, "---\n"), CV, 1)
valid("fm: order negative", sub(CV, "order: 12", "order: -3"))
valid("fm: CRLF line endings", lambda r: (r / CV).write_bytes(
    (r / CV).read_bytes().replace(b"\n", b"\r\n")))

# Prose --------------------------------------------------------------------------------------
case("prose: raw html", sub(FM, "## The threshold", "<script>alert(1)</script>"), FM,
     "<script>", words="raw HTML is not allowed")
case("prose: markdown table", sub(FM, "## The threshold", "| a | b |"), FM, "| a | b |")
case("prose: h1 heading", sub(FM, "## The threshold", "# The threshold"), FM,
     "# The threshold")
case("prose: unknown placeholder", sub(FM, "{rami40_threshold} points", "{rami41_threshold} p"),
     FM, "{rami41_threshold}", words="unknown rule placeholder {rami41_threshold}")
case("prose: format spec width", sub(FM, "{rami40_threshold} points",
                                     "{rami40_threshold:>999999999} points"),
     FM, "{rami40_threshold:")
case("prose: format spec precision", sub(FM, "{rami40_threshold} points",
                                         "{rami40_threshold:.3f} points"),
     FM, "{rami40_threshold:")
case("prose: conversion", sub(FM, "{rami40_threshold} points", "{rami40_threshold!r} points"),
     FM, "{rami40_threshold!r}")
case("prose: index", sub(FM, "{rami40_threshold} points", "{rami40_threshold[0]} points"),
     FM, "{rami40_threshold[0]}")
case("prose: attribute", sub(FM, "{rami40_threshold} points",
                             "{rami40_threshold.real} points"),
     FM, "{rami40_threshold.real}")
case("prose: stray open brace", sub(FM, "{rami40_threshold} points", "{ points"), FM,
     "{ points")
case("prose: stray close brace", sub(FM, "{rami40_threshold} points", "} points"), FM,
     "} points")
case("prose: empty braces", sub(FM, "{rami40_threshold} points", "{} points"), FM,
     "{} points")
case("prose: positional braces", sub(FM, "{rami40_threshold} points", "{0} points"), FM,
     "{0} points")
case("prose: nested braces", sub(FM, "{rami40_threshold} points", "{rami40_{x}} points"), FM,
     "{rami40_{x}}")
case("prose: javascript link", sub(FM, "## The threshold\n\nThis",
                                   "## The threshold\n\n[x](javascript:alert(1)) This"),
     FM, "[x](javascript")
case("prose: data link", sub(FM, "## The threshold\n\nThis",
                             "## The threshold\n\n[x](data:text/html,hi) This"),
     FM, "[x](data:")
case("prose: vbscript link in a list item", sub(FM, "- Two to nine",
                                                "- [Two](vbscript:x) to nine"),
     FM, "vbscript")
case("prose: javascript link with capitals", sub(
    FM, "## The threshold\n\nThis", "## The threshold\n\n[x](JavaScript:alert(1)) This"),
    FM, "[x](JavaScript")
case("prose: javascript link with an entity", sub(
    FM, "## The threshold\n\nThis", "## The threshold\n\n[x](java&#115;cript:alert(1)) This"),
    FM, "[x](java")
case("prose: reference-style link definition", sub(
    FM, "## The threshold\n\nThis",
    "## The threshold\n\n[x][r] This\n\n[r]: javascript:alert(1)\n\nThis"),
    FM, "[r]: javascript")
case("prose: image", sub(FM, "## The threshold\n\nThis",
                         "## The threshold\n\n![x](https://example.org/a.png) This"),
     FM, "![x]")
case("prose: autolink to javascript", sub(FM, "## The threshold\n\nThis",
                                          "## The threshold\n\nSee <javascript:alert(1)>. This"),
     FM, "<javascript")
case("prose: block quote", sub(FM, "## The threshold\n\nThis", "## The threshold\n\n> This"),
     FM, "> This")
case("prose: horizontal rule in a list item", sub(FM, "- Two to nine: the value on the card.",
                                                  "- ---"),
     FM, "- ---")
case("prose: unsupported fence", sub(FM, "```example\ntable: melds", "```python\ntable: melds"),
     FM, "```python")
case("prose: fence not closed", put("content/extra.md", PAGE_HEAD + "```example\ntable: melds\n"),
     "content/extra.md", "```example")
case("prose: not utf-8", subb(CV, b"Goal", b"Go\xe9l"), CV, "## Go",
     words="file is not valid UTF-8")
case("prose: NUL byte", subb(CV, b"## Goal", b"## Go\x00al"), CV, "## Go")
TH = "## The threshold\n\nThis"


def prose(text: str) -> Change:
    """*text* in first-meld.md, in place of its threshold section's heading."""
    return sub(FM, TH, text + "\n\n" + TH)


case("prose: relative link to no page", prose("See [x](cardverse/)."), FM, "See [x]",
     words="did you mean '../cardverse/'",
     alone=True)
case("prose: relative link up to no page", prose("See [y](../no-such-page/)."), FM, "See [y]",
     words="../cardverse/",
     alone=True)
case("prose: link to no section", prose("See [z](#no-such-section)."), FM, "See [z]",
     words="#the-threshold")
case("prose: link to no section of another page", prose("See [z](../cardverse/#nope)."),
     FM, "See [z]", words="#goal", alone=True)
case("prose: absolute link", prose("See [z](/en/cardverse/)."), FM, "See [z]",
     words="absolute path")
# Term links and callouts
case("prose: a term linked to no glossary section",
     prose("A [meld](../glossary/#melds-and-more) is laid."), FM, "A [meld]",
     words="leads to no section of content/glossary.md")
case("prose: a term linked to no page", prose("A [meld](../meld/) is laid."), FM, "A [meld]",
     words="leads to no page of the site",
     alone=True)
case("po: a term link led elsewhere",
     sub(PL, '"Pozostali gracze dostają [punkty karne](../scoring/#penalty-points) za "',
         '"Pozostali gracze dostają [punkty karne](../scoring/#penalty) za "'), PL,
     '"The others score [penalty points](../scoring/#penalty-points) for the cards "',
     offset=-1, words="link target")
case("po: a term link dropped",
     sub(PL, '"Pozostali gracze dostają [punkty karne](../scoring/#penalty-points) za "',
         '"Pozostali gracze dostają punkty karne za "'), PL,
     '"The others score [penalty points](../scoring/#penalty-points) for the cards "',
     offset=-1, words="link target")
case("callout: unknown kind", prose("!!! warning\n    Take care."), FM, "!!! warning",
     words="unknown callout 'warning'")
case("callout: no text", prose("!!! caution"), FM, "!!! caution",
     words="callout '!!! caution' has no text")
case("callout: text not indented", prose("!!! note\nNot indented."), FM, "!!! note",
     words="indented by four spaces")
# What Python-Markdown's admonitions allow and callouts do not, at its line.
case("callout: with a title", prose('!!! note "A title"\n    Titled text.'), FM,
     '!!! note "A title"', words="a callout takes no title")
case("callout: a second paragraph", prose("!!! caution\n    First.\n\n    Second."), FM,
     "    Second.", words="a callout holds one paragraph")
case("callout: a problem in its text is at its line", prose("!!! note\n    See [x](../nope/)."),
     FM, "    See [x]", words="leads to no page")
case("prose: broken link on a paragraph's second line",
     prose("See [a](../melds/),\nand [b](../melds/) or [c](../meld/)."), FM, "and [b]")
case("prose: link in a heading", prose("## The threshold in [Rami 51](../melds/)"), FM,
     "## The threshold in", words="heading holds no link")
case("prose: setext heading", prose("Main rule\n========="), FM, "=========",
     words="## Main rule")
case("prose: setext heading with dashes", prose("Other rule\n----------"), FM, "----------",
     words="## Other rule")
case("prose: lazy quote line", prose("A line of text.\n> A quoted rule."), FM,
     "> A quoted rule", words="block markup")
case("prose: table without outer pipes", prose("Card | Points\n---- | ------\nKing | 10"),
     FM, "---- |", words="tables")
case("prose: rule under a list item", prose("- A card.\n  ***"), FM, "  ***",
     words="block markup")
case("prose: h5 heading", prose("##### Deep"), FM, "##### Deep", words="'##' to '####'")
case("prose: h6 heading", prose("###### Deeper"), FM, "###### Deeper", words="'##' to '####'")
case("prose: typo on a paragraph's third line",
     prose("Wrapped paragraph, first line,\nsecond line,\nthird line with {rami51_treshold} "
           "typo,\nfourth line."), FM, "third line", words="{rami51_treshold}")
case("prose: html on a list item's second line",
     prose("- item one\n  continued with <b>bold</b>"), FM, "  continued", words="raw HTML")
case("prose: format spec on a paragraph's second line",
     prose("First line,\nsecond {rami40_threshold:>9}."), FM, "second {", words="format spec")
valid("prose: https link", sub(FM, "## The threshold\n\nThis",
                               "## The threshold\n\n[x](https://example.org/) This"))
valid("prose: relative link", sub(FM, "## The threshold\n\nThis",
                                  "## The threshold\n\n[x](../cardverse/) This"))
valid("prose: links to sections", sub(FM, "## The threshold\n\nThis",
                                      "## The threshold\n\n[x](../cardverse/#goal), "
                                      "[y](#the-threshold), [z](../melds/index.html) This"))
valid("prose: links to the pages the build makes", sub(
    FM, "## The threshold\n\nThis", "## The threshold\n\n[x](../quick-reference/rami/), "
    "[y](../translation-status/), [z](../quick-reference/cardverse/index.html) This"))
case("prose: link to a quick reference sheet that is not made",
     prose("See [q](../quick-reference/poker/)."), FM, "See [q]",
     alone=True)
valid("prose: mailto link", sub(FM, "## The threshold\n\nThis",
                                "## The threshold\n\n[x](mailto:a@example.org) This"))
valid("prose: escaped braces", sub(FM, "{rami40_threshold} points",
                                   "{rami40_threshold} points {{literal}}"))

# Line numbers after characters that other tools count as line breaks --------------------------
for char, label in (("\u2028", "U+2028"), ("\u2029", "U+2029"), ("\x0c", "form feed"),
                    ("\x85", "NEL"), ("\x0b", "vertical tab"), ("\x1c", "file separator"),
                    ("\x1d", "group separator"), ("\x1e", "record separator")):
    case(f"lines: {label} earlier in a page",
         chain(sub(CV, "Make groups and sequences", f"Make groups{char}and sequences"),
               sub(CV, "cards: QH KH AH", "cards: QH KH AX")),
         CV, "cards: QH KH AX")
case("lines: lone CR earlier in a page",
     chain(sub(CV, "Make groups and sequences", "Make groups\rand sequences"),
           sub(CV, "cards: QH KH AH", "cards: QH KH AX")),
     CV, "cards: QH KH AX")

# Example blocks ------------------------------------------------------------------------------
case("ex: unknown card", sub(FM, "cards: QH KH AH", "cards: QH KH AX"), FM, "cards: QH KH AX",
     words="AX")
case("ex: card token starting with a dash", sub(FM, "cards: QH KH AH", "cards: QH KH -AH"),
     FM, "cards: QH KH -AH")
case("ex: 11 of hearts", sub(FM, "cards: QH KH AH", "cards: QH KH 11H"), FM, "11H")
case("ex: unknown game", sub(FM, "game: rami40", "game: rami41"), FM, "game: rami41",
     words="unknown game 'rami41'")
case("ex: unknown profile", sub(FM, "profile: house", "profile: casino"), FM, "casino",
     words="unknown rule profile 'casino'")
case("ex: wrong points", sub(FM, "points: 31", "points: 32"), FM, "points: 32")
case("ex: wrong verdict", sub(CV, "verdict: invalid\nreason: wrap", "verdict: valid\nreason: wrap"),
     CV, "verdict: valid\nreason: wrap")
case("ex: wrong kind", sub(CV, "cards: 9C 9D 9S\nverdict: valid\nkind: set",
                          "cards: 9C 9D 9S\nverdict: valid\nkind: sequence"), CV,
     "kind: sequence\n\ncaption: Two sevens")
case("ex: wrong reason", sub(CV, "reason: ace_low_not_allowed", "reason: wrap"), CV,
     "reason: wrap")
case("ex: unknown reason", sub(CV, "reason: ace_low_not_allowed", "reason: nope"), CV,
     "reason: nope")
case("ex: wrong total", sub(FM, "total: 52", "total: 53"), FM, "total: 53")
case("ex: wrong threshold", sub(FM, "total: 52\nthreshold: 51", "total: 52\nthreshold: 50"),
     FM, "threshold: 50")
case("ex: wrong jokers", sub(FM, "jokers: 6S", "jokers: 9S"), FM, "jokers: 9S")
case("ex: wrong hand size", sub(CV, "hand_size: 7", "hand_size: 8"), CV, "hand_size: 8")
case("ex: wrong winner", sub(CV, "points: 9, 9, 10\nwinner: 1", "points: 9, 9, 10\nwinner: 2"),
     CV, "winner: 2")
case("ex: winner seat 0", sub(CV, "points: 9, 9, 10\nwinner: 1", "points: 9, 9, 10\nwinner: 0"),
     CV, "winner: 0")
case("ex: points list too short", sub(CV, "points: 9, 9, 10", "points: 9, 9"), CV,
     "points: 9, 9\n")
case("ex: points not a number", sub(FM, "points: 31", "points: six"), FM, "points: six",
     words="not a whole number")
case("ex: points huge", sub(FM, "points: 31", "points: " + "9" * 5000), FM, "points: 999")
case("ex: points negative", sub(FM, "points: 31", "points: -31"), FM, "points: -31")
case("ex: points with a plus", sub(FM, "points: 31", "points: +31"), FM, "points: +31",
    )
case("ex: points in arabic digits", sub(FM, "points: 31", "points: ٣١"), FM, "points: ٣١",
    )
case("ex: players huge", sub(CV, "players: 3", "players: 10000000000"), CV, "players: 1000")
case("ex: players zero", sub(CV, "players: 3", "players: 0"), CV, "players: 0")
case("ex: players negative", sub(CV, "players: 3", "players: -3"), CV, "players: -3")
case("ex: players 5000 digits", sub(CV, "players: 3", "players: " + "9" * 5000), CV,
     "players: 999")
case("ex: ace_high not yes/no", sub(CV, "ace_high: yes", "ace_high: true"), CV, "ace_high:")
case("ex: missing claim", sub(FM, "total: 48\nthreshold: 51", "threshold: 51"), FM,
     "caption: One pure sequence and one set of three", words="missing claim 'total'")
case("ex: missing input", sub(FM, "cards: QH KH AH\n", ""), FM, "caption: Queen, king, ace")
case("ex: malformed line", sub(FM, "cards: AH 2H 3H", "cards AH 2H 3H"), FM, "cards AH",
     words="malformed example line")
case("ex: unknown table", sub(CV, "table: hands", "table: hand"), CV, "table: hand",
     words="unknown table type 'hand'")
case("ex: unknown field", sub(CV, "players: 3", "players: 3\nseats: 3"), CV, "seats: 3",
     words="unknown field 'seats'")
case("ex: duplicate field", sub(CV, "players: 3", "players: 3\nplayers: 4"), CV, "players: 4")
case("ex: empty value", sub(CV, "players: 3", "players:"), CV, "players:\n")
case("ex: no table line", example("game: rami51\n\ncaption: x\ncards: QH KH AH\n"
                                  "verdict: valid\nkind: sequence\npoints: 31\n"),
     "content/extra.md", "```example")
OPENING = ("caption: x\ngame: rami51\nmelds: QH KH AH | JK 7S 8S\ntotal: 52\n"
           "verdict: accepted\n")
valid("ex: a claim before the first caption holds for every row",
      example("table: openings\nthreshold: 51\n\n" + OPENING + "\n" + OPENING))
case("ex: a wrong claim before the first caption", example(
    "table: openings\nthreshold: 40\n\n" + OPENING), "content/extra.md", "threshold: 40")
valid("ex: reasons none on an accepted opening",
      example("table: openings\n\n" + OPENING + "threshold: 51\nreasons: none\n"))
case("ex: a trailing | in a first meld", example(
    "table: openings\n\n" + OPENING.replace("JK 7S 8S", "JK 7S 8S |") + "threshold: 51\n"),
     "content/extra.md", "melds: QH KH AH | JK 7S 8S |", words="extra '|'")
case("ex: a trailing | in a round's hands", sub(FM, "QS KC AD 3D\n", "QS KC AD 3D |\n"), FM,
     "QS KC AD 3D |", words="extra '|'")
case("ex: no rows", example("table: melds\ngame: rami51\n"), "content/extra.md", "```example")
case("ex: no game", example("table: melds\n\ncaption: x\ncards: QH KH AH\nverdict: valid\n"
                            "kind: sequence\npoints: 31\n"), "content/extra.md", "caption: x")
valid("ex: meld of 60 cards", example("table: melds\ngame: rami51\n\ncaption: x\ncards: "
                                     + " ".join(["2H"] * 60) + "\nverdict: invalid\n"
                                     "reason: too_long\n"))
case("ex: opening with 200 groups", example(
    "table: openings\ngame: rami51\n\ncaption: x\nmelds: " + " | ".join(["QH KH AH"] * 200)
    + "\ntotal: 1\nthreshold: 51\nverdict: accepted\n"), "content/extra.md", "total: 1")
case("ex: empty group in an opening", example(
    "table: openings\ngame: rami51\n\ncaption: x\nmelds: QH KH AH | | 9C 9D 9S\n"
    "total: 58\nthreshold: 51\nverdict: accepted\n"), "content/extra.md",
     "melds: QH KH AH | | 9C 9D 9S", words="extra '|'")
case("ex: stock-out of 10000 seats", example(
    "table: stock-out\ngame: cardverse\n\ncaption: x\nhands: " + " | ".join(["2H"] * 10000)
    + "\npoints: 2\nwinner: 1\n"), "content/extra.md", "points: 2")
case("ex: hands with 5000 cards", example(
    "table: hands\ngame: cardverse\n\ncaption: x\ncards: " + " ".join(["2H"] * 5000)
    + "\npoints: 1\n"), "content/extra.md", "cards: 2H", words="the Rami (CardVerse) deck")
case("ex: unknown option override", example(
    "table: melds\ngame: rami51\njoker_value: 99999999999999999999\n\ncaption: x\n"
    "cards: QH KH AH\nverdict: valid\nkind: sequence\npoints: 31\n"),
    "content/extra.md", "joker_value")
case("ex: raw html in a caption", sub(FM, "caption: Queen, king, ace of hearts",
                                      "caption: <img src=x onerror=alert(1)>"), FM,
     "caption: <img")
case("ex: unknown placeholder in a note", sub(FM, "note: Placed before the two",
                                              "note: {nope} Placed before the two"), FM,
     "note: {nope}")
case("ex: format spec in a caption", sub(FM, "caption: Queen, king, ace of hearts",
                                         "caption: {rami40_threshold:>99999999}"), FM,
     "caption: {rami40")
case("ex: javascript link in a note", sub(FM, "note: Placed before the two",
                                          "note: [x](javascript:alert(1)) Placed"), FM,
     "note: [x]")
case("ex: block markup in a caption", sub(FM, "caption: Queen, king, ace of hearts",
                                          "caption: # Queen"), FM, "caption: # Queen")

# Worked rounds
case("round: illegal step", sub(CV, "step: 1: discard 9C", "step: 1: discard 4C"), CV,
     "step: 1: discard 4C")
case("round: unknown action", sub(CV, "step: 1: discard 9C", "step: 1: fold"), CV,
     "step: 1: fold")
case("round: seat out of range", sub(CV, "step: 1: discard 9C", "step: 7: discard 9C"), CV,
     "step: 7: discard")
case("round: seat huge", sub(CV, "step: 1: discard 9C", "step: " + "9" * 5000 + ": discard 9C"),
     CV, "step: 999")
case("round: layoff on meld huge", sub(CV, "step: 2: layoff 8H on 1",
                                       "step: 2: layoff 8H on 99999999999999999999"),
     CV, "step: 2: layoff 8H on 9")
case("round: unknown card in hands", sub(CV, "hands: 5H 6H 7H KC", "hands: 5H 6H 7H KX"), CV,
     "hands: 5H 6H 7H KX")
case("round: unknown card in stock", sub(CV, "stock: KS 10D 4H 9S", "stock: KS 10D 4H 9X"), CV,
     "stock: KS 10D 4H 9X")
case("round: unknown card in discard", sub(CV, "discard: QC", "discard: QX"), CV,
     "discard: QX")
case("round: one seat only", sub(CV, "hands: 5H 6H 7H KC KD 9C 2S | 4C 4D 4S 8H QS JD 3C",
                                 "hands: 5H 6H 7H KC KD 9C 2S"), CV, "hands: 5H 6H 7H")
case("round: 9 seats", sub(CV, "hands: 5H 6H 7H KC KD 9C 2S | 4C 4D 4S 8H QS JD 3C",
                           "hands: 5H 6H 7H KC KD 9C 2S | 4C 4D 4S 8H QS JD 3C"
                           + " | 2C" * 7), CV, "hands: 5H 6H 7H")
case("round: card twice in the deal", sub(CV, "stock: KS 10D 4H 9S", "stock: KS 10D 4H 5H"),
     CV, "hands: 5H 6H 7H")  # the deal as a whole: at the hands line
case("round: missing hands", sub(CV, "hands: 5H 6H 7H KC KD 9C 2S | 4C 4D 4S 8H QS JD 3C\n",
                                 ""), CV, "```example\ntable: round")
case("round: missing step", sub(CV, "step: 1: discard 9C\n", ""), CV,
     "caption: Seat 1 discards the nine")
case("round: a step that is only a comment",
     sub(CV, "step: 1: discard 9C", "step: # 1: discard 9C"), CV, "step: # 1",
     words="holds one step")
case("round: two steps in one row",
     sub(CV, "step: 1: discard 9C", "step: 1: discard 9C; 2: draw stock"), CV,
     "step: 1: discard 9C; 2", words="is not a card")
case("round: wrong hand claim", sub(CV, "hand: 2S", "hand: 3S"), CV, "hand: 3S")
case("round: wrong scores", sub(CV, "scores: 23, 0", "scores: 24, 0"), CV, "scores: 24, 0")
case("round: unknown field in a row", sub(CV, "hand: 2S", "hand: 2S\nseat: 1"), CV, "seat: 1")
case("round: unknown field before the rows", sub(CV, "discard: QC", "discard: QC\nseed: 4"), CV,
     "seed: 4")

# Catalogs ----------------------------------------------------------------------------------
case("po: syntax error", sub(PL, 'msgid "Verdict"', 'msgid "Verdict'), PL, 'msgid "Verdict',
     words="syntax error in catalog")
case("po: unterminated msgstr", sub(PL, 'msgstr "Werdykt"', 'msgstr "Werdykt'), PL,
     'msgstr "Werdykt', offset=0, slack=1)
case("po: bad escape", sub(PL, 'msgstr "Werdykt"', 'msgstr "Werd\\qykt"'), PL,
     'msgid "Verdict"', slack=1)
case("po: keyword typo", sub(PL, 'msgstr "Werdykt"', 'msgstrr "Werdykt"'), PL,
     'msgid "Verdict"', slack=1)
case("po: not utf-8", subb(PL, b"Werdykt", b"Werd\xffkt"), PL, 'msgid "Verdict"',
     slack=1)
case("po: charset ISO-8859-2", chain(
    sub(PL, "charset=UTF-8", "charset=ISO-8859-2"),
    lambda r: (r / PL).write_bytes((r / PL).read_text(encoding="utf-8").encode("utf-8"))),
    PL, "charset=ISO-8859-2")
case("po: charset unknown", sub(PL, "charset=UTF-8", "charset=klingon"), PL, "charset=klingon",
    )
case("po: duplicate msgid", po_append(PL, 'msgid "Verdict"\nmsgstr "Wyrok"\n'), PL,
     'msgstr "Wyrok"', offset=-1)
case("po: orphan msgstr", po_append(PL, 'msgstr "sierota"\n'), PL, 'msgstr "sierota"',
    )
case("po: plural msgstr for a singular message", msgstr(PL, '"Verdict"',
                                                        '"Werdykt"\nmsgstr[1] "Werdykty"'),
     PL, 'msgid "Verdict"', slack=2)
case("po: msgstr[0] only for a singular message",
     sub(PL, 'msgid "Verdict"\nmsgstr "Werdykt"', 'msgid "Verdict"\nmsgstr[0] "Werdykt"'),
     PL, 'msgid "Verdict"', slack=1)
case("po: plural forms missing", sub(PL, 'msgstr[2] "{n} punktów"\n', ""), PL,
     'msgid "{n} point"')
case("po: plural form without its count", sub(PL, 'msgstr[1] "{n} punkty"', 'msgstr[1] "punkty"'),
     PL, 'msgid "{n} point"', words="msgstr[1]")  # 2, 3, 4, 22… share the form
case("po: plural form with a number of its own",
     sub(PL, 'msgstr[0] "Dżokery w układzie: najwyżej {n}."',
         'msgstr[0] "Dżokery w układzie: najwyżej 2."'), PL, 'msgid "At most {n} joker', words="2")
case("po: plural forms without another placeholder",
     sub(PL, "wygrywa gracz na miejscu {seat} i zdobywa {n} punkt.",
         "zwycięzca zdobywa {n} punkt."),
     PL, 'msgid "Round over: seat {seat} wins and', words="{seat}")
case("po: vi's one form without its count", sub(VI, 'msgstr[0] "{n} điểm"', 'msgstr[0] "điểm"'), VI,
     'msgid "{n} point"')
case("po: game term in the plural", msgstr(PL, '"Sets and sequences"', '"Grupy i strity"'), PL,
     'msgid "Sets and sequences"', words="sekwens")
case("po: stray open brace", msgstr(PL, '"Verdict"', '"Werdykt {"'), PL, 'msgid "Verdict"',
    )
case("po: stray close brace", msgstr(PL, '"Verdict"', '"Werdykt }"'), PL, 'msgid "Verdict"',
    )
case("po: empty braces", msgstr(PL, '"Verdict"', '"Werdykt {}"'), PL, 'msgid "Verdict"')
case("po: positional braces", msgstr(PL, '"Verdict"', '"Werdykt {0}"'), PL, 'msgid "Verdict"')
case("po: index in a placeholder", msgstr(PL, '"threshold {n}"', '"próg {n[0]}"'), PL,
     'msgid "threshold {n}"')
case("po: attribute in a placeholder", msgstr(PL, '"threshold {n}"', '"próg {n.real}"'), PL,
     'msgid "threshold {n}"')
case("po: format spec in a placeholder", msgstr(PL, '"threshold {n}"', '"próg {n:>999999999}"'),
     PL, 'msgid "threshold {n}"')
case("po: conversion in a placeholder", msgstr(PL, '"threshold {n}"', '"próg {n!r}"'), PL,
     'msgid "threshold {n}"')
case("po: x[y] placeholder", msgstr(PL, '"Verdict"', '"Werdykt {x[y]}"'), PL,
     'msgid "Verdict"')
case("po: jinja statement", msgstr(PL, '"Verdict"', '"Werdykt {% if x %}"'), PL,
     'msgid "Verdict"')
case("po: dropped placeholder", msgstr(PL, '"threshold {n}"', '"próg"'), PL,
     'msgid "threshold {n}"', words="placeholders differ")
case("po: renamed placeholder", msgstr(PL, '"threshold {n}"', '"próg {m}"'), PL,
     'msgid "threshold {n}"')
case("po: added placeholder in a page text", msgstr(PL, '"Goal"', '"Cel {rami40_threshold}"'),
     PL, 'msgid "Goal"')
case("po: changed number", sub(PL, "Wersja 1.1.0", "Wersja 1.2.0"), PL,
     "Variant played", offset=-1, slack=2)
case("po: raw html", msgstr(PL, '"Goal"', '"<b>Cel</b>"'), PL, 'msgid "Goal"')
case("po: script tag", msgstr(PL, '"Goal"', '"<script>alert(1)</script>"'), PL, 'msgid "Goal"')
case("po: added link", msgstr(PL, '"Goal"', '"[Cel](https://example.org/)"'), PL,
     'msgid "Goal"')
case("po: javascript link", msgstr(PL, '"Goal"', '"[Cel](javascript:alert(1))"'), PL,
     'msgid "Goal"')
case("po: reference-style link", msgstr(PL, '"Goal"', '"[Cel][r]\\n\\n[r]: javascript:alert(1)"'),
     PL, 'msgid "Goal"')
case("po: reference-style link, one line", msgstr(PL, '"Goal"', '"[Cel][r] [r]: javascript:x"'),
     PL, 'msgid "Goal"')
case("po: collapsed reference link", msgstr(PL, '"Goal"', '"[Cel][]"'), PL, 'msgid "Goal"',
    )
case("po: heading marker", msgstr(PL, '"Goal"', '"# Cel"'), PL, 'msgid "Goal"')
case("po: block quote marker", msgstr(PL, '"Goal"', '"> Cel"'), PL, 'msgid "Goal"')
case("po: list marker", msgstr(PL, '"Goal"', '"- Cel"'), PL, 'msgid "Goal"')
case("po: numbered list marker", msgstr(PL, '"Goal"', '"1. Cel"'), PL, 'msgid "Goal"',
    )
case("po: horizontal rule", msgstr(PL, '"Goal"', '"---"'), PL, 'msgid "Goal"')
case("po: setext underline", msgstr(PL, '"Goal"', '"Cel\\n==="'), PL, 'msgid "Goal"')
case("po: code fence", msgstr(PL, '"Goal"', '"```\\nCel\\n```"'), PL, 'msgid "Goal"')
case("po: indented code", msgstr(PL, '"Goal"', '"    Cel"'), PL, 'msgid "Goal"')
case("po: newline then heading", msgstr(PL, '"Goal"', '"Cel\\n# gry"'), PL, 'msgid "Goal"',
    )
case("po: image", msgstr(PL, '"Goal"', '"![Cel](https://example.org/x.png)"'), PL,
     'msgid "Goal"')
case("po: autolink", msgstr(PL, '"Goal"', '"Cel <https://example.org/>"'), PL, 'msgid "Goal"')
case("po: emphasis added", msgstr(PL, '"Goal"', '"*Cel* gry"'), PL, 'msgid "Goal"')
case("po: code added", msgstr(PL, '"Goal"', '"`Cel` gry"'), PL, 'msgid "Goal"')
case("po: code dropped", sub(PL, "Opcja `ace_high` liczy", "Opcja ace_high liczy"), PL,
     'Opcja ace_high liczy', offset=-6, slack=6)
case("po: glossary term", sub(PL, 'msgstr "Dama, król, as kier"', 'msgstr "Dama, król, as serc"'),
     PL, 'msgid "Queen, king, ace of hearts"')
case("po: rank name (królowa kier where the terms say dama kier)",
     sub(PL, 'msgstr "Dama, król, as kier"', 'msgstr "Królowa, król, as kier"'),
     PL, 'msgid "Queen, king, ace of hearts"', words="game term 'queen' must be translated")
case("po: a word the term file says to avoid (ms peletakan pertama)",
     sub(MS, 'msgstr "Bentangan pertama yang disahkan"',
         'msgstr "Peletakan pertama yang disahkan"'), MS,
     'msgid "Verified first melds"', words="'peletakan pertama' is not this language's term")
case("terms: not TOML", sub(TERMS, 'hearts = "kier"', 'hearts = "kier'), TERMS,
     'hearts = "kier', words="not valid TOML")
case("terms: a term that is not a word", sub(TERMS, 'hearts = "kier"', "hearts = 3"), TERMS,
     "hearts = 3", words="write the word in quotes")
case("terms: an unknown table", sub(TERMS, "\n[avoid]\n", "\n[avoided]\n"), TERMS, "[avoided]",
     words="is not a table of a term file")
case("po: locales/en catalog", lambda r: __import__("shutil").copytree(
    r / "locales/pl", r / "locales/en"), "locales/en/LC_MESSAGES/messages.po", None)
case("po: language folder in another case (Pl beside pl)", lambda r: __import__("shutil").copytree(
    r / "locales/pl", r / "locales/Pl"), "locales/Pl/LC_MESSAGES/messages.po", None,
     words="rename locales/Pl/ to locales/pl/")
case("po: source language folder in capitals", lambda r: __import__("shutil").copytree(
    r / "locales/pl", r / "locales/EN"), "locales/EN/LC_MESSAGES/messages.po", None)
case("po: language folder written as BCP 47 (pt-BR)", lambda r: __import__("shutil").copytree(
    r / "locales/pl", r / "locales/pt-BR"), "locales/pt-BR/LC_MESSAGES/messages.po", None,
     words="rename locales/pt-BR/ to locales/pt_BR/")
case("po: unknown language folder", lambda r: __import__("shutil").copytree(
    r / "locales/pl", r / "locales/xx"), "locales/xx/LC_MESSAGES/messages.po", None)
case("po: catalog is a directory", replace_by_dir(MS), MS, None)
case("po: catalog is a dangling symlink", symlink(MS, "nowhere.po"), MS, None)
case("po: catalog is a symlink loop", symlink(MS, "messages.po"), MS, None)
case("po: catalog is a FIFO", fifo(MS), MS, None)
valid("po: catalog is empty (a language with nothing translated yet)", put(MS, ""))
valid("po: header without plural forms (CLDR's are used)",
      sub(PL, '"Plural-Forms: nplurals=3;', '"X-Nothing: 3;'))
case("po: msgstr with a NUL", msgstr(PL, '"Goal"', '"Cel\\0gry"'), PL, 'msgid "Goal"',
     slack=1)
case("po: msgstr with a control character", msgstr(PL, '"Goal"', '"Cel\x07gry"'), PL,
     'msgid "Goal"', slack=1)
valid("po: fuzzy entry with a broken translation",
      sub(PL, 'msgid "Verdict"\nmsgstr "Werdykt"', '#, fuzzy\nmsgid "Verdict"\nmsgstr "W {"'))
valid("po: a plural form for one count alone names it in words",
      sub(PL, 'msgstr[0] "{n} punkt"', 'msgstr[0] "jeden punkt"'))
valid("po: a plural form for one count alone writes it as a figure",
      sub(PL, 'msgstr[0] "{n} punkt"', 'msgstr[0] "1 punkt"'))
valid("po: a percent sign after a placeholder",
      sub(PL, "częściowo ({percent}%).", "w {percent}% strony."))  # not printf's "% s"
valid("po: vi typed with combining accents (NFD)",
      msgstr(VI, '"A sequence and three kings in Rami 40"',
             '"' + unicodedata.normalize("NFD", "Một sảnh và ba lá già ở Rami 40") + '"'))
valid("po: empty translation", msgstr(PL, '"Goal"', '""'))
case("po: literal braces added", msgstr(PL, '"Goal"', '"Cel {{gry}}"'), PL, 'msgid "Goal"')
case("po: more plural forms than the language has",
     sub(VI, 'msgstr[0] "{n} điểm"\n', 'msgstr[0] "{n} điểm"\nmsgstr[1] "{n} điểm"\n'), VI,
     'msgstr[1] "{n} điểm"', words="Vietnamese has 1 plural form (CLDR), so msgstr[0] only")
case("po: a fourth plural form", sub(PL, 'msgstr[2] "{n} punktów"\n',
                                     'msgstr[2] "{n} punktów"\nmsgstr[3] "{n} punktów"\n'),
     PL, 'msgstr[3] "{n} punktów"', words="remove msgstr[3]")
case("po: msgid without msgstr at the end", po_append(PL, 'msgid "Goal2"\n'), PL,
     'msgid "Goal2"', words="msgid 'Goal2' has no msgstr")
case("po: msgstr removed", sub(PL, 'msgid "Goal"\nmsgstr "Cel gry"\n', 'msgid "Goal"\n'), PL,
     'msgid "Goal"', words="msgid 'Goal' has no msgstr")
case("po: two msgstr lines in one entry",
     sub(PL, 'msgstr "Cel gry"\n', 'msgstr "Cel gry"\nmsgstr "Cel"\n'), PL, 'msgstr "Cel"\n',
     words="second msgstr")
valid("po: U+2028 in a msgstr (kept, as msgfmt and the pages keep it)",
      msgstr(PL, '"Goal"', '"Cel\u2028gry"'))
valid("po: NEL in a msgstr (kept, as msgfmt and the pages keep it)",
      msgstr(PL, '"Goal"', '"Cel\x85gry"'))
case("lines: U+2028 earlier in a catalog",
     chain(msgstr(PL, '"Goal"', '"Cel\u2028gry"'),
           sub(PL, 'msgstr "Werdykt"', 'msgstr "Werdykt')), PL, 'msgstr "Werdykt')
case("po: translation is only spaces", msgstr(PL, '"Goal"', '" "'), PL, 'msgid "Goal"',
     slack=1, words="only spaces")

# Templates --------------------------------------------------------------------------------
case("tpl: syntax error", sub(PAGE, "{% block main %}", "{% block main %}{% if %}"), PAGE,
     "{% if %}", words="template syntax error: Expected an expression")
case("tpl: unclosed block", sub(PAGE, "{% endblock %}\n", "\n"), PAGE, None)
case("tpl: undefined name", sub(PAGE, "{% block main %}", "{% block main %}{{ nope.x }}"),
     PAGE, "{{ nope.x }}", words="template error while rendering: 'nope' is undefined")
for lang in ("pl", "vi"):  # a template error that one language's pages alone meet
    case(f"tpl: undefined name in {lang} only",
         sub(PAGE, "{% block main %}", f'{{% block main %}}{{% if lang == "{lang}" %}}'
                                       "{{ nope.x }}{% endif %}"),
         PAGE, "{{ nope.x }}", words="template error while rendering: 'nope' is undefined")
case("tpl: missing import", sub(PAGE, '{% import "_meta.html" as m %}',
                                '{% import "_gone.html" as m %}'), PAGE, "_gone.html",
     words="template not found: '_gone.html'")
case("tpl: missing include", sub(PAGE, "{% block main %}",
                                 '{% block main %}{% include "gone.html" %}'), PAGE, "gone.html")
case("tpl: missing parent", sub(PAGE, '{% extends "base.html" %}', '{% extends "nobase.html" %}'),
     PAGE, "nobase.html")
case("tpl: division by zero", sub(PAGE, "{% block main %}", "{% block main %}{{ 1 // 0 }}"),
     PAGE, "{{ 1 // 0 }}")
case("tpl: modulo by zero", sub(PAGE, "{% block main %}", "{% block main %}{{ 1 % 0 }}"),
     PAGE, "{{ 1 % 0 }}")
case("tpl: recursion", sub(PAGE, "{% block main %}",
                           "{% macro r(n) %}{{ r(n) }}{% endmacro %}{% block main %}{{ r(1) }}"),
     PAGE, "{{ r(1) }}")
case("tpl: unknown filter", sub(PAGE, "{{ title.html }}</h1>", "{{ title.html|nope }}</h1>"),
     PAGE, "|nope")
case("tpl: unknown test", sub(PAGE, "{% block main %}", "{% block main %}{% if 1 is nope %}"
                              "{% endif %}"), PAGE, "is nope")
case("tpl: type error", sub(PAGE, "{% block main %}", '{% block main %}{{ 1 + "a" }}'),
     PAGE, '{{ 1 + "a" }}')
case("tpl: bad format", sub(PAGE, "{% block main %}", '{% block main %}{{ "%d"|format("x") }}'),
     PAGE, '|format("x")')
case("tpl: calling a string", sub(PAGE, "{% block main %}", '{% block main %}{{ "a"() }}'),
     PAGE, '{{ "a"() }}')
case("tpl: not utf-8", subb(PAGE, b"{% block main %}", b"{% block main %}\xff"), PAGE,
     "{% block main %}")
case("tpl: error in an included template", sub("templates/_meta.html", "{% macro",
                                               "{{ nope.x }}{% macro"),
     "templates/_meta.html", "{{ nope.x }}")
case("tpl: template is a directory", replace_by_dir(PAGE), PAGE, None)
case("tpl: template is a dangling symlink", symlink(PAGE, "nowhere.html"), PAGE, None)
case("tpl: template is a FIFO", fifo(PAGE), PAGE, None)
case("tpl: bad trans block", sub(PAGE, "{% block main %}",
                                 "{% block main %}{% trans %}{% if 1 %}x{% endif %}{% endtrans %}"),
     PAGE, "{% trans %}")

# Settings: site.toml ----------------------------------------------------------------------
case("site: toml syntax error", sub(SITE, 'base_url = "https', 'base_url = https'), SITE,
     "base_url = https")
case("site: toml cut short", po_append(SITE, "x = [\n"), SITE, "x = [")  # at end of file
case("site: unknown setting", po_append(SITE, 'title = "x"\n'), SITE, 'title = "x"',
    )
case("site: base_url not a string", sub(SITE, 'base_url = "https://rami-rules.example.org/"',
                                        "base_url = 3"), SITE, "base_url = 3")
case("site: base_url not a url", sub(SITE, "https://rami-rules.example.org/", "not a url"),
     SITE, "base_url =")
case("site: base_url javascript", sub(SITE, "https://rami-rules.example.org/",
                                      "javascript:alert(1)"), SITE, "base_url =")
case("site: base_url relative", sub(SITE, "https://rami-rules.example.org/", "/rules/"),
     SITE, "base_url =")
case("site: base_url ftp", sub(SITE, "https://rami-rules.example.org/", "ftp://example.org/"),
     SITE, "base_url =")
case("site: base_url with a newline", sub(SITE, '"https://rami-rules.example.org/"',
                                          '"https://rami-rules.example.org/\\nDisallow: /"'),
     SITE, "base_url =")
case("site: base_url with a space", sub(SITE, "https://rami-rules.example.org/",
                                        "https://rami rules.example.org/"), SITE, "base_url =",
    )
case("site: base_url with a quote", sub(SITE, '"https://rami-rules.example.org/"',
                                        "'https://rami-rules.example.org/\"><x'"),
     SITE, "base_url =")
case("site: base_url without a host", sub(SITE, "https://rami-rules.example.org/", "https:///x/"),
     SITE, "base_url =")
case("site: base_url with a query", sub(SITE, "https://rami-rules.example.org/",
                                        "https://example.org/?a=1"), SITE, "base_url =",
    )
case("site: is a directory", replace_by_dir(SITE), SITE, None)
case("site: not utf-8", subb(SITE, b"base_url", b"\xffbase_url"), SITE, "base_url")
case("site: dangling symlink", symlink(SITE, "nowhere.toml"), SITE, None)
valid("site: base_url http", sub(SITE, "https://rami-rules.example.org/", "http://example.org/x/"))
valid("site: base_url without a slash", sub(SITE, "https://rami-rules.example.org/",
                                            "https://example.org/rules"))
for bad in ("not a url", "javascript:alert(1)", "/rules/", "https://a b/",
            "https://example.org/\nDisallow: /"):
    case(f"cli: --base-url {bad!r}", nothing, "--base-url", None, args=("--base-url", bad),
         commands=("build",))

# Settings: profiles.toml --------------------------------------------------------------------
case("prof: toml syntax error", sub(PROF, "joker_value = 15", "joker_value = "), PROF,
     "joker_value =")
case("prof: toml cut short", po_append(PROF, "[more]\nname = \"x\n"), PROF, 'name = "x')
case("prof: unknown key", sub(PROF, "joker_value = 15", "joker_value = 15\nwild = 2"), PROF,
     "wild = 2")
case("prof: wrong type", sub(PROF, "joker_value = 15", 'joker_value = "15"'), PROF,
     "joker_value =")
case("prof: negative", sub(PROF, "joker_value = 15", "joker_value = -15"), PROF,
     "joker_value =")
case("prof: max_players huge", sub(PROF, "joker_value = 15",
                                   "joker_value = 15\nmax_players = 10000000000"), PROF,
     "max_players")
case("prof: hand size huge", sub(PROF, "joker_value = 15",
                                 "joker_value = 15\nthreshold = 100000000000000000000"), PROF,
     "threshold")
case("prof: float", sub(PROF, "joker_value = 15", "joker_value = 1.5"), PROF, "joker_value =",
    )
case("prof: bool for a number", sub(PROF, "joker_value = 15", "joker_value = true"), PROF,
     "joker_value =")
case("prof: no name", sub(PROF, 'name = "house rules"\n', ""), PROF, "[house]")
case("prof: name not a string", sub(PROF, 'name = "house rules"', "name = 3"), PROF,
     "name = 3")
case("prof: not a table", sub(PROF, "[reference]", "loose = 3\n\n[reference]"), PROF,
     "loose = 3")
case("prof: reference missing", sub(PROF, "[reference]\nname", "[standard]\nname"), FM,
     "profile: reference", alone=True)
case("prof: is a directory", replace_by_dir(PROF), PROF, None)
case("prof: not utf-8", subb(PROF, b"house rules", b"house \xffrules"), PROF, 'name = "house')
case("prof: missing", lambda r: (r / PROF).unlink(), PROF, None)
case("prof: dangling symlink", symlink(PROF, "nowhere.toml"), PROF, None)

# Special files in content -------------------------------------------------------------------
case("special: page that is a directory", mkdir("content/extra.md"), "content/extra.md", None,
    )
case("special: page that is a dangling symlink", symlink("content/extra.md", "nowhere.md"),
     "content/extra.md", None)
case("special: page that is a symlink loop", symlink("content/extra.md", "extra.md"),
     "content/extra.md", None)
case("special: page that is a FIFO", fifo("content/extra.md"), "content/extra.md", None,
    )
case("special: content is a file", lambda r: (__import__("shutil").rmtree(r / "content"),
                                               (r / "content").write_text("x")),
     "content", None)
case("special: templates folder missing", lambda r: __import__("shutil").rmtree(r / "templates"),
     "templates", None)

# Output folders ------------------------------------------------------------------------------
case("out: parent is a file", put("afile", "x"), "--out", None,
     args=("--out", "afile/dist"), commands=("build",))
case("out: is a file", put("outfile", "x"), "--out", None,
     args=("--out", "outfile"), commands=("build",))
# Not writable even for root (chmod does not stop root): /proc and /sys refuse new folders.
case("out: under /proc", nothing, "--out", None, args=("--out", "/proc/rami-dist"),
     commands=("build",))
case("out: under /sys", nothing, "--out", None, args=("--out", "/sys/rami-dist/site"),
     commands=("build",))
case("out: a mount point", nothing, "--out", None, args=("--out", "/proc"),
     commands=("build",))
case("out: a folder of other files", put("mine/thesis.txt", "not a site"), "--out", None,
     args=("--out", "mine"), commands=("build",))
case("out: parent's parent is a file", put("afile", "x"), "--out", None,
     args=("--out", "afile/a/b/dist"), commands=("build",))
# A marker vouches only for the files it lists; the rest are a user's.
case("out: a CNAME added to dist", put("dist/CNAME", "rami.example.org"), "--out", None,
     commands=("build",))
case("out: a drafts folder added to dist", put("dist/drafts/a.md", "draft"), "--out", None,
     commands=("build",))
case("out: an empty folder added to dist", mkdir("dist/empty"), "--out", None,
     commands=("build",))
case("out: a build copied into a user's folder",
     chain(lambda r: __import__("shutil").copytree(r / "dist", r / "mine"),
           put("mine/notes.txt", "notes"), put("mine/photos/a.jpg", "jpg")),
     "--out", None, args=("--out", "mine"), commands=("build",))
case("out: an empty marker over a user's files",
     chain(put("mine/notes.txt", "notes"),
           put_bytes("mine/.site-builder",
                     b"site-builder output " + __import__("hashlib").blake2b(
                         b"", digest_size=16).hexdigest().encode() + b"\n")),
     "--out", None, args=("--out", "mine"), commands=("build",))


def _damage(root: Path) -> None:  # a file deleted, another changed (not in place: linked)
    (root / "dist/pl/index.html").unlink()
    css = root / "dist/assets/site.css"
    data = css.read_bytes()
    css.unlink()
    css.write_bytes(data + b"/* changed */")


valid("out: a damaged dist is rebuilt", _damage, commands=("build",))
valid("out: a user's backup named like a build's leftovers",
      lambda r: __import__("shutil").copytree(r / "dist", r / ".dist.old-2024-backup"),
      commands=("build",))

# A second hostile pass, on the features added since ------------------------------------------
WR = "content/whole-round.md"
ML = "content/melds.md"
case("round: swap with a card the joker does not stand for",
     sub(WR, "step: 1: swap 5H for JK on 2", "step: 1: swap 2S for JK on 2"), WR,
     "step: 1: swap 2S",
     words="2S cannot replace the joker in meld 2 (3H 4H 5H 6H): the joker stands for 5H")
case("round: swap a card not in the hand", sub(WR, "step: 1: swap 5H for JK on 2",
                                               "step: 1: swap 5D for JK on 2"), WR,
     "step: 1: swap 5D")
case("round: swap on meld 0", sub(WR, "step: 1: swap 5H for JK on 2",
                                  "step: 1: swap 5H for JK on 0"), WR, "step: 1: swap 5H")
case("round: swap on a meld not laid", sub(WR, "step: 1: swap 5H for JK on 2",
                                           "step: 1: swap 5H for JK on 9"), WR, "step: 1: swap 5H")
case("round: swap on meld huge", sub(WR, "step: 1: swap 5H for JK on 2",
                                     "step: 1: swap 5H for JK on " + "4" * 400), WR,
     "step: 1: swap 5H")
case("round: swap for a card that is not a joker", sub(WR, "step: 1: swap 5H for JK on 2",
                                                       "step: 1: swap 5H for 4H on 2"), WR,
     "step: 1: swap 5H")
case("round: swap with words missing", sub(WR, "step: 1: swap 5H for JK on 2",
                                           "step: 1: swap 5H"), WR, "step: 1: swap 5H")
case("round: swap with a word too many", sub(WR, "step: 1: swap 5H for JK on 2",
                                             "step: 1: swap 5H for JK on 2 now"), WR,
     "step: 1: swap 5H")
case("round: joker taken and not laid", sub(WR, "step: 1: meld 2S 3S JK\nkind: sequence\n"
                                            "points: 6\n", "step: 1: discard 2S\n"), WR,
     "step: 1: discard 2S")
case("round: take the discard not on top", sub(WR, "step: 1: draw discard 8C",
                                               "step: 1: draw discard 9C"), WR,
     "step: 1: draw discard 9C")
case("round: taken discard not laid", sub(WR, "step: 1: meld 5C 6C 7C 8C",
     "step: 1: meld 5C 6C 7C"),
     WR, "step: 1: meld 5C 6C 7C\nkind: sequence\npoints: 26",  # found at the next meld
     words="seat 1 must lay 8C this turn and could not after that")
case("round: taken discard not laid at all", sub(WR, "step: 1: meld 5C 6C 7C 8C",
                                                 "step: 1: discard QC"), WR,
     "step: 1: discard QC", words="seat 1 took 8C from the discard pile and must lay 8C "
                                  "this turn")
case("round: discard taken that cannot be laid", sub(WR, "step: 2: discard 8C",
                                                     "step: 2: discard 2C"), WR,
     "step: 1: draw discard 8C",
     words="seat 1 may take 2C from the discard pile only to lay it this turn, and cannot")
case("round: going out with a meld that is not valid", sub(WR, "step: 1: meld QC QH QS",
                                                           "step: 1: meld QC QH 8D"), WR,
     "step: 1: meld QC QH 8D", words="QC QH 8D is not a valid meld (mixed_ranks)")
case("round: layoff on a meld it does not fit", sub(WR, "step: 2: layoff 9C on 3",
                                                    "step: 2: layoff 9C on 1"), WR,
     "step: 2: layoff 9C on 1", words="9C does not fit meld 1 (9D 10D JD QD): mixed_suits")
case("round: draw stock names the wrong card", sub(WR, "step: 2: draw stock 9C",
                                                   "step: 2: draw stock 9H"), WR,
     "step: 2: draw stock 9H")
case("round: draw twice", sub(WR, "step: 2: draw stock 9C",
                              "step: 2: draw stock 9C\n\ncaption: again\nstep: 2: draw stock QS"),
     WR, "step: 2: draw stock QS")
case("round: wrong seat's turn", sub(WR, "step: 2: draw stock 9C", "step: 1: draw stock 9C"),
     WR, "step: 1: draw stock 9C")
case("round: step after the round is won", sub(WR, "hand_points: 0, 29\nscores: 0, 29\n",
                                               "hand_points: 0, 29\nscores: 0, 29\n\n"
                                               "caption: more\nstep: 2: draw stock 7H\n"), WR,
     "step: 2: draw stock 7H")
valid("round: seat with a leading zero", sub(WR, "step: 2: draw stock 9C",
                                             "step: 02: draw stock 9C"))
case("round: seat in arabic digits", sub(WR, "step: 2: draw stock 9C",
     "step: \u0662: draw stock 9C"),
     WR, "step: \u0662:")
case("round: empty step", sub(WR, "step: 2: draw stock 9C", "step: 2:"), WR, "step: 2:\n")
case("round: hands after the first row", sub(WR, "caption: Seat 2 draws the nine of clubs\n",
                                             "caption: Seat 2 draws the nine of clubs\n"
                                             "stock: QH\n"), WR, "stock: QH\n")
case("round: stock given twice", sub(WR, "stock: QH 3H 9C QS 7H 4C\n",
                                     "stock: QH 3H 9C QS 7H 4C\nstock: QH\n"), WR, "stock: QH\n")
case("round: empty stock line", sub(WR, "stock: QH 3H 9C QS 7H 4C", "stock:"), WR, "stock:\n")
case("round: missing discard line", sub(WR, "discard: 4S\n", ""), WR, "```example\ntable: round",
     slack=10)
case("round: jokers in a cardverse deal", sub(CV, "hands: 5H 6H 7H KC KD 9C 2S",
                                              "hands: 5H 6H 7H KC KD 9C JK"), CV,
     "hands: 5H 6H 7H KC KD 9C JK")
case("round: five jokers in a rami51 deal",
     sub(WR, "stock: QH 3H 9C QS 7H 4C", "stock: QH 3H 9C QS 7H 4C JK JK JK"), WR,
     "hands: 5C 6C 7C KH")
case("round: hand claim with a bad card", sub(WR, "hand: 2S 3S 8D 5H QC QH",
     "hand: 2S 3S 8D 5H QC QX"),
     WR, "hand: 2S 3S 8D 5H QC QX")
case("round: scores with one seat missing", sub(WR, "scores: 0, 29", "scores: 29"), WR,
     "scores: 29")
case("round: scores huge", sub(WR, "scores: 0, 29", "scores: 0, " + "5" * 5000), WR, "scores: 0, 5")
case("round: verdict not a verdict", sub(WR, "verdict: accepted\nhand: 2S",
     "verdict: maybe\nhand: 2S"),
     WR, "verdict: maybe")
case("round: winner claimed too early", sub(WR, "step: 2: discard AS",
     "step: 2: discard AS\nwinner: 2"),
     WR, "winner: 2")
case("round: unknown profile",
     sub(WR, "table: round\ngame: rami51\n", "table: round\ngame: rami51\nprofile: nosuch\n"), WR,
     "profile: nosuch")
case("round: profile line twice", sub(WR, "table: round\ngame: rami51\n",
                                      "table: round\ngame: rami51\nprofile: house\n"
                                      "profile: house\n"),
     WR, "profile: house\nprofile", offset=1)
case("round: game line after a row", sub(WR, "caption: Seat 2 draws the nine of clubs\n",
                                         "caption: Seat 2 draws the nine of clubs\n"
                                         "game: rami40\n"),
     WR, "game: rami40")
valid("round: step with a tab", sub(WR, "step: 2: draw stock 9C", "step: 2:\tdraw stock 9C"))
case("round: draw from nowhere", sub(WR, "step: 2: draw stock 9C", "step: 2: draw hand 9S"), WR,
     "step: 2: draw hand")
case("round: layoff with no card", sub(WR, "step: 2: layoff 9C on 3", "step: 2: layoff on 3"), WR,
     "step: 2: layoff on 3")
case("round: meld with a repeated card", sub(WR, "step: 1: meld QC QH QS",
     "step: 1: meld QC QH QH"),
     WR, "step: 1: meld QC QH QH")

# Profiles: the published variations
case("prof: max_jokers_per_meld zero", sub(PROF, "max_jokers_per_meld = 2",
     "max_jokers_per_meld = 0"),
     "content/variations.md", "cards: 6S JK JK 9S\nverdict: valid",
     offset=1, alone=True)  # a rule a house may play: the example is wrong
case("prof: max_jokers_per_meld huge", sub(PROF, "max_jokers_per_meld = 2",
                                           "max_jokers_per_meld = 99999999999999"), PROF,
     "max_jokers_per_meld")
case("prof: adjacent_jokers a string", sub(PROF, "adjacent_jokers = true",
     'adjacent_jokers = "yes"'),
     PROF, "adjacent_jokers")
case("prof: ace_high a number", sub(PROF, "ace_high = false", "ace_high = 0"), PROF, "ace_high")
case("prof: joker_hand_points a float", sub(PROF, "joker_hand_points = 25",
                                            "joker_hand_points = 25.0"), PROF, "joker_hand_points")
case("prof: joker_hand_points inf", sub(PROF, "joker_hand_points = 25", "joker_hand_points = inf"),
     PROF, "joker_hand_points")
case("prof: unopened_hand_points huge", sub(PROF, "unopened_hand_points = 100",
                                            "unopened_hand_points = 99999999999"), PROF,
     "unopened_hand_points")
case("prof: unopened_hand_points negative", sub(PROF, "unopened_hand_points = 100",
                                                "unopened_hand_points = -1"), PROF,
     "unopened_hand_points")
case("prof: discard_must_be_used a string", sub(PROF, "discard_must_be_used = false",
                                                'discard_must_be_used = "false"'), PROF,
     "discard_must_be_used")
case("prof: a nested table", sub(PROF, "[joker_25]", "[joker_25.extra]\nx = 1\n\n[joker_25]"),
     PROF, "[joker_25.extra]")
case("prof: a profile twice", sub(PROF, "[hundred]", "[joker_25]\nname = \"x\"\n\n[hundred]"),
     PROF, "[joker_25]\nname = \"x\"")
case("prof: an array of tables", sub(PROF, "[hundred]", "[[many]]\nname = \"x\"\n\n[hundred]"),
     PROF, "[[many]]")
case("prof: empty name", sub(PROF, 'name = "free discard"', 'name = " "'), PROF, 'name = " "')
case("prof: name with a placeholder", sub(PROF, 'name = "free discard"', 'name = "free {x}"'),
     PROF, 'name = "free {x}"')
case("prof: name with html", sub(PROF, 'name = "free discard"', 'name = "<b>free</b>"'),
     PROF, 'name = "<b>free')
case("prof: name with a newline", sub(PROF, 'name = "free discard"', 'name = "free\\ndiscard"'),
     PROF, 'name = "free\\n')
case("prof: key with a space", sub(PROF, "[hundred]", '["two words"]\nname = "x"\n\n[hundred]'),
     PROF, '["two words"]')
case("prof: two sections the same name", sub(PROF, 'name = "free discard"',
                                             'name = "house rules"'), PROF,
     'name = "house rules"\ndiscard_must_be_used')
case("prof: override of a cardverse-only rule",
     sub(PROF, "discard_must_be_used = false", "discard_must_be_used = false\ndeck_cards = 30"),
     PROF, "deck_cards")
valid("prof: variation used with cardverse", sub(CV, "game: cardverse\n\ncaption: Two players",
                                                 "game: cardverse\nprofile: two_jokers\n\n"
                                                 "caption: Two players"))

# A file name is shown escaped: one line per problem, no terminal escape sequence.
case("special: page name with a newline and an escape sequence",
     put("content/bad\nname\x1b[31m.md", "---\ntitle: x\n---\n"),
     "content/bad\\nname\\x1b[31m.md", None)

# The checker's front matter and the quick-reference sheet's messages
case("fm: checker not a flag", sub(FM, "checker: true", "checker: maybe"), FM, "checker: maybe",
     words="checker 'maybe' must be true or false")
case("fm: checker yes", sub(FM, "checker: true", "checker: yes"), FM, "checker: yes",
     words="checker 'yes' must be true or false")
case("fm: checker in capitals", sub(FM, "checker: true", "checker: TRUE"), FM, "checker: TRUE")
case("fm: checker twice", sub(FM, "checker: true", "checker: true\nchecker: false"), FM,
     "checker: false")
# How search ranks a page: "rules" (the default) or "reference"
case("fm: search kind unknown", sub(FM, "checker: true", "checker: true\nsearch: secondary"), FM,
     "search: secondary", words="search 'secondary' must be one of: rules, reference")
valid("fm: search reference", sub(FM, "checker: true", "checker: true\nsearch: reference"))
QR_DEAL = '"{n} cards: {decks} decks of 52 and {jokers} jokers."'
case("po: quick reference, a number changed",
     msgstr(PL, QR_DEAL, '"Karty: {n} ({decks} talie po 54 karty i {jokers} dżokery)."'), PL,
     f"msgid {QR_DEAL}")
case("po: quick reference, a format spec",
     msgstr(PL, QR_DEAL, '"Karty: {n:>99999} ({decks} talie po 52 karty i {jokers} dżokery)."'),
     PL, f"msgid {QR_DEAL}")
case("po: quick reference, an attribute",
     msgstr(PL, '"Quick reference: {games}"', '"Zasady w pigułce: {games.__class__}"'), PL,
     'msgid "Quick reference: {games}"')
case("site: base_url with a password", sub(SITE, "https://rami-rules.example.org/",
                                           "https://user:secret@rami-rules.example.org/"),
     SITE, 'base_url = "')
case("site: base_url not ascii", sub(SITE, "https://rami-rules.example.org/",
                                     "https://rami-rules.example.org/r\u00e8gles/"), SITE,
     'base_url = "')
case("site: base_url with a bad escape", sub(SITE, "https://rami-rules.example.org/",
                                             "https://rami-rules.example.org/%zz/"), SITE,
     'base_url = "')
valid("site: base_url with an escape", sub(SITE, "https://rami-rules.example.org/",
                                           "https://rami-rules.example.org/r%C3%A8gles/"))
case("site: base_url with a bad punycode host", sub(SITE, "https://rami-rules.example.org/",
                                                    "https://xn--/rules/"), SITE, 'base_url = "')
valid("site: base_url with a punycode host", sub(SITE, "https://rami-rules.example.org/",
                                                 "https://xn--mnchen-3ya.example/"))

# Game tables that cannot happen, round endings that differ from the engine's -----------------
SCO = "content/scoring.md"
TURN = "content/turn.md"
case("game: a round nobody won", sub(SCO, "rounds: 0, 52, 30 | 27, 0, 45",
                                     "rounds: 200, 52, 30 | 27, 0, 45"), SCO,
     "rounds: 200, 52, 30",
     words="round 1 (200, 52, 30) cannot happen in Rami 51: nobody scores 0")
case("game: a 360-point Rami 51 hand", sub(SCO, "| 0, 74, 33 |", "| 0, 360, 33 |"), SCO,
     "| 0, 360, 33 |", words="round 4 (0, 360, 33) cannot happen in Rami 51: seat 2 scores 360, "
                             "more than any hand can hold: 13 cards are worth at most 178")
case("game: two seats on 0 in one round", sub(SCO, "| 25, 0, 40 |", "| 0, 0, 40 |"), SCO,
     "| 0, 0, 40 |", words="round 5 (0, 0, 40) cannot happen in Rami 51: seats 1 and 2 score 0")
# The bounds of each hand and of a round's hands together, from the rule set
case("game: a Rami 51 hand worth 1 point", sub(SCO, "| 48, 0, 21 |", "| 48, 0, 1 |"), SCO,
     "rounds: 0, 35, 62 | 48, 0, 1 |",
     words="round 2 (48, 0, 1) cannot happen in Rami 51: seat 3 scores 1, less than any hand "
           "can hold: the cheapest card is worth 2")
valid("game: a hand worth 1 point with the ace at 1", sub(
    SCO, "rounds: 0, 35, 62 | 48, 0, 21 | 17, 56, 0\ntotals: 65, 91, 83",
    "profile: ace_one\nrounds: 0, 35, 62 | 48, 0, 1 | 17, 56, 0\ntotals: 65, 91, 63"))
case("game: two Rami 51 hands of 178 in one round",
     sub(SCO, "rounds: 0, 35, 62 |", "rounds: 0, 178, 178 |"), SCO, "rounds: 0, 178, 178 |",
     words="round 1 (0, 178, 178) cannot happen in Rami 51: seats 2 and 3 score 356 together, "
           "more than their hands can hold: 26 cards are worth at most 308")
case("game: a CardVerse winner who gains 1 from two hands", sub(
    SCO, "rounds: 0, 35, 62 | 48, 0, 21 | 17, 56, 0\ntotals: 65, 91, 83",
    "game: cardverse\nrounds: 1, 0, 0\ntotals: 1, 0, 0"), SCO, "rounds: 1, 0, 0",
     words="round 1 (1, 0, 0) cannot happen in Rami (CardVerse): seat 1 gains 1, less than the "
           "other hands can hold: each holds a card, 2 cards are worth at least 2")
case("round: claimed ending differs from the engine's",
     sub(WR, "step: 1: discard 8D\nending: out", "step: 1: discard 8D\nending: stock_out"), WR,
     "ending: stock_out", words="stated ending stock_out, the engine computes out")
case("round: the round ends and the row does not say so",
     sub(WR, "step: 1: discard 8D\nending: out\n", "step: 1: discard 8D\n"), WR,
     "step: 1: discard 8D", words="the round ends at this step (seat 1 goes out)")
case("round: an ending claimed where the round goes on",
     sub(WR, "step: 1: discard 10C\n", "step: 1: discard 10C\nending: out\n"), WR,
     "ending: out", words="stated ending out, the engine computes nothing")
JX = "content/joker-exchange.md"
case("round: a stock shown in part runs out",
     sub(JX, "stock: QH 2H 4C 7C 9S", "stock: QH 2H 4C 7C"), JX, "step: 2: discard 7C",
     words="the table shows only 4 of its 81 cards")
case("round: a refused step that the engine allows",
     sub(TURN, "caption: Seat 1 takes the seven of clubs\nstep: 1: draw discard 7C",
         "caption: Seat 1 takes the seven of clubs\nrefused: 1: draw discard\n"
         "step: 1: draw discard 7C"), TURN, "refused: 1: draw discard\nstep: 1: draw discard 7C",
     words="stated refused 1: draw discard, the engine computes nothing")

# A run of ``\ under the segment bound cost 11 s of CPU a paragraph.
case("prose: backticks that open code spans never closed",
     page("\n\n".join(f"See {k} " + "``\\" * 3326 for k in range(3))), "content/extra.md",
     "See 0 ", words="runs of backticks in one segment")
case("po: backticks that open code spans never closed",
     msgstr(PL, '"Goal"', '"Cel ' + "``\\\\" * 300 + '"'), PL, 'msgid "Goal"',
     words="runs of backticks")
case("prose: backticks that open code spans never closed, few runs",
     page("See " + " w ".join("`" * k for k in range(1, 13)) + "."), "content/extra.md", "See ",
     words="open a code span that is never closed")

# Two profile names that differ only by an invisible format character.
for _cp in ("\u200b", "\u2060", "\ufeff", "\u00ad"):
    case(f"prof: a name with an invisible U+{ord(_cp):04X}",
         po_append(PROF, f'\n[house_copy]\nname = "house{_cp} rules"\njoker_value = 15\n'),
         PROF, f'name = "house{_cp} rules"', words=f"U+{ord(_cp):04X}")
case("prof: a name the same as another's in NFD",
     po_append(PROF, '\n[cafe1]\nname = "caf\u00e9"\n\n[cafe2]\nname = "cafe\u0301"\n'),
     PROF, 'name = "cafe\u0301"', words="has the same name")

# Bidi controls are refused at their line; text that stalls a regular expression,
# the Markdown library or the engine's search is answered at once --------------------------
case("po: a bidi override in a card name",
     sub(PL, 'msgctxt "rank"\nmsgid "queen"\nmsgstr "dama"',
         'msgctxt "rank"\nmsgid "queen"\nmsgstr "\u202edama"'), PL, 'msgstr "\u202edama"',
     words="bidi control U+202E")
case("po: a bidi override in the site's title",
     sub(PL, 'msgstr "Zasady gry Rami"', 'msgstr "Zasady gry \u202eimaR"'), PL,
     'msgstr "Zasady gry \u202eimaR"', words="bidi control U+202E")
case("po: an unclosed bidi isolate", msgstr(PL, '"Goal"', '"Cel \u2067gry"'), PL,
     '"Cel \u2067gry"', words="bidi control U+2067")
case("fm: a bidi override in a page's title",
     sub(CV, CV_TITLE, "title: Rami, the \u202eCardVerse variant\n"), CV, "title: Rami",
     words="bidi control U+202E")
case("prose: an unclosed bidi isolate in a heading", prose("## More \u2067rules"), FM,
     "## More \u2067rules", words="bidi control U+2067")
case("profile: a bidi override in a name",
     sub(PROF, 'name = "', 'name = "\u202e'), PROF, 'name = "\u202e', words="bidi controls")
valid("po: a direction mark is not a bidi control",
      msgstr(PL, '"Goal"', '"Cel\u200e gry"'))
case("prose: a link's ( never closed, then 3,000 spaces (the link regex backtracked)",
     prose("See [the rules](" + " " * 3000 + "for more."), FM, "See [the rules](",
     words="a link's '(' is never closed")
case("po: a link's ( never closed, then 3,000 spaces",
     msgstr(PL, '"Goal"', '"Cel [zasady](' + " " * 3000 + 'dalej."'), PL, 'msgid "Goal"',
     slack=1, words="a link's '(' is never closed")
case("prose: 6,000 nested brackets (Markdown's link parser took minutes)",
     prose("Words " + "[" * 6000 + "x" + "]" * 6000 + "."), FM, "Words [[[",
     words="nested more than 8 deep")
case("po: 10,000 nested brackets",
     msgstr(PL, '"Goal"', '"' + "[" * 10000 + "x" + "]" * 10000 + '"'), PL,
     'msgid "Goal"', slack=1, words="nested more than 8 deep")
case("prose: 5,000 brackets never closed", prose("Words " + "[" * 5000 + "."), FM, "Words [[[",
     words="a '[' is never closed")
case("prose: 10,000 links whose ( is never closed", prose("See " + "[a](" * 10000), FM,
     "See [a](", words="a link's '(' is never closed")
case("po: 20,000 lines that start a reference definition",
     msgstr(PL, '"Goal"', '"Cel' + "\\n[" * 20000 + '"'), PL, 'msgid "Goal"', slack=1,
     words="line break")
valid("prose: 10,000 headings of one text (their ids were made unique in quadratic time)",
      page("## More\n\n" * 10000))

_PAIRS = " ".join(f"{r}{s}" for r in "2 4 6 8 10 Q".split() for s in "CDHS")
BIG_ROUND = ("table: round\ngame: rami51\nprofile: {profile}\nhands: {hand} | KC KD\n"
             "stock: 3C 3D\ndiscard: JK\n\ncaption: Seat 1 takes the joker\n"
             "step: 1: draw discard\n")
case("round: 51 cards, two jokers per meld, a draw discard (the search ran for minutes)",
     example(BIG_ROUND.format(profile="two_jokers", hand=f"{_PAIRS} {_PAIRS} JK JK JK")),
     "content/extra.md", "step: 1: draw discard",
     words="may take JK from the discard pile only to lay it this turn, and cannot: no "
           "opening that uses it is accepted")
case("round: a draw discard under a threshold of 1000 (the search ran for minutes)",
     chain(lambda r: (r / PROF).write_text((r / PROF).read_text(encoding="utf-8")
                                           + '\n[steep]\nname = "a steep threshold"\n'
                                             'opening_threshold = 1000\n', encoding="utf-8"),
           example(BIG_ROUND.format(profile="steep", hand=f"{_PAIRS} JK JK"))),
     "content/extra.md", "step: 1: draw discard", words="no opening that uses it is accepted",
     alone=True)
_FULL = " ".join(f"{r}{s}" for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())
_MAXED = ('\n[maxed]\nname = "every joker counts"\ndecks = 4\njokers = 8\n'
          'max_jokers_per_meld = 8\nadjacent_jokers = true\nall_joker_melds = true\n')
case("round: 52 cards and seven jokers under a profile at its bounds (once 10 s of CPU a row)",
     chain(lambda r: (r / PROF).write_text((r / PROF).read_text(encoding="utf-8") + _MAXED,
                                           encoding="utf-8"),
           example(BIG_ROUND.format(profile="maxed", hand=_FULL + " JK" * 7))),
     "content/extra.md", "step: 1: draw discard", words="cannot decide this within its bound",
     alone=True)
case("prose: a paragraph of 95,000 backslashes (Markdown's inline parser is quadratic)",
     prose("See " + "\\" * 95000), FM, "See \\\\\\", words="more than 10,000: split it")
case("po: 20,000 '<a' with no '>' (the raw-HTML pattern scanned to the end from each)",
     msgstr(PL, '"Goal"', '"Cel ' + "<a" * 20000 + '"'), PL, 'msgid "Goal"', slack=1,
     words="more than 10,000: split it")
case("po: a '%' and 9,000 zeros in a msgstr (the printf pattern tried every split)",
     msgstr(PL, '"Goal"', '"Cel %' + "0" * 9000 + '"'), PL, 'msgid "Goal"', slack=1,
     words="numbers differ")
valid("prose: a heading with 5,000 spaces inside (the heading pattern backtracked)",
      prose("## More" + " " * 5000 + "rules"))


# Nesting: every parser of user input has its nesting and size bounded before it runs, and
# its RecursionError is the file's line (a TOML array 600 to 1,000 deep was an internal
# error). Here at depth 10,000 and from angles other than one line of brackets: across
# lines, open to the end, mixed, in a template's blocks and expressions, in a comment.
DEEP = 10_000
case("site: an array 10,000 deep over 10,000 lines (named at the 33rd)",
     po_append(SITE, "zz = " + "[\n" * DEEP + "]\n" * DEEP), SITE, "zz = [", offset=32,
     words="nested too deep")
case("site: an inline table 10,000 deep, never closed",
     po_append(SITE, "zz = " + "{a = " * DEEP + "\n"), SITE, "zz = {a", words="nested too deep")
case("prof: arrays and inline tables in turn, 10,000 deep, in a profile",
     po_append(PROF, '[deep]\nname = "deep"\nextra = ' + "[{a = " * (DEEP // 2) + "1"
               + "}]" * (DEEP // 2) + "\n"), PROF, "extra = [{a", words="nested too deep")
case("prof: 700 deep, where tomllib ran out of stack (a dotted key's value)",
     po_append(PROF, "x.y.z = " + "[" * 700 + "]" * 700 + "\n"), PROF, "x.y.z = [",
     words="nested too deep")
valid("prof: 10,000 brackets in a comment (text, not nesting)",
      po_append(PROF, "# " + "[{" * DEEP + "\n"))
case("template: 10,000 if-blocks inside each other",
     po_append(BASE, "{% if true %}" * DEEP + "{% endif %}" * DEEP), BASE,
     "{% if true %}{% if", words="nested too deep")
case("template: parentheses 10,000 deep in an expression",
     po_append(BASE, "{{ " + "(" * DEEP + "1" + ")" * DEEP + " }}"), BASE, "{{ (((",
     words="nested too deep")
case("template: 'not' 10,000 times (no bracket: Jinja2's parser recursed)",
     po_append(BASE, "{{ " + "not " * DEEP + "1 }}"), BASE, "{{ not not", words="nested too deep")
case("template: '1 + 1 + ...' 10,000 long (Jinja2's compiler recursed)",
     po_append(BASE, "{{ " + "1 + " * DEEP + "1 }}"), BASE, "{{ 1 + 1", words="nested too deep")
case("prose: 10,000 quote markers '>' (Markdown nests a quote in each)",
     prose("See " + ">" * DEEP), FM, "See >>>")
case("fm: a title of 10,000 nested brackets",
     sub(FM, "title: ", "title: " + "[" * DEEP + "]" * DEEP + " "), FM, "title: [[[")
case("po: a msgstr of 5,000 quote markers '>' inside each other",
     msgstr(PL, '"Goal"', '"> ' + "> " * 4000 + 'Cel"'), PL, 'msgid "Goal"', slack=1)
