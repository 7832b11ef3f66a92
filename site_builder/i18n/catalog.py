"""Catalogs (Babel's, the only catalog type): the files of ``locales/`` and each catalog
read, after the checks Babel's lenient reader lacks (:mod:`site_builder.i18n.lint`, the
one scanner of PO lines).

One catalog per language, ``locales/<lang>/LC_MESSAGES/messages.po``; the msgid is
the English source text. Looking translations up is :mod:`site_builder.i18n.translator`;
languages themselves, :mod:`site_builder.i18n.locales`.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path

from babel import UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.pofile import PoFileError, read_po

from site_builder.errors import Problem
from site_builder.i18n.gnu import babel_readable, gnu_readable
from site_builder.i18n.lint import po_problems
from site_builder.i18n.locales import folder_problem, num_plurals, parse_locale
from site_builder.project import DOMAIN, LOCALES_DIR, po_path
from site_builder.sources.files import decode_utf8, not_regular
from site_builder.sources.parsing import MAX_BYTES, parse, too_large


@dataclass
class LoadedCatalog:
    """A catalog read from disk, or a problem pointing at the line where reading failed."""

    lang: str
    path: str
    catalog: Catalog


# Comment lines of a catalog that neither rendering nor the checks read: references
# (``#:``), extracted comments (``#.``) and previous msgids (``#|``).
_UNREAD_COMMENTS = re.compile(rb"^#[:.|][^\n]*", re.MULTILINE)


def load_catalog(root: Path, lang: str, comments: bool = True, data: bytes | None = None
                 ) -> tuple[LoadedCatalog | None, list[Problem]]:
    """Read the catalog of *lang* with Babel, after the syntax check Babel lacks. Without
    *comments* (for a build), references, extracted comments and previous msgids are left
    out (their lines blanked, so that every line keeps its number): Babel reads the rest
    in half the time. *data*: the catalog's bytes, if read already."""
    rel = po_path(lang)
    problem = folder_problem(lang)
    if problem is not None:
        return None, [problem]

    # as GNU gettext reads it (no byte order mark, CR or CRLF line ends as LF), with
    # GNU's #~| lines as Babel can read them
    if data is None:
        with open(root / rel, "rb") as stream:
            data = stream.read(MAX_BYTES + 1)  # never more than the bound into memory
    if len(data) > MAX_BYTES:
        return None, [too_large(rel)]
    data = babel_readable(gnu_readable(data))
    text, problem = decode_utf8(data, rel)
    if text is None:
        return None, [problem] if problem else []
    # what is not PO syntax, what Babel lets through (and msgfmt refuses), and what it
    # refuses in words of its own
    language = parse_locale(lang).english_name or lang
    lint = po_problems(text, num_plurals(lang), language)
    if lint:
        return None, [Problem(rel, line, message) for line, message in lint]
    if not comments:
        data = _UNREAD_COMMENTS.sub(b"", data)
    def read(text: str) -> Catalog:
        return read_po(io.BytesIO(data), locale=lang, domain=DOMAIN, abort_invalid=True)

    try:  # Babel's reader, bounded as every parser of user input is (no nesting in PO)
        catalog, problem = parse(read, text, rel, "text")
        if catalog is None:
            return None, [problem] if problem else []
    except PoFileError as exc:  # what the checks above leave to Babel (it counts from 0)
        message = str(exc).rsplit(" on ", 1)[0]
        if message.startswith("missing msgstr for "):  # in an obsolete entry (#~)
            message = f"{message[len('missing msgstr for '):]} has no msgstr; add msgstr \"\""
        elif "num_plurals" in message:  # the header's Plural-Forms says fewer than CLDR
            message = (f"more msgstr[N] than the header's Plural-Forms allows (nplurals="
                       f"{exc.catalog.num_plurals}); {language} has {num_plurals(lang)} "
                       "(CLDR): correct the header")
        else:
            message = f"syntax error in catalog: {message} (at {exc.line.strip()!r})"
        return None, [Problem(rel, exc.lineno + 1, message)]
    except (ValueError, UnknownLocaleError) as exc:
        return None, [Problem(rel, 1, f"cannot read catalog: {exc}")]
    return LoadedCatalog(lang, rel, catalog), []


def locale_problems(root: Path, source_lang: str = "en") -> list[Problem]:
    """The catalogs' files: a catalog for the source language would replace the English
    pages; one that is not a regular file (a directory, a dangling symlink, a FIFO) would
    drop its language without a word. Both are refused."""
    problems = []
    base = root / LOCALES_DIR
    for folder in sorted(base.iterdir()) if base.is_dir() else ():
        rel = po_path(folder.name)
        path = root / rel
        if not (path.exists() or path.is_symlink()):
            continue
        if folder.name == source_lang:
            problems.append(Problem(rel, 0, f"{source_lang} is the source language: its text "
                                            "comes from content/ and templates/, not from a "
                                            f"catalog; remove locales/{source_lang}/"))
            continue
        problem = not_regular(path, rel)
        if problem is not None:
            problems.append(problem)
            continue
        problem = folder_problem(folder.name)  # before anything is rendered in it
        if problem is not None:
            problems.append(problem)
    return problems
