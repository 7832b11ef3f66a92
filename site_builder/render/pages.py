"""Stage 3: render each language's pages, 404 page and quick-reference sheets
(:func:`render_language`), then the site-wide files: each language's translation status
page, the language chooser, the root 404 page, the sitemap, ``robots.txt`` and the
assets (:func:`render_site_files`).

Each output file is written as soon as it is rendered, so that a large site is never
held in memory. The catalogs were read and checked by :mod:`site_builder.verify`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace as Item
from typing import Any

from babel.core import Locale
from babel.messages.catalog import Catalog
from babel.numbers import format_decimal
from markupsafe import Markup

from site_builder import engine
from site_builder.examples import KINDS, VerifiedTable
from site_builder.i18n.coverage import Counts, Shown, coverage, shown
from site_builder.i18n.locales import native_names
from site_builder.i18n.translator import Key, Translations, Translator, Unknown, template_keys
from site_builder.output import write_file
from site_builder.project import (
    SOURCE_LANG,
    TEMPLATES_DIR,
    not_found_path,
    page_path,
    relative,
    root_path,
)
from site_builder.render import (
    context,
    facts,
    offline,
    play,
    quickref,
    score,
    search,
    table_rules,
    terms,
)
from site_builder.render.checker_rules import offered
from site_builder.render.context import common, sidebar
from site_builder.render.markdown import MarkdownRenderer, Text
from site_builder.render.refusals import refusal_table
from site_builder.sources.page import ExampleBlock, Heading, ListBlock, Page, Paragraph, Segment
from site_builder.sources.site import Site
from site_builder.sources.templates import (
    macro,
    make_environment,
    memoize_macros,
    template_errors,
)
from site_builder.translate import marks
from site_builder.verify import Verified

# Each game's display name, by key, in the checker's menu: the engine's (RuleSet.title).
GAMES = {key: rules.title for key, rules in engine.PRESETS.items()}


@functools.lru_cache(maxsize=4096)
def format_number(value: Any, locale: str) -> str:
    """A number in the locale's notation (CLDR), e.g. ``1 000`` in Polish; memoized."""
    return str(format_decimal(value, locale=_locale(locale)))


# Babel parses a locale's name again on each call given a name (1,834 times in a build of
# 1,005 pages): once each.
_locale = functools.lru_cache(maxsize=64)(Locale.parse)


@dataclass
class Job:
    """What every language's rendering reads, made once."""

    site: Site
    tables: dict[tuple[str, int], VerifiedTable]
    values: dict[str, int]  # the rule values (see :func:`site_builder.engine.rule_numbers`)
    names: dict[str, str]  # each language's name for itself
    out: Path | None  # the staging folder; None: render in memory, write nothing
    catalogs: dict[str, Translations]  # each language's, verified
    source: Catalog  # every message a reader may see, for the coverage counts
    bytecode: Any = None
    # the template's messages by key (template_keys): a lookup of any other is reported
    known: dict[Key, str | tuple[str, ...]] = field(default_factory=dict)
    # one for every language: an English paragraph shown in five languages (a missing
    # translation) is rendered once, not once a language
    markdown: MarkdownRenderer = field(default_factory=MarkdownRenderer)
    # the translator's preview's language (site-builder serve --translate): its texts from
    # the catalog marked on its pages (site_builder/translate/marks.py); None in a build
    marked: str | None = None

    @classmethod
    def of(cls, verified: Verified, out: Path | None) -> Job:
        """The job of rendering the site *verified* into the staging folder *out*."""
        site = verified.site
        return cls(site, verified.tables, site.numbers, native_names(site.languages), out,
                   verified.catalogs, verified.source, verified.bytecode,
                   template_keys(verified.source))

    @functools.cached_property
    def play_archive(self) -> tuple[str, bytes]:
        """The rules engine packed for the practice table, once a build
        (:func:`~site_builder.render.play.engine_archive`)."""
        return play.engine_archive()

    @functools.cached_property
    def play_snapshot(self) -> tuple[str, bytes]:
        """The practice table's start-up snapshot, once a build
        (:func:`~site_builder.render.play.start_snapshot`)."""
        return play.start_snapshot(self.site.root, self.play_archive)

    @functools.cached_property
    def shown(self) -> Shown:
        """Each source message and the pages that show it, for the coverage counts, once
        a build (:func:`~site_builder.i18n.coverage.shown`)."""
        return shown(self.source)

    @functools.cached_property
    def checker_offer(self) -> dict[str, dict[str, Any]]:
        """The rule sets the checker offers, computed once a build
        (:func:`~site_builder.render.checker_rules.offered`)."""
        return offered(self.site.profiles)

    def translator(self, lang: str, unknown: dict[Key, Unknown] | None = None) -> Translator:
        """A translator for *lang* that keeps, in *unknown*, each message looked up that
        the template lacks."""
        return Translator(lang, self.catalogs.get(lang), self.known,
                          {} if unknown is None else unknown,
                          marks.mark if lang == self.marked else None)

    def write(self, rel: str, data: bytes | Iterable[bytes]) -> tuple[int, int]:
        """Write one output file into the staging folder: its size and modification time."""
        if self.marked is not None:  # the translator's preview: marks made spans, or dropped
            data = marks.write_filter(rel, data if isinstance(data, bytes) else b"".join(data))
        if self.out is None:
            return sum(len(piece) for piece in ((data,) if isinstance(data, bytes) else data)), 0
        return write_file(self.out, rel, data)


