"""The first meld (opening): the melds a player lays in one turn before ever having opened."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from site_builder.engine.cards import Card
from site_builder.engine.melds import MeldResult, evaluate_meld
from site_builder.engine.rules import RuleSet

__all__ = ["OPENING_REASONS", "OpeningResult", "evaluate_opening"]

#: Every reason an opening can be refused, in the order they are reported.
OPENING_REASONS = (
    "no_melds",          # nothing was laid
    "invalid_meld",      # at least one meld is not a valid set or sequence
    "too_many_copies",   # a card appears more often than the deck holds it
    "below_threshold",   # the total is under rules.opening_threshold
    "no_pure_sequence",  # the rules require a pure sequence and there is none
)


@dataclass(frozen=True, slots=True)
class OpeningResult:
    """The verdict on an opening.

    ``total`` is the sum of the points of the melds (an invalid meld counts
    0); ``pure_sequence`` says whether a pure sequence is present, whether or
    not the rules require one; ``reasons`` lists every reason for a refusal.
    """

    total: int
    threshold: int | None
    accepted: bool
    pure_sequence: bool
    pure_sequence_required: bool
    reasons: tuple[str, ...]
    melds: tuple[MeldResult, ...]


def evaluate_opening(melds: Sequence[Sequence[Card]], rules: RuleSet) -> OpeningResult:
    """Judge the melds laid in one opening turn. Reaching the threshold exactly is enough.

    >>> from site_builder.engine import get_rules, parse_cards
    >>> opening = [parse_cards("QH KH AH"), parse_cards("JK 7S 8S")]
    >>> result = evaluate_opening(opening, get_rules("rami51"))
    >>> result.total, result.threshold, result.accepted, result.pure_sequence, result.reasons
    (52, 51, True, True, ())
    >>> sets = [parse_cards("KH KS KD"), parse_cards("QC QD QS")]
    >>> evaluate_opening(sets, get_rules("rami51")).reasons
    ('no_pure_sequence',)
    """
    results = tuple(evaluate_meld(meld, rules) for meld in melds)
    total = sum(result.points for result in results)
    threshold = rules.opening_threshold
    pure = any(result.is_pure for result in results)
    reasons: list[str] = []
    if not results:
        reasons.append("no_melds")
    if not all(result.valid for result in results):
        reasons.append("invalid_meld")
    if _too_many_copies(results, rules):
        reasons.append("too_many_copies")
    if threshold is not None and total < threshold:
        reasons.append("below_threshold")
    if rules.pure_sequence_required and not pure:
        reasons.append("no_pure_sequence")
    return OpeningResult(
        total=total,
        threshold=threshold,
        accepted=not reasons,
        pure_sequence=pure,
        pure_sequence_required=rules.pure_sequence_required,
        reasons=tuple(reasons),
        melds=results,
    )


def _too_many_copies(results: Sequence[MeldResult], rules: RuleSet) -> bool:
    return rules.excess(card for result in results for card in result.cards) is not None
