"""Stage 3: render each language's pages, 404 page and quick-reference sheets
(:func:`render_language`), then the site-wide files: each language's translation status
page, the language chooser, the root 404 page, the sitemap, ``robots.txt`` and the
assets (:func:`render_site_files`).

Each output file is written as soon as it is rendered, so that a large site is never
held in memory. The catalogs were read and checked by :mod:`site_builder.verify`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace as Item
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from babel.messages.catalog import Catalog
from babel.numbers import format_decimal

from site_builder.i18n.catalog import Translator, bcp47, native_names, text_direction
from site_builder.i18n.coverage import Counts, coverage
from site_builder.i18n.messages import source_catalog
from site_builder.output import write_file
from site_builder.project import SOURCE_LANG, STATUS_SLUG, TEMPLATES_DIR, page_path
from site_builder.render import checker_rules as rules_data
from site_builder.render import context, quickref
from site_builder.render.markdown import MarkdownRenderer, Text
from site_builder.render.urls import page_url, relative, root_path
from site_builder.sources.page import ExampleBlock, Heading, ListBlock, Page, Paragraph, Segment
from site_builder.sources.profiles import GAME_NAMES
from site_builder.sources.site import Site
from site_builder.sources.templates import make_environment, memoize_macros, template_errors
from site_builder.verify import Verified, rule_values
from site_builder.verify.examples import VerifiedTable

ASSETS_DIR = "assets"
CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; "
       "base-uri 'none'; form-action 'none'")

# A site with up to this many pages lists every page in every page's navigation; a
# larger one lists the pages around the current one (the home page lists them all).
NAV_FULL_UP_TO = 50
NAV_AROUND = 5


def nav_indexes(count: int, current: int | None) -> range | list[int]:
    """Which pages (by position) a page's navigation lists.

    >>> list(nav_indexes(3, 1))
    [0, 1, 2]
    >>> nav_indexes(100, 40), nav_indexes(100, None), nav_indexes(100, 0) == range(100)
    ([0, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], True)
    """
    if count <= NAV_FULL_UP_TO or current == 0:
        return range(count)
    middle = NAV_AROUND + 1 if current is None else current
    start = max(1, min(middle - NAV_AROUND, count - 2 * NAV_AROUND - 1))
    return [0, *range(start, min(count, start + 2 * NAV_AROUND + 1))]


@functools.lru_cache(maxsize=4096)
def format_number(value: Any, locale: str) -> str:
    """A number in the locale's notation (CLDR), e.g. ``1 000`` in Polish; memoized."""
    return str(format_decimal(value, locale=locale))


@dataclass
class Job:
    """What every language's rendering reads, made once."""

    site: Site
    tables: dict[tuple[str, int], VerifiedTable]
    values: dict[str, int]  # the rule values (see :func:`site_builder.verify.rule_values`)
    names: dict[str, str]  # each language's name for itself
    out: Path | None  # the staging folder; None: render in memory, write nothing
    catalogs: dict[str, Catalog]  # each language's, verified
    source: Catalog  # every message a reader may see, for the coverage counts
    bytecode: Any = None

    @classmethod
    def of(cls, verified: Verified, out: Path | None) -> Job:
        """The job of rendering the site *verified* into the staging folder *out*."""
        site = verified.site
        source = source_catalog(site.pages, site.profiles, verified.templates)
        return cls(site, verified.tables, rule_values(), native_names(site.languages), out,
                   verified.catalogs, source, verified.bytecode)

    def write(self, rel: str, data: bytes | Iterable[bytes]) -> tuple[int, int]:
        """Write one output file into the staging folder: its size and modification time."""
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


def _environment(job: Job, lang: str, translator: Translator) -> Any:
    locale = "en" if lang == SOURCE_LANG else lang

    def number(value: Any, locale: str = locale) -> str:
        return format_number(value, locale)

    env = make_environment(job.site.root / TEMPLATES_DIR, translator, number, job.bytecode)
    memoize_macros(env)
    return env


def summary(job: Job, lang: str) -> LanguageResult:
    """What the site-wide files need of *lang*, without rendering its pages: the pages'
    titles in the language, and its translation coverage."""
    catalog = job.catalogs.get(lang)
    titles = PageLocalizer(lang, Translator(lang, catalog), MarkdownRenderer(),
                           localized_values(job.values, lang))
    result = LanguageResult(lang, [(page, titles.text(page.title), titles.text(page.description))
                                   for page in job.site.pages])
    if catalog is not None:
        result.overall, result.pages = coverage(job.source, catalog)
    return result


def render_language(job: Job, lang: str) -> LanguageResult:
    """Render *lang*'s pages, 404 page and quick-reference sheets into the staging folder;
    what the rest of the site needs from it."""
    with template_errors(job.site.root / TEMPLATES_DIR):
        return _render_language(job, lang, summary(job, lang))


