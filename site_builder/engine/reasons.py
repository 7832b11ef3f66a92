"""Why a move is good: a stable code, its values, and one English template each.

The practice table explains moves: the hint for the reader's own move, each computer
player's move, and the round's review. Each explanation is a :class:`Reason`, built as
a :class:`~site_builder.engine.refusals.Refusal` is:

* ``code``: a stable kebab-case name, a key of :data:`MOVE_REASONS`;
* ``values``: what the sentence needs, by name: meld numbers and points as ints; cards
  as the engine's codes (``7H``, ``JK``), several cards as codes separated by spaces,
  and several melds' cards with `` | `` between the melds (as ``site-builder engine
  opening`` reads them).

``str(reason)`` is the English sentence: the code's template filled in with
``str.format``. A page shows the same reason in another language by filling the
translated template (context ``reason`` in the catalogs) with the same values, so a
template names each value by its name and nothing else. The sentences speak of the
cards and the melds, not of a player, so that one sentence serves the hint ("you") and
the log of a computer's moves alike.

Every reason the table shows has been confirmed against the position by the engine
(:mod:`site_builder.engine.play.coach`); the templates say only what was confirmed.

>>> reason = Reason("take-completes", card="7H", cards="5H 6H JK")
>>> print(reason)
7H completes 5H 6H JK
>>> reason.code, dict(reason.values)
('take-completes', {'card': '7H', 'cards': '5H 6H JK'})
>>> MOVE_REASONS[reason.code].format_map(reason.values) == str(reason)
True
>>> reason.as_json()
{'code': 'take-completes', 'values': {'card': '7H', 'cards': '5H 6H JK'}}

Every template names its values in braces, and nothing else is in braces:

>>> import string
>>> sorted({name for template in MOVE_REASONS.values()
...         for _, name, _, _ in string.Formatter().parse(template) if name})
['card', 'cards', 'next', 'points', 'target', 'threshold', 'total']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

__all__ = ["CONTEXT", "MOVE_REASONS", "Reason", "reason_messages"]

#: The context of every reason's message in the catalogs.
CONTEXT: Final = "reason"


def pgettext(context: str, message: str) -> str:
    """Mark *message* for extraction (Babel's Python extractor finds ``pgettext`` with
    literals, so ``site-builder i18n extract`` puts it in ``locales/messages.pot``); it is
    returned as it is, and looked up in a language by :func:`reason_messages`."""
    return message


#: Every reason a move can be given, and its English template.
MOVE_REASONS: Final[Mapping[str, str]] = MappingProxyType({
    # taking the top of the discard pile
    "take-completes": pgettext("reason", "{card} completes {cards}"),
    "take-opens": pgettext(
        "reason", "{card} completes {cards}, and the first meld reaches {total} of "
                  "{threshold} points"),
    "take-lays-off": pgettext("reason", "{card} fits meld {target}"),
    "take-swaps": pgettext(
        "reason", "{card} can take the joker's place in meld {target}, and the joker can "
                  "then be laid this turn"),
    "take-keeps": pgettext("reason", "{card} is one card short of a meld with cards in the "
                                     "hand"),
    # drawing from the stock instead
    "stock-top-fits-nothing": pgettext(
        "reason", "{card} fits no meld that can be laid this turn"),
    "stock-top-no-opening": pgettext(
        "reason", "{card} fits a meld, but no first meld with it can be completed this turn"),
    "stock-top-no-final-discard": pgettext(
        "reason", "laying {card} this turn would leave no card for the final discard"),
    "stock-first-round": pgettext(
        "reason", "these rules do not allow taking the discard in the first round"),
    "stock-one-card": pgettext(
        "reason", "these rules do not allow taking the discard with one card in hand"),
    "stock-pile-empty": pgettext("reason", "the discard pile is empty"),
    # laying melds
    "meld-lowers-hand": pgettext("reason", "it takes {points} points out of the hand"),
    "meld-opens": pgettext("reason", "the first meld reaches {total} of {threshold} points"),
    "meld-opens-next": pgettext(
        "reason", "with {next} after it, the first meld reaches {total} of {threshold} "
                  "points"),
    # laying off, and the joker exchange
    "lay-off-fits": pgettext(
        "reason", "{cards} fits meld {target}: {points} points out of the hand"),
    "swap-joker": pgettext(
        "reason", "{card} takes the joker's place in meld {target}, and the joker can be "
                  "laid again this turn"),
    # going out
    "goes-out": pgettext("reason", "no card is left: the round ends"),
    # discarding
    "discard-highest-loose": pgettext(
        "reason", "{card} is the highest card that fits nothing ({points} points)"),
    "discard-no-neighbour": pgettext(
        "reason", "{card} has no card of its rank and none next to it in its suit in the "
                  "hand"),
    "discard-safe": pgettext(
        "reason", "{card} fits no meld on the table, so the next player cannot lay it off"),
    # before the first meld
    "keep-building": pgettext(
        "reason", "keep building: the melds in the hand make {total} of {threshold} points"),
    "keep-building-no-pure": pgettext(
        "reason", "keep building: the melds in the hand make {total} of {threshold} "
                  "points, and no pure sequence yet"),
    "opening-returns": pgettext(
        "reason", "the first meld laid this turn makes {total} of {threshold} points and "
                  "cannot be completed: its cards go back to the hand at the discard"),
})


@dataclass(frozen=True, slots=True, init=False, eq=False)
class Reason:
    """Why a move is good: ``code`` (a key of :data:`MOVE_REASONS`) and ``values`` (by
    name); its text is the English sentence.

    >>> Reason("no-such-reason")
    Traceback (most recent call last):
    ...
    ValueError: unknown reason 'no-such-reason'
    """

    code: str
    values: Mapping[str, int | str]

    def __init__(self, code: str, **values: int | str) -> None:
        if code not in MOVE_REASONS:
            raise ValueError(f"unknown reason {code!r}")
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "values", MappingProxyType(dict(values)))

    def __str__(self) -> str:
        return MOVE_REASONS[self.code].format_map(self.values)

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted(self.values.items()))))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reason) and (self.code, dict(self.values)) == \
            (other.code, dict(other.values))

    def as_json(self) -> dict[str, object]:
        """The reason as the page reads it: ``{"code", "values"}``."""
        return {"code": self.code, "values": dict(self.values)}


def reason_messages(gettext: Callable[[str, str], str]) -> dict[str, str]:
    """Every reason's template in one language, by code. *gettext* looks a message up by
    its text and context (``Translator.gettext``); a language that lacks one gives the
    English back.

    >>> reason_messages(lambda text, context: text)["stock-pile-empty"]
    'the discard pile is empty'
    """
    return {code: gettext(template, CONTEXT) for code, template in MOVE_REASONS.items()}
