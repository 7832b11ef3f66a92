"""Issue 14: every bad input is answered with ``path:line``, and no data is lost.

Each case of ``tests/bad_inputs.py`` changes one thing in a scratch copy of the real
project that was built once (so that ``dist/`` and ``.cache/`` hold the earlier build),
then runs the real command line, ``build`` and ``check``, each in a process of its own
forked from the test's (a hang fails the case rather than blocking the suite). For a
bad input: exit 2, an error line ``path:line:`` naming the changed file and line, no
traceback and no "internal error", the earlier ``dist/`` byte for byte, the sources
untouched. For a valid one: exit 0.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bad_inputs import CASES, Case
from conftest import copy_project

TIMEOUT = 30  # seconds; a command still running then has hung


def snapshot(root: Path, skip: tuple[str, ...] = ()) -> dict[str, object]:
    """Every entry under *root* (not following symlinks): a file's bytes, a symlink's
    target, or the kind of a special file."""
    out: dict[str, object] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root)
        dirnames[:] = sorted(d for d in dirnames if (rel_dir / d).as_posix() not in skip)
        for name in [*dirnames, *filenames]:
            path = Path(dirpath) / name
            rel = (rel_dir / name).as_posix()
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                out[rel] = ("link", os.readlink(path))
            elif stat.S_ISREG(mode):
                out[rel] = path.read_bytes()
            elif stat.S_ISDIR(mode):
                out[rel] = "dir"
            else:
                out[rel] = ("special", stat.S_IFMT(mode))
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    """The real project, built once; and its dist/."""
    base = copy_project(tmp_path_factory.mktemp("bad-inputs") / "base")
    result = run(base, "build")
    assert result.returncode == 0, result.stderr
    return base, snapshot(base / "dist")


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_all(root, [args])[0]


def _preload() -> None:
    """Import what the commands import, once, before the commands are forked from this
    process: each command then starts as a fresh ``site-builder`` process would, with
    nothing of an earlier command's state, without paying for the imports again."""
    import importlib

    for name in ("build", "load", "render", "templating", "i18n", "checks", "examples",
                 "cli", "commands.build", "commands.check"):
        try:
            importlib.import_module(f"site_builder.{name}")
        except ImportError:  # a module of another design: imported by the command itself
            pass


def _command(root: Path, args: tuple[str, ...], out: Path, err: Path) -> int:
    """Fork ``site-builder ARGS`` run in *root*, its output going to *out* and *err*."""
    pid = os.fork()
    if pid:
        return pid
    try:  # the child: as ``python -m site_builder ARGS`` would run, then exit at once
        os.chdir(root)
        for fd, path in ((1, out), (2, err)):
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(handle, fd)
            os.close(handle)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.argv = ["site-builder", *args]
        from site_builder.cli import console

        console()  # ends the process, unless argparse exits (SystemExit)
    except SystemExit as exc:  # as the interpreter ends on it: flush, exit with its code
        code = exc.code if isinstance(exc.code, int) else 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    finally:
        os._exit(3)


def run_all(root: Path, commands: list[tuple[str, ...]]) -> list[subprocess.CompletedProcess[str]]:
    """Run each ``site-builder ARGS`` of *commands* in *root*, side by side (they only read
    the sources), each in a process of its own; a hang fails the case."""
    _preload()
    logs = root.parent / "logs"
    logs.mkdir(exist_ok=True)
    pids = [_command(root, args, logs / f"{i}.out", logs / f"{i}.err")
            for i, args in enumerate(commands)]
    codes: dict[int, int] = {}
    deadline = time.monotonic() + TIMEOUT
    try:
        while len(codes) < len(pids):
            for pid in pids:
                if pid not in codes:
                    done, status = os.waitpid(pid, os.WNOHANG)
                    if done:
                        codes[pid] = os.waitstatus_to_exitcode(status)
            if time.monotonic() > deadline:
                hung = [" ".join(a) for a, p in zip(commands, pids, strict=True)
                        if p not in codes]
                pytest.fail(f"site-builder {', '.join(hung)} still running after {TIMEOUT} s")
            time.sleep(0.01)
    finally:
        for pid in pids:
            if pid not in codes:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
    return [subprocess.CompletedProcess(
        args, codes[pid], (logs / f"{i}.out").read_text(encoding="utf-8", errors="replace"),
        (logs / f"{i}.err").read_text(encoding="utf-8", errors="replace"))
        for i, (args, pid) in enumerate(zip(commands, pids, strict=True))]


def expected_line(root: Path, case: Case) -> int | None:
    if case.at is None or isinstance(case.at, int):
        return case.at
    text = (root / case.path).read_bytes().decode("utf-8", "replace")  # type: ignore[operator]
    assert case.at in text, (case.at, case.path)
    return text[: text.index(case.at)].count("\n") + 1 + case.offset


