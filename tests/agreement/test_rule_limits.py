"""The limits a stated rule keeps: every number within its stated span, so all engines
compute the same figures; bounded work for one decision; bounded code for a profile.

The spans are held against an evaluator of the checked tree written here (independent of
the code generator), on states of real hands; rules drawn at the edges of the spans play
the same hands on the reference engine, the fast path and the native path.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples
from support import fast_and_plain

from rulesdsl.model.language import tree as ir
from rulesdsl.model.language.bounds import (
    FILTER_LOOPS,
    NUMBER_LIMIT,
    WORK_LIMIT,
    cost,
    span,
    work,
)
from rulesdsl.model.language.vocab import Type, Where
from rulesdsl.model.rules import Rules
from rulesdsl.model.text import Pos
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.players.registry import make_bot
from rulesdsl.read.language.checker import ClauseError
from rulesdsl.read.language.compile import check_expression
from rulesdsl.read.profile import load_text
from rulesdsl.surfaces.main import cli

EDGES = (0, 1, 2, 7, 46340, 46341, 65536, 999999999)
"""Numbers at the edges: 46340² fits within ±2,147,483,647, 46341² does not."""

LEAVES = ("players", "stock.size", "trick.number", "trick.size", "card.strength", "me.cards")
SETS = ("held", "allowed", "played")


def numbers(depth: int) -> st.SearchStrategy[str]:
    """The text of a number a follower's filter may compute."""
    leaf = st.one_of(st.sampled_from(EDGES).map(str), st.sampled_from(LEAVES))
    if depth == 0:
        return leaf
    inner = numbers(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(inner, st.sampled_from("+-*"), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda x: f"(-{x})"),
        st.tuples(st.sampled_from(("min", "max")), inner, inner).map(
            lambda t: f"{t[0]}({t[1]}, {t[2]})"
        ),
        st.tuples(st.sampled_from(SETS), inner).map(
            lambda t: f"sum(c{depth} in {t[0]}: c{depth}.strength * {t[1]})"
        ),
        st.tuples(st.sampled_from(SETS), inner).map(
            lambda t: f"count(c{depth} in {t[0]}: c{depth}.strength < {t[1]})"
        ),
        st.tuples(st.sampled_from(SETS), inner, inner).map(
            lambda t: f"sum(c{depth} in {t[0]} where c{depth}.strength < {t[1]}: {t[2]})"
        ),
        st.tuples(st.sampled_from(("max", "min")), st.sampled_from(SETS), inner).map(
            lambda t: f"{t[0]}(c{depth} in {t[1]} where c{depth}.suit == led: {t[2]})"
        ),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} > {t[2]} else {t[2]})"),
    )


NUMBERS = numbers(3)


def checked(text: str) -> ir.Node | ClauseError:
    try:
        return check_expression(text, Pos(1, 1), Where.FOLLOW, Type.INT)
    except ClauseError as error:
        return error


# -- an evaluator of checked trees, on the int state ---------------------------------


class Evaluator:
    """Evaluates an int or bool tree where a follower decides on `card`, noting every
    number each node takes."""

    def __init__(self, s, seat: int, card: int, allowed: list[int]) -> None:
        self.s, self.seat, self.allowed = s, seat, allowed
        self.env: dict[int, int] = {ir.CARD_VAR: card}
        self.seen: list[tuple[ir.Node, int]] = []

    def value(self, node: ir.Node) -> int | bool:
        found = self._value(node)
        if node.type == Type.INT:
            self.seen.append((node, found))
        return found

    def _value(self, node: ir.Node):
        s = self.s
        if isinstance(node, ir.Number):
            return node.value
        if isinstance(node, ir.Var):
            return self.env[node.index]
        if isinstance(node, ir.Leaf):
            return eval(
                node.code, {"len": len}, {"s": s, "seat": self.seat, "allowed": self.allowed}
            )
        if isinstance(node, ir.Attr):
            base = self.value(node.base)
            return eval(node.code.replace("{x}", "x"), {"len": len}, {"s": s, "x": base})
        if isinstance(node, ir.Unary):
            inner = self.value(node.operand)
            return (not inner) if node.op == "not" else -inner
        if isinstance(node, ir.Binary):
            a, b = self.value(node.left), self.value(node.right)
            return {
                "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                "and": lambda: a and b, "or": lambda: a or b,
                "==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b,
                "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b,
            }[node.op]()  # fmt: skip
        if isinstance(node, ir.Ternary):
            return self.value(node.then if self.value(node.condition) else node.otherwise)
        if isinstance(node, ir.Call):
            values = [self.value(a) for a in node.args]
            return min(values) if node.fn == "min" else max(values)
        assert isinstance(node, ir.Over)
        elements = eval(
            node.over.iterate,
            {"range": range},
            {"s": s, "seat": self.seat, "allowed": self.allowed},
        )
        values = []
        for element in list(elements):
            self.env[node.var] = element
            if node.where is None or self.value(node.where):  # the members the filter keeps
                values.append(self.value(node.body))
        kind = node.kind.value
        if kind == "count":
            return sum(1 for v in values if v)
        if kind == "sum":
            return sum(values)
        return (max if kind == "max" else min)(values, default=0)


