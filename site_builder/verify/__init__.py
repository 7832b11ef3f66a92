"""Stage 2, verify: every check of the run, before anything is rendered.

``site-builder check`` is this stage (and a rendering in memory): it reports what ``build``
reports. Each
example is replayed by the engine, each rule placeholder named, each link followed, each
template compiled and each catalog read and checked, one language at a time; the
catalogs that pass are kept for the render stage, which then cannot fail on one. (A
template can still fail while rendering: ``check`` renders every page in memory too,
:func:`site_builder.build.check`.)
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog

from site_builder import engine
from site_builder.errors import Problem
from site_builder.examples import (
    Claim,
    Verification,
    VerifiedTable,
    describe,
    verify_pages,
)
from site_builder.i18n.catalog import Translations, Translator, load_catalog, locale_problems
from site_builder.i18n.checks import check_catalog
from site_builder.i18n.messages import (
    TemplateMessage,
    card_terms,
    source_catalog,
    tree_messages,
)
from site_builder.project import SHEETS, SOURCE_LANG, STATUS_SLUG, TEMPLATES_DIR, po_path
from site_builder.sources.page import Page, placeholders
from site_builder.sources.profiles import PROFILES_FILE
from site_builder.sources.site import Site
from site_builder.sources.templates import bytecode_cache, compile_templates, make_environment
from site_builder.verify.links import link_problems


@dataclass
class Verified:
    """What verifying a site gives: the example tables by (page, line), every claim, the
    templates' messages, each catalog that passed its checks, and every problem."""

    site: Site
    tables: dict[tuple[str, int], VerifiedTable] = field(default_factory=dict)
    claims: list[Claim] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    templates: list[TemplateMessage] = field(default_factory=list)
    catalogs: dict[str, Translations] = field(default_factory=dict)
    bytecode: Any = None  # the compiled templates' cache, for rendering
    # every message a reader may see, where it is shown: what coverage counts
    source: Catalog = field(default_factory=Catalog)
    # once rendered in memory (site_builder.build.check): each language's messages looked
    # up that the template lacks; None: not rendered
    lookups: dict[str, dict[Any, Any]] | None = None


def rule_values(presets: Mapping[str, engine.RuleSet] | None = None) -> dict[str, int]:
    """The numbers a page may state about the rules, by placeholder name.

    Prose never states a rule number directly: it names it, e.g. ``{rami51_threshold}``,
    and the value comes from the engine's rule sets.

    >>> values = rule_values()
    >>> values["rami40_threshold"], values["rami51_threshold"], values["cardverse_target"]
    (40, 51, 100)
    >>> values["cardverse_hand_2"], values["cardverse_hand_4"], values["cardverse_deck_cards"]
    (7, 10, 52)
    """
    values: dict[str, int] = {"min_meld_cards": engine.MIN_MELD_CARDS,
                              "max_set_cards": engine.MAX_SET_CARDS}
    for game, rules in (presets or engine.PRESETS).items():
        if rules.opening_threshold is not None:
            values[f"{game}_threshold"] = rules.opening_threshold
        values[f"{game}_min_players"] = rules.min_players
        values[f"{game}_max_players"] = rules.max_players
        values[f"{game}_deck_cards"] = rules.decks * 52
        values[f"{game}_jokers"] = rules.jokers
        for players in range(rules.min_players, rules.max_players + 1):
            values[f"{game}_hand_{players}"] = rules.hand_size(players)
    values.update(engine.rule_numbers(presets))  # packs, jokers, hand penalties, variations
    return values


