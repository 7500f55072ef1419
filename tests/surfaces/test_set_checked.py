"""`--set` is as strict as a profile file: the command line refuses exactly what `validate`
refuses, in one line on stderr with exit status 2, naming the option."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.model.rules import OPTIONS
from rulesdsl.read.profile import load_file
from rulesdsl.service import UsageProblem
from rulesdsl.surfaces.cli.common import build_rules
from rulesdsl.surfaces.main import main

# Values for each option, good and bad, alone and in combination with the others.
VALUES = {
    "players": ["1", "2", "3", "2..6", "3..6", "4..10", "2..11", "6..3"],
    "deck": ["standard", "A K Q", "A K Q J 10 9 8 7", "K Q J 10 9 8 7 6 5 4 3 2 A", "A A"],
    "hand_size": ["0", "1", "5", "13", "players", "players + 10", "2 * players", "players - 3"],
    "draw": ["-1", "0", "1", "3", "per_card_in_trick"],
    "match": ["target 0", "target 3", "hands players - 3", "hands 1", "target"],
}
WORDS = {name: [*opt.kind.words(), "bogus"] for name, opt in OPTIONS.items()}
SETTINGS = st.dictionaries(
    st.sampled_from(list(OPTIONS)), st.just(None), min_size=1, max_size=4
).flatmap(
    lambda names: st.fixed_dictionaries(
        {name: st.sampled_from(VALUES.get(name, WORDS[name])) for name in names}
    )
)

FILES = itertools.count()


def validate_refuses(tmp_path, values: dict[str, str]) -> bool:
    lines = "".join(f"    {name} {value}\n" for name, value in values.items())
    path = tmp_path / f"house-{next(FILES)}.rules"  # a new file: the profile cache knows none
    path.write_text(f'profile "house" extends "equal-hands" {{\n{lines}}}\n', encoding="utf-8")
    return any(d.is_error for d in load_file(path).diagnostics)


def cli_refuses(values: dict[str, str]) -> bool:
    try:
        build_rules("equal-hands", [f"{name}={value}" for name, value in values.items()])
    except UsageProblem:
        return True
    return False


@settings(
    max_examples=examples(300),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(SETTINGS)
def test_the_command_line_refuses_exactly_what_validate_refuses(tmp_path, values):
    assert cli_refuses(values) == validate_refuses(tmp_path, values)


@pytest.mark.parametrize(
    ("setting", "named"),
    [
        ("match=target 0", "match target 0 gives 0 points for 3 players"),
        ("players=2..8", "8 players x 8 cards = 64 cards"),
        ("hand_size=13", "with 4 players the deal leaves no stock"),
        ("deck=A K Q", "4 players x 4 cards = 16 cards"),
    ],
)
def test_play_refuses_in_one_line_naming_the_option(capsys, setting, named):
    code = main(["play", "--bots", "lowest", "--json", "--seed", "1", "--set", setting])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.startswith(f"rulesdsl: error: --set {setting} on equal-hands: {named}")
    assert err.count("\n") == 1


def test_an_option_set_twice_is_refused(capsys):
    code = main(["play", "--bots", "lowest", "--set", "draw=1", "--set", "draw=2"])
    assert code == 2
    assert "--set draw=2: draw is set twice (also --set draw=1)" in capsys.readouterr().err


def test_a_warning_does_not_stop_the_command(capsys):
    args = ["simulate", "equal-hands", "--hands", "20", "-j", "1", "--json"]
    code = main([*args, "--set", "trump=none", "--set", "when_void=trump_if_able"])
    assert code == 0


def test_values_that_validate_accepts_all_play():
    for draw, exhaustion in itertools.product(["0", "1", "2"], ["play_out", "reshuffle"]):
        assert not cli_refuses({"draw": draw, "exhaustion": exhaustion})


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--bots", "lowest", "--json", "--players", "7"],
        ["simulate", "equal-hands", "--players", "2", "--hands", "5"],
        ["play", "--bots", "lowest", "--json", "--set", "players=4", "--players", "5"],
    ],
)
def test_a_player_count_outside_the_profile_is_refused(capsys, args):
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "players are not allowed by these rules" in err
