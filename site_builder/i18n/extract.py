"""Babel extraction method for content pages and rule profiles.

Registered as the ``rami_content`` entry point in ``babel.extractors`` and mapped
in ``babel.cfg``, so that the plain ``pybabel extract -F babel.cfg -o messages.pot .``
collects every content segment with a ``#: content/<file>.md:<line>`` reference.
"""

from __future__ import annotations

import codecs
import tomllib
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from site_builder.sources.page import ExampleBlock, Heading, ListBlock, parse_page
from site_builder.sources.profiles import profile_lines

Extracted = tuple[int, str | None, str, list[str]]


def extract_content(fileobj: IO[bytes], keywords: Mapping[str, Any],
                    comment_tags: Collection[str],
                    options: Mapping[str, Any]) -> Iterator[Extracted]:
    """Yield ``(lineno, funcname, message, comments)`` for every translatable segment.

    >>> import io
    >>> page = (b"---\\ntitle: T\\nslug: t\\norder: 1\\ndescription: D\\n---\\n"
    ...         b"\\n## Head\\n\\nSome text.\\n")
    >>> [(line, msg) for line, _, msg, _ in extract_content(io.BytesIO(page), {}, [], {})]
    [(2, 'T'), (5, 'D'), (8, 'Head'), (10, 'Some text.')]
    """
    name = getattr(fileobj, "name", "")
    data = fileobj.read()
    if isinstance(data, bytes):  # as the build reads it (a byte order mark dropped)
        data = data.removeprefix(codecs.BOM_UTF8).decode("utf-8")
    text = data
    if str(name).endswith(".toml"):
        yield from _extract_profiles(text)
        return
    page, _problems = parse_page(text, str(name))
    if page is None:
        return
    kinds = _segment_kinds(page)
    for segment in page.segments():
        yield segment.line, None, segment.text, [kinds.get(id(segment), "paragraph")]


def _segment_kinds(page: Any) -> dict[int, str]:
    kinds = {id(page.title): "page title", id(page.description): "page description (meta)"}
    for block in page.blocks:
        if isinstance(block, Heading):
            kinds[id(block.segment)] = "heading"
        elif isinstance(block, ListBlock):
            kinds.update({id(item): "list item" for item in block.items})
        elif isinstance(block, ExampleBlock):
            for row in block.rows:
                kinds[id(row.caption)] = "example caption"
                if row.note is not None:
                    kinds[id(row.note)] = "example note"
    return kinds


def _extract_profiles(text: str) -> Iterator[Extracted]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return

    lines = text.splitlines()
    for key, table in data.items():
        if isinstance(table, dict) and isinstance(table.get("name"), str):
            _, line = profile_lines(lines, key)
            yield line, None, table["name"], [f"rule profile name ({key})"]
