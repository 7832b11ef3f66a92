"""The worked examples: one module per kind of table, in one registry that verify and
render both read.

A page's ```` ```example ```` block names its kind on its ``table:`` line. Each kind's
module (``melds``, ``layoffs``, ``openings``, ``hands``, ``deals``, ``game``,
``stock_out``, ``round``) declares a :class:`Kind`: its fields, its claims, the claims
it requires, its ``compute`` and its template partial (``templates/examples/<name>.html``,
which ``templates/_examples.html`` dispatches to). :func:`verify_pages` replays every
block with its kind, after resolving its game, rule profile and rule set one way for
every kind (:func:`~site_builder.examples.base.resolve`).
"""

from __future__ import annotations

from site_builder.examples.base import (
    Claim,
    Kind,
    Verification,
    VerifiedRow,
    VerifiedTable,
)
from site_builder.examples.registry import KINDS, fields_table
from site_builder.examples.verify import describe, verify_pages

__all__ = ["KINDS", "Claim", "Kind", "Verification", "VerifiedRow", "VerifiedTable",
           "describe", "fields_table", "verify_pages"]
