"""Every parser of user input goes through one helper (``site_builder.sources.parsing``):
its size and nesting bounded before it runs, its ``RecursionError`` and ``MemoryError``
a ``path:line`` problem. ``tests/bad_inputs.py`` runs ``check`` on deep files; here each
reader is called directly, from angles a command line cannot take: at the bound and one
past it, with little stack left, with a parser that runs out of memory, a cache record
and the runtime's ``package.json`` nested 10,000 deep, a catalog past the size bound,
and ``i18n extract`` on a deep profiles file. In this process."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

from site_builder.cache import digest, read_hashed
from site_builder.errors import UserError
from site_builder.i18n.catalog import load_catalog
from site_builder.render.play import runtime_version
from site_builder.sources import parsing
from site_builder.sources.files import read_toml
from site_builder.sources.parsing import MAX_NESTING, nesting, parse

DEEP = 10_000


def toml(depth: int) -> str:
    return "a = 1\nzz = " + "[" * depth + "]" * depth + "\n"


@pytest.mark.parametrize("depth", [1, MAX_NESTING])
def test_nesting_up_to_the_bound_is_read(tmp_path: Path, depth: int) -> None:
    (tmp_path / "x.toml").write_text(toml(depth))
    table, _, problems = read_toml(tmp_path / "x.toml", "x.toml")
    assert problems == [] and table["a"] == 1


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 600, 1000, DEEP])
def test_nesting_past_the_bound_is_the_line(tmp_path: Path, depth: int) -> None:
    (tmp_path / "x.toml").write_text(toml(depth))
    table, _, problems = read_toml(tmp_path / "x.toml", "x.toml")
    assert table == {}
    assert [str(p).split(";")[0] for p in problems] == [
        f"x.toml:2: nested too deep: more than {MAX_NESTING} brackets, braces or blocks "
        "inside each other"]


def test_brackets_in_strings_and_comments_are_text() -> None:
    text = ('a = "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["\n'
            "b = '{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{'\n"
            'c = """\n' + "[" * DEEP + '\n"""\n# ' + "{" * DEEP + "\n")
    assert nesting(text, "toml")[0] == 0
    assert parse(tomllib.loads, text, "x.toml", "toml")[1] is None


def test_a_recursion_error_with_little_stack_left_is_a_problem() -> None:
    """Called from deep inside the stack, a parser runs out of it on a file the scan lets
    through: the problem is still the file's, with no exception escaping."""
    text = toml(MAX_NESTING)

    def at_the_limit(frames: int) -> Any:
        if frames:
            return at_the_limit(frames - 1)
        return parse(tomllib.loads, text, "x.toml", "toml")

    limit = sys.getrecursionlimit()
    for headroom in range(5, 200, 5):  # some depth makes tomllib itself run out
        try:
            found, problem = at_the_limit(limit - headroom - 50)
        except RecursionError:
            continue  # the helper itself had no room: not the case under test
        if problem is not None:
            assert str(problem).startswith("x.toml:2: nested too deep"), problem
            return
        assert found is not None and found["a"] == 1
    pytest.fail("no depth made the parser run out of stack")


def test_a_memory_error_is_too_large() -> None:
    def greedy(text: str) -> object:
        raise MemoryError

    found, problem = parse(greedy, "a = 1\n", "x.toml", "toml")
    assert found is None and str(problem).startswith("x.toml: too large")


def test_a_parser_error_of_its_own_is_raised_to_its_caller() -> None:
    with pytest.raises(tomllib.TOMLDecodeError):
        parse(tomllib.loads, "a = ]\n", "x.toml", "toml")


def test_a_cache_record_nested_10000_deep_is_dropped(tmp_path: Path) -> None:
    """A record whose hash checks out (written by a damaged tool, say) but nested 10,000
    deep is damaged like any other: read as none, so that the build starts afresh."""
    body = ("[" * DEEP + "]" * DEEP).encode()
    (tmp_path / "r.json").write_bytes(digest(body).encode() + b"\n" + body)
    assert read_hashed(tmp_path / "r.json") is None
    fine = json.dumps({"a": [[1]]}).encode()
    (tmp_path / "f.json").write_bytes(digest(fine).encode() + b"\n" + fine)
    assert read_hashed(tmp_path / "f.json") == {"a": [[1]]}


def test_the_runtimes_package_json_nested_10000_deep_is_its_line(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text('{"version": "1",\n"x": ' + "[" * DEEP + "]" * DEEP
                                           + "}")
    with pytest.raises(UserError) as raised:
        runtime_version(tmp_path)
    assert str(raised.value).startswith("node_modules/pyodide/package.json:2: nested too deep")


def test_a_catalog_past_the_size_bound_is_refused_unread(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parsing, "MAX_BYTES", 1000)
    from site_builder.i18n import catalog as catalog_module
    monkeypatch.setattr(catalog_module, "MAX_BYTES", 1000)
    loaded, problems = load_catalog(project, "pl")
    assert loaded is None
    assert [str(p).split(":")[0:2] for p in problems] == [
        ["locales/pl/LC_MESSAGES/messages.po", " too large"]]


def test_i18n_extract_on_a_deep_profiles_file_is_its_line(project: Path) -> None:
    with open(project / "content/profiles.toml", "a", encoding="utf-8") as fh:
        fh.write("\nzz = " + "{a = " * DEEP + "1" + "}" * DEEP + "\n")
    lines = len((project / "content/profiles.toml").read_text().splitlines())
    for command in (("i18n", "extract"), ("check",)):
        result = run_cli(*command, "--root", str(project))
        assert result.code == 2, result.err
        assert "Traceback" not in result.err and "internal error" not in result.err
        assert f"content/profiles.toml:{lines}: nested too deep" in result.err, result.err
