"""The native path's lists of cards as arrays (`rulesdsl.play.native.card_arrays.py`) and its card
filters as one AND (`masks.card_filter`): each means what the Python it stands for means."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba", reason="numba is not installed: pip install 'rulesdsl[fast]'")

import numpy as np

from rulesdsl.model.state import ROTATIONS
from rulesdsl.play.engine.fast import table_for
from rulesdsl.play.engine.inline import specialised_tree
from rulesdsl.play.native import driver, runtime
from rulesdsl.play.native.card_arrays import StackError, seat_arrays, stacked
from rulesdsl.play.native.card_masks import card_filter, masked
from rulesdsl.play.native.kernel import hand_function
from rulesdsl.play.native.lower import KEPT, RowArrays, lower
from rulesdsl.read.profile import load, shipped_names

CAPACITY = 12

operations = st.lists(
    st.one_of(
        st.tuples(st.just("append"), st.integers(0, 62)),
        st.tuples(st.just("pop"), st.just(0)),
        st.tuples(st.just("reverse"), st.just(0)),
        st.tuples(st.just("extend"), st.integers(0, 3)),
        st.tuples(st.just("item"), st.integers(-6, 6)),
        st.tuples(st.just("has"), st.integers(0, 62)),
        st.tuples(st.just("clear"), st.just(0)),
    ),
    max_size=30,
)


@settings(deadline=None)
@given(st.lists(st.integers(0, 62), max_size=8), st.integers(-9, 9), st.integers(-9, 9), operations)
def test_a_list_of_cards_as_an_array_does_what_the_list_does(cards, start, stop, steps):
    expected = cards[start:stop]
    stack = runtime.stack_from(np.array(cards, np.int64), start, stop, CAPACITY)
    grown = runtime.stack_new(1)
    for card in expected:
        grown = runtime.stack_grown_append(grown, card)
    for name, value in steps:
        if name == "append" and len(expected) < CAPACITY:
            expected.append(value)
            runtime.stack_append(stack, value)
            grown = runtime.stack_grown_append(grown, value)
        elif name == "pop" and expected:
            assert runtime.stack_pop(stack) == expected.pop() == runtime.stack_pop(grown)
        elif name == "reverse":
            expected.reverse()
            runtime.stack_reverse(stack)
            runtime.stack_reverse(grown)
        elif name == "extend" and len(expected) + value <= CAPACITY:
            more = list(range(value))
            expected.extend(more)
            runtime.stack_extend(stack, np.array(more, np.int64))
            grown = runtime.stack_grown_extend(grown, np.array(more, np.int64))
        elif name == "item" and -len(expected) <= value < len(expected):
            assert runtime.stack_item(stack, value) == expected[value]
        elif name == "has":
            assert runtime.stack_has(stack, value) == (value in expected)
        elif name == "clear":
            expected.clear()
            runtime.stack_clear(stack)
            runtime.stack_clear(grown)
        assert runtime.stack_len(stack) == len(expected)
        assert runtime.stack_view(stack).tolist() == expected == runtime.stack_view(grown).tolist()


def test_a_list_of_cards_never_holds_more_than_the_deck():
    stack = runtime.stack_from(np.arange(3, dtype=np.int64), 0, 3, 3)
    with pytest.raises(IndexError):
        runtime.stack_append(stack, 9)


@settings(deadline=None)
@given(st.lists(st.integers(-1, 62), max_size=CAPACITY + 3))
def test_the_cards_kept_from_a_padded_row_are_those_the_comprehension_keeps(row):
    kept = [c for c in row if c >= 0]
    if len(kept) > CAPACITY:
        with pytest.raises(IndexError):
            runtime.stack_kept(np.array(row, np.int64), CAPACITY)
    else:
        stack = runtime.stack_kept(np.array(row, np.int64), CAPACITY)
        assert runtime.stack_view(stack).tolist() == kept


def lowered_text(function: str, capacity: int = 52) -> str:
    node = ast.parse(function).body[0]
    assert isinstance(node, ast.FunctionDef)
    return ast.unparse(stacked(node, capacity))


def test_a_stock_cut_from_the_deck_and_the_lists_it_meets_become_arrays():
    text = lowered_text(
        "def f(deck):\n"
        "    trump, stock = (deck[15] & 3, deck[16:])\n"
        "    stock.reverse()\n"
        "    aside = [0][:0]\n"
        "    trick = [0][:0]\n"
        "    while truth(stock):\n"
        "        trick.append(stock.pop())\n"
        "        aside.extend(trick)\n"
        "        trick = [0][:0]\n"
        "        if not truth(stock):\n"
        "            cards = aside\n"
        "            stock = cards\n"
        "            aside = [0][:0]\n"
        "    return len(stock)\n"
    )
    assert "stock = stack_from(deck, 16, len(deck), 52)" in text
    assert "stack_clear(trick)" in text  # no other local names the trick
    assert "aside = stack_new(52)" in text.split("stock = cards")[1]  # `cards` names it
    assert "[0][:0]" not in text and ".pop()" not in text and "return stack_len(stock)" in text


def test_a_stock_kept_from_a_padded_row_becomes_an_array():
    text = lowered_text(
        "def f(row):\n"
        "    stock = [c for c in row if c >= 0]\n"
        "    left = stock\n"
        "    while truth(left):\n"
        "        left.pop()\n"
        "    return len(stock)\n"
    )
    assert "stock = stack_kept(row, 52)" in text and "return stack_len(stock)" in text


@pytest.mark.parametrize(
    "made",
    ["[c for c in row if c > 0]", "[c + 1 for c in row if c >= 0]", "[c for c in row]"],
)
def test_a_list_made_from_a_row_in_another_way_stays_a_list(made):
    with pytest.raises(StackError):
        lowered_text(f"def f(row):\n    stock = {made}\n    stock.pop()\n")


CHANGED_IN_A_LOOP = "for c in stock:\n        stock.pop()"
USES = ["stock.sort()", "hands[0] = stock", "return stock", "stock[0] = 1", "stock = hands"]


@pytest.mark.parametrize("use", [*USES, CHANGED_IN_A_LOOP])
def test_a_list_of_cards_used_in_another_way_stays_a_list(use):
    with pytest.raises(StackError):
        lowered_text(f"def f(deck, hands):\n    stock = deck[16:]\n    {use}\n")


def test_a_list_of_cards_that_other_locals_name_grows_only_when_cut_from_the_deck():
    with pytest.raises(StackError):
        lowered_text("def f():\n    a = [0][:0]\n    b = a\n    b.append(1)\n")
    text = lowered_text("def f():\n    a = [0][:0]\n    a.append(1)\n    return len(a)\n")
    assert "a = stack_grown_append(a, 1)" in text


@pytest.mark.parametrize("name", shipped_names())
def test_every_shipped_profile_keeps_its_stock_in_an_array(name):
    """The pass takes every shipped profile's stock (else it plays on lists)."""
    lowered = hand_function(load(name).rules, 4, ("random",) * 4, "counted", details=False)
    text = ast.unparse(lowered.function)
    assert "stack_from(deck" in text and "deck = [c for c in deck]" not in text


