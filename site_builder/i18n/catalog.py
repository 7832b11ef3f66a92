"""Catalogs (Babel's, the only catalog type): reading with the syntax check Babel lacks,
looking up translations with English fallback, and coverage statistics.

One catalog per language, ``locales/<lang>/LC_MESSAGES/messages.po``; the msgid is
the English source text. A fuzzy or empty translation is never used: the English
source is shown instead, and the page says it is partly translated.
"""

from __future__ import annotations

import functools
import gettext
import io
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural
from babel.messages.pofile import PoFileError, read_po

from site_builder.errors import Problem
from site_builder.i18n.gnu import babel_readable, gnu_readable
from site_builder.i18n.lint import structure_problems
from site_builder.project import (
    DOMAIN,
    LOCALES_DIR,
    SOURCE_LANG,
    po_path,
)
from site_builder.sources.files import decode_utf8, not_regular


def parse_locale(lang: str) -> Locale:
    """A Babel locale for *lang*, or a ValueError that says what is wrong."""
    try:
        return Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError) as exc:
        raise ValueError(f"unknown language code {lang!r} ({exc}); use a CLDR code such "
                         "as ms, pl, vi or id") from None


def folder_problem(lang: str) -> Problem | None:
    """Why ``locales/LANG/`` cannot hold a catalog: its name is the language's code, as
    gettext writes it (``pt_BR``, not ``pt-BR``), and CLDR must know it."""
    if "-" in lang:
        return Problem(po_path(lang), 0, f"gettext writes a language code with '_': rename "
                                         f"locales/{lang}/ to locales/{lang.replace('-', '_')}/")
    try:
        code = str(parse_locale(lang))
    except ValueError as exc:
        return Problem(po_path(lang), 0, f"{exc}; the folder's name is the language's code")
    if code != lang:  # e.g. Pl beside pl: two sites of one language (one folder on macOS)
        return Problem(po_path(lang), 0, f"the language's code is written {code}: rename "
                                         f"locales/{lang}/ to locales/{code}/")
    return None


def bcp47(lang: str) -> str:
    """The code of *lang* as HTML's ``lang`` and ``hreflang`` want it (BCP 47): a
    catalog folder is named as gettext names locales, ``pt_BR``; HTML says ``pt-BR``.

    >>> bcp47("pt_BR"), bcp47("sr_Latn"), bcp47("pl")
    ('pt-BR', 'sr-Latn', 'pl')
    """
    return lang.replace("_", "-")


def text_direction(lang: str) -> str:
    """``rtl`` for a language written right to left (CLDR's character order), else ``ltr``.

    >>> text_direction("ar"), text_direction("vi")
    ('rtl', 'ltr')
    """
    return "rtl" if parse_locale(lang).character_order == "right-to-left" else "ltr"


@functools.cache
def num_plurals(lang: str) -> int:
    """How many plural forms a gettext catalog for *lang* has (from CLDR via Babel)."""
    return int(get_plural(parse_locale(lang)).num_plurals)


@functools.cache
def single_count_forms(lang: str) -> dict[int, int]:
    """The plural forms of *lang* that one count alone selects, each with that count
    (from CLDR's plural rule, via Babel). Such a form may name the count in words instead
    of ``{n}``, as ``msgfmt --check`` allows: Polish form 0 is n = 1 alone, while each of
    Vietnamese's or Malay's forms serves every count.

    >>> single_count_forms("pl"), single_count_forms("vi"), single_count_forms("ru")
    ({0: 1}, {}, {})
    """
    pick = gettext.c2py(get_plural(parse_locale(lang)).plural_expr)
    counts: dict[int, list[int]] = {}
    for n in range(1000):
        counts.setdefault(pick(n), []).append(n)
    return {form: ns[0] for form, ns in sorted(counts.items()) if len(ns) == 1}


