"""The exact model of a hand over counts: hand sizes, stock, set-aside cards, who is out.

Every active player plays one card a trick whatever the cards are, so only the draws, the
eliminations and the end rules change counts. The model walks every count state a hand
can reach at one player count, letting any active player win any trick (a choice the
cards may or may not allow: the model over-approximates, which is what a "never" needs).
A state is the sorted sizes of the active hands and the stock; the set-aside cards are
what is left of the deck. Each step of section 2 of docs/rules.md that changes counts is one
function below, and reads its option there and nowhere else. A rule the profile states
(section 5 of docs/rules.md) is a choice either way where the model cannot see its condition: a
draw count of any value its expression allows, an end rule that may end any trick from
the first its condition allows, or not (`stated.py` reads those off the rule). Where a
stated draw count depends on the kind of card that won the trick (a trump, an ace), the
state also counts the tricks won by a card of that kind: each sets one aside for good
(without reshuffles), so there are at most as many as the deck holds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import lru_cache
from itertools import permutations, product
from typing import Any

from rulesdsl.model.contributions import model
from rulesdsl.model.language.rule import HouseRule
from rulesdsl.model.language.vocab import MOST_CARDS, MOST_TRICKS
from rulesdsl.model.rules import OPTIONS, Rules
from rulesdsl.model.units import Step
from rulesdsl.model.units.acting import Fact
from rulesdsl.model.units.counting import (
    AllOutWinner,
    DrawCount,
    Drawers,
    EmptyStock,
    HandEnding,
    Points,
)
from rulesdsl.model.units.trump import out_of_play
from rulesdsl.reason.analysis import stated as said

TRICK_BUDGET = 200_000
"""The most tricks the count model walks, over all its states, before it gives up: its
verdicts then become "unknown". Bounding tricks, not states, bounds the time of a profile
whose draw counts fan every state out."""


class End(StrEnum):
    STOCK_EXHAUSTED = "stock_exhausted"
    LAST_PLAYER = "last_player"
    ALL_OUT = "all_out"
    MOST_TRICKS = "most_tricks"
    HOUSE_RULE = "house_rule"


State = tuple[tuple[int, ...], int, int, int]
"""The sorted sizes of the active hands (largest first), the stock, the tricks won by the
kind of card a stated draw count tells apart so far (else 0), and the cards that left play
with the players a stated rule put out (they are not set aside: no reshuffle brings them
back)."""


@dataclass
class Trick:
    """One trick worked through the steps, for one choice of winner."""

    sizes: list[int]  # active hands after the play, winner first
    stock: int
    set_aside: int
    in_trick: int
    winner_active: bool = True
    last_drawer: int = 0  # the index in `sizes` of the last player who took a card
    events: set[Fact] = field(default_factory=set)
    end: End | None = None
    winner_cards: frozenset[int] = frozenset()  # the hand winner's possible card counts
    kind_wins: int = 0  # tricks won by the counted kind of card so far, this one included
    stated_end: bool = False  # ended by a rule the profile states
    gone: int = 0  # the cards that left play with players a stated rule put out, so far
    ruled: frozenset[str] = frozenset()  # the stated rules that put a player out at step 6
    drew_too: bool = False  # a player drew a card too by a stated rule, after the winner


@dataclass(frozen=True)
class Setup:
    """The counts after the deal."""

    players: int
    hand_size: int
    stock: int
    in_play: int  # cards in hands, stock and set-aside (a turned-up trump is out of play)

    @property
    def state(self) -> State:
        return (self.hand_size,) * self.players, self.stock, 0, 0


def setup(rules: Rules, players: int) -> Setup:
    """The deal (section 4 of docs/rules.md): hand sizes, and the stock after any turn-up."""
    size = rules.hand_size_for(players)
    in_play = len(rules.cards) - out_of_play(rules)
    return Setup(players, size, in_play - players * size, in_play)


UNKNOWN = object()
"""The effect of a step whose rule states none."""

DEFAULT_EFFECTS: dict[Step, Any] = {
    Step.ELIMINATE: False,
    Step.DRAWERS: Drawers.WINNER,
    Step.REFILL: EmptyStock.STAYS_EMPTY,
    Step.DRAW_END: None,
    Step.ALL_OUT: AllOutWinner.TRICK_WINNER,
}
"""The effect of each step the count model reads where no rule decides it."""


@dataclass(frozen=True)
class Effects:
    """What the rules of a profile do to the counts, step by step: read off the rule model,
    each effect as the rule deciding the step states it (`Unit.counts`)."""

    early_out: bool
    drawers: Drawers
    draw: DrawCount | None  # None: a count the profile states (see `stated_counts`)
    empty_stock: EmptyStock
    last_draw_ends: bool
    all_out: AllOutWinner
    stock_empty_ends: bool  # an end check ends the hand once the stock is empty
    any_end: bool  # an end check of a rule that states nothing may end any trick
    unknown: tuple[str, ...]  # the rules deciding a step that state nothing there


def _effect(rules: Rules, step: Step, unknown: list[str]) -> Any:
    found = model(rules)
    acting = found.at(step)
    if not acting:
        return DEFAULT_EFFECTS.get(step)
    decider = acting[0]
    if decider.stated:
        return None
    effect = OPTIONS[decider.rule].counts(getattr(rules, decider.rule)).get(step, UNKNOWN)
    if effect is UNKNOWN:
        unknown.append(decider.rule)
    return effect


def _end_effects(rules: Rules) -> list[Any]:
    """The effect of each option's end check (the profile's own are read off their
    conditions); one that states nothing may end any trick."""
    found = [c for c in model(rules).at(Step.END_CHECK) if not c.stated]
    return [
        OPTIONS[c.rule].counts(getattr(rules, c.rule)).get(Step.END_CHECK, HandEnding.ANY)
        for c in found
    ]


@lru_cache(maxsize=256)
def effects(rules: Rules) -> Effects:
    """The count effects of `rules`."""
    unknown: list[str] = []
    draw = _effect(rules, Step.DRAW_COUNT, unknown)
    ends = _end_effects(rules)
    return Effects(
        early_out=bool(_effect(rules, Step.ELIMINATE, unknown)),
        drawers=_effect(rules, Step.DRAWERS, unknown),
        draw=draw,
        empty_stock=_effect(rules, Step.REFILL, unknown),
        last_draw_ends=_effect(rules, Step.DRAW_END, unknown) is HandEnding.LAST_DRAW,
        all_out=_effect(rules, Step.ALL_OUT, unknown),
        stock_empty_ends=HandEnding.STOCK_EMPTY in ends,
        any_end=HandEnding.ANY in ends,
        unknown=tuple(unknown),
    )


def _option_effect(rules: Rules, step: Step) -> Any:
    """The effect at `step` of the option that holds it, acting or replaced."""
    own = model(rules).option_at(step)
    return None if own is None else OPTIONS[own.rule].counts(getattr(rules, own.rule)).get(step)


def replaced_counts(rules: Rules, players: int) -> int | None:
    """The count the option's draw would give where a rule of the profile's own replaces
    it, when it is one number at `players` (one per card in a trick is 1 to `players`)."""
    draw = _option_effect(rules, Step.DRAW_COUNT)
    if not isinstance(draw, DrawCount):
        return None
    values = {draw.wanted(n) for n in range(1, players + 1)}
    return values.pop() if len(values) == 1 else None


def replaced_points(rules: Rules) -> int | None:
    """The points the option's score gives, when they are one number."""
    points = _option_effect(rules, Step.SCORE)
    return points.fixed if isinstance(points, Points) and not points.per_card else None


