"""Glossary terms explained in place: a link in a page's text to a term's
definition (the glossary's game terms, or the rule page a glossary entry leads to, with
the term as its text) is described by the glossary's own entry, in the page's language.

The link keeps its target; it gains ``aria-describedby`` (a screen reader reads the
definition with the link) and the class ``term``, by which ``assets/terms.js`` shows the
definition on hover, focus or tap. The definitions used on a page stand, hidden, at the end
of its text (``term_defs`` in ``page.html``), each from the glossary's catalog entry.

Which term a link names is read from the English source, where the link's text is the term
("[stock](../glossary/#game-terms)", "[first meld](../first-meld/)"); a translated text keeps
its links (a translation that drops or redirects one is refused), matched to the English
ones by target, in order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import SimpleNamespace as Item
from typing import Any

from markupsafe import Markup

from site_builder.render.markdown import Text, folder_links
from site_builder.sources.page import Heading, ListBlock, Page, Paragraph, Segment
from site_builder.sources.segment import slugify

GLOSSARY = "glossary"
SECTION = "game-terms"
_TERM_HREF = f"../{GLOSSARY}/#{SECTION}"
_MD_LINK_RE = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_BOLD_RE = re.compile(r"\*\*([^*]+)\*\*")
_ARTICLE_RE = re.compile(r"^(?:the|a|an)\s+", re.I)


@dataclass(frozen=True)
class Term:
    """A glossary entry: its English names, the page it leads to, its definition's id."""

    names: tuple[str, ...]  # lower case ("set", "group")
    href: str | None  # the entry's own link ("../first-meld/"), if any
    id: str  # "def-set"
    segment: Segment  # the entry, as the catalog holds it

    def named_by(self, text: str, href: str) -> bool:
        """Whether a link with *text* and *href* (as the English source writes them) names
        this term.

        >>> t = Term(("first meld", "opening"), "../first-meld/", "def-first-meld", None)
        >>> t.named_by("the first meld", "../first-meld/"), t.named_by("melds", "../melds/")
        (True, False)
        """
        if href != _TERM_HREF and href != self.href:
            return False
        text = _ARTICLE_RE.sub("", text.lower())
        return any(text == n or text.startswith(n) or n.startswith(text) for n in self.names)


def glossary(pages: Sequence[Page]) -> list[Term]:
    """The game terms of the glossary page (none if the site has none).

    An entry is a list item ``**Term** (also **other name**): definition``."""
    page = next((p for p in pages if p.slug == GLOSSARY), None)
    if page is None:
        return []
    in_section = False
    for block in page.blocks:
        if isinstance(block, Heading):
            in_section = block.id == SECTION
        elif in_section and isinstance(block, ListBlock):
            return [_term(item) for item in block.items if item.text.startswith("**")]
    return []


def _term(item: Segment) -> Term:
    head = item.text.split(":", 1)[0]
    names = tuple(n.lower() for n in _BOLD_RE.findall(head))
    links = _MD_LINK_RE.findall(item.text)
    return Term(names, links[0][1] if links else None, f"def-{slugify(names[0])}", item)


def describe(page: Page, blocks: list[Any], terms: Sequence[Term],
             localize: Callable[[Segment], Text]) -> list[Any]:
    """Give each term link in *blocks* (the page's, localized, one per block of *page*)
    its description; the definitions the page uses, in order of first use, as items with
    ``id`` and ``text`` (plain, in the page's language)."""
    if not terms or page.slug == GLOSSARY:
        return []
    used: dict[str, Term] = {}
    for source, block in zip(page.blocks, blocks, strict=True):
        if isinstance(source, Paragraph):
            block.text = _linked(source.segment.text, block.text, terms, used)
        elif isinstance(source, ListBlock):
            block.entries = [_linked(s.text, t, terms, used)
                             for s, t in zip(source.items, block.entries, strict=True)]
    return [Item(id=t.id, text=localize(t.segment).plain) for t in used.values()]


def _linked(english: str, text: Text, terms: Sequence[Term], used: dict[str, Term]) -> Text:
    """*text* with its term links described (those the English *english* has)."""
    if "<a " not in text.html:
        return text
    named: dict[str, list[Term | None]] = {}  # by the link's href as rendered, in order
    for label, href in _MD_LINK_RE.findall(english):
        term = next((t for t in terms if t.named_by(label, href)), None)
        named.setdefault(_rendered(href), []).append(term)
    if not any(t for ts in named.values() for t in ts):
        return text
    seen: dict[str, int] = {}

    def link(m: re.Match[str]) -> str:
        href = m[1]
        k = seen[href] = seen.get(href, -1) + 1
        candidates = named.get(href, [])
        term = candidates[k] if k < len(candidates) else None
        if term is None:
            return m[0]
        used.setdefault(term.id, term)
        return f'<a class="term" href="{href}" aria-describedby="{term.id}">'

    html = re.sub(r'<a href="([^"]*)">', link, str(text.html))
    return Text(Markup(html), text.fallback)


def _rendered(href: str) -> str:
    """An href as the rendered HTML has it (a folder's ``index.html``)."""
    return folder_links(f'<a href="{href}">')[len('<a href="'):-2]
