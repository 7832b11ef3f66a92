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
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

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
      two players, 10 for three or four. Rami (seeds silent): 14 each, as in
      the two-deck 51 games.

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
    * ``max_jokers_per_meld``: default **2** (seeds silent).
    * ``adjacent_jokers``: whether two jokers may stand side by side in a
      sequence; default **False** (seeds silent). A set has no order, so this
      rule does not apply to sets.
    * ``all_joker_melds``: whether a meld may consist of jokers only; default
      **False** (seeds silent).

    Hand points and scoring

    * ``ace_high``: an ace left in a hand is worth 11 instead of 1.
    * ``joker_hand_points``: a joker left in a hand; default **25** (seeds
      silent; the usual figure in two-deck rummy games such as Kaluki).
    * ``discard_to_win``: going out requires a final discard.
    * ``target_score``: the game runs to this score (100).
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
    target_score: int = 100
    min_players: int = 2
    max_players: int = 4
    deal_sizes: tuple[tuple[int, int], ...] = ((2, 14), (3, 14), (4, 14))

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            kind = _FIELD_KINDS[f.name]
            if not _has_kind(value, kind):
                raise RulesError(f"rule {f.name!r} must be {kind}, not {value!r}")
        for name in ("decks", "min_players", "target_score"):
            if getattr(self, name) < 1:
                raise RulesError(f"rule {name!r} must be at least 1, not {getattr(self, name)}")
        for name in ("jokers", "max_jokers_per_meld", "joker_hand_points",
                     "opening_threshold", "joker_value"):
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
        deck = 52 * self.decks + self.jokers
        for players in range(self.min_players, self.max_players + 1):
            if players * sizes[players] + 1 > deck:
                raise RulesError(f"a deck of {deck} cards cannot deal {sizes[players]} cards "
                                 f"to {players} players and turn one up")

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
    "discard_to_win": "a boolean",
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
    deal_sizes=((2, 14), (3, 14), (4, 14)),
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
discard_to_win, target_score, min_players, max_players, deal_sizes)
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
