"""The rule parameters of the in-browser checker, written from the engine's rule sets.

The checker (``templates/assets/checker-core.js``, ``-notation.js`` and ``-form.js``)
judges melds and first melds in the reader's browser. It must not hold rule numbers or
constant tables of its own (the card values, the deck's signs: :func:`constants`): the
build writes ``assets/checker-rules.js`` from :data:`site_builder.engine.PRESETS` and the
profiles of ``content/profiles.toml``, so that changing a rule set changes both
engines. ``tests/test_checker_js.py`` proves the two agree. :func:`offered` gives the
checker's menu: the profiles that can change its answer, from the same rules.

>>> from site_builder.sources.profiles import Profile
>>> data = rules_table({"house": Profile("house", "house rules", {"joker_value": 15}, 1, 2)})
>>> data["rami51"]["house"]["joker_value"], data["rami51"]["house"]["opening_threshold"]
(15, 51)
>>> data["cardverse"]["house"]["jokers"], sorted(data)
(0, ['cardverse', 'rami40', 'rami51'])
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from site_builder import engine
from site_builder.engine import cards, melds

#: Where the build writes the rule data, next to the script (under the output folder).
ASSET = "assets/checker-rules.js"
SCRIPT = "assets/checker-form.js"  # the page's module; it imports the other two

#: The RuleSet fields the checker reads (melds and first melds; nothing about dealing,
#: hands or scoring; ``deck_cards``, the packs' cards with the jokers, bounds its fields).
FIELDS = ("decks", "jokers", "opening_threshold", "pure_sequence_required", "ace_low",
          "joker_value", "max_jokers_per_meld", "adjacent_jokers", "all_joker_melds",
          "deck_cards")
#: Those that one meld's verdict, points and card-count messages read (``meld`` in
#: checker-core.js, and the copies a meld may hold); a first meld reads all of :data:`FIELDS`.
MELD_FIELDS = ("decks", "jokers", "ace_low", "joker_value", "max_jokers_per_meld",
               "adjacent_jokers", "all_joker_melds")
#: What the checker judges on a page: one meld (a page without first-meld tables) or a
#: first meld, and the fields each reads.
MODES = {"meld": MELD_FIELDS, "opening": FIELDS}


def rules_table(profiles: Mapping[str, Any]) -> dict[str, dict[str, dict[str, Any]]]:
    """Each game's rules under each profile: ``{game: {profile: {field: value}}}``.

    *profiles* maps a profile key to an object with ``overrides`` (an
    :class:`site_builder.sources.profiles.Profile`); the engine applies them, as it does for
    the examples.
    """
    return {game: {key: _fields(engine.get_rules(game, **profile.overrides))
                   for key, profile in profiles.items()}
            for game in engine.PRESETS}


def offered(profiles: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """For each mode of :data:`MODES`, the profiles the checker's menu offers and where
    every other profile's ``#try=`` link goes: ``{mode: {"keys": [...], "alias": {...}}}``.

    A profile is offered when, in some game, it changes a field that the mode reads from
    every profile offered before it (the first profile, the reference rules, always is);
    any other profile cannot change the verdict, and its links open the first offered
    profile with the same rules. Nothing here names a profile: a profile added to
    ``content/profiles.toml`` is offered exactly when its rules can change the answer.

    >>> from site_builder.sources.profiles import Profile
    >>> p = {k: Profile(k, k, o, 1, 2) for k, o in (("ref", {}), ("j15", {"joker_value": 15}),
    ...      ("hand", {"joker_hand_points": 25}), ("t60", {"opening_threshold": 60}))}
    >>> offered(p)["meld"]
    {'keys': ['ref', 'j15'], 'alias': {'ref': 'ref', 'j15': 'j15', 'hand': 'ref', 't60': 'ref'}}
    >>> offered(p)["opening"]["keys"], offered(p)["opening"]["alias"]["hand"]
    (['ref', 'j15', 't60'], 'ref')
    """
    table = rules_table(profiles)
    out: dict[str, dict[str, Any]] = {}
    for mode, fields in MODES.items():
        seen: dict[tuple[Any, ...], str] = {}
        alias: dict[str, str] = {}
        for key in profiles:
            rules = tuple(tuple(table[game][key][f] for f in fields) for game in sorted(table))
            alias[key] = seen.setdefault(rules, key)
        out[mode] = {"keys": list(dict.fromkeys(alias.values())), "alias": alias}
    return out


def _fields(rules: engine.RuleSet) -> dict[str, Any]:
    return {name: getattr(rules, name) for name in FIELDS}


def constants() -> dict[str, Any]:
    """The engine's constant tables that the checker's core reads: the joker's ordinal and code,
    the suits in their order and the signs read as each (``glyphs[i]`` is suit ``i % 4``),
    the rank labels and the tokens read as ranks, the joker's tokens, the laid value of each
    sequence position and of each rank in a set. (The letters folded when the checker reads
    a card's name are the browser's shared facts: :mod:`site_builder.render.facts`.)

    >>> c = constants()
    >>> c["joker"], c["suits"], c["glyphs"][:4], c["labels"][1], c["rank_tokens"]["T"]
    (52, 'CDHS', '♣♦♥♠', 'A', 10)
    >>> c["position_value"][14], c["set_value"][1]
    (11, 11)
    """
    suit_signs: dict[cards.Suit, list[str]] = {suit: [] for suit in cards.SUITS}
    for token, suit in cards._SUIT_TOKENS.items():
        if not token.isascii():
            suit_signs[suit].append(token)
    rounds = max(len(signs) for signs in suit_signs.values())
    return {
        "joker": cards.JOKER_ORDINAL,
        "joker_code": cards.JOKER.code,
        "suits": "".join(suit.name for suit in cards.SUITS),
        "glyphs": "".join(suit_signs[suit][k] for k in range(rounds) for suit in cards.SUITS),
        "labels": ["", *(cards._RANK_LABELS[rank] for rank in cards.Rank)],
        "rank_tokens": {token: rank.value for token, rank in cards._RANK_TOKENS.items()},
        "joker_tokens": sorted(cards._JOKER_TOKENS),
        "position_value": list(melds._POSITION_VALUE),
        "set_value": list(melds._SET_VALUE),
    }


def rules_asset(profiles: Mapping[str, Any]) -> bytes:
    """The bytes of :data:`ASSET`: a script that hands the rule table and the engine's
    constant tables (:func:`constants`) to the checker.

    It is a script rather than a ``.json`` file because the pages' CSP
    (``default-src 'none'``) forbids ``fetch`` and a page opened from disk could not
    fetch it either; the object literals are plain JSON.
    """
    table = json.dumps(compact_table(rules_table(profiles)), separators=(",", ":"),
                       sort_keys=True)
    fixed = json.dumps(constants(), separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return f"self.RamiRules={table};\nself.RamiConstants={fixed};\n".encode()


def compact_table(table: Mapping[str, Mapping[str, dict[str, Any]]]
                  ) -> dict[str, dict[str, dict[str, Any]]]:
    """Each game's fields once (under ``""``, from its first profile) and each profile's
    differences from them: the checker expands it again (``expand`` in checker-form.js).

    >>> compact_table({"g": {"a": {"x": 1, "y": 2}, "b": {"x": 1, "y": 3}}})
    {'g': {'': {'x': 1, 'y': 2}, 'a': {}, 'b': {'y': 3}}}
    """
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for game, rows in table.items():
        base = next(iter(rows.values()))
        out[game] = {"": base, **{key: {f: v for f, v in row.items() if base.get(f) != v}
                                  for key, row in rows.items()}}
    return out
