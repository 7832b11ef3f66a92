"""Searching a hand: every meld it holds, and the arrangement that leaves the fewest points.

These are the building blocks of the round's list of legal actions and of the
computer players. Both functions are exact within their bounds and
deterministic.

>>> from site_builder.engine import get_rules, parse_cards
>>> rules = get_rules("cardverse")
>>> hand = parse_cards("5H 6H 7H 8H 8C 8D KS")
>>> [" ".join(c.code for c in meld) for meld in find_melds(hand, rules)]
['8C 8D 8H', '5H 6H 7H', '5H 6H 7H 8H', '6H 7H 8H']
>>> best = best_arrangement(hand, rules)
>>> [" ".join(c.code for c in meld) for meld in best.melds], best.deadwood_points
(['8C 8D 8H', '5H 6H 7H'], 10)
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from site_builder.engine.cards import CARDS_BY_ORDINAL, JOKER_ORDINAL, Card
from site_builder.engine.melds import evaluate_meld
from site_builder.engine.rules import RuleSet
from site_builder.engine.scoring import card_hand_points

__all__ = ["MELD_COST", "NODE_LIMIT", "Arrangement", "Budget", "SearchLimitError",
           "TotalLimitError", "best_arrangement", "find_melds", "find_opening"]

Meld = tuple[Card, ...]

# The work one question may do (may this card be laid this turn? which melds does this
# hand hold?), in steps: a node of a search, or a candidate meld listed, is one step; a
# meld judged by evaluate_meld is MELD_COST steps (what it costs against a node, measured
# by benchmarks/search_bound.py). The whole question shares one Budget, the listing of
# melds included, so that no question costs more than about a tenth of a second of CPU,
# whatever the rules and the hand. A question it cannot settle within it is answered
# with SearchLimitError, never with a guess. The site's own
# rounds ask at most 69 steps; a 51-card hand with three jokers about 10,000.
NODE_LIMIT = 50_000
MELD_COST = 8


class SearchLimitError(Exception):
    """A question went past its bound of work (:class:`Budget`) without an answer. Not
    a :class:`ValueError`: a refused action is one, and this is no verdict.

    ``nodes`` is the bound that was reached.
    """

    def __init__(self, nodes: int) -> None:
        super().__init__(f"the engine cannot decide this within its bound of {nodes:,} "
                         "search steps; use a smaller hand")
        self.nodes = nodes


class TotalLimitError(Exception):
    """Many questions together went past the *total* of a :class:`Budget` that they share
    (a whole build's engine work): not the fault of the question that was being
    asked, and not a :class:`SearchLimitError` (that question alone may be cheap).

    ``steps`` is the total that was reached; ``step``, where the caller knows it, the
    number of the round step whose question was refused (``None`` if unknown).
    """

    def __init__(self, steps: int, step: int | None = None) -> None:
        super().__init__(f"the engine's work went past its total bound of {steps:,} "
                         "search steps")
        self.steps = steps
        self.step = step


class Budget:
    """The steps one question may still take (see :data:`NODE_LIMIT`); :meth:`spend`
    raises :class:`SearchLimitError` once they are spent.

    A question's budget may also draw on a *total* shared by many questions (a budget
    itself, whose steps are spent as the question's are): once the total is spent,
    :meth:`spend` raises :class:`TotalLimitError`, whatever the question has left.

    >>> budget = Budget(10)
    >>> budget.spend(8); budget.left
    2
    >>> budget.spend(3)
    Traceback (most recent call last):
    ...
    site_builder.engine.search.SearchLimitError: the engine cannot decide this within its \
bound of 10 search steps; use a smaller hand
    >>> total = Budget(12)
    >>> Budget(10, total=total).spend(8); total.left
    4
    >>> Budget(10, total=total).spend(8)
    Traceback (most recent call last):
    ...
    site_builder.engine.search.TotalLimitError: the engine's work went past its total \
bound of 12 search steps
    """

    __slots__ = ("left", "limit", "total")

    def __init__(self, limit: int = NODE_LIMIT, *, total: Budget | None = None) -> None:
        self.limit = limit
        self.left = limit
        self.total = total

    def spend(self, steps: int) -> None:
        """Take *steps* from what is left (and from the total), or raise
        :class:`TotalLimitError` (the total is spent) or :class:`SearchLimitError`."""
        self.left -= steps
        total = self.total
        if total is not None:
            total.left -= steps
            if total.left < 0:
                raise TotalLimitError(total.limit)
        if self.left < 0:
            raise SearchLimitError(self.limit)

    @property
    def room(self) -> int:
        """The steps that may still be taken: what is left, and of the total."""
        return self.left if self.total is None else min(self.left, self.total.left)

    def error(self, steps: int) -> Exception:
        """What taking *steps* more than :attr:`room` raises."""
        if self.total is not None and steps > self.total.left:
            return TotalLimitError(self.total.limit)
        return SearchLimitError(self.limit)

    def spent(self, steps: int) -> None:
        """Count *steps* already taken (a search that counts its own, past its end):
        as :meth:`spend`, but never raises; the next :meth:`spend` does."""
        self.left -= steps
        if self.total is not None:
            self.total.left -= steps


def find_melds(hand: Sequence[Card], rules: RuleSet, *,
               budget: Budget | None = None) -> tuple[Meld, ...]:
    """Every distinct valid meld that can be laid from cards of *hand*.

    Sets of 3 or 4 and sequences of any length, with up to
    ``rules.max_jokers_per_meld`` of the hand's jokers; melds made of jokers
    only are not listed. Each meld is given once, its cards sorted by ordinal
    (suit, then rank, jokers last); sets come first, rank by rank, then
    sequences, suit by suit.

    The listing spends from *budget* (a new :class:`Budget` if none is given): a step
    for each candidate, :data:`MELD_COST` for each one judged; a hand that holds too
    many melds raises :class:`SearchLimitError`.

    >>> from site_builder.engine import get_rules, parse_cards
    >>> melds = find_melds(parse_cards("JK 7S 8S 8H"), get_rules("rami51"))
    >>> [" ".join(c.code for c in meld) for meld in melds]
    ['8H 8S JK', '7S 8S JK']
    >>> find_melds(parse_cards("AH 2H 3H"), get_rules("cardverse"))
    ()
    """
    budget = Budget() if budget is None else budget
    steps = 0  # spent from the budget at the end; past what is left, SearchLimitError
    left = budget.room
    distinct = sorted({card.ordinal for card in hand})
    jokers = 0
    if distinct and distinct[-1] == JOKER_ORDINAL:
        distinct.pop()
        if rules.jokers:
            jokers = min(sum(1 for card in hand if card.ordinal == JOKER_ORDINAL),
                         rules.max_jokers_per_meld)
    found: dict[tuple[int, ...], None] = {}
    # Sets: rank by rank.
    suits_by_rank: dict[int, list[int]] = {}
    ranks_by_suit: list[list[int]] = [[], [], [], []]
    for ordinal in distinct:
        suit, rank = divmod(ordinal, 13)
        suits_by_rank.setdefault(rank, []).append(suit)
        ranks_by_suit[suit].append(rank)
    for rank in sorted(suits_by_rank):
        suits = suits_by_rank[rank]
        if len(suits) + jokers < 3:
            continue
        for k in range(jokers + 1):
            for m in range(max(1, 3 - k), min(len(suits), 4 - k) + 1):
                for combo in itertools.combinations(suits, m):
                    ordinals = tuple(s * 13 + rank for s in combo) + (JOKER_ORDINAL,) * k
                    steps += 1 if k == 0 else 1 + MELD_COST
                    if steps > left:
                        budget.spend(steps)
                    if k == 0 or _valid(ordinals, rules):
                        found.setdefault(ordinals, None)
    # Sequences: suit by suit, position 1 is the low ace and 14 the high ace.
    low = 1 if rules.ace_low else 2
    for suit in range(4):
        ranks = ranks_by_suit[suit]
        held = len(ranks)
        if held + jokers < 3 or held == 0:
            continue
        present = [False] * 16
        for rank in ranks:
            present[rank + 1] = True
        present[14] = present[1]
        if not rules.ace_low:
            present[1] = False
        if not jokers:
            # Runs of held cards: every window of 3 or more inside a run.
            start = low
            while start <= 14:
                if not present[start]:
                    start += 1
                    continue
                end = start
                while present[end + 1]:
                    end += 1
                for a in range(start, end - 1):
                    steps += max(min(end, a + 12) - a - 1, 0)
                    if steps > left:
                        budget.spend(steps)
                    for b in range(a + 2, min(end, a + 12) + 1):
                        found.setdefault(_run(suit, a, b), None)
                start = end + 1
            continue
        for start in range(low, 13):
            missing = 0
            for end in range(start, min(start + 12, 14) + 1):
                if not present[end]:
                    missing += 1
                    if missing > jokers:
                        break
                if end - start < 2 or missing == end - start + 1:
                    continue
                held_here = [suit * 13 + (p - 1 if p < 14 else 0)
                             for p in range(start, end + 1) if present[p]]
                # Spare jokers may also stand in for held cards (kept for other melds).
                for spare in range(jokers - missing + 1):
                    if spare >= len(held_here):
                        break
                    for replaced in itertools.combinations(range(len(held_here)), spare):
                        ordinals = tuple(sorted(
                            o for i, o in enumerate(held_here) if i not in replaced
                        )) + (JOKER_ORDINAL,) * (missing + spare)
                        steps += 1
                        if steps > left:
                            budget.spend(steps)
                        if ordinals in found:
                            continue
                        if missing + spare:
                            steps += MELD_COST
                            if steps > left:
                                budget.spend(steps)
                            if not _valid(ordinals, rules):
                                continue
                        found[ordinals] = None
    budget.spend(steps)
    return tuple(tuple(CARDS_BY_ORDINAL[o] for o in key) for key in found)


def _run(suit: int, start: int, end: int) -> tuple[int, ...]:
    """The ordinals of the natural sequence from position *start* to *end*, sorted."""
    return tuple(sorted(suit * 13 + (p - 1 if p < 14 else 0) for p in range(start, end + 1)))


def _valid(ordinals: tuple[int, ...], rules: RuleSet) -> bool:
    return evaluate_meld([CARDS_BY_ORDINAL[o] for o in ordinals], rules).valid


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A way to split a hand: disjoint melds and the cards left over.

    ``deadwood_points`` are the hand points of ``deadwood``; ``laid_points``
    the laid points of ``melds`` (what an opening would count); ``complete``
    is False when the search stopped at its node limit before proving the
    arrangement best.
    """

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int
    laid_points: int
    complete: bool = True


def best_arrangement(
    hand: Sequence[Card],
    rules: RuleSet,
    *,
    min_points: int | None = None,
    need_pure: bool = False,
    keep: int = 0,
    limit: int = 20_000,
) -> Arrangement:
    """The disjoint melds from *hand* that leave the fewest hand points unmelded.

    Constraints: when *min_points* is given, an arrangement with melds must
    lay at least that many points, and with *need_pure* include a pure
    sequence (an opening); otherwise nothing is laid. *keep* is the number of
    cards that must stay in the hand (1 when the rules need a final discard).
    Ties go to the arrangement with fewer cards left, then the first found.
    The search visits at most *limit* nodes.

    >>> from site_builder.engine import get_rules, parse_cards
    >>> rules = get_rules("rami51")
    >>> hand = parse_cards("5C 6C 7C KH KS KD 2D")
    >>> best_arrangement(hand, rules).deadwood_points
    2
    >>> best_arrangement(hand, rules, min_points=51, need_pure=True).melds
    ()
    >>> len(best_arrangement(hand, get_rules("rami40"), min_points=40).melds)
    2
    """
    cards = tuple(hand)
    melds = find_melds(cards, rules)
    keys = [tuple(card.ordinal for card in meld) for meld in melds]
    info: list[tuple[int, bool]] = []
    if min_points is not None:
        for meld in melds:
            result = evaluate_meld(meld, rules)
            info.append((result.points, result.is_pure))
    points_of = {card.ordinal: card_hand_points(card, rules) for card in cards}
    counts = Counter(card.ordinal for card in cards)
    naturals = sorted(o for o in counts if o != JOKER_ORDINAL)
    containing: dict[int, list[int]] = {o: [] for o in naturals}
    for index, key in enumerate(keys):
        containing[min(o for o in key if o != JOKER_ORDINAL)].append(index)

    total = sum(points_of[card.ordinal] for card in cards)
    # Laying nothing is the fallback; only a laid arrangement may beat or replace it.
    best_score = (total, len(cards))
    best_melds: list[int] = []
    chosen: list[int] = []
    nodes = 0
    stopped = False

    def leaf(dead_points: int, dead_cards: int) -> None:
        nonlocal best_score, best_melds
        if dead_cards < keep:
            return
        if not chosen:
            return
        if min_points is not None:
            laid = sum(info[i][0] for i in chosen)
            if laid < min_points or (need_pure and not any(info[i][1] for i in chosen)):
                return
        score = (dead_points, dead_cards)
        if score < best_score:
            best_score = score
            best_melds = list(chosen)

    def visit(i: int, dead_points: int, dead_cards: int) -> None:
        nonlocal nodes, stopped
        nodes += 1
        if dead_points > best_score[0]:
            return
        if nodes > limit:
            stopped = True
            return
        while i < len(naturals) and counts[naturals[i]] == 0:
            i += 1
        if i == len(naturals):
            jokers = counts[JOKER_ORDINAL]
            leaf(dead_points + jokers * rules.joker_hand_points, dead_cards + jokers)
            return
        ordinal = naturals[i]
        for index in containing[ordinal]:
            key = keys[index]
            need = Counter(key)
            if all(counts[o] >= n for o, n in need.items()):
                for o in key:
                    counts[o] -= 1
                chosen.append(index)
                visit(i, dead_points, dead_cards)
                chosen.pop()
                for o in key:
                    counts[o] += 1
        counts[ordinal] -= 1
        visit(i, dead_points + points_of[ordinal], dead_cards + 1)
        counts[ordinal] += 1

    visit(0, 0, 0)
    used: Counter[int] = Counter()
    for index in best_melds:
        used.update(keys[index])
    rest = counts.copy()
    rest.subtract(used)
    deadwood = tuple(card for card in cards if _take(rest, card.ordinal))
    laid = sum(evaluate_meld(melds[i], rules).points for i in best_melds)
    return Arrangement(tuple(melds[i] for i in best_melds), deadwood,
                       sum(points_of[c.ordinal] for c in deadwood), laid, not stopped)


def find_opening(
    hand: Sequence[Card],
    rules: RuleSet,
    *,
    min_points: int = 0,
    need_pure: bool = False,
    keep: int = 0,
    lay_all: bool = False,
    must_lay: Sequence[Card] = (),
    limit: int = NODE_LIMIT,
    budget: Budget | None = None,
) -> tuple[Meld, ...] | None:
    """Disjoint melds from *hand*, at least one (with *lay_all*, none if the hand is
    down to *keep* cards already), that lay at least *min_points* (laid
    points) and, with *need_pure*, include a pure sequence; that leave at least *keep*
    cards in the hand (exactly *keep* with *lay_all*); and that lay every card of
    *must_lay* (one copy each time it is listed). None if there are none: an exact
    answer, whatever the rules (no node limit cuts a search short into a "no").

    The search is bounded: laid points are bounded above by each card's best share of a
    meld's points, so a threshold out of reach is settled at once; its steps (the melds
    listed and judged, and each node, or meld tried at one) are spent from *budget* (a
    new :class:`Budget` of *limit* steps if none is given), and once it is spent it
    raises :class:`SearchLimitError` rather than answer.

    >>> from site_builder.engine import get_rules, parse_cards
    >>> rules = get_rules("rami51")
    >>> hand = parse_cards("5C 6C 7C KH KS KD QD QS QH 2D")
    >>> [" ".join(c.code for c in m) for m in find_opening(hand, rules, min_points=51,
    ...                                                     need_pure=True)]
    ['5C 6C 7C', 'QD QH QS', 'KD KH KS']
    >>> find_opening(hand, rules, min_points=1000) is None
    True
    >>> find_opening(hand, rules, lay_all=True, keep=1) is None  # all but 2D
    False
    >>> find_opening(hand, rules, lay_all=True, keep=0) is None
    True
    """
    budget = Budget(limit) if budget is None else budget
    cards = tuple(hand)
    melds = find_melds(cards, rules, budget=budget)
    budget.spend(MELD_COST * len(melds))
    results = [evaluate_meld(meld, rules) for meld in melds]
    keys = [tuple(card.ordinal for card in meld) for meld in melds]
    counts = Counter(card.ordinal for card in cards)
    spare = counts.copy()  # the copies of each card that may stay in the hand
    spare.subtract(card.ordinal for card in must_lay)
    if need_pure and not any(r.is_pure for r in results):
        return None
    # Each card's best share of a meld's points: a bound on what the cards left can lay.
    share: dict[int, float] = dict.fromkeys(counts, 0.0)
    for key, result in zip(keys, results, strict=True):
        for o in key:
            share[o] = max(share[o], result.points / len(key))
    if any(spare[o] < 0 or (spare[o] < counts[o] and share[o] == 0) for o in spare):
        return None  # a card that must be laid is not held, or fits no meld
    naturals = sorted(o for o in counts if o != JOKER_ORDINAL)
    containing: dict[int, list[int]] = {o: [] for o in naturals}
    for index, key in enumerate(keys):
        containing[min(o for o in key if o != JOKER_ORDINAL)].append(index)
    for found in containing.values():  # the richest melds first: a "yes" comes soon
        found.sort(key=lambda i: (-results[i].points, i))
    needs = [Counter(key) for key in keys]
    chosen: list[int] = []
    nodes = 0
    allowed = budget.room  # counted here, spent from the budget when the search ends

    def fits(dead: int) -> bool:
        return dead >= keep and (not lay_all or dead == keep)

    def visit(i: int, laid: int, bound: float, dead: int, pure: bool) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > allowed:
            raise budget.error(nodes)
        if laid + bound < min_points - 1e-9 or (lay_all and dead > keep):
            return False
        while i < len(naturals) and counts[naturals[i]] == 0:
            i += 1
        if i == len(naturals):
            jokers = counts[JOKER_ORDINAL]
            if jokers > spare[JOKER_ORDINAL]:
                return False
            return (bool(chosen) or lay_all) and laid >= min_points and (pure or not need_pure) \
                and fits(dead + jokers)
        ordinal = naturals[i]
        nodes += len(containing[ordinal])  # each meld tried is work
        for index in containing[ordinal]:
            need = needs[index]
            if all(counts[o] >= n for o, n in need.items()):
                for o in keys[index]:
                    counts[o] -= 1
                chosen.append(index)
                if visit(i, laid + results[index].points,
                         bound - sum(share[o] for o in keys[index]), dead,
                         pure or results[index].is_pure):
                    return True
                chosen.pop()
                for o in keys[index]:
                    counts[o] += 1
        if spare[ordinal] > 0:  # this copy is left in the hand
            counts[ordinal] -= 1
            spare[ordinal] -= 1
            if visit(i, laid, bound - share[ordinal], dead + 1, pure):
                return True
            spare[ordinal] += 1
            counts[ordinal] += 1
        return False

    total = sum(share[card.ordinal] for card in cards)
    try:
        if not visit(0, 0, total, 0, False):
            return None
    finally:
        budget.spent(nodes)
    return tuple(melds[i] for i in chosen)


def _take(rest: Counter[int], ordinal: int) -> bool:
    if rest[ordinal] > 0:
        rest[ordinal] -= 1
        return True
    return False
