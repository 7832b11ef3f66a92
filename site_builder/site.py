"""Stage 3: render every page of every language, plus the chooser, 404s, status page and sitemap.

Rendering is split in two so that languages can be rendered apart (in parallel, or
only the one whose catalog changed):

* :func:`render_language` renders one language's pages and its 404 page, and returns
  what the rest of the site needs from it (:class:`LanguageResult`: coverage for the
  status page, the strings of the templates, the nav titles);
* :func:`render_globals` renders what depends on every language: each language's
  translation status page, the language chooser, the root 404 page, the sitemap,
  ``robots.txt`` and the assets.

Each output file is handed to an *emit* callback as soon as it is rendered, so that
a large site is never held in memory. :func:`render_site` puts it all together in
memory, for small sites and tests.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace as Item
from typing import Any

from site_builder import navigation, quickref
from site_builder.build import TEMPLATES_DIR, Site
from site_builder.content import Page
from site_builder.examples import GAME_NAMES, Verification, VerifiedTable
from site_builder.i18n import (
    SOURCE_LANG,
    Counts,
    Translator,
    coverage_state,
    is_translated,
    native_names,
    page_of,
)
from site_builder.po import CompactCatalog, message_key, text_keys
from site_builder.render import (
    MarkdownRenderer,
    PageLocalizer,
    Text,
    example_key,
    localized_values,
    memoize_macros,
    page_blocks,
    relative,
    rule_values,
)
from site_builder.source import other_keys
from site_builder.templating import make_environment

ASSETS_DIR = "assets"
STATUS_SLUG = "translation-status"
CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; "
       "base-uri 'none'; form-action 'none'")
# A site with up to this many pages lists every page in every page's navigation; a
# larger one lists the pages around the current one (the home page lists them all).
NAV_FULL_UP_TO = 50
NAV_AROUND = 5
# A sitemap file lists at most this many URLs (sitemaps.org); a site with more gets
# several, and ``sitemap.xml`` is their index.
SITEMAP_URLS = 50_000

Emit = Callable[[str, bytes | Iterable[bytes]], None]  # a file's bytes, or its pieces


def page_path(lang: str, slug: str) -> str:
    """The output file of a page: ``pl/index.html``, ``pl/first-meld/index.html``."""
    return f"{lang}/index.html" if slug == "index" else f"{lang}/{slug}/index.html"


def page_url(base_url: str, lang: str, slug: str) -> str:
    return base_url + (f"{lang}/" if slug == "index" else f"{lang}/{slug}/")


@functools.lru_cache(maxsize=4096)
def format_number(value: Any, locale: str) -> str:
    """A number in the locale's notation (CLDR), e.g. ``1 000`` in Polish; memoized."""
    from babel.numbers import format_decimal

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


# --- what every language shares -------------------------------------------------------------


@dataclass
class Shared:
    """What every language's rendering reads; made once, before any worker starts."""

    site: Site
    # The verified example tables by page source, then block line; None for a scanned
    # site (:func:`site_builder.build.scan_site`), whose tables are replayed as each
    # page is rendered.
    tables: dict[str, dict[int, VerifiedTable]] | None
    values: dict[str, int]
    names: dict[str, str]
    template_keys: list[tuple[str | None, str | tuple[str, str]]]
    # The (msgid, context, file) of the messages that are not in pages (see
    # :func:`site_builder.source.other_keys`), and the keys of every source message (see
    # :func:`source_keys`): what each language's coverage counts.
    other_keys: list[tuple[str | tuple[str, str], str | None, str]]
    source_keys: set[bytes]
    bytecode: Any = None
    tools: dict[str, Any] = field(default_factory=dict)  # see :func:`language_tools`
    verifier: Any = None  # a scanned site's, made in each process that renders

    def pages(self, start: int = 0, stop: int | None = None
              ) -> Iterator[tuple[Page, Mapping[int, VerifiedTable], Mapping[int, str]]]:
        """Each page from *start* to *stop* with its blocks, its verified tables by block
        line, and its blocks' :func:`site_builder.render.example_key` by line."""
        from site_builder.build import Verifier

        if self.tables is None and self.verifier is None:  # kept: it remembers the blocks
            self.verifier = Verifier(self.site.profiles)
        verifier = self.verifier if self.tables is None else None
        for page in self.site.bodies(start, stop):
            keys = {block.line: example_key(block) for block in page.examples}
            if verifier is None:
                assert self.tables is not None
                yield page, self.tables.get(page.source, {}), keys
            else:
                yield page, {block.line: verifier.replay(page.source, block, keys[block.line])
                             for block in page.examples}, keys