# Each language's name for itself comes from CLDR (via Babel), except where CLDR's name,
# shown beside a neighbour's in the switcher, reads as something else. Each entry says
# why; a language not listed here is named by CLDR.
NATIVE_NAMES = {
    # CLDR (Babel 2.19, CLDR 49) says "Indonesia", which is the country; the language is
    # "Bahasa Indonesia" (issue 16).
    "id": "Bahasa Indonesia",
    # CLDR says "Melayu", which alone names the people (orang Melayu) as much as their
    # language, and beside "Bahasa Indonesia" looks like a different kind of item; the
    # language is "Bahasa Melayu", as Malay readers and the Malay review call it
    # (issue 27, ms-21).
    "ms": "Bahasa Melayu",
}


def native_name(lang: str) -> str:
    """The language's own name for itself: CLDR's (capitalised, as a switcher item
    starts), or :data:`NATIVE_NAMES`'s where CLDR's is ambiguous beside a neighbour.

    >>> [native_name(lang) for lang in ("pl", "vi", "ms", "id")]
    ['Polski', 'Tiếng Việt', 'Bahasa Melayu', 'Bahasa Indonesia']
    """
    if lang in NATIVE_NAMES:
        return NATIVE_NAMES[lang]
    locale = parse_locale(lang)
    name = locale.get_display_name(locale) or lang
    return name[:1].upper() + name[1:]


def native_names(langs: Iterable[str]) -> dict[str, str]:
    """Each language's :func:`native_name`; none for a language CLDR does not know (its
    catalog's problem, which :func:`load_catalog` reports)."""
    names = {}
    for lang in langs:
        try:
            names[lang] = native_name(lang)
        except ValueError:
            pass
    return names


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
    data = babel_readable(gnu_readable((root / rel).read_bytes() if data is None else data))
    text, problem = decode_utf8(data, rel)
    if text is None:
        return None, [problem] if problem else []
    syntax = po_syntax_problem(text)
    if syntax is not None:
        return None, [Problem(rel, syntax[0], f"syntax error in catalog: {syntax[1]}")]

    # what Babel lets through (issue 14), and what it refuses in words of its own
    language = parse_locale(lang).english_name or lang
    lint = structure_problems(text, num_plurals(lang), language)
    if lint:
        return None, [Problem(rel, line, message) for line, message in lint]
    if not comments:
        data = _UNREAD_COMMENTS.sub(b"", data)
    try:
        catalog = read_po(io.BytesIO(data), locale=lang, domain=DOMAIN, abort_invalid=True)
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


_PO_LINE = re.compile(
    r'^(?:#~\s*)?(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"(?:[^"\\]|\\.)*"\s*$')
# The first line that may not be valid (as _PO_LINE and the rules of po_syntax_problem
# say), found in one scan of the whole text.
_SUSPECT_LINE = re.compile(
    r'^(?![^\S\n]*(?:$|#(?!~)|#~[^\S\n]*$|(?:#~[^\S\n]*)?'
    r'(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)[^\S\n]+)?"(?:[^"\\\n]|\\.)*"[^\S\n]*$))',
    re.MULTILINE)


def po_syntax_problem(text: str) -> tuple[int, str] | None:
    r"""The first line that is not valid PO syntax, with what is wrong, or None.

    Babel's reader is lenient (it silently drops a missing closing quote), so lines
    are checked first, as ``msgfmt`` does. A line ends at ``\n`` only, as for gettext
    and Babel: a U+2028 or NEL inside a string is a character of the string.

    >>> po_syntax_problem('msgid "a"\nmsgstr "b"\n')
    >>> po_syntax_problem('msgid "a"\nmsgstr "b\u2028c"\n')
    >>> po_syntax_problem('msgid "a\nmsgstr "b"\n')
    (1, 'unterminated or malformed string: \'msgid "a\'; every string is "..." with \\" inside')
    """
    if not _SUSPECT_LINE.search(text):
        return None  # every line is fine: known in one scan
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if not stripped or (stripped.startswith("#") and not stripped.startswith("#~")):
            continue
        if stripped.startswith("#~") and not stripped[2:].strip():
            continue
        if not _PO_LINE.match(stripped):
            return number, (f"unterminated or malformed string: {stripped[:60]!r}; "
                            'every string is "..." with \\" inside')
    return None


