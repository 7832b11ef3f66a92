"""Every bad input is answered with ``path:line``, and no data is lost.

Each case of ``tests/bad_inputs.py`` changes one thing in a scratch copy of the sources
of the real project, which was built once: the copy's ``dist/`` is that build, linked
(each file a hard link to the built one, nothing copied). Then the commands run in this
process (:func:`conftest.run_main`, whose alarm fails a case that hangs, a FIFO opened,
say, rather than blocking the suite). For a bad input: exit 2, an error line
``path:line:`` naming the changed file and line, no traceback and no "internal error",
``dist/`` as it was (every entry's size, modification time and inode, and at the end the
built files' digest), the sources untouched. For a valid one: exit 0.

The fast tier runs ``check`` on every case (``build`` on the cases of build's own
options); the whole suite also runs ``build`` on every case that ``check`` reads, which
must answer the same, with the same problems, all of them (``test_bad_input_in_build_too``).
Both commands share ``load_and_verify``; the second run is what proves that nothing
``build`` does besides (its record, its output folder, its rendering) changes the answer.

The command-line cases (argparse's errors, the exit code of the process) run as the
``site-builder`` process would: forked from this one, ``console()`` run in the child.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from bad_inputs import CASES, Case
from conftest import HANG, copy_project, run_main, shared_folder

TIMEOUT = HANG  # seconds; a command still running then has hung


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


def listing(root: Path) -> dict[str, tuple[int, int, int, int]] | None:
    """Every entry under *root*, *root* itself included: its kind, size, modification
    time and inode (None if there is no *root*). A file written, replaced, added or
    removed, even in place, changes it; no byte is read."""
    if not os.path.lexists(root):
        return None
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in [".", *dirnames, *filenames]:
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            rel = os.path.normpath(os.path.relpath(path, root))
            out[rel] = (stat.S_IFMT(st.st_mode), st.st_size, st.st_mtime_ns, st.st_ino)
    return out


def digest(root: Path) -> str:
    """A hash of every file's path and bytes under *root*."""
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


@dataclass
class Built:
    """The real project, built once: its folder, and its dist/'s listing and digest."""

    root: Path
    listing: dict[str, tuple[int, int, int, int]]
    digest: str

    def copy(self, dest: Path) -> Path:
        """The sources (and .cache/) copied into *dest*, dist/ hard-linked."""
        shutil.copytree(self.root, dest, symlinks=True,
                        ignore=lambda d, names: ["dist"] if Path(d) == self.root else [])
        shutil.copytree(self.root / "dist", dest / "dist", symlinks=True, copy_function=os.link)
        return dest


def _build_base(folder: Path) -> None:
    base = copy_project(folder / "base")
    result = run_main("build", cwd=base)
    assert result.code == 0, result.err


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    """The real project, copied and built once per test session (shared by the xdist
    workers); each case copies its sources and hard-links its dist/."""
    base = shared_folder(tmp_path_factory, "bad-inputs", _build_base) / "base"
    found = Built(base, listing(base / "dist"), digest(base / "dist"))  # type: ignore[arg-type]
    yield found
    # Every case's dist/ shared the built files: none of them was changed, even in place.
    assert listing(base / "dist") == found.listing, "a case changed the built dist/"
    assert digest(base / "dist") == found.digest, "a case changed the built files' bytes"


def expected_line(root: Path, case: Case) -> int | None:
    if case.at is None or isinstance(case.at, int):
        return case.at
    text = (root / case.path).read_bytes().decode("utf-8", "replace")  # type: ignore[operator]
    assert case.at in text, (case.at, case.path)
    return text[: text.index(case.at)].count("\n") + 1 + case.offset


