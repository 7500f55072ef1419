"""The programs the rules a profile states compile to for the kernel (rulesdsl.play.kernel
.program): every word of the rules' language has a meaning on the kernel's state, an
aggregate is worked out where the generated Python works it out, and a rule beyond the
interpreter's bounds is refused, saying so."""

from __future__ import annotations

import inspect
import operator
import random
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.model.language.vocab import (
    ATTRIBUTES,
    CALLS,
    ELEMENTS,
    FUNCTIONS,
    NAMES,
    SUBJECTS,
    SUITS,
    Aggregate,
    Type,
)
from rulesdsl.model.language.vocab import SETS as NAMED_SETS
from rulesdsl.play.kernel import machine, program
from rulesdsl.play.kernel.machine import BEGIN, FOLDS, KEEP, RETURN
from rulesdsl.play.kernel.meanings import (
    ATTRIBUTE_CODES,
    ATTRIBUTES_MEANT,
    CARDS_EQUAL,
    CARDS_WHERE,
    LEAVES,
    ON_SETS,
    OPERATIONS,
    RESOLVED,
    SET_CODES,
    SETS,
    SHORT,
    cards_where,
    operate,
    set_of,
)
from rulesdsl.play.kernel.plan import NotNative, kernel_plan
from rulesdsl.play.kernel.state import State
from rulesdsl.read.language.checker import COMPARISONS, MAX_CLAUSE, MAX_DEPTH
from rulesdsl.read.profile import load_text


def stated(*rules: str) -> object:
    body = "\n".join(f"    rule r{k} {{ {rule} }}" for k, rule in enumerate(rules))
    profile = load_text(Path("/stated.rules"), f'profile "stated" {{\n{body}\n}}\n')
    assert profile.ok, [d.text() for d in profile.diagnostics]
    return profile.rules


def test_every_name_of_the_language_has_a_meaning_on_the_kernels_state():
    for name, word in NAMES.items():
        sets = word.type in ELEMENTS
        named = word.means or name in SUBJECTS or word.rank  # a rank is a number (PUSH)
        assert named or name in (SETS if sets else LEAVES), name
        assert (name in RESOLVED) == bool(word.resolved), name
    assert set(LEAVES) | set(SETS) <= set(NAMES)
    for one in NAMES.values():  # names of one code mean one thing
        same = [n for n, w in NAMES.items() if w.code == one.code and n in LEAVES]
        assert len({LEAVES[n] for n in same}) <= 1


def test_every_attribute_operation_and_aggregate_has_a_meaning_on_the_kernels_state():
    assert set(ATTRIBUTES_MEANT) == set(ATTRIBUTES)
    ops = {op for _, op in OPERATIONS} | set(SHORT)
    of_sets = {word for words in ON_SETS.values() for word in words}  # the kernel's own
    assert ops == {"not", "and", "or", "+", "-", "*", *COMPARISONS, *CALLS, *FUNCTIONS, *of_sets}
    folds = inspect.getsource(machine.fold_value)
    for kind in Aggregate:
        assert getattr(machine, kind.name) == FOLDS.index(kind)
        assert kind.name in folds
    assert KEEP == FOLDS.index("keep") == len(FOLDS) - 1


def test_the_interpreters_bounds_hold_any_rule_the_checker_reads():
    fewest = len("trick.has_trump")  # the shortest aggregate
    assert 2 * MAX_CLAUSE // fewest < machine.AGGREGATES
    assert MAX_CLAUSE // fewest < machine.BOUND
    assert machine.STACK > MAX_DEPTH


def code_of(rule: str, start: int = 0) -> list[tuple[int, ...]]:
    """The program of a profile's one rule, laid out from `start`."""
    rules = stated(rule)
    return program.program(rules.house_rules[0], start, rules.rank_strength)


def starts(code: list[tuple[int, ...]]) -> list[int]:
    """The folds of the aggregates of a program, in the order they begin."""
    return [i[2] for i in code if i[0] == BEGIN]


