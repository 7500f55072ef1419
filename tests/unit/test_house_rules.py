"""The rules of docs/rules.md, "Rules beyond the options", stated in profiles: their step functions
on hand-built positions, exactly as the section's table says."""

from __future__ import annotations

import ast
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.model.cards import Card, Suit
from rulesdsl.model.kinds import OptionError
from rulesdsl.model.language.rule import HouseRule, Step
from rulesdsl.model.rules import Rules
from rulesdsl.read.language.codegen import NO_END, NO_WINNER
from rulesdsl.read.profile import load

HEARTS, CLUBS = 2, 0


def card(text: str) -> int:
    """A card as the engine holds it: strength * 4 + suit (the standard deck, 2 lowest)."""
    parsed = Card.parse(text)
    return (parsed.rank - 2) * 4 + parsed.suit


def cards(text: str) -> list[int]:
    return sorted(card(t) for t in text.split())


@dataclass
class State:
    """The int state of a hand, as RULE_UNITS_DESIGN names it (only what rules read)."""

    players: int = 4
    hands: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    active: list[bool] = field(default_factory=lambda: [True] * 4)
    stock: list[int] = field(default_factory=list)
    trump: int = HEARTS
    trick: list[int] = field(default_factory=list)
    trick_number: int = 0  # tricks won, the current one included once it is won
    trick_seats: list[int] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=lambda: [0] * 4)
    trumps_broken: bool = False
    led: int = -1
    best: int = -1
    winner: int = -1


def play(s: State, seat: int, text: str) -> None:
    """A card played to the trick: the led suit and the best card follow it."""
    c = card(text)
    s.trick.append(c)
    if s.led < 0:
        s.led, s.best = c & 3, c
    elif ((c & 3) == (s.best & 3) and c > s.best) or (
        (c & 3) == s.trump and (s.best & 3) != s.trump
    ):
        s.best = c
    s.winner = seat if s.best == c else s.winner


def rule(name: str) -> HouseRule:
    (found,) = load(name).rules.house_rules
    return found


def steps(name: str) -> dict[Step, Any]:
    """The step functions of a shipped profile's one rule, under its deck."""
    rules = load(name).rules
    (found,) = rules.house_rules
    return found.steps_for(rules.rank_strength)


def allowed(name: str, step: Step, s: State, seat: int, before: list[int]) -> list[int]:
    """The cards the skeleton allows after the rule's filter: "if able", a filter that
    would leave no card does not apply."""
    kept = steps(name)[step](s, seat, list(before))
    return kept or list(before)