def prepare(site: Site, verification: Verification, bytecode: Any = None,
            names: dict[str, str] | None = None) -> Shared:
    """What every language's rendering reads (:class:`Shared`); *names*, each language's
    name for itself, if they are known already."""
    from site_builder.cache import bytecode_cache
    from site_builder.templates_i18n import template_keys

    tables: dict[str, dict[int, VerifiedTable]] | None = None
    if site.digests is None:
        tables = {}
        for (src, line), table in verification.tables.items():
            tables.setdefault(src, {})[line] = table
    templates = template_keys(site.root)
    other = list(other_keys(site, templates))
    return Shared(
        site=site,
        tables=tables,
        values=rule_values(),
        names=names if names is not None else native_names(site.languages),
        template_keys=[(context, msgid) for _, context, msgid in templates],
        other_keys=other,
        source_keys=source_keys(site, other),
        bytecode=bytecode if bytecode is not None else bytecode_cache(None),
    )


# --- one language ---------------------------------------------------------------------------


@dataclass
class LanguageResult:
    """What one language's rendering gives the rest of the site (small, picklable)."""

    lang: str
    fallbacks: list[tuple[str, str, int, str]] = field(default_factory=list)
    percent: dict[str, int] = field(default_factory=dict)
    overall: Counts | None = None
    pages: dict[str, Counts] = field(default_factory=dict)
    ui: list[Any] = field(default_factory=list)  # translated messages of the templates
    nav: list[tuple[Text, Text]] = field(default_factory=list)  # titles for nav_indexes(n, None)


def _environment(shared: Shared, lang: str, translator: Translator) -> Any:
    locale = "en" if lang == SOURCE_LANG else lang

    def number(value: Any, locale: str = locale) -> str:
        return format_number(value, locale)

    env = make_environment(str(shared.site.root / TEMPLATES_DIR), translator, number,
                           shared.bytecode)
    memoize_macros(env)
    return env


@dataclass
class PagesResult:
    """What rendering a run of one language's pages gives (small, picklable)."""

    fallbacks: list[tuple[str, str, int, str]] = field(default_factory=list)
    percent: dict[str, int] = field(default_factory=dict)
    pages: dict[str, Counts] = field(default_factory=dict)  # coverage, by page


class _NavTitles:
    """Every page's localized title and description, for navigation, made when asked
    for: a page's navigation lists the pages around it, so the last few hundred made
    are kept."""

    KEEP = 256

    def __init__(self, pages: list[Page], loc: PageLocalizer) -> None:
        from collections import OrderedDict

        self.pages = pages
        self.loc = loc
        self.made: OrderedDict[int, tuple[Page, Text, Text]] = OrderedDict()

    def __len__(self) -> int:
        return len(self.pages)

    def __getitem__(self, index: int) -> tuple[Page, Text, Text]:
        found = self.made.get(index)
        if found is None:
            page = self.pages[index]
            found = self.made[index] = (page, self.loc.text(page.title),
                                        self.loc.text(page.description))
            if len(self.made) > self.KEEP:
                self.made.popitem(last=False)
            self.loc.missing.clear()  # the navigation's fallbacks are its pages' to count
        else:
            self.made.move_to_end(index)
        return found


def language_tools(shared: Shared, lang: str, catalog: Any, load: bool = False) -> tuple[
        Translator, Any, MarkdownRenderer, dict[str, str], _NavTitles]:
    """What rendering *lang* with *catalog* takes: its translator, its Jinja2 environment,
    Markdown, rule values and navigation titles; made once per language and catalog.

    With *load*, every template is loaded into the environment now (before worker
    processes are forked, which then share them).
    """
    found = shared.tools.get(lang)
    if found is None or found[0].catalog is not catalog:
        found = shared.tools[lang] = _language_tools(shared, lang, catalog)
    if load:
        env = found[1]
        for name in env.list_templates(extensions=["html"]):
            env.get_template(name)
    return found  # type: ignore[no-any-return]


def _language_tools(shared: Shared, lang: str, catalog: Any) -> tuple[
        Translator, Any, MarkdownRenderer, dict[str, str], _NavTitles]:
    translator = Translator(lang, catalog)
    env = _environment(shared, lang, translator)
    md = MarkdownRenderer()
    lvalues = localized_values(shared.values, lang)
    nav = _NavTitles(shared.site.pages, PageLocalizer(lang, translator, md, lvalues))
    return translator, env, md, lvalues, nav


