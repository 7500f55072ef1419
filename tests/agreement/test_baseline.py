"""`compare` against a baseline: the pairs it measures, and its verdict on every measure."""

from __future__ import annotations

import json

import pytest
from support import run_cli

from rulesdsl.read.profile import load
from rulesdsl.reason.analysis.sameness import Sameness
from rulesdsl.reason.sim import Spec, check_spec, empty_result, run
from rulesdsl.reason.verdict import Ground, Verdict
from rulesdsl.words import report

THREE = ("equal-hands", "seven-card-hands", "instant-elimination")
FIELDS = {"profile", "baseline", "metric", "verdict", "estimate", "low", "high", "hands"}


def compared(capsys, *args) -> dict:
    code, out, err = run_cli(capsys, "compare", *args, "--json", "-j", "1")
    assert code == 0, err
    return json.loads(out)


def spec_of(*names: str, **options) -> Spec:
    return Spec(profiles=tuple((n, load(n).rules) for n in names), skill=False, **options)


@pytest.mark.parametrize("baseline", [-1, 3, 10])
def test_a_baseline_that_is_not_one_of_the_profiles_is_refused(baseline):
    with pytest.raises(ValueError, match=f"the baseline is profile {baseline}, of 3"):
        check_spec(spec_of(*THREE, baseline=baseline))


def test_each_profile_pairs_with_the_baseline_unless_all_pairs_are_asked_for():
    assert spec_of(*THREE).pairs == [(0, 1), (0, 2)]
    assert spec_of(*THREE, baseline=1).pairs == [(1, 0), (1, 2)]
    assert spec_of(*THREE, all_pairs=True).pairs == [(0, 1), (0, 2), (1, 2)]


def test_a_baselines_pairs_are_those_of_all_pairs_in_its_direction():
    against = run(spec_of(*THREE, units=250, seed=4, baseline=1), 1)
    every = run(spec_of(*THREE, units=250, seed=4, all_pairs=True), 1)
    assert against.pairs[1] == every.pairs[2]  # instant-elimination - seven-card-hands
    for key in ("tricks", "plays", "win_seat_0", "fires_trump"):
        total, squares = every.pairs[0].totals(key)  # seven-card-hands - equal-hands
        assert against.pairs[0].totals(key) == (-total, squares)


def test_baseline_names_the_profile_the_others_are_measured_against(capsys):
    data = compared(capsys, *THREE, "--hands", "250", "--baseline", "seven-card-hands")
    assert data["baseline"] == "seven-card-hands"
    assert [(p["a"], p["b"]) for p in data["pairs"]] == [
        ("seven-card-hands", "equal-hands"),
        ("seven-card-hands", "instant-elimination"),
    ]
    assert {(v["baseline"], v["profile"]) for v in data["verdicts"]} == {
        ("seven-card-hands", "equal-hands"),
        ("seven-card-hands", "instant-elimination"),
    }
    tricks = [v for v in data["verdicts"] if v["metric"] == "tricks"]
    assert [v["verdict"] for v in tricks] == ["lower", "lower"]
    every = compared(capsys, *THREE, "--hands", "250", "--all-pairs")
    assert every["baseline"] is None
    assert len(every["pairs"]) == 3 and len(every["sameness"]) == 3


def test_a_baseline_is_named_by_its_label_or_as_given(tmp_path, capsys):
    house = tmp_path / "house.rules"
    house.write_text('profile "house" extends "equal-hands" {\n    hand_size 6\n}\n')
    for named in ("house", house):
        data = compared(capsys, "equal-hands", house, "--hands", "20", "--baseline", named)
        assert data["baseline"] == "house"
        assert [(p["a"], p["b"]) for p in data["pairs"]] == [("house", "equal-hands")]


def test_simulate_names_no_baseline_and_says_no_verdict(capsys):
    code, out, _ = run_cli(capsys, "simulate", "equal-hands", "--hands", "20", "--json")
    data = json.loads(out)
    assert code == 0 and data["baseline"] is None
    assert (data["verdicts"], data["summary"]) == ([], [])


def test_a_run_stopped_before_any_hand_says_no_verdict_in_words():
    nothing = empty_result(spec_of(*THREE, units=250))
    assert report.verdict_lines(nothing) == []
    assert {v.judged.verdict for v in report.verdicts(nothing)} == {Verdict.UNDECIDED}


