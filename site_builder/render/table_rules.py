"""My table's rules: the game a table plays (Rami 40 or Rami 51) and its
variation, chosen once on any rule page and kept on the device.

Each language folder gets ``table-rules.json`` (:func:`table_rules`): the choices and their
words. ``assets/table-rules.js`` fetches it and shows the switch in the page menu; a page
holds no byte of it, so every page keeps its 30 KB budget, and without JavaScript (or from
disk) every page shows everything, as before. What the choice changes: a mark under every
page's header says it (and undoes it); the example rows whose result differs in the other
game fold away (such a row says its game, ``data-game``: :func:`row_game`; a row that holds
in both games stays); the checker opens on the table's game and rule set, the quick
reference marks the table's game, and the score keeper and the practice table start with it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from site_builder import engine
from site_builder.examples.base import rules_for
from site_builder.examples.registry import KINDS
from site_builder.i18n.translator import N_, Translator

FILE = "table-rules.json"
#: The games a table chooses between on the rule pages (Rami 40 and Rami 51 share the pages;
#: CardVerse has pages of its own).
GAMES = ("rami51", "rami40")
TEXT = {
    # Translators: heading of a small form in the page menu, where a reader picks
    # the game their table plays; a short title.
    "legend": N_("My table's rules"),
    # Translators: label before a drop-down in the "My table's rules" box, whose choices are the
    # game names: it reads "We play Rami 51"; short.
    "game": N_("We play"),
    # Translators: first choice of the "We play" drop-down, before the game names: no game chosen,
    # so every page shows the examples of both games; short (a phone's menu).
    "both": N_("both games: show every example"),
    # Translators: label before a drop-down in the "My table's rules" box that picks the table's
    # rule variation (e.g. a higher joker penalty); a noun, short.
    "profile": N_("Variation"),
    # Translators: a note below an example table whose other game's rows are folded away; {game},
    # {mine}: game names (Rami 51, Rami 40), the rows' and the reader's; a button follows.
    "hidden": N_("Examples for {game} are hidden here: your table plays {mine}."),
    # Translators: button after the note 'Examples for {game} are hidden here…' that unfolds the
    # hidden example rows; imperative, short (a phone button).
    "show": N_("Show them"),
    # Translators: the same button once the rows are shown ('Show them' becomes this); folds them
    # away again; imperative, short (a phone button).
    "hide": N_("Hide them"),
    # Translators: a line under every page's header while a table's game is chosen; {rules} is the
    # game's name, maybe with its variation ("Rami 40 · …"); a "Show both games" button follows.
    "mark": N_("Your table: {rules}"),
    # Translators: button after 'Your table: {rules}' under the page header: forgets the table's
    # choice so the pages show both games again; short (a phone button).
    "undo": N_("Show both games"),
    # Translators: a note in the "My table's rules" box in the page menu when the choice kept on
    # this device (phone or computer) is damaged; a full sentence.
    "damaged": N_("Your table's rules saved on this device could not be read: every page shows "
                  "both games until you choose again."),
    # Translators: a note in the "My table's rules" box when the browser would not store the choice;
    # "they" = the table's rules; a full sentence.
    "not_saved": N_("This device would not keep your table's rules (its storage is full or "
                    "blocked): they hold on this page only."),
}


def holds_in_both(table: str, row: Any) -> bool:
    """Whether the verified *row* of a *table* table gives the same result under the other
    game of :data:`GAMES` (its own rule profile and options, recomputed by the engine): a
    meld, a laying off or a hand's points are the same in Rami 40 and Rami 51, a first meld's
    threshold is not. A row of another game, or of a kind verified as a whole (the worked
    round), does not fold, and is not asked.

    >>> from site_builder.examples.base import VerifiedRow
    >>> from site_builder.examples.melds import KIND
    >>> from site_builder.sources.profiles import Profile
    >>> ref = Profile("reference", "reference rules", {}, 1, 2)
    >>> def row(game, cards):
    ...     rules = engine.get_rules(game)
    ...     inputs = {"cards": KIND.inputs["cards"](cards)}
    ...     return VerifiedRow(None, game, ref, rules, inputs, KIND.compute(inputs, rules), ())
    >>> holds_in_both("melds", row("rami40", "7H 8H 9H"))
    True
    """
    kind = KINDS.get(table)
    if row.game not in GAMES or kind is None or kind.compute is None or kind.verify_block:
        return False
    other = next(g for g in GAMES if g != row.game)
    try:
        rules = rules_for(other, row.profile,
                          **{k: row.inputs[k] for k in kind.options if k in row.inputs})
        return bool(kind.compute(dict(row.inputs), rules) == row.computed)
    except (engine.RulesError, ValueError):
        return False


def row_game(table: str, row: Any) -> Markup:
    """A row's ``data-game`` attribute, for the rows whose result differs between the two
    games (:func:`holds_in_both`); nothing for a row that holds in both."""
    if row.game not in GAMES or holds_in_both(table, row):
        return Markup("")
    return Markup(' data-game="{}"').format(row.game)


def table_rules(profiles: Mapping[str, Any], translator: Translator) -> bytes:
    """The bytes of a language's :data:`FILE`: the two games, every profile of
    ``content/profiles.toml`` (the reference rules first) and the switch's words, in the
    language of *translator*."""
    data = {
        "games": [{"key": g, "title": engine.PRESETS[g].title} for g in GAMES],
        "profiles": [{"key": key, "name": translator.gettext(p.name)}
                     for key, p in profiles.items()],
        "text": {key: translator.gettext(msgid) for key, msgid in TEXT.items()},
    }
    return (json.dumps(data, ensure_ascii=False, sort_keys=True, indent=0) + "\n").encode()
