"""The output folder: never one that holds sources, replaced in one step by full and
incremental builds alike (even when a build is killed), and a damaged cache is ignored.
The tests drive the real command on a scratch copy of the project in two languages
(:func:`conftest.keep_two_languages`: what is tested here holds for any number), and the
swap alone under kill -9 at each of its steps."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import HANG, keep_two_languages, run_cli

from site_builder import output
from site_builder.output import clean_stale

PL = "locales/pl/LC_MESSAGES/messages.po"


@pytest.fixture
def project(project: Path) -> Path:
    """The scratch project, in two languages."""
    return keep_two_languages(project)


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def sources(project: Path) -> dict[str, bytes]:
    return {rel: data for rel, data in tree(project).items()
            if rel.split("/", 1)[0] in ("content", "locales", "templates", "babel.cfg")}


@pytest.mark.parametrize("out", [".", "content", "locales", "templates", "content/build",
                                 "locales/pl/LC_MESSAGES", "..", "../.."])
def test_an_output_folder_that_holds_sources_is_refused(project: Path, out: str) -> None:
    before = sources(project)
    result = run_cli("build", "--root", ".", "--out", out, cwd=project)
    assert result.code == 2, result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{out}: the output folder would replace")
    assert "Traceback" not in result.err
    assert sources(project) == before
    assert [p.name for p in project.parent.iterdir()] == ["project"]  # nothing made next to it


def test_stale_staging_folders_are_cleaned_up(project: Path) -> None:
    """A killed build leaves a staging folder next to the output (``.dist.new-PID-*``,
    ``.dist.old-PID-*`` holding the old site, or ``.dist.probe-PID-*``, the folder that
    tries whether the output's folder can be written); the next build deletes them, and
    puts back an old site that a kill left without its place. A build still running holds
    the lock on the output's folder: the next one waits for it."""
    assert run_cli("build", "--root", str(project)).code == 0
    site = tree(project / "dist")
    new = project / f".dist.new-{os.getpid()}-abc"
    (new / "site" / "en").mkdir(parents=True)
    (new / f"{output.LEFTOVER}-{new.name}").touch()  # claimed by the build that made it
    (project / f".dist.probe-{os.getpid()}-xyz").mkdir()
    old = project / f".dist.old-{os.getpid()}-ghi"  # killed between its two renames
    old.mkdir()
    (old / f"{output.LEFTOVER}-{old.name}").touch()
    os.rename(project / "dist", old / "site")
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(project / "dist"),
                               str(os.getpid()), str(HANG), new.name, old.name],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        result = run_cli("build", "--root", str(project))
        assert result.code == 0, result.err
        holder.kill()  # it has said what it saw before it let the build go on
        assert holder.stdout.read() == "waited, nothing touched\n"
        assert tree(project / "dist") == site
        assert not [p.name for p in project.iterdir() if p.name.startswith(".dist")]
    finally:
        holder.kill()
        holder.wait()


# Holds the lock of the output's folder until the build (the process argv[2]) is seen
# waiting for it: Linux lists a process blocked on a lock in /proc/locks, marked "->",
# with the inode it waits for. Then it says whether the killed builds' folders (argv[4:])
# are still there (nothing is cleaned up before the lock is held), and lets it go on.
HOLD_LOCK = """
import os, sys, time
from pathlib import Path
from site_builder.output import locked

out, waiter, hang, leftovers = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4:]
inode = str(os.stat(out.parent).st_ino)

def waiting():
    with open("/proc/locks") as locks:
        for line in locks:
            parts = line.split()
            if parts[1] == "->" and parts[5] == waiter and parts[6].rsplit(":", 1)[1] == inode:
                return True
    return False

with locked(out):
    print("locked", flush=True)
    deadline = time.monotonic() + hang
    while not waiting():
        if time.monotonic() > deadline:
            sys.exit("the build never waited for the lock")
        time.sleep(0.01)
    kept = all((out.parent / name).exists() for name in leftovers)
    print("waited, " + ("nothing touched" if kept else "a leftover removed"), flush=True)
"""