def score_points(rules: Rules) -> tuple[float, float]:
    """The least and most points a hand winner can score (infinite where unknown)."""
    own = stated(rules, Step.SCORE)
    if own:
        return said.span(own[0].tree) if own[0].tree is not None else said.ANY
    points = _option_effect(rules, Step.SCORE)
    if isinstance(points, Points):
        return (0, math.inf) if points.per_card else (points.fixed, points.fixed)
    return said.ANY


def can_score(rules: Rules, winner_cards: frozenset[int]) -> bool:
    """Whether a hand winner holding one of `winner_cards` cards can score a point."""
    if not winner_cards:
        return False
    if stated(rules, Step.SCORE):
        return score_points(rules)[1] > 0
    points = _option_effect(rules, Step.SCORE)
    if isinstance(points, Points) and points.per_card:
        return max(winner_cards) > 0
    return score_points(rules)[1] > 0


def draw_count(rules: Rules, in_trick: int) -> int:
    """Step 4: how many cards a drawer takes, by the option's count."""
    draw = effects(rules).draw
    return draw.wanted(in_trick) if draw is not None else 0


def everyone_draws(rules: Rules) -> bool:
    return effects(rules).drawers is Drawers.EVERYONE


def only_winners_draw(rules: Rules) -> bool:
    """Whether no player draws but a trick's winner: a player who has won no trick has
    drawn no card."""
    return not everyone_draws(rules) and not stated(rules, Step.EXTRA_DRAW)


