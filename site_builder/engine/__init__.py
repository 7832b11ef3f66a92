"""The Rami rules engine: pure, typed, deterministic.

Cards, rule sets as data (Rami 40, Rami 51, the CardVerse variant), melds
with joker resolution, openings, lay-offs, hand points and scoring, and a
seeded deal. Nothing here reads or writes files.

>>> from site_builder.engine import evaluate_meld, get_rules, parse_cards
>>> evaluate_meld(parse_cards("JK 7S 8S"), get_rules("rami51")).points
21
"""

from site_builder.engine.cards import JOKER, Card, CardError, Rank, Suit, parse_card, parse_cards
from site_builder.engine.deal import Deal, deal, full_deck
from site_builder.engine.layoff import evaluate_layoff
from site_builder.engine.melds import (
    MAX_SET_CARDS,
    MIN_MELD_CARDS,
    REASONS,
    MeldResult,
    evaluate_meld,
    laid_value,
)
from site_builder.engine.notation import (
    Replay,
    ReplayError,
    ReplayStep,
    Step,
    format_history,
    parse_steps,
    refusal,
    replay,
)
from site_builder.engine.numbers import rule_numbers
from site_builder.engine.opening import OPENING_REASONS, OpeningResult, evaluate_opening
from site_builder.engine.refusals import REFUSALS, Refusal
from site_builder.engine.round import (
    ACTION_KINDS,
    Action,
    ActionKind,
    Discarding,
    Drawing,
    Kind,
    LayingOff,
    Melding,
    Operation,
    Phase,
    RoundEnding,
    RoundState,
    Swapping,
    TableMeld,
    View,
    kind_of,
    needs_opening,
)
from site_builder.engine.rules import (
    PRESETS,
    RulesError,
    RuleSet,
    get_rules,
)
from site_builder.engine.scoring import (
    RoundProblem,
    card_hand_points,
    check_round,
    game_over,
    game_problem,
    game_winners,
    hand_points,
    max_hand_points,
    min_hand_points,
    round_problem,
    round_scores,
    stock_out_winner,
)
from site_builder.engine.search import (
    NODE_LIMIT,
    Arrangement,
    Budget,
    SearchLimitError,
    TotalLimitError,
    best_arrangement,
    find_melds,
    find_opening,
)

__all__ = [
    "JOKER",
    "MAX_SET_CARDS",
    "MIN_MELD_CARDS",
    "OPENING_REASONS",
    "PRESETS",
    "REASONS",
    "REFUSALS",
    "Card",
    "CardError",
    "Deal",
    "MeldResult",
    "OpeningResult",
    "Rank",
    "Refusal",
    "RuleSet",
    "RulesError",
    "Suit",
    "card_hand_points",
    "deal",
    "evaluate_layoff",
    "evaluate_meld",
    "evaluate_opening",
    "full_deck",
    "check_round",
    "game_over",
    "game_problem",
    "game_winners",
    "get_rules",
    "hand_points",
    "laid_value",
    "max_hand_points",
    "min_hand_points",
    "parse_card",
    "parse_cards",
    "round_problem",
    "RoundProblem",
    "round_scores",
    "rule_numbers",
    "stock_out_winner",
    # the round, its players, games and the round notation
    "ACTION_KINDS",
    "Action",
    "ActionKind",
    "Arrangement",
    "Discarding",
    "Drawing",
    "Kind",
    "LayingOff",
    "Melding",
    "Operation",
    "Phase",
    "Replay",
    "ReplayError",
    "ReplayStep",
    "RoundEnding",
    "RoundState",
    "Step",
    "Swapping",
    "TableMeld",
    "View",
    "best_arrangement",
    "find_opening",
    "NODE_LIMIT",
    "Budget",
    "SearchLimitError",
    "TotalLimitError",
    "find_melds",
    "format_history",
    "kind_of",
    "needs_opening",
    "parse_steps",
    "refusal",
    "replay",
]
