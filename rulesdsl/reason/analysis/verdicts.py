"""Verdicts: for each rule, whether it can ever act, as a proof (never) or a witness (can).

A rule *acts* in a hand when the hand reaches a situation in which two values of its
option would do different things: the point where the option is consulted and the answer
matters. Each option's unit states that situation itself (`Unit.acts`), without asking
which value the profile has, so a rule that never acts makes every value of its option
play the same games (up to the first time it acts the games are the same, and it never
does). Its count-level precondition, when the count model rules it out, is the proof; a
hand found by search in which the situation occurs is the witness. Rules a profile states
itself (section 5 of docs/rules.md) act where they change play by the engine's own measure; what
the count model cannot see of their conditions is a choice either way, so their "never"
stays sound. A rule that states nothing of its acting (another package's) is judged by
its own measure, and proved idle only where nobody ever has a choice of card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import partial
from typing import Any

from rulesdsl.model.contributions import model
from rulesdsl.model.language.rule import HouseRule
from rulesdsl.model.rules import OPTIONS, Rules
from rulesdsl.model.units.acting import Acts, Effect, Fact, no_choice, no_proof
from rulesdsl.model.units.base import PLAY_FILTERS, Step, Unit
from rulesdsl.play.engine.hand import TRICK_LIMIT, Hand
from rulesdsl.play.engine.match import HAND_LIMIT, points_of
from rulesdsl.play.engine.plan import plan_for
from rulesdsl.reason.analysis import witness as w
from rulesdsl.reason.analysis.counts import (
    CountModel,
    State,
    build,
    can_score,
    counts_after,
    counts_at,
    draw_counts,
    out_before_draw,
    replaced_counts,
    replaced_points,
    reshuffles,
    score_points,
    unsettled,
)
from rulesdsl.reason.analysis.stated import Counts, can_hold, first_trick, span

# Deals the search tries per player count, then swaps of two cards it climbs by (for a
# question with an aim), before it calls a question unknown.
SEARCH_BUDGET = 300
CLIMB_BUDGET = 1500


class Verdict(StrEnum):
    NEVER = "never"
    CAN = "can"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Finding:
    """A verdict, the sentence behind it, and for `can` the hand that shows it."""

    verdict: Verdict
    proof: str
    witness: w.Witness | None = None
    effects: tuple[Effect, ...] = ()  # what the rule's acting can change

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"verdict": str(self.verdict), "proof": self.proof}
        if self.effects:
            data["can_change"] = [str(e) for e in self.effects]
        if self.witness is not None:
            data["witness"] = self.witness.to_dict()
        return data


Never = Callable[["Proofs"], str | None]


@dataclass(frozen=True)
class Question:
    """What a rule's acting means, the count-level proof that it cannot, how a hand shows
    it acting, and what its acting can change."""

    acts: str
    never: Never
    detectors: w.Detectors
    effects: tuple[Effect, ...]

    @classmethod
    def of(cls, acts: Acts) -> Question:
        """The question a rule states of itself (`Unit.acts`)."""
        detectors = w.Detectors(acts.move, acts.trick, acts.outcome, acts.aim)
        return cls(acts.situation, acts.never, detectors, acts.effects)


@dataclass(frozen=True)
class Proofs:
    """What the count model settles at one player count, as a rule's proof reads it."""

    rules: Rules
    model: CountModel

    def has(self, fact: Fact) -> bool:
        return fact in self.model.events

    @property
    def reshuffles(self) -> bool:
        return reshuffles(self.rules)

    def stock_kept(self) -> str:
        m = self.model
        s = m.setup
        return (
            f"the stock always keeps at least {m.min_stock} cards ({s.players} players: "
            f"{s.stock} after the deal, and a hand lasts at most {m.max_tricks} tricks)"
        )

    def always_draws(self) -> bool:
        """Whether the trick winner is always in at the draw, with a count above 0."""
        drawn = min(draw_counts(self.rules, self.model.setup.players)) > 0
        return drawn and not out_before_draw(self.rules)

    def match_over_after_first_hand(self) -> bool:
        """Whether the rule of the match's end ends it after any first hand: won with any
        number of points the score can give, or, where a hand can go unwon, by nobody."""
        players = self.model.setup.players
        low, high = score_points(self.rules)
        if high - low > POINTS_TRIED:
            return False
        ended = plan_for(self.rules).match_end.act
        firsts = [[int(p)] + [0] * (players - 1) for p in range(int(low), int(high) + 1)]
        if self.model.can_end_without_winner or not self.model.winner_cards:
            firsts.append([0] * players)
        return all(ended(points, 1, players) for points in firsts)


POINTS_TRIED = 100
"""The most first-hand scores tried to show that a match ends with its first hand."""