def follow_states(count: int) -> list:
    """(state, seat, allowed) at followers' moves of real hands, tables of 3 to 6."""
    found = []
    rng = random.Random(5)
    for hand_number in range(count):
        players = 3 + hand_number % 4
        hand = Hand.deal(Rules(), players, 0, seed=hand_number)
        bots = [make_bot("random", rng.randrange(1 << 30)) for _ in range(players)]
        while not hand.is_over:
            if hand.trick:
                legal = hand.legal_moves()
                found.append((hand.copy().s, hand.to_move, hand.codes.ints(legal)))
            hand.play(bots[hand.to_move].choose(hand, hand.legal_moves()))
    return found


STATES = follow_states(12)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(NUMBERS)
def test_every_number_an_accepted_rule_computes_lies_in_its_span(text):
    """An expression the checker accepts keeps every part within the span it states (and
    so within ±NUMBER_LIMIT); one it refuses has a part whose span leaves the range."""
    tree = checked(text)
    if isinstance(tree, ClauseError):
        problem = tree.problem
        assert problem.code in ("rule-range", "rule-size"), problem.message
        assert problem.pos.line == 1 and 1 <= problem.pos.column <= len(text)
        return
    for s, seat, allowed in STATES[::7]:
        for card in allowed[:2]:
            evaluator = Evaluator(s, seat, card, allowed)
            evaluator.value(tree)
            for node, value in evaluator.seen:
                low, high = span(node)
                assert low <= value <= high, (text, node, value)
                assert abs(value) <= NUMBER_LIMIT


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("46341 * 46341", 1),
        ("players * 999999999 * 3", 1),
        ("sum(c in held: c.strength * 999999999)", 16),
        ("1 + (-(46341 * 46341))", 8),
    ],
)
def test_a_number_that_can_leave_the_range_is_an_error_at_its_part(text, column):
    error = checked(text)
    assert isinstance(error, ClauseError) and error.problem.code == "rule-range"
    assert error.problem.pos.column == column
    assert "a rule's numbers stay within ±2,147,483,647" in error.problem.message


def assert_refused_beyond_two(depth: int, text: str) -> None:
    """The one-rule profile stating `text` is accepted at `depth` 1 or 2 (a pair of cards of
    one suit, say), and refused beyond, at its costliest aggregate, for the work limit."""
    profile = (
        f'profile "deep" extends "equal-hands" {{\n    rule deep {{\n        {text}\n    }}\n}}\n'
    )
    errors = [d for d in load_text(Path("/deep.rules"), profile).diagnostics if d.is_error]
    if depth <= 2:
        assert errors == []
    else:
        (error,) = errors
        assert error.code == "rule-size" and (error.line, error.column) == (3, 26)
        assert f"at most {WORK_LIMIT:,}" in error.message


@pytest.mark.parametrize("depth", range(1, 9))
def test_nested_aggregates_are_refused_where_one_decision_would_take_too_long(depth):
    """Aggregates over the player's cards nested `depth` deep, in a follower's filter:
    accepted while one decision stays within the work limit, refused at the costliest
    aggregate otherwise (the issue's eight-deep rule among them)."""
    body = f"c{depth - 1}.suit == led"
    for level in reversed(range(1, depth)):
        body = f"any(c{level} in held: c{level}.suit == c{level - 1}.suit and {body})"
    assert_refused_beyond_two(depth, f"refuse follow if any(c0 in held: {body})")