def test_an_aggregate_a_filter_reads_for_no_card_is_worked_out_once_before_the_cards():
    by_number = "card.strength * 2 > trick.number and count(c in held: c.strength * 2 > 9) > 2"
    assert starts(code_of(f"refuse card if {by_number}")) == [FOLDS.index(Aggregate.COUNT), KEEP]
    reads_card = code_of("refuse card if count(c in held: c.strength * 2 > card.strength) > 2")
    assert starts(reads_card) == [KEEP, FOLDS.index("count")]


@pytest.mark.parametrize(
    "rule",
    [
        "refuse lead if card.trump and not hand.trump_played",
        "refuse lead if trick.number == 1",
        "out if trick.number == 4 and player.tricks == 0",
        "out if player.cards > 3 and trick.winner.streak > 2",
    ],
)
def test_the_parts_of_a_refusal_or_out_rule_that_read_no_member_are_decided_before_it(rule):
    ops = [i[0] for i in code_of(rule)]
    assert BEGIN not in ops[: ops.index(machine.ELSE_NONE)]


def test_a_refusal_whose_part_reading_no_card_is_false_does_not_apply():
    code = code_of("refuse lead if trick.number == 1 and card.suit == hearts")
    plan = SimpleNamespace(program=flat(code))
    s, heart, club = State(), 1 << SUITS.index("hearts"), 1 << SUITS.index("clubs")
    assert machine.run_program(plan, 0, s, 0, heart | club, -1) == club  # the club is kept
    s.trick_number = 1  # the second trick
    assert machine.run_program(plan, 0, s, 0, heart | club, -1) == 0


def test_a_program_is_laid_out_from_its_start_and_ends_in_return():
    code = code_of("end when trick.number == 3\n winner most(p in active: p.cards + p.tricks)", 40)
    jumps = [i[3] for i in code if i[0] in (machine.NEXT, machine.STEP)]
    assert all(40 <= there < 40 + len(code) for there in jumps)
    assert code[-1][0] == RETURN
    assert max(program.heights(code, 40).values()) == 2


def test_a_rule_beyond_the_interpreters_bounds_is_not_the_kernels(monkeypatch):
    monkeypatch.setattr(machine, "AGGREGATES", 1)
    rules = stated("draw sum(p in active: p.cards) + count(p in seats: p.active)")
    with pytest.raises(NotNative, match=r"the rule r0 cannot be the kernel.s: .* aggregates"):
        kernel_plan(rules)


def test_the_programs_of_a_profile_follow_one_another_in_its_plan():
    rules = stated("draw 2 if trick.won_by_trump else 1", "score hand.winner.tricks")
    plan = kernel_plan(rules)
    first = program.program(rules.house_rules[0], 0, rules.rank_strength)
    assert plan.count_arg == 0
    assert plan.score_arg == len(first)
    assert plan.count_replaces == plan.score_replaces == 1


@pytest.mark.parametrize(
    "rule",
    [
        "draw min(" + ", ".join(["1"] * 300) + ")",
        "refuse card if " + " and ".join(["not card.trump"] * 19),
        "score " + " + ".join(["hand.winner.tricks"] * 19),
        "end when " + " or ".join(["any(p in seats: p.active)"] * 30) + "\n winner none",
    ],
    ids=["calls", "filter", "attributes", "aggregates"],
)
def test_a_program_holds_fewer_instructions_than_the_rules_python_has_characters(rule):
    (stated_rule,) = stated(rule).house_rules
    assert len(code_of(rule)) <= len(stated_rule.source)


def test_the_kernel_takes_as_many_rules_at_one_step_as_a_profile_may_state():
    from rulesdsl.model.language.rule import MAX_RULES

    rules = stated(
        *[f"refuse lead if card.trump and trick.number == {k}" for k in range(MAX_RULES)]
    )
    rules = rules.with_options({"opening_lead": "trump_if_able"})
    plan = kernel_plan(rules)
    assert plan.lead_len == MAX_RULES + 1


def test_a_rank_or_card_a_rule_names_is_its_strength_or_card_under_the_decks_order():
    rules = stated("refuse card if card.trump or card == 10H or card.rank == queen")
    rules = rules.with_options({"deck": "A 10 K Q J 9 8 7"})
    code = program.program(rules.house_rules[0], 0, rules.rank_strength)
    pushed = {i[1] for i in code if i[0] == machine.PUSH}
    assert {1 << (6 * 4 + 2), 0b1111 << (4 * 4)} <= pushed  # 10 is the 6th strength of 8 (7
    # is 0), queen the 4th: the cards of each part that reads the card alone


