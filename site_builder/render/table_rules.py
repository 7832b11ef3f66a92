"""My table's rules: the game a table plays (Rami 40 or Rami 51) and its
variation, chosen once on any rule page and kept on the device.

Each language folder gets ``table-rules.json`` (:func:`table_rules`): the choices and their
words. ``assets/table-rules.js`` fetches it and shows the switch in the page menu; a page
holds no byte of it, so every page keeps its 30 KB budget, and without JavaScript (or from
disk) every page shows everything, as before. What the choice changes: the other game's
example rows fold away (each row says its game, ``data-game``), the checker opens on the
table's game and rule set, the quick reference marks the table's game, and the score keeper
and the practice table start with it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from site_builder import engine
from site_builder.i18n.translator import N_, Translator

FILE = "table-rules.json"
#: The games a table chooses between on the rule pages (Rami 40 and Rami 51 share the pages;
#: CardVerse has pages of its own).
GAMES = ("rami51", "rami40")
TEXT = {
    "legend": N_("My table's rules"),
    "game": N_("We play"),
    "both": N_("both games: show every example"),
    "profile": N_("Variation"),
    "hidden": N_("Examples for {game} are hidden here: your table plays {mine}."),
    "show": N_("Show them"),
    "hide": N_("Hide them"),
    "not_saved": N_("This device would not keep your table's rules (its storage is full or "
                    "blocked): they hold on this page only."),
}


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
