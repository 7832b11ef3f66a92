"""Languages as CLDR knows them (through Babel): a language's locale, its BCP 47 tag, its
text direction, its plural forms and its own name, and whether a ``locales/`` folder names
one. What render asks for every page, and the checks of catalogs ask of a language."""

from __future__ import annotations

import functools
import gettext
from collections.abc import Iterable

from babel import Locale, UnknownLocaleError
from babel.messages.plurals import get_plural

from site_builder.errors import Problem
from site_builder.project import po_path


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
    # "Bahasa Indonesia".
    "id": "Bahasa Indonesia",
    # CLDR says "Melayu", which alone names the people (orang Melayu) as much as their
    # language, and beside "Bahasa Indonesia" looks like a different kind of item; the
    # language is "Bahasa Melayu", as Malay readers call it.
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
