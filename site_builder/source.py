"""The source catalog: every English message of the site, with its references.

It holds the same messages, in the same order, as ``pybabel extract -F babel.cfg``
would write; ``site-builder i18n extract`` writes it as ``locales/messages.pot``.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from babel.messages.catalog import Catalog

from site_builder.examples import PROFILES_FILE
from site_builder.extract import _segment_kinds
from site_builder.templates_i18n import template_messages

if TYPE_CHECKING:
    from site_builder.build import Site

PROJECT = "Rami rules"
FIXED_DATE = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def source_catalog(site: Site) -> Catalog:
    """Build the template catalog from the loaded site (content, profiles, templates)."""
    catalog = Catalog(project=PROJECT, version="1.0", charset="utf-8",
                      creation_date=FIXED_DATE, fuzzy=False)
    for page in sorted(site.pages, key=lambda p: p.source):
        kinds = _segment_kinds(page)
        for segment in page.segments():
            catalog.add(segment.text, locations=[(page.source, segment.line)],
                        auto_comments=[kinds.get(id(segment), "paragraph")])
    for profile in sorted(site.profiles.values(), key=lambda p: p.line):
        catalog.add(profile.name, locations=[(PROFILES_FILE, profile.name_line)],
                    auto_comments=[f"rule profile name ({profile.key})"])
    for message in template_messages(site.root):
        catalog.add(message.msgid, locations=[(message.source, message.line)],
                    auto_comments=list(message.comments), context=message.context)
    return catalog
