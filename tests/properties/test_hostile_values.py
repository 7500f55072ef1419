"""Hostile values: an integer expression (hand_size, a match's count) drawn at and beyond the
edges of its range (big constants, long products, deep nesting, min and max, negatives),
in either syntax and on the command line, is read or refused with a located message in the
user's terms: never a Python repr, never a traceback."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.model.language.rule import HouseRule
from rulesdsl.model.units.base import MAX_VALUE
from rulesdsl.model.units.match import HAND_LIMIT, MOST_POINTS
from rulesdsl.read.diagnostics import Located, render
from rulesdsl.read.language.compile import compile_rule
from rulesdsl.read.profile import load_file
from rulesdsl.read.syntax.dsl import read_dsl
from rulesdsl.reason.analysis import stated
from rulesdsl.service import UsageProblem
from rulesdsl.surfaces.cli.common import build_rules
from rulesdsl.surfaces.main import main

PLAYERS = range(3, 7)  # equal-hands' players, which the drawn profiles keep
DECK = 52
# Each option that takes an expression: how its value is written around the expression,
# and the range the expression's value must stay in.
OPTIONS = {
    "hand_size": ("{}", 1, DECK),
    "match target": ("target {}", 1, MOST_POINTS),
    "match hands": ("hands {}", 1, HAND_LIMIT),
}
LEAVES = st.one_of(
    st.just("players"),
    st.integers(0, 60).map(str),
    st.sampled_from([10**6, 10**9, 10**15, 10**16, 10**40, 10**99]).map(str),
)


def _joined(parts: tuple[str, str, str]) -> str:
    left, op, right = parts
    return f"{left} {op} {right}"


def _call(parts: tuple[str, list[str]]) -> str:
    name, args = parts
    return f"{name}({', '.join(args)})"


EXPRS = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from("+-*"), inner).map(_joined),
        inner.map(lambda e: f"({e})"),
        inner.map(lambda e: f"-{e}"),
        st.tuples(st.sampled_from(["min", "max"]), st.lists(inner, min_size=2, max_size=3)).map(
            _call
        ),
    ),
    max_leaves=40,
)
DEEP = st.tuples(st.integers(1, 150), LEAVES).map(lambda t: "(" * t[0] + t[1] + ")" * t[0])
PRODUCTS = st.tuples(st.integers(1, 60), LEAVES).map(lambda t: "*".join([t[1]] * t[0]))
# Written spaced or tight: tight text is shorter than the text the value writes back.
TEXTS = st.tuples(st.one_of(EXPRS, DEEP, PRODUCTS), st.booleans()).map(
    lambda t: t[0].replace(" ", "") if t[1] else t[0]
)
FILES = itertools.count()


def value_at(text: str, players: int) -> int:
    """The expression's value by Python's own arithmetic: the grammar is Python's, there."""
    return eval(text, {"__builtins__": {}, "min": min, "max": max, "players": players})


def expected(option: str, text: str) -> str | None:
    """The error the value makes, at the first player count where it goes wrong: out of
    its range, or (a hand size) more cards than the deck holds for all, or all of them
    (equal-hands' last_draw_wins then has no stock to draw from)."""
    _, least, most = OPTIONS[option]
    for n in PLAYERS:
        value = value_at(text, n)
        if not least <= value <= most:
            return "expr-range"
        if option == "hand_size" and n * value >= DECK:
            return "deal-too-large" if n * value > DECK else "empty-stock"
    return None


def profile_text(syntax: str, option: str, value: str) -> tuple[str, int, int]:
    """A profile setting the option to `value`, and the line and column the value is at."""
    key = option.split()[0]
    if syntax == "dsl":
        return f'profile "x" extends "equal-hands" {{\n    {key} {value}\n}}\n', 2, len(key) + 6
    written = value if value.isdigit() else json.dumps(value)  # a YAML integer, or a string
    return f"profile: x\nextends: equal-hands\n{key}: {written}\n", 3, len(key) + 3


def no_repr(text: str) -> bool:
    return "Expr(" not in text and "Traceback" not in text and "args=" not in text


