"""Verdicts: for each rule, whether it can ever act, as a proof (never) or a witness (can).

A rule *acts* in a hand when the hand reaches a situation in which two values of its
option would do different things: the point where the option is consulted and the answer
matters. Each question below names that situation without asking which value the profile
has, so a rule that never acts makes every value of its option play the same games (up to
the first time it acts the games are the same, and it never does). Its count-level
precondition, when the count model rules it out, is the proof; a hand found by search in
which the situation occurs is the witness. Rules a profile states itself (RULES.md
section 5) join here as further questions: what the count model cannot see about their
conditions is a choice either way, so their "never" stays sound.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import partial
from typing import Any

from rulesdsl.analysis import witness as w
from rulesdsl.analysis.counts import (
    TRICK_BUDGET,
    CountModel,
    Event,
    State,
    build,
    counts_at,
    draw_counts,
    out_before_draw,
    replaced_counts,
    replaced_points,
    reshuffles,
    score_points,
    stated,
)
from rulesdsl.analysis.stated import can_hold, first_trick, span
from rulesdsl.engine.hand import TRICK_LIMIT, Hand
from rulesdsl.engine.match import HAND_LIMIT, points_of
from rulesdsl.house.unit import HouseRule
from rulesdsl.house.unit import Step as RuleStep
from rulesdsl.model import model
from rulesdsl.rules import OPTIONS, Rules
from rulesdsl.units.base import PLAY_FILTERS, Unit

# Deals the search tries per player count, then swaps of two cards it climbs by (for a
# question with an aim), before it calls a question unknown.
SEARCH_BUDGET = 300
CLIMB_BUDGET = 1500


class Verdict(StrEnum):
    NEVER = "never"
    CAN = "can"
    UNKNOWN = "unknown"


class Effect(StrEnum):
    """What a rule that acts can change."""

    DEAL = "deal"
    PLAY = "play"
    HAND_END = "hand_end"
    HAND_WINNER = "hand_winner"
    MATCH = "match"


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


Never = Callable[[Rules, CountModel], str | None]


@dataclass(frozen=True)
class Question:
    """What a rule's acting means, the count-level proof that it cannot, how a hand shows
    it acting, and what its acting can change."""

    acts: str
    never: Never
    detectors: w.Detectors
    effects: tuple[Effect, ...]


def _no_proof(rules: Rules, model: CountModel) -> str | None:
    return None


def _no_trump(rules: Rules) -> str | None:
    return "there is no trump suit" if rules.trump == "none" else None


def _opening(rules: Rules, model: CountModel) -> str | None:
    if _no_trump(rules):
        return _no_trump(rules)
    size = model.setup.hand_size
    return f"the first leader holds {size} card, so has no choice" if size < 2 else None


def _follower_choice(rules: Rules, model: CountModel) -> str | None:
    if Event.FOLLOWER_CHOOSES not in model.events:
        return "no player ever holds more than one card when playing to a trick"
    return None


def _trump_choice(rules: Rules, model: CountModel) -> str | None:
    return _no_trump(rules) or _follower_choice(rules, model)


def _follow(rules: Rules, model: CountModel) -> str | None:
    if w.follow_frees_any():
        return _follower_choice(rules, model)
    return _trump_choice(rules, model)


def _stock(model: CountModel) -> str:
    s = model.setup
    return (
        f"the stock always keeps at least {model.min_stock} cards ({s.players} players: "
        f"{s.stock} after the deal, and a hand lasts at most {model.max_tricks} tricks)"
    )


def _draws(rules: Rules, model: CountModel) -> str | None:
    if Event.WINNER_DRAWS not in model.events:
        return "the trick winner never has a card to draw"
    return None


def _draw_by(rules: Rules, model: CountModel) -> str | None:
    if Event.OTHER_CAN_DRAW not in model.events:
        return "after the trick winner's draw, no card is ever there for another player"
    return None


def _next_lead(rules: Rules, model: CountModel) -> str | None:
    if Event.GOES_ON not in model.events:
        return "every hand ends with its first trick"
    return None


def _elimination(rules: Rules, model: CountModel) -> str | None:
    if Event.LAST_CARD_WIN not in model.events:
        if model.setup.stock == 0 and not reshuffles(rules):
            return "there is no stock, so a last-card winner never has a card to draw"
        return "no trick is won with a last card while a card is there to draw"
    return None


def _exhaustion(rules: Rules, model: CountModel) -> str | None:
    return _stock(model) if Event.STOCK_EMPTY not in model.events else None


def _all_out(rules: Rules, model: CountModel) -> str | None:
    if Event.ALL_OUT in model.events:
        return None
    draws = min(draw_counts(rules, model.setup.players)) > 0
    if Event.STOCK_EMPTY not in model.events and not out_before_draw(rules) and draws:
        return f"the trick winner always draws a card: {_stock(model)}"
    return (
        f"none of the {model.states} count states a hand can reach ends a trick "
        "with every hand empty"
    )


def _scoring(rules: Rules, model: CountModel) -> str | None:
    if model.winner_cards <= {1}:
        return "every hand winner holds exactly one card at the end"
    return None


def _next_dealer(rules: Rules, model: CountModel) -> str | None:
    count = rules.match_count_for(model.setup.players)
    one_hand = rules.match.kind == "hands" and count == 1
    every_hand_won = not model.can_end_without_winner
    one_point = rules.match.kind == "target" and count <= 1 and scores_one(rules)
    if one_hand or (one_point and every_hand_won):
        return "every match is over after its first hand"
    if not model.winner_cards:
        return "no hand ever has a winner, so the deal always passes to the left"
    return None


def scored(rules: Rules) -> bool:
    """Whether the profile states its own score (any number of points, as the model sees)."""
    return bool(stated(rules, RuleStep.SCORE))


def scores_one(rules: Rules) -> bool:
    """Whether every hand winner scores exactly one point."""
    return score_points(rules) == (1, 1)


def _any_hand(hand: Hand) -> bool:
    return True


def _winner_cards_not_one(hand: Hand) -> bool:
    outcome = hand.outcome
    return outcome.winner is not None and outcome.winner_cards != 1


def _winner_not_left(hand: Hand) -> bool:
    """As the first hand of a match: won by a player other than the dealer's left, and
    the match is not over after it."""
    rules, outcome = hand.rules, hand.outcome
    if outcome.winner is None or outcome.winner == (hand.dealer + 1) % hand.players:
        return False
    count = rules.match_count_for(hand.players)
    if rules.match.kind == "hands":
        return count >= 2
    return points_of(rules, outcome) < count


QUESTIONS: dict[str, Question] = {
    "deck": Question(
        "the deck is dealt",
        _no_proof,
        w.Detectors(outcome=_any_hand),
        (Effect.DEAL, Effect.PLAY),
    ),
    "hand_size": Question(
        "the hands are dealt",
        _no_proof,
        w.Detectors(outcome=_any_hand),
        (Effect.DEAL, Effect.PLAY),
    ),
    "trump": Question(
        "a player void in the led suit plays to a trick",
        _no_proof,
        w.Detectors(move=w.off_suit),
        (Effect.PLAY, Effect.HAND_WINNER),
    ),
    "opening_lead": Question(
        "the first leader holds a trump and a card that is not",
        _opening,
        w.Detectors(move=w.opening_choice),
        (Effect.PLAY,),
    ),
    "follow": Question(
        "a follower holds the led suit and a card of another suit"
        if w.follow_frees_any()
        else "a follower holds the led suit and a trump of another suit",
        _follow,
        w.Detectors(move=w.follow_choice),
        (Effect.PLAY,),
    ),
    "when_void": Question(
        "a follower void in the led suit holds a trump and a card that is not",
        _trump_choice,
        w.Detectors(move=w.void_choice),
        (Effect.PLAY,),
    ),
    "must_head": Question(
        "a follower may play a card that beats the best so far and one that does not",
        _follower_choice,
        w.Detectors(move=w.head_choice),
        (Effect.PLAY,),
    ),
    "draw": Question(
        "a player is to draw (the trick winner, if still in) and a card is there",
        _draws,
        w.Detectors(trick=w.winner_draws),
        (Effect.PLAY, Effect.HAND_END),
    ),
    "draw_by": Question(
        "after the trick winner's draw, another player still in has a card to draw",
        _draw_by,
        w.Detectors(trick=w.other_draws),
        (Effect.PLAY, Effect.HAND_END, Effect.HAND_WINNER),
    ),
    "elimination": Question(
        "a trick is won with a last card while a card is there to draw",
        _elimination,
        w.Detectors(trick=w.last_card_win),
        (Effect.PLAY, Effect.HAND_END, Effect.HAND_WINNER),
    ),
    "exhaustion": Question(
        "the stock runs out",
        _exhaustion,
        w.Detectors(trick=w.stock_empty, aim=lambda outcome: -outcome.stock_left),
        (Effect.PLAY, Effect.HAND_END, Effect.HAND_WINNER),
    ),
    "all_out": Question(
        "every remaining hand empties in the same trick",
        _all_out,
        w.Detectors(trick=w.all_out),
        (Effect.HAND_WINNER,),
    ),
    "scoring": Question(
        "a hand winner holds other than one card at the end",
        _scoring,
        w.Detectors(outcome=_winner_cards_not_one),
        (Effect.MATCH,),
    ),
    "match": Question(
        "a hand is scored", _no_proof, w.Detectors(outcome=_any_hand), (Effect.MATCH,)
    ),
    "next_lead": Question(
        "a trick is won by a player who stays in, and the hand goes on",
        _next_lead,
        w.Detectors(trick=w.winner_leads_on),
        (Effect.PLAY, Effect.HAND_WINNER),
    ),
    "next_dealer": Question(
        "a hand is won by a player other than the dealer's left, and the match goes on",
        _next_dealer,
        w.Detectors(outcome=_winner_not_left),
        (Effect.MATCH,),
    ),
}
"""Every option's question; `players` is what the analysis ranges over."""