def stated(rules: Rules, step: Step) -> tuple[HouseRule, ...]:
    """The rules the profile states that act at `step`."""
    return tuple(r for r in rules.house_rules if step in r.step_names)


@lru_cache(maxsize=64)
def stated_counts(rules: Rules) -> said.DrawCounts | None:
    """The counts the profile's own draw rule can take, if it states one."""
    own = stated(rules, Step.DRAW_COUNT)
    return said.draw_counts(own[0], len(rules.cards)) if own else None


def draw_counts(rules: Rules, in_trick: int) -> tuple[int, ...]:
    """Step 4: every count a drawer may take (where the deck holds no card of the kind the
    count tells apart, no trick is won by one)."""
    own = stated_counts(rules)
    if own is None:
        return (draw_count(rules, in_trick),)
    return own.otherwise if kind_wins_most(rules) == 0 else own.all


def kind_wins_most(rules: Rules) -> int | None:
    """The most tricks a card of the kind the profile's draw count tells apart can win in
    a hand: one per such card in the deck; None (no limit) where no draw count tells a
    kind apart, or reshuffles bring played cards back."""
    own = stated_counts(rules)
    if own is None or own.kind is None:
        return None
    if own.kind.trump and rules.trump == "none":  # a deal without a trump suit
        return 0
    if reshuffles(rules):
        return None
    return own.kind.in_deck(frozenset(rules.rank_strength), rules.trump != "none")


def counts_kind_wins(rules: Rules) -> bool:
    """Whether the state counts the tricks won by a kind of card: where the profile's draw
    count differs on them and their number is limited."""
    own = stated_counts(rules)
    return own is not None and own.of_kind != own.otherwise and kind_wins_most(rules) is not None


@lru_cache(maxsize=1024)
def draw_choices(rules: Rules, in_trick: int, kind_wins: int) -> tuple[tuple[int, int], ...]:
    """Step 4: every count a drawer may take, each with the tricks won by the counted kind
    of card after this one: a count the profile's rule gives on a trick won by such a card
    only while there is one left to win it."""
    own = stated_counts(rules)
    if own is None or not counts_kind_wins(rules):
        return tuple((n, kind_wins) for n in draw_counts(rules, in_trick))
    choices = tuple((n, kind_wins) for n in own.otherwise)
    if kind_wins < (kind_wins_most(rules) or 0):
        choices += tuple((n, kind_wins + 1) for n in own.of_kind)
    return choices


def drawers(rules: Rules, trick: Trick) -> list[int]:
    """Step 4: who draws, as indexes into `trick.sizes` (the winner is index 0, the others
    in the order `tricks_from` chose): the winner if still active; under `draw_by
    everyone`, then every other active player (under `immediate` an empty hand is out)."""
    first = [0] if trick.winner_active else []
    if not everyone_draws(rules):
        return first
    early = out_before_draw(rules)
    return first + [i for i in range(1, len(trick.sizes)) if trick.sizes[i] > 0 or not early]


def reshuffles(rules: Rules) -> bool:
    """Step 4: whether an empty stock is refilled from the set-aside cards before a draw."""
    return effects(rules).empty_stock is EmptyStock.RESHUFFLE


def can_refill(rules: Rules, trick: Trick) -> bool:
    return reshuffles(rules) and trick.set_aside > 0