@dataclass
class LanguageResult:
    """What one language's rendering gives the rest of the site."""

    lang: str
    nav: list[tuple[Page, Text, Text]]  # each page with its title and description
    overall: Counts = field(default_factory=Counts)  # translation coverage
    pages: dict[str, Counts] = field(default_factory=dict)  # by page
    fallbacks: list[tuple[str, str, int, str]] = field(default_factory=list)
    files: dict[str, tuple[int, int]] = field(default_factory=dict)  # size, mtime by file
    # the messages looked up that the template lacks (shown in English, never translated)
    unknown: dict[Key, Unknown] = field(default_factory=dict)


def environment(job: Job, lang: str, translator: Translator) -> Any:
    locale = "en" if lang == SOURCE_LANG else lang

    def number(value: Any, locale: str = locale) -> str:
        return format_number(value, locale)

    env = make_environment(job.site.root / TEMPLATES_DIR, translator, number, job.bytecode)
    # the practice page's slug, for the worked rounds' "Play from here" links (None: none)
    env.globals["play_slug"] = next((page.slug for page in job.site.pages if page.play), None)
    env.globals["position_link"] = engine.notation.position_link  # their one writer
    env.globals["try_link"] = facts.try_link  # the checker's links' one writer
    env.globals["row_game"] = table_rules.row_game  # which rows fold for my table's rules
    memoize_macros(env)
    return env


def render_language(job: Job, lang: str) -> LanguageResult:
    """Render *lang*'s pages, 404 page and quick-reference sheets into the staging folder;
    what the rest of the site needs from it (the pages' titles in the language, and its
    translation coverage)."""
    with template_errors(job.site.root / TEMPLATES_DIR):
        return _render_language(job, lang)


def _render_language(job: Job, lang: str) -> LanguageResult:
    site = job.site
    catalog = job.catalogs.get(lang)
    result_unknown: dict[Key, Unknown] = {}
    translator = job.translator(lang, result_unknown)
    env = environment(job, lang, translator)
    md = job.markdown
    values = localized_values(job.values, lang)
    titles = PageLocalizer(lang, translator, md, values)
    result = LanguageResult(lang, [(page, titles.text(page.title), titles.text(page.description))
                                   for page in site.pages], unknown=result_unknown)
    if catalog is not None:
        result.overall, result.pages = coverage(job.shown, catalog)

    def emit(rel: str, data: bytes) -> None:
        result.files[rel] = job.write(rel, data)

    nav = result.nav
    draw = macro(env, "_nav.html", "sidebar_item")
    glossary = terms.glossary(site.pages)
    for index, page in enumerate(site.pages):
        loc = PageLocalizer(lang, translator, md, values)
        title = loc.text(page.title)
        description = loc.text(page.description)
        blocks = page_blocks(page, loc, job.tables)
        # the definitions of the terms its links name (not counted in the page's coverage)
        term_defs = terms.describe(page, blocks, glossary,
                                   PageLocalizer(lang, translator, md, values).text)
        path = page_path(lang, page.slug)
        ctx = common(site, lang, page.slug, path, job.names)
        ctx.update(page=page, title=title, description=description, blocks=blocks,
                   percent=loc.percent,
                   **sidebar(nav, path, lang, page.slug, draw, index=index,
                             every=page.slug == "index"),
                   term_defs=term_defs,
                   games=GAMES, profiles=site.profiles,
                   checker_offer=job.checker_offer if page.checker else None)
        if page.checker:  # the checker's form is not indexed; what players call it is
            ctx["checker_words"] = search.template_words(f"{page.slug}#checker",
                                                         translator.gettext)
        ctx.update(context.page_context(nav, path, lang, index, blocks))
        if page.slug != "index":  # what each section adds to the search index
            ctx["blocks"] = search.index_words(page.slug, blocks, translator.gettext)
        if page.play:  # the practice table: its runtime and engine (render/play.py)
            ctx.update(play_words=relative(path, f"{lang}/{play.WORDS_FILE}"),
                       play_engine=job.play_archive[0],
                       play_snapshot=job.play_snapshot[0],
                       play_runtime=play.runtime_path(site.root).removeprefix("assets/"),
                       plural_samples=play.plural_samples(lang),
                       variations={key: profile.overrides for key, profile in site.profiles.items()
                                   if key != "reference"},
                       # each rule set offered, linked to the section that explains it
                       play_rule_links=score.rule_set_links(lang, path, site.profiles),
                       search_words=search.template_words(f"{page.slug}#table",
                                                          translator.gettext))
        template = env.get_template("home.html" if page.slug == "index" else "page.html")
        emit(path, template.render(ctx).encode("utf-8"))
        result.fallbacks.extend((lang, page.source, s.line, s.text) for s in loc.missing)
    path = not_found_path(lang)
    ctx = common(site, lang, None, path, job.names, absolute=True)
    ctx.update(sidebar(nav, path, lang, None, draw, root_path(site.config.base_url),
                       every=True), percent=100)
    emit(path, env.get_template("404.html").render(ctx).encode("utf-8"))
    path = f"{lang}/{offline.PAGE}"  # what its worker shows of a page it cannot (offline)
    ctx = common(site, lang, None, path, job.names, absolute=True)
    ctx.update(sidebar(nav, path, lang, None, draw, root_path(site.config.base_url),
                       every=True), percent=100)
    emit(path, env.get_template("offline.html").render(ctx).encode("utf-8"))
    def tool_context(slug: str, path: str) -> dict[str, Any]:  # a sheet's, the score keeper's
        return common(site, lang, slug, path, job.names) | sidebar(nav, path, lang, None, draw)

    quickref.render(lang, env, emit, tool_context)  # the quick-reference sheets
    score.render(lang, env, emit, tool_context, site.profiles, translator.gettext)
    emit(f"{lang}/{table_rules.FILE}", table_rules.table_rules(site.profiles, translator))
    emit(*context.site_words(lang, translator.gettext))  # what the scripts say
    if any(page.play for page in site.pages):  # what the table says once its engine runs
        emit(*play.words_file(lang, refusal_table(translator), translator))
    whole = context.menu_file(nav, lang, draw)  # a large language's list of every page
    if whole is not None:
        emit(*whole)
    return result