@settings(
    max_examples=examples(250),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(option=st.sampled_from(list(OPTIONS)), text=TEXTS, syntax=st.sampled_from(["dsl", "yaml"]))
def test_an_expression_out_of_its_range_is_refused_where_it_is_written(
    tmp_path, option, text, syntax
):
    form, _, most = OPTIONS[option]
    value = form.format(text)
    source, line, column = profile_text(syntax, option, value)
    path = tmp_path / f"x{next(FILES)}.{'rules' if syntax == 'dsl' else 'yaml'}"
    path.write_text(source, encoding="utf-8")
    found = load_file(path).diagnostics
    errors = [d for d in found if d.is_error]
    assert all(no_repr(d.message + d.hint) for d in found)
    assert all((d.path, d.line) == (str(path), line) for d in errors)
    codes = {d.code for d in errors}
    if len(value) > MAX_VALUE:
        assert codes == {"bad-value"}
        return
    code = expected(option, text)
    assert codes == ({code} if code else set())
    if code == "expr-range":
        (said,) = [d for d in errors if d.code == code]
        assert said.column == column
        assert f"{option} " in said.message and " gives " in said.message
        assert f"1 to {most:,}" in said.message and len(said.message) < 250


@settings(max_examples=examples(250), deadline=None)
@given(option=st.sampled_from(list(OPTIONS)), text=TEXTS)
def test_an_expression_set_on_the_command_line_is_checked_as_in_a_file(option, text):
    form, least, most = OPTIONS[option]
    setting = f"{option.split()[0]}={form.format(text)}"
    try:
        rules = build_rules("equal-hands", [setting])
    except UsageProblem as problem:
        said = str(problem)
        assert said.startswith(f"--set {setting}")
        assert no_repr(said)
        if len(form.format(text)) <= MAX_VALUE:
            code = expected(option, text)
            assert code is not None
            assert (code == "expr-range") == (" gives " in said)
        return
    key = option.split()[0]
    for n in PLAYERS:
        count = rules.hand_size_for(n) if key == "hand_size" else rules.match_count_for(n)
        assert least <= count <= most


@pytest.mark.parametrize(
    "setting",
    [
        "hand_size=players*100000*100000",
        "hand_size=" + "players" + "*99" * 60,
        "hand_size=" + "(" * 90 + "0-players" + ")" * 90,
        "hand_size=min(players,-5)",
        "match=hands max(players, 10000)",
        "match=target " + "9" * 41,
        "match=hands " + "*".join(["players"] * 25),
    ],
)
def test_the_command_line_says_the_value_in_one_line(capsys, setting):
    code = main(["play", "--bots", "lowest", "--json", "--seed", "1", "--set", setting])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1
    assert err.startswith(f"rulesdsl: error: --set {setting[:40]}")
    assert no_repr(err) and len(err) < 1200


@pytest.mark.parametrize("syntax", ["dsl", "yaml"])
def test_validate_says_what_a_huge_hand_gives_in_words(tmp_path, capsys, syntax):
    source, line, column = profile_text(syntax, "hand_size", "players * 100000 * 100000")
    path = tmp_path / f"big.{'rules' if syntax == 'dsl' else 'yaml'}"
    path.write_text(source, encoding="utf-8")
    code, out = main(["validate", str(path)]), capsys.readouterr().out
    assert code == 1
    assert f"big.{path.suffix[1:]}:{line}:{column}: error[expr-range]" in out
    assert (
        "hand_size players * 100000 * 100000 gives 30,000,000,000 cards for 3 players; "
        "a hand holds 1 to 52 cards" in out
    )
    assert no_repr(render(load_file(Path(path)).diagnostics, "json"))


# --- the counts a profile's own rules state (docs/rules.md, "Rules beyond the options") ---

HOUSE_LEAVES = st.one_of(
    st.sampled_from(["players", "stock.size", "trick.number", "0 - 5", "999999999"]),
    st.integers(0, 120).map(str),
)
HOUSE_COUNTS = st.recursive(
    HOUSE_LEAVES,
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from("+-*"), inner).map(_joined),
        inner.map(lambda e: f"({e})"),
        st.tuples(st.sampled_from(["min", "max"]), st.lists(inner, min_size=2, max_size=3)).map(
            _call
        ),
    ),
    max_leaves=6,
)


def stated_count(kind: str, count: str) -> HouseRule | None:
    """The rule `rule r { <kind> <count> }` states, compiled without the profile around it;
    None where its numbers can leave the range a rule's numbers keep (an error at them)."""
    text = f'profile "x" {{\n    rule r {{\n        {kind} {count}\n    }}\n}}\n'
    (block,) = read_dsl("x.rules", text).rules
    rule, problems = compile_rule(block, Located("x.rules", text))
    if [p.code for p in problems] == ["rule-range"]:
        return None
    assert problems == [] and isinstance(rule, HouseRule)
    return rule


@settings(max_examples=examples(150), deadline=None)
@given(count=HOUSE_COUNTS, cards=st.sampled_from([52, 32, 8]))
def test_the_values_a_stated_draw_count_takes_are_those_the_engine_draws(count, cards):
    # The engine draws a count below 0 as 0, and at most the cards there are.
    rule = stated_count("draw", count)
    assume(rule is not None)
    values = stated.draw_counts(rule, cards)
    for taken in (values.of_kind, values.otherwise):
        assert taken, count
        assert all(0 <= n <= cards for n in taken)
        assert list(taken) == list(range(taken[0], taken[-1] + 1))


@pytest.mark.parametrize("number", [-5, 0, 1, 51, 52, 53, 100, 999_999_999])
def test_a_stated_draw_of_a_fixed_count_takes_it_held_to_the_cards_there_are(number):
    count = f"0 - {-number}" if number < 0 else str(number)
    values = stated.draw_counts(stated_count("draw", count), 52)
    assert values.all == (min(max(number, 0), 52),)


@pytest.mark.parametrize("count", ["draw 100", "draw 0 - 5", "score 0 - 5", "score 999999999"])
def test_validate_reads_a_stated_count_beyond_its_edges(tmp_path, count):
    text = f'profile "x" extends "equal-hands" {{\n    rule r {{\n        {count}\n    }}\n}}\n'
    path = tmp_path / "house.rules"
    path.write_text(text, encoding="utf-8")
    assert [d for d in load_file(path).diagnostics if d.is_error] == []