def match_length(rules: Rules, players: int) -> int | None:
    """The number of hands after which the rule of the match's end ends it whoever scored
    (none scored at all), if it does so within the engine's limit."""
    ended = plan_for(rules).match_end.act
    zeros = [0] * players
    return next((n for n in range(1, HAND_LIMIT + 1) if ended(zeros, n, players)), None)


ANALYSED = tuple(name for name in OPTIONS if name != "players")


# -- the rules a profile states -------------------------------------------------------
# Such a rule acts where it changes play: a filter refuses a card, a count draws other
# cards than the option's, an end rule ends the hand, a score scores other points. The
# count model reads their conditions where it can: what it cannot see is a choice either
# way; a witness is searched for what it does not rule out.


def _has_fired(name: str, done: w.TrickDone) -> bool:
    return name in done.hand.fired


def _fired_by_end(name: str, hand: Hand) -> bool:
    return hand.outcome is not None and name in hand.outcome.fired


def _has_winner(rule: HouseRule, proofs: Proofs) -> str | None:
    return "no hand ever has a winner" if not proofs.model.winner_cards else None


def _other_points(rule: HouseRule, proofs: Proofs) -> str | None:
    """A score rule acts where it gives other points than the option it replaces."""
    option = replaced_points(proofs.rules)
    own = span(rule.tree) if rule.tree is not None else None
    if option is not None and own == (option, option):
        return f"it always scores {option}, as the option it replaces does"
    return _has_winner(rule, proofs)


def _other_count(rule: HouseRule, proofs: Proofs) -> str | None:
    """A draw rule acts where it gives a drawer another count than the option it replaces,
    with cards there to draw."""
    rules, players = proofs.rules, proofs.model.setup.players
    option = replaced_counts(rules, players)
    if option is not None and set(draw_counts(rules, players)) == {option}:
        return f"it always gives {option}, as the option it replaces does"
    if not proofs.has(Fact.WINNER_DRAWS):
        return "no player ever has a card to draw"
    return None


def _in_time(rule: HouseRule, proofs: Proofs) -> str | None:
    """An end rule acts only at the end of a trick after which the hand would go on, where
    its condition can hold."""
    model = proofs.model
    first, latest = first_trick(rule), model.latest_going_on
    if latest is not None and first > latest:
        return (
            f"it can end a hand only from trick {first}, and with {model.setup.players} "
            f"players no hand goes on past trick {latest} (a hand lasts at most "
            f"{model.max_tricks} tricks)"
        )
    players, rules = model.setup.players, proofs.rules

    def after(state: State) -> Counts:
        return counts_after(rules, state, players, model.largest)

    return _cannot_hold(rule, model, model.end_asked, "at the end of a trick", after)


def _cannot_hold(
    rule: HouseRule,
    model: CountModel,
    states: frozenset[State],
    when: str,
    read: Callable[[State], Counts] | None = None,
) -> str | None:
    """A proof that the rule's condition is false in each of `states` (read by `read`,
    else as they are), if it is."""
    players = model.setup.players
    counts = read or (lambda state: counts_at(state, players))
    if any(can_hold(rule.tree, counts(state)) for state in states):
        return None
    largest = max((max(state[0], default=0) for state in states), default=0)
    return (
        f"its condition cannot hold {when} in any of the {len(states)} count states a hand "
        f"can reach with {players} players (no hand holds more than {largest} cards)"
    )


def _puts_out(rule: HouseRule, proofs: Proofs) -> str | None:
    """A rule of who is out acts where it puts out a player still in with cards, whom no
    earlier rule puts out."""
    model = proofs.model
    if rule.name in model.ruling_out:
        return None
    return (
        f"its condition cannot hold at step 6 for a player still in with cards in any of the "
        f"{model.states} count states a hand can reach with {model.setup.players} players"
    )


def _draws_too(rule: HouseRule, proofs: Proofs) -> str | None:
    """A rule of who draws too acts where a player other than the winner draws by it."""
    model = proofs.model
    if model.draws_too:
        return None
    return (
        f"no player other than the trick winner has a card to draw right after the winner's "
        f"draw in any of the {model.states} count states a hand can reach with "
        f"{model.setup.players} players"
    )


def _refuses(rule: HouseRule, proofs: Proofs) -> str | None:
    """A filter acts only where its player may choose, and its condition can hold."""
    reached = proofs.model.reached
    return no_choice(proofs) or _cannot_hold(rule, proofs.model, reached, "at a play")


def _unseen(rule: HouseRule, proofs: Proofs) -> str | None:
    """No proof: what the rule reads (who holds which card) is not in the counts."""
    return None


StatedNever = Callable[[HouseRule, Proofs], str | None]

