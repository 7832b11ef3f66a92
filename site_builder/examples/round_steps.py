"""What each step of a worked round shows and computes, beyond the step itself: the
melds on the table after it (each joker drawn as a joker), its values by claim, a
refused step's reason, and the size of a real stock."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from site_builder import engine
from site_builder.examples.base import Computed


@dataclass(frozen=True, slots=True)
class ShownMeld:
    """A meld on the table as a page draws it: in its arrangement's order, each joker as
    a joker at the place it holds (never as the card it stands for), and the stand-ins
    named beside it, as the example tables name them."""

    number: int
    cards: tuple[engine.Card, ...]
    stand_ins: tuple[engine.Card, ...]


def shown_meld(meld: engine.TableMeld) -> ShownMeld:
    """*meld* with its jokers drawn as jokers.

    >>> cards = engine.parse_cards
    >>> shown = shown_meld(engine.TableMeld(2, 1, cards("4H JK 6H"), "sequence", 15,
    ...                                     cards("4H 5H 6H")))
    >>> [c.code for c in shown.cards], [c.code for c in shown.stand_ins]
    (['4H', 'JK', '6H'], ['5H'])
    >>> shown = shown_meld(engine.TableMeld(5, 0, cards("2C 3C JK"), "sequence", 16,
    ...                                     cards("AC 2C 3C")))
    >>> [c.code for c in shown.cards], [c.code for c in shown.stand_ins]
    (['JK', '2C', '3C'], ['AC'])
    """
    natural = [c for c in meld.cards if not c.is_joker]
    drawn: list[engine.Card] = []
    stand_ins: list[engine.Card] = []
    for card in meld.arrangement:
        if card in natural:
            natural.remove(card)
            drawn.append(card)
        else:
            drawn.append(engine.JOKER)
            stand_ins.append(card)
    return ShownMeld(meld.number, tuple(drawn), tuple(stand_ins))


def tables_after(state: engine.RoundState, steps: Sequence[engine.ReplayStep],
                 actions: Sequence[engine.Action]) -> list[tuple[dict[int, ShownMeld], bool]]:
    """For each step, replayed from *state* (the deal): the melds on the table after it,
    by number, and whether the table changed during the turn that this step ends (a
    discard, or going out), so that a round table shows the table where it changes and
    "meld N" is always clear. A question past the run's total raises
    :class:`~site_builder.engine.TotalLimitError` with the step's number."""
    out: list[tuple[dict[int, ShownMeld], bool]] = []
    changed = False
    for step, action in zip(steps, actions, strict=True):
        op = step.operation
        try:
            state.apply(action)
        except engine.TotalLimitError as exc:
            raise engine.TotalLimitError(exc.steps, step.number) from None
        table = {meld.number: shown_meld(meld) for meld in state.table}
        if isinstance(op, engine.Melding | engine.LayingOff | engine.Swapping):
            changed = True
        ends_turn = isinstance(op, engine.Discarding) or getattr(op, "went_out", False)
        out.append((dict(sorted(table.items())), changed and ends_turn))
        if ends_turn:
            changed = False
    return out


def round_values(step: engine.ReplayStep, ending: engine.RoundEnding | None) -> Computed:
    """What a round's step computes; *ending*: the round's, if this step ended it."""
    op = step.operation
    values: Computed = {"operation": op, "hand": sorted(c.code for c in step.hand),
                        "hand_cards": step.hand, "ending": None, "round_ending": ending}
    if isinstance(op, engine.Melding):
        values.update(kind=op.kind, points=op.points)
    elif isinstance(op, engine.LayingOff | engine.Swapping):
        values.update(points=op.points)
    elif isinstance(op, engine.Discarding) and op.opening is not None:
        values.update(total=op.opening.total, threshold=op.opening.threshold,
                      verdict="accepted" if op.opening.accepted else "rejected",
                      returned=sorted(c.code for c in op.returned))
    if ending is not None:
        values.update(winner=ending.winner + 1, hand_points=list(ending.hand_points),
                      scores=list(ending.scores), ending=ending.reason)
    return values


# What replaying one step costs, in the engine's search steps (about 8 µs of CPU: a long
# round with a refusal on every row, benchmarks/hostile_page.py --kind refused).
REPLAY_STEPS = 8


def refusal(rules: engine.RuleSet, hands: Any, stock: Any, discard: Any, before: list[str],
            text: str, total: engine.Budget | None = None
            ) -> tuple[str | None, str | None, str | None]:
    """Whether the step *text* is refused after the steps *before*: (the step as stated,
    its action kind, the engine's reason) if it is, (None, None, None) if it is allowed
    (or not one step: then the claim disagrees and names it). Its questions draw on
    *total*, the run's budget, if given, and so does replaying the steps *before*
    (:data:`REPLAY_STEPS` each): a long round whose every row states a refusal replays
    it once a row."""
    try:
        steps = engine.parse_steps([text])
    except engine.ReplayError:
        return None, None, None
    if len(steps) != 1:
        return None, None, None
    if total is not None and before:
        cost = REPLAY_STEPS * len(before)
        engine.Budget(cost, total=total).spend(cost)  # past the total: TotalLimitError
    state = engine.RoundState(rules, hands, stock, discard, total=total)
    for done in engine.parse_steps(before):
        state.apply(done.action)
    if state.turn != steps[0].seat:
        return None, None, None
    try:
        state.verify(steps[0].action)
    except ValueError as exc:
        return text, steps[0].action.kind, str(exc)
    return None, None, None


def refused_opening(rules: engine.RuleSet, hands: Any, stock: Any, discard: Any,
                    before: list[str], text: str, total: engine.Budget | None = None
                    ) -> list[int]:
    """For a refused draw from the discard pile by a seat that has not opened: the best
    first meld that would lay the card taken, as the points of each of its melds and
    their total (the numbers a note beside the row may give: "three sevens (21) and the
    sequence of hearts (29) make only 50 points"); empty for any other step, or when no
    first meld would lay the card. Its questions draw on *total*, as :func:`refusal`'s."""
    try:
        steps = engine.parse_steps([text])
    except engine.ReplayError:
        return []
    if len(steps) != 1 or steps[0].action.kind != "draw_discard":
        return []
    state = engine.RoundState(rules, hands, stock, discard, total=total)
    for done in engine.parse_steps(before):
        state.apply(done.action)
    seat = steps[0].seat
    if state.turn != seat or state.opened[seat] or not state.discard_pile:
        return []
    card = state.discard_pile[-1]
    hand = [*state.hands[seat], card]
    keep = 1 if rules.discard_to_win else 0

    def opening(points: int) -> tuple[tuple[engine.Card, ...], ...] | None:
        return engine.find_opening(hand, rules, min_points=points, keep=keep,
                                   need_pure=rules.pure_sequence_required, must_lay=[card],
                                   budget=engine.Budget(total=total))

    low, high = 0, 50 * len(hand) + 1  # more than any card lays
    best = opening(low)
    if best is None:
        return []
    while high - low > 1:  # the most points a first meld with the card lays
        middle = (low + high) // 2
        found = opening(middle)
        if found is None:
            high = middle
        else:
            low, best = middle, found
    points = [engine.evaluate_meld(meld, rules).points for meld in best]
    return [*points, sum(points)]


def dealt_stock(rules: engine.RuleSet, players: int) -> int | None:
    """Cards in a real stock after the deal and the turned-up card (None if the rules
    cannot deal to *players*): a round table that shows fewer says how many it shows."""
    try:
        return len(engine.deal(rules, players, seed=0).stock)
    except (engine.RulesError, ValueError):
        return None
