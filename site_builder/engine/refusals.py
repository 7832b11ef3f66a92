"""Why the round refuses an action: a stable code, its values, and one English template each.

Every refusal of :class:`~site_builder.engine.round.RoundState` (its ``verify_*``
methods, and so ``can_*`` and the actions themselves) raises :class:`Refusal`, a
:class:`ValueError` that carries

* ``code``: a stable kebab-case name, a key of :data:`REFUSALS`;
* ``values``: what the sentence needs, by name: seats counted from 1, meld
  numbers, counts and points as ints; cards as the engine's codes (``7C``,
  ``JK``), several cards as codes separated by spaces; reasons as the engine's
  reason codes (``gap``, ``below_threshold``); the game's title.

``str(refusal)`` is the English sentence, the code's template filled in with
``str.format``. A site shows the same refusal in another language by filling a
translated template with the same values, so a template names each value once
or more by its name and nothing else.

>>> refusal = Refusal("discard-take-needs-lay", seat=1, card="7C")
>>> print(refusal)
seat 1 may take 7C from the discard pile only to lay it this turn, and cannot: it fits no meld
>>> refusal.code, dict(refusal.values)
('discard-take-needs-lay', {'seat': 1, 'card': '7C'})
>>> isinstance(refusal, ValueError)
True
>>> REFUSALS[refusal.code].format_map(refusal.values) == str(refusal)
True

Every template names its values in braces, and nothing else is in braces; what each
value holds is in :data:`VALUES`:

>>> import string
>>> sorted({name for template in REFUSALS.values()
...         for _, name, _, _ in string.Formatter().parse(template) if name}) == sorted(VALUES)
True

The templates are written here only: a site marks them for translation by this module's
``pgettext`` calls (Babel extracts them from here, context :data:`CONTEXT`), and
``site_builder/render/refusals.py`` looks up each one's translation.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = ["CONTEXT", "REFUSALS", "VALUES", "Refusal", "pgettext"]

def pgettext(context: str, message: str) -> str:
    """Mark *message* for translation: Babel's extractor finds ``pgettext`` with literals
    (``site-builder i18n extract``, context ``refusal``), so that a site translates each
    template where it is written; the engine keeps the English as it is.

    >>> pgettext("refusal", "the stock is empty")
    'the stock is empty'
    """
    return message


#: The context of every refusal's template in a site's catalogs.
CONTEXT: Final = "refusal"

#: Every code a refused action can carry, and its English template (each written out whole,
#: so that it is one message in the catalogs).
REFUSALS: Final[Mapping[str, str]] = MappingProxyType({
    # whose turn, and where it stands
    "round-over": pgettext("refusal", "the round is over"),
    "not-your-turn": pgettext("refusal", "it is seat {turn}'s turn, not seat {seat}'s"),
    "no-seat": pgettext("refusal", "there is no seat {seat}"),
    "already-drawn": pgettext("refusal", "seat {seat} has already drawn this turn"),
    "draw-first": pgettext("refusal", "seat {seat} must draw first"),
    # drawing
    "stock-empty": pgettext("refusal", "the stock is empty"),
    "discard-pile-empty": pgettext("refusal", "the discard pile is empty"),
    "discard-first-round": pgettext(
        "refusal",
        "seat {seat} may not take the discard in the first round; draw from the stock"),
    "discard-at-one-card": pgettext(
        "refusal",
        "seat {seat} holds one card and may not take the discard; draw from the stock"),
    "discard-take-needs-lay": pgettext(
        "refusal",
        "seat {seat} may take {card} from the discard pile only to lay it this turn, and "
        "cannot: it fits no meld"),
    "discard-take-needs-opening": pgettext(
        "refusal",
        "seat {seat} may take {card} from the discard pile only to lay it this turn, and "
        "cannot: no opening that uses it is accepted"),
    "discard-take-needs-final-discard": pgettext(
        "refusal",
        "seat {seat} may take {card} from the discard pile only to lay it this turn, and "
        "cannot: no card would be left to discard"),
    # the cards named
    "not-held": pgettext("refusal", "seat {seat} does not hold {card}"),
    "held-too-few": pgettext("refusal", "seat {seat} holds only {count} of {card}"),
    # melds, and going out
    "invalid-meld": pgettext("refusal", "{cards} is not a valid meld ({reason})"),
    "keep-final-discard": pgettext(
        "refusal", "seat {seat} must keep a card for the final discard"),
    "out-opening-short": pgettext(
        "refusal",
        "seat {seat} cannot go out with an opening that falls short ({total} points, threshold "
        "{threshold}: {reasons})"),
    # lay-offs
    "lay-off-not-opened": pgettext(
        "refusal", "seat {seat} has not opened yet and may not lay off"),
    "no-such-meld": pgettext("refusal", "there is no meld {target} on the table"),
    "lay-off-no-cards": pgettext("refusal", "a lay-off needs at least one card"),
    "lay-off-misfit": pgettext(
        "refusal", "{cards} does not fit meld {target} ({meld}): {reason}"),
    # joker exchanges
    "no-joker-exchange": pgettext("refusal", "{game} has no joker exchange"),
    "swap-not-opened": pgettext(
        "refusal", "seat {seat} has not opened yet and may not exchange a joker"),
    "swap-joker-for-joker": pgettext("refusal", "a joker cannot replace a joker"),
    "swap-no-joker": pgettext("refusal", "meld {target} ({meld}) holds no joker"),
    "swap-wrong-card": pgettext(
        "refusal",
        "{card} cannot replace the joker in meld {target} ({meld}): the joker stands for "
        "{stands}"),
    "swap-wrong-card-2": pgettext(
        "refusal",
        "{card} cannot replace the joker in meld {target} ({meld}): the joker stands for "
        "{stands} or {other}"),
    "swap-wrong-card-3": pgettext(
        "refusal",
        "{card} cannot replace the joker in meld {target} ({meld}): the joker stands for "
        "{stands} or {other} or {third}"),
    # a card that must be laid this turn (taken from the discard pile, or a joker taken)
    "owed-fits-no-meld": pgettext(
        "refusal",
        "seat {seat} must lay {cards} this turn and could not after that (it fits no meld)"),
    "owed-not-all": pgettext(
        "refusal",
        "seat {seat} must lay {cards} this turn and could not after that (they cannot all be "
        "laid)"),
    "owed-no-opening": pgettext(
        "refusal",
        "seat {seat} must lay {cards} this turn and could not after that (no opening that uses "
        "it is accepted)"),
    "owed-no-final-discard": pgettext(
        "refusal",
        "seat {seat} must lay {cards} this turn and could not after that (no card would be "
        "left to discard)"),
    "discard-owes-card": pgettext(
        "refusal", "seat {seat} took {card} from the discard pile and must lay {card} this turn"),
    "discard-owes-taken-joker": pgettext(
        "refusal", "seat {seat} took {card} from the discard pile and must lay it this turn"),
    "discard-owes-joker": pgettext(
        "refusal", "seat {seat} took a joker from meld {target} and must lay it this turn"),
    # the shape of an action
    "lay-off-needs-target": pgettext("refusal", "a lay-off needs a target meld"),
    "swap-needs-card-and-target": pgettext(
        "refusal", "a joker exchange needs one card and a target meld"),
    "discard-needs-one-card": pgettext("refusal", "a discard is exactly one card"),
    "unknown-action": pgettext("refusal", "unknown action {kind}"),
})

#: What each value of a refusal holds, by its name, so that a page can show it in the
#: reader's words: ``card`` (one card code), ``cards`` (codes separated by spaces),
#: ``reasons`` (reason codes separated by ", "), ``game`` (the game's title), ``number``
#: (a seat, a meld number, a count or points) and ``text`` (shown as it is).
VALUES: Final[Mapping[str, str]] = MappingProxyType({
    "card": "card", "stands": "card", "other": "card", "third": "card",
    "cards": "cards", "meld": "cards", "reason": "reasons", "reasons": "reasons",
    "game": "game", "kind": "text",
    "seat": "number", "turn": "number", "target": "number", "count": "number",
    "total": "number", "threshold": "number",
})

class Refusal(ValueError):
    """An action the rules refuse: ``code`` (a key of :data:`REFUSALS`), ``values`` (by
    name), and as its text the English sentence.

    >>> import pickle
    >>> again = pickle.loads(pickle.dumps(Refusal("not-held", seat=2, card="9S")))
    >>> again.code, dict(again.values), str(again)
    ('not-held', {'seat': 2, 'card': '9S'}, 'seat 2 does not hold 9S')
    """

    code: str
    values: Mapping[str, int | str]

    def __init__(self, code: str, **values: int | str) -> None:
        self.code = code
        self.values = MappingProxyType(dict(values))
        super().__init__(REFUSALS[code].format_map(values))

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (self.code, dict(self.values)))


def _rebuild(code: str, values: dict[str, int | str]) -> Refusal:
    return Refusal(code, **values)
