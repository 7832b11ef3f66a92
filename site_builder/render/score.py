"""The score keeper: ``<lang>/score/``, a score sheet for a real game at the table.

The page (``templates/score.html``, ``templates/assets/score/``) keeps each round's points,
the running totals, who has reached the limit and the winners, and refuses a round that
cannot happen with the reasons the build gives for an impossible game table
(:func:`site_builder.engine.scoring.check_round`). It holds no rule number of its own: the
build hands it, for every rule set offered (:func:`offered`), the numbers that
``check_round`` compares with (:func:`bounds`), and ``tests/test_score_js.py`` proves that
the page's check (``templates/assets/score/check.js``) refuses exactly what the engine
refuses, for the same reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from site_builder import engine
from site_builder.engine.scoring import max_hand_points, min_hand_points
from site_builder.i18n.translator import N_
from site_builder.project import page_path, relative
from site_builder.render import search

SLUG = "score"
#: The games a score sheet is kept for, in the order offered (the seeds' three).
GAMES = ("rami51", "rami40", "cardverse")
#: Rounds a printed sheet has room for: a game to 500 penalty points at about 35 a round.
PRINTED_ROUNDS = 16
#: A game's own options that change the score and that no profile of content/profiles.toml
#: sets, offered as rule sets of their own: CardVerse's ``ace_high`` (content/cardverse.md,
#: Scoring: "The `ace_high` option counts the ace as 11 points"; the CardVerse seed has it).
OPTIONS: dict[str, tuple[tuple[str, str, dict[str, Any]], ...]] = {
    # Translators: a rule set of the score sheet, named after the game in its list of
    # games ("Rami (CardVerse) · ace counts 11") and as a link to its rule: an ace left in
    # a hand counts 11 points. Lower case, short.
    "cardverse": (("ace_high", N_("ace counts 11"), {"ace_high": True}),),
}
#: The rules a sheet applies, as sections of the site ("page#section", the same in every
#: language): how a round is scored and where the game ends, for each game; and the section
#: of each rule set's variation (a profile or an option above).
RULES = {
    "rami51": ("scoring#penalty-points", "scoring#the-end-of-the-game"),
    "rami40": ("scoring#penalty-points", "scoring#the-end-of-the-game"),
    "cardverse": ("cardverse#scoring", "cardverse#end-of-the-game"),
}
VARIATIONS = {
    "joker_25": "variations#a-higher-joker-penalty",
    "hundred": "variations#a-fixed-penalty-before-the-first-meld",
    "ace_one": "variations#an-ace-in-hand-counts-low",
    "house": "variations#house-rules-a-laid-joker-counts-more",
    "two_jokers": "variations#two-jokers-per-meld",
    "ace_high": "cardverse#scoring",
}


#: Where the site explains the reference rules, the rule set without a variation.
REFERENCE = "at-a-glance#reference-rules-and-house-rules"


def rule_set_links(lang: str, path: str, keys: Iterable[str]) -> dict[str, str]:
    """Each rule set of *keys* ("reference" or a variation) linked from *path* (an output
    file of *lang*) to the section that explains it, for a page that offers them.

    >>> rule_set_links("pl", "pl/play/index.html", ["reference", "joker_25", "unknown"])
    {'reference': '../at-a-glance/index.html#reference-rules-and-house-rules', \
'joker_25': '../variations/index.html#a-higher-joker-penalty'}
    """
    out = {}
    for key in keys:
        target = REFERENCE if key == "reference" else VARIATIONS.get(key)
        if target:
            slug, _, anchor = target.partition("#")
            out[key] = f"{relative(path, page_path(lang, slug))}#{anchor}"
    return out


def bounds(rules: engine.RuleSet) -> dict[str, Any]:
    """What :func:`~site_builder.engine.scoring.check_round` compares a round with under
    *rules*, for each number of players: the cards dealt to a hand, the most that 1, 2, ...
    hands can hold together (``most[k - 1]``), the least the other hands hold together
    (a CardVerse winner's least gain); and the cheapest card.

    >>> b = bounds(engine.get_rules("rami51"))
    >>> b["least"], b["players"]["3"]["cards"], b["players"]["3"]["most"]
    (2, 13, [178, 308, 438])
    >>> b["lowest_wins"], b["target"], b["fixed"]
    (True, 500, None)
    >>> bounds(engine.get_rules("cardverse"))["players"]["4"]["least_gain"]
    3
    """
    players = {}
    for count in range(rules.min_players, rules.max_players + 1):
        cards = rules.hand_size(count)
        players[str(count)] = {
            "cards": cards,
            "most": [max_hand_points(k * cards, rules) for k in range(1, count + 1)],
            "least_gain": min_hand_points(count - 1, rules),
        }
    return {"lowest_wins": rules.penalty_scoring, "target": rules.target_score,
            # a fixed penalty is a penalty: CardVerse's winner gains the hands' own points
            "fixed": rules.unopened_hand_points if rules.penalty_scoring else None,
            "least": min_hand_points(1, rules),
            "min": rules.min_players, "max": rules.max_players, "players": players}


def offered(profiles: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The rule sets a score sheet may be kept under: each game under each profile of
    ``content/profiles.toml`` whose rules change the score (a higher joker penalty, a
    fixed penalty before the first meld, a low ace), the reference rules first, then the
    game's own :data:`OPTIONS` (CardVerse with the ace at 11); a rule set that changes
    nothing a score reads is not offered again.

    >>> from site_builder.sources.profiles import Profile
    >>> p = {"reference": Profile("reference", "reference rules", {}, 1, 2),
    ...      "house": Profile("house", "house rules", {"joker_value": 15}, 1, 2),
    ...      "joker_25": Profile("joker_25", "higher joker", {"joker_hand_points": 25}, 1, 2)}
    >>> [(o["game"], o["profile"]) for o in offered(p)]
    [('rami51', 'reference'), ('rami51', 'joker_25'), ('rami40', 'reference'), \
('rami40', 'joker_25'), ('cardverse', 'reference'), ('cardverse', 'ace_high')]
    """
    out: list[dict[str, Any]] = []
    reference = next(iter(profiles), None)
    for game in GAMES:
        seen: list[dict[str, Any]] = []
        for key, profile in profiles.items():
            rules = engine.get_rules(game, **profile.overrides)
            data = bounds(rules)
            if data in seen:
                continue
            seen.append(data)
            out.append({"game": game, "profile": key, "title": rules.title,
                        "profile_name": profile.name, "variation": key != reference,
                        "rules": data, "links": _links(game, key)})
        for key, name, options in OPTIONS.get(game, ()):
            data = bounds(engine.get_rules(game, **options))
            if data not in seen:
                seen.append(data)
                out.append({"game": game, "profile": key, "title": engine.PRESETS[game].title,
                            "profile_name": name, "variation": True, "rules": data,
                            "links": _links(game, key)})
    return out


def _links(game: str, key: str) -> dict[str, str]:
    """The sections a sheet under *game* and rule set *key* applies, by what they say."""
    scoring, limit = RULES[game]
    found = {"scoring": scoring, "limit": limit}
    if key in VARIATIONS:
        found["variation"] = VARIATIONS[key]
    return found


def render(lang: str, env: Any, emit: Callable[[str, bytes], None],
           context: Callable[[str, str], dict[str, Any]], profiles: Mapping[str, Any],
           gettext: Callable[[str], str]) -> list[str]:
    """Render *lang*'s score keeper with *env*; *context(slug, path)* gives a page's shared
    context; *gettext* translates a rule set's name (a profile's, from the content, or an
    option's, from :data:`OPTIONS`: looked up here, where a missing one is reported).
    Returns the files written."""
    path = page_path(lang, SLUG)
    ctx = context(SLUG, path)

    def section(target: str) -> str:
        slug, _, anchor = target.partition("#")
        return f"{relative(path, page_path(lang, slug))}#{anchor}"

    sets = offered(profiles)
    for o in sets:
        o["links"] = {what: section(target) for what, target in o["links"].items()}
        o["name"] = gettext(o["profile_name"])
    ctx.update(offered=sets, printed_rounds=PRINTED_ROUNDS, percent=100,
               search_words=search.template_words(SLUG, gettext))
    emit(path, env.get_template("score.html").render(ctx).encode("utf-8"))
    return [path]
