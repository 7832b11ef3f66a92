"""Broken inputs: each gives ``path:line: message``, exit 2 and no traceback.

The one-change cases, each a file broken at one line and the message it must give, are
in the bad-input matrix (``tests/bad_inputs.py``, run by ``tests/test_bad_inputs.py``),
where ``check`` and ``build`` must both report them, at their line, with the same
problems, leaving ``dist/`` and the sources as they were. What is here is about
something else: problems reported together, pickling, the JSON report, and ``--debug``.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from conftest import run_main, run_process

# The regular expressions that the linear scans replaced, kept as their
# reference: on short text they answer at once, and the scans must find what they find.
LINK_TARGET_RE = re.compile(r"\]\(\s*<?([^)>]*?)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")

FM = "content/first-meld.md"
PAGE = "templates/page.html"


def break_file(project: Path, rel: str, find: str, replace: str) -> int:
    """Apply the change; return the line where it starts."""
    path = project / rel
    text = path.read_text(encoding="utf-8")
    assert find in text, f"{find!r} not in {rel}"
    path.write_text(text.replace(find, replace, 1), encoding="utf-8")
    return text[: text.index(find)].count("\n") + 1


def test_template_and_content_errors_are_reported_together(project: Path) -> None:
    template_line = break_file(project, PAGE, "{% block main %}", "{% block main %}{% if %}")
    content_line = break_file(project, FM, "cards: QH KH AH", "cards: QH KH AX")
    for command in ("build", "check"):
        result = run_main(command, "--root", str(project))
        assert result.code == 2, (command, result.err)
        errors = result.err.splitlines()
        assert any(e.startswith(f"{PAGE}:{template_line}: template syntax error")
                   for e in errors), (command, errors)
        assert any(e.startswith(f"{FM}:{content_line}:") and "AX" in e for e in errors), \
            (command, errors)
    assert not (project / "dist").exists()


def test_debug_shows_traceback(project: Path) -> None:
    """``--debug`` lets the error end the process with its traceback: a process of its own."""
    break_file(project, FM, "cards: QH KH AH", "cards: QH KH AX")
    result = run_process("--debug", "build", "--root", str(project))
    assert result.code != 0
    assert "Traceback" in result.err


def test_check_json_lists_every_claim() -> None:
    result = run_main("check", "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["ok"] is True and report["errors"] == []
    claims = report["claims"]
    assert all(c["ok"] for c in claims)
    # every stated claim line of the content appears, with its line
    from conftest import ROOT

    keys = {"verdict", "kind", "points", "total", "threshold", "reasons", "reason", "jokers",
            "hand_size", "winner", "hand", "returned", "hand_points", "scores", "stock",
            "totals", "over", "winners", "ending", "refused"}
    stated = set()
    for path in sorted((ROOT / "content").glob("*.md")):
        rel = f"content/{path.name}"
        table = None
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            key = text.split(":", 1)[0]
            if key == "table":
                table = text.split(":", 1)[1].strip()
            elif key in keys and not (table == "round" and key == "stock"):
                stated.add((rel, number))  # a round's stock is its setup, not a claim
    assert {(c["source"], c["line"]) for c in claims} == stated


def test_a_catalog_folder_that_is_not_a_language(project: Path) -> None:
    """A folder of locales/ named with a code CLDR does not know is a user error at that
    catalog, with the others of the run: no traceback, nothing written."""
    shutil.copytree(project / "locales" / "pl", project / "locales" / "xx")
    line = break_file(project, FM, "cards: QH KH AH", "cards: QH KH AX")
    for command in ("build", "check"):
        result = run_main(command, "--root", str(project))
        assert result.code == 2, (command, result.err)
        assert "Traceback" not in result.err and "internal error" not in result.err
        errors = result.err.splitlines()
        assert "locales/xx/LC_MESSAGES/messages.po: unknown language code 'xx' (unknown " \
               "locale 'xx'); use a CLDR code such as ms, pl, vi or id; the folder's name " \
               "is the language's code" in errors, (command, errors)
        assert any(e.startswith(f"{FM}:{line}:") for e in errors), (command, errors)
    assert not (project / "dist").exists()


def test_link_targets_are_the_regexs() -> None:
    """``link_targets`` scans in linear time for what ``LINK_TARGET_RE`` finds
    (which backtracks): the same targets, on random text made of the characters that
    matter to it (short, so that the regular expression answers at once)."""
    import random

    from site_builder.sources.segment import link_targets

    rnd = random.Random(28)
    pieces = ["](", "]", "(", ")", "<", ">", '"', " ", " ", "\t", "a", "b/", "[", "x y"]
    for _ in range(50_000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randrange(1, 30)))
        expected = [t.strip() for t in LINK_TARGET_RE.findall(text)] if "](" in text else []
        assert link_targets(text) == expected, text


def test_html_tags_are_the_regexs() -> None:
    """``html_tags`` finds what the raw-HTML pattern finds, in linear time."""
    import random
    import re

    from site_builder.sources.segment import html_tags

    pattern = re.compile(r"<\s*/?\s*[A-Za-z!?][^>]*>")  # as written before the linear scan
    rnd = random.Random(28)
    pieces = ["<", ">", "/", " ", "a", "!", "?", "1", "\t", "<a", "</", "x"]
    for _ in range(50_000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randrange(1, 30)))
        assert html_tags(text) == pattern.findall(text), text


def test_percent_placeholders_are_the_regexs() -> None:
    """The possessive printf-placeholder pattern finds what the backtracking
    one found (which took seconds on a '%' and a run of zeros)."""
    import random
    import re

    from site_builder.i18n.checks import PERCENT_RE

    before = re.compile(r"%(?:\([A-Za-z_][A-Za-z0-9_]*\))?[-#0 +]*\d*(?:\.\d+)?"
                        r"[diouxXeEfFgGcrsa%]")
    rnd = random.Random(28)
    pieces = ["%", "0", "5", " ", "-", "#", "+", ".", "d", "s", "(", ")", "a", "x", "%%"]
    for _ in range(50_000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randrange(1, 20)))
        assert PERCENT_RE.findall(text) == before.findall(text), text


def test_parse_heading_is_the_regexs() -> None:
    """``parse_heading`` reads what ``HEADING_RE`` matched (which backtracked
    in cubic time on a heading and a run of spaces)."""
    import random

    from site_builder.sources.page import parse_heading

    rnd = random.Random(28)
    pieces = ["#", "#", " ", "\t", "a", "b c", "\r", "\x0b", "\u00a0", "x#", "##"]
    for _ in range(50_000):
        line = "".join(rnd.choice(pieces) for _ in range(rnd.randrange(1, 16)))
        found = HEADING_RE.match(line)
        assert parse_heading(line) == (
            (len(found.group(1)), found.group(2)) if found else None), repr(line)
