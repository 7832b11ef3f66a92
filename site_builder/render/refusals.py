"""The engine's refusals in the reader's language, each with the rule section that explains it.

The engine refuses an action with a :class:`~site_builder.engine.refusals.Refusal`:
a stable ``code``, its ``values``, and an English sentence from
:data:`site_builder.engine.REFUSALS`. A page that shows refusals to readers (the
practice table) needs the same sentence in each language and a link to the rule.
The engine marks every template for translation where it writes it (context
``refusal``), so that Babel extracts it into ``locales/messages.pot`` from
``site_builder/engine/refusals.py``; :func:`refusal_messages` gives one language's
templates, to be filled with the refusal's values as the engine fills the English one
(``str.format``, named placeholders); :data:`RULE_SECTIONS` gives each code's page slug
and heading anchor, and :data:`TABLE_SECTIONS` those of the practice table's own codes
(:data:`site_builder.engine.play.table.CODES`, whose sentences are the page's).
``tests/test_refusal_messages.py`` proves that every template is extracted from the
engine, that every catalog translates each with the same placeholders, and that every
anchor exists.

>>> from site_builder.i18n.translator import Translator
>>> english = refusal_messages(Translator("en"))
>>> english["discard-take-needs-lay"].format(seat=1, card="7C")
'seat 1 may take 7C from the discard pile only to lay it this turn, and cannot: it fits no meld'
>>> RULE_SECTIONS["discard-take-needs-lay"]
('turn', 'taking-the-discard')
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, Protocol

from site_builder.engine.refusals import CONTEXT, REFUSALS


class _Translations(Protocol):
    def gettext(self, text: str, context: str | None = None) -> str: ...


#: Each refusal code's rule section: the page's slug and the id of its heading.
RULE_SECTIONS: Final[Mapping[str, tuple[str, str]]] = MappingProxyType(
    {
        "round-over": ("scoring", "going-out"),
        "not-your-turn": ("turn", "your-turn-step-by-step"),
        "no-seat": ("setup", "the-deal"),
        "already-drawn": ("turn", "your-turn-step-by-step"),
        "draw-first": ("turn", "your-turn-step-by-step"),
        "stock-empty": ("scoring", "going-out"),
        "discard-pile-empty": ("turn", "taking-the-discard"),
        "discard-first-round": ("variations-discard", "no-discard-taken-in-the-first-round"),
        "discard-at-one-card": ("variations-discard", "no-discard-taken-with-one-card-left"),
        "discard-take-needs-lay": ("turn", "taking-the-discard"),
        "discard-take-needs-opening": ("turn", "taking-the-discard"),
        "discard-take-needs-final-discard": ("scoring", "going-out"),
        "not-held": ("turn", "your-turn-step-by-step"),
        "held-too-few": ("turn", "your-turn-step-by-step"),
        "invalid-meld": ("melds", "invalid-melds"),
        "keep-final-discard": ("scoring", "going-out"),
        "out-opening-short": ("first-meld", "if-the-threshold-is-not-reached"),
        "lay-off-not-opened": ("turn", "before-your-first-meld"),
        "no-such-meld": ("turn", "laying-off"),
        "lay-off-no-cards": ("turn", "laying-off"),
        "lay-off-misfit": ("turn", "laying-off"),
        "no-joker-exchange": ("joker-exchange", "when-and-with-which-card"),
        "swap-not-opened": ("joker-exchange", "when-and-with-which-card"),
        "swap-joker-for-joker": ("joker-exchange", "when-and-with-which-card"),
        "swap-no-joker": ("joker-exchange", "when-and-with-which-card"),
        "swap-wrong-card": ("joker-exchange", "when-and-with-which-card"),
        "swap-wrong-card-2": ("joker-exchange", "when-and-with-which-card"),
        "swap-wrong-card-3": ("joker-exchange", "when-and-with-which-card"),
        "owed-fits-no-meld": ("turn", "taking-the-discard"),
        "owed-not-all": ("turn", "taking-the-discard"),
        "owed-no-opening": ("turn", "taking-the-discard"),
        "owed-no-final-discard": ("scoring", "going-out"),
        "discard-owes-card": ("turn", "taking-the-discard"),
        "discard-owes-taken-joker": ("turn", "taking-the-discard"),
        "discard-owes-joker": ("joker-exchange", "when-and-with-which-card"),
        "lay-off-needs-target": ("turn", "laying-off"),
        "swap-needs-card-and-target": ("joker-exchange", "when-and-with-which-card"),
        "discard-needs-one-card": ("turn", "your-turn-step-by-step"),
        "unknown-action": ("turn", "your-turn-step-by-step"),
    }
)


#: The rule section of each of the practice table's own codes that the page explains in
#: words of its own (templates/_play.html); any other code of the table is explained as
#: ``other``.
TABLE_SECTIONS: Final[Mapping[str, tuple[str, str]]] = MappingProxyType(
    {
        "your-turn": ("turn", "your-turn-step-by-step"),
        "bad-cards": ("melds", "sets-and-sequences"),
        "bad-target": ("turn", "laying-off"),
        "bad-action": ("turn", "your-turn-step-by-step"),
        "search-limit": ("turn", "your-turn-step-by-step"),
        "other": ("turn", "your-turn-step-by-step"),
    }
)


#: The rule section of a card owed this turn (the ``owed-*`` codes) when the refusal names
#: the meld it came from (``target``): a joker taken by an exchange, whose rule is the
#: exchange's (refused when the joker could not then be laid), not that of taking the
#: discard.
EXCHANGE_SECTION: Final[tuple[str, str]] = ("joker-exchange", "when-and-with-which-card")


def refusal_messages(translations: _Translations) -> dict[str, str]:
    """Every refusal's template in one language, by code (the English where a catalog
    lacks one). *translations*: the language's translator (anything with
    ``gettext(text, context)``, as :class:`~site_builder.i18n.translator.Translator`)."""
    return {code: translations.gettext(template, CONTEXT) for code, template in REFUSALS.items()}


def refusal_table(translations: _Translations) -> dict[str, dict[str, Any]]:
    """What a page needs to explain a refusal in one language, by code: for the engine's,
    the translated ``template`` (filled with the refusal's values by name), and the
    ``page`` slug and the heading ``anchor`` of its rule section (a plain value for a
    script's data); for the table's own (:data:`TABLE_SECTIONS`), the section only. An
    ``owed-*`` code also has ``exchange``: the section to link when the refusal names a
    ``target`` (:data:`EXCHANGE_SECTION`).

    >>> from site_builder.i18n.translator import Translator
    >>> refusal_table(Translator("en"))["swap-not-opened"]["anchor"]
    'when-and-with-which-card'
    >>> refusal_table(Translator("en"))["bad-cards"]
    {'page': 'melds', 'anchor': 'sets-and-sequences'}
    """
    messages = refusal_messages(translations)
    exchange = {"page": EXCHANGE_SECTION[0], "anchor": EXCHANGE_SECTION[1]}
    return {**{code: {"template": messages[code], "page": page, "anchor": anchor,
                      **({"exchange": exchange} if code.startswith("owed-") else {})}
               for code, (page, anchor) in RULE_SECTIONS.items()},
            **{code: {"page": page, "anchor": anchor}
               for code, (page, anchor) in TABLE_SECTIONS.items()}}
