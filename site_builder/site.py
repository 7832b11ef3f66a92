"""Stage 3: render every page of every language, plus the chooser, 404s, status page and sitemap."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from site_builder.build import TEMPLATES_DIR, Site
from site_builder.content import Page
from site_builder.examples import GAME_NAMES, Verification
from site_builder.i18n import SOURCE_LANG, Counts, Translator, coverage, native_name
from site_builder.render import (
    MarkdownRenderer,
    PageLocalizer,
    localized_values,
    make_environment,
    page_blocks,
    relative,
    rule_values,
)

ASSETS_DIR = "assets"
STATUS_SLUG = "translation-status"
CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; "
       "base-uri 'none'; form-action 'none'")


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


def render_site(site: Site, verification: Verification,
                bytecode: Any = None) -> tuple[dict[str, bytes], dict[str, Any]]:
    """Render every output file in memory. Returns the files and build statistics.

    *bytecode* is a Jinja2 bytecode cache shared by the languages' environments
    (:func:`site_builder.cache.bytecode_cache`); without one, one is made here.
    """
    from site_builder.cache import bytecode_cache

    bytecode = bytecode if bytecode is not None else bytecode_cache(None)
    files: dict[str, bytes] = {}
    md = MarkdownRenderer()
    values = rule_values()
    tables = {(src, line): t for (src, line), t in verification.tables.items()}
    names = {lang: native_name(lang) for lang in site.languages}
    fallbacks: list[tuple[str, str, int, str]] = []
    page_percent: dict[str, dict[str, int]] = {}
    slugs = [p.slug for p in site.pages] + [STATUS_SLUG]
    status = _status_rows(site, names)
    not_found: list[dict[str, str]] = []

    for lang in site.languages:
        catalog = site.catalogs.get(lang)
        translator = Translator(lang, catalog.catalog if catalog else None)
        locale = "en" if lang == SOURCE_LANG else lang

        def number(value: Any, locale: str = locale) -> str:
            return format_number(value, locale)

        env = make_environment(str(site.root / TEMPLATES_DIR), translator, number, bytecode)
        lvalues = localized_values(values, lang)
        nav_loc = PageLocalizer(lang, translator, md, lvalues)
        nav = [(p, nav_loc.text(p.title), nav_loc.text(p.description)) for p in site.pages]
        for page in site.pages:
            loc = PageLocalizer(lang, translator, md, lvalues)
            title = loc.text(page.title)
            description = loc.text(page.description)
            page_tables = {line: t for (src, line), t in tables.items() if src == page.source}
            blocks = page_blocks(page, loc, page_tables)
            path = page_path(lang, page.slug)
            ctx = _common(site, env, lang, page.slug, path, names)
            ctx.update(
                page=page, title=title, description=description, blocks=blocks,
                percent=loc.percent, nav=_nav(nav, path, lang, page.slug),
                games=GAME_NAMES,
            )
            template = "home.html" if page.slug == "index" else "page.html"
            files[path] = env.get_template(template).render(ctx).encode("utf-8")
            page_percent.setdefault(lang, {})[page.slug] = loc.percent
            fallbacks.extend((lang, page.source, s.line, s.text) for s in loc.missing)
        # the translation status page and the 404 page of this language
        path = page_path(lang, STATUS_SLUG)
        ctx = _common(site, env, lang, STATUS_SLUG, path, names)
        ctx.update(nav=_nav(nav, path, lang, STATUS_SLUG), status=status, percent=100)
        files[path] = env.get_template("status.html").render(ctx).encode("utf-8")
        path = f"{lang}/404.html"
        ctx = _common(site, env, lang, None, path, names, absolute=True)
        ctx.update(nav=_nav(nav, path, lang, None, site.config.base_url), percent=100)
        files[path] = env.get_template("404.html").render(ctx).encode("utf-8")
        not_found.append({"lang": lang, "name": names[lang],
                          "title": translator.gettext("Page not found"),
                          "link": translator.gettext("Go to the rules index"),
                          "href": site.config.base_url + page_path(lang, "index")})
        if lang == SOURCE_LANG:
            chooser_env = env

    ctx = _common(site, chooser_env, SOURCE_LANG, "index", "index.html", names)
    ctx.update(choices=[{"lang": lang, "name": names[lang],
                         "href": relative("index.html", page_path(lang, "index"))}
                        for lang in site.languages], percent=100)
    files["index.html"] = chooser_env.get_template("chooser.html").render(ctx).encode("utf-8")
    ctx = _common(site, chooser_env, SOURCE_LANG, None, "404.html", names, absolute=True)
    ctx.update(choices=not_found, percent=100)
    files["404.html"] = chooser_env.get_template("404-root.html").render(ctx).encode("utf-8")
    files["sitemap.xml"] = _sitemap(site, slugs).encode("utf-8")
    files["robots.txt"] = (f"User-agent: *\nAllow: /\n\nSitemap: {site.config.base_url}"
                           "sitemap.xml\n").encode()
    for asset in sorted((site.root / TEMPLATES_DIR / ASSETS_DIR).rglob("*")):
        if asset.is_file():
            rel = asset.relative_to(site.root / TEMPLATES_DIR).as_posix()
            files[rel] = asset.read_bytes()
    stats = {"fallbacks": fallbacks, "percent": page_percent, "pages": len(files)}
    return files, stats


def _common(site: Site, env: Any, lang: str, slug: str | None, path: str,
            names: dict[str, str], absolute: bool = False) -> dict[str, Any]:
    """Context every template gets: links, switcher, alternates, metadata."""
    base = site.config.base_url

    def href(target: str) -> str:
        return base + target if absolute else relative(path, target)

    switcher = []
    alternates = []
    if slug is not None:
        for other in site.languages:
            switcher.append({"lang": other, "name": names[other], "current": other == lang,
                             "href": href(page_path(other, slug))})
            alternates.append({"hreflang": other, "href": page_url(base, other, slug)})
        default = base if slug == "index" else page_url(base, SOURCE_LANG, slug)
        alternates.append({"hreflang": "x-default", "href": default})
    else:
        for other in site.languages:
            switcher.append({"lang": other, "name": names[other], "current": other == lang,
                             "href": href(page_path(other, "index"))})
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
    }


def _nav(nav: list[tuple[Page, Any, Any]], path: str, lang: str, current: str | None,
         base: str | None = None) -> list[dict[str, Any]]:
    return [{"title": title, "description": description, "current": page.slug == current,
             "href": (base + page_path(lang, page.slug)) if base
             else relative(path, page_path(lang, page.slug))}
            for page, title, description in nav]


def _status_rows(site: Site, names: dict[str, str]) -> list[dict[str, Any]]:
    from site_builder.source import source_catalog

    source = source_catalog(site)
    rows = []
    for lang in site.languages[1:]:
        loaded = site.catalogs.get(lang)
        overall, pages = coverage(source, loaded.catalog if loaded else None)
        rows.append({"lang": lang, "name": names[lang], "overall": overall,
                     "pages": pages})
    return rows


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


def _sitemap(site: Site, slugs: list[str]) -> str:
    base = site.config.base_url
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
             'xmlns:xhtml="http://www.w3.org/1999/xhtml">']
    for slug in slugs:
        for lang in site.languages:
            lines.append(f"  <url>\n    <loc>{xml_escape(page_url(base, lang, slug))}</loc>")
            for other in site.languages:
                lines.append(f'    <xhtml:link rel="alternate" hreflang="{other}" '
                             f"href={quoteattr(page_url(base, other, slug))}/>")
            default = base if slug == "index" else page_url(base, SOURCE_LANG, slug)
            lines.append(f'    <xhtml:link rel="alternate" hreflang="x-default" '
                         f"href={quoteattr(default)}/>\n  </url>")
    lines.append("</urlset>\n")
    return "\n".join(lines)


__all__ = ["render_site", "page_path", "Counts", "Path"]
