"""The source catalog: every English message of the site, with its references.

It holds the same messages, in the same order, as ``pybabel extract -F babel.cfg``
would write; ``site-builder i18n extract`` writes it as ``locales/messages.pot``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from babel.messages.catalog import Catalog

from site_builder.examples import PROFILES_FILE
from site_builder.extract import _segment_kinds
from site_builder.templates_i18n import FileKey, template_keys, template_messages

if TYPE_CHECKING:
    from site_builder.build import Site
    from site_builder.content import Page

PROJECT = "Rami rules"
FIXED_DATE = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


SourceEntry = tuple[str | tuple[str, str], str | None, str, int, list[str]]


def source_entries(site: Site) -> Iterator[SourceEntry]:
    """Every source message as (msgid, context, file, line, comments), in catalog order:
    content segments by page, then rule profile names, then template strings."""
    for page in sorted(site.pages, key=lambda p: p.source):
        yield from page_entries(page)
    yield from other_entries(site)


def page_entries(page: Page) -> Iterator[SourceEntry]:
    """The source messages of one page (see :func:`source_entries`)."""
    kinds = _segment_kinds(page)
    for segment in page.segments():
        yield (segment.text, None, page.source, segment.line,
               [kinds.get(id(segment), "paragraph")])


def other_entries(site: Site) -> Iterator[SourceEntry]:
    """The source messages that are not in pages: rule profile names, template strings."""
    yield from _profile_entries(site)
    for message in template_messages(site.root):
        yield (message.msgid, message.context, message.source, message.line,
               list(message.comments))


def other_keys(site: Site, templates: Iterable[FileKey] | None = None
               ) -> Iterator[tuple[str | tuple[str, str], str | None, str]]:
    """The (msgid, context, file) of :func:`other_entries`, without the templates' lines
    and comments: what a build needs, which has them from the trees it compiled the
    templates from (*templates*, else :func:`site_builder.templates_i18n.template_keys`)."""
    for msgid, context, source, _, _ in _profile_entries(site):
        yield msgid, context, source
    for source, context, msgid in (template_keys(site.root) if templates is None
                                   else templates):
        yield msgid, context, source


def _profile_entries(site: Site) -> Iterator[SourceEntry]:
    for profile in sorted(site.profiles.values(), key=lambda p: p.line):
        yield (profile.name, None, PROFILES_FILE, profile.name_line,
               [f"rule profile name ({profile.key})"])


def source_catalog(site: Site) -> Catalog:
    """Build the template catalog from the loaded site (content, profiles, templates)."""
    catalog = Catalog(project=PROJECT, version="1.0", charset="utf-8",
                      creation_date=FIXED_DATE, fuzzy=False)
    for msgid, context, source, line, comments in source_entries(site):
        catalog.add(msgid, locations=[(source, line)], auto_comments=comments,
                    context=context)
    return catalog
