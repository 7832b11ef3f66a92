"""Cards and their compact notation.

A card is written as its rank followed by its suit: ``QH`` (queen of hearts),
``10S`` (ten of spades), ``AC`` (ace of clubs). The joker is ``JK``.

* Ranks: ``A 2 3 4 5 6 7 8 9 10 J Q K``; ``T`` also means 10.
* Suits: ``C D H S`` or the glyphs ``♣ ♦ ♥ ♠`` (the white glyphs
  ``♧ ♢ ♡ ♤`` are accepted too).
* Case does not matter: ``qh``, ``Qh`` and ``QH`` are the same card.
* A variation selector (U+FE0F, U+FE0E) after a suit glyph (``♥️``, as phones type
  it) is ignored.
* The joker is ``JK``; the word ``joker`` (any case) is accepted as well.

The canonical notation (:attr:`Card.code`, ``str(card)``) always uses the
letters, upper case, and ``10`` rather than ``T``.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

__all__ = [
    "JOKER",
    "Card",
    "CardError",
    "Rank",
    "Suit",
    "parse_card",
    "parse_cards",
]


class Suit(enum.Enum):
    """The four suits, in the order clubs, diamonds, hearts, spades.

    >>> Suit.H.colour, Suit.S.colour
    ('red', 'black')
    >>> Suit("D").glyph
    '♦'
    """

    C = "C"
    D = "D"
    H = "H"
    S = "S"

    @property
    def colour(self) -> str:
        """``"red"`` for diamonds and hearts, ``"black"`` for clubs and spades."""
        return "red" if self in (Suit.D, Suit.H) else "black"

    @property
    def glyph(self) -> str:
        """The suit symbol: ♣ ♦ ♥ ♠."""
        return _GLYPHS[self]

    @property
    def index(self) -> int:
        """0 for clubs, 1 for diamonds, 2 for hearts, 3 for spades."""
        return _SUIT_INDEX[self]


_GLYPHS: Final = {Suit.C: "♣", Suit.D: "♦", Suit.H: "♥", Suit.S: "♠"}
SUITS: Final = (Suit.C, Suit.D, Suit.H, Suit.S)
_SUIT_INDEX: Final = {suit: i for i, suit in enumerate(SUITS)}


class Rank(enum.IntEnum):
    """Card ranks; the value is the rank number with the ace as 1.

    >>> Rank.QUEEN.label, int(Rank.QUEEN), Rank.TEN.label
    ('Q', 12, '10')
    """

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def label(self) -> str:
        """The rank as written in card notation: ``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``."""
        return _RANK_LABELS[self]


_RANK_LABELS: Final = {
    rank: {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank.value, str(rank.value)) for rank in Rank
}

#: The cards of one pack (jokers aside): 13 ranks in 4 suits.
PACK_CARDS: Final = 52
#: Ordinal of the joker; natural cards are ``suit_index * 13 + rank - 1`` (0 … 51).
JOKER_ORDINAL: Final = PACK_CARDS
#: What a card is worth, laid or left in a hand: a high ace, a low ace, a face card (and
#: a ten); a number card is worth its number.
ACE_HIGH_POINTS: Final = 11
ACE_LOW_POINTS: Final = 1
FACE_POINTS: Final = 10


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card, or the joker (``rank`` and ``suit`` both ``None``).

    >>> card = Card(Rank.QUEEN, Suit.H)
    >>> card.code, str(card), card.is_joker
    ('QH', 'QH', False)
    >>> Card(None, None) == JOKER, JOKER.code
    (True, 'JK')

    ``ordinal`` is a small integer identifying the card (0 … 51, the joker 52);
    it is derived from ``rank`` and ``suit``.
    """

    rank: Rank | None
    suit: Suit | None
    ordinal: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.rank is None and self.suit is None:
            ordinal = JOKER_ORDINAL
        elif isinstance(self.rank, Rank) and isinstance(self.suit, Suit):
            ordinal = _SUIT_INDEX[self.suit] * 13 + self.rank.value - 1
        else:
            raise ValueError(
                f"a card needs a Rank and a Suit (or neither, for the joker), "
                f"not {self.rank!r} and {self.suit!r}"
            )
        object.__setattr__(self, "ordinal", ordinal)

    def __hash__(self) -> int:
        return self.ordinal

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return self.ordinal == JOKER_ORDINAL

    @property
    def code(self) -> str:
        """Canonical notation: ``"QH"``, ``"10S"``, ``"JK"``."""
        if self.rank is None or self.suit is None:
            return "JK"
        return self.rank.label + self.suit.value

    def __str__(self) -> str:
        return self.code


