"""Stage 3, the site-wide files: each language's translation status page, the language
chooser, the root 404 page, the sitemap, ``robots.txt`` and the assets."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from site_builder.i18n.coverage import GROUP_TITLES, Counts, left_by_page, with_unknown
from site_builder.i18n.locales import bcp47
from site_builder.i18n.translator import Key, Translator, Unknown
from site_builder.project import (
    SOURCE_LANG,
    STATUS_SLUG,
    TEMPLATES_DIR,
    not_found_path,
    page_path,
    page_url,
    relative,
    root_path,
)
from site_builder.render import checker_rules, facts, play
from site_builder.render.context import ASSETS_DIR, common, sidebar
from site_builder.render.minify import script, stylesheet
from site_builder.render.pages import Job, LanguageResult, environment
from site_builder.sources.templates import macro, template_errors


def render_site_files(job: Job, results: dict[str, LanguageResult]
                      ) -> tuple[dict[str, tuple[int, int]], dict[str, dict[Key, Unknown]]]:
    """Each language's status page, the chooser, the root 404 page, sitemap, robots and
    assets, written into the staging folder: the files written (size, mtime), and each
    language's messages looked up that the template lacks (its pages' and these files')."""
    site = job.site
    names = job.names
    written: dict[str, tuple[int, int]] = {}

    def emit(rel: str, data: bytes | Iterable[bytes]) -> None:
        written[rel] = job.write(rel, data)

    unknown = {lang: dict(results[lang].unknown) for lang in site.languages}
    translators = {lang: job.translator(lang, unknown[lang]) for lang in site.languages}
    not_found = [{"lang": bcp47(lang), "name": names[lang],
                  # Translators: heading (and title) of the page shown at a missing address;
                  # the site-wide one lists it in every language, with 'Go to the rules index'.
                  "title": translators[lang].gettext("Page not found"),
                  # Translators: a link on the page shown at a missing address, to the
                  # rules' first page in this language; its name follows in brackets; imperative.
                  "link": translators[lang].gettext("Go to the rules index"),
                  "href": root_path(site.config.base_url) + page_path(lang, "index")}
                 for lang in site.languages]
    with template_errors(site.root / TEMPLATES_DIR):
        envs = {lang: environment(job, lang, translators[lang]) for lang in site.languages}
        # A status page counts each message looked up that the template lacks as
        # untranslated (it is shown in English): those its language's pages looked up,
        # which render gave as data (*results*), so that each status page is rendered once.
        # One only a status page looks up is reported (among the lookups), not counted.
        counted = {lang: with_unknown(results[lang].overall, results[lang].pages,
                                      results[lang].unknown.values())
                   for lang in site.languages[1:]}
        for lang in site.languages:
            path = page_path(lang, STATUS_SLUG)
            ctx = common(site, lang, STATUS_SLUG, path, names)
            draw = macro(envs[lang], "_nav.html", "sidebar_item")
            ctx.update(sidebar(results[lang].nav, path, lang, STATUS_SLUG, draw),
                       status=status_rows(counted, results, names, translators[lang], path),
                       percent=100)
            emit(path, envs[lang].get_template("status.html").render(ctx).encode("utf-8"))
        chooser_env = envs[SOURCE_LANG]
        ctx = common(site, SOURCE_LANG, "index", "index.html", names)
        ctx.update(choices=[{"lang": bcp47(lang), "name": names[lang],
                             "href": relative("index.html", page_path(lang, "index"))}
                            for lang in site.languages], percent=100)
        emit("index.html", chooser_env.get_template("chooser.html").render(ctx).encode("utf-8"))
        ctx = common(site, SOURCE_LANG, None, not_found_path(), names, absolute=True)
        ctx.update(choices=not_found, percent=100)
        emit(not_found_path(),
             chooser_env.get_template("404-root.html").render(ctx).encode("utf-8"))
    for rel, pieces in sitemaps(site.config.base_url, site.languages,
                                [p.slug for p in site.pages] + [STATUS_SLUG]):
        emit(rel, pieces)
    emit("robots.txt", (f"User-agent: *\nAllow: /\n\nSitemap: {site.config.base_url}"
                        "sitemap.xml\n").encode())
    for asset in sorted((site.root / TEMPLATES_DIR / ASSETS_DIR).rglob("*")):
        if asset.is_file():
            data = asset.read_bytes()
            emit(asset.relative_to(site.root / TEMPLATES_DIR).as_posix(),
                 stylesheet(data) if asset.suffix == ".css"
                 else script(data) if asset.suffix == ".js" else data)
    emit(checker_rules.ASSET, checker_rules.rules_asset(site.profiles))  # the checker's rule data
    emit(facts.ASSET, facts.facts_asset())  # what every island knows of the engine
    if any(page.play for page in site.pages):  # the practice table's runtime and engine
        for rel, data in play.files(site.root, job.play_archive, job.play_snapshot):
            emit(rel, data)
    return written, unknown