def draw(rules: Rules, trick: Trick, wanted: int, extra: int | None = None) -> int:
    """Step 4: every drawer takes `wanted` cards, and right after the winner's draw, the
    hand at index `extra` takes one by a stated rule; returns the cards taken in all."""
    if trick.stock == 0:
        trick.events.add(Fact.STOCK_EMPTY)
    who = drawers(rules, trick)
    if who and (trick.stock > 0 or can_refill(rules, trick)):
        trick.events.add(Fact.WINNER_DRAWS)
    first = wanted if trick.winner_active else 0
    others = len(trick.sizes) > 1 and wanted > 0
    if others and (trick.stock > first or can_refill(rules, trick)):
        trick.events.add(Fact.OTHER_CAN_DRAW)
    total = 0
    after = 1 if who and who[0] == 0 else 0
    takes = [(seat, wanted) for seat in who]
    if extra is not None:
        takes.insert(after, (extra, 1))
    for k, (seat, count) in enumerate(takes):
        taken = 0
        for _ in range(count):
            if trick.stock == 0 and can_refill(rules, trick):
                trick.stock, trick.set_aside = trick.set_aside, 0
            if trick.stock == 0:
                break
            trick.stock -= 1
            taken += 1
            if trick.stock == 0:
                trick.events.add(Fact.STOCK_EMPTY)
        trick.sizes[seat] += taken
        if taken:
            trick.last_drawer = seat
            trick.drew_too |= extra is not None and k == after
        total += taken
    return total


def out_before_draw(rules: Rules) -> bool:
    """Step 3: whether empty hands drop out before the draw (`elimination immediate`)."""
    return effects(rules).early_out


def eliminate_immediate(rules: Rules, trick: Trick) -> None:
    """Step 3: under `elimination immediate` the empty hands drop out, the winner too."""
    if out_before_draw(rules) and trick.sizes[0] == 0:
        trick.winner_active = False


def eliminate_after_draw(rules: Rules, trick: Trick) -> None:
    """Steps 3 and 6: every active player with no cards is out (the winner, at step 3,
    only under `immediate`; drawing at step 4 may have saved them under `after_draw`)."""
    keep = [size for size in trick.sizes[1:] if size > 0]
    trick.winner_active = trick.winner_active and trick.sizes[0] > 0
    trick.sizes = ([trick.sizes[0]] if trick.winner_active else []) + keep


def ruled_out(rules: Rules, setup_: Setup, trick: Trick) -> Iterator[Trick]:
    """Step 6: the profile's rules of who is out, after the empty hands: each way they may
    put out the players still in. A rule may put out a player where its condition can hold
    for them and no earlier rule surely puts them out, and surely does where its condition
    surely holds; the cards they hold leave play (`stated.out_truths` reads a condition)."""
    own = stated(rules, Step.OUT)
    if not own or trick.end is not None:
        yield trick
        return
    unwon = setup_.hand_size if only_winners_draw(rules) else None
    counts = said.Counts(setup_.players, tuple(trick.sizes), trick.stock)
    may: list[list[str]] = []
    must: list[bool] = []
    for index, size in enumerate(trick.sizes):
        winner = index == 0 and trick.winner_active
        found = [said.out_truths(r.tree, counts, size, winner, unwon) for r in own]
        sure = next((k for k, truths in enumerate(found) if truths == {True}), len(own))
        may.append(
            [r.name for r, truths in zip(own[: sure + 1], found, strict=False) if True in truths]
        )
        must.append(sure < len(own))
    choices = [(False, True) if m and not s else (s,) for m, s in zip(may, must, strict=True)]
    for chosen in product(*choices):
        gone = [i for i, out in enumerate(chosen) if out]
        kept = [size for i, size in enumerate(trick.sizes) if i not in gone]
        yield replace(
            trick,
            sizes=kept,
            winner_active=trick.winner_active and 0 not in gone,
            events=set(trick.events),
            gone=trick.gone + sum(trick.sizes[i] for i in gone),
            ruled=frozenset(name for i in gone for name in may[i]),
        )