def _render_language(job: Job, lang: str, result: LanguageResult) -> LanguageResult:
    site = job.site
    translator = Translator(lang, job.catalogs.get(lang))
    env = _environment(job, lang, translator)
    md = MarkdownRenderer()
    values = localized_values(job.values, lang)

    def emit(rel: str, data: bytes) -> None:
        result.files[rel] = job.write(rel, data)

    nav = result.nav
    for index, page in enumerate(site.pages):
        loc = PageLocalizer(lang, translator, md, values)
        title = loc.text(page.title)
        description = loc.text(page.description)
        blocks = page_blocks(page, loc, job.tables)
        path = page_path(lang, page.slug)
        ctx = _common(site, lang, page.slug, path, job.names)
        ctx.update(page=page, title=title, description=description, blocks=blocks,
                   percent=loc.percent, nav=_nav(nav, path, lang, page.slug, index),
                   games=GAME_NAMES, profiles=site.profiles)
        ctx.update(context.page_context(nav, path, lang, index, blocks))
        template = env.get_template("home.html" if page.slug == "index" else "page.html")
        emit(path, template.render(ctx).encode("utf-8"))
        result.fallbacks.extend((lang, page.source, s.line, s.text) for s in loc.missing)
    path = f"{lang}/404.html"
    ctx = _common(site, lang, None, path, job.names, absolute=True)
    ctx.update(nav=_nav(nav, path, lang, None, None,
                    root_path(site.config.base_url)),
               percent=100)
    emit(path, env.get_template("404.html").render(ctx).encode("utf-8"))
    quickref.render(lang, env, emit, lambda slug, path: _common(  # the quick-reference sheets
        site, lang, slug, path, job.names) | {"nav": _nav(nav, path, lang, None)})
    return result


def render_site_files(job: Job, results: dict[str, LanguageResult]
                      ) -> dict[str, tuple[int, int]]:
    """Each language's status page, the chooser, the root 404 page, sitemap, robots and
    assets, written into the staging folder; the files written (size, mtime)."""
    site = job.site
    names = job.names
    written: dict[str, tuple[int, int]] = {}

    def emit(rel: str, data: bytes | Iterable[bytes]) -> None:
        written[rel] = job.write(rel, data)

    status = [{"lang": bcp47(lang), "name": names[lang],
               "overall": results[lang].overall, "pages": results[lang].pages}
              for lang in site.languages[1:]]
    not_found: list[dict[str, str]] = []
    with template_errors(site.root / TEMPLATES_DIR):
        for lang in site.languages:
            translator = Translator(lang, job.catalogs.get(lang))
            env = _environment(job, lang, translator)
            path = page_path(lang, STATUS_SLUG)
            ctx = _common(site, lang, STATUS_SLUG, path, names)
            ctx.update(nav=_nav(results[lang].nav, path, lang, STATUS_SLUG), status=status,
                       percent=100)
            emit(path, env.get_template("status.html").render(ctx).encode("utf-8"))
            not_found.append({"lang": bcp47(lang), "name": names[lang],
                              "title": translator.gettext("Page not found"),
                              "link": translator.gettext("Go to the rules index"),
                              "href": root_path(site.config.base_url)
                              + page_path(lang, "index")})
            if lang == SOURCE_LANG:
                chooser_env = env
        ctx = _common(site, SOURCE_LANG, "index", "index.html", names)
        ctx.update(choices=[{"lang": bcp47(lang), "name": names[lang],
                             "href": relative("index.html", page_path(lang, "index"))}
                            for lang in site.languages], percent=100)
        emit("index.html", chooser_env.get_template("chooser.html").render(ctx).encode("utf-8"))
        ctx = _common(site, SOURCE_LANG, None, "404.html", names, absolute=True)
        ctx.update(choices=not_found, percent=100)
        emit("404.html", chooser_env.get_template("404-root.html").render(ctx).encode("utf-8"))
    emit("sitemap.xml", _sitemap(site, [p.slug for p in site.pages] + [STATUS_SLUG]))
    emit("robots.txt", (f"User-agent: *\nAllow: /\n\nSitemap: {site.config.base_url}"
                        "sitemap.xml\n").encode())
    for asset in sorted((site.root / TEMPLATES_DIR / ASSETS_DIR).rglob("*")):
        if asset.is_file():
            data = asset.read_bytes()
            emit(asset.relative_to(site.root / TEMPLATES_DIR).as_posix(),
                 context.stylesheet(data) if asset.suffix == ".css" else data)
    emit(rules_data.ASSET, rules_data.rules_asset(site.profiles))  # the checker's rule data
    return written


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
        return Text(self.markdown.inline(source.format_map(self.values)), fallback)

    @property
    def percent(self) -> int:
        if not self.total:
            return 100
        return int(100 * (self.total - self.fallbacks) / self.total)


