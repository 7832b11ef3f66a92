"""How long ``i18n extract`` + ``i18n update`` take with N new English messages.

    .venv/bin/python benchmarks/i18n_update.py                    # 100,000 new messages
    .venv/bin/python benchmarks/i18n_update.py --messages 10000 --messages 100000
    .venv/bin/python benchmarks/i18n_update.py --pages 100        # spread over 100 pages

Once, ``i18n update`` with 100k new messages ran past 10 minutes; this measures it. For
each N this copies the project to a temporary folder, adds N distinct new sentences
(paragraphs of new pages ``content/zz-bench-*.md``), and times, each as its own process:
``i18n extract``, ``i18n update`` (all four catalogs gain N untranslated entries),
``i18n update`` again (nothing changes), and ``check`` on the result. It prints the
seconds and the peak memory (the largest resident set of the command and of the GNU
tools it runs) of each step. Several N show whether the time grows linearly.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("content", "locales", "templates", "babel.cfg")
SITE_BUILDER = Path(sys.executable).with_name("site-builder")

WORDS = ("stock discard meld sequence set joker seat round score hand card table pile "
         "turn player opening threshold penalty ace king queen jack deal draw lay off").split()


def sentence(i: int) -> str:
    """The *i*-th new sentence: distinct for every *i*, English-like, no placeholders."""
    words = [WORDS[(i // len(WORDS) ** k) % len(WORDS)] for k in range(4)]
    return f"Bench note {i}: the {words[0]} and the {words[1]} come before the " \
           f"{words[2]} of the {words[3]}."


def copy_project(tree: Path, dest: Path) -> None:
    """The project's files (:data:`PARTS`) of the checkout *tree*, into *dest*, as a fresh
    clone has them: without compiled catalogs (``*.mo``, git-ignored)."""
    for part in PARTS:
        source = tree / part
        if source.is_dir():
            shutil.copytree(source, dest / part, ignore=shutil.ignore_patterns("*.mo"))
        elif source.exists():
            shutil.copy2(source, dest / part)
    # the practice table's runtime, as npm ci gives a checkout (a build reads it there only)
    (dest / "node_modules").symlink_to(tree / "node_modules", target_is_directory=True)


def make_project(dest: Path, messages: int, pages: int) -> None:
    copy_project(ROOT, dest)
    per_page = -(-messages // pages)
    for p in range(pages):
        first, last = p * per_page, min(messages, (p + 1) * per_page)
        if first >= last:
            break
        body = "\n\n".join(sentence(i) for i in range(first, last))
        (dest / "content" / f"zz-bench-{p:04d}.md").write_text(
            f"---\ntitle: Bench page {p}\nslug: zz-bench-{p:04d}\norder: {900 + p}\n"
            f"description: Benchmark page {p} of new messages.\n---\n\n{body}\n",
            encoding="utf-8")


def timed(args: list[str], cwd: Path) -> tuple[float, int, int, str]:
    """Run *args*; return seconds, peak RSS in MiB (the process and every child it
    waited for, GNU's msgmerge included), exit code and the last output line."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    lines = out.decode("utf-8", "replace").strip().splitlines()
    return seconds, usage.ru_maxrss // 1024, proc.returncode, lines[-1] if lines else ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--messages", type=int, action="append",
                    help="new messages (repeat for several runs; default 100000)")
    ap.add_argument("--pages", type=int, default=1, help="pages to spread them over")
    ap.add_argument("--keep", action="store_true", help="keep the temporary projects")
    args = ap.parse_args()
    cli = str(SITE_BUILDER) if SITE_BUILDER.exists() else "site-builder"
    print(f"{'messages':>9} {'step':<14} {'seconds':>8} {'peak MiB':>9}  exit  last line")
    failed = False
    for n in args.messages or [100_000]:
        tmp = Path(tempfile.mkdtemp(prefix=f"i18n-update-{n}-"))
        try:
            make_project(tmp, n, args.pages)
            for step, cmd in (("i18n extract", ["i18n", "extract"]),
                              ("i18n update", ["i18n", "update"]),
                              ("update again", ["i18n", "update"]),
                              ("check", ["check"])):
                seconds, mib, code, last = timed([cli, *cmd, "--root", str(tmp)], tmp)
                print(f"{n:>9} {step:<14} {seconds:8.1f} {mib:9d}  {code:>4}  {last[:60]}",
                      flush=True)
                failed |= code != 0
        finally:
            if args.keep:
                print(f"kept {tmp}")
            else:
                shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