# Cases that name a different page or catalog cannot hide each other's errors (every
# problem of a run is reported), so they are run together, one case of each such file in
# a batch: a run of check and build answers for up to a dozen cases, and what each case
# must see is asserted on that run. Valid inputs that change different files are run
# together too (every one of them must still build). A case that changes a file other than
# its own (checked while it is made), or the site-wide files (profiles, site settings,
# templates), the folders or the command line, runs alone; so do the four whose links are
# checked only once every page has loaded (``alone=True``).
BATCHED = ("locales/ms/", "locales/pl/", "locales/vi/", "content/site.toml")


def batch_key(c: Case) -> str | None:
    """The file whose cases *c* is batched with (one case of each file in a run), or None
    for a case run alone."""
    if c.item or c.alone or c.commands != ("build", "check") or c.args:
        return None
    if c.path is None:  # valid: batched by the one file it changes, if it says so
        changed = getattr(c.change, "file", None)
        return f"valid {changed}" if changed else None
    page = c.path.startswith("content/") and c.path.endswith(".md") and "\\" not in c.path
    return f"bad {c.path}" if page or c.path.startswith(BATCHED) else None


def batches() -> list[list[Case]]:
    """The cases in runs: those of each kind (bad, valid) by the place of the case in its
    file's list (the first case of each file, then the second...), the others alone."""
    by_file: dict[str, list[Case]] = {}
    out: list[list[Case]] = []
    for c in CASES:
        key = batch_key(c)
        if key is None:
            out.append([c])
        else:
            by_file.setdefault(key, []).append(c)
    for kind in ("bad", "valid"):
        files = [cases for key, cases in by_file.items() if key.startswith(kind)]
        for i in range(max((len(cases) for cases in files), default=0)):
            out.append([cases[i] for cases in files if i < len(cases)])
    return out


BATCHES = batches()
BATCH_OF = {c.name: n for n, batch in enumerate(BATCHES) for c in batch}


def params(both: bool = False) -> list[object]:
    """Each case (*both*: each that ``check`` and ``build`` both read), in its batch's
    xdist group, so that the batch is run once, in one worker."""
    out: list[object] = []
    for c in CASES:
        if both and "check" not in c.commands:
            continue
        marks = [pytest.mark.xdist_group(f"bad-input-{BATCH_OF[c.name]}")]
        if c.item:
            marks.append(pytest.mark.xfail(strict=True, reason=f"a known defect: {c.item}"))
        out.append(pytest.param(c, id=c.name, marks=marks))
    return out


def test_the_cases_are_distinct() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))


@dataclass
class Run:
    """One batch's scratch project, its changes made: what each command run on it printed
    and its exit code, each case's expected line, and whether ``dist/`` and the sources
    were kept by each command."""

    root: Path
    lines: dict[str, int | None]
    dist: dict[str, tuple[int, int, int, int]] | None
    sources: dict[str, object]
    results: dict[str, tuple[int, str]] = field(default_factory=dict)
    dist_kept: dict[str, bool] = field(default_factory=dict)
    sources_kept: dict[str, bool] = field(default_factory=dict)

    def answer(self, command: str, args: tuple[str, ...]) -> tuple[int, str]:
        """*command*'s exit code and what it printed, run once on this batch (in the
        order the tests ask: ``check`` first where both run)."""
        if command not in self.results:
            result = run_main(command, *args, cwd=self.root, timeout=TIMEOUT)
            self.results[command] = (result.code, result.err)
            self.dist_kept[command] = listing(self.root / "dist") == self.dist
            self.sources_kept[command] = snapshot(self.root, skip=SKIP) == self.sources
        return self.results[command]


SKIP = ("dist", ".cache")  # what a command may write: the built site and its cache
RUNS: dict[int, Run] = {}  # this worker's runs, by batch (a batch's cases share a worker)