@pytest.mark.slow  # a soak: three rounds of damage to every entry, seven whole builds
def test_a_damaged_cache_is_ignored(project: Path, tmp_path: Path) -> None:
    """Every cache entry is checked (a hash of its bytes): one with a byte changed, or cut
    short, is ignored and made again; the site is the one a build without cache gives."""
    assert run_cli("build", "--root", str(project)).code == 0
    cache = project / ".cache"
    entries = sorted(p for p in cache.rglob("*") if p.is_file())
    assert len(entries) > 5  # the build's record and the compiled templates
    rnd = random.Random(14)
    po = project / PL
    text = po.read_text(encoding="utf-8")
    for trial in range(3):
        for path in entries:
            data = bytearray(path.read_bytes())
            if trial == 2:
                data = data[:len(data) // 2]
            else:
                at = rnd.randrange(len(data))
                data[at] ^= 1 << rnd.randrange(8)
            path.write_bytes(bytes(data))
        marker = "ABC"[trial]  # a catalog-only edit
        entry = 'msgid "Rules"\nmsgstr "'
        po.write_text(text.replace(entry, f"{entry}{marker} ", 1), encoding="utf-8")
        result = run_cli("build", "--root", str(project))
        assert result.code == 0 and "Traceback" not in result.err, result.err
        assert run_cli("build", "--root", str(project), "--no-cache", "--out",
                       str(tmp_path / f"uncached-{trial}")).code == 0
        assert tree(project / "dist") == tree(tmp_path / f"uncached-{trial}")


# Kill moments drawn at random over a whole build: what each trial adds is a moment before
# or after the swap, in a full or an incremental build. The swap itself is killed at every
# one of its steps by the next test, so a dozen trials are enough here (30 took 84 s).
TRIALS = 12


@pytest.mark.slow
def test_a_killed_build_leaves_the_old_or_the_new_site(project: Path, tmp_path: Path) -> None:
    """kill -9 at random moments of full and incremental (one catalog edited) builds:
    ``dist/`` is always the whole old site or the whole new one, and the next build is
    correct. The catalog goes back and forth between two texts."""
    po = project / PL
    text = po.read_text(encoding="utf-8")
    texts = [text, text.replace('msgid "Rules"\nmsgstr "', 'msgid "Rules"\nmsgstr "(nowe) ', 1)]
    sites = []
    for number, version in enumerate(texts):
        po.write_text(version, encoding="utf-8")
        out = tmp_path / f"site-{number}"
        assert run_cli("build", "--root", str(project), "--no-cache", "--out", str(out)).code == 0
        sites.append(tree(out))
    assert sites[0] != sites[1]
    command = [sys.executable, "-m", "site_builder", "build", "--root", str(project)]
    state = 0
    po.write_text(texts[state], encoding="utf-8")
    assert run_cli("build", "--root", str(project)).code == 0
    durations = {}
    for full in (True, False):  # how long each kind takes here, to kill it part-way
        state = 1 - state
        po.write_text(texts[state], encoding="utf-8")
        start = time.perf_counter()
        subprocess.run(command + (["--no-cache"] if full else []), check=True,
                       capture_output=True)
        durations[full] = time.perf_counter() - start
    rnd = random.Random(9)
    outcomes = {"old": 0, "new": 0}
    for trial in range(TRIALS):
        full = trial % 2 == 0
        target = 1 - state
        po.write_text(texts[target], encoding="utf-8")
        proc = subprocess.Popen(command + (["--no-cache"] if full else []),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rnd.uniform(0, durations[full]))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        found = tree(project / "dist")
        assert found in (sites[state], sites[target]), (trial, full)
        outcomes["old" if found == sites[state] else "new"] += 1
        result = run_cli("build", "--root", str(project))
        assert result.code == 0, result.err
        assert tree(project / "dist") == sites[target], (trial, full)
        state = target
    assert not [p for p in project.iterdir() if p.name.startswith(".dist.")]
    print(f"kill -9 trials: {outcomes}")


SWAP_KILLED_AT = """
import os, shutil, signal, sys
from pathlib import Path
from site_builder import output

out, kill_at = Path(sys.argv[1]), int(sys.argv[2])
tmp = output.staging(out)
(tmp / "index.html").write_bytes(b"new")
calls = 0

def killing(real):
    def step(*args, **kwargs):
        global calls
        calls += 1
        if calls == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)
    return step

os.rename, shutil.rmtree = killing(os.rename), killing(shutil.rmtree)
output._exchange = killing(output._exchange)
output.swap(tmp, out)
"""


def test_a_kill_at_any_step_of_the_swap_leaves_a_whole_site(tmp_path: Path) -> None:
    """kill -9 before each rename or delete that replaces the output: ``dist/`` is the
    whole old site or the whole new one, or (killed between the two renames) missing with
    the whole old site next to it; the next build's clean-up puts that back and leaves
    nothing else next to it."""
    root = Path(__file__).resolve().parent.parent
    out = tmp_path / "dist"
    for kill_at in range(1, 12):
        out.mkdir()
        (out / "index.html").write_bytes(b"old")
        (out / output.MARKER).write_bytes(output.marker({"index.html": (3, 0)}))
        done = subprocess.run([sys.executable, "-c", SWAP_KILLED_AT, str(out), str(kill_at)],
                              cwd=root, capture_output=True, text=True, check=False)
        killed = done.returncode == -signal.SIGKILL
        assert killed or done.returncode == 0, done.stderr
        found = tree(out) if out.exists() else {"index.html": b"old"}  # put back below
        found.pop(output.MARKER, None)
        assert found in ({"index.html": b"old"}, {"index.html": b"new"}), kill_at
        clean_stale(out)
        assert [p.name for p in tmp_path.iterdir()] == ["dist"]
        assert {k: v for k, v in tree(out).items() if k != output.MARKER} == found
        shutil.rmtree(out)
        if not killed:
            break


def test_the_output_is_never_missing_during_the_swap(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader of the output (``serve``'s preview, a web server serving
    dist/) finds a whole site at every step of the swap: where the file system can, the
    two folders are exchanged in one step, never renamed away and back."""
    out = tmp_path / "dist"
    out.mkdir()
    (out / "index.html").write_bytes(b"old")
    (out / output.MARKER).write_bytes(output.marker({"index.html": (3, 0)}))
    tmp = output.staging(out)
    (tmp / "index.html").write_bytes(b"new")
    seen = []

    def watched(real):  # type: ignore[no-untyped-def]
        def step(*args, **kwargs):  # type: ignore[no-untyped-def]
            seen.append((out / "index.html").read_bytes())
            result = real(*args, **kwargs)
            seen.append((out / "index.html").read_bytes())
            return result
        return step

    monkeypatch.setattr(os, "rename", watched(os.rename))
    monkeypatch.setattr(shutil, "rmtree", watched(shutil.rmtree))
    monkeypatch.setattr(output, "_exchange", watched(output._exchange))
    output.swap(tmp, out)
    assert seen and set(seen) <= {b"old", b"new"} and seen[-1] == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["dist"]


def test_pagefind_killed_by_a_signal_is_named(project: Path) -> None:
    """Under a file-size limit Pagefind is killed by SIGXFSZ and prints
    nothing; the one line says which signal, exit 2, and the earlier dist/ is kept."""
    import resource

    # no practice table: its runtime's files (megabytes) would meet the limit before Pagefind
    play = project / "content" / "play.md"
    play.write_text(play.read_text(encoding="utf-8").replace("play: true", "play: false"),
                    encoding="utf-8")
    assert run_cli("build", "--root", str(project)).code == 0
    site = tree(project / "dist")
    with open(project / "content" / "glossary.md", "a", encoding="utf-8") as fh:
        fh.write("\nOne more sentence.\n")
    # a limit above every file the build writes itself, below Pagefind's largest
    written = [p for p in (project / "dist").rglob("*") if p.is_file()]
    ours = max(p.stat().st_size for p in written if "pagefind" not in p.parts)
    limit = ours + 1024
    assert limit < max(p.stat().st_size for p in written if "pagefind" in p.parts)

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run([sys.executable, "-m", "site_builder", "build", "--root",
                           str(project)], capture_output=True, text=True, check=False,
                          preexec_fn=limited)
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert "pagefind was killed by signal 25 (SIGXFSZ: a file size limit" in line, line
    assert tree(project / "dist") == site
    assert not [p.name for p in project.iterdir() if p.name.startswith(".dist.")]
