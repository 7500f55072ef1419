"""A match: hands in a row, with scoring, the match end and dealer rotation."""

from __future__ import annotations

from collections.abc import Sequence

from rulesdsl.model.cards import Card
from rulesdsl.model.contributions import model
from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import OPTIONS, Rules, RulesError
from rulesdsl.model.seeds import derive
from rulesdsl.model.stream import Stream
from rulesdsl.model.units import Step
from rulesdsl.model.units.match import HAND_LIMIT
from rulesdsl.play.engine.events import Event, MatchOver, Score
from rulesdsl.play.engine.hand import Hand, check_seat
from rulesdsl.play.engine.plan import plan_for


class Match:
    """Deal hands with `deal()`, report each outcome with `record()`, until `over`."""

    def __init__(self, rules: Rules, players: int, seed: int = 0, dealer: int | None = None):
        rules.check_players(players)
        if dealer is not None:
            check_seat(dealer, players, "dealer")
        self.rules = rules
        self.players = players
        self.seed = seed
        self.dealer = (
            dealer if dealer is not None else Stream(derive(seed, "dealer")).below(players)
        )
        self.points = [0] * players
        self.hands_played = 0
        self.winners: tuple[int, ...] | None = None

    @property
    def over(self) -> bool:
        return self.winners is not None

    def __str__(self) -> str:
        """e.g. `after 2 hands: points 1 0 1 0; seat 3 deals next`, or who won the match."""
        hands = f"{self.hands_played} hand" + ("" if self.hands_played == 1 else "s")
        points = "points " + " ".join(map(str, self.points))
        if self.winners is None:
            return f"after {hands}: {points}; seat {self.dealer} deals next"
        who = ", ".join(f"seat {s}" for s in self.winners)
        return f"match over after {hands}: {who} won; {points}"

    def deal(self, order: Sequence[Card] | None = None) -> Hand:
        """The next hand, dealt by the current dealer from `order` or from the match's seed."""
        seed = derive(self.seed, "hand", self.hands_played)
        return Hand.deal(self.rules, self.players, self.dealer, order, seed)

    def record(self, outcome: HandResult) -> list[Event]:
        """Score a finished hand, pass the deal on, and end the match when its rule says so."""
        plan = plan_for(self.rules)
        self.hands_played += 1
        winner = outcome.winner
        gained = 0
        if winner is not None:
            gained = points_of(self.rules, outcome)
            self.points[winner] += gained
        events: list[Event] = [
            Score(self.hands_played, winner, gained, tuple(self.points), rule=plan.score.rule)
        ]
        seat = -1 if winner is None else winner
        self.dealer = plan.next_dealer.act(self.dealer, seat, self.players)
        ended = plan.match_end.act(self.points, self.hands_played, self.players)
        if ended or self.hands_played >= HAND_LIMIT:
            top = max(self.points)
            self.winners = tuple(s for s in range(self.players) if self.points[s] == top)
            events.append(MatchOver(self.winners, tuple(self.points), self.hands_played))
        return events


def points_of(rules: Rules, outcome: HandResult) -> int:
    """The match points the hand's winner scores, by the rule that decides the score: as
    the engine scored the hand, or for a result made without them, as the option's score
    says (`Points`, its effect on the count of points)."""
    if outcome.points is not None:
        return outcome.points
    option = model(rules).option_at(Step.SCORE)
    if option is None or option.replaced_by is not None:
        raise RulesError("this profile scores a hand by its own rule: record a played hand")
    points = OPTIONS[option.rule].counts(getattr(rules, option.rule))[Step.SCORE]
    return outcome.winner_cards if points.per_card else points.fixed
