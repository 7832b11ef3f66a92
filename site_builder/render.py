"""Render pages: Markdown segments, rule placeholders, worked-example tables (the Jinja2
environments and template errors are in :mod:`site_builder.templating`)."""

from __future__ import annotations

import functools
import posixpath
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace as Item
from typing import Any

import jinja2
import markdown
from babel.numbers import format_decimal
from markupsafe import Markup

from site_builder import engine
from site_builder.content import ExampleBlock, Heading, ListBlock, Page, Paragraph, Segment
from site_builder.i18n import SOURCE_LANG, Translator


def rule_values(presets: Mapping[str, engine.RuleSet] | None = None) -> dict[str, int]:
    """The numbers a page may state about the rules, by placeholder name.

    Prose never states a rule number directly: it names it, e.g. ``{rami51_threshold}``,
    and the value comes from the engine's rule sets.

    >>> values = rule_values()
    >>> values["rami40_threshold"], values["rami51_threshold"], values["cardverse_target"]
    (40, 51, 100)
    >>> values["cardverse_hand_2"], values["cardverse_hand_4"], values["cardverse_deck_cards"]
    (7, 10, 52)
    """
    values: dict[str, int] = {"min_meld_cards": engine.MIN_MELD_CARDS,
                              "max_set_cards": engine.MAX_SET_CARDS}
    for game, rules in (presets or engine.PRESETS).items():
        if rules.opening_threshold is not None:
            values[f"{game}_threshold"] = rules.opening_threshold
        values[f"{game}_target"] = rules.target_score
        values[f"{game}_min_players"] = rules.min_players
        values[f"{game}_max_players"] = rules.max_players
        values[f"{game}_deck_cards"] = rules.decks * 52
        values[f"{game}_jokers"] = rules.jokers
        for players in range(rules.min_players, rules.max_players + 1):
            values[f"{game}_hand_{players}"] = rules.hand_size(players)
    values.update(engine.rule_numbers(presets))  # packs, jokers, hand penalties, variations
    return values


