"""Points left in a hand, round scores and the stock-out winner."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from site_builder.engine.cards import ACE_HIGH_POINTS, ACE_LOW_POINTS, FACE_POINTS, Card
from site_builder.engine.rules import RulesError, RuleSet

__all__ = ["RoundProblem", "card_hand_points", "check_round", "game_over", "game_problem",
           "game_winners", "hand_points", "max_hand_points", "min_hand_points", "round_problem",
           "round_scores", "stock_out_winner"]


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


def _pack_values(rules: RuleSet) -> list[int]:
    """The hand points of every card the decks hold (jokers included), dearest first."""
    values = [rules.joker_hand_points] * rules.jokers
    for rank in range(1, 14):
        value = ((ACE_HIGH_POINTS if rules.ace_high else ACE_LOW_POINTS) if rank == 1
                 else min(rank, FACE_POINTS))
        values.extend([value] * (4 * rules.decks))
    values.sort(reverse=True)
    return values


def max_hand_points(cards: int, rules: RuleSet) -> int:
    """The most points *cards* cards left in hands can be worth under *rules*: the
    dearest cards the decks hold (jokers, aces, then tens and faces, ...).

    A hand at the end of a round holds at most the cards dealt to it: a card taken
    from the discard pile is laid or replaces the one discarded, and a first meld that
    falls short only gives back what was laid. So 13 Rami cards hold at most 4 jokers
    (80), 8 aces (88) and a ten: 178; 198 with jokers at 25. Two such hands together
    hold at most 26 cards: 80 + 88 + 14 x 10 = 308, not 2 x 178.

    >>> from site_builder.engine import get_rules
    >>> max_hand_points(13, get_rules("rami51")), max_hand_points(13, get_rules(
    ...     "rami51", joker_hand_points=25)), max_hand_points(7, get_rules("cardverse"))
    (178, 198, 70)
    >>> max_hand_points(26, get_rules("rami51"))
    308
    """
    return sum(_pack_values(rules)[:max(cards, 0)])


def min_hand_points(cards: int, rules: RuleSet) -> int:
    """The fewest points *cards* cards left in hands can be worth under *rules*: the
    cheapest cards the decks hold. A hand that did not go out holds at least one card,
    so it is worth at least the cheapest card: 2 in Rami (aces count 11), 1 with the
    ace at 1 and in CardVerse.

    >>> from site_builder.engine import get_rules
    >>> min_hand_points(1, get_rules("rami51")), min_hand_points(1, get_rules(
    ...     "rami51", ace_high=False)), min_hand_points(2, get_rules("cardverse"))
    (2, 1, 2)
    >>> min_hand_points(5, get_rules("cardverse"))  # four aces, then a two
    6
    """
    values = _pack_values(rules)
    return sum(values[len(values) - max(cards, 0):]) if cards > 0 else 0


@dataclass(frozen=True, slots=True)
class RoundProblem:
    """Why a round's scores cannot happen: a ``code``, the numbers it names
    (``values``: seats count from 1) and the English ``message`` built from them.

    The codes: ``players`` (too few or too many scores), ``negative``, ``no_winner``
    (nobody on 0 in Rami), ``winners`` (more than one seat on 0), ``hand_low`` and
    ``hand_high`` (one hand below its cheapest card, or above the dearest cards),
    ``hands_high`` (some hands together above what the decks hold), ``no_gain`` and
    ``gainers`` (CardVerse: nobody, or more than one seat, scores), ``gain_low`` and
    ``gain_high`` (CardVerse: the winner's gain below or above what the other hands
    hold). A browser score keeper can word each in the reader's language.
    """

    code: str
    values: Mapping[str, int | tuple[int, ...]]
    message: str

    def __str__(self) -> str:
        return self.message

    def as_json(self) -> dict[str, object]:
        """The problem as JSON data.

        >>> from site_builder.engine import get_rules
        >>> check_round([0, 1], get_rules("rami51")).as_json()["values"]
        {'seat': 2, 'score': 1, 'least': 2}
        """
        return {"code": self.code, "values": {k: list(v) if isinstance(v, tuple) else v
                                              for k, v in self.values.items()},
                "message": self.message}


def _problem(code: str, message: str, **values: int | tuple[int, ...]) -> RoundProblem:
    return RoundProblem(code, MappingProxyType(values), message)


def check_round(scores: Sequence[int], rules: RuleSet) -> RoundProblem | None:
    """Why one round's *scores* (one per seat) cannot happen under *rules*, or None.

    Every round has one winner: the player who went out, or the stock-out winner; every
    other hand holds at least one card and at most the cards dealt to it, all from the
    same decks. In Rami 40/51 (``penalty_scoring``) the winner scores 0 and every other
    player the points of their own hand (or ``unopened_hand_points`` before a first
    meld): at least its cheapest card (:func:`min_hand_points`), at most the dearest
    cards (:func:`max_hand_points`), and any hands together at most the dearest cards
    of all of them. In CardVerse only the winner scores: the points of the other hands,
    at least one cheap card from each and at most the dearest cards of them all.

    >>> from site_builder.engine import get_rules
    >>> rami = get_rules("rami51")
    >>> print(check_round([0, 105, 95], rami))
    None
    >>> print(check_round([0, 1], rami))
    seat 2 scores 1, less than any hand can hold: the cheapest card is worth 2
    >>> print(check_round([0, 1], get_rules("rami51", ace_high=False)))
    None
    >>> problem = check_round([0, 178, 178], rami)
    >>> problem.code, dict(problem.values)
    ('hands_high', {'seats': (2, 3), 'total': 356, 'cards': 26, 'most': 308})
    >>> print(problem)
    seats 2 and 3 score 356 together, more than their hands can hold: 26 cards are worth \