def status_rows(counted: dict[str, tuple[Counts, dict[str, Counts]]],
                results: dict[str, LanguageResult], names: dict[str, str],
                translator: Translator, path: str) -> list[dict[str, Any]]:
    """The status page's rows, for a reader of *translator*'s language at *path*: each
    translation's counts, and its pages (and groups of texts) with something left, each page
    named in that translation and linked there, where its English shows."""
    rows = []
    for lang, (overall, pages) in counted.items():
        titles = {page.slug: title for page, title, _ in results[lang].nav}
        left = [{"title": titles.get(page) or translator.gettext(GROUP_TITLES.get(page, page)),
                 "href": relative(path, page_path(lang, page)) if page in titles else None,
                 "untranslated": counts.untranslated, "fuzzy": counts.fuzzy}
                for page, counts in left_by_page(pages)]
        rows.append({"lang": bcp47(lang), "name": names[lang], "overall": overall,
                     "left": left})
    return rows


#: The sitemap protocol's limit of addresses in one file (https://www.sitemaps.org/protocol.html).
SITEMAP_URLS = 50_000


def sitemaps(base: str, languages: list[str], slugs: list[str], limit: int = SITEMAP_URLS
             ) -> list[tuple[str, Iterable[bytes]]]:
    """The sitemap's files: ``sitemap.xml`` with every page in every language; or, for a
    site of more than *limit* addresses (10,000 pages in five languages), ``sitemap.xml``
    an index of ``sitemap-1.xml``, ``sitemap-2.xml``, ..., each of at most *limit*.

    >>> [name for name, _ in sitemaps("https://x.org/", ["en", "pl"], ["a", "b", "c"], 4)]
    ['sitemap.xml', 'sitemap-1.xml', 'sitemap-2.xml']
    >>> print(b"".join(sitemaps("https://x.org/", ["en"], ["a", "b"], 1)[0][1]).decode())
    <?xml version="1.0" encoding="UTF-8"?>
    <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sitemap><loc>https://x.org/sitemap-1.xml</loc></sitemap>
      <sitemap><loc>https://x.org/sitemap-2.xml</loc></sitemap>
    </sitemapindex>
    <BLANKLINE>
    """
    if len(slugs) * len(languages) <= limit:
        return [("sitemap.xml", _sitemap(base, languages, slugs))]
    per = max(1, limit // len(languages))  # the pages of a file, each in every language
    parts = [slugs[i:i + per] for i in range(0, len(slugs), per)]
    names = [f"sitemap-{n}.xml" for n in range(1, len(parts) + 1)]
    index = "".join(f"  <sitemap><loc>{escape(base + name)}</loc></sitemap>\n" for name in names)
    return [("sitemap.xml", [b'<?xml version="1.0" encoding="UTF-8"?>\n'
                             b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                             b"\n" + index.encode("utf-8") + b"</sitemapindex>\n"]),
            *((name, _sitemap(base, languages, part)) for name, part in zip(names, parts,
                                                                              strict=True))]


def _sitemap(base: str, languages: list[str], slugs: list[str]) -> Iterator[bytes]:
    """A sitemap of *slugs* in every language, in pieces (one per page, in every
    language), so that a large site's sitemap is never held in memory whole."""
    yield (b'<?xml version="1.0" encoding="UTF-8"?>\n'
           b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
           b'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n')
    for slug in slugs:
        lines = []
        alternates = [f'    <xhtml:link rel="alternate" hreflang="{bcp47(other)}" '
                      f"href={quoteattr(page_url(base, other, slug))}/>"
                      for other in languages]
        default = base if slug == "index" else page_url(base, SOURCE_LANG, slug)
        alternates.append(f'    <xhtml:link rel="alternate" hreflang="x-default" '
                          f"href={quoteattr(default)}/>\n  </url>")
        for lang in languages:
            lines.append(f"  <url>\n    <loc>{escape(page_url(base, lang, slug))}</loc>")
            lines.extend(alternates)
        yield ("\n".join(lines) + "\n").encode("utf-8")
    yield b"</urlset>\n"
