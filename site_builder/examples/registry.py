"""The kinds of example table, by the name a block's ``table:`` line gives: one module
each. A new kind is a module that declares its :class:`~site_builder.examples.base.Kind`,
a partial ``templates/examples/<name>.html`` and a line here (the README's table of fields
is printed from this registry, :func:`fields_table`, and a test keeps the two equal)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from site_builder.examples.base import Kind
from site_builder.examples.deals import KIND as DEALS
from site_builder.examples.game import KIND as GAME
from site_builder.examples.hands import KIND as HANDS
from site_builder.examples.layoffs import KIND as LAYOFFS
from site_builder.examples.melds import KIND as MELDS
from site_builder.examples.openings import KIND as OPENINGS
from site_builder.examples.round import KIND as ROUND
from site_builder.examples.stock_out import KIND as STOCK_OUT

KINDS: Mapping[str, Kind] = MappingProxyType({kind.name: kind for kind in (
    MELDS, LAYOFFS, OPENINGS, HANDS, DEALS, GAME, STOCK_OUT, ROUND)})


def fields_table(kinds: Mapping[str, Kind] = KINDS) -> str:
    """The README's table of each kind's fields (claims in bold must be stated).

    >>> print(fields_table().splitlines()[2])
    | `melds` | `cards` | **`verdict`** (valid/invalid), **`kind`** (set/sequence) and \
**`points`** when valid, **`reason`** when invalid, `jokers` (stand-in cards) |
    """
    lines = ["| table | inputs | claims (required ones in bold) |", "|---|---|---|"]
    lines += [f"| `{k.name}` | {k.doc_inputs} | {k.doc_claims} |" for k in kinds.values()]
    return "\n".join(lines) + "\n"