ANALYSED = tuple(name for name in OPTIONS if name != "players")


# -- the rules a profile states -------------------------------------------------------
# Such a rule acts where it fires: a filter refuses a card, a count is taken, an end rule
# ends the hand. The count model does not see their conditions, so only what they need
# to act at all can be proved absent; otherwise a witness is searched for.


def _has_fired(name: str, done: w.TrickDone) -> bool:
    return name in done.hand.fired


def _fired_by_end(name: str, hand: Hand) -> bool:
    return hand.outcome is not None and name in hand.outcome.fired


def _has_winner(rule: HouseRule, rules: Rules, model: CountModel) -> str | None:
    return "no hand ever has a winner" if not model.winner_cards else None


def _other_points(rule: HouseRule, rules: Rules, model: CountModel) -> str | None:
    """A score rule acts where it gives other points than the option it replaces."""
    option = replaced_points(rules)
    own = span(rule.tree, False) if rule.tree is not None else None
    if option is not None and own == (option, option):
        return f"it always scores {option}, as the option it replaces does"
    return _has_winner(rule, rules, model)


def _other_count(rule: HouseRule, rules: Rules, model: CountModel) -> str | None:
    """A draw rule acts where it gives a drawer another count than the option it replaces,
    with cards there to draw."""
    option = replaced_counts(rules, model.setup.players)
    if option is not None and set(draw_counts(rules, model.setup.players)) == {option}:
        return f"it always gives {option}, as the option it replaces does"
    return _draws(rules, model)


