"""`rulesdsl play --decks FILE --bots lowest|highest --json --set ...` agrees with docs/rules.md:
the oracle's player (tests/oracle.py, which imports nothing of the engine or the rule units)
plays the same deals, and every outcome and every card played must match, over the new
options of section 3 in combination with the old ones. The whole product of the options is
benchmarks/rules_agreement.py."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from oracle import NEW, PLAYERS, VALUES, disagreements, endless, playable
from sizing import examples

DEFAULTS = {name: values[0] for name, values in VALUES.items()}
NEW_VALUES = [(name, value) for name in NEW for value in VALUES[name][1:]]


@pytest.mark.parametrize(("name", "value"), NEW_VALUES, ids=[f"{n}={v}" for n, v in NEW_VALUES])
@pytest.mark.parametrize("bot", ["lowest", "highest"])
def test_each_new_value_plays_as_the_rules_say(name, value, bot):
    options = {**DEFAULTS, name: value}
    assert disagreements(options, 4, 1, [bot] * 4, seed=len(value), deals=12) == []


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[str, str], int, int, list[str]]:
    options = {name: draw(st.sampled_from(values)) for name, values in VALUES.items()}
    players = draw(st.sampled_from(PLAYERS))
    assume(playable(options, players) and not endless(options))
    dealer = draw(st.integers(0, players - 1))
    bots = draw(
        st.lists(st.sampled_from(["lowest", "highest"]), min_size=players, max_size=players)
    )
    return options, players, dealer, bots


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=st.integers(0, 2**32))
def test_every_combination_of_options_plays_as_the_rules_say(table, seed):
    options, players, dealer, bots = table
    assert disagreements(options, players, dealer, bots, seed, deals=6) == []
