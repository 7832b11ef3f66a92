"""What the browser code knows of the engine and of the build, written once:
``assets/lib/facts.js``, an ES module that the shared modules of ``templates/assets/lib/``
import and every island reads through them.

The facts: the cards (suits, their signs and colours, rank labels, the joker's code, the
English letters read as ranks and suits, the pack's size, the longest meld), the letters
folded when the reader's words are compared with the index's (:data:`search.LETTERS`) and
the brackets around the index's own text, each game's player counts, pack size and whether
the table offers its variations, the computer players' levels, the refusal codes (the
engine's, the practice table's own, and what each refusal value holds) and the link
formats (a worked round's position, :data:`~site_builder.engine.notation.POSITION_LINK`;
a deal; the checker's melds). No browser file states one of them itself:
``tests/test_browser_facts.py`` fails on a literal that does, and runs the modules that
read them against the Python that wrote them.

>>> f = facts()
>>> f["CARDS"]["suits"], f["CARDS"]["labels"][12], f["CARDS"]["pack"], f["FOLD"]["ł"]
('CDHS', 'Q', 52, 'l')
>>> f["GAMES"]["rami51"]["cards"], f["GAMES"]["cardverse"]["variations"], f["LEVELS"]
(108, False, ['easy', 'normal', 'hard'])
>>> f["REFUSALS"]["values"]["stands"], f["LINKS"]["position"]["key"]
('card', 'from')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

from site_builder import engine
from site_builder.engine import cards, melds, notation, refusals
from site_builder.engine.cards import Card
from site_builder.engine.play import players, table
from site_builder.engine.round import ACTION_KINDS, Action, ActionKind
from site_builder.render import search
from site_builder.render.context import WORDS_FILE
from site_builder.render.minify import compact_json
from site_builder.sources.profiles import PROFILE_KEY

#: Where the build writes the facts (under the output folder), beside the shared modules.
ASSET = "assets/lib/facts.js"

#: The checker's link (``#try=``): game:profile:melds, cards joined by ``+`` (a space in
#: an address), melds by ``|``; written by :func:`try_link`, read by checker-form.js.
TRY_LINK = {"key": "try", "fields": ":", "cards": "+", "melds": "|"}
#: A seeded deal's link (``#deal=``): game[+variation]:seed[:levels], levels joined by
#: ``,``; a link without levels plays against one computer of the default level.
DEAL_LINK = {"key": "deal", "variation": "+", "fields": ":", "levels": ",",
             "level": "normal", "max_seed": table.MAX_SEED}


def try_link(game: str, profile: str, melds: Sequence[Sequence[Card]]) -> str:
    """The fragment (without ``#``) of a "Try it" link that opens the checker on *melds*
    under *game* and *profile* (:data:`TRY_LINK`, which the checker reads), as an address
    writes it (``|`` as ``%7C``); the round partial's "Try it" links call it.

    >>> from site_builder.engine import parse_cards
    >>> try_link("rami51", "reference", [parse_cards("5H 6H 7H"), parse_cards("KS KD JK")])
    'try=rami51:reference:5H+6H+7H%7CKS+KD+JK'
    """
    link = TRY_LINK
    cards = [link["cards"].join(card.code for card in meld) for meld in melds]
    fields = [game, profile, quote(link["melds"], safe="").join(cards)]
    return f"{link['key']}={link['fields'].join(fields)}"


def _plain(value: Any) -> Any:
    """*value* with every mapping a dict and every tuple a list (JSON's own shapes)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


#: The practice table's own codes that the page itself gives or tells apart, by what they
#: mean to it: a move without cards, a request the engine could not read, a position it
#: refused (``tests/test_browser_facts.py`` checks that each is one of the table's codes).
NAMED_CODES = {"cards": "bad-cards", "request": "bad-request", "position": "bad-position"}


def actions() -> dict[str, dict[str, Any]]:
    """How the engine writes each kind of action in round notation (``{seat}: ...``, with
    ``{cards}`` and ``{target}``), and the shape it takes: whether it names a meld
    (``target``) and whether it takes exactly one card (``one``); a kind whose notation
    names no cards takes none. Read from the engine's own :data:`ACTION_KINDS`, with a
    sample card and meld number.

    >>> actions()["lay_off"]
    {'notation': '{seat}: layoff {cards} on {target}', 'target': True, 'one': False}
    >>> actions()["draw_stock"]["notation"], actions()["discard"]["one"]
    ('{seat}: draw stock', True)
    """
    card, target, seat = cards.parse_card("QS"), 99, 7

    def refused(kind: ActionKind, action: Action) -> bool:
        try:
            ACTION_KINDS[kind].shape(action)
        except refusals.Refusal:
            return True
        return False

    out: dict[str, dict[str, Any]] = {}
    for kind in ACTION_KINDS:
        written = Action(kind, (card,), target).describe(seat)
        out[kind] = {"notation": "{seat}" + written.removeprefix(str(seat + 1))
                     .replace(card.code, "{cards}").replace(str(target), "{target}"),
                     "target": refused(kind, Action(kind, (card,), None)),
                     "one": refused(kind, Action(kind, (card, card), target))}
    return out


def facts() -> dict[str, Any]:
    """Every fact the browser reads, by the name the module exports it under."""
    suit_signs: dict[cards.Suit, list[str]] = {suit: [] for suit in cards.SUITS}
    for token, suit in cards._SUIT_TOKENS.items():
        if not token.isascii():
            suit_signs[suit].append(token)
    letters = {token: rank.value for token, rank in cards._RANK_TOKENS.items()
               if token.isalpha()}
    plain: dict[str, Any] = _plain({
        "CARDS": {
            "suits": "".join(suit.name for suit in cards.SUITS),
            # the printed signs first (those the pages draw), then each other sign read
            "glyphs": "".join(signs[k] for k in range(max(map(len, suit_signs.values())))
                              for signs in suit_signs.values()),
            "red": "".join(suit.name for suit in cards.SUITS if suit.colour == "red"),
            "labels": ["", *(cards._RANK_LABELS[rank] for rank in cards.Rank)],
            "letters": {"ranks": {rank: token for token, rank in letters.items()},
                        "suits": {suit.name: suit.name for suit in cards.SUITS}},
            "joker": cards.JOKER.code,
            "joker_tokens": sorted(cards._JOKER_TOKENS),
            "pack": cards.PACK_CARDS,
            "max_meld": melds._MAX_LENGTH,
        },
        "FOLD": search.LETTERS,
        "SEARCH": {"open": search.OPEN, "close": search.CLOSE},
        "SITE_WORDS": WORDS_FILE,
        "GAMES": {key: {"min_players": rules.min_players, "max_players": rules.max_players,
                        "cards": rules.deck_cards,
                        "variations": key in table.VARIATION_GAMES}
                  for key, rules in engine.PRESETS.items()},
        "LEVELS": players.LEVELS,
        "REFUSALS": {"engine": list(refusals.REFUSALS), "table": table.CODES,
                     "other": "other", "values": refusals.VALUES, "named": NAMED_CODES},
        "ACTIONS": actions(),
        "LINKS": {"position": {**notation.POSITION_LINK,
                               "letters": notation.POSITION_LINK_LETTERS},
                  "deal": DEAL_LINK, "try": TRY_LINK, "name": PROFILE_KEY.pattern},
    })
    return plain


def facts_asset() -> bytes:
    """The bytes of :data:`ASSET`: one ``export const`` per fact, in plain JSON."""
    lines = ["// The engine's and the build's facts for the browser code, written by the build",
             "// (site_builder/render/facts.py): never edit or copy them."]
    lines += [f"export const {name} = {compact_json(value)};" for name, value in facts().items()]
    return ("\n".join(lines) + "\n").encode()