class _NoRawHtml(markdown.Extension):
    """Escape raw HTML instead of passing it through: translations cannot inject markup."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 (Markdown API)
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")


# Text that Markdown (with smarty) leaves as it is: it starts with a letter, so it cannot
# open a block (heading, list, quote), and holds no character that starts inline markup,
# an entity or an HTML escape, and no ``--``, ``...`` or double space (smarty, breaks).
_PLAIN_RE = re.compile(r"[^\W\d_][^\\`*_\[\]<>&!\n\r\t]*")


def is_plain(text: str) -> bool:
    """Whether Markdown would render *text* unchanged (so it need not be asked).

    >>> is_plain("The joker counts 15 points, as in Rami 51."), is_plain("The *joker*")
    (True, False)
    """
    return (_PLAIN_RE.fullmatch(text) is not None and not text.endswith(" ")
            and "--" not in text and "..." not in text and "  " not in text)


_SAFE = r"[^\s*`\[\]<>&\\_!]"  # a character that starts no markup, and is not a space
_INNER = rf"{_SAFE}(?:[^*`\[\]<>&\\_!\n\r\t]*{_SAFE})?"
_INLINE_RE = re.compile(
    rf"(?<!\*)\*\*({_INNER})\*\*(?!\*)|(?<!\*)\*({_INNER})\*(?!\*)|(?<!`)`({_SAFE}(?:[^`<>&\\\n\r\t]*{_SAFE})?)`(?!`)"
    rf"|\[({_INNER})\]\(([!#-'*-;=?-~]+)\)")  # href: printable ASCII but ( ) < > " space
_PLAIN_PIECE_RE = re.compile(r"[^\\`*_\[\]<>&!\n\r\t]*")


def simple_inline(text: str) -> str | None:
    """The HTML Markdown gives for *text* with only simple inline markup, or None.

    Simple means ``*em*``, ``**strong**``, ``code`` spans and ``[text](target)``
    links, none nested, around plain text (see :func:`is_plain`). Anything else is
    left to Markdown (None).

    >>> simple_inline("A *joker* and `ace_high`, see [the rules](../first-meld/).")
    'A <em>joker</em> and <code>ace_high</code>, see <a href="../first-meld/">the rules</a>.'
    """
    if not text or not (text[0].isalpha() or text[0] in "*`[") or text.endswith(" ") \
            or "--" in text or "..." in text or "  " in text:
        return None
    out = []
    pos = 0
    for m in _INLINE_RE.finditer(text):
        piece = text[pos:m.start()]
        if not _PLAIN_PIECE_RE.fullmatch(piece):
            return None
        out.append(piece)
        strong, em, code, label, href = m.groups()
        if strong is not None:
            out.append(f"<strong>{strong}</strong>")
        elif em is not None:
            out.append(f"<em>{em}</em>")
        elif code is not None:
            out.append(f"<code>{code}</code>")
        else:
            out.append(f'<a href="{href}">{label}</a>')
        pos = m.end()
    rest = text[pos:]
    if not _PLAIN_PIECE_RE.fullmatch(rest):
        return None
    out.append(rest)
    return "".join(out)


class MarkdownRenderer:
    """Renders one segment of inline Markdown to HTML; a recurring text is rendered once."""

    def __init__(self) -> None:
        self._markdown: markdown.Markdown | None = None
        # Segments that recur (captions, notes, titles in the navigation) are rendered
        # once; most paragraphs occur once, so the memo is kept small.
        self.inline = functools.lru_cache(maxsize=1024)(self._inline)

    @property
    def _md(self) -> markdown.Markdown:
        if self._markdown is None:  # made on first use: plain text never needs it
            from markdown.extensions.smarty import SmartyExtension

            self._markdown = markdown.Markdown(
                extensions=[_NoRawHtml(), SmartyExtension(smart_quotes=False)])
        return self._markdown

    def _inline(self, text: str) -> Markup:
        if is_plain(text):
            return Markup(text)
        simple = simple_inline(text)
        if simple is not None:
            return Markup(simple)
        html = self._md.reset().convert(text)
        if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
            html = html[3:-4]
        return Markup(html)


@functools.lru_cache(maxsize=1024)  # a heading's id is that of its English text, in every language
def slugify(text: str) -> str:
    from markdown.extensions.toc import slugify as md_slugify

    return str(md_slugify(text, "-")) or "section"


_LANG_EN = Markup(' lang="en"')
_NO_ATTR = Markup("")


@dataclass
class Text:
    """A rendered segment: HTML, and whether it fell back to English."""

    html: Markup
    fallback: bool

    @property
    def lang_attr(self) -> Markup:
        return _LANG_EN if self.fallback else _NO_ATTR

    def __html__(self) -> str:
        if self.fallback:
            return f'<span lang="en">{self.html}</span>'
        return str(self.html)

    @property
    def plain(self) -> str:
        if "<" not in self.html and "&" not in self.html:  # nothing to strip or unescape
            return " ".join(str(self.html).split())  # as striptags gives it
        return Markup(self.html).striptags()


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


def page_blocks(page: Page, loc: PageLocalizer, tables: Mapping[int, Any],
                keys: Mapping[int, str] | None = None) -> list[dict[str, Any]]:
    """The page's blocks, localized, in the shape the templates expect.

    *keys* gives each example block's :func:`example_key` by line, where the caller has
    them already."""
    out: list[Any] = []
    for block in page.blocks:
        if isinstance(block, Heading):
            out.append(Item(type="heading", level=block.level, text=loc.text(block.segment),
                            id=slugify(block.segment.text)))
        elif isinstance(block, Paragraph):
            out.append(Item(type="paragraph", text=loc.text(block.segment)))
        elif isinstance(block, ListBlock):
            out.append(Item(type="list", ordered=block.ordered,
                            entries=[loc.text(item) for item in block.items]))
        elif isinstance(block, ExampleBlock):
            table = tables[block.line]  # its rows may be those of a block of the same text
            rows = [Item(caption=loc.text(row.caption),
                         note=loc.text(row.note) if row.note else None,
                         v=vr) for row, vr in zip(block.rows, table.rows, strict=True)]
            out.append(Item(type="example", table=block.table, rows=rows,
                            key=keys[block.line] if keys else example_key(block)))
    return out


def example_key(block: ExampleBlock) -> str:
    """Everything an example block's rendering depends on: its text, not where it stands.

    Two blocks with the same key are verified and rendered the same, so each distinct
    block is verified once and rendered once per language.
    """
    def fields(items: Mapping[str, Any]) -> list[tuple[str, str, int]]:
        return sorted((k, f.value, f.line - block.line) for k, f in items.items())

    return repr((block.table, block.table_line - block.line, fields(block.defaults),
                 [(r.line - block.line, r.caption.text, r.caption.line - block.line,
                   (r.note.text, r.note.line - block.line) if r.note else None, fields(r.fields))
                  for r in block.rows]))


MEMO_TABLES = 256
MEMO_CHIPS = 1024


def _table_key(block: Any, *args: Any) -> str | None:
    return None if args else getattr(block, "key", None)


def _card_key(card: Any, *args: Any) -> engine.Card | None:
    return card if not args and isinstance(card, engine.Card) else None


def _cards_key(cards: Any, *args: Any) -> tuple[engine.Card, ...] | None:
    if args or not isinstance(cards, list | tuple):
        return None
    key = tuple(cards)
    return key if all(isinstance(card, engine.Card) for card in key) else None


# The macros rendered once per environment (language) and distinct arguments: template,
# macro, the key of its arguments (None: not memoized), how many results to keep.
MEMOIZED_MACROS = (
    ("_examples.html", "table", _table_key, MEMO_TABLES),  # a block, by its key
    ("_cards.html", "card_name", _card_key, MEMO_CHIPS),
    ("_cards.html", "chips", _cards_key, MEMO_CHIPS),
)


def memoize_macros(env: jinja2.Environment) -> None:
    """Render each distinct example table and group of card chips once per environment
    (language): see :data:`MEMOIZED_MACROS`.

    Each of these macros is imported without context (``_blocks.html`` imports
    ``_examples.html``, which imports ``_cards.html``), so what it gives depends on its
    arguments and the language alone. Its module's attribute is replaced by a wrapper
    that keeps the most recently used results; a call with arguments it has no key for
    goes to the macro.
    """
    for template, name, key_of, size in MEMOIZED_MACROS:
        try:
            module = env.get_template(template).module
        except jinja2.TemplateNotFound:
            continue
        macro = getattr(module, name, None)
        if isinstance(macro, jinja2.runtime.Macro):
            setattr(module, name, _memoized(macro, key_of, size))


def _memoized(macro: Callable[..., Any], key_of: Callable[..., Any], size: int
              ) -> Callable[..., Any]:
    memo: OrderedDict[Any, Any] = OrderedDict()  # the most recently used, at most *size*

    def call(*args: Any, **kwargs: Any) -> Any:
        key = None if kwargs or not args else key_of(*args)
        if key is None:
            return macro(*args, **kwargs)
        found = memo.get(key)
        if found is None:
            found = memo[key] = macro(*args)
            if len(memo) > size:
                memo.popitem(last=False)
        else:
            memo.move_to_end(key)
        return found

    return call


def relative(from_file: str, to_file: str) -> str:
    """A relative link from one output file to another (works from ``file://``).

    >>> relative("pl/first-meld/index.html", "ms/first-meld/index.html")
    '../../ms/first-meld/index.html'
    >>> relative("index.html", "assets/site.css")
    'assets/site.css'
    """
    if ".." in from_file or ".." in to_file or from_file.startswith("/") \
            or to_file.startswith("/") or "//" in from_file or "//" in to_file \
            or "/./" in f"/{from_file}/{to_file}/":
        return posixpath.relpath(to_file, posixpath.dirname(from_file) or ".")
    src = from_file.split("/")[:-1]
    dst = to_file.split("/")
    common = 0
    while common < len(src) and common < len(dst) - 1 and src[common] == dst[common]:
        common += 1
    return "../" * (len(src) - common) + "/".join(dst[common:])
