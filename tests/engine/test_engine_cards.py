"""Card notation: parsing, canonical codes and bad tokens."""

from __future__ import annotations

import pytest

from site_builder.engine import JOKER, Card, CardError, Rank, Suit, parse_card, parse_cards


def test_suits_and_colours() -> None:
    assert [s.value for s in Suit] == ["C", "D", "H", "S"]
    assert [s.colour for s in Suit] == ["black", "red", "red", "black"]
    assert [s.glyph for s in Suit] == ["♣", "♦", "♥", "♠"]


def test_ranks() -> None:
    assert (Rank.ACE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING) == (1, 10, 11, 12, 13)
    assert [r.label for r in Rank] == "A 2 3 4 5 6 7 8 9 10 J Q K".split()


@pytest.mark.parametrize(("token", "code"), [
    ("QH", "QH"), ("qh", "QH"), ("Qh", "QH"), ("Q♥", "QH"), ("q♡", "QH"),
    ("10S", "10S"), ("TS", "10S"), ("t♠", "10S"), ("10♤", "10S"),
    ("AC", "AC"), ("a♣", "AC"), ("2D", "2D"), ("9♦", "9D"), ("KS", "KS"), ("jc", "JC"),
    ("JK", "JK"), ("jk", "JK"), ("Joker", "JK"), ("JOKER", "JK"), (" QH ", "QH"),
])
def test_parse_card(token: str, code: str) -> None:
    card = parse_card(token)
    assert card.code == code
    assert str(card) == code


def test_card_values() -> None:
    assert parse_card("QH") == Card(Rank.QUEEN, Suit.H)
    assert parse_card("JK") == JOKER == Card(None, None)
    assert JOKER.is_joker and JOKER.rank is None and JOKER.suit is None
    assert not parse_card("QH").is_joker
    assert len({parse_card("QH"), Card(Rank.QUEEN, Suit.H), parse_card("KH")}) == 2


def test_card_needs_both_rank_and_suit() -> None:
    with pytest.raises(ValueError):
        Card(Rank.ACE, None)


def test_parse_cards_splits_on_whitespace_and_commas() -> None:
    assert [c.code for c in parse_cards("QH, KH,AH\tJK\n7S  8S")] == \
        ["QH", "KH", "AH", "JK", "7S", "8S"]
    assert parse_cards(["QH", "kh"]) == parse_cards("QH KH")
    assert parse_cards("") == ()


@pytest.mark.parametrize(("given", "token", "position"), [
    ("QH KH ZZ", "ZZ", 3),
    ("1H", "1H", 1),
    ("QH, 11S", "11S", 2),
    ("QH KX", "KX", 2),
    ("QH JOKERS", "JOKERS", 2),
    (["QH", "KH", "AH", "Q H"], "Q H", 4),
    (["", "QH"], "", 1),
])
def test_bad_token_names_token_and_position(given: str | list[str], token: str,
                                            position: int) -> None:
    with pytest.raises(CardError) as info:
        parse_cards(given)
    assert isinstance(info.value, ValueError)
    assert (info.value.token, info.value.position) == (token, position)
    message = str(info.value)
    assert f"card {position}:" in message and repr(token) in message


def test_parse_card_error_message() -> None:
    with pytest.raises(CardError, match=r"^card 1: 'XH' is not a card \(ranks A 2-10 J Q K"):
        parse_card("XH")
