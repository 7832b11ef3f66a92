"""Wall time of ``site-builder build`` on the real site, as a user runs it.

    .venv/bin/python benchmarks/cold_start.py --runs 10

Each run copies the project (content, locales, templates) into a temporary folder once,
then times whole ``site-builder build`` processes in these scenarios, in turn:

* first build: no ``dist/`` and no ``.cache/`` (a fresh clone);
* no change: the same build again;
* catalog edited: one Polish message changed;
* content edited: one sentence of one page changed;
* template edited: a comment added to ``page.html``.

It prints the median, minimum and maximum of each. Python's own start (``python -c
pass``) is timed alongside, as the floor no Python command goes below. Our modules are
byte-compiled first, as a regular install does (this machine may set
``PYTHONDONTWRITEBYTECODE``, which would have every run compile them again).

With ``--against REV`` it times first builds only, of this code and of the code at git
revision REV (a temporary ``git worktree``, put first on ``PYTHONPATH``), in turn, and
prints the ratio of their medians: a comparison that the machine's changing speed
affects least.

    .venv/bin/python benchmarks/cold_start.py --runs 20 --against 60fc490
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
PARTS = ("content", "locales", "templates", "babel.cfg")


def timed(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def copy_project(tree: Path, dest: Path) -> None:
    """The project's files (:data:`PARTS`) of the checkout *tree*, into *dest*, as a fresh
    clone has them: without compiled catalogs (``*.mo``, git-ignored)."""
    for part in PARTS:
        source = tree / part
        if source.is_dir():
            shutil.copytree(source, dest / part, ignore=shutil.ignore_patterns("*.mo"))
        elif source.exists():
            shutil.copy2(source, dest / part)


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--against", metavar="REV", default=None,
                        help="time first builds side by side with the code at git REV")
    args = parser.parse_args()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "site_builder")],
                   check=True)
    work = Path(tempfile.mkdtemp(prefix="rami-cold-start-"))
    try:
        if args.against:
            return against(args.against, args.runs, work)
        copy_project(ROOT, work)
        build = [sys.executable, "-m", "site_builder", "build"]
        po = work / "locales" / "pl" / "LC_MESSAGES" / "messages.po"
        page = work / "content" / "first-meld.md"
        template = work / "templates" / "page.html"
        times: dict[str, list[float]] = {}
        for run in range(args.runs):
            def measure(name: str) -> None:
                times.setdefault(name, []).append(timed(build, work))

            times.setdefault("python -c pass", []).append(
                timed([sys.executable, "-c", "pass"], work))
            for folder in ("dist", ".cache"):
                shutil.rmtree(work / folder, ignore_errors=True)
            measure("first build")
            measure("no change")
            edit(po, 'msgid "Rules"\nmsgstr "Zasady', 'msgid "Rules"\nmsgstr "Zasady gry')
            measure("catalog edited")
            append(page, "\n")  # one more blank line at the end of the page
            measure("content edited")
            append(template, f"{{# run {run} #}}\n")  # a comment after the last block
            measure("template edited")
        print(f"site-builder build of the real site, {args.runs} runs each, in turn:")
        print(f"{'scenario':16} {'median':>8} {'min':>8} {'max':>8}")
        for name, walls in times.items():
            print(f"{name:16} {statistics.median(walls):7.3f}s {min(walls):7.3f}s "
                  f"{max(walls):7.3f}s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def against(rev: str, runs: int, work: Path) -> int:
    """First builds of this code and of the code at *rev*, in turn (see the module's
    docstring); the other code's project files are its own."""
    import os

    other = work / "other"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(other),
                    rev], check=True)
    try:
        subprocess.run([sys.executable, "-m", "compileall", "-q",
                        str(other / "site_builder")], check=True)
        trees = {"this code": ROOT, rev: other}
        times: dict[str, list[float]] = {name: [] for name in trees}
        for run in range(runs):
            order = list(trees.items()) if run % 2 == 0 else list(trees.items())[::-1]
            for name, tree in order:
                project = work / "project"
                shutil.rmtree(project, ignore_errors=True)
                project.mkdir()
                copy_project(tree, project)
                times[name].append(timed([sys.executable, "-m", "site_builder", "build"],
                                         project, {**os.environ, "PYTHONPATH": str(tree)}))
        print(f"first build of the real site, {runs} runs each, in turn:")
        for name, walls in times.items():
            print(f"{name:16} median {statistics.median(walls):.3f}s "
                  f"(min {min(walls):.3f}s, max {max(walls):.3f}s)")
        ratio = statistics.median(times["this code"]) / statistics.median(times[rev])
        print(f"this code / {rev}: {ratio:.2f}x")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)],
                       check=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