def test_a_rule_naming_a_rank_the_deck_lacks_has_no_program():
    short = {"deck": "A K Q J 10 9 8 7"}
    plan = kernel_plan(stated("refuse card if card == 2C", "score 3").with_options(short))
    alone = kernel_plan(stated("score 3").with_options(short))
    assert (plan.lead_len, plan.follow_len) == (alone.lead_len, alone.follow_len)
    assert plan.score_arg == 0  # the score rule's program is the first


@pytest.mark.parametrize(
    ("rule", "pushed"),
    [
        ("score sum(c in hand.winner.won: c.strength)", machine.LEAF_ATTR),
        ("draw max(p in seats: p.tricks)", machine.SET),
    ],
)
def test_an_aggregate_begins_with_its_sets_value_a_named_set_or_an_attribute(rule, pushed):
    code = code_of(rule)
    ops = [i[0] for i in code]
    begin = ops.index(BEGIN)
    assert ops[begin - 1] == pushed
    assert ops.count(BEGIN) == 1
    assert max(program.heights(code, 0).values()) == 1  # the set's value is taken off as it begins


def test_the_set_of_tricks_gives_the_tricks_won_so_far_last_first():
    s = State()
    s.rest[0] = set_of(SET_CODES[NAMED_SETS["hand.tricks"]], s, 0, 0)
    assert s.rest[0] == 0  # none before the first trick is won
    s.trick_number = 3
    s.rest[0] = set_of(SET_CODES[NAMED_SETS["hand.tricks"]], s, 0, 0)
    assert [machine.take_member(s, 0) for _ in range(3)] == [3, 2, 1]
    assert s.rest[0] == 0
    s.rest[0] = 0b10110
    assert [machine.take_member(s, 0) for _ in range(3)] == [1, 2, 4]


@pytest.mark.parametrize(
    ("rule", "remembers"),
    [
        ("score 2", 0),
        ("score count(c in hand.played: c.trump)", 1),
        ("draw trick.leader.streak", 1),
    ],
)
def test_the_plan_keeps_the_hands_memory_where_a_rule_reads_it(rule, remembers):
    assert kernel_plan(stated(rule)).remembers == remembers


def test_a_refusal_reading_only_the_card_is_one_mask_made_with_the_program():
    """`card.suit == hearts`, `card == QS`, `card.rank >= jack`: the cards refused are worked
    out for every card as the program is made (KEPT), and keep what the fold kept."""
    for condition in ("card.suit == hearts", "card == QS", "card.rank >= jack or card == 2C"):
        rules = stated(f"refuse card if {condition}")
        (rule,) = rules.house_rules
        code = program.program(rule, 0, rules.rank_strength)
        assert [i[0] for i in code].count(machine.KEPT) == 1, condition
    rules = stated("refuse card if card.trump")  # reads the trump suit: card by card
    (rule,) = rules.house_rules
    assert machine.KEPT not in [i[0] for i in program.program(rule, 0, rules.rank_strength)]


def test_an_aggregate_with_a_filter_skips_the_body_of_a_member_the_filter_is_false_for():
    """The filter's value, then UNLESS back to the NEXT (the stack as the NEXT left it), then
    the body and its STEP."""
    code = code_of("score sum(c in hand.winner.won where c.trump: c.strength)", 10)
    ops = [i[0] for i in code]
    at = ops.index(machine.NEXT)
    unless = ops.index(machine.UNLESS, at)
    step = ops.index(machine.STEP, unless)
    trump = ATTRIBUTE_CODES[ATTRIBUTES[Type.CARD, "trump"].code]
    assert code[at + 1] == (machine.VAR_ATTR, code[at][2], trump, 0)
    assert code[unless][1] == code[step][3] == 10 + at  # both go back to the NEXT
    assert code[at][3] == 10 + step + 1  # with no member left, on after the STEP
    assert max(program.heights(code, 10).values()) == 1