def texts(values: list[int]) -> set[str]:
    return {str(Card(v // 4 + 2, Suit(v & 3))) for v in values}


# must overtrump


def overtrump_position() -> State:
    s = State(hands=[[], [], cards("9H 3H 7D"), []])
    play(s, 0, "KC")
    s.winner = 0
    play(s, 1, "5H")
    s.winner = 1
    return s


def test_must_overtrump_refuses_a_trump_that_does_not_beat_the_highest_trump():
    s = overtrump_position()
    got = allowed("must-overtrump", Step.FOLLOW_FILTER, s, 2, s.hands[2])
    assert texts(got) == {"9H", "7D"}  # 3H refused; the non-trump stays allowed


def test_must_overtrump_does_not_bind_a_player_without_a_higher_trump():
    s = overtrump_position()
    s.hands[2] = cards("3H 7D")
    assert texts(allowed("must-overtrump", Step.FOLLOW_FILTER, s, 2, s.hands[2])) == {"3H", "7D"}


def test_must_overtrump_counts_only_the_trumps_the_other_rules_allow():
    s = overtrump_position()
    # The other rules allow 3H and 7D only (not 9H): no allowed trump can beat 5H.
    got = allowed("must-overtrump", Step.FOLLOW_FILTER, s, 2, cards("3H 7D"))
    assert texts(got) == {"3H", "7D"}


def test_must_overtrump_is_silent_until_a_trump_is_played():
    s = State(hands=[[], cards("9H 3H 7D"), [], []])
    play(s, 0, "KC")
    assert texts(allowed("must-overtrump", Step.FOLLOW_FILTER, s, 1, s.hands[1])) == {
        "9H",
        "3H",
        "7D",
    }


def test_must_overtrump_acts_when_following_only():
    assert rule("must-overtrump").step_names == (Step.FOLLOW_FILTER,)


# trumps broken


def test_trumps_broken_refuses_a_trump_lead_until_a_trump_was_played():
    s = State(hands=[cards("5H 7D"), [], [], []], trick_number=3)
    assert texts(allowed("trumps-broken", Step.LEAD_FILTER, s, 0, s.hands[0])) == {"7D"}
    s.trumps_broken = True
    assert texts(allowed("trumps-broken", Step.LEAD_FILTER, s, 0, s.hands[0])) == {"5H", "7D"}


def test_trumps_broken_lets_a_leader_with_only_trumps_lead_one():
    s = State(hands=[cards("5H AH"), [], [], []], trick_number=3)
    assert texts(allowed("trumps-broken", Step.LEAD_FILTER, s, 0, s.hands[0])) == {"5H", "AH"}


# no trump on the first lead


def test_no_trump_first_lead_refuses_a_trump_on_the_first_lead_only():
    s = State(hands=[cards("5H 7D 9C"), [], [], []])
    assert texts(allowed("no-trump-first-lead", Step.LEAD_FILTER, s, 0, s.hands[0])) == {
        "7D",
        "9C",
    }
    s.trick_number = 1
    assert len(allowed("no-trump-first-lead", Step.LEAD_FILTER, s, 0, s.hands[0])) == 3


def test_no_trump_first_lead_lets_a_leader_with_only_trumps_lead_one():
    s = State(hands=[cards("5H"), [], [], []])
    assert texts(allowed("no-trump-first-lead", Step.LEAD_FILTER, s, 0, s.hands[0])) == {"5H"}


# trump wins draw two


@pytest.mark.parametrize(
    ("played", "drawn"), [(("KC", "5H", "AC"), 2), (("KC", "3C", "AC"), 1), (("5H", "9H"), 2)]
)
def test_trump_wins_draw_two(played, drawn):
    s = State()
    for seat, text in enumerate(played):
        play(s, seat, text)
    assert steps("trump-wins-draw-two")[Step.DRAW_COUNT](s, s.winner) == drawn


def test_trump_wins_draw_two_draws_one_without_trumps():
    s = State(trump=-1)
    for seat, text in enumerate(("KS", "AS")):
        play(s, seat, text)
    assert steps("trump-wins-draw-two")[Step.DRAW_COUNT](s, s.winner) == 1


# points for tricks


def test_points_for_tricks_scores_the_tricks_the_hand_winner_won():
    s = State(tricks_won=[1, 4, 0, 2])
    score = steps("points-for-tricks")[Step.SCORE]
    assert score(s, 1) == 4
    assert score(s, 2) == 0


# a time limit


def test_time_limit_does_not_end_a_hand_before_the_end_of_trick_8():
    # At the end of a trick the engine has counted it: trick 7 is over.
    s = State(hands=[cards("2C 3C"), cards("4C"), [], []], trick_number=7)
    assert steps("time-limit")[Step.END_CHECK](s) == NO_END


def test_time_limit_ends_the_hand_at_trick_8_for_the_most_cards():
    s = State(hands=[cards("2C 3C"), cards("4C 5C 6C"), cards("7C"), []], trick_number=8)
    assert steps("time-limit")[Step.END_CHECK](s) == 1


def test_time_limit_gives_no_winner_when_several_tie_for_the_most():
    s = State(hands=[cards("2C 3C 8D"), cards("4C 5C 6C"), cards("7C"), []], trick_number=8)
    assert steps("time-limit")[Step.END_CHECK](s) == NO_WINNER


def test_time_limit_counts_only_active_players():
    hands = [cards("2C 3C 8D"), cards("4C 5C 6C"), cards("7C"), []]
    s = State(hands=hands, active=[False, True, True, False], trick_number=8)
    assert steps("time-limit")[Step.END_CHECK](s) == 1


# the generated code keeps to the step-function conventions


@pytest.mark.parametrize(
    "name",
    [
        "must-overtrump",
        "trumps-broken",
        "no-trump-first-lead",
        "trump-wins-draw-two",
        "points-for-tricks",
        "time-limit",
    ],
)
def test_generated_step_functions_have_one_return_and_no_closures(name):
    tree = ast.parse(rule(name).source)
    (function,) = tree.body
    returns = [n for n in ast.walk(function) if isinstance(n, ast.Return)]
    assert len(returns) == 1 and function.body[-1] is returns[0]
    nested = (ast.Lambda, ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)
    assert not any(isinstance(n, nested) for n in ast.walk(function))


def test_a_condition_that_does_not_depend_on_the_card_is_computed_outside_its_loop():
    source = rule("must-overtrump").source
    loop = source.index("for card in allowed")
    assert source.index("for v1 in s.trick") < loop


def test_rules_with_profile_rules_pickle_and_still_play():
    rules = load("time-limit").rules
    back = pickle.loads(pickle.dumps(rules))
    assert back == rules
    s = State(hands=[cards("2C 3C"), cards("4C"), [], []], trick_number=8)
    assert back.house_rules[0].steps_for(back.rank_strength)[Step.END_CHECK](s) == 0


def test_a_version_hashes_as_its_fields_and_pickles_without_its_hash():
    """The hash is computed once and kept (the analyses' caches key by rules), but never
    carried to another process, whose hashes of the same text differ."""
    rules = load("time-limit").rules
    fields = tuple(getattr(rules, name) for name in rules.__dataclass_fields__)
    assert hash(rules) == hash(fields) == hash(load("time-limit").rules)
    back = pickle.loads(pickle.dumps(rules))
    assert "_hash" not in back.__dict__
    assert back == rules and hash(back) == hash(rules)
    assert hash(rules.with_options({"players": "3..5"})) != hash(rules)


def test_rules_refuse_anything_but_profile_rules_as_house_rules():
    with pytest.raises(OptionError):
        Rules(house_rules=("must-overtrump",))


def test_the_engine_deals_and_plays_rules_a_profile_states():
    from rulesdsl.play import Hand

    hand = Hand.deal(load("trumps-broken").rules, players=4, dealer=0, seed=1)
    while not hand.is_over:
        hand.play(hand.legal_moves()[0])
    assert hand.outcome is not None


def test_a_step_function_gives_its_source_to_inspect_for_the_fast_path_to_inline():
    import inspect

    found = rule("time-limit")
    assert inspect.getsource(steps("time-limit")[Step.END_CHECK]) == found.source


# any well-typed rule runs on any position, never raising, in bounded time

INT_ATOMS = ["players", "stock.size", "trick.number", "trick.size", "me.cards", "me.tricks", "2"]
BOOL_ATOMS = [
    "card.trump",
    "card.beats_best",
    "hand.trump_played",
    "trick.has_trump",
    "card.suit == led",
    "card.suit != trump",
    "me.active",
    "any(c in allowed: c.trump and c.beats_best)",
    "all(c in held: c.suit == led)",
    "most(p in active: p.cards) == me",
    "least(p in seats: p.tricks) != none",
    "any(c in allowed where c.suit != led: c.beats_best)",
    "all(c in held where c.trump: c.strength > card.strength)",
    "most(p in active where p != me: p.cards) == trick.winner",
    "least(p in seats where p.active and p.cards > me.cards: p.tricks) != none",
]


def expressions(atoms: list[str], combine) -> st.SearchStrategy[str]:
    return st.recursive(st.sampled_from(atoms), combine, max_leaves=6)


def int_parts(inner):
    return st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*"]), inner).map(" ".join),
        st.tuples(inner, inner).map(lambda ab: f"max({ab[0]}, {ab[1]})"),
        inner.map(lambda x: f"count(c in held: c.strength > {x})"),
        inner.map(lambda x: f"sum(c in held where c.strength > {x}: c.strength)"),
        st.tuples(inner, inner).map(
            lambda ab: f"max(p in seats where p.cards < {ab[0]}: p.tricks + {ab[1]})"
        ),
        inner.map(lambda x: f"min(c in allowed where c.suit == card.suit: c.strength - {x})"),
    )


INTS = expressions(INT_ATOMS, int_parts)


def bool_parts(inner):
    return st.one_of(
        st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(lambda t: f"({' '.join(t)})"),
        inner.map(lambda x: f"not {x}"),
        st.tuples(INTS, st.sampled_from(["<", ">=", "=="]), INTS).map(" ".join),
    )


BOOLS = expressions(BOOL_ATOMS, bool_parts)


@st.composite
def positions(draw) -> tuple[State, int]:
    players = draw(st.integers(3, 6))
    deck = draw(st.permutations(range(52)))
    size = draw(st.integers(0, 5))
    hands = [sorted(deck[i * size : (i + 1) * size]) for i in range(players)]
    s = State(
        players=players,
        hands=hands,
        active=[bool(h) or draw(st.booleans()) for h in hands],
        stock=list(deck[players * size : players * size + draw(st.integers(0, 10))]),
        trump=draw(st.sampled_from([-1, 0, 1, 2, 3])),
        trick_number=draw(st.integers(0, 12)),
        tricks_won=[draw(st.integers(0, 4)) for _ in range(players)],
        trumps_broken=draw(st.booleans()),
    )
    for seat, c in enumerate(deck[-draw(st.integers(0, players - 1)) or 52 :]):
        play(s, seat, str(Card(c // 4 + 2, Suit(c & 3))))
    return s, draw(st.integers(0, players - 1))


@settings(max_examples=examples(150), deadline=None)
@given(BOOLS, positions())
def test_any_play_filter_keeps_a_subset_of_the_allowed_cards(condition, position):
    from rulesdsl.model.text import Pos
    from rulesdsl.read.diagnostics import Located
    from rulesdsl.read.language.compile import compile_rule
    from rulesdsl.read.syntax.document import Entry, RuleBlock

    text = f"follow if {condition}" if position[0].trick else f"card if {condition}"
    block = RuleBlock("r", Pos(1, 1), (Entry("refuse", text, Pos(2, 1), Pos(2, 8)),), 3)
    built, found = compile_rule(block, Located("x", ""))
    # Refused as it should be: `led` at a lead may be none, and a letter bound twice.
    assume(not any(d.code == "rule-context" or "already a name" in d.message for d in found))
    assert built is not None, [d.message for d in found]
    s, seat = position
    allowed = s.hands[seat]
    kept = built.steps_for(Rules().rank_strength)[built.step_names[0]](s, seat, list(allowed))
    assert set(kept) <= set(allowed)


def evaluate(node, env: dict):
    """The checked tree evaluated directly, node by node: a second reading of a rule, to
    hold the generated code (its loops, and what it computes outside them) to."""
    from rulesdsl.model.language import tree as ir
    from rulesdsl.model.language.vocab import Aggregate

    if isinstance(node, ir.Number):
        return node.value
    if isinstance(node, ir.Leaf):
        return eval(node.code, {"len": len}, env)
    if isinstance(node, ir.Var):
        return env["card"] if node.index == ir.CARD_VAR else env[f"v{node.index}"]
    if isinstance(node, ir.Attr):
        return eval(
            node.code.replace("{x}", "x"), {"len": len}, {**env, "x": evaluate(node.base, env)}
        )
    if isinstance(node, ir.Unary):
        value = evaluate(node.operand, env)
        return (not value) if node.op == "not" else -value
    if isinstance(node, ir.Binary):
        a, b = evaluate(node.left, env), evaluate(node.right, env)
        return eval(f"a {node.op} b", {}, {"a": a, "b": b})
    if isinstance(node, ir.Ternary):
        chosen = node.then if evaluate(node.condition, env) else node.otherwise
        return evaluate(chosen, env)
    if isinstance(node, ir.Call):
        return {"min": min, "max": max}[node.fn](evaluate(a, env) for a in node.args)
    assert isinstance(node, ir.Over)
    items = list(eval(node.over.iterate, {"range": range}, env))
    if node.over.keep:
        items = [v for v in items if eval(node.over.keep.replace("{v}", "v"), {}, {**env, "v": v})]
    if node.where is not None:  # only the members the filter keeps
        items = [v for v in items if evaluate(node.where, {**env, f"v{node.var}": v})]
    values = [(v, evaluate(node.body, {**env, f"v{node.var}": v})) for v in items]
    kind = node.kind
    if kind in (Aggregate.ANY, Aggregate.ALL):
        return (any if kind == Aggregate.ANY else all)(x for _, x in values)
    if kind in (Aggregate.COUNT, Aggregate.SUM):
        return sum(int(x) for _, x in values)
    if kind in (Aggregate.MAX, Aggregate.MIN):
        return (max if kind == Aggregate.MAX else min)((x for _, x in values), default=0)
    best = (max if kind == Aggregate.MOST else min)((x for _, x in values), default=None)
    top = [v for v, x in values if x == best]
    return top[0] if len(top) == 1 else -1


@settings(max_examples=examples(150), deadline=None)
@given(BOOLS, positions())
def test_a_generated_filter_refuses_exactly_the_cards_its_tree_refuses(condition, position):
    from rulesdsl.model.language.rule import compiled
    from rulesdsl.model.language.vocab import Type, Where
    from rulesdsl.model.text import Pos
    from rulesdsl.read.language import codegen
    from rulesdsl.read.language.checker import Checker, ClauseError

    checker = Checker(Pos(1, 1), Where.FOLLOW)
    try:
        tree = checker.expect(checker.parse(condition, "expr"), Type.BOOL)
    except ClauseError:
        assume(False)
    s, seat = position
    allowed = list(s.hands[seat])
    env = {"s": s, "seat": seat, "allowed": allowed}
    expected = [c for c in allowed if not evaluate(tree, {**env, "card": c})]
    generated = compiled(codegen.filter_source("f", tree), "f")
    assert generated(s, seat, allowed) == expected


def test_the_engine_finds_the_rules_of_each_step_in_the_order_they_apply(tmp_path):
    from rulesdsl.model.contributions import model
    from rulesdsl.read.profile import clear_cache, load_file

    path = tmp_path / "p.rules"
    path.write_text(
        'profile "p" extends "must-overtrump" {\n'
        "    rule a {\n        refuse card if card.trump\n    }\n"
        "    rule b {\n        refuse lead if card.strength > 8\n    }\n}\n"
    )
    clear_cache()
    found = model(load_file(path).rules)

    def stated(step: Step) -> list[str]:
        return [c.rule for c in found.at(step) if c.stated]

    assert stated(Step.FOLLOW_FILTER) == ["must-overtrump", "a"]
    assert stated(Step.LEAD_FILTER) == ["a", "b"]
    assert stated(Step.DRAW_COUNT) == []
