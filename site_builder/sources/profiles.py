"""The rule profiles of ``content/profiles.toml``: named sets of rule overrides that the
examples run under (``profile: two_jokers``), each checked by the engine as it loads."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from site_builder import engine
from site_builder.errors import Problem
from site_builder.sources.files import BIDI_RE, MAX_DIGITS, read_toml, toml_line
from site_builder.sources.page import split_lines

PROFILES_FILE = "content/profiles.toml"


@dataclass(frozen=True, slots=True)
class Profile:
    """A rule profile declared in ``content/profiles.toml``."""

    key: str
    name: str  # English display name, translated through the catalogs
    overrides: dict[str, Any]
    line: int  # the [key] header
    name_line: int  # the name = "..." line



# Bounds of every number a profile may set (a huge max_players would exhaust the memory):
# generous for any house rule, small enough that the engine never runs away.
PROFILE_BOUNDS: dict[str, tuple[int, int]] = {
    "decks": (1, 4), "jokers": (0, 8), "opening_threshold": (0, 1000), "joker_value": (0, 100),
    "max_jokers_per_meld": (0, 8), "joker_hand_points": (0, 1000), "target_score": (1, 100000),
    "min_players": (2, 8), "max_players": (2, 8), "unopened_hand_points": (0, 1000),
}
# Any other whole number a profile sets (a rule the engine adds later) is bounded too.
OTHER_BOUNDS = (0, 10 ** MAX_DIGITS - 1)
PROFILE_FLAGS = ("pure_sequence_required", "ace_low", "adjacent_jokers", "all_joker_melds",
                 "ace_high", "discard_to_win", "penalty_scoring", "discard_must_be_used",
                 "joker_exchange", "rami_sec", "discard_first_round", "discard_at_one_card")
# A profile's key is named by examples (``profile: two_jokers``), by the checker's links
# (``#try=rami51:two_jokers:...``) and by placeholders: a plain identifier.
PROFILE_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")


def _override_problem(key: str, value: Any) -> str | None:
    """Why *value* cannot be profile override *key* (a bounded number, a flag), or None;
    unknown keys are left to the engine, which names the known ones."""
    if key in PROFILE_BOUNDS or (isinstance(value, int) and not isinstance(value, bool)
                                 and key != "name"):
        low, high = PROFILE_BOUNDS.get(key, OTHER_BOUNDS)
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{key} must be a whole number from {low} to {high}, not {value!r}"
        if not low <= value <= high:
            return f"{key} = {value} is out of range: from {low} to {high}"
    elif key in PROFILE_FLAGS and not isinstance(value, bool):
        return f"{key} must be true or false, not {value!r}"
    elif key == "deal_sizes":
        if not isinstance(value, list) or not all(
                isinstance(p, list) and len(p) == 2 and all(
                    isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 60 for n in p)
                for p in value):
            return "deal_sizes must be a list of [players, cards] pairs, each from 1 to 60"
        return None
    elif key in ("name", "title"):
        return None if isinstance(value, str) else f"{key} must be a string"
    return None


def load_profiles(root: Path) -> tuple[dict[str, Profile], list[Problem], frozenset[str]]:
    """Read ``content/profiles.toml``; each profile's overrides are checked by the engine,
    each problem at the line of its key. Also the keys of the profiles declared there
    that did not load (their problems are among the problems)."""
    path = root / PROFILES_FILE
    if not path.exists() and not path.is_symlink():
        return {}, [Problem(PROFILES_FILE, 0, "missing: declare the rule profiles here, "
                                              "e.g. [reference] name = \"reference rules\"")
                    ], frozenset()
    parsed, text, problems = read_toml(path, PROFILES_FILE)
    if problems:
        return {}, problems, frozenset()
    lines = split_lines(text)
    profiles: dict[str, Profile] = {}
    names: dict[str, str] = {}
    for key, table in parsed.items():
        line, name_line = profile_lines(lines, key)
        if not isinstance(table, dict):
            problems.append(Problem(PROFILES_FILE, toml_line(lines, 0, key),
                                    f"{key!r} is not a profile: declare profiles as "
                                    f"[name] tables, e.g. [house] name = \"house rules\""))
            continue
        if not PROFILE_KEY.fullmatch(key):
            problems.append(Problem(PROFILES_FILE, line, f"profile key {key!r}: use lowercase "
                                    "letters a-z, digits and _ (at most 40), e.g. [two_jokers]"))
            continue
        if not isinstance(table.get("name"), str):
            at = toml_line(lines, line, "name") if "name" in table else line
            problems.append(Problem(PROFILES_FILE, at,
                                    f"profile {key!r} needs a name, e.g. name = \"house rules\""))
            continue
        why = _name_problem(table["name"], names)
        if why is not None:
            problems.append(Problem(PROFILES_FILE, toml_line(lines, line, "name"),
                                    f"profile {key!r}: {why}"))
            continue
        names[table["name"]] = names[unicodedata.normalize("NFC", table["name"])] = key
        overrides = {k: v for k, v in table.items() if k != "name"}
        bad = False
        for option, value in overrides.items():
            why = _override_problem(option, value)
            if why is not None:
                problems.append(Problem(PROFILES_FILE, toml_line(lines, line, option),
                                        f"profile {key!r}: {why}"))
                bad = True
        if bad:
            continue
        try:
            engine.get_rules("rami51", **overrides)
        except (engine.RulesError, TypeError, ValueError) as exc:
            unknown = next((k for k in overrides if f"{k!r}" in str(exc)), None)
            at = toml_line(lines, line, unknown) if unknown else line
            problems.append(Problem(PROFILES_FILE, at, f"profile {key!r}: {exc}"))
            continue
        profiles[key] = Profile(key, table["name"], overrides, line, name_line)
    return profiles, problems, frozenset(parsed) - profiles.keys()


def _name_problem(name: str, seen: dict[str, str]) -> str | None:
    """Why *name* cannot be a profile's display name, or None. It is shown as plain text
    in captions, tables and the checker's menu, and translated as one catalog entry."""
    if not name.strip():
        return "the name is empty; give it one, e.g. name = \"house rules\""
    if any(c in name for c in "<>{}") or any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0
                                             or c in "\u2028\u2029" for c in name) \
            or BIDI_RE.search(name):
        return ("the name must be plain text on one line: no <, >, {, }, control "
                "characters or bidi controls")
    invisible = next((c for c in name if unicodedata.category(c) == "Cf"), None)
    if invisible is not None:  # "house\u200b rules" would read as "house rules"
        return (f"the name holds an invisible format character (U+{ord(invisible):04X}, "
                f"{unicodedata.name(invisible, 'unnamed')}); readers would see a name "
                "that is not there: remove it")
    if len(name) > 80:
        return "the name is longer than 80 characters"
    same = seen.get(name, seen.get(unicodedata.normalize("NFC", name)))
    if same is not None:
        return f"profile {same!r} has the same name; readers could not tell them apart"
    return None


def profile_lines(lines: list[str], key: str) -> tuple[int, int]:
    """The lines of a profile's ``[key]`` header (or of ``key = { ... }``, an inline
    table) and of its ``name =`` entry.

    >>> profile_lines(["# profiles", "[ 'house' ]  # the seed's", "name = 'h'"], "house")
    (2, 3)
    >>> profile_lines(["a = 1", 'house = { name = "h", joker_value = 150 }'], "house")
    (2, 2)
    """
    header = toml_line(lines, 0, key)
    return header, toml_line(lines, header, "name")
