"""Checks on every translation, run by ``build`` and ``check``.

Each failure is a :class:`Problem` at the catalog line of the entry, quoting the msgid:

* the same ``{brace}`` and ``%`` placeholders as the source;
* the same numbers as the source;
* Markdown kept intact: link targets, emphasis, inline code; no raw HTML added;
* plural entries with the locale's number of forms (CLDR, via Babel);
* card names and game terms: every card-name entry translated, the language's terms
  used (its term file, :mod:`site_builder.i18n.terms`).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any, NamedTuple

from babel.messages.catalog import Message

from site_builder.errors import Problem
from site_builder.i18n.catalog import LoadedCatalog
from site_builder.i18n.locales import num_plurals, single_count_forms
from site_builder.i18n.terms import Terms, term_problems, terms_path
from site_builder.i18n.translator import is_translated
from site_builder.sources.segment import html_tags, link_targets, translation_problems

BRACE_RE = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_.]*)(?:![rsa])?(?::[^{}]*)?\}(?!\})")
# possessive (*+): each part matches a set of characters the next cannot start with, so
# the matches are the same, and a run of zeros is not tried in every split: no text stalls it
PERCENT_RE = re.compile(
    r"%(?:\([A-Za-z_][A-Za-z0-9_]*+\))?[-#0 +]*+\d*+(?:\.\d++)?[diouxXeEfFgGcrsa%]")
NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)*")
CODE_RE = re.compile(r"`([^`]+)`")
EMPHASIS_RE = re.compile(r"(\*\*|__|\*|(?<!\w)_(?!\w))")

# Contexts whose entries must all be translated: a card must never be named half in English.
CARD_CONTEXTS = ("rank", "suit", "card")

def _strings(message: Message) -> list[str]:
    value = message.string
    if isinstance(value, tuple | list):
        return [str(v) for v in value]
    return [str(value)]


def _ids(message: Message) -> list[str]:
    return [str(v) for v in message.id] if isinstance(message.id, tuple | list) else [message.id]


def _stripped(text: str) -> str:
    """Text without placeholders and code spans, for the number check."""
    if "{" in text:
        text = BRACE_RE.sub(" ", text)
    return CODE_RE.sub(" ", text) if "`" in text else text


def check_message(message: Message, lang: str) -> list[str]:
    """Every problem with one translated entry, as sentences (empty when it is fine).

    >>> from babel.messages.catalog import Message
    >>> check_message(Message("At least {n} points", "Co najmniej {m} pkt"), "pl")[0][:60]
    'placeholders differ: the source has {n}, the translation has'
    >>> check_message(Message("Worth 40 points", "Warte 41 pkt"), "pl")[0][:59]
    'numbers differ: the source has 40, the translation has 41; '
    """
    strings = _strings(message)
    if not message.id or not any(strings):
        return []
    if any(form and not form.strip() for form in strings):
        # an empty msgstr is the mark of an untranslated message; spaces are a mistake
        return ['the translation is only spaces; write it, or leave msgstr "" empty to '
                "show the English (untranslated)"]
    problems: list[str] = []
    ids = _ids(message)
    source, plural_source = ids[0], ids[-1]
    pluralizable = message.pluralizable
    if pluralizable:
        expected_forms = num_plurals(lang)
        filled = sum(1 for form in strings if form)
        if filled != expected_forms or len(strings) != filled:
            problems.append(f"plural entry has {filled} forms, but {lang} needs "
                            f"{expected_forms} (CLDR); fill in msgstr[0] to "
                            f"msgstr[{expected_forms - 1}]")
    single = single_count_forms(lang) if pluralizable else {}
    for index, translated in enumerate(strings):
        if not translated:
            continue
        # every form against the plural msgid (it names {n}); a form that one count
        # alone selects may name that count instead
        src = plural_source if pluralizable else source
        found = _compare(src, translated, single.get(index))
        if pluralizable:
            found = [f"msgstr[{index}]: {problem}" for problem in found]
        problems.extend(found)
    return problems


# Every pattern below needs one of these characters; text with none of them passes.
_MARKUP_RE = re.compile(r"[{%\d\]`*_<]")
_DIGIT_RE = re.compile(r"\d")


class _Marks(NamedTuple):
    """What the checks compare in one text: placeholders, numbers and Markdown."""

    markup: bool  # whether the text holds any character the patterns need
    braces: list[str]
    percents: list[str]
    numbers: list[str]
    links: list[str]
    code: list[str]
    emphasis: list[str]


_NO_MARKS = _Marks(False, [], [], [], [], [], [])


def _marks(text: str) -> _Marks:
    if not _MARKUP_RE.search(text):
        return _NO_MARKS
    return _Marks(
        True,
        [m.group(0) for m in BRACE_RE.finditer(text)] if "{" in text else [],
        [m.group(0) for m in PERCENT_RE.finditer(text)] if "%" in text else [],
        NUMBER_RE.findall(_stripped(text)) if _DIGIT_RE.search(text) else [],
        link_targets(text),
        CODE_RE.findall(text) if "`" in text else [],
        EMPHASIS_RE.findall(CODE_RE.sub("", text)) if "*" in text or "_" in text else [],
    )


# A source text is checked against each language's translation: look at it once.
_source_marks = functools.lru_cache(maxsize=4096)(_marks)


def _compare(src: str, dst: str, alone: int | None = None) -> list[str]:
    """What differs between source *src* and translation *dst*. *alone*: for a plural form
    that one count alone selects, that count, which the form may name in words instead of
    ``{n}`` (Polish "jeden punkt" for n = 1), or write as a figure."""
    # only the markup (and the placeholders) the source uses, with no block markup
    problems: list[str] = translation_problems(src, dst)
    a, b = _source_marks(src), _marks(dst)
    if not a.markup and not b.markup:
        return problems
    count_named = alone is not None and "{n}" in a.braces and "{n}" not in b.braces
    for name, found_a, found_b, hint in (
        ("placeholders", a.braces, b.braces, "keep every {name} exactly as in the source"),
        ("printf placeholders", a.percents, b.percents,
         "keep every %-placeholder exactly as in the source"),
    ):
        if not _differ(found_a, found_b) or (name == "printf placeholders" and not found_a):
            continue  # a source without %-placeholders is not %-formatted: "{percent}% done"
        ca, cb = Counter(found_a), Counter(found_b)
        if count_named and name == "placeholders":
            ca["{n}"] -= 1
        if +ca != cb:
            problems.append(f"{name} differ: the source has {_list(+ca)}, the translation has "
                            f"{_list(cb)}; {hint}")
    if _differ(a.numbers, b.numbers):
        na, nb = Counter(a.numbers), Counter(b.numbers)
        if count_named:
            nb[str(alone)] -= 1
        if na != +nb:
            problems.append(f"numbers differ: the source has {_list(na)}, the translation has "
                            f"{_list(+nb)}; numbers must not change in translation")
    if _differ(a.links, b.links):
        problems.append(f"link targets differ: the source links to {_list(Counter(a.links))}, "
                        f"the translation to {_list(Counter(b.links))}; keep every "
                        "[text](target) target as in the source")
    if _differ(a.code, b.code):
        problems.append(f"inline code differs: the source has {_list(Counter(a.code), '`')}, "
                        f"the translation has {_list(Counter(b.code), '`')}; code spans stay "
                        "untranslated")
    if _differ(a.emphasis, b.emphasis):
        problems.append("emphasis markers differ: keep the same *emphasis* and **strong** "
                        "markers as the source, each opened and closed")
    added = Counter(m.lower() for m in html_tags(dst)) - Counter(
        m.lower() for m in html_tags(src)) if "<" in dst else None
    if added:
        problems.append(f"raw HTML is not allowed in a translation: {_list(added)}; "
                        "use Markdown instead")
    return problems


def _differ(a: list[str], b: list[str]) -> bool:
    """Whether two lists differ as multisets (a cheap ``Counter(a) != Counter(b)``)."""
    return a != b and sorted(a) != sorted(b)


def _list(counter: Counter[str], quote: str = "") -> str:
    items = list(counter.elements())
    return ", ".join(f"{quote}{i}{quote}" for i in items) if items else "none"


def check_terms(message: Message, terms: Terms) -> list[str]:
    """Where the source names a game term, the translation must use the language's term,
    and never a word its term file says to avoid (:mod:`site_builder.i18n.terms`).

    >>> from babel.messages.catalog import Message
    >>> from site_builder.i18n.terms import read_terms
    >>> terms = read_terms('[terms]\\nhearts = "kier"\\nsequence = "sekwens"\\n', "t")[0]
    >>> check_terms(Message("Queen of hearts", "dama pik"), terms)
    ["game term 'hearts' must be translated with a word that begins 'kier' (t:2)"]
    >>> check_terms(Message("Sets and sequences", "Grupy i strity"), terms)
    ["game term 'sequence' must be translated with a word that begins 'sekwens' (t:3)"]
    >>> import unicodedata
    >>> vi = read_terms('[terms]\\nsequence = "sảnh"\\n', "t")[0]
    >>> check_terms(Message("A sequence", unicodedata.normalize("NFD", "Một sảnh")), vi)
    []
    """
    if not (terms.required or terms.avoid) or not is_translated(message):
        return []
    return term_problems(" ".join(_ids(message)), " ".join(_strings(message)), terms)


def check_catalog(loaded: LoadedCatalog, required_contexts: Iterable[tuple[str, str]] = (),
                  terms: Terms | None = None) -> list[Problem]:
    """Check every entry of a catalog (see :class:`CatalogChecker`), with its
    language's *terms* (none if not given)."""
    checker = CatalogChecker(loaded.lang, loaded.path, required_contexts, terms)
    for message in loaded.catalog:
        checker.add(message)
    return checker.finish()


