"""Computer players and simulated games: no page uses them; ``site-builder engine
simulate`` and the players' tests do.
"""

from site_builder.engine.play.game import (
    GameResult,
    RoundResult,
    Simulation,
    play_game,
    play_round,
    simulate,
)
from site_builder.engine.play.players import (
    LEVELS,
    EasyPlayer,
    HardPlayer,
    NormalPlayer,
    Player,
    make_player,
)

__all__ = [
    "GameResult",
    "RoundResult",
    "Simulation",
    "play_game",
    "play_round",
    "simulate",
    "LEVELS",
    "EasyPlayer",
    "HardPlayer",
    "NormalPlayer",
    "Player",
    "make_player",
]