def _in_time(rule: HouseRule, rules: Rules, model: CountModel) -> str | None:
    """An end rule acts only at the end of a trick after which the hand would go on, where
    its condition can hold."""
    first, latest = first_trick(rule), model.latest_going_on
    if latest is not None and first > latest:
        return (
            f"it can end a hand only from trick {first}, and with {model.setup.players} "
            f"players no hand goes on past trick {latest} (a hand lasts at most "
            f"{model.max_tricks} tricks)"
        )
    return _cannot_hold(rule, model, model.end_asked, "at the end of a trick")


def _cannot_hold(
    rule: HouseRule, model: CountModel, states: frozenset[State], when: str
) -> str | None:
    """A proof that the rule's condition is false in each of `states`, if it is."""
    players = model.setup.players
    if any(can_hold(rule.tree, counts_at(state, players)) for state in states):
        return None
    largest = max((max(sizes, default=0) for sizes, _, _ in states), default=0)
    return (
        f"its condition cannot hold {when} in any of the {len(states)} count states a hand "
        f"can reach with {players} players (no hand holds more than {largest} cards)"
    )


def _filter_never(never: Never) -> StatedNever:
    """A filter acts only where its player may choose, and its condition can hold."""

    def proof(rule: HouseRule, rules: Rules, model: CountModel) -> str | None:
        return never(rules, model) or _cannot_hold(rule, model, model.reached, "at a play")

    return proof


