"""Rule sets as data: Rami 40, Rami 51 and the CardVerse variant.

Every difference between the variants is a field of :class:`RuleSet`; the
engine never asks which game it is playing. House rules are overrides:

>>> get_rules("rami51", joker_value=15).joker_value
15
>>> sorted(PRESETS)
['cardverse', 'rami40', 'rami51']
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from site_builder.engine.cards import PACK_CARDS

if TYPE_CHECKING:
    from site_builder.engine.cards import Card

__all__ = ["PRESETS", "RuleSet", "RulesError", "get_rules"]


class RulesError(ValueError):
    """An unknown game, an unknown or ill-typed rule, or a player count the rules do not allow."""


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """The rules of one variant. All fields are keyword-only.

    Deck and players

    * ``decks``: number of 52-card decks shuffled together.
    * ``jokers``: number of jokers added. With ``jokers == 0`` a joker in a
      meld is rejected (``joker_not_allowed``).
    * ``min_players`` / ``max_players``: the player counts allowed (2–4 in
      every preset; the seeds give 2–4 for CardVerse and are silent for Rami).
    * ``deal_sizes``: ``(players, cards per hand)`` pairs. CardVerse: 7 for
      two players, 10 for three or four (seed). Rami (seeds silent): **13**
      each, the starting player gets no extra card and draws as usual. Sources:
      pl.wikipedia/szl.wikipedia "Remik", jeurami.eu "Rami 51", jeuxdecartes1
      "Le Rami (Rami 51)", sites.google "jeux-de-cartes/rami", hegerm.ch "Rami",
      rummy-palace.com, casino-yes.com all deal 13; askarte.com "Remi" (14, the
      first player 15) and mundicontest.com (14) are the minority.

    First meld

    * ``opening_threshold``: points the melds of the first turn must reach
      (40, 51), or ``None`` for no threshold.
    * ``pure_sequence_required``: the opening must contain a sequence of at
      least 3 cards without a joker (Rami 51 only).

    Melds

    * ``ace_low``: whether A-2-3 is allowed. Q-K-A is always allowed.
      Wrapping (K-A-2) is never allowed in any variant; it is not a field.
    * ``joker_value``: ``None`` for the reference rules (a laid joker is worth
      the card it replaces; where it could stand in several places, the
      lowest-scoring placement is taken); an integer for a house rule that
      fixes a laid joker's value (e.g. 15).
    * ``max_jokers_per_meld``: Rami **1** (seeds silent). Sources:
      jeuxdecartes1 "Le Rami", sites.google "jeux-de-cartes/rami" and
      synonyme-du-mot.com ("Rami 51") allow one joker per meld, and
      pl.wikipedia "Remik" wants jokers to be fewer than the other cards (so one
      in any meld of three or four cards); rummy-party.com "Rami 40" allows two
      (the ``two_jokers`` profile). The field's default stays 2 for rule sets
      built by hand.
    * ``adjacent_jokers``: whether two jokers may stand side by side in a
      sequence; default **False** (only matters with two jokers per meld;
      rummy-party.com allows it, and so does the ``two_jokers`` profile). A set
      has no order, so this rule does not apply to sets.
    * ``all_joker_melds``: whether a meld may consist of jokers only; default
      **False** (szl.wikipedia "Remik": melds of jokers only are forbidden).

    Hand points and scoring

    * ``ace_high``: an ace left in a hand is worth 11 instead of 1. Rami:
      **True** (loisirs.savoir.fr "Le Rami", synonyme-du-mot.com,
      rummy-party.com, casino-yes.com and szl.wikipedia count 11; jeurami.eu
      counts 1). CardVerse: False (seed).
    * ``joker_hand_points``: a joker left in a hand. Rami: **20**
      (loisirs.savoir.fr, synonyme-du-mot.com and rummy-party.com say 20;
      jeurami.eu and bicyclecards.com "Kaluki" say 25, the ``joker_25``
      profile; szl.wikipedia gives "20 or 25").
    * ``unopened_hand_points``: a fixed penalty for a player who has not
      opened when the round ends, or ``None`` to count their cards (reference).
      synonyme-du-mot.com and casino-yes.com charge 100: the ``hundred``
      profile.
    * ``discard_to_win``: going out requires a final discard, so a meld or a
      lay-off must leave at least one card. Rami: **True**, the majority of the
      Rami/Remi 51 sources: hegerm.ch "Rami" ("défausse sa dernière carte"),
      rummy-palace.com "Remik" (the round ends when a player discards the last
      card), rummy-party.com "Remi 51" ("ultima carte să se decarteze"),
      askarte.com "Remi" and cardgamesplanet.com "Kalooki 51"; going out with or
      without a final discard is the ``no_final_discard`` variation
      (companyprideplatform.org, pagat's "Rummy"; bicyclecards.com "Rummy";
      gamerules.com "Kaluki"). CardVerse: False (seed: laying or adding the last
      card goes out; ``discard_to_win`` is the seed's option).
    * ``rami_sec``: a player who has not opened may go out in one turn by laying
      the whole hand ("rami sec"), free of the first-meld conditions. Default
      **False**; the ``rami_sec`` variation (synonyme-du-mot.com "Celui qui fait
      rami sec est dispensé des conditions de première pose"; casino-yes.com
      "dry rummy").
    * ``discard_first_round``: the discard pile may be taken in the first round
      (each player's first turn). Default **True** (sites.google "jeux-de-cartes/rami"
      and the other sources listed on content/sources.md give no such ban; the seed
      lets CardVerse players take the visible discard from the start); the ban is the
      ``second_round_discard`` variation (jeuxdecartes1 "à partir du 2e tour",
      jeuxdecartesinedits.blogspot.com "qu'à partir du deuxième tour",
      casino-yes.com "possible only in the second round of play").
    * ``discard_at_one_card``: a player holding one card may take the discard.
      Default **True** (most sources are silent); the "à carte" ban is the
      ``a_carte`` variation (jeuxdecartes1 "« à carte », il est obligé de piocher";
      fr.scribd.com "Rami").
    * ``penalty_scoring``: how a round is scored. ``False`` (CardVerse, seed):
      the winner gains the points left in the opponents' hands, and the game
      ends when a player reaches ``target_score``; that player wins.
      ``True`` (Rami): every player scores the points left in their own hand
      as penalty points (the winner 0), the game ends after the round in which
      a player reaches ``target_score`` penalty points, and the lowest total
      wins; players tied on the lowest total share the win (mundicontest.com,
      sites.google "jeux-de-cartes/rami", loisirs.savoir.fr and skill7.com score
      penalties and let the lowest total win; skill7.com ends the game at a
      limit agreed beforehand, and the sources give no figure, so 500 is our
      choice; no source breaks ties).
    * ``target_score``: CardVerse 100 (seed); Rami 500 penalty points.
    * ``discard_must_be_used``: the card taken from the discard pile must be
      laid (in a meld or a lay-off) in the same turn; before a player has
      opened, it must be part of an opening that is accepted. Rami: **True**
      (jeuxdecartes1, sites.google "jeux-de-cartes/rami", casino-yes.com and
      bicyclecards.com "Kaluki" agree); CardVerse: False (the seed lets a
      player take the visible discard with no condition).
    * ``joker_exchange``: a player who has opened may take a joker from any
      meld on the table by putting in its place the card it stands for; the
      joker must then be laid in the same turn, in a new meld or on a meld (the
      sources say a new combination; "on a meld" is this site's choice, so that a
      joker is never stranded in a hand that could lay it). In a sequence the
      joker's place is fixed where it was laid (its lower place, see
      ``joker_value``); in a set it stands for any suit the set lacks, so any
      missing suit may replace it or be laid off beside it (no source pins a
      set joker's suit; szl.wikipedia asks the player to name the card only "in
      case of doubt"). A card taken from the discard pile may be laid by such an
      exchange (content/turn.md: "lay it on the table in the same turn, in a
      meld or on a meld"). Rami: **True** (seed id: "the
      51-point rule, jokers and their return"; szl.wikipedia "Remik",
      hegerm.ch, synonyme-du-mot.com, casino-yes.com, bicyclecards.com
      "Kaluki"; synonyme-du-mot.com asks that the joker be laid again in the
      same turn).

    The stock running out ends the round in every variant, as the CardVerse
    seed says (jeurami.eu reshuffles the discard pile instead; not followed).
    """

    name: str
    title: str
    decks: int = 1
    jokers: int = 0
    opening_threshold: int | None = None
    pure_sequence_required: bool = False
    ace_low: bool = True
    joker_value: int | None = None
    max_jokers_per_meld: int = 2
    adjacent_jokers: bool = False
    all_joker_melds: bool = False
    ace_high: bool = False
    joker_hand_points: int = 25
    discard_to_win: bool = False
    rami_sec: bool = False
    discard_first_round: bool = True
    discard_at_one_card: bool = True
    target_score: int = 100
    unopened_hand_points: int | None = None
    penalty_scoring: bool = False
    discard_must_be_used: bool = False
    joker_exchange: bool = False
    min_players: int = 2
    max_players: int = 4
    deal_sizes: tuple[tuple[int, int], ...] = ((2, 14), (3, 14), (4, 14))

    def __post_init__(self) -> None:
        if isinstance(self.deal_sizes, list):  # from TOML: [[2, 14], [3, 14]]
            object.__setattr__(self, "deal_sizes", tuple(
                tuple(pair) if isinstance(pair, list) else pair for pair in self.deal_sizes))
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            kind = _FIELD_KINDS[f.name]
            if not _has_kind(value, kind):
                raise RulesError(f"rule {f.name!r} must be {kind}, not {value!r}")
        for name in ("decks", "min_players", "target_score"):
            if getattr(self, name) < 1:
                raise RulesError(f"rule {name!r} must be at least 1, not {getattr(self, name)}")
        for name in ("jokers", "max_jokers_per_meld", "joker_hand_points",
                     "opening_threshold", "joker_value", "unopened_hand_points"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise RulesError(f"rule {name!r} must not be negative, not {value}")
        if self.max_players < self.min_players:
            raise RulesError(f"max_players {self.max_players} is below "
                             f"min_players {self.min_players}")
        sizes = dict(self.deal_sizes)
        missing = [p for p in range(self.min_players, self.max_players + 1) if p not in sizes]
        if missing:
            raise RulesError(f"deal_sizes gives no hand size for {missing[0]} players")
        deck = self.deck_cards
        for players in range(self.min_players, self.max_players + 1):
            if players * sizes[players] + 1 > deck:
                raise RulesError(f"a deck of {deck} cards cannot deal {sizes[players]} cards "
                                 f"to {players} players and turn one up")

    def excess(self, cards: Iterable[Card]) -> str | None:
        """Why the decks cannot hold *cards* (one of them more often than they have it),
        or None if they can.

        >>> from site_builder.engine import parse_cards
        >>> rami = get_rules("rami51")
        >>> print(rami.excess(parse_cards("JK 5H 5H")))
        None
        >>> print(rami.excess(parse_cards("5H 5H 5H")))
        5H appears 3 times; the Rami 51 deck holds it twice
        >>> print(get_rules("cardverse").excess(parse_cards("7D JK")))
        the Rami (CardVerse) deck has no JK
        """
        for card, count in Counter(cards).items():
            held = self.jokers if card.is_joker else self.decks
            if count > held:
                if not held:
                    return f"the {self.title} deck has no {card.code}"
                times = {1: "once", 2: "twice"}.get(held, f"{held} times")
                return f"{card.code} appears {count} times; the {self.title} deck holds it {times}"
        return None

    @property
    def deck_cards(self) -> int:
        """How many cards the deck holds: its packs and its jokers.

        >>> get_rules("rami51").deck_cards, get_rules("cardverse").deck_cards
        (108, 52)
        """
        return self.decks * PACK_CARDS + self.jokers

    def hand_size(self, players: int) -> int:
        """Cards dealt to each player.

        >>> cardverse = get_rules("cardverse")
        >>> cardverse.hand_size(2), cardverse.hand_size(3), cardverse.hand_size(4)
        (7, 10, 10)
        >>> cardverse.hand_size(5)
        Traceback (most recent call last):
        ...
        site_builder.engine.rules.RulesError: Rami (CardVerse) is for 2 to 4 players, not 5
        """
        if (isinstance(players, bool) or not isinstance(players, int)
                or not self.min_players <= players <= self.max_players):
            raise RulesError(f"{self.title} is for {self.min_players} to {self.max_players} "
                             f"players, not {players}")
        return dict(self.deal_sizes)[players]


_FIELD_KINDS: Final = {
    "name": "a string", "title": "a string",
    "decks": "an integer", "jokers": "an integer", "max_jokers_per_meld": "an integer",
    "joker_hand_points": "an integer", "target_score": "an integer",
    "min_players": "an integer", "max_players": "an integer",
    "opening_threshold": "an integer or None", "joker_value": "an integer or None",
    "pure_sequence_required": "a boolean", "ace_low": "a boolean",
    "adjacent_jokers": "a boolean", "all_joker_melds": "a boolean", "ace_high": "a boolean",
    "discard_to_win": "a boolean", "penalty_scoring": "a boolean",
    "rami_sec": "a boolean", "discard_first_round": "a boolean",
    "discard_at_one_card": "a boolean",
    "discard_must_be_used": "a boolean", "joker_exchange": "a boolean",
    "unopened_hand_points": "an integer or None",
    "deal_sizes": "a tuple of (players, cards) pairs",
}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _has_kind(value: object, kind: str) -> bool:
    if kind == "a string":
        return isinstance(value, str)
    if kind == "an integer":
        return _is_int(value)
    if kind == "an integer or None":
        return value is None or _is_int(value)
    if kind == "a boolean":
        return isinstance(value, bool)
    return isinstance(value, tuple) and all(
        isinstance(pair, tuple) and len(pair) == 2 and all(_is_int(x) for x in pair)
        for pair in value
    )


_RAMI: Final = RuleSet(
    name="rami",
    title="Rami",
    decks=2,
    jokers=4,
    ace_low=True,
    max_jokers_per_meld=1,
    ace_high=True,
    joker_hand_points=20,
    penalty_scoring=True,
    target_score=500,
    discard_must_be_used=True,
    joker_exchange=True,
    discard_to_win=True,
    deal_sizes=((2, 13), (3, 13), (4, 13)),
)

#: The three published variants. Rami 40 and Rami 51 differ only in the
#: threshold and the pure-sequence requirement.
PRESETS: Final[Mapping[str, RuleSet]] = MappingProxyType({
    "rami40": dataclasses.replace(_RAMI, name="rami40", title="Rami 40", opening_threshold=40),
    "rami51": dataclasses.replace(_RAMI, name="rami51", title="Rami 51", opening_threshold=51,
                                  pure_sequence_required=True),
    "cardverse": RuleSet(
        name="cardverse",
        title="Rami (CardVerse)",
        decks=1,
        jokers=0,
        opening_threshold=None,
        pure_sequence_required=False,
        ace_low=False,
        deal_sizes=((2, 7), (3, 10), (4, 10)),
    ),
})


def get_rules(game: str, **overrides: Any) -> RuleSet:
    """The preset for *game*, with house-rule *overrides* applied.

    >>> rules = get_rules("cardverse", ace_high=True)
    >>> rules.name, rules.ace_high, rules.decks, rules.jokers
    ('cardverse', True, 1, 0)
    >>> get_rules("rami52")
    Traceback (most recent call last):
    ...
    site_builder.engine.rules.RulesError: unknown game 'rami52' (known games: rami40, rami51, \
cardverse)
    >>> get_rules("rami51", joker_worth=15)
    Traceback (most recent call last):
    ...
    site_builder.engine.rules.RulesError: unknown rule 'joker_worth' (known rules: name, title, \
decks, jokers, opening_threshold, pure_sequence_required, ace_low, joker_value, \
max_jokers_per_meld, adjacent_jokers, all_joker_melds, ace_high, joker_hand_points, \
discard_to_win, rami_sec, discard_first_round, discard_at_one_card, target_score, \
unopened_hand_points, penalty_scoring, discard_must_be_used, joker_exchange, min_players, \
max_players, deal_sizes)
    """
    try:
        preset = PRESETS[game]
    except (KeyError, TypeError):
        raise RulesError(f"unknown game {game!r} (known games: {', '.join(PRESETS)})") from None
    names = [f.name for f in dataclasses.fields(RuleSet)]
    for key in overrides:
        if key not in names:
            raise RulesError(f"unknown rule {key!r} (known rules: {', '.join(names)})")
    if not overrides:
        return preset
    return dataclasses.replace(preset, **overrides)
