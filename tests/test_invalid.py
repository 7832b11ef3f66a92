"""Broken inputs: each gives ``path:line: message``, exit 2 and no traceback.

Each case breaks one file of a scratch copy of the real project by replacing one
piece of text; the expected error names that file and the line of the change.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import run_cli

FM = "content/first-meld.md"
CV = "content/cardverse.md"
PL = "locales/pl/LC_MESSAGES/messages.po"
PAGE = "templates/page.html"

# name: (file, text to find, replacement, words the message must contain)
CASES: dict[str, tuple[str, str, str, str]] = {
    "unknown card": (FM, "cards: QH KH AH", "cards: QH KH AX", "AX"),
    "unknown game": (FM, "game: rami40", "game: rami41", "unknown game 'rami41'"),
    "unknown profile": (FM, "profile: house", "profile: casino", "unknown rule profile 'casino'"),
    "missing claim": (FM, "caption: One pure sequence and one set of three",
                      "caption: One pure sequence and one set of three", "missing claim 'total'"),
    "malformed front matter": (CV, "order: 20", "order twenty", "malformed front matter"),
    "bad order": (CV, "order: 20", "order: twenty", "must be a whole number"),
    "bad checker flag": (FM, "checker: true", "checker: yes",
                         "checker 'yes' must be true or false"),
    "unclosed front matter": (CV, "description: The CardVerse", "description The CardVerse",
                              "malformed front matter"),
    "malformed example line": (FM, "cards: AH 2H 3H", "cards AH 2H 3H", "malformed example line"),
    "unknown table": (CV, "table: hands", "table: hand", "unknown table type 'hand'"),
    "unknown field": (CV, "players: 3", "players: 3\nseats: 3", "unknown field 'seats'"),
    "bad number": (FM, "points: 6", "points: six", "not a whole number"),
    "duplicate slug": (CV, "slug: cardverse", "slug: first-meld", "duplicate slug 'first-meld'"),
    "unknown placeholder": (FM, "{rami40_threshold} points", "{rami41_threshold} points",
                            "unknown rule placeholder {rami41_threshold}"),
    "raw html in content": (FM, "## The threshold", "<script>alert(1)</script>",
                            "raw HTML is not allowed"),
    "po syntax error": (PL, 'msgid "Verdict"', 'msgid "Verdict', "syntax error in catalog"),
    "template syntax error": (PAGE, "{% block main %}", "{% block main %}{% if %}",
                              "template syntax error: Expected an expression"),
}


def break_file(project: Path, rel: str, find: str, replace: str) -> int:
    """Apply the change; return the line where it starts."""
    path = project / rel
    text = path.read_text(encoding="utf-8")
    assert find in text, f"{find!r} not in {rel}"
    path.write_text(text.replace(find, replace, 1), encoding="utf-8")
    return text[: text.index(find)].count("\n") + 1


@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_input_is_reported_with_path_and_line(project: Path, case: str) -> None:
    rel, find, replace, words = CASES[case]
    line = break_file(project, rel, find, replace)
    if case == "missing claim":  # reported at the example's caption line
        text = (project / rel).read_text(encoding="utf-8")
        (project / rel).write_text(text.replace("total: 48\nthreshold: 51", "threshold: 51", 1),
                                   encoding="utf-8")
    reported = {}
    for command in ("build", "check"):
        result = run_cli(command, "--root", str(project))
        assert result.code == 2, (command, result.err)
        assert "Traceback" not in result.err
        errors = result.err.strip().splitlines()
        matching = [e for e in errors if e.startswith(f"{rel}:") and words in e]
        assert matching, (case, result.err)
        lines = {int(e.split(":")[1]) for e in matching}
        # the message points at the changed line (or the next one, for a removed line)
        assert lines & {line, line + 1}, (case, lines, line)
        reported[command] = sorted(errors)
    assert reported["check"] == reported["build"]  # the same problems, all in one run
    assert not (project / "dist").exists()


@pytest.mark.parametrize(("find", "replace", "words"), [
    ("{% block main %}", "{% block main %}{{ nope.x }}",
     "template error while rendering: 'nope' is undefined"),
    ('{% import "_meta.html" as m %}', '{% import "_gone.html" as m %}',
     "template not found: '_gone.html'"),
])
def test_template_error_while_rendering_is_reported_at_its_line(
        project: Path, find: str, replace: str, words: str) -> None:
    line = break_file(project, PAGE, find, replace)
    result = run_cli("build", "--root", str(project))
    assert result.code == 2, result.err
    assert "Traceback" not in result.err
    assert any(e.startswith(f"{PAGE}:{line}: {words}") for e in result.err.splitlines())
    assert not (project / "dist").exists()


def test_template_error_in_one_language_is_reported_from_any_process(project: Path) -> None:
    """A small site's languages are rendered in two processes: an error that only one
    language meets is reported, at its line, whichever process rendered it."""
    for lang in ("pl", "vi"):  # one rendered by each process (en, ms, vi | id, pl)
        line = break_file(project, PAGE, "{% block main %}",
                          f'{{% block main %}}{{% if lang == "{lang}" %}}{{{{ nope.x }}}}'
                          "{% endif %}")
        result = run_cli("build", "--root", str(project))
        assert result.code == 2, result.err
        assert "Traceback" not in result.err
        assert f"{PAGE}:{line}: template error while rendering: 'nope' is undefined" \
            in result.err.splitlines()
        assert not (project / "dist").exists()
        break_file(project, PAGE, f'{{% if lang == "{lang}" %}}{{{{ nope.x }}}}{{% endif %}}',
                   "")


def test_template_and_content_errors_are_reported_together(project: Path) -> None:
    template_line = break_file(project, PAGE, "{% block main %}", "{% block main %}{% if %}")
    content_line = break_file(project, FM, "cards: QH KH AH", "cards: QH KH AX")
    result = run_cli("build", "--root", str(project))
    assert result.code == 2
    errors = result.err.splitlines()
    assert any(e.startswith(f"{PAGE}:{template_line}: template syntax error") for e in errors)
    assert any(e.startswith(f"{FM}:{content_line}:") and "AX" in e for e in errors)


def test_user_error_from_a_worker_process_keeps_its_problems() -> None:
    """A worker's UserError reaches the main process pickled: path and line survive."""
    import pickle

    from site_builder.errors import Problem, UserError

    sent = UserError([Problem("templates/page.html", 6, "template error")])
    received = pickle.loads(pickle.dumps(sent))
    assert received.problems == sent.problems and str(received) == str(sent)