StatedNever = Callable[[HouseRule, Rules, CountModel], str | None]

STATED: dict[RuleStep, tuple[str, StatedNever, tuple[Effect, ...]]] = {
    RuleStep.LEAD_FILTER: (
        "it refuses a card to lead",
        _filter_never(_no_proof),
        (Effect.PLAY,),
    ),
    RuleStep.FOLLOW_FILTER: (
        "it refuses a card to follow",
        _filter_never(_follower_choice),
        (Effect.PLAY,),
    ),
    RuleStep.DRAW_COUNT: (
        "a drawer takes other cards than the option it replaces would give",
        _other_count,
        (Effect.PLAY, Effect.HAND_END),
    ),
    RuleStep.END_CHECK: ("it ends the hand", _in_time, (Effect.HAND_END, Effect.HAND_WINNER)),
    RuleStep.SCORE: (
        "it scores a hand winner other points than the option it replaces would",
        _other_points,
        (Effect.MATCH,),
    ),
}
"""Per step a stated rule acts at: what its acting is, a proof it cannot, its effects."""


def stated_questions(rules: Rules) -> dict[str, Question]:
    """A question for each rule the profile states, by its name."""
    questions = {}
    for rule in rules.house_rules:
        acts, never, effects = STATED[rule.step_names[0]]
        detectors = w.Detectors(
            trick=partial(_has_fired, rule.name), outcome=partial(_fired_by_end, rule.name)
        )
        questions[rule.name] = Question(acts, partial(never, rule), detectors, effects)
    return questions


def unit_question(unit: Unit) -> Question:
    """The question of a unit the analysis has no question of (another package's): it
    acts where it changes play by its own measure (`fires`), as the engine counts it; a
    play filter cannot while nobody holds two cards to choose from. What else its acting
    needs is not known, so the count model proves nothing more of it."""
    steps = unit.steps
    detectors = w.Detectors()
    if unit.counted:
        trick, outcome = partial(_has_fired, unit.name), partial(_fired_by_end, unit.name)
        detectors = w.Detectors(trick=trick, outcome=outcome)
    never = _follower_choice if steps <= PLAY_FILTERS else _no_proof
    effects = (Effect.PLAY,) if steps & PLAY_FILTERS else tuple(Effect)
    return Question(unit.fires or "it acts", never, detectors, effects)


def option_questions(rules: Rules) -> dict[str, Question]:
    """The question of each option analysed. An option a rule of the profile's own
    replaces never acts: that rule decides its step."""
    replaced = model(rules).replaced
    questions = {name: QUESTIONS.get(name) or unit_question(OPTIONS[name]) for name in ANALYSED}
    for name, rule in replaced.items():
        proof = f"the profile's own rule {rule} decides in its place"
        never = partial(_replaced, proof)
        questions[name] = replace(questions[name], never=never, detectors=w.Detectors())
    return questions


def _replaced(proof: str, rules: Rules, model: CountModel) -> str:
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
            "min_stock_left": m.min_stock,
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
        proof = question.never(rules, model)
        if proof is not None:
            return Finding(Verdict.NEVER, proof, None, question.effects)
    if found is not None:
        at = f"at trick {found.trick} of" if found.trick else "in"
        return Finding(
            Verdict.CAN, f"{question.acts}, {at} the witness hand", found, question.effects
        )
    if not model.complete:
        why = f"the counts reach more than {TRICK_BUDGET:,} states"
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
        if not model.complete or q.never(rules, model) is None
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
    counts = (
        "the counts can repeat"
        if model.complete
        else f"the counts reach more than {TRICK_BUDGET:,} states"
    )
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
    if rules.match.kind == "hands":
        count = rules.match_count_for(model.setup.players)
        return Finding(Verdict.NEVER, f"a match is {count} hands, and every hand ends")
    possible = {c for c in model.winner_cards if scores_one(rules) or c > 0 or scored(rules)}
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
