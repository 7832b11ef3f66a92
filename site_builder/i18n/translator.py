"""Looking translations up, with English fallback: a verified catalog kept small for
rendering (:class:`Translations`), the :class:`Translator` the templates and the code call,
and each message looked up that the template lacks (:class:`Unknown`), with the template
or code line that looked it up.

A fuzzy or empty translation is never used: the English source is shown instead, and the
page says it is partly translated.
"""

from __future__ import annotations

import functools
import gettext
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural

from site_builder.errors import Problem
from site_builder.project import SOURCE_LANG


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

    def keys(self) -> list[tuple[str, str | None]]:
        """Each entry's (singular msgid, context), in the catalog's order."""
        return list(self._entries)

    def rows(self) -> list[list[Any]]:
        """Every entry as JSON rows (:meth:`from_rows`): for the next process's build.

        >>> catalog = Catalog(locale="pl")
        >>> _ = catalog.add(("card", "cards"), ("karta", "karty", "kart"))
        >>> again = Translations.from_rows(Translations(catalog).rows())
        >>> again.get("card").string, again.get("cards")
        (('karta', 'karty', 'kart'), None)
        >>> Translations.from_rows([["card", None, "karta", False, True]]) is None
        True
        """
        return [[id, context, list(e.string) if isinstance(e.string, tuple) else e.string,
                 e.fuzzy, e.lineno] for (id, context), e in self._entries.items()]

    @classmethod
    def from_rows(cls, rows: Any) -> Translations | None:
        """The translations that :meth:`rows` gave, or None if *rows* are not of that shape
        (a damaged cache is made again, never trusted)."""
        made = cls(Catalog())
        try:
            for id, context, string, fuzzy, lineno in rows:
                if not (isinstance(id, str) and isinstance(context, str | None)
                        and isinstance(fuzzy, bool)
                        and (lineno is None or type(lineno) is int)):
                    return None
                if isinstance(string, list) and all(isinstance(s, str) for s in string):
                    string = tuple(string)
                elif not isinstance(string, str):
                    return None
                made._entries[(sys.intern(id), context)] = Entry(string, fuzzy, lineno)
        except (TypeError, ValueError):
            return None
        return made


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


def pgettext(context: str, text: str) -> str:
    """Mark *text*, in *context*, for extraction where it is defined apart from its lookup
    (Babel's Python extractor finds ``pgettext("...", "...")`` with literals); the text is
    returned as it is.

    >>> pgettext("translator's preview", "Save")
    'Save'
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
    # the translator's preview only (site_builder/translate/marks.py): each text given,
    # marked with its entry (msgid, context, text); None in every other build
    mark: Callable[[str, str | None, str], str] | None = None

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
        given = text if found is None else found
        return given if self.mark is None or not text else self.mark(text, context, given)

    def _lookup(self, text: str, context: str | None) -> str | None:
        if self.is_source:
            return text
        message = self._message(text, context)
        return None if message is None else str(message.string)

    def ngettext(self, singular: str, plural: str, n: int, context: str | None = None) -> str:
        self._watch((singular, plural), context)
        message = None if self.is_source else self._message((singular, plural), context)
        if message is None or isinstance(message.string, str):  # no plural in the catalog
            given = singular if n == 1 else plural
        else:
            forms = message.string
            given = str(forms[min(_plural_index(self._plural.plural_expr, n), len(forms) - 1)])
        return given if self.mark is None else self.mark(singular, context, given)


@functools.cache
def _plural_func(expr: str) -> Any:
    """The plural rule *expr* compiled (gettext's ``c2py``), once per rule."""
    return gettext.c2py(expr)


def _plural_index(expr: str, n: int) -> int:
    return int(_plural_func(expr)(n))