def test_a_filter_reading_no_member_is_worked_out_before_its_aggregate_begins():
    filtered = "count(c in hand.winner.won where count(d in seats: d.active) > 2: c.trump)"
    code = code_of(f"score {filtered}")
    begins = [k for k, i in enumerate(code) if i[0] == BEGIN]
    assert [code[k - 1][0] for k in begins] == [machine.SET, machine.STEP]  # `d` first, whole
    assert [i[0] for i in code[begins[1] :]].count(machine.NEXT) == 1  # then one loop
    assert [i[0] for i in code[begins[1] :]].count(machine.SLOT) == 2  # its filter reads it


def test_a_refusal_whose_condition_holds_a_filter_is_not_taken_for_one_on_the_card_alone():
    """`c == card` reads the card, but the aggregate reads `held` too: card by card, each
    card's `any` worked out on sets of cards (the cards of `held` that are the card and
    trumps)."""
    code = code_of("refuse card if card.suit == hearts and any(c in held where c == card: c.trump)")
    ops = [i[0] for i in code]
    assert machine.KEPT not in ops and machine.CARDS_WITH in ops
    assert starts(code) == [KEEP]


def test_any_all_or_count_of_cards_by_the_card_alone_counts_the_set_against_a_mask():
    for rule in (
        "refuse lead if card.suit == hearts and not any(c in hand.played: c.suit == hearts)",
        "score max(1, count(c in hand.winner.won: c.rank == ace))",
        "lead most(p in seats: count(c in p.hand: c == 2C))",
        "refuse card if card.suit == hearts and all(c in held where c.rank > ten: c.suit != clubs)",
    ):
        ops = [i[0] for i in code_of(rule)]
        assert ops.count(machine.COUNT_IN) == 1, rule
        assert ops.count(BEGIN) == ("most" in rule), rule


CARD_TESTS = ["c.suit == hearts", "c.rank > ten", "c == QS", "c.rank == ace", "c != 2C"]
RUN_TIME_TESTS = ["c.trump", "c.suit != trump", "c.rank == trick.best.rank", "c.strength == 3"]
"""Tests of the card a program works out as a mask of the cards as it runs (`card_set`)."""


def card_tests(tests: list[str]) -> st.SearchStrategy[str]:
    """Conditions on the card `c` made of `tests` with `and`, `or` and `not`."""
    return st.recursive(
        st.sampled_from(tests),
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["and", "or"]), inner)
            .map(" ".join)
            .map("({})".format),
            inner.map("not {}".format),
        ),
        max_leaves=4,
    )


by_card = card_tests([*CARD_TESTS, *RUN_TIME_TESTS, "c.strength <= 5"])
AT_A_DRAW = ["hand.played", "trick.winner.won"]
AT_A_PLAY = ["hand.played", "held", "allowed", "played", "me.won"]


@st.composite
def counting_rule(draw) -> str:
    """A rule whose value is `any`, `all` or `count` of a set of cards by the card alone."""
    kind = draw(st.sampled_from(["any", "all", "count"]))
    at_a_draw = draw(st.booleans())
    over = draw(st.sampled_from(AT_A_DRAW if at_a_draw else AT_A_PLAY))
    where = f" where {draw(by_card)}" if draw(st.booleans()) else ""
    aggregate = f"{kind}(c in {over}{where}: {draw(by_card)})"
    value = aggregate if kind == "count" else f"(9 if {aggregate} else 2)"
    return f"draw {value}" if at_a_draw else f"refuse follow if card.strength > {value}"


@settings(max_examples=examples(60, 600), deadline=None)
@given(counting_rule(), st.randoms(use_true_random=False))
def test_a_count_against_a_mask_gives_what_the_aggregate_folded_gives(rule, rng):
    """The rule's program with COUNT_IN and with the aggregate folded member by member (as
    any other is) give the same value on random states."""
    (stated_rule,) = stated(rule).house_rules
    strength = stated(rule).rank_strength
    counted = program.program(stated_rule, 0, strength)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(program.Compiler, "counted", lambda *_: False)
        folded = program.program(stated_rule, 0, strength)
    assert len(starts(counted)) == len(starts(folded)) - 1  # the aggregate is not folded
    for _ in range(20):
        s = random_state(rng)
        seat, allowed = rng.randrange(4), rng.getrandbits(52)
        values = [
            machine.run_program(SimpleNamespace(program=flat(code)), 0, s, seat, allowed, -1)
            for code in (counted, folded)
        ]
        assert values[0] == values[1], rule