STATED: dict[Step, tuple[str, StatedNever, tuple[Effect, ...]]] = {
    Step.LEAD_FILTER: ("it refuses a card to lead", _refuses, (Effect.PLAY,)),
    Step.FOLLOW_FILTER: ("it refuses a card to follow", _refuses, (Effect.PLAY,)),
    Step.DRAW_COUNT: (
        "a drawer takes other cards than the option it replaces would give",
        _other_count,
        (Effect.PLAY, Effect.HAND_END),
    ),
    Step.END_CHECK: ("it ends the hand", _in_time, (Effect.HAND_END, Effect.HAND_WINNER)),
    Step.FIRST_LEAD: (
        "it gives the first lead to another player than the seat after the dealer",
        _unseen,
        (Effect.PLAY,),
    ),
    Step.OUT: ("it puts a player out who would stay in", _puts_out, tuple(Effect)),
    Step.EXTRA_DRAW: (
        "a player other than the trick winner draws a card by it",
        _draws_too,
        (Effect.PLAY, Effect.HAND_END, Effect.HAND_WINNER),
    ),
    Step.SCORE: (
        "it scores a hand winner other points than the option it replaces would",
        _other_points,
        (Effect.MATCH,),
    ),
}
"""Per step a stated rule acts at: what its acting is, a proof it cannot, its effects."""


def _fired(name: str) -> w.Detectors:
    """A rule seen acting where the engine counts it as having changed play."""
    return w.Detectors(trick=partial(_has_fired, name), outcome=partial(_fired_by_end, name))


def stated_questions(rules: Rules) -> dict[str, Question]:
    """A question for each rule the profile states, by its name."""
    questions = {}
    for rule in rules.house_rules:
        acts, never, effects = STATED[rule.step_names[0]]
        questions[rule.name] = Question(acts, partial(never, rule), _fired(rule.name), effects)
    return questions


def unit_question(unit: Unit) -> Question:
    """The question of a rule that states none (another package's): it acts where it
    changes play by its own measure (`fires`), as the engine counts it; a play filter
    cannot while nobody holds two cards to choose from. What else its acting needs is not
    known, so the count model proves nothing more of it."""
    filters = unit.steps <= PLAY_FILTERS
    detectors = _fired(unit.name) if unit.counted else w.Detectors()
    effects = (Effect.PLAY,) if filters else tuple(Effect)
    return Question(unit.fires or "it acts", no_choice if filters else no_proof, detectors, effects)


def option_questions(rules: Rules) -> dict[str, Question]:
    """The question of each option analysed, as its unit states it. An option a rule of
    the profile's own replaces never acts: that rule decides its step."""
    questions = {}
    for name in ANALYSED:
        unit = OPTIONS[name]
        questions[name] = Question.of(unit.acts) if unit.acts else unit_question(unit)
    for name, rule in model(rules).replaced.items():
        never = partial(_replaced, f"the profile's own rule {rule} decides in its place")
        questions[name] = replace(questions[name], never=never, detectors=w.Detectors())
    return questions


def _replaced(proof: str, proofs: Proofs) -> str:
    return proof


def questions_for(rules: Rules) -> dict[str, Question]:
    """The questions of the options analysed, then of each rule the profile states."""
    return {**option_questions(rules), **stated_questions(rules)}


def _ends_badly(hand: Hand) -> bool:
    return hand.outcome.reason == "trick_limit"


ENDLESS = w.Detectors(outcome=_ends_badly, aim=lambda outcome: outcome.tricks - TRICK_LIMIT)
"""A hand the engine stops at its trick limit."""


def _scores(rules: Rules) -> Callable[[Hand], bool]:
    def scores(hand: Hand) -> bool:
        outcome = hand.outcome
        if outcome.winner is None:
            return False
        return points_of(rules, outcome) > 0

    return scores


@dataclass(frozen=True)
class PlayersReport:
    """Everything the analysis settles at one player count."""

    players: int
    model: CountModel
    stock_runs_out: Finding
    all_out: Finding
    hand_fails_to_end: Finding
    match_fails_to_end: Finding
    rules: dict[str, Finding]
    longest: w.Witness | None

    def to_dict(self) -> dict[str, Any]:
        m = self.model
        return {
            "max_tricks": m.max_tricks,
            "min_tricks": m.min_tricks,
            "longest_seen": self.longest.trick if self.longest else None,
            "min_stock_left": m.min_stock if m.complete else None,
            "counts_unsettled": unsettled(m) or None,
            "stock_can_run_out": _flag(self.stock_runs_out),
            "all_out_possible": _flag(self.all_out),
            "hand_can_fail_to_end": _flag(self.hand_fails_to_end),
            "match_can_fail_to_end": _flag(self.match_fails_to_end),
            "count_states": m.states,
            "facts": {
                "stock_can_run_out": self.stock_runs_out.to_dict(),
                "all_out_possible": self.all_out.to_dict(),
                "hand_can_fail_to_end": self.hand_fails_to_end.to_dict(),
                "match_can_fail_to_end": self.match_fails_to_end.to_dict(),
            },
            "rules": {name: f.to_dict() for name, f in self.rules.items()},
        }


