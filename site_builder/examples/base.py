"""What every kind of example table shares: the :class:`Kind` a module declares, the
verified rows and claims it gives, and how a row or a block finds its game, rule profile
and rule set."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from site_builder import engine
from site_builder.errors import Problem
from site_builder.examples.values import Parser
from site_builder.sources.page import ExampleBlock, ExampleRow, Field
from site_builder.sources.profiles import PROFILES_FILE, Profile

Computed = dict[str, Any]
Report = Callable[[int, str], None]  # a problem at a line of the page


@dataclass(frozen=True, slots=True)
class Claim:
    """One stated claim and what the engine computes for it."""

    source: str
    line: int
    example: str
    field: str
    stated: Any
    computed: Any

    @property
    def ok(self) -> bool:
        return bool(self.stated == self.computed)

    def as_json(self) -> dict[str, Any]:
        return {"source": self.source, "line": self.line, "example": self.example,
                "field": self.field, "stated": self.stated, "computed": self.computed,
                "ok": self.ok}


@dataclass(frozen=True, slots=True)
class VerifiedRow:
    """An example row after replay: its inputs, the engine's values and its claims."""

    row: ExampleRow
    game: str
    profile: Profile
    rules: engine.RuleSet
    inputs: dict[str, Any]
    computed: dict[str, Any]
    claims: tuple[Claim, ...]

    @property
    def game_name(self) -> str:
        return self.rules.title

    @property
    def context(self) -> str:
        return f"{self.game_name}, {self.profile.name}"


@dataclass(frozen=True, slots=True)
class VerifiedTable:
    block: ExampleBlock
    rows: tuple[VerifiedRow, ...]


@dataclass
class Verification:
    """The outcome of verifying a whole site."""

    tables: dict[tuple[str, int], VerifiedTable] = field(default_factory=dict)
    claims: list[Claim] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # each caption or note text with a number the engine disagrees with, and where it is
    wrong_notes: dict[str, tuple[str, int]] = field(default_factory=dict)

    @property
    def disagreements(self) -> list[Claim]:
        return [c for c in self.claims if not c.ok]


# (the page's source, the block, the profiles, the problems found, the run's engine budget)
BlockVerifier = Callable[[str, ExampleBlock, Mapping[str, Profile], list[Problem],
                          engine.Budget], list[VerifiedRow]]


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of example table, as its module declares it.

    * ``name``: what a block's ``table:`` line says;
    * ``inputs`` and ``claims``: the fields a row may give, each with its parser
      (an input is what the engine is given, a claim what the page states it computes);
    * ``required``: the claims a row must state, from those it states and the game's
      preset rule set;
    * ``compute``: the engine's values of a row, by claim, from its inputs and rules;
    * ``options``: inputs that are rule-set overrides (e.g. ``ace_high``);
    * ``doc_inputs`` and ``doc_claims``: the README's cells for this kind;
    * ``verify_block``: for a kind whose rows are not independent (the worked round,
      one step a row), what verifies the whole block instead of one row at a time.

    Its template partial is ``templates/examples/<name>.html`` (:attr:`partial`).
    """

    name: str
    inputs: Mapping[str, Parser]
    claims: Mapping[str, Parser]
    required: Callable[[Mapping[str, Any], engine.RuleSet], tuple[str, ...]]
    compute: Callable[[dict[str, Any], engine.RuleSet], Computed] | None
    doc_inputs: str
    doc_claims: str
    options: tuple[str, ...] = ()
    verify_block: BlockVerifier | None = None

    @property
    def partial(self) -> str:
        return f"examples/{self.name}.html"


def resolve(game_field: Field | None, profile_field: Field | None, at: int,
            profiles: Mapping[str, Profile], error: Report) -> tuple[str, Profile] | None:
    """The game and the rule profile that a row (or a block) names, or None after
    reporting why not; *at* is the line to name where a field is missing. Every kind
    resolves them here: the rule set is then :func:`rules_for`."""
    game = game_field.value if game_field else ""
    if game_field is None:
        error(at, f"no game: add 'game: {'|'.join(engine.PRESETS)}' to the row or the block")
    elif game not in engine.PRESETS:
        error(game_field.line, f"unknown game {game!r}; use one of: "
                               f"{', '.join(engine.PRESETS)}")
    key = profile_field.value if profile_field else "reference"
    profile = profiles.get(key)
    if profile is None:
        error(profile_field.line if profile_field else at,
              f"unknown rule profile {key!r}; declared in {PROFILES_FILE}: "
              f"{', '.join(profiles) or '(none)'}")
    if game not in engine.PRESETS or profile is None:
        return None
    return game, profile


def rules_for(game: str, profile: Profile, **options: Any) -> engine.RuleSet:
    """The rule set of *game* under *profile*, with a row's own *options* on top;
    :class:`engine.RulesError` if they do not make one."""
    return engine.get_rules(game, **{**profile.overrides, **options})


def profile_key(given: Field | None) -> str:
    return given.value if given else "reference"