@settings(max_examples=examples(60, 600), deadline=None)
@given(
    card_tests([*CARD_TESTS, *RUN_TIME_TESTS, "c.beats_best", "c.suit == led"]),
    st.randoms(use_true_random=False),
)
def test_a_refusal_made_of_sets_of_cards_keeps_what_the_refusal_folded_keeps(condition, rng):
    """A refusal whose condition on the card is sets of cards worked out at once (CARDS_WITH and
    the operations on masks) keeps, on random states, the cards it keeps folded card by card
    (as any other refusal is)."""
    rules = stated("refuse follow if " + re.sub(r"\bc\b", "card", condition))
    (rule,) = rules.house_rules
    at_once = program.program(rule, 0, rules.rank_strength)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(program.Compiler, "card_set", lambda *_: False)
        folded = program.program(rule, 0, rules.rank_strength)
    by_the_card_alone = machine.KEPT in [i[0] for i in at_once]
    assert KEEP not in starts(at_once) and (by_the_card_alone or KEEP in starts(folded))
    for _ in range(20):
        s = random_state(rng)
        allowed = rng.getrandbits(52)
        kept = [
            machine.run_program(SimpleNamespace(program=flat(code)), 0, s, 0, allowed, -1)
            for code in (at_once, folded)
        ]
        assert kept[0] == kept[1], condition


@settings(max_examples=examples(20, 200), deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_cards_a_program_reads_at_once_are_those_the_vocabulary_says(rng):
    """Of each yes-or-no attribute of a card, the cards it holds for (CARDS_WITH); the cards
    that are each value, or whose suit or rank is (the operation `cards of`), and whose rank
    is above it (`ranks above`), a value beyond them giving none or all: card by card as the
    vocabulary's own code (the reference engine's) says, on random states of a trick."""
    s = random_state(rng)
    for k, name in enumerate(CARDS_WHERE):
        cards = cards_where(k, s)
        code = ATTRIBUTES[Type.CARD, name].code
        for card in range(52):
            assert (cards >> card) & 1 == eval(code.format(x=card), {"s": s}), (name, card)
    of_card = {name: ATTRIBUTES[Type.CARD, name].code for name in ("suit", "rank")}
    of_card["card"] = "{x}"
    for word, term, holds in (
        *((f"cards of {name}", name, operator.eq) for name in CARDS_EQUAL),
        ("ranks above", "rank", operator.gt),
    ):
        for value in range(-3, 70):
            cards = operate(OPERATIONS.index((1, word)), s, value, 0)
            for card in range(52):
                want = holds(eval(of_card[term].format(x=card)), value)
                assert (cards >> card) & 1 == want, (word, value, card)


def flat(code: list[tuple[int, ...]]) -> list[int]:
    return [number for instruction in code for number in instruction]


def random_state(rng: random.Random) -> State:
    """A state of four seats whose sets of cards are random."""
    s = State()
    s.players = 4
    for seat in range(4):
        s.hands[seat] = rng.getrandbits(52)
        s.won[seat] = rng.getrandbits(52)
        s.active[seat] = 1
        s.trick_seats[seat] = seat
        s.trick[seat] = rng.randrange(52)
    s.hand_played = rng.getrandbits(52)
    s.trick_len = s.seats_len = rng.randrange(5)
    s.winner = rng.randrange(4)
    s.trump = rng.randrange(-1, 4)  # -1: no trumps
    s.best = rng.randrange(-1, 52)  # -1: at the lead
    s.led = -1 if s.best < 0 else s.best & 3  # the best of a trick is of the suit led,
    if s.best >= 0 and rng.random() < 0.5 and s.trump >= 0:  # or a trump played to another
        s.best = s.best & ~3 | s.trump
        s.led = rng.choice([suit for suit in range(4) if suit != s.trump])
    return s