def last_draw_ends(rules: Rules, trick: Trick, taken: int) -> None:
    """Step 5: under `last_draw_wins`, a draw that took the last stock card ends the hand."""
    if effects(rules).last_draw_ends and taken > 0 and trick.stock == 0:
        trick.end = End.STOCK_EXHAUSTED
        trick.winner_cards = frozenset({trick.sizes[trick.last_drawer]})


def last_players_end(rules: Rules, trick: Trick) -> None:
    """Steps 7 and 8: one active player left wins; none left is the `all_out` rule's case."""
    if len(trick.sizes) == 1:
        trick.end = End.LAST_PLAYER
        trick.winner_cards = frozenset(trick.sizes)
    elif not trick.sizes:
        trick.events.add(Fact.ALL_OUT)
        trick.end = End.ALL_OUT
        nobody = effects(rules).all_out is AllOutWinner.NOBODY
        trick.winner_cards = frozenset() if nobody else frozenset({0})


def most_tricks_ends(rules: Rules, trick: Trick, players: int) -> None:
    """Step 9: under `most_tricks` an empty stock ends the hand; any seat may have won the
    most tricks, one that is out included."""
    if effects(rules).stock_empty_ends and trick.stock == 0:
        trick.end = End.MOST_TRICKS
        out = len(trick.sizes) < players
        trick.winner_cards = frozenset(trick.sizes) | ({0} if out else set())


def play_trick(
    rules: Rules,
    setup_: Setup,
    state: State,
    winner: int,
    wanted: int,
    others: tuple[int, ...] = (),
    kind_wins: int = 0,
    extra: int | None = None,
) -> Trick:
    """One trick from `state`, won by the active hand at index `winner`, whose drawers
    take `wanted` cards; `others` orders the rest clockwise from the winner (as indexes
    into the sizes; default: as they are); the hand at index `extra` of the trick's
    (winner first) draws a card too."""
    sizes, stock, _, gone = state
    rest = others or tuple(i for i in range(len(sizes)) if i != winner)
    after = [sizes[i] - 1 for i in (winner, *rest)]
    set_aside = setup_.in_play - gone - sum(sizes) - stock + len(sizes)
    trick = Trick(after, stock, set_aside, len(sizes), kind_wins=kind_wins, gone=gone)
    if any(size >= 2 for size in sizes):
        trick.events.add(Fact.FOLLOWER_CHOOSES)
    wants = wanted > 0
    emptied = after[0] == 0 or (everyone_draws(rules) and 0 in after)
    if emptied and wants and (stock > 0 or can_refill(rules, trick)):
        trick.events.add(Fact.LAST_CARD_WIN)
    eliminate_immediate(rules, trick)
    taken = draw(rules, trick, wanted, extra)
    last_draw_ends(rules, trick, taken)
    if trick.end is None:
        eliminate_after_draw(rules, trick)
    return trick


def settle(rules: Rules, setup_: Setup, trick: Trick) -> Trick:
    """Steps 7 to 9, once step 6 has put out whom it puts out."""
    if trick.end is None:
        last_players_end(rules, trick)
    if trick.end is None:
        most_tricks_ends(rules, trick, setup_.players)
    trick.events.add(Fact.ENDS if trick.end is not None else Fact.GOES_ON)
    return trick


def next_state(trick: Trick) -> State:
    sizes = tuple(sorted(trick.sizes, reverse=True))
    return sizes, trick.stock, trick.kind_wins, trick.gone


def tricks_from(
    rules: Rules, setup_: Setup, state: State, largest: int = MOST_CARDS
) -> Iterator[Trick]:
    """Every trick the counts allow from `state`: one per distinct winner's hand size and
    draw count; where every player draws and who gets the last cards matters, one per
    distinct order of the other hands' sizes; and, where the profile states end rules, the
    same trick ending the hand after step 9, with a winner or without."""
    sizes, stock, won, _ = state
    seen: set[int] = set()
    for index, size in enumerate(sizes):
        if size not in seen:
            seen.add(size)
            for wanted, after in draw_choices(rules, len(sizes), won):
                for others, extra in _drawing(rules, sizes, stock, index, wanted):
                    played = play_trick(rules, setup_, state, index, wanted, others, after, extra)
                    for trick in ruled_out(rules, setup_, played):
                        yield from _ended(rules, setup_, settle(rules, setup_, trick), largest)