def test_json_has_a_verdict_of_exactly_its_fields_per_profile_and_paired_metric(capsys):
    data = compared(capsys, *THREE, "--hands", "250")
    paired = [m["name"] for m in data["metrics"]]
    assert [(v["profile"], v["metric"]) for v in data["verdicts"]] == [
        (profile, name) for profile in THREE[1:] for name in paired
    ]
    for found in data["verdicts"]:
        assert set(found) == FIELDS
        assert found["baseline"] == "equal-hands"
        assert found["verdict"] in {"higher", "lower", "same", "undecided"}
        pair = next(p for p in data["pairs"] if p["b"] == found["profile"])
        difference = pair["b_minus_a"][found["metric"]]
        assert (found["estimate"], found["low"], found["high"]) == (
            difference["mean"],
            difference["low"],
            difference["high"],
        )
        if found["verdict"] == "undecided":
            assert found["hands"] > 250
        else:
            assert found["hands"] == 250
    margins = {m["name"]: m["margin"] for m in data["metrics"]}
    assert (margins["win_seat_0"], margins["tricks"]) == (0.01, 0.05)


def test_a_margin_given_decides_what_the_default_left_undecided(capsys):
    args = ["equal-hands", "instant-elimination", "--hands", "500", "--no-skill"]

    def verdict(data: dict) -> str:
        return next(v["verdict"] for v in data["verdicts"] if v["metric"] == "win_seat_1")

    assert verdict(compared(capsys, *args)) == "undecided"
    wide = compared(capsys, *args, "--margin", "win_seat_1=0.1")
    assert verdict(wide) == "same"
    assert next(m for m in wide["metrics"] if m["name"] == "win_seat_1")["margin"] == 0.1


def test_a_pair_proven_identical_is_the_same_on_every_measure_whatever_was_played():
    # The deals say seven-card hands are longer; a proof that they play alike overrules them.
    result = run(spec_of("equal-hands", "seven-card-hands", units=250), 1)
    proof = Sameness("equal-hands", "seven-card-hands", 4, (), {}, True, True)
    found = report.verdicts(result, [proof])
    assert found and all(v.judged.verdict is Verdict.SAME for v in found)
    assert all(v.judged.ground is Ground.PROVEN and v.judged.hands == 0 for v in found)
    assert all(v.judged.difference.mean == 0 for v in found)
    played = report.verdicts(result)
    assert next(v for v in played if v.metric.key == "tricks").judged.verdict is Verdict.HIGHER


def test_an_option_that_never_acts_gives_the_same_proven_before_play(tmp_path, capsys):
    house = tmp_path / "house.rules"
    house.write_text('profile "house" extends "equal-hands" {\n    all_out no_winner\n}\n')
    data = compared(capsys, "equal-hands", house, "--hands", "250")
    assert data["verdicts"] and all(
        (v["verdict"], v["estimate"], v["hands"]) == ("same", 0, 0) for v in data["verdicts"]
    )
    code, out, _ = run_cli(capsys, "compare", "equal-hands", house, "--hands", "250", "-j", "1")
    assert code == 0
    assert "house: the same as equal-hands in" in out and "measures, proven before play" in out


def test_the_verdicts_in_words_come_before_the_table(capsys):
    args = ["compare", "equal-hands", "seven-card-hands", "--hands", "250", "-j", "1"]
    code, out, _ = run_cli(capsys, *args, "--width", "200")
    assert code == 0
    lines = out.splitlines()
    table = next(i for i, line in enumerate(lines) if line.startswith("metric (mean"))
    longer = next(i for i, line in enumerate(lines) if "hand length (tricks)" in line)
    assert longer < table
    assert lines[longer].startswith("seven-card-hands: hand length (tricks) ")
    assert " higher than equal-hands (" in lines[longer]
    assert any("equal to equal-hands on every deal in" in line for line in lines[:table])
    assert any(
        "against equal-hands: about" in line and "hands would decide it, now" in line
        for line in lines[:table]
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--baseline", "bicycle"], "--baseline bicycle: it must be one of the profiles compared"),
        (["--baseline", "seven-card-hands", "--all-pairs"], "not both"),
        (["--margin", "tricks"], "--margin tricks: give METRIC=VALUE"),
        (["--margin", "trickz=0.1"], "no metric is named trickz; did you mean 'tricks'?"),
        (["--margin", "trickz=0.1"], "the metrics are win_seat_0, win_seat_1"),
        (["--margin", "tricks=lots"], "--margin tricks=lots: the margin must be a number from 0"),
        (["--margin", "tricks=-1"], "the margin must be a number from 0"),
        (["--margin", "win_seat_0=1.5"], "of a share must be from 0 to below 1 (0.01 is one"),
        (["--margin", "tricks=nan"], "the margin must be a number from 0"),
    ],
)
def test_bad_baselines_and_margins_are_usage_errors_before_any_play(capsys, args, message):
    code, out, err = run_cli(capsys, "compare", "equal-hands", "seven-card-hands", *args)
    assert (code, out) == (2, "")
    assert message in err
