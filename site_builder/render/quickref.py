"""Quick-reference sheets: one printed A4 page per game and language, for the
table: the deal, the card values, the first meld, the meld rules and the scoring.

Every number on a sheet comes from the engine's rule sets, as on every other page: the
values of laid cards are those :func:`site_builder.engine.evaluate_meld` gives for a few
melds, the hand points those of :func:`site_builder.engine.scoring.card_hand_points`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import SimpleNamespace as Item
from typing import Any

from site_builder import engine
from site_builder.engine.scoring import card_hand_points
from site_builder.project import SHEETS, page_path


def _laid(cards: str, rules: engine.RuleSet) -> tuple[int, ...] | None:
    """The points of each card of a meld as laid, or None if the rules refuse the meld."""
    result = engine.evaluate_meld(engine.parse_cards(cards), rules)
    return tuple(result.card_points) if result.valid else None


def sheet(games: Iterable[str]) -> Any:
    """What a sheet shows, for the rule sets of *games* (they differ only in the first
    meld), as numbers from the engine."""
    rule_sets = [engine.get_rules(game) for game in games]
    rules = rule_sets[0]
    high = _laid("QH KH AH", rules)
    low = _laid("AH 2H 3H", rules)
    faces = _laid("10H JH QH", rules)
    assert high is not None and faces is not None  # every variant allows Q-K-A, 10-J-Q
    with_joker = _laid("JK 7S 8S", rules)
    # melds that show each card's value as laid: what the engine gives, or its refusal
    shown = []
    for cards in ("2H 3H 4H", "10S JS QS KS", "QH KH AH", "AH 2H 3H", "JK 7S 8S"):
        result = engine.evaluate_meld(engine.parse_cards(cards), rules)
        shown.append(Item(cards=engine.parse_cards(cards), points=result.card_points,
                          reason=None if result.valid else result.reason))
    return Item(
        games=[Item(name=r.name, title=r.title, threshold=r.opening_threshold,
                    pure=r.pure_sequence_required) for r in rule_sets],
        decks=rules.decks, jokers=rules.jokers,
        cards=rules.deck_cards,
        players=(rules.min_players, rules.max_players),
        deal=[(players, rules.hand_size(players))
              for players in range(rules.min_players, rules.max_players + 1)],
        ace_high=high[-1], ace_low=low[0] if low else None, face=faces[0],
        joker_laid=with_joker is not None, melds=shown,
        min_meld=engine.MIN_MELD_CARDS, max_set=engine.MAX_SET_CARDS,
        max_jokers=rules.max_jokers_per_meld, adjacent_jokers=rules.adjacent_jokers,
        hand_ace=card_hand_points(engine.parse_card("AH"), rules),
        hand_face=card_hand_points(engine.parse_card("KH"), rules),
        hand_joker=rules.joker_hand_points, target=rules.target_score,
        penalty=rules.penalty_scoring, discard_to_win=rules.discard_to_win,
        opening=rules.opening_threshold is not None, discard_used=rules.discard_must_be_used,
        exchange=rules.joker_exchange,
    )


def render(lang: str, env: Any, emit: Callable[[str, bytes], None],
           context: Callable[[str, str], dict[str, Any]]) -> list[str]:
    """Render *lang*'s sheets with *env*; *context(slug, path)* gives a page's shared
    context. Returns the files written."""
    written = []
    for slug, games in SHEETS.items():
        path = page_path(lang, slug)
        ctx = context(slug, path)
        ctx.update(sheet=sheet(games), percent=100)
        emit(path, env.get_template("quickref.html").render(ctx).encode("utf-8"))
        written.append(path)
    return written


def links(lang: str, href: Callable[[str], str], path: str) -> list[Any]:
    """Links to *lang*'s sheets (*href* makes a link to an output file from the page at
    *path*), with their games' titles; the sheet at *path* is ``current``."""
    return [Item(slug=slug, href=href(page_path(lang, slug)),
                 current=page_path(lang, slug) == path,
                 titles=[engine.get_rules(g).title for g in games])
            for slug, games in SHEETS.items()]


def sheet_for(slug: str) -> str:
    """The sheet of the rules a page explains: a page named after a game (``cardverse``,
    ``cardverse-compared``) has that game's sheet, every other page the first one (Rami 40
    and Rami 51).

    >>> sheet_for("cardverse"), sheet_for("cardverse-compared"), sheet_for("turn")
    ('quick-reference/cardverse', 'quick-reference/cardverse', 'quick-reference/rami')
    """
    return next((sheet for sheet, games in SHEETS.items()
                 if any(slug == game or slug.startswith(f"{game}-") for game in games)),
                next(iter(SHEETS)))