def render_pages(shared: Shared, catalogs: Mapping[str, Any], emit: Emit,
                 start: int = 0, stop: int | None = None) -> dict[str, PagesResult]:
    """Render the pages from *start* to *stop* (by position in the site) in each language
    of *catalogs* (language -> catalog, None for the source language).

    Each page is read and its examples replayed once, then rendered in every language.
    """
    site = shared.site
    tools = {lang: language_tools(shared, lang, catalog) for lang, catalog in catalogs.items()}
    results = {lang: PagesResult() for lang in catalogs}
    stop = len(site.pages) if stop is None else stop
    for index, (page, tables, keys) in enumerate(shared.pages(start, stop), start):
        messages: dict[str, bytes] | None = None  # the page's messages, by message_key
        for lang, catalog in catalogs.items():
            translator, env, md, lvalues, nav = tools[lang]
            result = results[lang]
            known: dict[str, str | None] | None = None
            if catalog is not None:
                if messages is None:
                    messages = text_keys(s.text for s in page.segments())
                # Each message is looked up once: to be counted, and to be rendered.
                counts = result.pages.setdefault(page_of(page.source), Counts())
                known = {}
                for text, key in messages.items():
                    state = coverage_state(found := catalog.get_key(key, text))
                    counts.add(state)
                    known[text] = str(found.string) if state == "translated" else None
            loc = PageLocalizer(lang, translator, md, lvalues, known=known)
            title = loc.text(page.title)
            description = loc.text(page.description)
            blocks = page_blocks(page, loc, tables, keys)
            path = page_path(lang, page.slug)
            ctx = _common(site, lang, page.slug, path, shared.names)
            ctx.update(
                page=page, title=title, description=description, blocks=blocks,
                percent=loc.percent, nav=_nav(nav, path, lang, page.slug, index),
                games=GAME_NAMES,
            )
            ctx.update(navigation.page_context(nav, path, lang, index, blocks))
            template = env.get_template("home.html" if page.slug == "index" else "page.html")
            emit(path, template.render(ctx).encode("utf-8"))
            result.percent[page.slug] = loc.percent
            result.fallbacks.extend((lang, page.source, s.line, s.text) for s in loc.missing)
    return results


def finish_language(shared: Shared, lang: str, catalog: Any, emit: Emit,
                    parts: list[PagesResult]) -> LanguageResult:
    """Render *lang*'s 404 page, and put together what its pages gave (*parts*, in page
    order) as the language's result."""
    site = shared.site
    _, env, _, _, nav = language_tools(shared, lang, catalog)
    path = f"{lang}/404.html"
    ctx = _common(site, lang, None, path, shared.names, absolute=True)
    ctx.update(nav=_nav(nav, path, lang, None, None, navigation.root_path(site.config.base_url)),
               percent=100)
    emit(path, env.get_template("404.html").render(ctx).encode("utf-8"))
    quickref.render(lang, env, emit, lambda slug, path: _common(  # the quick-reference sheets
        site, lang, slug, path, shared.names) | {"nav": _nav(nav, path, lang, None, None)})
    result = LanguageResult(lang)
    result.nav = [nav[i][1:] for i in nav_indexes(len(nav), None)]
    pages: dict[str, Counts] = {}
    for part in parts:
        result.fallbacks.extend(part.fallbacks)
        result.percent.update(part.percent)
        for name, counts in part.pages.items():
            pages.setdefault(name, Counts()).merge(counts)
    if lang == SOURCE_LANG:
        return result
    overall = Counts()
    for key in shared.source_keys:
        overall.add(coverage_state(catalog.get_key(key)))
    seen: set[tuple[str, str, str | None]] = set()
    for msgid, context, location in shared.other_keys:
        singular = msgid[0] if isinstance(msgid, tuple) else msgid
        where = page_of(location)
        if singular and (where, singular, context) not in seen:
            seen.add((where, singular, context))
            pages.setdefault(where, Counts()).add(coverage_state(catalog.get(msgid, context)))
    result.overall, result.pages = overall, dict(sorted(pages.items()))
    for context, msgid in shared.template_keys:
        message = catalog.get(msgid, context)
        if message is not None and is_translated(message):
            result.ui.append(message)
    return result


def source_keys(site: Site, other: Iterable[tuple[str | tuple[str, str], str | None, str]]
                ) -> set[bytes]:
    """The distinct source messages of the site, by :func:`site_builder.po.message_key`:
    its pages' and the *other* (:func:`site_builder.source.other_keys`)."""
    keys = set(site.page_keys) if site.page_keys is not None else {
        key for page in site.pages for key in text_keys(s.text for s in page.segments()).values()}
    keys.update(message_key(msgid, context)
                for msgid, context, _ in other if msgid)
    return keys


