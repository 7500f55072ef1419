"""Every rule unit is declared once and acts: each value other than the default changes
how some deal plays, or, for a rule that acts only between hands, how some match goes."""

from __future__ import annotations

import dataclasses

import pytest

from rulesdsl.model.kinds import Choice, CountOrWord, DeckRanks, IntExpr, MatchKind, PlayerRange
from rulesdsl.model.result import EndReason
from rulesdsl.model.rules import COUNTED, OPTIONS, SECTIONS, UNITS, Rules, RulesError
from rulesdsl.model.units import Section, Step
from rulesdsl.model.units.registry import step_functions
from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.engine.inline import inlinable, source_of
from rulesdsl.play.engine.match import Match
from rulesdsl.play.players.registry import make_bot

# Values to try for the kinds whose values are not a short list of words.
SAMPLES = {
    PlayerRange: ["3", "5..6"],
    IntExpr: ["5", "players + 1"],
    CountOrWord: ["0", "2"],
    DeckRanks: ["A K Q J 10 9 8 7", "K Q J 10 9 8 7 6 5 4 3 2 A"],
    MatchKind: ["hands 2", "target 2"],
    Choice: [],
}


def other_values(unit) -> list[str]:
    words = [*unit.kind.words(), *SAMPLES[type(unit.kind)]]
    texts = [w for w in words if w not in ("target", "hands")]
    return [t for t in texts if unit.parse(t) != unit.default]


CASES = [(unit.name, text) for unit in UNITS for text in other_values(unit)]


def hand_story(rules: Rules, players: int, seed: int, bot: str) -> object:
    """Every event of one hand and its result, but for the points it scores (a score is
    between hands); or the refusal to deal it."""
    try:
        hand = Hand.deal(rules, players, seed % players, seed=seed)
    except RulesError as error:
        return str(error)
    play_hand(hand, [make_bot(bot, seed + seat) for seat in range(players)])
    return [e.to_dict() for e in hand.events], hand.outcome._replace(points=None)


def match_story(rules: Rules, players: int, seed: int) -> object:
    match = Match(rules, players, seed)
    while not match.over:
        hand = match.deal()
        play_hand(hand, [make_bot("lowest") for _ in range(players)])
        match.record(hand.outcome)
    return match.points, match.winners, match.hands_played


# Where to look: the default rules; a small deck dealt deep, where the stock runs out; and
# no drawing, where every hand empties in the same trick.
DEEP = {"deck": "A K Q J 10 9 8 7", "hand_size": "7", "players": "3..4"}
BASES = [{}, DEEP, {**DEEP, "draw": "0", "exhaustion": "play_out"}]
SEARCH = [
    (players, seed, bot) for players in (3, 4) for seed in range(12) for bot in ("lowest", "random")
]


def differs(name: str, text: str, base: dict[str, str]) -> bool:
    """Whether setting `name` to `text` over the rules `base` changes some game."""
    before = Rules().with_options(base)
    after = before.with_options({name: text})
    if after == before:
        return False
    if OPTIONS[name].between_hands:
        # It cannot change how a deal plays; it must change how a match goes.
        assert all(
            hand_story(before, n, seed, bot) == hand_story(after, n, seed, bot)
            for n, seed, bot in SEARCH[:6]
        )
        return any(
            match_story(before, n, seed) != match_story(after, n, seed) for n, seed, _ in SEARCH
        )
    return any(
        hand_story(before, n, seed, bot) != hand_story(after, n, seed, bot)
        for n, seed, bot in SEARCH
    )


@pytest.mark.parametrize(("name", "text"), CASES)
def test_every_value_of_every_rule_changes_some_game(name, text):
    assert any(differs(name, text, base) for base in BASES), f"{name} {text} changes no game"


@pytest.mark.parametrize("unit", UNITS, ids=lambda unit: unit.name)
def test_every_step_function_can_be_inlined(unit):
    """One `return`, at the end: the fast path inlines it into the specialised loop."""
    for text in [unit.default_text, *other_values(unit)]:
        for fn in step_functions(unit.plays(unit.parse(text)).values()):
            assert inlinable(source_of(fn)), fn.__qualname__


def test_rules_has_one_field_per_unit_in_registry_order():
    names = [f.name for f in dataclasses.fields(Rules)]
    assert names == [*(unit.name for unit in UNITS), "house_rules"]
    assert list(OPTIONS) == [unit.name for unit in UNITS]
    assert all(getattr(Rules(), unit.name) == unit.default for unit in UNITS)


def test_sections_and_steps_are_declared_for_every_unit():
    assert set(SECTIONS) == set(Section)
    assert all(unit.steps and unit.steps <= set(Step) for unit in UNITS)


@pytest.mark.parametrize("unit", UNITS, ids=lambda unit: unit.name)
def test_a_unit_contributes_steps_only_where_it_says_it_acts(unit):
    for text in [unit.default_text, *other_values(unit)]:
        value = unit.parse(text)
        assert set(unit.plays(value)) <= unit.steps


def test_choice_values_are_enums_compared_by_identity():
    rules = Rules().with_options({"follow": "suit_or_trump", "draw": "per_card_in_trick"})
    assert rules.follow is OPTIONS["follow"].parse("suit_or_trump")
    assert type(rules.follow).__name__ == "Follow"
    assert type(rules.draw).__name__ == "DrawWord"


def test_a_counted_rule_fires_in_some_hand_and_the_event_names_it():
    """Coverage counts exactly the rules that declare how they fire; every end of a hand is
    tagged with the rule that decided it."""
    chosen = {"opening_lead": "trump_if_able", "exhaustion": "most_tricks"}
    rules = Rules().with_options({**DEEP, **chosen})
    fired, ends = set(), set()
    for seed in range(40):
        hand = Hand.deal(rules, 4, seed % 4, seed=seed)
        play_hand(hand, [make_bot("random", seed + s) for s in range(4)])
        fired |= hand.outcome.fired
        ends |= {(e.reason, e.rule) for e in hand.events if e.kind == "hand_end"}
    assert fired <= set(COUNTED)
    assert {"opening_lead", "exhaustion", "follow", "draw"} <= fired
    assert (EndReason.MOST_TRICKS, "exhaustion") in ends