@pytest.mark.parametrize("depth", range(1, 9))
def test_aggregates_nested_in_filters_are_refused_as_those_nested_in_bodies_are(depth):
    """A filter is evaluated for every member, as the body is: aggregates nested in
    filters `depth` deep take as long to decide as those nested in bodies."""
    condition = f"c{depth - 1}.suit == led"
    for level in reversed(range(1, depth)):
        condition = f"any(c{level} in held where {condition}: c{level}.suit == c{level - 1}.suit)"
    assert_refused_beyond_two(
        depth, f"refuse follow if any(c0 in held where {condition}: c0.trump)"
    )


def test_a_filter_costs_for_every_member_as_the_body_does():
    plain = checked("count(c in held: c.strength > 3)")
    filtered = checked("count(c in held where c.suit == led and c.trump: c.strength > 3)")
    assert isinstance(filtered, ir.Over) and filtered.where is not None
    size = filtered.over.size
    assert cost(filtered) == cost(plain) + size * cost(filtered.where)
    loops = FILTER_LOOPS
    assert work(filtered, loops) == work(plain, loops) + size * cost(filtered.where)
    # An aggregate in the filter that reads no member is worked out once, outside the loop.
    hoisted = checked("count(c in held where count(d in played: d.trump) > 1: c.trump)")
    assert isinstance(hoisted, ir.Over) and isinstance(hoisted.where, ir.Binary)
    once = work(hoisted.where.left)
    assert work(hoisted) == 1 + size + once + size * (1 + 1 + cost(hoisted.body))


def errors_of_many(count: int) -> list:
    rule = (
        "    rule r{i} {{\n        refuse follow if card.trump and not card.beats_best and "
        "any(c in allowed: c.trump and c.beats_best) and stock.size > {i}\n    }}\n"
    )
    rules = "".join(rule.format(i=i) for i in range(count))
    text = f'profile "many" extends "equal-hands" {{\n{rules}}}\n'
    return [d for d in load_text(Path("/many.rules"), text).diagnostics if d.severity == "error"]


def test_a_profile_states_rules_only_up_to_its_compile_budget():
    assert errors_of_many(12) == []
    (error,) = errors_of_many(31)
    assert error.code == "too-many-rules" and "characters of code" in error.message
    (error,) = errors_of_many(33)
    assert "33 rules; 32 at most" in error.message


# -- rules at the edges play the same on every engine ------------------------------------


EDGE_RULES = """profile "edges" extends "equal-hands" {
    rule big-draw {
        draw min(stock.size * 46340, 2) if trick.won_by_trump else 1
    }
    rule wide-filter {
        refuse follow if card.strength * 46340 * 3500 > 999999999 and {many_held}
    }
    rule late-end {
        end when sum(p in active: p.cards * 4000000) > 60000000 and trick.number > 3
        winner most(p in active: p.cards * 41000000 - p.tricks * 1000000)
    }
    rule big-score {
        score min(hand.winner.tricks * 1000000, 999999999)
    }
}
""".replace("{many_held}", "sum(c in held: c.strength * 999999) > 20000000")


@pytest.fixture(scope="module")
def edges():
    profile = load_text(Path("/edges.rules"), EDGE_RULES)
    assert [d for d in profile.diagnostics if d.severity == "error"] == []
    return profile.rules


def test_rules_at_the_edges_play_the_same_on_the_reference_engine_and_the_fast_path(edges):
    assert all(a == b for a, b in fast_and_plain(edges, 40, 8))


def test_rules_at_the_edges_give_the_same_figures_native_and_pure(edges, tmp_path, monkeypatch):
    pytest.importorskip("numba", reason="numba is not installed: pip install 'rulesdsl[fast]'")
    from rulesdsl.play.kernel.compiled import compiled_profile

    compiled_profile(edges, 4, ("random",) * 4)  # the compiled kernel plays them: no fallback
    path = tmp_path / "edges.rules"
    path.write_text(EDGE_RULES)
    args = ["simulate", str(path), "--hands", "300", "--seed", "4", "--no-skill", "--json"]
    monkeypatch.setenv("RULESDSL_NATIVE", "0")
    pure = CliRunner().invoke(cli, [*args, "--workers", "1"])
    monkeypatch.setenv("RULESDSL_NATIVE", "1")
    native = CliRunner().invoke(cli, [*args, "--workers", "1"])
    assert pure.exit_code == native.exit_code == 0, native.output
    assert json.loads(native.output) == json.loads(pure.output)