class CatalogChecker:
    """Checks a catalog's entries one at a time, as they are read.

    *required_contexts* lists the (context, msgid) card terms; they may instead be given
    to :meth:`finish`, so that a catalog can be checked before the templates that name
    the terms are read. Once a catalog translates any of them it must translate all, so
    that no card is named half in English; a new language that has translated none
    falls back to English card names throughout.
    """

    def __init__(self, lang: str, path: str,
                 required_contexts: Iterable[tuple[str, str]] = (),
                 terms: Terms | None = None) -> None:
        self.lang = lang
        self.terms = Terms(terms_path(lang)) if terms is None else terms
        self.path = path
        self.problems: list[Problem] = []
        self.required = list(required_contexts)
        # each card-context entry: whether it is translated, and its line
        self.cards: dict[tuple[str, str], tuple[bool, int]] = {}

    def add(self, message: Any) -> None:
        """Check one entry (a Babel ``Message`` or a :class:`site_builder.po.PoMessage`)."""
        msgid = _ids(message)[0] if message.id else ""
        if message.context in CARD_CONTEXTS:
            self.cards[(message.context, msgid)] = (is_translated(message), message.lineno or 0)
        if not message.id or message.fuzzy:
            return  # a fuzzy entry is never published: it waits for its translator
        for sentence in check_message(message, self.lang) + check_terms(message, self.terms):
            shown = msgid if len(msgid) <= 60 else msgid[:57] + "..."
            self.problems.append(Problem(self.path, message.lineno or 0,
                                         f"{sentence} (msgid {shown!r})"))

    def finish(self, required_contexts: Iterable[tuple[str, str]] | None = None
               ) -> list[Problem]:
        """Every problem found, the card terms' last (those of *required_contexts*, if
        given, else those given when the checker was made)."""
        problems = list(self.problems)
        terms = self.required if required_contexts is None else required_contexts
        required = {term: self.cards.get(term, (False, 0)) for term in terms}
        if any(translated for translated, _ in required.values()):
            for (context, msgid), (translated, line) in required.items():
                if not translated:
                    problems.append(Problem(self.path, line or 1,
                                            f"card term {msgid!r} (context {context!r}) is not "
                                            "translated; card names must be complete"))
        return problems