def verify(site: Site, load_problems: Sequence[Problem] = (), bytecode: Any = None
           ) -> Verified:
    """Every check of the run, with nothing rendered: the catalogs' files, the links
    between pages, every example replayed, every placeholder, every template compiled,
    and every catalog read and checked, one language at a time. The examples are not
    replayed when no rule profile loaded (among *load_problems*): every one would fail;
    nor those under a profile that did not load."""
    problems = list(load_problems)
    problems.extend(locale_problems(site.root, SOURCE_LANG))
    problems.extend(link_problems(site.pages, complete=not site.unread_pages,
                                  generated=[STATUS_SLUG, *SHEETS]))  # and the build's own
    profiles_ok = bool(site.profiles) or not any(p.path == PROFILES_FILE for p in load_problems)
    verification = (verify_pages(site.pages, site.profiles, site.broken_profiles)
                    if profiles_ok else Verification())
    problems.extend(verification_problems(verification))
    values = rule_values()
    for page in site.pages:
        problems.extend(placeholder_problems(page, values))
    if bytecode is None:
        bytecode = bytecode_cache(None, "")
    env = make_environment(site.root / TEMPLATES_DIR, Translator(SOURCE_LANG), str, bytecode)
    errors, trees = compile_templates(env, site.root / TEMPLATES_DIR)
    problems.extend(errors)
    templates = tree_messages(trees)
    terms = card_terms(templates)
    catalogs: dict[str, Translations] = {}
    for lang in site.languages[1:]:  # one at a time: each Babel catalog let go once read
        translations, found = _checked_catalog(site.root, lang, terms)
        problems.extend(found)
        if translations is not None:
            catalogs[lang] = translations
    return Verified(site, verification.tables, verification.claims, problems, templates,
                    catalogs, bytecode, source_catalog(site.pages, site.profiles, templates))


# The last catalog checked of each language, by its bytes: a long-running process (serve)
# checks again only the catalog a translator saved, not the others.
_CHECKED: dict[str, tuple[tuple[str, tuple[tuple[str, str], ...]],
                          tuple[Translations | None, list[Problem]]]] = {}


def _checked_catalog(root: Path, lang: str, terms: list[tuple[str, str]]
                     ) -> tuple[Translations | None, list[Problem]]:
    """The catalog of *lang* read and checked (:func:`read_catalog`), kept small for
    rendering; the same bytes are checked once per process."""
    data = (root / po_path(lang)).read_bytes()
    key = (hashlib.blake2b(data).hexdigest(), tuple(terms))
    found = _CHECKED.get(lang)
    if found is None or found[0] != key:
        catalog, problems = read_catalog(root, lang, terms, data)
        found = _CHECKED[lang] = (key, (Translations(catalog) if catalog is not None
                                        and not problems else None, problems))
    translations, problems = found[1]
    return translations, list(problems)


def read_catalog(root: Path, lang: str, terms: list[tuple[str, str]],
                 data: bytes | None = None) -> tuple[Catalog | None, list[Problem]]:
    """The catalog of *lang* read with Babel, and every problem of reading or checking it
    (*terms*: the card terms, :func:`site_builder.i18n.messages.card_terms`)."""
    loaded, problems = load_catalog(root, lang, comments=False, data=data)
    if loaded is None:
        return None, problems
    return loaded.catalog, check_catalog(loaded, terms)


def verification_problems(verification: Verification) -> list[Problem]:
    """The problems of *verification*, and one for each claim the engine disagrees with."""
    problems = list(verification.problems)
    disagreements = verification.disagreements
    if disagreements:
        rows = {(c.source, c.line): vr for t in verification.tables.values() for vr in t.rows
                for c in vr.claims}
        for claim in disagreements:
            problems.append(Problem(claim.source, claim.line,
                                    describe(claim, rows.get((claim.source, claim.line)))))
    return problems


def placeholder_problems(page: Page, values: dict[str, int]) -> list[Problem]:
    """A problem for each ``{name}`` in *page* that is not a rule value."""
    problems = []
    for segment in page.segments():
        if "{" not in segment.text and "}" not in segment.text:
            continue
        for name in placeholders(segment.text):
            if name not in values:
                def names(text: str, name: str = name) -> bool:
                    return name in placeholders(text)
                line = segment.line_where(names)
                problems.append(Problem(page.source, line,
                                        f"unknown rule placeholder {{{name}}}; known: "
                                        f"{', '.join(sorted(values))}"))
    return problems