JOKER: Final = Card(None, None)

#: Every card by ordinal: the 52 natural cards, then the joker.
CARDS_BY_ORDINAL: Final[tuple[Card, ...]] = tuple(
    Card(rank, suit) for suit in SUITS for rank in Rank
) + (JOKER,)


class CardError(ValueError):
    """A token that is not a card.

    ``token`` is the text as given and ``position`` its 1-based index among
    the tokens that were parsed.

    >>> try:
    ...     parse_cards("QH 1H KH")
    ... except CardError as exc:
    ...     print(exc.token, exc.position)
    1H 2
    """

    def __init__(self, token: str, position: int = 1) -> None:
        self.token = token
        self.position = position
        super().__init__(
            f"card {position}: {token!r} is not a card "
            f"(ranks A 2-10 J Q K or T for 10, suits C D H S or ♣ ♦ ♥ ♠, joker JK)"
        )

    def __reduce__(self) -> tuple[type[CardError], tuple[str, int]]:
        return (CardError, (self.token, self.position))


_SUIT_TOKENS: Final = {
    "C": Suit.C, "D": Suit.D, "H": Suit.H, "S": Suit.S,
    "♣": Suit.C, "♦": Suit.D, "♥": Suit.H, "♠": Suit.S,
    "♧": Suit.C, "♢": Suit.D, "♡": Suit.H, "♤": Suit.S,
}
_RANK_TOKENS: Final = {label: rank for rank, label in _RANK_LABELS.items()} | {"T": Rank.TEN}
_JOKER_TOKENS: Final = frozenset({"JK", "JOKER"})
_SEPARATORS: Final = re.compile(r"[\s,]+")
# A suit followed by a variation selector (U+FE0F asks for the emoji form, U+FE0E
# for the text form), as phone keyboards type ``♥️``: the same suit.
_VARIATION_SELECTORS: Final = ("\ufe0e", "\ufe0f")


@lru_cache(maxsize=256)
def _lookup(token: str) -> Card | None:
    text = token.strip().upper()
    if text.endswith(_VARIATION_SELECTORS) and text[-2:-1] in _SUIT_TOKENS:
        text = text[:-1]
    if text in _JOKER_TOKENS:
        return JOKER
    suit = _SUIT_TOKENS.get(text[-1:])
    rank = _RANK_TOKENS.get(text[:-1])
    if suit is None or rank is None:
        return None
    return CARDS_BY_ORDINAL[_SUIT_INDEX[suit] * 13 + rank.value - 1]


def parse_card(token: str, position: int = 1) -> Card:
    """Read one card in compact notation.

    *position* is only used in the error message and the error's attributes.

    >>> parse_card("qh")
    Card(rank=<Rank.QUEEN: 12>, suit=<Suit.H: 'H'>)
    >>> [parse_card(t).code for t in ("T♠", "10s", "a♥", "Joker", "jk")]
    ['10S', '10S', 'AH', 'JK', 'JK']
    >>> [parse_card(t).code for t in ("Q\u2665\ufe0f", "Q\u2665\ufe0e")]  # ♥️, as phones type it
    ['QH', 'QH']
    >>> try:
    ...     parse_card("ZZ", position=4)
    ... except CardError as exc:
    ...     print(exc)
    card 4: 'ZZ' is not a card (ranks A 2-10 J Q K or T for 10, suits C D H S or ♣ ♦ ♥ ♠, joker JK)
    """
    card = _lookup(token) if isinstance(token, str) else None
    if card is None:
        raise CardError(str(token), position)
    return card


def parse_cards(text_or_tokens: str | Sequence[str]) -> tuple[Card, ...]:
    """Read several cards.

    A string is split on whitespace and commas; a sequence of strings is read
    one token per item. Positions in errors count tokens from 1.

    >>> " ".join(card.code for card in parse_cards("Q♥, K♥ ah jk 7s 8S"))
    'QH KH AH JK 7S 8S'
    >>> parse_cards(["10D", "TD"]) == parse_cards("10D TD")
    True
    """
    if isinstance(text_or_tokens, str):
        tokens: Sequence[str] = [t for t in _SEPARATORS.split(text_or_tokens) if t]
    else:
        tokens = text_or_tokens
    return tuple(parse_card(token, position) for position, token in enumerate(tokens, 1))