def _drawing(
    rules: Rules, sizes: tuple[int, ...], stock: int, winner: int, wanted: int
) -> Iterator[tuple[tuple[int, ...], int | None]]:
    """Each order of the other hands (`orders`), with each hand a stated rule may have
    draw a card too, right after the winner (an index into the trick's hands, winner
    first), or none: one per distinct size, where only the winner draws besides."""
    extra = bool(stated(rules, Step.EXTRA_DRAW))
    early = out_before_draw(rules)
    for others in orders(rules, sizes, stock, winner, wanted):
        yield others, None
        seen: set[int] = set()
        for k, i in enumerate(others if extra else (), 1):
            size = sizes[i] - 1
            if (size > 0 or not early) and (everyone_draws(rules) or size not in seen):
                seen.add(size)
                yield others, k


def _ended(rules: Rules, setup_: Setup, trick: Trick, largest: int) -> Iterator[Trick]:
    """After step 9: the trick as the hand goes on, and as end checks end it."""
    stated_ends = bool(stated(rules, Step.END_CHECK))
    ending = stated_end_truths(rules, trick, setup_, largest) if stated_ends else {False}
    if False in ending or trick.end is not None:
        yield trick
    if trick.end is None and effects(rules).any_end:
        yield from house_ends(trick, stated=False)
    if trick.end is None and True in ending:
        yield from house_ends(trick, stated=True)


def orders(
    rules: Rules, sizes: tuple[int, ...], stock: int, winner: int, wanted: int
) -> list[tuple[int, ...]]:
    """The orders of the other hands (indexes into `sizes`) that can draw differently: one
    per distinct sequence of sizes when every player draws and the stock may run out
    during the draw (or be refilled), else only the one order."""
    rest = tuple(i for i in range(len(sizes)) if i != winner)
    if not everyone_draws(rules) or (not reshuffles(rules) and stock > wanted * len(sizes)):
        return [rest]
    distinct: dict[tuple[int, ...], tuple[int, ...]] = {}
    for order in permutations(rest):
        distinct.setdefault(tuple(sizes[i] for i in order), order)
    return list(distinct.values())


def counts_at(state: State, players: int) -> said.Counts:
    """What a rule's condition can read of a count state."""
    sizes, stock, *_ = state
    return said.Counts(players, sizes, stock)


def stated_end_truths(
    rules: Rules, trick: Trick, setup_: Setup, largest: int = MOST_CARDS
) -> frozenset[bool]:
    """Whether the end rules the profile states can end the hand after `trick` (True), and
    can let it go on (False), as their conditions read at the counts the trick leaves: it
    ends where one of them surely holds. No hand holds more than `largest` cards at a
    trick's start."""
    counts = counts_after(rules, next_state(trick), setup_.players, largest)
    found = [said.truths(r.tree, counts) for r in stated(rules, Step.END_CHECK)]
    can_end = any(True in truths for truths in found)
    must_end = any(truths == {True} for truths in found)
    return frozenset({*((True,) if can_end else ()), *(() if must_end else (False,))})


def counts_after(rules: Rules, state: State, players: int, largest: int) -> said.Counts:
    """What an end rule's condition can read of the count state a trick leaves, where no
    hand holds more than `largest` cards at a trick's start. That bounds the tricks in a
    row its winner won: for the hand to go on to step 9, another player is still in, who
    played a card to every trick of the streak and, where only the winner draws, drew
    none, so held as many more cards at its start as it is long."""
    sizes, stock, *_ = state
    longest = MOST_TRICKS
    if only_winners_draw(rules) and len(sizes) >= 2:
        longest = max(0, largest - min(sizes))
    return said.Counts(players, sizes, stock, streak=(0, longest))


def house_ends(trick: Trick, stated: bool) -> Iterator[Trick]:
    """After step 9, an end check ends the hand: any active seat may win, or nobody. One
    the profile states (`stated`) acts only from the first trick its condition allows."""
    events = trick.events - {Fact.GOES_ON} | {Fact.ENDS}
    for cards in (frozenset(trick.sizes), frozenset()):
        yield replace(
            trick, end=End.HOUSE_RULE, events=set(events), winner_cards=cards, stated_end=stated
        )


