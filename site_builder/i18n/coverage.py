"""Translation coverage, counted in one place: for ``i18n stats``, each language's
status page and ``check``'s warnings.

Every message a reader may see (the template catalog,
:func:`site_builder.i18n.messages.source_catalog`: the pages' segments, the rule profiles'
names, the templates' strings) counts as translated, fuzzy or untranslated in a
language's catalog, overall and on each page that shows it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from babel.messages.catalog import Catalog

from site_builder.errors import Problem
from site_builder.i18n.translator import N_, Translations, Unknown, is_translated
from site_builder.project import po_path


@dataclass
class Counts:
    translated: int = 0
    fuzzy: int = 0
    untranslated: int = 0

    @property
    def total(self) -> int:
        return self.translated + self.fuzzy + self.untranslated

    def add(self, state: str, n: int = 1) -> None:
        """Count *n* more messages in *state* (see :func:`coverage_state`)."""
        setattr(self, state, getattr(self, state) + n)

    @property
    def percent(self) -> float:
        """The share translated, rounded down to a tenth: 100.0 only when all is, and
        ``--fail-under 75`` fails 452 of 603 (74.96%).

        >>> Counts(452, 151, 0).percent, Counts(603, 0, 0).percent, Counts(602, 1, 0).percent
        (74.9, 100.0, 99.8)
        """
        return 1000 * self.translated // self.total / 10 if self.total else 100.0

    def as_json(self) -> dict[str, Any]:
        return {"translated": self.translated, "fuzzy": self.fuzzy,
                "untranslated": self.untranslated, "percent": self.percent}


def page_of(location: str) -> str:
    """Group a reference by page: ``content/first-meld.md`` → ``first-meld``; the
    templates' strings are ``templates``, the code's (``site_builder/``) ``code``.

    >>> page_of("content/first-meld.md"), page_of("site_builder/render/site_files.py")
    ('first-meld', 'code')
    """
    if location.startswith("content/") and location.endswith(".md"):
        return location[len("content/"):-3]
    if location.startswith("templates/"):
        return "templates"
    return "code" if location.endswith(".py") else "profiles"


#: What the status page calls the groups of texts that are not a content page's
#: (:func:`page_of`'s names).
GROUP_TITLES = {
    # Translators: on the translation status page, the group of texts shared by every page:
    # the menu, buttons, table headings and labels.
    "templates": N_("Menus, buttons and tables"),
    # Translators: on the translation status page, the group of texts the site's tools say:
    # the meld checker's, the practice table's and the score sheet's messages and refusals.
    "code": N_("Messages of the meld checker, the practice table and the score sheet"),
    # Translators: on the translation status page, the group of the rule sets' names and
    # descriptions (the reference rules and the published variations).
    "profiles": N_("Rule sets"),
}


def left_by_page(pages: dict[str, Counts]) -> list[tuple[str, Counts]]:
    """The pages (and groups) of *pages* (:func:`coverage`'s counts) with a text still to
    translate or check: the content pages first (by slug), then the groups.

    >>> [page for page, _ in left_by_page({"code": Counts(1, 0, 2), "turn": Counts(3),
    ...                                    "melds": Counts(1, 1, 0)})]
    ['melds', 'code']
    """
    left = [(page, counts) for page, counts in pages.items() if counts.fuzzy or counts.untranslated]
    return sorted(left, key=lambda item: (item[0] in GROUP_TITLES, item[0]))


Shown = list[tuple[Any, str | None, list[str]]]  # each message: id, context, its pages


def shown(source: Catalog) -> Shown:
    """Each message of *source* with an id, and the pages that show it (:func:`page_of`),
    as :func:`coverage` counts them: worked out once for every language."""
    return [(message.id, message.context,
             sorted({page_of(loc) for loc, _ in message.locations}))
            for message in source if message.id]


def coverage(source: Shown, catalog: Translations | None) -> tuple[Counts, dict[str, Counts]]:
    """Count each source message (*source*: what :func:`shown` gave of the template
    catalog) as translated, fuzzy or untranslated, overall and per page."""
    overall = Counts()
    pages: dict[str, Counts] = {}
    for id, context, shown_on in source:
        found = catalog.get(id, context) if catalog is not None else None
        state = coverage_state(found)
        overall.add(state)
        for page in shown_on:
            pages.setdefault(page, Counts()).add(state)
    return overall, dict(sorted(pages.items()))


def with_unknown(overall: Counts, pages: dict[str, Counts], unknown: Iterable[Unknown]
                 ) -> tuple[Counts, dict[str, Counts]]:
    """*overall* and *pages* (:func:`coverage`'s counts) with each message looked up that
    the template lacks (:class:`~site_builder.i18n.translator.Unknown`) counted as
    untranslated, on the page of the line that looked it up: its readers see English,
    and no catalog can translate it until it is extracted.

    >>> from site_builder.i18n.translator import Unknown
    >>> more = [Unknown("Back", None, "site_builder/render/site_files.py", 45)]
    >>> overall, pages = with_unknown(Counts(3), {"rules": Counts(3)}, more)
    >>> overall.percent, pages["code"].untranslated, pages["rules"].total
    (75.0, 1, 3)
    """
    overall = dataclasses.replace(overall)
    pages = {page: dataclasses.replace(counts) for page, counts in pages.items()}
    for message in unknown:
        overall.add("untranslated")
        pages.setdefault(page_of(message.path), Counts()).add("untranslated")
    return overall, dict(sorted(pages.items()))


def coverage_state(found: Any) -> str:
    """How a message counts: ``translated``, ``fuzzy`` or ``untranslated``, given what
    its catalog holds for it (None if nothing)."""
    if found is not None and is_translated(found):
        return "translated"
    if found is not None and found.fuzzy and found.string:
        return "fuzzy"
    return "untranslated"


def untranslated(source: Catalog, catalogs: dict[str, Translations]) -> list[Problem]:
    """A problem for each message a language shows in English: at its catalog entry when
    the catalog has one (fuzzy or empty), else where the English text is."""
    found: list[Problem] = []
    for lang, catalog in catalogs.items():
        for message in source:
            if not message.id:
                continue
            entry = catalog.get(message.id, message.context)
            state = coverage_state(entry)
            if state == "translated":
                continue
            text = message.id if isinstance(message.id, str) else message.id[0]
            what = "fuzzy" if state == "fuzzy" else "missing"
            said = f"[{lang}] {what} translation, shown in English: {text!r}"
            if entry is not None and entry.lineno:
                found.append(Problem(po_path(lang), entry.lineno, said))
            else:
                path, line = message.locations[0]
                found.append(Problem(path, line, said))
    return found


EDITED_MSGID = ("this msgid is not in the template: did you edit the English instead of the "
                "translation? Put the msgid back as it was and edit the msgstr below it (if "
                "the English changed in content/ or templates/, run 'site-builder i18n "
                "extract' and 'i18n update')")


def orphans(source: Catalog, catalogs: dict[str, Translations]) -> list[Problem]:
    """A problem at each catalog entry whose msgid (with its context) the template lacks:
    an edited msgid, or a catalog not updated since the English changed. The page shows
    English for the msgid it lost (:func:`untranslated` names it too).

    >>> from babel.messages.catalog import Catalog
    >>> source, pl = Catalog(), Catalog(locale="pl")
    >>> _ = source.add("Goal"), pl.add("Goal", "Cel", lineno=3), pl.add("Gaol", "Cel", lineno=7)
    >>> [(p.line, p.message[:38]) for p in orphans(source, {"pl": Translations(pl)})]
    [(7, '[pl] this msgid is not in the template')]
    """
    known = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in source if m.id}
    found = []
    for lang, catalog in catalogs.items():
        for key in catalog.keys():
            entry = catalog.get(*key)
            if key not in known and entry is not None and entry.lineno:
                found.append(Problem(po_path(lang), entry.lineno, f"[{lang}] {EDITED_MSGID}: "
                                                                  f"{key[0][:60]!r}"))
    return found


def listed(warnings: list[Problem], cap: int = 10) -> list[str]:
    """The lines ``check`` prints for *warnings* (missing, fuzzy or edited entries, each
    message starting with its ``[lang]``): each at its ``path:line``, at most *cap* a
    language, then how many more, so that a new language's thousand missing entries stay
    readable.

    >>> lines = listed([Problem("a.po", n, "[de] missing") for n in range(1, 1001)], 2)
    >>> lines[0], lines[-1]
    ('a.po:1: [de] missing', "[de] 998 more missing or fuzzy: 'site-builder i18n stats' \
counts them by page, 'check --strict' lists them all")
    """
    by_lang: dict[str, list[Problem]] = {}
    # an edited msgid first, then a fuzzy entry: what a translator did, before what is left
    for problem in sorted(warnings, key=lambda p: (EDITED_MSGID not in p.message,
                                                   "] fuzzy" not in p.message)):
        by_lang.setdefault(problem.message.split(" ", 1)[0], []).append(problem)
    lines = []
    for lang, found in by_lang.items():
        lines += [f"{p.path}:{p.line}: {p.message}" for p in found[:cap]]
        if len(found) > cap:
            lines.append(f"{lang} {len(found) - cap:,} more missing or fuzzy: 'site-builder "
                         "i18n stats' counts them by page, 'check --strict' lists them all")
    return lines
