"""`compare --attribute`: each difference between two profiles split among the rules in
which they differ, as Shapley values over the profiles on the way, played on the same
deals: the parts add up to the difference on every deal, a lone rule takes all of it, a
rule proved never to act takes none without play."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest
from support import run_cli

from rulesdsl.read.profile import load
from rulesdsl.reason.analysis.sameness import sameness
from rulesdsl.reason.attribution import (
    MOST_EXACT,
    attribute,
    idle_parts,
    on_the_way,
    parts,
    weights,
)
from rulesdsl.reason.sim import Spec


def named(name: str):
    return name, load(name).rules


def split(a: str, b: str, hands: int = 400):
    first, second = named(a), named(b)
    proven = frozenset(sameness(first, second, 4).dead)
    return attribute(first, second, Spec((first,), units=hands, skill=False), proven)


@pytest.mark.parametrize("count", [1, 2, 3, MOST_EXACT, MOST_EXACT + 1, 9])
def test_the_weights_of_each_deal_add_up_to_b_less_a(count):
    names = [f"r{k}" for k in range(count)]
    plan, exact = weights(names, seed=5)
    assert exact == (count <= MOST_EXACT)
    everything = frozenset(names)
    for made, by_rule in plan.items():
        expected = (made == everything) - (made == frozenset())
        assert math.isclose(sum(by_rule.values()), expected, abs_tol=1e-12)
    if exact:  # the Shapley weights: every rule alike, all or nothing of each marginal
        assert len(plan) == 2**count
        assert all(math.isclose(plan[frozenset({n})][n], 1 / count) for n in names)


def test_the_parts_add_up_to_the_difference_on_every_measure():
    found = split("equal-hands", "bicycle")
    assert found.exact and found.profiles == 16  # 4 rules that act: 2**4 profiles
    for metric, total in found.totals.items():
        shares = [e.effect.mean for e in found.effects if e.metric == metric]
        assert math.isclose(sum(shares), total.mean, abs_tol=1e-9), metric


def test_a_rule_proved_never_to_act_takes_nothing_without_play():
    found = split("equal-hands", "bicycle")
    idle = {e.rule for e in found.effects if e.proven_idle}
    assert idle == {"exhaustion"}
    assert all(
        e.effect.mean == e.effect.low == e.effect.high == 0
        for e in found.effects
        if e.rule == "exhaustion"
    )


def test_beyond_every_order_no_part_is_taken_as_idle_unchecked():
    """With more parts than every order is played for, idleness is not checked in every
    profile on the way, so no part is given 0 without play."""
    a, bicycle = load("equal-hands").rules, load("bicycle").rules
    assert idle_parts(a, bicycle, frozenset({"exhaustion"}), 4) == {"exhaustion"}
    more = bicycle.with_options({"hand_size": "5", "scoring": "cards_in_hand"})
    assert len(parts(a, more)) == MOST_EXACT + 1
    assert idle_parts(a, more, frozenset({"exhaustion"}), 4) == set()


def test_a_lone_rule_that_acts_takes_the_whole_difference():
    found = split("equal-hands", "no-trumps")
    acting = {e.rule for e in found.effects if not e.proven_idle}
    assert acting == {"trump"}
    for metric, total in found.totals.items():
        (effect,) = [e.effect for e in found.effects if e.metric == metric and e.rule == "trump"]
        assert (effect.mean, effect.low, effect.high) == (total.mean, total.low, total.high)
    assert found.totals["win_seat_0"].clear_of_zero


def test_the_profiles_on_the_way_make_each_part_as_b_has_it():
    a, b = load("equal-hands").rules, load("bicycle").rules
    names = [p.name for p in parts(a, b)]
    assert on_the_way(a, b, frozenset()) == a
    # every part but the player counts allowed, which decide where, not how, it is played
    assert on_the_way(a, b, frozenset(names)) == dataclasses.replace(b, players=a.players)
    made = on_the_way(a, b, frozenset({"elimination"}))
    assert made.elimination == b.elimination and made.follow == a.follow


def test_stated_rules_are_parts_and_a_rule_stated_otherwise_is_one():
    a, b = load("equal-hands").rules, load("two-of-clubs-leads").rules
    assert [p.name for p in parts(a, b)] == ["two-of-clubs-leads", "two-of-clubs-first"]


def test_compare_attribute_prints_the_split_in_text_json_and_csv(capsys):
    args = ["compare", "equal-hands", "no-trumps", "--hands", "300", "--no-skill", "--attribute"]
    code, out, _ = run_cli(capsys, *args)
    assert code == 0
    assert "which rule caused what, no-trumps against equal-hands" in out
    assert "= trump" in out and "(proved): exhaustion" in out
    code, out, _ = run_cli(capsys, *args, "--json")
    items = json.loads(out)["attribution"]
    assert {tuple(sorted(item)) for item in items} == {
        (
            "baseline",
            "effect",
            "exact",
            "high",
            "low",
            "metric",
            "profile",
            "proven_idle",
            "rule",
        )
    }
    assert {item["rule"] for item in items} == {"trump", "exhaustion"}
    code, out, _ = run_cli(capsys, *args, "--csv")
    rows = [line.split(",") for line in out.splitlines() if line.startswith("attribution,")]
    assert rows and {row[-1] for row in rows} == {"trump", "exhaustion"}


def test_attribute_is_refused_for_matches(capsys):
    code, _, err = run_cli(
        capsys, "compare", "equal-hands", "no-trumps", "--matches", "5", "--attribute"
    )
    assert code == 2 and "--attribute" in err