def is_translated(message: Message | Entry) -> bool:
    """A message counts as translated when it is not fuzzy and every form is filled in."""
    if message.fuzzy or not message.id:
        return False
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return all(bool(s) for s in strings)


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a verified catalog, as the site reads it (:class:`Translations`)."""

    string: str | tuple[str, ...]
    fuzzy: bool
    lineno: int | None
    id: bool = True  # an entry has a msgid (as :func:`is_translated` asks a Babel message)


class Translations:
    """A language's catalog once verified, kept small for rendering: each entry's ids,
    strings, fuzzy flag and line, looked up as a Babel catalog's ``get`` looks them up.
    (A Babel ``Message`` holds far more: at 5,000 pages the four catalogs took 45 MiB as
    Babel catalogs.)

    >>> from babel.messages.catalog import Catalog
    >>> catalog = Catalog(locale="pl")
    >>> _ = catalog.add("Melds", "Układy", context="nav")
    >>> Translations(catalog).get("Melds", "nav").string, Translations(catalog).get("Melds")
    ('Układy', None)
    """

    __slots__ = ("_entries",)

    def __init__(self, catalog: Catalog) -> None:
        self._entries: dict[tuple[str, str | None], Entry] = {}
        for m in catalog:
            if m.id:
                string = (tuple(m.string) if isinstance(m.string, list | tuple)
                          else m.string or "")
                # the msgid once for every language (sys.intern), not once a catalog
                self._entries[(sys.intern(_singular(m.id)), m.context)] = Entry(
                    string, m.fuzzy, m.lineno)

    def get(self, id: str | Sequence[str], context: str | None = None) -> Entry | None:
        return self._entries.get((_singular(id), context))


def _singular(msgid: Any) -> str:
    return str(msgid[0] if isinstance(msgid, list | tuple) else msgid)


def N_(text: str) -> str:
    """Mark *text* for extraction where it is defined apart from its lookup (a table of
    labels the code passes to ``translator.gettext`` later): Babel's Python extractor
    finds ``N_("...")``; the text is returned as it is.

    >>> N_("Go to the rules index")
    'Go to the rules index'
    """
    return text


Key = tuple[str, str | None]  # how a catalog keys a message: its (singular) msgid, context


def template_keys(source: Catalog) -> dict[Key, str | tuple[str, ...]]:
    """Each message of the template catalog *source* (what ``i18n extract`` writes as
    ``locales/messages.pot``) by its key, with its msgid (a plural's is a tuple)."""
    return {(_singular(m.id), m.context): (tuple(m.id) if isinstance(m.id, list | tuple)
                                           else str(m.id))
            for m in source if m.id}


@dataclass(frozen=True)
class Unknown:
    """A message looked up that the template lacks (its translation can never be in a
    catalog: ``i18n update`` keeps only the template's messages), where it was looked up."""

    msgid: str | tuple[str, ...]
    context: str | None
    path: str
    line: int

    def problem(self) -> Problem:
        text = self.msgid if isinstance(self.msgid, str) else self.msgid[0]
        what = "message" if isinstance(self.msgid, str) else "plural message"
        if self.context is not None:
            what += f" (context {self.context!r})"
        return Problem(self.path, self.line, f"{what} {_quoted(text)} is not in "
                                             "locales/messages.pot; run site-builder i18n "
                                             "extract (the text must be a literal in the "
                                             "gettext call, or in the content, for the "
                                             "extractor to find it)")


def _quoted(text: str) -> str:
    r"""*text* in double quotes, as a catalog writes it.

    >>> print(_quoted('Say "hi"\n'))
    "Say \"hi\"\n"
    """
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


# Where a lookup comes from: the first frame outside the translator, the templates'
# gettext callables and Jinja2's runtime; a template's line from Jinja2's debug info.
_HERE = __file__
_TEMPLATE_CALLS = str(Path(__file__).resolve().parent.parent / "sources" / "templates.py")
_CODE_ROOT = Path(__file__).resolve().parent.parent.parent
_JINJA = str(Path(jinja2.__file__).resolve().parent)


def lookup_location() -> tuple[str, int]:
    """The template line (``templates/_cards.html``, 12) or the code line
    (``site_builder/render/site_files.py``, 34) that looked a message up: the innermost
    caller outside this module, the templates' gettext callables and Jinja2."""
    frame: Any = sys._getframe(1)
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None and template.name is not None:
            return (f"templates/{template.name}",
                    template.get_corresponding_lineno(frame.f_lineno))
        filename = frame.f_code.co_filename
        if filename not in (_HERE, _TEMPLATE_CALLS) and not filename.startswith(_JINJA):
            path = Path(filename)
            try:
                return path.resolve().relative_to(_CODE_ROOT).as_posix(), frame.f_lineno
            except ValueError:
                return path.as_posix(), frame.f_lineno
        frame = frame.f_back
    return "site-builder", 0


@dataclass
class Translator:
    """Looks up translations for one language; anything untranslated falls back to English.

    *catalog* is anything with a Babel-style ``get(id, context)``: a Babel ``Catalog``
    (or a few of its messages), or None for the source language. *known*: the template's
    messages (:func:`template_keys`); a lookup of any other message is kept in
    :attr:`unknown` with the template or code line that made it (None: not watched).
    """

    lang: str
    catalog: Any = None
    known: Mapping[Key, str | tuple[str, ...]] | None = None
    unknown: dict[Key, Unknown] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._plural = get_plural(self.lang) if self.lang != SOURCE_LANG else get_plural("en")

    @property
    def is_source(self) -> bool:
        return self.lang == SOURCE_LANG

    def _watch(self, msgid: str | tuple[str, ...], context: str | None) -> None:
        """Keep *msgid* in :attr:`unknown` if the template lacks it (a plural lookup
        wants the template's plural, a singular one its singular)."""
        if self.known is None or not msgid:
            return
        key = (_singular(msgid), context)
        if self.known.get(key) != msgid and key not in self.unknown:
            self.unknown[key] = Unknown(msgid, context, *lookup_location())

    def _message(self, text: str | tuple[str, ...], context: str | None) -> Any:
        """The translated message of *text*, or None if it is missing or fuzzy."""
        if self.catalog is None or not text:
            return None
        message = self.catalog.get(text, context)
        return message if message is not None and is_translated(message) else None

    def lookup(self, text: str, context: str | None = None) -> str | None:
        """The translation of *text*, or None if it is missing or fuzzy."""
        self._watch(text, context)
        return self._lookup(text, context)

    def gettext(self, text: str, context: str | None = None) -> str:
        self._watch(text, context)
        found = self._lookup(text, context)
        return text if found is None else found

    def _lookup(self, text: str, context: str | None) -> str | None:
        if self.is_source:
            return text
        message = self._message(text, context)
        return None if message is None else str(message.string)

    def ngettext(self, singular: str, plural: str, n: int, context: str | None = None) -> str:
        self._watch((singular, plural), context)
        message = None if self.is_source else self._message((singular, plural), context)
        if message is None or isinstance(message.string, str):  # no plural in the catalog
            return singular if n == 1 else plural
        forms = message.string
        index = _plural_index(self._plural.plural_expr, n)
        return str(forms[min(index, len(forms) - 1)])


_PLURAL_FUNCS: dict[str, Any] = {}


def _plural_index(expr: str, n: int) -> int:
    func = _PLURAL_FUNCS.get(expr)
    if func is None:
        func = _PLURAL_FUNCS[expr] = gettext.c2py(expr)
    return int(func(n))


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