at most 308
    >>> print(check_round([1, 0, 0], get_rules("cardverse")))
    seat 1 gains 1, less than the other hands can hold: each holds a card, 2 cards are \
worth at least 2
    """
    players = len(scores)
    if not rules.min_players <= players <= rules.max_players:
        return _problem("players", f"{players} scores, but {rules.title} is for "
                        f"{rules.min_players} to {rules.max_players} players",
                        players=players, min=rules.min_players, max=rules.max_players)
    for seat, score in enumerate(scores, 1):
        if score < 0:
            return _problem("negative", f"seat {seat} scores {score}, but no score is negative",
                            seat=seat, score=score)
    cards = rules.hand_size(players)
    if rules.penalty_scoring:
        return _penalty_problem(scores, cards, rules)
    scoring = [seat for seat, score in enumerate(scores, 1) if score]
    if not scoring:
        return _problem("no_gain", "nobody scores, but the winner gains the points left in "
                        "the other hands")
    if len(scoring) > 1:
        return _problem("gainers", f"seats {_seats(scoring)} score points, but only the "
                        "winner scores in this game", seats=tuple(scoring))
    seat, others = scoring[0], players - 1
    gain = scores[seat - 1]
    least, most = min_hand_points(others, rules), max_hand_points(others * cards, rules)
    if gain < least:
        return _problem("gain_low", f"seat {seat} gains {gain}, less than the other hands can "
                        f"hold: each holds a card, {others} cards are worth at least {least}",
                        seat=seat, score=gain, cards=others, least=least)
    if gain > most:
        return _problem("gain_high", f"seat {seat} scores {gain}, more than the other hands "
                        f"can hold: {others} x {cards} cards are worth at most {most}",
                        seat=seat, score=gain, cards=others * cards, most=most)
    return None


def _penalty_problem(scores: Sequence[int], cards: int, rules: RuleSet) -> RoundProblem | None:
    """:func:`check_round` under penalty scoring (Rami 40/51)."""
    fixed = rules.unopened_hand_points
    zeros = [seat for seat, score in enumerate(scores, 1) if score == 0]
    if not zeros:
        return _problem("no_winner", "nobody scores 0, but the player who goes out (or wins "
                        "on the stock-out) scores 0")
    if len(zeros) > 1 and fixed != 0:
        return _problem("winners", f"seats {_seats(zeros)} score 0, but only the winner does: "
                        "every other hand holds a card", seats=tuple(zeros))
    # a seat on the fixed figure may not have opened: its hand is not counted
    counted = [(seat, score) for seat, score in enumerate(scores, 1)
               if seat != zeros[0] and score != fixed]
    least, most = min_hand_points(1, rules), max_hand_points(cards, rules)
    extra = f" (or {fixed} before a first meld)" if fixed is not None else ""
    for seat, score in counted:
        if score < least:
            return _problem("hand_low", f"seat {seat} scores {score}, less than any hand can "
                            f"hold: the cheapest card is worth {least}{extra}",
                            seat=seat, score=score, least=least)
        if score > most:
            return _problem("hand_high", f"seat {seat} scores {score}, more than any hand can "
                            f"hold: {cards} cards are worth at most {most}{extra}",
                            seat=seat, score=score, cards=cards, most=most)
    dearest = sorted(counted, key=lambda pair: -pair[1])
    for size in range(2, len(dearest) + 1):  # the k highest scores bound every k hands
        seats = sorted(seat for seat, _ in dearest[:size])
        total, most = sum(score for _, score in dearest[:size]), max_hand_points(size * cards,
                                                                                 rules)
        if total > most:
            return _problem("hands_high", f"seats {_seats(seats)} score {total} together, more "
                            f"than their hands can hold: {size * cards} cards are worth at "
                            f"most {most}", seats=tuple(seats), total=total,
                            cards=size * cards, most=most)
    return None


def round_problem(scores: Sequence[int], rules: RuleSet) -> str | None:
    """The English sentence of :func:`check_round`, or None.

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
    problem = check_round(scores, rules)
    return problem.message if problem is not None else None


def game_problem(rounds: Sequence[Sequence[int]], rules: RuleSet) -> str | None:
    """Why a game table's *rounds* (each one score per seat) cannot happen, naming the
    first round that cannot, or None; the same sentence for the build and the command
    line.

    >>> from site_builder.engine import get_rules
    >>> print(game_problem([[0, 35], [12, 0]], get_rules("rami51")))
    None
    >>> print(game_problem([[0, 35], [0, 1]], get_rules("rami51")))
    round 2 (0, 1) cannot happen in Rami 51: seat 2 scores 1, less than any hand can \
hold: the cheapest card is worth 2
    >>> print(game_problem([[0, 35], [0, 1, 2]], get_rules("rami51")))
    every round needs one score per seat
    """
    if len({len(r) for r in rounds}) > 1:
        return "every round needs one score per seat"
    for number, scores in enumerate(rounds, 1):
        why = round_problem(scores, rules)
        if why is not None:
            return (f"round {number} ({', '.join(map(str, scores))}) cannot happen in "
                    f"{rules.title}: {why}")
    return None


def _seats(seats: list[int]) -> str:
    return ", ".join(str(s) for s in seats[:-1]) + f" and {seats[-1]}"