def prepare(built: Built, folder: Path, batch: list[Case]) -> Run:
    """A scratch copy of the built project with every change of *batch* made."""
    root = built.copy(folder / "project")
    sources = snapshot(root, skip=SKIP)
    for c in batch:
        before = sources
        c.change(root)
        sources = snapshot(root, skip=SKIP)
        touched = {rel for rel in before.keys() | sources.keys()
                   if before.get(rel) != sources.get(rel)}
        if len(batch) > 1:  # a batched case changes its own file only
            assert touched <= {c.path or getattr(c.change, "file", "")}, (
                f"{c.name!r} changes {sorted(touched)}: give it alone=True")
    lines = {c.name: expected_line(root, c) if c.path and not c.path.startswith("-") else None
             for c in batch}
    return Run(root, lines, listing(root / "dist"), sources)


def run_of(built: Built, tmp_path: Path, case: Case) -> Run:
    number = BATCH_OF[case.name]
    if number not in RUNS:
        RUNS[number] = prepare(built, tmp_path, BATCHES[number])
    return RUNS[number]


def answered(run: Run, case: Case, command: str) -> set[str]:
    """Assert what *command* answered *case* on its batch's run; the error lines."""
    args = case.args if command == "build" else ()
    code, err = run.answer(command, args)
    others = [c.name for c in BATCHES[BATCH_OF[case.name]] if c is not case]
    shown = f"{command}: exit {code}\n{err}" + (f"\n(run with: {others})" if others else "")
    assert "Traceback" not in err, shown
    assert "internal error" not in err, shown
    assert run.sources_kept[command], f"{command} changed a source"
    if case.path is None:
        assert code == 0, shown
        return set()
    assert code == 2, shown
    errors = err.splitlines()
    line = run.lines[case.name]
    if case.path.startswith("-"):  # a command-line option: named in one line
        assert len(errors) == 1 and case.path in errors[0], shown
    elif line is None:
        assert any(e.startswith(f"{case.path}:") for e in errors), shown
    else:
        wanted = {f"{case.path}:{n}:" for n in range(line, line + case.slack + 1)}
        hits = [e for e in errors if any(e.startswith(w) for w in wanted)]
        assert hits, (f"expected {case.path}:{line}:", shown)
        assert not case.words or any(case.words in e for e in hits), (case.words, shown)
    assert run.dist_kept[command], f"{command} changed dist/"
    return set(errors)


@pytest.mark.parametrize("case", params())
def test_bad_input(built: Built, tmp_path: Path, case: Case) -> None:
    """The fast tier's run of each case: ``check`` (the command CI runs; ``build`` for
    the cases of build's own options), answered as the module says."""
    answered(run_of(built, tmp_path, case), case,
             "check" if "check" in case.commands else "build")


@pytest.mark.slow
@pytest.mark.parametrize("case", params(both=True))
def test_bad_input_in_build_too(built: Built, tmp_path: Path, case: Case) -> None:
    """The whole suite's: ``build`` answers as ``check`` does, with the same problems,
    all of them, and leaves ``dist/`` as it was (every case that both commands read)."""
    run = run_of(built, tmp_path, case)
    in_check = answered(run, case, "check")
    in_build = answered(run, case, "build")
    assert in_check == in_build, (f"only check: {sorted(in_check - in_build)}\n"
                                  f"only build: {sorted(in_build - in_check)}")


def _preload() -> None:
    """Import what the commands import, once, before the commands are forked from this
    process: each command then starts as a fresh ``site-builder`` process would, with
    nothing of an earlier command's state, without paying for the imports again."""
    import importlib

    for name in ("build", "cli", "commands.build", "commands.check", "commands.engine",
                 "commands.i18n", "commands.serve"):
        try:
            importlib.import_module(f"site_builder.{name}")
        except ImportError:  # a module of another design: imported by the command itself
            pass


