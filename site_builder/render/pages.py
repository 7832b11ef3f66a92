"""Stage 3: render each language's pages and 404 page (:func:`render_language`), then
the site-wide files: each language's translation status page, the language chooser,
the root 404 page, the sitemap, ``robots.txt`` and the assets (:func:`render_site_files`).

Each output file is written as soon as it is rendered, so that a large site is never
held in memory; a language's catalog is read (with Babel), checked, used and let go.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace as Item
from typing import Any

from babel.messages.catalog import Message
from babel.numbers import format_decimal
from markupsafe import Markup

from site_builder.errors import Problem
from site_builder.i18n.catalog import (
    Counts,
    Translator,
    bcp47,
    coverage_state,
    is_translated,
    native_names,
    page_of,
    text_direction,
)
from site_builder.i18n.messages import card_terms
from site_builder.output import write_file
from site_builder.project import SOURCE_LANG, STATUS_SLUG, TEMPLATES_DIR
from site_builder.render import checker_rules as rules_data
from site_builder.render import context as navigation
from site_builder.render import quickref
from site_builder.render.context import page_path, relative
from site_builder.render.markdown import MarkdownRenderer, Text
from site_builder.sources.page import ExampleBlock, Heading, ListBlock, Page, Paragraph, Segment
from site_builder.sources.site import Site, Verified, read_catalog, rule_values
from site_builder.sources.templates import make_environment, memoize_macros, template_errors
from site_builder.verify.examples import GAME_NAMES, PROFILES_FILE, VerifiedTable

ASSETS_DIR = "assets"
CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; "
       "base-uri 'none'; form-action 'none'")
# A site with up to this many pages lists every page in every page's navigation; a
# larger one lists the pages around the current one (the home page lists them all).
NAV_FULL_UP_TO = 50
NAV_AROUND = 5
# A sitemap file lists at most this many URLs (sitemaps.org); a site with more gets
# several, and ``sitemap.xml`` is their index.
SITEMAP_URLS = 50_000

Msgid = str | tuple[str, ...]


def page_url(base_url: str, lang: str, slug: str) -> str:
    return base_url + (f"{lang}/" if slug == "index" else f"{lang}/{slug}/")


@functools.lru_cache(maxsize=4096)
def format_number(value: Any, locale: str) -> str:
    """A number in the locale's notation (CLDR), e.g. ``1 000`` in Polish; memoized."""
    return str(format_decimal(value, locale=locale))


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


@dataclass
class Job:
    """What every language's rendering reads: made once, before any worker starts."""

    site: Site
    tables: dict[tuple[str, int], VerifiedTable]
    values: dict[str, int]  # the rule values (see :func:`site_builder.load.rule_values`)
    names: dict[str, str]  # each language's name for itself
    out: Path  # the staging folder
    card_terms: list[tuple[str, str]]
    # The (msgid, context, file) of the messages that are not in pages (rule profiles,
    # templates), and the (msgid, context) of the templates': what coverage counts.
    other: list[tuple[Msgid, str | None, str]]
    template_keys: list[tuple[Msgid, str | None]]
    bytecode: Any = None

    @classmethod
    def of(cls, site: Site, verified: Verified, out: Path, bytecode: Any) -> Job:
        """The job of rendering *site*, verified, into the staging folder *out*."""
        templates = verified.templates
        profiles = sorted(site.profiles.values(), key=lambda p: p.line)
        other: list[tuple[Msgid, str | None, str]] = [
            (p.name, None, PROFILES_FILE) for p in profiles]
        other += [(m.msgid, m.context, m.source) for m in templates]
        return cls(site, verified.tables, rule_values(), native_names(site.languages), out,
                   card_terms(templates), other, [(m.msgid, m.context) for m in templates],
                   bytecode)


@dataclass
class LanguageResult:
    """What one language's rendering gives the rest of the site (small; kept in the
    build's record as JSON, see :meth:`as_json`)."""

    lang: str
    fallbacks: list[tuple[str, str, int, str]] = field(default_factory=list)
    percent: dict[str, int] = field(default_factory=dict)
    overall: Counts | None = None
    pages: dict[str, Counts] = field(default_factory=dict)
    ui: list[Message] = field(default_factory=list)  # translated messages of the templates
    nav: list[tuple[Text, Text]] = field(default_factory=list)  # titles for nav_indexes(n, None)
    files: dict[str, tuple[int, int]] = field(default_factory=dict)  # size, mtime by file

    def as_json(self) -> dict[str, Any]:
        def counts(c: Counts) -> list[int]:
            return [c.translated, c.fuzzy, c.untranslated]

        return {"lang": self.lang, "fallbacks": self.fallbacks, "percent": self.percent,
                "overall": counts(self.overall) if self.overall else None,
                "pages": {k: counts(v) for k, v in self.pages.items()},
                "ui": [[m.id, m.string, m.context] for m in self.ui],
                "nav": [[t.html, t.fallback, d.html, d.fallback] for t, d in self.nav],
                "files": self.files}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LanguageResult:
        def msgid(value: Any) -> Any:
            return tuple(value) if isinstance(value, list) else value

        return cls(data["lang"], [tuple(f) for f in data["fallbacks"]],
                   data["percent"], Counts(*data["overall"]) if data["overall"] else None,
                   {k: Counts(*v) for k, v in data["pages"].items()},
                   [Message(msgid(i), msgid(s), context=c) for i, s, c in data["ui"]],
                   [(Text(Markup(t), tf), Text(Markup(d), df)) for t, tf, d, df in data["nav"]],
                   {k: tuple(v) for k, v in data["files"].items()})