def localized_values(values: dict[str, int], lang: str) -> dict[str, str]:
    locale = "en" if lang == SOURCE_LANG else lang
    return {k: format_decimal(v, locale=locale) for k, v in values.items()}


def page_blocks(page: Page, loc: PageLocalizer, tables: Mapping[tuple[str, int], VerifiedTable]
                ) -> list[Any]:
    """The page's blocks, localized, in the shape the templates expect."""
    out: list[Any] = []
    for block in page.blocks:
        if isinstance(block, Heading):
            out.append(Item(type="heading", level=block.level, text=loc.text(block.segment),
                            id=block.id))
        elif isinstance(block, Paragraph):
            out.append(Item(type="paragraph", text=loc.text(block.segment)))
        elif isinstance(block, ListBlock):
            out.append(Item(type="list", ordered=block.ordered, start=block.start,
                            entries=[loc.text(item) for item in block.items]))
        elif isinstance(block, ExampleBlock):
            table = tables[(page.source, block.line)]
            rows = [Item(caption=loc.text(row.caption),
                         note=loc.text(row.note) if row.note else None,
                         v=vr) for row, vr in zip(block.rows, table.rows, strict=True)]
            out.append(Item(type="example", table=block.table, rows=rows,
                            key=example_key(block)))
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


# --- shared context -------------------------------------------------------------------------


def _common(site: Site, lang: str, slug: str | None, path: str,
            names: dict[str, str], absolute: bool = False) -> dict[str, Any]:
    """Context every template gets: links, switcher, alternates, metadata."""
    base = site.config.base_url
    root = root_path(base)  # the 404 pages link from the site's root: any host

    def href(target: str) -> str:
        return root + target if absolute else relative(path, target)

    switcher = []
    alternates = []
    if slug is not None:
        for other in site.languages:
            switcher.append(Item(lang=bcp47(other), name=names[other], current=other == lang,
                                 href=href(page_path(other, slug))))
            alternates.append(Item(hreflang=bcp47(other), href=page_url(base, other, slug)))
        default = base if slug == "index" else page_url(base, SOURCE_LANG, slug)
        alternates.append(Item(hreflang="x-default", href=default))
    else:
        for other in site.languages:
            switcher.append(Item(lang=bcp47(other), name=names[other], current=other == lang,
                                 href=href(page_path(other, "index"))))
    canonical = (base if path == "index.html" else page_url(base, lang, slug)) if slug else None
    return {
        "lang": bcp47(lang),
        "dir": text_direction(lang),
        "language_name": names[lang],
        "css": href(f"{ASSETS_DIR}/site.css"),
        "home": href(page_path(lang, "index")),
        "status_href": href(page_path(lang, STATUS_SLUG)),
        "switcher": switcher,
        "alternates": alternates,
        "canonical": canonical,
        "csp": CSP,
        "slug": slug,
        "nav": [],
        **context.common_context(site.root, lang, path, href),
    }


def _nav(nav: list[tuple[Page, Text, Text]], path: str, lang: str, current: str | None,
         index: int | None = None, base: str | None = None) -> list[Item]:
    """The navigation of the page at *path* (the *index*-th page, or not a content page):
    every page, or on a large site the pages around it (:func:`nav_indexes`), linked from
    it (from *base*, the site's root path, on the 404 pages)."""
    return [Item(title=title, description=description, current=page.slug == current,
                 href=(base + page_path(lang, page.slug)) if base
                 else relative(path, page_path(lang, page.slug)))
            for page, title, description in (nav[i] for i in nav_indexes(len(nav), index))]


def _sitemap(site: Site, slugs: list[str]) -> Iterator[bytes]:
    """``sitemap.xml``, in pieces (one per page, in every language), so that a large
    site's sitemap is never held in memory whole."""
    base = site.config.base_url
    yield (b'<?xml version="1.0" encoding="UTF-8"?>\n'
           b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
           b'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n')
    for slug in slugs:
        lines = []
        alternates = [f'    <xhtml:link rel="alternate" hreflang="{bcp47(other)}" '
                      f"href={quoteattr(page_url(base, other, slug))}/>"
                      for other in site.languages]
        default = base if slug == "index" else page_url(base, SOURCE_LANG, slug)
        alternates.append(f'    <xhtml:link rel="alternate" hreflang="x-default" '
                          f"href={quoteattr(default)}/>\n  </url>")
        for lang in site.languages:
            lines.append(f"  <url>\n    <loc>{escape(page_url(base, lang, slug))}</loc>")
            lines.extend(alternates)
        yield ("\n".join(lines) + "\n").encode("utf-8")
    yield b"</urlset>\n"
