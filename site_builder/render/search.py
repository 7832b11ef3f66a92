"""Search in each language (issue 16), with Pagefind (https://pagefind.app, pip
``pagefind[bin]``): after the pages are rendered into the staging folder, and before it
replaces the output, each language folder gets its own index, ``<lang>/pagefind/``.

One index per language keeps search in the reader's language by construction (a Polish
query can only find Polish pages), and lets a build that renders one language again
(after its catalog changed) index that language alone. Pagefind reads each page's
``lang`` for its word rules; only ``<main data-pagefind-body>`` of the rule pages is
indexed, without the navigation inside it (:data:`EXCLUDE`).

The pages load ``assets/site.js``, which shows the search box (hidden without
JavaScript) and asks the language's ``pagefind.js``.
"""

from __future__ import annotations

import ctypes
import functools
import importlib.util
import os
import shutil
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pagefind_bin

from site_builder.errors import UserError
from site_builder.project import BUNDLE

# Inside the indexed <main>: the ways around the page, not its rules; and the worked
# examples, whose cells would make excerpts of card chips and numbers ("7♥8♥9♥ 44").
EXCLUDE = ".breadcrumbs, .toc, .sheet-link, .pager, .to-top, .printed, .checker, .example"
# What the search client needs of Pagefind's bundle; its ready-made user interfaces
# (pagefind-ui.js, -component-ui, -modular-ui, -highlight: about 450 KB per language)
# are not used, and are removed.
KEEP = ("pagefind.js", "pagefind-worker.js", "pagefind-entry.json")
KEEP_SUFFIXES = (".pagefind", ".pf_meta")
KEEP_DIRS = ("index", "fragment", "filter")

def context(lang: str, path: str, href: Callable[[str], str]) -> dict[str, Any]:
    """The search box of a page of *lang* at *path* (output file); nothing
    for the pages outside the language folders (the chooser, the root 404 page). *href*
    makes a link to an output file from the page."""
    if not path.startswith(f"{lang}/"):
        return {}
    return {"search": {"script": href("assets/site.js"),
                       "bundle": href(f"{lang}/{BUNDLE}/pagefind.js")}}


def available() -> bool:
    return importlib.util.find_spec("pagefind_bin") is not None


MISSING = ("Pagefind is not installed, and the search index cannot be built: "
           "run `.venv/bin/pip install -e .` (it installs pagefind[bin])")


# Why a signal usually reaches Pagefind, for the signals a user can do something about.
_SIGNAL_CAUSES = {"SIGXFSZ": "a file size limit (ulimit -f)", "SIGKILL": "killed, perhaps by "
                  "the out-of-memory killer", "SIGXCPU": "a CPU time limit (ulimit -t)",
                  "SIGSEGV": "a crash", "SIGTERM": "asked to stop"}


def failure(code: int, output: str) -> str:
    """Why Pagefind failed: its exit status, or the signal that ended it (issue 33, R13:
    killed by a signal it prints nothing), and what it printed.

    >>> failure(-25, "")
    'pagefind was killed by signal 25 (SIGXFSZ: a file size limit (ulimit -f))'
    >>> failure(1, "Error: no pages")
    'Error: no pages (exit status 1)'
    """
    said = " ".join(output.split())[:500]
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "an unknown signal"
        cause = _SIGNAL_CAUSES.get(name)
        why = f"pagefind was killed by signal {-code} ({name}{': ' + cause if cause else ''})"
        return f"{why}; {said}" if said else why
    return f"{said} (exit status {code})" if said else f"pagefind exited with status {code}"


def _death_signal() -> Callable[[], object] | None:
    """What Pagefind's process runs before it starts (Linux): end it when the build that
    started it ends, however (kill -9), rather than let it write on into a staging folder
    that the next build is deleting (``prctl(PR_SET_PDEATHSIG, SIGKILL)``). Looked up
    here, in the build's process: the child, forked from a process with threads
    (``serve``), only makes the call. None where there is no ``prctl``."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return functools.partial(prctl, 1, int(signal.SIGKILL), 0, 0, 0)


def index(site_dir: Path, langs: list[str]) -> dict[str, tuple[int, int]]:
    """Index each of *langs* (a folder of *site_dir*) into ``<lang>/pagefind/``; return
    the files written, with their size and modification time (as the build records).

    The languages are indexed one after the other once all are rendered, so that at
    most one Pagefind runs (at 5,005 pages it peaks at about 260 MiB: indexing each
    language in the process that rendered it, two at a time, took the build's peak from
    387 to 720 MiB for 3% of the time). Pagefind's executable is started directly rather
    than through ``python -m pagefind``, which costs a Python start-up per language (on
    the real site: 0.46 s for the five languages through Python, 0.17 s directly)."""
    if not available():
        raise UserError(MISSING)

    written: dict[str, tuple[int, int]] = {}
    die_with_parent = _death_signal()
    for lang in langs:
        folder = site_dir / lang
        if not folder.is_dir():
            continue
        done = subprocess.run(
            [str(pagefind_bin.get_executable()), "--site", str(folder), "--output-subdir",
             BUNDLE, "--exclude-selectors", EXCLUDE, "--silent"],
            capture_output=True, text=True, check=False, preexec_fn=die_with_parent)
        if done.returncode != 0:
            raise UserError(f"pagefind failed on {lang}/: " + failure(
                done.returncode, done.stderr or done.stdout))
        bundle = folder / BUNDLE
        for entry in sorted(bundle.iterdir()):
            if entry.is_dir():
                if entry.name not in KEEP_DIRS:
                    shutil.rmtree(entry)
            elif entry.name not in KEEP and not entry.name.endswith(KEEP_SUFFIXES):
                entry.unlink()
        for file in sorted(bundle.rglob("*")):
            if file.is_file():
                st = os.stat(file)
                written[file.relative_to(site_dir).as_posix()] = (st.st_size, st.st_mtime_ns)
    return written