@dataclass(frozen=True)
class CountModel:
    """Every count state a hand can reach at one player count, and what can happen."""

    setup: Setup
    complete: bool  # False: nothing below is a proof (`unsettled` says why)
    states: int
    events: frozenset[Fact]
    ends: frozenset[End]
    min_tricks: int | None  # None: no hand can end
    max_tricks: int | None  # None: a hand can go on for ever (the counts can repeat)
    min_stock: int  # the least stock at any moment (0 if it can run out, refilled or not)
    winner_cards: frozenset[int]  # the card counts a hand winner can hold at the end
    can_end_without_winner: bool
    cycles: bool
    largest: int  # no hand holds more cards at a trick's start (a bound, for streaks)
    unknown: tuple[str, ...]  # the rules whose effect on the counts the model does not know
    # The last trick at whose end the profile's own end rules are asked, the hand not
    # over by then (None: any, or the profile states no end rule, all it is asked for).
    latest_going_on: int | None = None
    ruling_out: frozenset[str] = frozenset()  # the stated rules that may put a player out
    draws_too: bool = False  # a stated rule may have a player draw a card too
    reached: frozenset[State] = frozenset()  # the states before a trick
    end_asked: frozenset[State] = frozenset()  # the states after a trick that reaches step 9


@lru_cache(maxsize=256)
def build(
    rules: Rules, players: int, budget: int = TRICK_BUDGET, largest: int | None = None
) -> CountModel:
    """Walk every reachable count state (depth first), with the longest and shortest
    number of tricks to an end from each. Where an end rule the profile states reads a
    streak, the walk is made twice: the first finds the `largest` hand held at a trick's
    start, which bounds a streak in the second."""
    if largest is None:
        largest = MOST_CARDS
        if any(said.reads_streak(r) for r in stated(rules, Step.END_CHECK)):
            first = build(rules, players, budget, largest)
            if first.complete:
                largest = max(max(state[0], default=0) for state in first.reached)
    setup_ = setup(rules, players)
    start = setup_.state
    edges: dict[State, list[tuple[Trick, State | None]]] = {}
    complete = not effects(rules).unknown  # a step it cannot see: it proves nothing
    todo = [start] if complete else []
    walked = 0
    while todo:
        state = todo.pop()
        if state in edges:
            continue
        if walked >= budget:
            complete = False
            break
        out = []
        for trick in tricks_from(rules, setup_, state, largest):
            following = None if trick.end is not None else next_state(trick)
            out.append((trick, following))
            if following is not None and following not in edges:
                todo.append(following)
        edges[state] = out
        walked += len(out)
    longest, shortest, cycles = _lengths(edges, start) if complete else ({}, {}, True)
    latest = None
    if not cycles and stated(rules, Step.END_CHECK):
        depth = _depths(edges, start)
        asked = ((s, t) for s, out in edges.items() for t, n in out if n or t.stated_end)
        latest = max((depth[s] + 1 for s, _ in asked), default=0)
        edges = _stated_ends_in_time(rules, edges, depth, _depths(edges, start, min))
        edges = _reachable(edges, start)
        longest, shortest, cycles = _lengths(edges, start)
    tricks = [t for out in edges.values() for t, _ in out]
    return CountModel(
        setup=setup_,
        complete=complete,
        states=len(edges),
        events=frozenset(e for t in tricks for e in t.events),
        ends=frozenset(t.end for t in tricks if t.end is not None),
        min_tricks=shortest.get(start),
        max_tricks=None if cycles else longest.get(start),
        min_stock=min(
            [setup_.stock, *(0 if Fact.STOCK_EMPTY in t.events else t.stock for t in tricks)]
        ),
        winner_cards=frozenset(c for t in tricks for c in t.winner_cards),
        can_end_without_winner=any(t.end is not None and not t.winner_cards for t in tricks),
        cycles=cycles,
        largest=largest,
        unknown=effects(rules).unknown,
        latest_going_on=latest,
        ruling_out=frozenset(name for t in tricks for name in t.ruled),
        draws_too=any(t.drew_too for t in tricks),
        reached=frozenset(edges),
        end_asked=frozenset(
            next_state(t) for out in edges.values() for t, n in out if n or t.stated_end
        ),
    )