def run_process(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``site-builder ARGS`` in *root* as its own process would: forked from this one
    (no interpreter to start, nothing to import again), ``console()`` run in the child,
    its output to files; a hang fails the test."""
    _preload()
    logs = root.parent / f"logs-{os.getpid()}"
    logs.mkdir(exist_ok=True)
    out, err = logs / "out", logs / "err"
    pid = os.fork()
    if not pid:
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
        except BaseException:  # a command that could not even start: shown, not lost
            import traceback

            traceback.print_exc()
            sys.stderr.flush()
        finally:
            os._exit(3)
    deadline = time.monotonic() + TIMEOUT
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                pytest.fail(f"site-builder {' '.join(args)} still running after {TIMEOUT} s")
            time.sleep(0.005)
    finally:
        if not done:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    return subprocess.CompletedProcess(
        args, os.waitstatus_to_exitcode(status),
        out.read_text(encoding="utf-8", errors="replace"),
        err.read_text(encoding="utf-8", errors="replace"))


BAD_COMMAND_LINES = [
    ("engine", "nope"),
    ("engine", "meld", "--game", "rami51", "-5H", "7S", "8S"),
    ("engine", "meld", "--game", "rami51", "JK", "7S", "-8S"),
    ("engine", "meld", "--game", "rami52", "JK", "7S", "8S"),
    ("engine", "simulate", "--game", "cardverse", "--players", "hard,easy",
     "--games", "10000000000"),
    ("engine", "simulate", "--game", "cardverse", "--players", "hard,easy", "--seed", "x"),
    ("engine", "opening", "--game", "rami51", "--joker-value", "99999999999", "QH KH AH"),
    ("engine", "game", "--game", "rami51", "0, 360, 12"),  # the build's check
    ("engine", "game", "--game", "rami51", "0, 35", "0, 1"),
    ("engine", "game", "--game", "rami51", "0, 178, 178"),
    ("engine", "game", "--game", "cardverse", "1, 0, 0"),
    ("nope",),
    ("serve", "--port", "99999"),
    ("serve", "--port", "-1"),
    ("i18n", "nope"),
    ("check", "--root", "no-such-folder"),
    ("serve", "--root", "no-such-folder"),
    ("i18n", "extract", "--root", "no-such-folder"),
    ("build", "--root", "content/index.md"),
]


@pytest.mark.parametrize("args", BAD_COMMAND_LINES, ids=" ".join)
def test_bad_command_line_is_one_line(built: Built, args: tuple[str, ...]) -> None:
    """A bad command line (an unknown subcommand, a card token
    starting with '-', a number out of bounds) is one line and exit 2, not argparse's
    usage block."""
    result = run_process(built.root, *args)
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "usage:" not in result.stderr and "Traceback" not in result.stderr
    assert not (built.root / "no-such-folder").exists()  # a mistyped --root makes no folder


I18N_FILE_CASES = [  # (what is made in the way, the command, the path named)
    ("locales/messages.pot", ("i18n", "extract"), "locales/messages.pot"),
    ("locales/pl/LC_MESSAGES/messages.mo", ("i18n", "compile"),
     "locales/pl/LC_MESSAGES/messages.mo"),
    ("locales/de", ("i18n", "init", "de"), "locales/de/LC_MESSAGES"),
]


@pytest.mark.parametrize(("blocker", "args", "named"), I18N_FILE_CASES,
                         ids=[" ".join(c[1]) for c in I18N_FILE_CASES])
def test_a_file_the_i18n_commands_write_is_in_the_way(
        built: Built, tmp_path: Path, blocker: str, args: tuple[str, ...], named: str) -> None:
    """A folder where ``i18n extract`` writes the template or ``compile`` a ``.mo`` file,
    or a file where ``init`` makes the language's folder: ``path: why``, exit 2, not an
    internal error."""
    root = built.copy(tmp_path / "project")
    target = root / blocker
    if target.exists():
        target.unlink()
    if blocker.endswith("/de"):
        target.write_text("not a folder")
    else:
        target.mkdir()
    result = run_main(*args, cwd=root, timeout=TIMEOUT)
    assert result.code == 2, result.err
    assert "Traceback" not in result.err and "internal error" not in result.err
    assert any(line.startswith(f"{named}: ") for line in result.err.splitlines()), result.err