def _environment(job: Job, lang: str, translator: Translator) -> Any:
    locale = "en" if lang == SOURCE_LANG else lang

    def number(value: Any, locale: str = locale) -> str:
        return format_number(value, locale)

    env = make_environment(job.site.root / TEMPLATES_DIR, translator, number, job.bytecode)
    memoize_macros(env)
    return env


def render_language(job: Job, lang: str) -> LanguageResult | list[Problem]:
    """Read and check *lang*'s catalog, render its pages and 404 page into the staging
    folder; what the rest of the site needs from it, or the catalog's problems."""
    catalog = None
    if lang != SOURCE_LANG:
        catalog, problems = read_catalog(job.site.root, lang, job.card_terms)
        if problems or catalog is None:
            return problems
    with template_errors(job.site.root / TEMPLATES_DIR):
        return _render_language(job, lang, catalog)


def _render_language(job: Job, lang: str, catalog: Any) -> LanguageResult:
    site = job.site
    result = LanguageResult(lang)
    translator = Translator(lang, catalog)
    env = _environment(job, lang, translator)
    md = MarkdownRenderer()
    values = localized_values(job.values, lang)

    def emit(rel: str, data: bytes) -> None:
        result.files[rel] = write_file(job.out, rel, data)

    titles = PageLocalizer(lang, translator, md, values)
    nav = [(page, titles.text(page.title), titles.text(page.description)) for page in site.pages]
    pages: dict[str, Counts] = {}
    for index, page in enumerate(site.pages):
        known: dict[str, str | None] | None = None  # the page's translations, or None
        if catalog is not None:  # each distinct text of the page, looked up once
            counts = pages.setdefault(page_of(page.source), Counts())
            known = {}
            for text in dict.fromkeys(s.text for s in page.segments() if s.text):
                state = coverage_state(found := catalog.get(text))
                counts.add(state)
                known[text] = str(found.string) if state == "translated" else None
        loc = PageLocalizer(lang, translator, md, values, known=known)
        title = loc.text(page.title)
        description = loc.text(page.description)
        blocks = page_blocks(page, loc, job.tables)
        path = page_path(lang, page.slug)
        ctx = _common(site, lang, page.slug, path, job.names)
        ctx.update(page=page, title=title, description=description, blocks=blocks,
                   percent=loc.percent, nav=_nav(nav, path, lang, page.slug, index),
                   games=GAME_NAMES, profiles=site.profiles)
        ctx.update(navigation.page_context(nav, path, lang, index, blocks))
        template = env.get_template("home.html" if page.slug == "index" else "page.html")
        emit(path, template.render(ctx).encode("utf-8"))
        result.percent[page.slug] = loc.percent
        result.fallbacks.extend((lang, page.source, s.line, s.text) for s in loc.missing)
    path = f"{lang}/404.html"
    ctx = _common(site, lang, None, path, job.names, absolute=True)
    ctx.update(nav=_nav(nav, path, lang, None, None, navigation.root_path(site.config.base_url)),
               percent=100)
    emit(path, env.get_template("404.html").render(ctx).encode("utf-8"))
    quickref.render(lang, env, emit, lambda slug, path: _common(  # the quick-reference sheets
        site, lang, slug, path, job.names) | {"nav": _nav(nav, path, lang, None, None)})
    result.nav = [nav[i][1:] for i in nav_indexes(len(nav), None)]
    if catalog is None:
        return result
    overall = Counts()
    seen: set[tuple[str, str, str | None]] = set()
    for msgid, context, location in job.other:
        singular = msgid[0] if isinstance(msgid, tuple) else msgid
        where = page_of(location)
        if singular and (where, singular, context) not in seen:
            seen.add((where, singular, context))
            pages.setdefault(where, Counts()).add(coverage_state(catalog.get(msgid, context)))
    distinct: set[tuple[str, str | None]] = {(text, None) for page in site.pages for text in
                (s.text for s in page.segments()) if text}
    distinct.update((msgid[0] if isinstance(msgid, tuple) else msgid, context)
                    for msgid, context, _ in job.other if msgid)
    for text, context in distinct:
        overall.add(coverage_state(catalog.get(text, context)))
    result.overall, result.pages = overall, dict(sorted(pages.items()))
    for msgid, context in job.template_keys:
        message = catalog.get(msgid, context)
        if message is not None and is_translated(message):
            result.ui.append(message)
    return result