def unsettled(model: CountModel) -> str:
    """Why the model proves nothing, where it does not: a rule whose effect on the counts
    it does not know, or more states than its budget."""
    if model.complete:
        return ""
    if model.unknown:
        return f"the counts do not know what rule {', '.join(model.unknown)} does to them"
    return f"the counts reach more than {TRICK_BUDGET:,} states"


def forget() -> None:
    """Drop the models and counts kept for profiles seen before (for timing runs)."""
    for kept in (build, effects, stated_counts, draw_choices):
        kept.cache_clear()


def first_stated_end(rules: Rules) -> int:
    """The first trick at whose end a rule the profile states may end the hand."""
    return min((said.first_trick(r) for r in stated(rules, Step.END_CHECK)), default=1)


def sure_stated_end(rules: Rules) -> int | None:
    """The trick from which a rule the profile states surely ends the hand, if one does."""
    sure = [said.sure_trick(r) for r in stated(rules, Step.END_CHECK)]
    return min((n for n in sure if n is not None), default=None)


Edges = dict[State, list[tuple[Trick, State | None]]]


def _stated_ends_in_time(
    rules: Rules, edges: Edges, most: dict[State, int], least: dict[State, int]
) -> Edges:
    """The edges without the stated ends that come before any stated end rule can act,
    and without the tricks that go on where one surely ends the hand: a state `most` (or
    `least`) tricks into a hand at most (or at least) plays trick `most + 1` next."""
    first, sure = first_stated_end(rules), sure_stated_end(rules)

    def kept(state: State, trick: Trick) -> bool:
        if trick.stated_end:
            return most[state] + 1 >= first
        return trick.end is not None or sure is None or least[state] + 1 < sure

    return {state: [(t, n) for t, n in out if kept(state, t)] for state, out in edges.items()}


def _reachable(edges: Edges, start: State) -> Edges:
    seen, todo = {start}, [start]
    while todo:
        for _, following in edges[todo.pop()]:
            if following is not None and following not in seen:
                seen.add(following)
                todo.append(following)
    return {state: out for state, out in edges.items() if state in seen}


def _depths(edges: Edges, start: State, pick: Callable[[int, int], int] = max) -> dict[State, int]:
    """The most (or with `pick=min`, the fewest) tricks played before each state, in a
    hand without repeated counts."""
    waiting = dict.fromkeys(edges, 0)
    for out in edges.values():
        for _, following in out:
            if following is not None:
                waiting[following] += 1
    depth = {start: 0}
    ready = [start]
    while ready:
        state = ready.pop()
        for _, following in edges[state]:
            if following is None:
                continue
            seen = depth.get(following)
            depth[following] = depth[state] + 1 if seen is None else pick(seen, depth[state] + 1)
            waiting[following] -= 1
            if not waiting[following]:
                ready.append(following)
    return depth


def _lengths(
    edges: dict[State, list[tuple[Trick, State | None]]], start: State
) -> tuple[dict[State, int], dict[State, int], bool]:
    """The most and fewest tricks from each state to an end (states that cannot end have
    no fewest), and whether the states reachable from `start` hold a cycle."""
    longest: dict[State, int] = {}
    shortest: dict[State, int] = {}
    on_path: set[State] = set()
    cycles = False
    stack: list[tuple[State, bool]] = [(start, False)]
    while stack:
        state, done = stack.pop()
        if done:
            on_path.discard(state)
            nexts = [n for _, n in edges[state]]
            longest[state] = max((1 + longest.get(n, 0) if n else 1) for n in nexts)
            ends = [1 + shortest[n] if n else 1 for n in nexts if n is None or n in shortest]
            if ends:
                shortest[state] = min(ends)
            continue
        if state in longest:
            continue
        on_path.add(state)
        stack.append((state, True))
        for _, following in edges[state]:
            if following is None or following in longest:
                continue
            if following in on_path:
                cycles = True
                continue
            stack.append((following, False))
    return longest, shortest, cycles
