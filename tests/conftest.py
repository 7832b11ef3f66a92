"""Shared fixtures: scratch copies of the real project, and running the CLI in-process; the
settings of every Hypothesis test."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from site_builder.project import CACHE_DIR

# Hypothesis, for every test that uses it. No deadline: no test times the code (a deadline
# fails a slow or busy machine, not slow code; benchmarks/ measures time, side by side).
# No shrinking: a failure is reported as it was found, in seconds, where shrinking an
# example that costs a second once took minutes. To get the smallest failing example, run
# the failing test again with HYPOTHESIS_PROFILE=shrink (the failure found first is kept
# in .hypothesis/ and tried first).
settings.register_profile(
    "site-builder", deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target])
settings.register_profile("shrink", settings.get_profile("site-builder"), phases=list(Phase))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "site-builder"))

ROOT = Path(__file__).resolve().parent.parent
# Seconds a command or a server may go on before a test takes it for hung: a guard that
# stops a hang, never a measure of speed (benchmarks/ measures that), so many times what
# the slowest takes on a busy machine (a build of the whole site: about 25 s on a quiet one).
HANG = 300
PROJECT_PARTS = ("content", "locales", "templates", "babel.cfg")
# The client's seed pages; a copy is committed so that the tests also run outside the
# workplace, and test_seed_copy_is_current compares it with ../shared/seeds when present.
SEEDS = ROOT / "tests" / "seeds"
SHARED_SEEDS = ROOT.parent / "shared" / "seeds"


def copy_project(dest: Path) -> Path:
    """Copy what a build reads (content, catalogs, templates) into *dest*, with the
    checkout's ``node_modules`` linked in, as ``npm ci`` gives a user's checkout (the build
    reads the practice table's runtime from the project it builds, never from elsewhere)."""
    dest.mkdir(parents=True, exist_ok=True)
    for part in PROJECT_PARTS:
        src = ROOT / part
        if src.is_dir():
            shutil.copytree(src, dest / part, ignore=shutil.ignore_patterns("*.mo"))
        else:
            shutil.copy2(src, dest / part)
    (dest / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    return dest


@pytest.fixture
def project(tmp_path: Path, kept_checks: list[Path]) -> Path:
    """A scratch copy of the real project, safe to break, with what a check keeps in
    ``.cache/`` (each catalog's check, the templates' and the code's messages), as a
    user's checkout has it after a first build: what a test edits is read and checked
    again, as everything there is kept by the bytes it came from."""
    return scratch_project(tmp_path / "project", kept_checks)


def scratch_project(dest: Path, kept_checks: list[Path]) -> Path:
    """What the :func:`project` fixture gives, in *dest*."""
    copy_project(dest)
    (dest / CACHE_DIR).mkdir(parents=True)
    for path in kept_checks:
        shutil.copy2(path, dest / CACHE_DIR / path.name)
    return dest


TWO_LANGUAGES = ["en", "pl"]


def keep_two_languages(project: Path) -> Path:
    """*project* with two of its five languages, English (the source) and Polish, the
    other catalogs removed (a language is one that has a catalog): for the tests of the
    build's machinery (its record, its cache, its output folder), which hold for any
    number of languages. A build renders two fifths of the pages, in about 0.57x the CPU
    of a build of all five (``build --no-cache``, measured side by side)."""
    for folder in sorted((project / "locales").iterdir()):
        if folder.is_dir() and folder.name not in TWO_LANGUAGES:
            shutil.rmtree(folder)
    return project


@pytest.fixture(scope="session")
def kept_checks(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """What ``check`` of the real project keeps in ``.cache/`` (but the compiled templates,
    kept by their absolute paths), made once per test session (shared by the xdist
    workers)."""
    def make(folder: Path) -> None:
        result = run_cli("check", "--root", str(copy_project(folder / "project")))
        assert result.code == 0, result.err

    cache = shared_folder(tmp_path_factory, "kept-checks", make) / "project" / CACHE_DIR
    found = sorted(cache.glob("*.json"))
    assert {"templates.json", "code-messages.json"} <= {p.name for p in found}, found
    assert any(p.name.startswith("catalog-") for p in found), found
    return found


@dataclass
class Result:
    code: int
    out: str
    err: str


def run_cli(*args: str, cwd: Path | None = None) -> Result:
    """Run ``site-builder ARGS`` in this process, as :func:`run_main` does: the command's
    exit code and output are those of a separate process (``run_process`` is for the
    tests of the process itself: ``--debug``'s traceback, exit at once)."""
    return run_main(*args, cwd=cwd)


def run_process(*args: str, cwd: Path | None = None) -> Result:
    """Run ``site-builder ARGS`` as a user would, in a separate process."""
    proc = subprocess.run([sys.executable, "-m", "site_builder", *args], cwd=cwd or ROOT,
                          capture_output=True, text=True, timeout=HANG)
    return Result(proc.returncode, proc.stdout, proc.stderr)


def shared_folder(factory: pytest.TempPathFactory, name: str,
                  make: Callable[[Path], None]) -> Path:
    """``make(folder)`` once per test session, for every pytest-xdist worker: the first
    worker to get here makes it, under a file lock, in the folder the workers' temporary
    folders share; the others wait for it and reuse it. A folder left half made by a failed
    attempt is made again. Whoever uses it must not change it."""
    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # .../pytest-N/popen-gwK: share .../pytest-N
        base = base.parent
    folder = base / f"shared-{name}"
    with open(base / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        done = folder / ".made"
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


def shared_build(factory: pytest.TempPathFactory, name: str, *args: str) -> Path:
    """``site-builder build --root ROOT --out DIR ARGS`` of the real project, once per test
    session (:func:`shared_folder`); returns DIR."""

    def make(folder: Path) -> None:
        result = run_cli("build", "--root", str(ROOT), "--out", str(folder / "dist"), *args)
        assert result.code == 0, result.err

    return shared_folder(factory, name, make) / "dist"


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real site, built once per test session (shared by the xdist workers)."""
    return shared_build(tmp_path_factory, "site")


class Hung(BaseException):
    """A command run in this process went on past its deadline (a ``BaseException``, so
    that the command line's last line of defence, ``except Exception``, cannot turn it
    into an ``internal error`` exit)."""


def run_main(*args: str, cwd: Path | None = None, timeout: float = HANG) -> Result:
    """Run ``site-builder ARGS`` in this process (:func:`site_builder.cli.main`) with *cwd*
    as the current folder: its exit code and what it printed.

    A hang fails the test rather than blocking the suite: after *timeout* seconds an alarm
    raises :class:`Hung` in the main thread, which also interrupts a blocking system call
    (opening a FIFO, reading a pipe). A hang that never returns to the interpreter (a loop
    in C) cannot be interrupted in this process: then ``faulthandler`` prints every
    thread's traceback and ends the test run, after *timeout* seconds more.
    """
    import contextlib
    import faulthandler
    import io
    import os
    import signal

    from site_builder.cli import main

    def alarm(signum: int, frame: object) -> None:
        raise Hung(f"site-builder {' '.join(args)} still running after {timeout} s")

    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    previous = signal.signal(signal.SIGALRM, alarm)
    faulthandler.dump_traceback_later(2 * timeout, exit=True)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        os.chdir(cwd or ROOT)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse's usage errors, as the process would end
                code = exc.code if isinstance(exc.code, int) else 1
    except Hung as exc:
        pytest.fail(f"{exc}\n{err.getvalue()}", pytrace=True)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        faulthandler.cancel_dump_traceback_later()
        signal.signal(signal.SIGALRM, previous)
        os.chdir(here)
    return Result(code, out.getvalue(), err.getvalue())
