"""`rulesdsl diff`: two resolved profiles compared option by option."""

from __future__ import annotations

import json

from rulesdsl.model.rules import OPTIONS
from rulesdsl.read.profile import SHIPPED, load
from rulesdsl.surfaces.main import main
from rulesdsl.words.diff import diff_profiles
from rulesdsl.words.explain import sentence

SIDE_KEYS = {"value", "sentence", "origin", "assumed", "note", "note_from", "where"}
AFTER_DRAW = sentence("elimination", "after_draw")
IMMEDIATE = sentence("elimination", "immediate")


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_profile_equals_itself(capsys):
    code, out, _ = run(capsys, "diff", "equal-hands", "equal-hands")
    assert code == 0
    assert out == "equal-hands and equal-hands set every option the same way.\n"


def test_instant_elimination_differs_only_in_elimination(capsys):
    # It also states all_out, but to the value equal-hands has: not a difference.
    differences = diff_profiles(load("equal-hands"), load("instant-elimination"))
    assert [d.option for d in differences] == ["elimination"]
    code, out, _ = run(capsys, "diff", "equal-hands", "instant-elimination")
    assert code == 1
    text = flat(out)
    assert f"differ in 1 of {len(OPTIONS)} options" in text
    assert "equal-hands: after_draw (stated, set in" in text
    assert "instant-elimination: immediate (stated, set in" in text
    assert text.index(flat(AFTER_DRAW)) < text.index(flat(IMMEDIATE))
    assert "is out at once, before the winner draws" in IMMEDIATE
    assert "is out after the winner draws" in AFTER_DRAW
    assert "note: a last-card winner is out and does not draw" in text


def test_assumed_and_stated_values_are_marked(capsys):
    code, out, _ = run(capsys, "diff", "bicycle", "equal-hands")
    assert code == 1
    flat = " ".join(out.split())  # as wide as the page allows: a long path wraps the line
    assert "bicycle: 4..6 (assumed, set in " in flat
    assert "bicycle.rules:6)" in flat
    assert "equal-hands: 3..6 (stated, set in " in flat
    assert "bicycle: trump_if_able (stated, set in " in flat
    assert "bicycle.rules:11)" in flat
    assert "note: the manual says 4 or more" in out


def test_json_lists_each_difference_with_both_sides(capsys):
    code, out, _ = run(capsys, "diff", "equal-hands", "instant-elimination", "--format", "json")
    assert code == 1
    (item,) = json.loads(out)
    assert set(item) == {"option", "a", "b"}
    assert item["option"] == "elimination"
    a, b = item["a"], item["b"]
    assert set(a) == set(b) == SIDE_KEYS
    assert (a["value"], a["sentence"], a["origin"], a["assumed"]) == (
        "after_draw",
        AFTER_DRAW,
        "set",
        False,
    )
    assert (b["value"], b["sentence"], b["note"]) == (
        "immediate",
        IMMEDIATE,
        "a last-card winner is out and does not draw",
    )
    assert a["where"].startswith("set in ") and a["where"].endswith("equal-hands.rules:15")


def test_json_of_equal_profiles_is_an_empty_list(capsys):
    assert run(capsys, "diff", "bicycle", "bicycle", "--format", "json")[:2] == (0, "[]\n")


def test_a_profile_file_against_a_shipped_name(tmp_path, capsys):
    house = tmp_path / "house.rules"
    house.write_text(
        'profile "house" extends "instant-elimination" {\n'
        "    hand_size players + 1\n"
        "    assumed next_dealer hand_winner\n"
        "}\n"
    )
    code, out, _ = run(capsys, "diff", str(house), "instant-elimination", "--format", "json")
    assert code == 1
    items = {item["option"]: item for item in json.loads(out)}
    assert list(items) == ["hand_size", "next_dealer"]
    hand_size = items["hand_size"]
    assert hand_size["a"]["where"].endswith("house.rules:2")
    assert hand_size["b"]["where"].startswith("inherited from equal-hands (")
    assert "players + 1 cards" in hand_size["a"]["sentence"]
    assert items["next_dealer"]["a"]["assumed"] is True


def test_values_left_at_the_default_say_so(tmp_path, capsys):
    bare = tmp_path / "bare.rules"
    bare.write_text('profile "bare" {\n    draw 2\n}\n')
    code, out, _ = run(capsys, "diff", str(bare), "seven-card-hands")
    assert code == 1
    assert "  bare: players (default)" in out
    words = " ".join(out.split())  # a long path wraps the line
    assert "seven-card-hands: 7 (assumed, set in " in words
    assert "bare: 2 (stated, set in " in words


def test_the_yaml_file_equals_the_shipped_dsl_profile(capsys):
    path = str(SHIPPED / "equal-hands.yaml")
    code, out, _ = run(capsys, "diff", path, "equal-hands")
    assert code == 0
    assert out == f"{path} and equal-hands set every option the same way.\n"


def test_usage_errors_exit_2(capsys):
    assert run(capsys, "diff", "equal-hands", "no-such-profile")[0] == 2
    assert run(capsys, "diff", "equal-hands", "bicycle", "--format", "xml")[0] == 2
    assert run(capsys, "diff", "equal-hands")[0] == 2
