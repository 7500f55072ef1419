"""Every line of play of a small game, and every claim `analyze` makes held against them.

A line is one choice of legal card at every move, by every seat; the lines of a deal are
walked by replaying it with scripted choices (each line's choices in turn, like an
odometer), so each line is watched by the analysis's own `watch`, move by move and trick
by trick. Used by tests/agreement/test_rule_model.py, in process and, for units of a package
installed on the path, in a subprocess (`python tests/exhaustive.py`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from rulesdsl.model.cards import Card
from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import Rules
from rulesdsl.play.engine.hand import Hand
from rulesdsl.reason.analysis import witness as w
from rulesdsl.reason.analysis.counts import CountModel
from rulesdsl.reason.analysis.report import analyse
from rulesdsl.reason.analysis.verdicts import Verdict, questions_for

LINE_CAP = 4000
"""The most lines walked of one deal: a small game has far fewer."""


@dataclass
class Script:
    """The choices of one line, shared by every seat: `taken[i]` is the index of the card
    played at move i among the legal ones, `widths[i]` how many there were."""

    taken: list[int]
    widths: list[int] = field(default_factory=list)

    def choose(self, hand: Hand, legal: Sequence[Card]) -> Card:
        move = len(self.widths)
        self.widths.append(len(legal))
        if move == len(self.taken):
            self.taken.append(0)
        return legal[self.taken[move]]

    def following(self) -> list[int] | None:
        """The next line's choices: the last choice that has another card left, advanced;
        None after the last line."""
        taken = self.taken[: len(self.widths)]
        while taken and taken[-1] + 1 >= self.widths[len(taken) - 1]:
            taken.pop()
        if not taken:
            return None
        taken[-1] += 1
        return taken


def lines(rules: Rules, deal: w.Witness, detectors: dict) -> Iterator[w.Watched]:
    """Every line of play of `deal` (at most LINE_CAP), each watched by `detectors`."""
    taken: list[int] | None = []
    walked = 0
    while taken is not None and walked < LINE_CAP:
        script = Script(taken)
        yield w.watch(rules, deal, detectors, players=[script] * deal.players)
        taken = script.following()
        walked += 1


def deals(rules: Rules, players: int, count: int) -> list[w.Witness]:
    return list(w.candidates(rules, players, count, seed=11))


@dataclass
class Broken:
    """A claim of `analyze` that a line of play contradicts."""

    claim: str
    deal: w.Witness
    plays: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.claim}: {self.deal.command('PROFILE')} (plays {list(map(str, self.plays))})"


def broken_bounds(model: CountModel, outcome: HandResult) -> list[str]:
    """Each bound of the count model that a hand's outcome crosses, as the claim it breaks
    (a hand the engine stopped at its trick limit breaks a bound on a hand's length)."""
    claims = []
    longest = model.max_tricks
    if outcome.reason == "trick_limit" or (longest is not None and outcome.tricks > longest):
        claims.append(f"a hand lasts at most {longest} tricks")
    if model.min_tricks is None or outcome.tricks < model.min_tricks:
        claims.append(f"a hand lasts at least {model.min_tricks} tricks")
    if outcome.stock_left < model.min_stock:
        claims.append(f"the stock keeps at least {model.min_stock} cards")
    if outcome.winner is not None and outcome.winner_cards not in model.winner_cards:
        claims.append(f"a hand winner holds one of {sorted(model.winner_cards)} cards")
    if outcome.winner is None and not model.can_end_without_winner:
        claims.append("every hand has a winner")
    return claims


def broken_claims(rules: Rules, players: int, count: int) -> list[Broken]:
    """Every claim of `analyze` at `players` that a line of play of `count` deals breaks:
    a rule it says never acts that acts (by its question, or fires by the engine's own
    measure), or a bound of the count model that a line crosses."""
    report = analyse("small", rules, players, tries=40).players[players]
    model = report.model
    questions = questions_for(rules)
    never = {n for n, f in report.rules.items() if f.verdict is Verdict.NEVER}
    detectors = {n: questions[n].detectors for n in never}
    found = []
    for deal in deals(rules, players, count):
        for seen in lines(rules, deal, detectors):
            claims = [f"{name} never acts" for name in seen.acted]
            outcome = seen.outcome
            claims += [f"{name} never acts, yet fires" for name in outcome.fired & never]
            claims += broken_bounds(model, outcome)
            plays = tuple(seen.plays)
            found += [Broken(claim, replace(deal, trick=0), plays) for claim in claims]
    return found


if __name__ == "__main__":  # python tests/exhaustive.py PROFILE PLAYERS DEALS
    from rulesdsl.read.profile import load

    profile, players, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rules = load(profile).rules
    report = analyse(profile, rules, players, tries=40).players[players]
    for name, finding in report.rules.items():
        print(f"verdict {name} {finding.verdict}")
    for claim in broken_claims(rules, players, count):
        print(f"broken {claim}")