def render_language(shared: Shared, lang: str, catalog: Any, emit: Emit) -> LanguageResult:
    """Render *lang*'s pages and its 404 page; *catalog* is None for the source language.

    A catalog other than a :class:`site_builder.po.CompactCatalog` (a Babel catalog, say)
    is made into one first.
    """
    if catalog is not None:
        catalog = CompactCatalog.of(catalog)
    return finish_language(shared, lang, catalog, emit,
                           [render_pages(shared, {lang: catalog}, emit)[lang]])


# --- what depends on every language ---------------------------------------------------------


class _Messages:
    """A few translated messages, looked up like a catalog (for :class:`Translator`)."""

    def __init__(self, messages: list[Any]) -> None:
        self.messages = {(m.id[0] if isinstance(m.id, tuple) else m.id, m.context): m
                         for m in messages}

    def get(self, id: str, context: str | None = None) -> Any:
        return self.messages.get((id, context))


def render_globals(shared: Shared, results: dict[str, LanguageResult], emit: Emit) -> None:
    """Each language's status page, the chooser, the root 404 page, sitemap, robots, assets."""
    site = shared.site
    names = shared.names
    status = [{"lang": lang, "name": names[lang], "overall": results[lang].overall or Counts(),
               "pages": results[lang].pages} for lang in site.languages[1:]]
    not_found: list[dict[str, str]] = []
    for lang in site.languages:
        messages = results[lang].ui
        translator = Translator(lang, _Messages(messages) if lang != SOURCE_LANG else None)
        env = _environment(shared, lang, translator)
        nav = [(site.pages[i], *results[lang].nav[n])
               for n, i in enumerate(nav_indexes(len(site.pages), None))]
        path = page_path(lang, STATUS_SLUG)
        ctx = _common(site, lang, STATUS_SLUG, path, names)
        ctx.update(nav=_nav(nav, path, lang, STATUS_SLUG, None), status=status, percent=100)
        emit(path, env.get_template("status.html").render(ctx).encode("utf-8"))
        not_found.append({"lang": lang, "name": names[lang],
                          "title": translator.gettext("Page not found"),
                          "link": translator.gettext("Go to the rules index"),
                          "href": navigation.root_path(site.config.base_url)
                          + page_path(lang, "index")})
        if lang == SOURCE_LANG:
            chooser_env = env
    ctx = _common(site, SOURCE_LANG, "index", "index.html", names)
    ctx.update(choices=[{"lang": lang, "name": names[lang],
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


def render_site(site: Site, verification: Verification,
                bytecode: Any = None) -> tuple[dict[str, bytes], dict[str, Any]]:
    """Render every output file in memory. Returns the files and build statistics.

    Uses the catalogs loaded in *site*. *bytecode* is a Jinja2 bytecode cache shared by
    the languages' environments (:func:`site_builder.cache.bytecode_cache`).
    """
    files: dict[str, bytes] = {}

    def emit(rel: str, data: bytes | Iterable[bytes]) -> None:
        files[rel] = data if isinstance(data, bytes) else b"".join(data)

    shared = prepare(site, verification, bytecode)
    results = {}
    for lang in site.languages:
        loaded = site.catalogs.get(lang)
        results[lang] = render_language(shared, lang, loaded.catalog if loaded else None, emit)
    render_globals(shared, results, emit)
    return files, summary(results, len(files))


def summary(results: dict[str, LanguageResult], count: int) -> dict[str, Any]:
    return {"fallbacks": [f for r in results.values() for f in r.fallbacks],
            "percent": {lang: r.percent for lang, r in results.items()}, "pages": count}


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
            switcher.append(Item(lang=other, name=names[other], current=other == lang,
                                 href=href(page_path(other, slug))))
            alternates.append(Item(hreflang=other, href=page_url(base, other, slug)))
        default = base if slug == "index" else page_url(base, SOURCE_LANG, slug)
        alternates.append(Item(hreflang="x-default", href=default))
    else:
        for other in site.languages:
            switcher.append(Item(lang=other, name=names[other], current=other == lang,
                                 href=href(page_path(other, "index"))))
    canonical = (base if path == "index.html" else page_url(base, lang, slug)) if slug else None
    return {
        "lang": lang,
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
         index: int | None, base: str | None = None) -> list[dict[str, Any]]:
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
        alternates = [f'    <xhtml:link rel="alternate" hreflang="{other}" '
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


__all__ = ["render_site", "render_language", "render_globals", "page_path", "Counts", "Path"]