def test_file_that_is_not_utf8(project: Path) -> None:
    path = project / CV
    data = path.read_bytes().replace(b"Goal", b"Go\xe9l", 1)
    line = data[: data.index(b"Go\xe9l")].count(b"\n") + 1
    path.write_bytes(data)
    result = run_cli("build", "--root", str(project))
    assert result.code == 2
    assert f"{CV}:{line}: file is not valid UTF-8" in result.err
    assert "Traceback" not in result.err


def test_dropped_placeholder_in_translation(project: Path) -> None:
    path = project / PL
    text = path.read_text(encoding="utf-8")
    entry = text.index('msgid "threshold {n}"')
    start = text.index("msgstr", entry)
    end = text.index("\n", start)
    line = text[:start].count("\n") + 1
    path.write_text(text[:start] + 'msgstr "próg"' + text[end:], encoding="utf-8")
    result = run_cli("check", "--root", str(project))
    assert result.code == 2
    assert any(e.startswith(f"{PL}:") and "placeholders differ" in e and "threshold {n}" in e
               and int(e.split(":")[1]) in (line - 2, line - 1, line)
               for e in result.err.splitlines()), result.err


def test_unknown_card_in_engine_cli() -> None:
    result = run_cli("engine", "meld", "--game", "rami51", "QH", "KX", "AH")
    assert result.code == 2
    assert len(result.err.strip().splitlines()) == 1
    assert "KX" in result.err


def test_debug_shows_traceback(project: Path) -> None:
    break_file(project, FM, "cards: QH KH AH", "cards: QH KH AX")
    result = run_cli("--debug", "build", "--root", str(project))
    assert result.code != 0
    assert "Traceback" in result.err


def test_check_json_lists_every_claim() -> None:
    result = run_cli("check", "--json")
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
        result = run_cli(command, "--root", str(project))
        assert result.code == 2, (command, result.err)
        assert "Traceback" not in result.err and "internal error" not in result.err
        errors = result.err.splitlines()
        assert "locales/xx/LC_MESSAGES/messages.po: unknown language code 'xx' (unknown " \
               "locale 'xx'); use a CLDR code such as ms, pl, vi or id; the folder's name " \
               "is the language's code" in errors, (command, errors)
        assert any(e.startswith(f"{FM}:{line}:") for e in errors), (command, errors)
    assert not (project / "dist").exists()


# --- illegal steps in a worked round: the build fails at that step, with the engine's reason ---

WR = "content/whole-round.md"


@pytest.mark.parametrize(("find", "replace", "step", "words"), [
    # a joker exchange with the wrong card
    ("step: 1: swap 5H for JK on 2", "step: 1: swap 2S for JK on 2", "step: 1: swap 2S",
     "2S cannot replace the joker in meld 2 (4H 5H 6H): the joker stands for 5H"),
    # going out with a meld that is not valid
    ("step: 1: meld QC QH QS", "step: 1: meld QC QH 8D", "step: 1: meld QC QH 8D",
     "QC QH 8D is not a valid meld (mixed_ranks)"),
    ("step: 2: layoff 9C on 3", "step: 2: layoff 9C on 1", "step: 2: layoff 9C on 1",
     "9C does not fit meld 1 (9D 10D JD QD): mixed_suits"),
    # taking the discard without meeting its obligation: the card is not laid this turn
    ("step: 1: meld 5C 6C 7C 8C", "step: 1: discard QC", "step: 1: discard QC",
     "seat 1 took 8C from the discard pile and must lay 8C this turn"),
    ("step: 1: meld 5C 6C 7C 8C", "step: 1: meld 5C 6C 7C", "step: 1: meld 5C 6C 7C\n",
     "seat 1 must lay 8C this turn and could not after that"),
    # ... or cannot be laid at all
    ("step: 2: discard 8C", "step: 2: discard 2C", "step: 1: draw discard 8C",
     "seat 1 may take 2C from the discard pile only to lay it this turn, and cannot"),
])
def test_an_illegal_round_step_fails_at_its_line(project: Path, find: str, replace: str,
                                                  step: str, words: str) -> None:
    break_file(project, WR, find, replace)
    text = (project / WR).read_text(encoding="utf-8").splitlines()
    line = max(n for n, t in enumerate(text, 1) if (t + "\n").startswith(step))  # the last
    for command in ("build", "check"):
        result = run_cli(command, "--root", str(project))
        assert result.code == 2, (command, result.err)
        assert "Traceback" not in result.err
        assert any(e.startswith(f"{WR}:{line}: ") and words in e
                   for e in result.err.splitlines()), (line, result.err)
    assert not (project / "dist").exists()
