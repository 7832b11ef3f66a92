"""Points left in a hand, round scores and the stock-out winner."""

from __future__ import annotations

from collections.abc import Sequence

from site_builder.engine.cards import ACE_HIGH_POINTS, ACE_LOW_POINTS, FACE_POINTS, Card
from site_builder.engine.rules import RulesError, RuleSet

__all__ = ["card_hand_points", "game_over", "game_winners", "hand_points", "max_hand_points",
           "round_problem", "round_scores", "stock_out_winner"]


def card_hand_points(card: Card, rules: RuleSet) -> int:
    """Points of one card left in a hand: ace 1 (11 with ``rules.ace_high``),
    2–9 face value, 10 J Q K 10, a joker ``rules.joker_hand_points``.

    >>> from site_builder.engine import JOKER, get_rules, parse_card
    >>> rules = get_rules("rami51")
    >>> card_hand_points(parse_card("AH"), rules), card_hand_points(JOKER, rules)
    (11, 20)
    """
    if card.rank is None:
        return rules.joker_hand_points
    if card.rank == 1:
        return ACE_HIGH_POINTS if rules.ace_high else ACE_LOW_POINTS
    return min(card.rank.value, FACE_POINTS)


def hand_points(cards: Sequence[Card], rules: RuleSet) -> int:
    """The points left in a hand; :class:`ValueError` for a hand the decks cannot hold.

    >>> from site_builder.engine import get_rules, parse_cards
    >>> hand_points(parse_cards("AH KS 7D"), get_rules("cardverse"))
    18
    >>> hand_points(parse_cards("AH KS 7D"), get_rules("cardverse", ace_high=True))
    28
    >>> hand_points(parse_cards("JK 7D"), get_rules("cardverse"))
    Traceback (most recent call last):
    ...
    ValueError: the Rami (CardVerse) deck has no JK
    >>> hand_points(parse_cards("7D 7D 7D"), get_rules("rami51"))
    Traceback (most recent call last):
    ...
    ValueError: 7D appears 3 times; the Rami 51 deck holds it twice
    """
    excess = rules.excess(cards)
    if excess is not None:
        raise ValueError(excess)
    return sum(card_hand_points(card, rules) for card in cards)


def round_scores(hands: Sequence[Sequence[Card]], winner: int, rules: RuleSet,
                 opened: Sequence[bool] | None = None) -> tuple[int, ...]:
    """Score a round.

    CardVerse (``penalty_scoring`` off): the *winner* (a seat index) gains the
    opponents' hand points. Rami 40/51: every other seat scores the points left
    in its own hand as penalty points, the winner 0; with
    ``unopened_hand_points`` a seat that has not opened (*opened*, one flag per
    seat; all opened when not given) scores that figure instead.

    >>> from site_builder.engine import get_rules, parse_cards
    >>> hands = [(), parse_cards("KH 2C"), parse_cards("AS")]
    >>> round_scores(hands, 0, get_rules("cardverse"))
    (13, 0, 0)
    >>> round_scores(hands, 0, get_rules("rami51"))
    (0, 12, 11)
    >>> round_scores(hands, 0, get_rules("rami51", unopened_hand_points=100),
    ...              opened=[True, True, False])
    (0, 12, 100)
    """
    if isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < len(hands):
        raise RulesError(f"winner must be a seat from 0 to {len(hands) - 1}, not {winner!r}")
    if rules.penalty_scoring:
        flags = list(opened) if opened is not None else [True] * len(hands)
        fixed = rules.unopened_hand_points
        return tuple(
            0 if seat == winner
            else fixed if fixed is not None and not flags[seat]
            else hand_points(hand, rules)
            for seat, hand in enumerate(hands))
    gained = sum(hand_points(hand, rules) for seat, hand in enumerate(hands) if seat != winner)
    return tuple(gained if seat == winner else 0 for seat in range(len(hands)))


def game_over(totals: Sequence[int], rules: RuleSet) -> bool:
    """Whether a game with these running *totals* (one per seat) has ended: a seat has
    reached ``rules.target_score`` (points gained in CardVerse, penalty points in Rami).

    >>> from site_builder.engine import get_rules
    >>> game_over([120, 480], get_rules("rami51")), game_over([120, 500], get_rules("rami51"))
    (False, True)
    """
    return bool(totals) and max(totals) >= rules.target_score


def game_winners(totals: Sequence[int], rules: RuleSet) -> tuple[int, ...]:
    """The seats (from 0) that win a finished game: the highest total in CardVerse, the
    lowest penalty total in Rami 40/51; seats tied on it share the win.

    >>> from site_builder.engine import get_rules
    >>> game_winners([310, 505, 310], get_rules("rami51")), game_winners([40, 104],
    ...     get_rules("cardverse"))
    ((0, 2), (1,))
    """
    if not totals:
        raise RulesError("there are no totals to compare")
    best = min(totals) if rules.penalty_scoring else max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)


