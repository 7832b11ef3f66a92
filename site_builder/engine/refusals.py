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
    # Translators: practice table, after "Not allowed:": no move can be made, the round has ended.
    "round-over": pgettext("refusal", "the round is over"),
    # Translators: practice table, after "Not allowed:"; {turn} and {seat} are seat numbers (1, 2…):
    # the seat whose turn it is, and the seat that tried to move.
    "not-your-turn": pgettext("refusal", "it is seat {turn}'s turn, not seat {seat}'s"),
    # Translators: practice table, after "Not allowed:"; {seat}: a seat number (1, 2…)
    # that the table does not have.
    "no-seat": pgettext("refusal", "there is no seat {seat}"),
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # it already took its card (from the stock or the discard pile) this turn.
    "already-drawn": pgettext("refusal", "seat {seat} has already drawn this turn"),
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # a turn starts by taking a card from the stock or the discard pile.
    "draw-first": pgettext("refusal", "seat {seat} must draw first"),
    # drawing
    # Translators: practice table, after "Not allowed:": no card is left to draw
    # from the stock (the face-down pile).
    "stock-empty": pgettext("refusal", "the stock is empty"),
    # Translators: practice table, after "Not allowed:": there is no card to take
    # from the discard pile.
    "discard-pile-empty": pgettext("refusal", "the discard pile is empty"),
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # "the discard" = the discard pile's top card, which a variation forbids taking then.
    "discard-first-round": pgettext(
        "refusal",
        "seat {seat} may not take the discard in the first round; draw from the stock"),
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # "the discard" = the discard pile's top card; a variation forbids taking it with one card.
    "discard-at-one-card": pgettext(
        "refusal",
        "seat {seat} holds one card and may not take the discard; draw from the stock"),
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # {card}: the discard pile's top card, a name in base form (pl: dama kier), never declined.
    "discard-take-needs-lay": pgettext(
        "refusal",
        "seat {seat} may take {card} from the discard pile only to lay it this turn, and "
        "cannot: it fits no meld"),
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # {card}: the discard pile's top card, base form (pl: dama kier); "opening" = first meld.
    "discard-take-needs-opening": pgettext(
        "refusal",
        "seat {seat} may take {card} from the discard pile only to lay it this turn, and "
        "cannot: no opening that uses it is accepted"),
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # {card}: the discard pile's top card, base form (pl: dama kier); a turn ends with a discard.
    "discard-take-needs-final-discard": pgettext(
        "refusal",
        "seat {seat} may take {card} from the discard pile only to lay it this turn, and "
        "cannot: no card would be left to discard"),
    # the cards named
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # {card}: a card's name in base form (pl: dama kier), never declined.
    "not-held": pgettext("refusal", "seat {seat} does not hold {card}"),
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # {count}: how many copies of the card it holds; {card}: a card's name, base form (dama kier).
    "held-too-few": pgettext("refusal", "seat {seat} holds only {count} of {card}"),
    # melds, and going out
    # Translators: practice table, after "Not allowed:"; {cards}: card names, base form;
    # {reason}: why they are no meld, in words (e.g. "the cards are not consecutive").
    "invalid-meld": pgettext("refusal", "{cards} is not a valid meld ({reason})"),
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # the move would lay every card, but going out ends with one last discard.
    "keep-final-discard": pgettext(
        "refusal", "seat {seat} must keep a card for the final discard"),
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # "opening" = first meld: {total} its points, {threshold} those needed, {reasons} why (words).
    "out-opening-short": pgettext(
        "refusal",
        "seat {seat} cannot go out with an opening that falls short ({total} points, threshold "
        "{threshold}: {reasons})"),
    # lay-offs
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # to lay off (add cards to a meld on the table) one must have laid one's first meld ("opened").
    "lay-off-not-opened": pgettext(
        "refusal", "seat {seat} has not opened yet and may not lay off"),
    # Translators: practice table, after "Not allowed:"; {target}: the number of a meld,
    # as the table labels its melds ("Meld 1", "Meld 2"…).
    "no-such-meld": pgettext("refusal", "there is no meld {target} on the table"),
    # Translators: practice table, after "Not allowed:"; "a lay-off" (a noun): adding cards from the
    # hand to a meld on the table.
    "lay-off-no-cards": pgettext("refusal", "a lay-off needs at least one card"),
    # Translators: practice table, after "Not allowed:"; {target}: a meld's number;
    # {cards}: cards added, {meld}: the meld's cards (names, base form); {reason}: why, in words.
    "lay-off-misfit": pgettext(
        "refusal", "{cards} does not fit meld {target} ({meld}): {reason}"),
    # joker exchanges
    # Translators: practice table, after "Not allowed:"; {game}: a game's name (Rami 40), as is;
    # a joker exchange puts a card in place of a joker in a meld on the table and takes the joker.
    "no-joker-exchange": pgettext("refusal", "{game} has no joker exchange"),
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # taking a joker from a meld on the table is allowed only after one's first meld ("opened").
    "swap-not-opened": pgettext(
        "refusal", "seat {seat} has not opened yet and may not exchange a joker"),
    # Translators: practice table, after "Not allowed:"; in a joker exchange, the card put in place
    # of a joker in a meld on the table cannot itself be a joker.
    "swap-joker-for-joker": pgettext("refusal", "a joker cannot replace a joker"),
    # Translators: practice table, after "Not allowed:"; {target}: a meld's number;
    # {meld}: its cards (names, base form, comma-separated): it holds no joker to exchange.
    "swap-no-joker": pgettext("refusal", "meld {target} ({meld}) holds no joker"),
    # Translators: practice table, after "Not allowed:"; {card}: the card offered (base form);
    # {target}: a meld's number, {meld}: its cards; {stands}: the card the joker stands for.
    "swap-wrong-card": pgettext(
        "refusal",
        "{card} cannot replace the joker in meld {target} ({meld}): the joker stands for "
        "{stands}"),
    # Translators: practice table, after "Not allowed:"; {card}: the card offered (base form);
    # {target}: meld number, {meld}: its cards; {stands}, {other}: the joker's 2 possible cards.
    "swap-wrong-card-2": pgettext(
        "refusal",
        "{card} cannot replace the joker in meld {target} ({meld}): the joker stands for "
        "{stands} or {other}"),
    # Translators: practice table, after "Not allowed:"; {card}: the card offered (base form);
    # {target}: meld number, {meld}: its cards; {stands}, {other}, {third}: what it may stand for.
    "swap-wrong-card-3": pgettext(
        "refusal",
        "{card} cannot replace the joker in meld {target} ({meld}): the joker stands for "
        "{stands} or {other} or {third}"),
    # a card that must be laid this turn (taken from the discard pile, or a joker taken)
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # {cards}: card(s) it took that must still be laid (names, base form); in brackets: why not.
    "owed-fits-no-meld": pgettext(
        "refusal",
        "seat {seat} must lay {cards} this turn and could not after that (it fits no meld)"),
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # {cards}: card(s) it took that must still be laid (names, base form); in brackets: why not.
    "owed-not-all": pgettext(
        "refusal",
        "seat {seat} must lay {cards} this turn and could not after that (they cannot all be "
        "laid)"),
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # {cards}: card(s) it took that must still be laid (base form); "opening" = first meld.
    "owed-no-opening": pgettext(
        "refusal",
        "seat {seat} must lay {cards} this turn and could not after that (no opening that uses "
        "it is accepted)"),
    # Translators: practice table, after "Not allowed:"; {seat}: a computer player's seat number;
    # {cards}: card(s) it took that must still be laid (base form); a turn ends with a discard.
    "owed-no-final-discard": pgettext(
        "refusal",
        "seat {seat} must lay {cards} this turn and could not after that (no card would be "
        "left to discard)"),
    # Translators: practice table, after "Not allowed:", a refused discard; {seat}: a computer's
    # seat number; {card} (twice): the card taken from the discard pile (name, base form).
    "discard-owes-card": pgettext(
        "refusal", "seat {seat} took {card} from the discard pile and must lay {card} this turn"),
    # Translators: practice table, after "Not allowed:", a refused discard; {seat}: a computer's
    # seat number; {card}: the joker it took from the discard pile (its name, base form).
    "discard-owes-taken-joker": pgettext(
        "refusal", "seat {seat} took {card} from the discard pile and must lay it this turn"),
    # Translators: practice table, after "Not allowed:", a refused discard; {seat}: a computer's
    # seat number; {target}: the number of the meld it took the joker from (a joker exchange).
    "discard-owes-joker": pgettext(
        "refusal", "seat {seat} took a joker from meld {target} and must lay it this turn"),
    # the shape of an action
    # Translators: practice table, after "Not allowed:"; "a lay-off" (a noun): adding cards
    # to a meld on the table, which must be chosen.
    "lay-off-needs-target": pgettext("refusal", "a lay-off needs a target meld"),
    # Translators: practice table, after "Not allowed:"; a joker exchange puts one card
    # from the hand in place of a joker in a chosen meld on the table.
    "swap-needs-card-and-target": pgettext(
        "refusal", "a joker exchange needs one card and a target meld"),
    # Translators: practice table, after "Not allowed:"; "a discard" (a noun): putting a card on the
    # discard pile, which ends a turn.
    "discard-needs-one-card": pgettext("refusal", "a discard is exactly one card"),
    # Translators: practice table, after "Not allowed:" (rarely seen); {kind}: the program's
    # English name for a move, shown as it is.
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