class _Messages:
    """A few translated messages, looked up like a catalog (for :class:`Translator`)."""

    def __init__(self, messages: list[Message]) -> None:
        self.messages = {(m.id[0] if isinstance(m.id, tuple) else m.id, m.context): m
                         for m in messages}

    def get(self, id: Msgid, context: str | None = None) -> Message | None:
        return self.messages.get((id[0] if isinstance(id, tuple) else id, context))


def render_site_files(job: Job, results: dict[str, LanguageResult]
                      ) -> dict[str, tuple[int, int]]:
    """Each language's status page, the chooser, the root 404 page, sitemap, robots and
    assets, written into the staging folder; the files written (size, mtime)."""
    site = job.site
    names = job.names
    written: dict[str, tuple[int, int]] = {}

    def emit(rel: str, data: bytes | Iterable[bytes]) -> None:
        written[rel] = write_file(job.out, rel, data)

    status = [{"lang": bcp47(lang), "name": names[lang],
               "overall": results[lang].overall or Counts(), "pages": results[lang].pages}
              for lang in site.languages[1:]]
    not_found: list[dict[str, str]] = []
    with template_errors(site.root / TEMPLATES_DIR):
        for lang in site.languages:
            messages = results[lang].ui
            translator = Translator(lang, _Messages(messages) if lang != SOURCE_LANG else None)
            env = _environment(job, lang, translator)
            nav = [(site.pages[i], *results[lang].nav[n])
                   for n, i in enumerate(nav_indexes(len(site.pages), None))]
            path = page_path(lang, STATUS_SLUG)
            ctx = _common(site, lang, STATUS_SLUG, path, names)
            ctx.update(nav=_nav(nav, path, lang, STATUS_SLUG, None), status=status, percent=100)
            emit(path, env.get_template("status.html").render(ctx).encode("utf-8"))
            not_found.append({"lang": bcp47(lang), "name": names[lang],
                              "title": translator.gettext("Page not found"),
                              "link": translator.gettext("Go to the rules index"),
                              "href": navigation.root_path(site.config.base_url)
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
    slugs = [p.slug for p in site.pages] + [STATUS_SLUG]
    per_file = max(1, SITEMAP_URLS // len(site.languages))
    parts = [slugs[start:start + per_file] for start in range(0, len(slugs), per_file)]
    if len(parts) == 1:
        emit("sitemap.xml", _sitemap(site, slugs))
    else:  # more URLs than one sitemap may list: several, and an index of them
        for number, part in enumerate(parts, 1):
            emit(f"sitemap-{number}.xml", _sitemap(site, part))
        emit("sitemap.xml", _sitemap_index(site.config.base_url, len(parts)))
    emit("robots.txt", (f"User-agent: *\nAllow: /\n\nSitemap: {site.config.base_url}"
                        "sitemap.xml\n").encode())
    for asset in sorted((site.root / TEMPLATES_DIR / ASSETS_DIR).rglob("*")):
        if asset.is_file():
            data = asset.read_bytes()
            emit(asset.relative_to(site.root / TEMPLATES_DIR).as_posix(),
                 navigation.stylesheet(data) if asset.suffix == ".css" else data)
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
    root = navigation.root_path(base)  # the 404 pages link from the site's root: any host

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
        **navigation.common_context(site.root, lang, path, href),
    }


def _nav(nav: Any, path: str, lang: str, current: str | None,
         index: int | None, base: str | None = None) -> list[Item]:
    """The navigation of one page: every page, or on a large site the pages around *index*.

    *nav* lists every page of the site, or (for pages that are not content pages) the
    pages that :func:`nav_indexes` gives for no current page.
    """
    chosen = [nav[i] for i in nav_indexes(len(nav), index)]
    return [Item(title=title, description=description, current=page.slug == current,
                 href=(base + page_path(lang, page.slug)) if base
                 else relative(path, page_path(lang, page.slug)))
            for page, title, description in chosen]


def xml_escape(text: str) -> str:
    """Escape ``&``, ``<`` and ``>`` (as ``xml.sax.saxutils.escape``, without its imports)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """An XML attribute value with its quotes (as ``xml.sax.saxutils.quoteattr``).

    >>> print(quoteattr('a&b'), quoteattr('say "hi"'))
    "a&amp;b" 'say "hi"'
    """
    text = xml_escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' in text:
        if "'" in text:
            return '"{}"'.format(text.replace('"', "&quot;"))
        return f"'{text}'"
    return f'"{text}"'


def _sitemap_index(base: str, count: int) -> bytes:
    """``sitemap.xml`` as the index of ``sitemap-1.xml`` to ``sitemap-COUNT.xml``."""
    entries = "".join(f"  <sitemap><loc>{xml_escape(base)}sitemap-{n}.xml</loc></sitemap>\n"
                      for n in range(1, count + 1))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            f"{entries}</sitemapindex>\n").encode()


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
            lines.append(f"  <url>\n    <loc>{xml_escape(page_url(base, lang, slug))}</loc>")
            lines.extend(alternates)
        yield ("\n".join(lines) + "\n").encode("utf-8")
    yield b"</urlset>\n"
