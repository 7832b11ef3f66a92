"""The engine's refusals in the reader's language, each with the rule section that explains it.

The engine refuses an action with a :class:`~site_builder.engine.refusals.Refusal`:
a stable ``code``, its ``values``, and an English sentence from
:data:`site_builder.engine.REFUSALS`. A page that shows refusals to readers (the
practice table) needs the same sentence in each language and a link to the rule.
Here every template is marked for translation (context ``refusal``), so that Babel
extracts it into ``locales/messages.pot``; :func:`refusal_messages` gives one
language's templates, to be filled with the refusal's values as the engine fills
the English one (``str.format``, named placeholders); :data:`RULE_SECTIONS` gives
each code's page slug and heading anchor. ``tests/test_refusal_messages.py`` proves
that the marked templates are the engine's, word for word, that every catalog
translates each with the same placeholders, and that every anchor exists.

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
from typing import Final, Protocol

#: The context of every refusal's message in the catalogs.
CONTEXT: Final = "refusal"


class _Translations(Protocol):
    def gettext(self, text: str, context: str | None = None) -> str: ...


def pgettext(context: str, message: str) -> str:
    """Mark *message* for extraction (Babel finds ``pgettext`` with literals); it is
    returned as it is, and looked up later by :func:`refusal_messages`."""
    return message


#: Each refusal code's English template, as the engine has it, marked for translation.
TEMPLATES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "round-over": pgettext("refusal", "the round is over"),
        "not-your-turn": pgettext("refusal", "it is seat {turn}'s turn, not seat {seat}'s"),
        "no-seat": pgettext("refusal", "there is no seat {seat}"),
        "already-drawn": pgettext("refusal", "seat {seat} has already drawn this turn"),
        "draw-first": pgettext("refusal", "seat {seat} must draw first"),
        "stock-empty": pgettext("refusal", "the stock is empty"),
        "discard-pile-empty": pgettext("refusal", "the discard pile is empty"),
        "discard-first-round": pgettext(
            "refusal",
            "seat {seat} may not take the discard in the first round; draw from the stock",
        ),
        "discard-at-one-card": pgettext(
            "refusal",
            "seat {seat} holds one card and may not take the discard; draw from the stock",
        ),
        "discard-take-needs-lay": pgettext(
            "refusal",
            "seat {seat} may take {card} from the discard pile only to lay it this turn, and "
            "cannot: it fits no meld",
        ),
        "discard-take-needs-opening": pgettext(
            "refusal",
            "seat {seat} may take {card} from the discard pile only to lay it this turn, and "
            "cannot: no opening that uses it is accepted",
        ),
        "discard-take-needs-final-discard": pgettext(
            "refusal",
            "seat {seat} may take {card} from the discard pile only to lay it this turn, and "
            "cannot: no card would be left to discard",
        ),
        "not-held": pgettext("refusal", "seat {seat} does not hold {card}"),
        "held-too-few": pgettext("refusal", "seat {seat} holds only {count} of {card}"),
        "invalid-meld": pgettext("refusal", "{cards} is not a valid meld ({reason})"),
        "keep-final-discard": pgettext(
            "refusal", "seat {seat} must keep a card for the final discard (discard_to_win)"
        ),
        "out-opening-short": pgettext(
            "refusal",
            "seat {seat} cannot go out with an opening that falls short ({total} points, threshold "
            "{threshold}: {reasons})",
        ),
        "lay-off-not-opened": pgettext(
            "refusal", "seat {seat} has not opened yet and may not lay off"
        ),
        "no-such-meld": pgettext("refusal", "there is no meld {target} on the table"),
        "lay-off-no-cards": pgettext("refusal", "a lay-off needs at least one card"),
        "lay-off-misfit": pgettext(
            "refusal", "{cards} does not fit meld {target} ({meld}): {reason}"
        ),
        "no-joker-exchange": pgettext("refusal", "{game} has no joker exchange"),
        "swap-not-opened": pgettext(
            "refusal", "seat {seat} has not opened yet and may not exchange a joker"
        ),
        "swap-joker-for-joker": pgettext("refusal", "a joker cannot replace a joker"),
        "swap-no-joker": pgettext("refusal", "meld {target} ({meld}) holds no joker"),
        "swap-wrong-card": pgettext(
            "refusal",
            "{card} cannot replace the joker in meld {target} ({meld}): the joker stands for "
            "{stands}",
        ),
        "swap-wrong-card-2": pgettext(
            "refusal",
            "{card} cannot replace the joker in meld {target} ({meld}): the joker stands for "
            "{stands} or {other}",
        ),
        "swap-wrong-card-3": pgettext(
            "refusal",
            "{card} cannot replace the joker in meld {target} ({meld}): the joker stands for "
            "{stands} or {other} or {third}",
        ),
        "owed-fits-no-meld": pgettext(
            "refusal",
            "seat {seat} must lay {cards} this turn and could not after that (it fits no meld)",
        ),
        "owed-not-all": pgettext(
            "refusal",
            "seat {seat} must lay {cards} this turn and could not after that (they cannot all be "
            "laid)",
        ),
        "owed-no-opening": pgettext(
            "refusal",
            "seat {seat} must lay {cards} this turn and could not after that (no opening that uses "
            "it is accepted)",
        ),
        "owed-no-final-discard": pgettext(
            "refusal",
            "seat {seat} must lay {cards} this turn and could not after that (no card would be "
            "left to discard)",
        ),
        "discard-owes-card": pgettext(
            "refusal", "seat {seat} took {card} from the discard pile and must lay {card} this turn"
        ),
        "discard-owes-taken-joker": pgettext(
            "refusal", "seat {seat} took {card} from the discard pile and must lay it this turn"
        ),
        "discard-owes-joker": pgettext(
            "refusal", "seat {seat} took a joker from meld {target} and must lay it this turn"
        ),
        "lay-off-needs-target": pgettext("refusal", "a lay-off needs a target meld"),
        "swap-needs-card-and-target": pgettext(
            "refusal", "a joker exchange needs one card and a target meld"
        ),
        "discard-needs-one-card": pgettext("refusal", "a discard is exactly one card"),
        "unknown-action": pgettext("refusal", "unknown action {kind}"),
    }
)

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


def refusal_messages(translations: _Translations) -> dict[str, str]:
    """Every refusal's template in one language, by code (the English where a catalog
    lacks one). *translations*: the language's translator (anything with
    ``gettext(text, context)``, as :class:`~site_builder.i18n.translator.Translator`)."""
    return {code: translations.gettext(template, CONTEXT) for code, template in TEMPLATES.items()}


def refusal_table(translations: _Translations) -> dict[str, dict[str, str]]:
    """What a page needs to explain a refusal in one language, by code: the translated
    ``template`` (filled with the refusal's values by name), and the ``page`` slug and
    the heading ``anchor`` of its rule section (a plain value for a script's data).

    >>> from site_builder.i18n.translator import Translator
    >>> refusal_table(Translator("en"))["swap-not-opened"]["anchor"]
    'when-and-with-which-card'
    """
    messages = refusal_messages(translations)
    return {code: {"template": messages[code], "page": page, "anchor": anchor}
            for code, (page, anchor) in RULE_SECTIONS.items()}