def params() -> list[object]:
    out = []
    for c in CASES:
        marks = ([pytest.mark.xfail(strict=True, reason=f"issue 14, item {c.item}")]
                 if c.item else [])
        out.append(pytest.param(c, id=c.name, marks=marks))
    return out


def test_the_suite_is_large_and_distinct() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))
    assert len(CASES) >= 150


@pytest.mark.parametrize("case", params())
def test_bad_input(built: tuple[Path, dict[str, object]], tmp_path: Path, case: Case) -> None:
    base, dist = built
    root = tmp_path / "project"
    shutil.copytree(base, root, symlinks=True)
    case.change(root)
    sources = snapshot(root, skip=("dist", ".cache"))
    line = expected_line(root, case) if case.path and not case.path.startswith("-") else None
    commands = [(c, *case.args) if c == "build" else (c,) for c in case.commands]
    for command, result in zip(case.commands, run_all(root, commands), strict=True):
        shown = f"{command}: exit {result.returncode}\n{result.stderr}"
        assert "Traceback" not in result.stderr, shown
        assert "internal error" not in result.stderr, shown
        if case.path is None:
            assert result.returncode == 0, shown
            continue
        assert result.returncode == 2, shown
        errors = result.stderr.splitlines()
        if case.path.startswith("-"):  # a command-line option: named in one line
            assert len(errors) == 1 and case.path in errors[0], shown
        elif line is None:
            assert any(e.startswith(f"{case.path}:") for e in errors), shown
        else:
            wanted = {f"{case.path}:{n}:" for n in range(line, line + case.slack + 1)}
            hits = [e for e in errors if any(e.startswith(w) for w in wanted)]
            assert hits, (f"expected {case.path}:{line}:", shown)
            assert not case.words or any(case.words in e for e in hits), shown
        assert snapshot(root / "dist") == dist, f"{command} changed dist/"
    assert snapshot(root, skip=("dist", ".cache")) == sources, "a source was changed"


BAD_COMMAND_LINES = [
    ("engine", "nope"),
    ("engine", "meld", "--game", "rami51", "-5H", "7S", "8S"),
    ("engine", "meld", "--game", "rami51", "JK", "7S", "-8S"),
    ("engine", "meld", "--game", "rami52", "JK", "7S", "8S"),
    ("engine", "simulate", "--game", "cardverse", "--players", "hard,easy",
     "--games", "10000000000"),
    ("engine", "simulate", "--game", "cardverse", "--players", "hard,easy", "--seed", "x"),
    ("engine", "opening", "--game", "rami51", "--joker-value", "99999999999", "QH KH AH"),
    ("nope",),
    ("build", "--jobs", "0"),
    ("build", "--jobs", "99999999999999999999"),
    ("serve", "--port", "99999"),
    ("serve", "--port", "-1"),
    ("i18n", "nope"),
    ("check", "--root", "no-such-folder"),
    ("serve", "--root", "no-such-folder"),
    ("i18n", "extract", "--root", "no-such-folder"),
    ("build", "--root", "content/index.md"),
]


@pytest.mark.parametrize("args", BAD_COMMAND_LINES, ids=" ".join)
def test_bad_command_line_is_one_line(built: tuple[Path, dict[str, object]],
                                      args: tuple[str, ...]) -> None:
    """Issue 14, items 7 and 13: a bad command line (an unknown subcommand, a card token
    starting with '-', a number out of bounds) is one line and exit 2, not argparse's
    usage block."""
    base, _ = built
    result = run(base, *args)
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "usage:" not in result.stderr and "Traceback" not in result.stderr
    assert not (base / "no-such-folder").exists()  # a mistyped --root makes no folder


I18N_FILE_CASES = [  # (what is made in the way, the command, the path named)
    ("locales/messages.pot", ("i18n", "extract"), "locales/messages.pot"),
    ("locales/pl/LC_MESSAGES/messages.mo", ("i18n", "compile"),
     "locales/pl/LC_MESSAGES/messages.mo"),
    ("locales/de", ("i18n", "init", "de"), "locales/de/LC_MESSAGES"),
]


@pytest.mark.parametrize(("blocker", "args", "named"), I18N_FILE_CASES,
                         ids=[" ".join(c[1]) for c in I18N_FILE_CASES])
def test_a_file_the_i18n_commands_write_is_in_the_way(
        built: tuple[Path, dict[str, object]], tmp_path: Path, blocker: str,
        args: tuple[str, ...], named: str) -> None:
    """A folder where ``i18n extract`` writes the template or ``compile`` a ``.mo`` file,
    or a file where ``init`` makes the language's folder: ``path: why``, exit 2, not an
    internal error."""
    base, _ = built
    root = tmp_path / "project"
    shutil.copytree(base, root, symlinks=True)
    target = root / blocker
    if target.exists():
        target.unlink()
    if blocker.endswith("/de"):
        target.write_text("not a folder")
    else:
        target.mkdir()
    result = run(root, *args)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert any(line.startswith(f"{named}: ") for line in result.stderr.splitlines()), \
        result.stderr
