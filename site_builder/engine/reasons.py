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
    # Translators: practice table, after "Why:" (hint, log, review): why take {card} from the
    # discard pile; {cards}: the hand's cards it makes a meld with (card names, base form).
    "take-completes": pgettext("reason", "{card} completes {cards}"),
    # Translators: practice table, after "Why:": why take {card} from the discard pile; {cards}:
    # the hand's cards it makes a meld with (base form); {total} of {threshold}: first-meld points.
    "take-opens": pgettext(
        "reason", "{card} completes {cards}, and the first meld reaches {total} of "
                  "{threshold} points"),
    # Translators: practice table, after "Why:": why take {card} (base form) from the discard pile;
    # {target}: the number of a meld on the table it can be added to.
    "take-lays-off": pgettext("reason", "{card} fits meld {target}"),
    # Translators: practice table, after "Why:": why take {card} (base form) from the discard pile;
    # {target}: the number of a meld on the table whose joker it can replace.
    "take-swaps": pgettext(
        "reason", "{card} can take the joker's place in meld {target}, and the joker can "
                  "then be laid this turn"),
    # Translators: practice table, after "Why:": why take {card} (base form) from the discard pile:
    # with cards of the hand it makes a meld that lacks only one more card.
    "take-keeps": pgettext("reason", "{card} is one card short of a meld with cards in the "
                                     "hand"),
    # drawing from the stock instead
    # Translators: practice table, after "Why:": why draw from the stock rather than take {card},
    # the discard pile's top card (a card's name, base form).
    "stock-top-fits-nothing": pgettext(
        "reason", "{card} fits no meld that can be laid this turn"),
    # Translators: practice table, after "Why:": why draw from the stock rather than take {card},
    # the discard pile's top card (a card's name, base form).
    "stock-top-no-opening": pgettext(
        "reason", "{card} fits a meld, but no first meld with it can be completed this turn"),
    # Translators: practice table, after "Why:": why draw from the stock rather than take {card},
    # the discard pile's top card (base form); going out ends with one last discard.
    "stock-top-no-final-discard": pgettext(
        "reason", "laying {card} this turn would leave no card for the final discard"),
    # Translators: practice table, after "Why:": why draw from the stock; "the discard" = the
    # discard pile's top card; "these rules" = the variation chosen for the game.
    "stock-first-round": pgettext(
        "reason", "these rules do not allow taking the discard in the first round"),
    # Translators: practice table, after "Why:": why draw from the stock; "the discard" = the
    # discard pile's top card; "these rules" = the variation chosen for the game.
    "stock-one-card": pgettext(
        "reason", "these rules do not allow taking the discard with one card in hand"),
    # Translators: practice table, after "Why:": why draw from the stock: there is no card to take
    # from the discard pile.
    "stock-pile-empty": pgettext("reason", "the discard pile is empty"),
    # laying melds
    # Translators: practice table, after "Why:": why lay a meld; "it" = the meld; {points}: the
    # points of its cards, which no longer count against the hand.
    "meld-lowers-hand": pgettext("reason", "it takes {points} points out of the hand"),
    # Translators: practice table, after "Why:": why lay a meld; {total}: the first meld's points
    # with it, {threshold}: the points a first meld needs.
    "meld-opens": pgettext("reason", "the first meld reaches {total} of {threshold} points"),
    # Translators: practice table, after "Why:": why lay a meld; {next}: the cards of the meld
    # to lay after it (names; melds joined by " + "); {total} of {threshold}: first-meld points.
    "meld-opens-next": pgettext(
        "reason", "with {next} after it, the first meld reaches {total} of {threshold} "
                  "points"),
    # laying off, and the joker exchange
    # Translators: practice table, after "Why:": why add cards to a meld; {cards}: those cards;
    # {target}: the meld's number; {points}: their points, no longer counted in the hand.
    "lay-off-fits": pgettext(
        "reason", "{cards} fits meld {target}: {points} points out of the hand"),
    # Translators: practice table, after "Why:": why exchange a joker; {card}: the card put in its
    # place (base form); {target}: the number of the meld on the table.
    "swap-joker": pgettext(
        "reason", "{card} takes the joker's place in meld {target}, and the joker can be "
                  "laid again this turn"),
    # going out
    # Translators: practice table, after "Why:": why this move: it lays or discards the last card
    # in the hand (going out).
    "goes-out": pgettext("reason", "no card is left: the round ends"),
    # discarding
    # Translators: practice table, after "Why:": why discard {card} (base form): of the cards that
    # fit no meld it counts most; {points}: its points.
    "discard-highest-loose": pgettext(
        "reason", "{card} is the highest card that fits nothing ({points} points)"),
    # Translators: practice table, after "Why:": why discard {card} (base form): the hand has no
    # card of the same rank, and none just above or below it in the same suit.
    "discard-no-neighbour": pgettext(
        "reason", "{card} has no card of its rank and none next to it in its suit in the "
                  "hand"),
    # Translators: practice table, after "Why:": why discard {card} (base form): the next player
    # cannot add it to a meld on the table.
    "discard-safe": pgettext(
        "reason", "{card} fits no meld on the table, so the next player cannot lay it off"),
    # before the first meld
    # Translators: practice table, after "Why:": why not lay melds yet (keep collecting cards);
    # {total}: the points of the melds in the hand, {threshold}: the points a first meld needs.
    "keep-building": pgettext(
        "reason", "keep building: the melds in the hand make {total} of {threshold} points"),
    # Translators: practice table, after "Why:": why not lay melds yet (keep collecting cards);
    # {total} of {threshold}: first-meld points; a pure sequence is a sequence with no joker.
    "keep-building-no-pure": pgettext(
        "reason", "keep building: the melds in the hand make {total} of {threshold} "
                  "points, and no pure sequence yet"),
    # Translators: practice table, after "Why:", for a discard; {total}: points of the first meld
    # laid this turn, short of {threshold} (those needed): its cards return to the hand.
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