# --- one page's text ------------------------------------------------------------------------


@dataclass
class PageLocalizer:
    """Turns a page's English segments into one language's HTML, counting fallbacks."""

    lang: str
    translator: Translator
    markdown: MarkdownRenderer
    values: dict[str, str]
    total: int = 0
    fallbacks: int = 0
    missing: list[Segment] = field(default_factory=list)
    # Translations looked up already (None: missing or fuzzy), by English text.
    known: Mapping[str, str | None] | None = None

    def text(self, segment: Segment) -> Text:
        self.total += 1
        if self.known is not None and segment.text in self.known:
            found = self.known[segment.text]
        else:
            found = self.translator.lookup(segment.text)
        fallback = found is None
        if fallback:
            self.fallbacks += 1
            self.missing.append(segment)
        source = segment.text if found is None else found
        render = self.markdown.english if source == segment.text else self.markdown.inline
        html = render(source.format_map(self.values))
        if self.translator.mark is not None:  # the translator's preview only
            html = Markup(self.translator.mark(segment.text, None, html))
        return Text(html, fallback)

    @property
    def percent(self) -> int:
        if not self.total:
            return 100
        return int(100 * (self.total - self.fallbacks) / self.total)


def localized_values(values: dict[str, int], lang: str) -> dict[str, str]:
    """The rule values in *lang*'s notation, each distinct number formatted once, by
    :func:`format_number` (Babel took a tenth of a millisecond a number, 695 times in a
    build of 1,005 pages)."""
    locale = "en" if lang == SOURCE_LANG else lang
    return {k: format_number(v, locale) for k, v in values.items()}


def page_blocks(page: Page, loc: PageLocalizer, tables: Mapping[tuple[str, int], VerifiedTable]
                ) -> list[Any]:
    """The page's blocks, localized, in the shape the templates expect."""
    out: list[Any] = []
    for block in page.blocks:
        if isinstance(block, Heading):
            out.append(Item(type="heading", level=block.level, text=loc.text(block.segment),
                            id=block.id))
        elif isinstance(block, Paragraph):
            out.append(Item(type="paragraph", text=loc.text(block.segment),
                            callout=block.callout))
        elif isinstance(block, ListBlock):
            out.append(Item(type="list", ordered=block.ordered, start=block.start,
                            entries=[loc.text(item) for item in block.items]))
        elif isinstance(block, ExampleBlock):
            table = tables[(page.source, block.line)]
            rows = [Item(caption=loc.text(row.caption),
                         note=loc.text(row.note) if row.note else None,
                         v=vr) for row, vr in zip(block.rows, table.rows, strict=True)]
            # a block that names its rule set: the seed's first table labels its points
            out.append(Item(type="example", table=block.table, rows=rows,
                            partial=KINDS[block.table].partial, key=example_key(block),
                            named="profile" in block.defaults))
    return out



def example_key(block: ExampleBlock) -> str:
    """Everything an example block's rendering depends on: its text, not where it stands
    (so that a block of the same text is rendered once per language)."""
    def fields(items: Mapping[str, Any]) -> list[tuple[str, str, int]]:
        return sorted((k, f.value, f.line - block.line) for k, f in items.items())

    return repr((block.table, block.table_line - block.line, fields(block.defaults),
                 [(r.line - block.line, r.caption.text, r.caption.line - block.line,
                   (r.note.text, r.note.line - block.line) if r.note else None, fields(r.fields))
                  for r in block.rows]))
