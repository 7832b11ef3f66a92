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

Every template names its values in braces, and nothing else is in braces:

>>> import string
>>> sorted({name for template in REFUSALS.values()
...         for _, name, _, _ in string.Formatter().parse(template) if name})
['card', 'cards', 'count', 'game', 'kind', 'meld', 'other', 'reason', 'reasons', 'seat', \
'stands', 'target', 'third', 'threshold', 'total', 'turn']
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = ["REFUSALS", "Refusal"]

_TAKE = "seat {seat} may take {card} from the discard pile only to lay it this turn, and cannot: "
_OWED = "seat {seat} must lay {cards} this turn and could not after that "
_SWAP = "{card} cannot replace the joker in meld {target} ({meld}): the joker stands for "

#: Every code a refused action can carry, and its English template.
REFUSALS: Final[Mapping[str, str]] = MappingProxyType({
    # whose turn, and where it stands
    "round-over": "the round is over",
    "not-your-turn": "it is seat {turn}'s turn, not seat {seat}'s",
    "no-seat": "there is no seat {seat}",
    "already-drawn": "seat {seat} has already drawn this turn",
    "draw-first": "seat {seat} must draw first",
    # drawing
    "stock-empty": "the stock is empty",
    "discard-pile-empty": "the discard pile is empty",
    "discard-first-round": "seat {seat} may not take the discard in the first round; "
                           "draw from the stock",
    "discard-at-one-card": "seat {seat} holds one card and may not take the discard; "
                           "draw from the stock",
    "discard-take-needs-lay": _TAKE + "it fits no meld",
    "discard-take-needs-opening": _TAKE + "no opening that uses it is accepted",
    "discard-take-needs-final-discard": _TAKE + "no card would be left to discard",
    # the cards named
    "not-held": "seat {seat} does not hold {card}",
    "held-too-few": "seat {seat} holds only {count} of {card}",
    # melds, and going out
    "invalid-meld": "{cards} is not a valid meld ({reason})",
    "keep-final-discard": "seat {seat} must keep a card for the final discard (discard_to_win)",
    "out-opening-short": "seat {seat} cannot go out with an opening that falls short "
                         "({total} points, threshold {threshold}: {reasons})",
    # lay-offs
    "lay-off-not-opened": "seat {seat} has not opened yet and may not lay off",
    "no-such-meld": "there is no meld {target} on the table",
    "lay-off-no-cards": "a lay-off needs at least one card",
    "lay-off-misfit": "{cards} does not fit meld {target} ({meld}): {reason}",
    # joker exchanges
    "no-joker-exchange": "{game} has no joker exchange",
    "swap-not-opened": "seat {seat} has not opened yet and may not exchange a joker",
    "swap-joker-for-joker": "a joker cannot replace a joker",
    "swap-no-joker": "meld {target} ({meld}) holds no joker",
    "swap-wrong-card": _SWAP + "{stands}",
    "swap-wrong-card-2": _SWAP + "{stands} or {other}",
    "swap-wrong-card-3": _SWAP + "{stands} or {other} or {third}",
    # a card that must be laid this turn (taken from the discard pile, or a joker taken)
    "owed-fits-no-meld": _OWED + "(it fits no meld)",
    "owed-not-all": _OWED + "(they cannot all be laid)",
    "owed-no-opening": _OWED + "(no opening that uses it is accepted)",
    "owed-no-final-discard": _OWED + "(no card would be left to discard)",
    "discard-owes-card": "seat {seat} took {card} from the discard pile and must lay {card} "
                         "this turn",
    "discard-owes-taken-joker": "seat {seat} took {card} from the discard pile and must lay it "
                                "this turn",
    "discard-owes-joker": "seat {seat} took a joker from meld {target} and must lay it this turn",
    # the shape of an action
    "lay-off-needs-target": "a lay-off needs a target meld",
    "swap-needs-card-and-target": "a joker exchange needs one card and a target meld",
    "discard-needs-one-card": "a discard is exactly one card",
    "unknown-action": "unknown action {kind}",
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
