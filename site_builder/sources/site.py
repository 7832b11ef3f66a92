"""Stages 1 and 2: load the project into a :class:`Site` record, and verify it.

Verifying finds every problem of the run: examples replayed by the engine, rule
placeholders, templates compiled and every catalog read and checked.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog

from site_builder import engine
from site_builder.errors import Problem
from site_builder.i18n.catalog import Translator, load_catalog
from site_builder.i18n.checks import check_catalog
from site_builder.i18n.messages import TemplateMessage, card_terms, tree_messages
from site_builder.project import (
    CONTENT_DIR,
    SOURCE_LANG,
    STATUS_SLUG,
    TEMPLATES_DIR,
    Config,
    discover_languages,
    load_config,
)
from site_builder.render.quickref import SHEETS
from site_builder.render.search import BUNDLE
from site_builder.sources.page import Page, link_problems, placeholders, read_page
from site_builder.sources.templates import bytecode_cache, compile_templates, make_environment
from site_builder.verify.examples import (
    PROFILES_FILE,
    Claim,
    Profile,
    Verification,
    VerifiedTable,
    describe,
    load_profiles,
    verify_pages,
)


@dataclass
class Site:
    """Everything the build reads but the catalogs: pages, profiles and settings."""

    root: Path
    config: Config
    pages: list[Page]  # in site order
    profiles: dict[str, Profile]
    languages: list[str]  # published languages, the source language first
    broken_profiles: frozenset[str] = frozenset()  # declared, but they did not load


@dataclass
class Verified:
    """What verifying a site gives: the example tables by (page, line), every claim, the
    templates' messages, and every problem."""

    tables: dict[tuple[str, int], VerifiedTable] = field(default_factory=dict)
    claims: list[Claim] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    templates: list[TemplateMessage] = field(default_factory=list)


def load(root: Path, base_url: str | None = None) -> tuple[Site, list[Problem]]:
    """Read content, profiles and settings; report every problem found."""
    from site_builder.i18n.catalog import locale_problems

    problems: list[Problem] = locale_problems(root, SOURCE_LANG)
    config = load_config(root, problems, base_url)
    before = len(problems)
    pages = list(read_pages(root, problems))
    _check_pages(pages, problems)
    unread = {p.path for p in problems[before:]} - {page.source for page in pages}
    problems.extend(link_problems(pages, complete=not unread,  # and the build's own pages
                                  generated=[STATUS_SLUG, *SHEETS]))
    profiles, errs, broken = load_profiles(root)
    problems.extend(errs)
    return Site(root, config, pages, profiles, [SOURCE_LANG, *discover_languages(root)],
                broken), problems


def read_pages(root: Path, problems: list[Problem]) -> Iterator[Page]:
    """Each content page that parses, in file name order; the problems of those that do
    not go to *problems*."""
    content = root / CONTENT_DIR
    if not content.is_dir():
        problems.append(Problem(CONTENT_DIR, 0, "no content folder: run site-builder in the "
                                                "project root, or pass --root DIR"))
        return
    for path in sorted(content.glob("*.md")):
        if path.name.startswith("."):  # an editor's lock or backup file (.#page.md)
            continue
        page, _, errs = read_page(path, path.relative_to(root).as_posix())
        problems.extend(errs)
        if page is not None:
            yield page


def _check_pages(pages: list[Page], problems: list[Problem]) -> None:
    """Slugs are unique and there is a home page; sort *pages* into site order."""
    seen: dict[str, list[Page]] = {}
    for page in pages:
        seen.setdefault(page.slug, []).append(page)
    for slug, same in seen.items():
        for page in same if len(same) > 1 else ():
            others = ", ".join(p.source for p in same if p is not page)
            problems.append(Problem(page.source, page.slug_line,
                                    f"duplicate slug {slug!r}: {others} uses it too; "
                                    "give each page its own slug"))
    taken = {STATUS_SLUG: "the translation status page", BUNDLE: "the search index"}
    for page in pages:  # a folder the build makes in each language
        if page.slug in taken:
            problems.append(Problem(page.source, page.slug_line,
                                    f"slug {page.slug!r} is {taken[page.slug]}'s; give this "
                                    "page another slug"))
    if pages and "index" not in seen:
        problems.append(Problem(CONTENT_DIR, 0, "no home page: add content/index.md with "
                                                "'slug: index'"))
    pages.sort(key=lambda p: (p.order, p.slug))


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
        values[f"{game}_target"] = rules.target_score
        values[f"{game}_min_players"] = rules.min_players
        values[f"{game}_max_players"] = rules.max_players
        values[f"{game}_deck_cards"] = rules.decks * 52
        values[f"{game}_jokers"] = rules.jokers
        for players in range(rules.min_players, rules.max_players + 1):
            values[f"{game}_hand_{players}"] = rules.hand_size(players)
    values.update(engine.rule_numbers(presets))  # packs, jokers, hand penalties, variations
    return values


def verify(site: Site, load_problems: Sequence[Problem] = (), catalogs: bool = True,
           bytecode: Any = None) -> Verified:
    """Replay every example, check every placeholder, compile every template and (with
    *catalogs*) read and check every catalog. The examples are not replayed when no rule
    profile loaded (among *load_problems*): every one would fail; nor those under a
    profile that did not load."""
    profiles_ok = bool(site.profiles) or not any(p.path == PROFILES_FILE for p in load_problems)
    verification = (verify_pages(site.pages, site.profiles, site.broken_profiles)
                    if profiles_ok else Verification())
    problems = list(load_problems) + verification_problems(verification)
    values = rule_values()
    for page in site.pages:
        problems.extend(placeholder_problems(page, values))
    env = make_environment(site.root / TEMPLATES_DIR, Translator(SOURCE_LANG), str,
                           bytecode if bytecode is not None else bytecode_cache(None, ""))
    errors, trees = compile_templates(env, site.root / TEMPLATES_DIR)
    problems.extend(errors)
    templates = tree_messages(trees)
    if catalogs:
        terms = card_terms(templates)
        for lang in site.languages[1:]:
            problems.extend(read_catalog(site.root, lang, terms)[1])
    return Verified(verification.tables, verification.claims, problems, templates)


def read_catalog(root: Path, lang: str, terms: list[tuple[str, str]]
                 ) -> tuple[Catalog | None, list[Problem]]:
    """The catalog of *lang* read with Babel, and every problem of reading or checking it
    (*terms*: the card terms, :func:`site_builder.i18n.messages.card_terms`)."""
    loaded, problems = load_catalog(root, lang, comments=False)
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
                line = segment.line_where(lambda text, name=name: name in placeholders(text))
                problems.append(Problem(page.source, line,
                                        f"unknown rule placeholder {{{name}}}; known: "
                                        f"{', '.join(sorted(values))}"))
    return problems