def _flag(finding: Finding) -> bool | None:
    return {Verdict.NEVER: False, Verdict.CAN: True}.get(finding.verdict)


def settle(
    question: Question,
    rules: Rules,
    model: CountModel,
    found: w.Witness | None,
    tries: int = SEARCH_BUDGET,
) -> Finding:
    """The verdict on one question: a proof from the counts, else a witness, else unknown."""
    if model.complete:
        proof = question.never(Proofs(rules, model))
        if proof is not None:
            return Finding(Verdict.NEVER, proof, None, question.effects)
    if found is not None:
        at = f"at trick {found.trick} of" if found.trick else "in"
        return Finding(
            Verdict.CAN, f"{question.acts}, {at} the witness hand", found, question.effects
        )
    if not model.complete:
        why = unsettled(model)
    else:
        why = f"the counts allow it, but none of {tries} deals searched shows it" + (
            f", nor {CLIMB_BUDGET} swaps of two cards" if question.detectors.aim else ""
        )
    return Finding(Verdict.UNKNOWN, why, None, question.effects)


def analyse_players(rules: Rules, players: int, tries: int = SEARCH_BUDGET) -> PlayersReport:
    """The count model, then a search for a witness of every question it leaves open."""
    model = build(rules, players)
    questions = questions_for(rules)
    open_ = {
        name: q.detectors
        for name, q in questions.items()
        if not model.complete or q.never(Proofs(rules, model)) is None
    }
    endless = not model.complete or model.max_tricks is None or model.max_tricks >= TRICK_LIMIT
    if endless:
        open_["endless"] = ENDLESS
    else:  # where a hand may not end, a match fails to end as a hand does
        open_["scores"] = w.Detectors(outcome=_scores(rules))
    searched = w.search(rules, players, open_, tries, model.max_tricks)
    found, longest = searched.witnesses, searched.longest
    for name, (_, start) in searched.nearest.items():
        if name not in found:
            climbed = w.climb(rules, name, open_[name], start, CLIMB_BUDGET)
            if climbed is not None:
                found[name] = climbed
    verdicts = {
        name: settle(q, rules, model, found.get(name), tries) for name, q in questions.items()
    }
    hand = _hand_fails(model, found.get("endless"), endless, tries)
    return PlayersReport(
        players,
        model,
        stock_runs_out=verdicts["exhaustion"],
        all_out=verdicts["all_out"],
        hand_fails_to_end=hand,
        match_fails_to_end=_match_fails(rules, model, hand, found.get("scores"), longest, tries),
        rules=verdicts,
        longest=longest,
    )


def _hand_fails(model: CountModel, found: w.Witness | None, endless: bool, tries: int) -> Finding:
    """Never when the counts cannot repeat; can with a hand the engine stops at its limit."""
    if not endless:
        return Finding(
            Verdict.NEVER,
            f"the counts cannot repeat, so every hand ends within {model.max_tricks} tricks",
        )
    if found is not None:
        stopped = replace(found, trick=TRICK_LIMIT)
        return Finding(Verdict.CAN, f"this hand is stopped after {TRICK_LIMIT} tricks", stopped)
    counts = "the counts can repeat" if model.complete else unsettled(model)
    return Finding(
        Verdict.UNKNOWN,
        f"{counts}, but none of {tries} deals searched, nor {CLIMB_BUDGET} swaps of two cards, "
        f"lasts {TRICK_LIMIT} tricks",
    )


def _match_fails(
    rules: Rules,
    model: CountModel,
    hand: Finding,
    scoring: w.Witness | None,
    any_hand: w.Witness | None,
    tries: int,
) -> Finding:
    """A match fails to end when a hand can, or when no hand can ever score; a match in
    which some hand can score can always still end."""
    if hand.verdict is not Verdict.NEVER:
        return hand
    length = match_length(rules, model.setup.players)
    if length is not None:
        return Finding(Verdict.NEVER, f"a match is {length} hands, and every hand ends")
    possible = can_score(rules, model.winner_cards)
    if not possible and model.complete:
        return Finding(
            Verdict.CAN,
            f"no hand can score a point, so a match never reaches its target "
            f"(the engine stops it after {HAND_LIMIT} hands)",
            any_hand,
        )
    if scoring is not None:
        return Finding(
            Verdict.NEVER,
            "a hand can score (as the witness shows), so from any point a match can still "
            "reach its target",
            scoring,
        )
    return Finding(Verdict.UNKNOWN, f"none of {tries} deals searched scores a point")
