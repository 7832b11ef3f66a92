"""The project's layout and settings: every path and constant defined once, the output's
too: where each page lives (its file, its folder, its address) and the links between
output files.

A project is a folder with ``content/`` (pages, ``profiles.toml``, ``site.toml``),
``locales/<lang>/LC_MESSAGES/messages.po`` and ``templates/``.
"""

from __future__ import annotations

import os
import re
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

from site_builder.errors import Problem, UserError

SOURCE_LANG = "en"
CONTENT_DIR = "content"
TEMPLATES_DIR = "templates"
LOCALES_DIR = "locales"
SITE_FILE = "content/site.toml"
DOMAIN = "messages"
POT_PATH = f"{LOCALES_DIR}/{DOMAIN}.pot"
CACHE_DIR = ".cache/site-builder"
SOURCE_DIRS = (CONTENT_DIR, LOCALES_DIR, TEMPLATES_DIR)
STATUS_SLUG = "translation-status"  # each language's translation status page
ABOUT_SLUG = "about"  # the page the footer links to: how these rules were made and checked
BUNDLE = "pagefind"  # each language's search index, in its folder
# The quick-reference sheets: slug under the language folder, and the games each covers
# (Rami 40 and 51 differ only in the first meld, so they share a sheet).
SHEETS = {"quick-reference/rami": ("rami40", "rami51"),
          "quick-reference/cardverse": ("cardverse",)}


def po_path(lang: str) -> str:
    """The catalog of *lang*, relative to the project root."""
    return f"{LOCALES_DIR}/{lang}/LC_MESSAGES/{DOMAIN}.po"


def page_path(lang: str, slug: str) -> str:
    """The output file of a page: ``pl/index.html``, ``pl/first-meld/index.html``."""
    return f"{lang}/index.html" if slug == "index" else f"{lang}/{slug}/index.html"


def page_folder(lang: str, slug: str) -> str:
    """The folder of a page, as a link from the site's root gives it: ``/pl/first-meld/``."""
    return "/" + page_path(lang, slug).removesuffix("index.html")


def page_url(base_url: str, lang: str, slug: str) -> str:
    """The public address of a page: ``https://host/pl/first-meld/``.

    >>> page_url("https://host/", "pl", "first-meld"), page_url("https://host/", "pl", "index")
    ('https://host/pl/first-meld/', 'https://host/pl/')
    """
    return base_url + page_folder(lang, slug).removeprefix("/")


def not_found_path(lang: str | None = None) -> str:
    """The output file of a language's 404 page (``pl/404.html``), or of the site's."""
    return "404.html" if lang is None else f"{lang}/404.html"


def relative(from_file: str, to_file: str) -> str:
    """A relative link from one output file to another (works from ``file://``).

    >>> relative("pl/first-meld/index.html", "ms/first-meld/index.html")
    '../../ms/first-meld/index.html'
    >>> relative("index.html", "assets/site.css")
    'assets/site.css'
    >>> relative("pl/turn/index.html", "pl/turn/index.html"), relative("pl/a/index.html", "pl")
    ('index.html', '..')

    Both are paths of the output, relative and normal (no ``.`` or ``..`` parts), so the
    link is made from their parts alone: ``posixpath.relpath`` gives the same, but asks the
    file system for the working folder twice a call, a quarter of a 1,005-page build
    (every page links every page).

    >>> import posixpath
    >>> cases = [("a/b/c.html", "a/d.html"), ("x.html", "y/z.html"), ("a/b/i.html", "a/b")]
    >>> all(relative(f, t) == posixpath.relpath(t, posixpath.dirname(f) or ".")
    ...     for f, t in cases)
    True
    """
    start = from_file.split("/")[:-1]
    parts = to_file.split("/")
    common = 0
    for a, b in zip(start, parts, strict=False):
        if a != b:
            break
        common += 1
    return "/".join([".."] * (len(start) - common) + parts[common:]) or "."