def joined(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Tests joined by `and`, `or` and `not`."""
    pairs = st.tuples(inner, inner)
    return st.one_of(
        pairs.map(lambda ab: f"({ab[0]} and {ab[1]})"),
        pairs.map(lambda ab: f"({ab[0]} or {ab[1]})"),
        inner.map(lambda a: f"(not {a})"),
    )


LEAVES = ["c & 3 == led", "c & 3 != trump", "trump == c & 3", "c & 3 == 3", "c > best"]
LEAVES += ["best <= c", "c < best", "c >= best - 1", "best < 0", "truth(flag)"]
card_tests = st.recursive(st.sampled_from(LEAVES), joined, max_leaves=5)


@settings(deadline=None)
@given(
    card_tests,
    st.integers(0, (1 << 62) - 1),
    st.integers(-1, 3),
    st.integers(-1, 3),
    st.integers(-1, 62),
    st.booleans(),
)
def test_a_card_filter_keeps_the_cards_the_comprehension_keeps(test, hand, led, trump, best, flag):
    mask = card_filter(ast.parse(test, mode="eval").body, "c")
    assert mask is not None
    names = {"led": led, "trump": trump, "best": best, "flag": flag, "truth": bool}
    helpers = {"suit_cards": runtime.suit_cards, "cards_above": runtime.cards_above}
    got = eval(ast.unparse(mask), {**names, **helpers, "all_cards": runtime.all_cards})
    kept = [c for c in range(62) if hand >> c & 1 and eval(test, {"c": c, **names})]
    assert hand & got == sum(1 << c for c in kept)


@pytest.mark.parametrize("test", ["c & 3 == c", "c * 2 > best", "f(c)", "next_uniform(rng) < 0.5"])
def test_a_filter_that_asks_more_of_the_card_walks_the_cards(test):
    assert card_filter(ast.parse(test, mode="eval").body, "c") is None


@pytest.mark.parametrize("name", ["equal-hands", "must-overtrump"])
def test_no_shipped_hand_walks_the_cards_of_a_set(name):
    """The card filters take the tests of the shipped profiles' rules, their own too."""
    lowered = hand_function(load(name).rules, 4, ("random",) * 4, "counted", details=False)
    assert "lowest(" not in ast.unparse(lowered.function)


def test_the_led_suit_held_is_one_and_in_the_default_hand():
    table = table_for(load("equal-hands").rules, 4, ("random",) * 4)
    fixed = {"trace": False, "players": 4}
    tree = specialised_tree(driver.play_native, {"t": table, "details": False}, fixed, KEPT)
    hand = masked(lower(tree.module.body[0], tree.objects, "counted").function)
    assert "& suit_cards(" in ast.unparse(hand)


@given(st.integers(0, 3), st.lists(st.booleans(), min_size=4, max_size=4))
def test_a_row_of_seats_is_filled_with_the_seats_the_comprehension_makes(leader, active):
    text = (
        "def f(leader, active):\n"
        "    seats = ROWS[leader]\n"
        "    if not all(active):\n"
        "        seats = [s % 4 for s in range(leader, leader + 4) if active[s % 4]]\n"
        "    return seats\n"
    )
    function = ast.parse(text).body[0]
    assert isinstance(function, ast.FunctionDef)
    RowArrays(function, {"ROWS": ROTATIONS[4]})
    lowered = ast.unparse(ast.fix_missing_locations(function))
    assert "seats_items = np.empty(4, np.int64)" in lowered
    scope = {"np": np, "ROWS": np.array(ROTATIONS[4], np.int64)}
    exec(lowered, scope)
    expected = [s % 4 for s in range(leader, leader + 4) if active[s % 4]]
    assert list(scope["f"](leader, active)) == expected


@pytest.mark.parametrize(
    ("use", "array"),
    [("active[1] = False", True), ("active.append(True)", False), ("f(active)", False)],
)
def test_a_list_of_one_item_per_seat_becomes_an_array_only_where_nothing_needs_a_list(use, array):
    made = "def g():\n    active = [True] * 4\n    seen = active\n"
    text = f"{made}    {use}\n    return seen.count(True)\n"
    function = ast.parse(text).body[0]
    assert isinstance(function, ast.FunctionDef)
    seat_arrays(function)
    lowered = ast.unparse(ast.fix_missing_locations(function))
    assert ("np.full(4, True)" in lowered and "seat_count(seen, True)" in lowered) is array


SEATS_TESTED = (
    "def g(out_seats):\n"
    "    seat = 9\n"
    "    active = [out_seats[seat] == 0 for seat in range(4)]\n"
    "    seen = active\n"
    "    if seen.count(True) > 0:\n"
    "        seen[seen.index(True)] = False\n"
    "    return [bool(a) for a in active], seen.count(False), seat\n"
)


@settings(deadline=None)
@given(st.lists(st.integers(0, 1), min_size=4, max_size=4))
def test_a_list_of_seats_made_by_a_test_for_each_seat_becomes_an_array_that_acts_alike(outs):
    function = ast.parse(SEATS_TESTED).body[0]
    assert isinstance(function, ast.FunctionDef)
    seat_arrays(function)
    lowered = ast.unparse(ast.fix_missing_locations(function))
    assert "active = np.empty(4, np.int64)" in lowered and "seat_count(seen, True)" in lowered
    scope = {"np": np, "seat_count": runtime.seat_count, "seat_index": runtime.seat_index}
    exec(lowered, scope)
    expected: dict = {}
    exec(SEATS_TESTED, expected)
    assert scope["g"](np.array(outs, np.int64)) == expected["g"](outs)  # `seat` is still 9


@pytest.mark.parametrize(
    "made", ["[s + 1 for s in range(4)]", "[s == 0 for s in range(n)]", "[s == 0 for s in x]"]
)
def test_a_list_of_seats_made_in_another_way_stays_a_list(made):
    function = ast.parse(f"def g(x, n):\n    items = {made}\n    return items.count(1)\n").body[0]
    assert isinstance(function, ast.FunctionDef)
    seat_arrays(function)
    lowered = ast.unparse(ast.fix_missing_locations(function))
    assert "np." not in lowered and "items.count(1)" in lowered


@settings(deadline=None)
@given(st.lists(st.integers(-1, 2), min_size=1, max_size=8), st.integers(-1, 2))
def test_a_list_of_one_item_per_seat_counts_and_finds_as_the_list_does(items, value):
    array = np.array(items, np.int64)
    assert runtime.seat_count(array, value) == items.count(value)
    if value in items:
        assert runtime.seat_index(array, value) == items.index(value)
