"""exhaustion: what happens as the stock runs out."""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from typing import Any

from rulesdsl.model.kinds import enum_choice
from rulesdsl.model.result import EndReason
from rulesdsl.model.seeds import shuffle
from rulesdsl.model.state import NO_END, Refill, State, reshuffle_rng
from rulesdsl.model.units.acting import Acts, Effect, Fact
from rulesdsl.model.units.base import RuleProblem, RulesView, Section, Step, Unit
from rulesdsl.model.units.counting import EmptyStock, HandEnding
from rulesdsl.model.units.draw import DrawWord
from rulesdsl.model.units.draw_by import DrawBy
from rulesdsl.model.units.trump import out_of_play


class Exhaustion(StrEnum):
    LAST_DRAW_WINS = "last_draw_wins"
    PLAY_OUT = "play_out"
    RESHUFFLE = "reshuffle"
    MOST_TRICKS = "most_tricks"


def _problems(rules: RulesView, players: int) -> Iterator[RuleProblem]:
    stock = len(rules.cards) - players * rules.hand_size_for(players) - out_of_play(rules)
    if stock == 0 and rules.exhaustion is Exhaustion.LAST_DRAW_WINS and rules.draw != 0:
        yield RuleProblem(
            ("hand_size", "players", "deck", "exhaustion"),
            "empty-stock",
            f"with {players} players the deal leaves no stock, and exhaustion "
            "last_draw_wins has no last card to draw",
            "use exhaustion play_out, or a smaller hand_size",
        )


def _warnings(rules: RulesView) -> Iterator[RuleProblem]:
    if rules.exhaustion is not Exhaustion.RESHUFFLE or rules.draw == 0:
        return
    if rules.draw_by is DrawBy.EVERYONE:
        yield RuleProblem(
            ("draw", "draw_by", "exhaustion"),
            "endless-hand",
            f"draw {rules.draw} by everyone with exhaustion reshuffle: a hand might never "
            "end (every player draws back the card they played)",
            "use draw 0, draw_by winner, or another exhaustion rule",
            "warning",
        )
    elif rules.draw is DrawWord.PER_CARD_IN_TRICK or int(rules.draw) >= 2:
        yield RuleProblem(
            ("draw", "exhaustion"),
            "endless-hand",
            f"draw {rules.draw} with exhaustion reshuffle: a hand might never end "
            "(the winner can draw back every card played)",
            "use draw 1, or another exhaustion rule",
            "warning",
        )


def reshuffle(s: State) -> bool:
    """Shuffle the set-aside tricks into a new stock; whether there were any."""
    cards = s.set_aside
    if cards:
        shuffle(cards, reshuffle_rng(s))
        cards.reverse()
        s.stock = cards
        s.set_aside = []
    return bool(cards)


def play_on(s: State) -> bool:
    """Play goes on without drawing."""
    return True


def last_draw_wins(s: State, seat: int) -> int:
    """The draw that took the last stock card ends the hand; that player wins it."""
    return NO_END if s.stock else seat


def most_tricks(s: State) -> int:
    """When the stock is empty: most tricks won wins; among ties, the latest to win one."""
    won, last = s.tricks_won, s.last_win
    best = NO_END
    if not s.stock:
        best = 0
        for seat in range(1, s.players):
            if (won[seat], last[seat]) > (won[best], last[best]):
                best = seat
    return best


def stock_empty(t: Any) -> bool:
    """The stock is empty at some moment of the trick's draw or after it."""
    drained = any(e.kind == "draw" and e.stock_left == 0 for e in t.events)
    reshuffled = any(e.kind == "reshuffle" for e in t.events)
    return t.stock_before == 0 or drained or reshuffled or not t.hand.stock


def _never(proofs: Any) -> str | None:
    return None if proofs.has(Fact.STOCK_EMPTY) else proofs.stock_kept()


def _counts(value: Exhaustion) -> dict[Step, Any]:
    """Reshuffle refills the stock; last_draw_wins ends the hand as the last card is drawn,
    most_tricks once the stock is empty; play_out leaves an empty stock empty."""
    refill = EmptyStock.RESHUFFLE if value is Exhaustion.RESHUFFLE else EmptyStock.STAYS_EMPTY
    counts: dict[Step, Any] = {Step.REFILL: refill}
    if value is Exhaustion.LAST_DRAW_WINS:
        counts[Step.DRAW_END] = HandEnding.LAST_DRAW
    if value is Exhaustion.MOST_TRICKS:
        counts[Step.END_CHECK] = HandEnding.STOCK_EMPTY
    return counts


def _plays(value: Exhaustion) -> dict[Step, Any]:
    if value is Exhaustion.RESHUFFLE:
        return {Step.REFILL: Refill(reshuffle, True)}
    if value is Exhaustion.PLAY_OUT:
        return {Step.REFILL: Refill(play_on, False)}
    if value is Exhaustion.MOST_TRICKS:
        return {Step.END_CHECK: most_tricks}
    return {Step.DRAW_END: last_draw_wins}


UNIT = Unit(
    "exhaustion",
    enum_choice(Exhaustion),
    "last_draw_wins",
    "what happens as the stock runs out",
    Section.ENDING,
    frozenset({Step.REFILL, Step.DRAW_END, Step.END_CHECK}),
    fires="it reshuffles, plays on without drawing, or ends the hand",
    ends={Step.DRAW_END: EndReason.STOCK_EXHAUSTED, Step.END_CHECK: EndReason.MOST_TRICKS},
    problems=_problems,
    warnings=_warnings,
    plays=_plays,
    counts=_counts,
    acts=Acts(
        "the stock runs out",
        (Effect.PLAY, Effect.HAND_END, Effect.HAND_WINNER),
        never=_never,
        trick=stock_empty,
        aim=lambda outcome: -outcome.stock_left,
    ),
    place=120,
)