def root_path(base_url: str) -> str:
    """The path of the site's root in *base_url*, which the 404 pages link from: a 404
    page is served at any address, so its links cannot be relative, and with the host left
    out they work on any host (a local preview, a mirror).

    >>> root_path("https://rami.example.org/"), root_path("https://example.org/rami/")
    ('/', '/rami/')
    """
    path = urlsplit(base_url).path or "/"
    return path if path.endswith("/") else path + "/"


def discover_languages(root: Path) -> list[str]:
    """Languages that have a catalog, sorted by code."""
    base = root / LOCALES_DIR
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if (root / po_path(p.name)).is_file())


def build_date(root: Path) -> str | None:
    """The date printed on paper (ISO 8601, UTC), derived from the inputs so that the same
    inputs give the same bytes: ``SOURCE_DATE_EPOCH`` when it is set (the reproducible-builds
    convention), else the date of the git commit checked out in *root*, else none. An
    input of the build's record (:func:`site_builder.cache.language_keys`). Asked once a
    build and never kept: a process that builds again (``serve``) sees a new commit's date.

    (A file's modification time is not used: a fresh checkout would change it.)
    """
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch:  # set and empty is unset, as shells and CI systems often leave it
        return epoch_date(epoch)
    return _commit_date(root)


# A number read from the environment: ASCII digits and nothing else (no sign: a date before
# 1970 is never a build's), checked before it is converted: ``int()`` would also read
# a space or a line end around it, underscores and other scripts' digits. Twelve digits at
# most: more is never meant, and ``int()`` of a long string costs time.
ENVIRON_NUMBER = re.compile(r"[0-9]{1,12}")


def environ_number_problem(value: str) -> str | None:
    r"""Why *value*, read from the environment, is not a whole number in ASCII digits
    (:data:`ENVIRON_NUMBER`), or None if it is one.

    >>> environ_number_problem("1700000000") is None
    True
    >>> environ_number_problem("1700000000\n"), environ_number_problem(" 1700000000")
    ('has a space or a line end around it', 'has a space or a line end around it')
    """
    if ENVIRON_NUMBER.fullmatch(value):
        return None
    if ENVIRON_NUMBER.fullmatch(value.strip()):
        return "has a space or a line end around it"
    if re.fullmatch(r"[0-9]+", value):
        return "has more than 12 digits"
    if re.fullmatch(r"-[0-9]+", value.strip()):
        return "is negative (a date before 1970)"
    return "is not a whole number in ASCII digits"


def epoch_date(epoch: str) -> str:
    """The date of *epoch*, a ``SOURCE_DATE_EPOCH``: an integer in ASCII digits, as
    ``date +%s`` prints it, or one line, exit 2 (the reproducible-builds specification:
    anything else is an error: ``abc`` is not silently dropped, and ``1_700_000_000``
    and Arabic-Indic digits, which ``int()`` reads, are refused).

    >>> epoch_date("1700000000"), epoch_date("0")
    ('2023-11-14', '1970-01-01')
    >>> epoch_date("-1")
    Traceback (most recent call last):
    site_builder.errors.UserError: SOURCE_DATE_EPOCH: '-1' is negative (a date before 1970); ...
    >>> epoch_date("1_700_000_000")
    Traceback (most recent call last):
    site_builder.errors.UserError: SOURCE_DATE_EPOCH: '1_700_000_000' is not a whole number ...
    """
    why = environ_number_problem(epoch)
    if why is None:  # checked before int(), which reads " 1700000000\n" as well
        try:
            return datetime.fromtimestamp(int(epoch), UTC).date().isoformat()
        except (ValueError, OverflowError, OSError):
            why = "is out of the range of dates"
    raise UserError(Problem("SOURCE_DATE_EPOCH", 0, f"{epoch!r} {why}; set it to a number "
                                                    "of seconds since 1970 in ASCII digits "
                                                    "alone, as date +%s prints it (e.g. "
                                                    "1700000000), or unset it"))


def _commit_date(root: Path) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%ct"],
                              capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    epoch = done.stdout.strip() if done.returncode == 0 else ""
    try:
        return datetime.fromtimestamp(int(epoch), UTC).date().isoformat()
    except (ValueError, OverflowError, OSError):
        return None