def stock_out_winner(hands: Sequence[Sequence[Card]], rules: RuleSet) -> int:
    """The seat that wins when the stock runs out: fewest hand points, ties to the first seat.

    >>> from site_builder.engine import get_rules, parse_cards
    >>> stock_out_winner([parse_cards("KH"), parse_cards("5C 5D"), parse_cards("QS")],
    ...                  get_rules("cardverse"))
    0
    """
    if not hands:
        raise RulesError("there are no hands to compare")
    points = [hand_points(hand, rules) for hand in hands]
    return points.index(min(points))


def max_hand_points(cards: int, rules: RuleSet) -> int:
    """The most points *cards* cards left in one hand can be worth under *rules*: the
    dearest cards the decks hold (jokers, aces, then tens and faces, ...).

    A hand at the end of a round holds at most the cards dealt to it: a card taken
    from the discard pile is laid or replaces the one discarded, and a first meld that
    falls short only gives back what was laid. So 13 Rami cards hold at most 4 jokers
    (80), 8 aces (88) and a ten: 178; 198 with jokers at 25.

    >>> from site_builder.engine import get_rules
    >>> max_hand_points(13, get_rules("rami51")), max_hand_points(13, get_rules(
    ...     "rami51", joker_hand_points=25)), max_hand_points(7, get_rules("cardverse"))
    (178, 198, 70)
    """
    values = [rules.joker_hand_points] * rules.jokers
    for rank in range(1, 14):
        value = ((ACE_HIGH_POINTS if rules.ace_high else ACE_LOW_POINTS) if rank == 1
                 else min(rank, FACE_POINTS))
        values.extend([value] * (4 * rules.decks))
    values.sort(reverse=True)
    return sum(values[:max(cards, 0)])


def round_problem(scores: Sequence[int], rules: RuleSet) -> str | None:
    """Why one round's *scores* (one per seat) cannot happen under *rules*, or None.

    Every round has one winner: the player who went out, or the stock-out winner. In
    Rami 40/51 (``penalty_scoring``) the winner scores 0 and every other player at least
    the point of one card and at most what the cards dealt to a hand can hold
    (:func:`max_hand_points`, or ``unopened_hand_points`` when that is more). In
    CardVerse only the winner scores: at most what the other hands can hold.

    >>> from site_builder.engine import get_rules
    >>> rami = get_rules("rami51")
    >>> print(round_problem([0, 105, 95], rami))
    None
    >>> round_problem([0, 360, 12], rami)
    'seat 2 scores 360, more than any hand can hold: 13 cards are worth at most 178'
    >>> round_problem([200, 300, 200], rami)
    'nobody scores 0, but the player who goes out (or wins on the stock-out) scores 0'
    >>> round_problem([0, 0, 12], rami)
    'seats 1 and 2 score 0, but only the winner does: every other hand holds a card'
    >>> round_problem([0, 100], get_rules("rami51", unopened_hand_points=100)) is None
    True
    >>> round_problem([23, 0], get_rules("cardverse")) is None
    True
    >>> round_problem([23, 5], get_rules("cardverse"))
    'seats 1 and 2 score points, but only the winner scores in this game'
    """
    players = len(scores)
    if not rules.min_players <= players <= rules.max_players:
        return (f"{players} scores, but {rules.title} is for {rules.min_players} to "
                f"{rules.max_players} players")
    for seat, score in enumerate(scores, 1):
        if score < 0:
            return f"seat {seat} scores {score}, but no score is negative"
    cards = rules.hand_size(players)
    one_hand = max_hand_points(cards, rules)
    if rules.penalty_scoring:
        zeros = [seat for seat, score in enumerate(scores, 1) if score == 0]
        if not zeros:
            return ("nobody scores 0, but the player who goes out (or wins on the stock-out) "
                    "scores 0")
        if len(zeros) > 1:
            return (f"seats {_seats(zeros)} score 0, but only the winner does: every other "
                    f"hand holds a card")
        bound = max(one_hand, rules.unopened_hand_points or 0)
        for seat, score in enumerate(scores, 1):
            if score > bound:
                extra = (f" (or {rules.unopened_hand_points} before a first meld)"
                         if rules.unopened_hand_points is not None else "")
                return (f"seat {seat} scores {score}, more than any hand can hold: {cards} "
                        f"cards are worth at most {one_hand}{extra}")
        return None
    scoring = [seat for seat, score in enumerate(scores, 1) if score]
    if len(scoring) != 1:
        if not scoring:
            return "nobody scores, but the winner gains the points left in the other hands"
        return f"seats {_seats(scoring)} score points, but only the winner scores in this game"
    bound = one_hand * (players - 1)
    seat = scoring[0]
    if scores[seat - 1] > bound:
        return (f"seat {seat} scores {scores[seat - 1]}, more than the other hands can hold: "
                f"{players - 1} x {cards} cards are worth at most {bound}")
    return None


def _seats(seats: list[int]) -> str:
    return ", ".join(str(s) for s in seats[:-1]) + f" and {seats[-1]}"
