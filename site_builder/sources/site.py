"""Stage 1, load: the project's files read into a :class:`Site`: the pages, the rule
profiles and the settings, every problem of reading them collected (nothing is checked
against anything else yet: that is :mod:`site_builder.verify`)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from site_builder import engine
from site_builder.errors import Problem
from site_builder.project import (
    BUNDLE,
    CONTENT_DIR,
    SOURCE_LANG,
    STATUS_SLUG,
    discover_languages,
)
from site_builder.sources.page import Page, read_page
from site_builder.sources.profiles import Profile, load_profiles
from site_builder.sources.settings import Config, load_config


@dataclass
class Site:
    """Everything the build reads but the catalogs: pages, profiles and settings."""

    root: Path
    config: Config
    pages: list[Page]  # in site order
    profiles: dict[str, Profile]
    languages: list[str]  # published languages, the source language first
    broken_profiles: frozenset[str] = frozenset()  # declared, but they did not load
    unread_pages: bool = False  # a page did not parse: links to it cannot be judged
    date: str | None = None  # the printed build date (site_builder.project.build_date)

    @functools.cached_property
    def numbers(self) -> dict[str, int]:
        """The numbers a page may state, by placeholder name: the engine's, and each rule
        profile's whole-number overrides (:func:`site_builder.engine.rule_numbers`)."""
        return engine.rule_numbers(profiles={key: profile.overrides
                                             for key, profile in self.profiles.items()})

    @functools.cached_property
    def slugs(self) -> frozenset[str]:
        """The pages' slugs, for a page's links to the pages that may be there."""
        return frozenset(page.slug for page in self.pages)


def load(root: Path, base_url: str | None = None, date: str | None = None
         ) -> tuple[Site, list[Problem]]:
    """Read content, profiles and settings; report every problem found. *base_url* and
    *date*: the build's, for its pages."""
    problems: list[Problem] = []
    config = load_config(root, problems, base_url)
    before = len(problems)
    pages = list(read_pages(root, problems))
    _check_pages(pages, problems)
    unread = {p.path for p in problems[before:]} - {page.source for page in pages}
    profiles, errs, broken = load_profiles(root)
    problems.extend(errs)
    return Site(root, config, pages, profiles, [SOURCE_LANG, *discover_languages(root)],
                broken, bool(unread), date), problems


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


