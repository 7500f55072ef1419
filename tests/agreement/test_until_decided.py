"""`compare --until-decided`: where it stops, the same for any workers, and its options."""

from __future__ import annotations

import csv
import io
import json

import pytest
from support import run_cli

from rulesdsl.read.profile import load
from rulesdsl.reason.sequence import Stopping
from rulesdsl.reason.sequential import run_until
from rulesdsl.reason.sim import Spec
from rulesdsl.words import report

PAIR = ("equal-hands", "seven-card-hands")


def until(capsys, *args) -> dict:
    code, out, err = run_cli(capsys, "compare", *PAIR, "--until-decided", "--json", *args)
    assert code == 0, err
    return json.loads(out)


def spec_of(*names: str, **options) -> Spec:
    return Spec(profiles=tuple((n, load(n).rules) for n in names), skill=False, **options)


def played(metrics: tuple[str, ...], workers: int = 1, margins=None, most=750):
    stopping = Stopping(0.05, most, 250, metrics)
    spec = spec_of(*PAIR, seed=3)
    return run_until(spec, stopping, lambda r: report.decided(r, (), margins), workers)


def test_a_large_difference_stops_after_the_first_round():
    result = played(("tricks",))
    assert result.stopping is not None
    assert (result.stopping.units, result.stopping.rounds, result.stopping.decided) == (
        250,
        1,
        True,
    )
    (verdict,) = report.verdicts(result)
    assert verdict.metric.name == "tricks" and verdict.judged.verdict == "higher"


def test_a_measure_that_cannot_be_decided_plays_to_the_cap():
    result = played(("win_seat_2",), margins={"win_seat_2": 0.0})
    assert result.stopping is not None
    assert (result.stopping.units, result.stopping.rounds, result.stopping.decided) == (
        750,
        3,
        False,
    )
    assert "stopped at --max-hands 750, with 1 measure undecided" in report.verdict_lines(result)


def test_where_it_stops_and_what_it_says_do_not_depend_on_the_workers():
    one = report.to_json(played(("tricks", "win_seat_0"), 1))
    two = report.to_json(played(("tricks", "win_seat_0"), 2))
    assert one == two


def test_every_round_plays_on_one_set_of_workers_sized_by_the_whole_run(monkeypatch):
    """Workers start once for the run, and each round, however small, is played as part of
    a run of the cap's size (the native path chooses by it)."""
    from rulesdsl.reason import executors, sequential

    real, rounds = sequential.run, []

    def recorded(spec, workers, progress, executor, stop, kept):
        rounds.append((spec.planned, kept))
        return real(spec, workers, progress, executor, stop, kept)

    monkeypatch.setattr(sequential, "run", recorded)
    played(("win_seat_2",), workers=2, margins={"win_seat_2": 0.0})
    (planned,) = {p for p, _ in rounds}
    (kept,) = {id(k): k for _, k in rounds}.values()
    assert len(rounds) == 3 and planned == 750 and kept is not None
    with pytest.raises(executors.WorkersClosed):
        kept.imap(len, [])


def test_the_json_is_the_same_for_one_worker_or_two(capsys):
    args = ("--no-skill", "--max-hands", "500", "--metrics", "tricks,win_seat_0")
    code, one, _ = run_cli(capsys, "compare", *PAIR, "--until-decided", "--json", "-j", 1, *args)
    code2, two, _ = run_cli(capsys, "compare", *PAIR, "--until-decided", "--json", "-j", 2, *args)
    assert code == code2 == 0
    assert one == two


def test_the_json_says_where_it_stopped_and_judges_only_the_measures_asked_for(capsys):
    data = until(capsys, "--no-skill", "--max-hands", "500", "--metrics", "tricks", "-j", 1)
    assert data["stopping"] == {
        "rule": "until-decided",
        "alpha": 0.05,
        "method": data["stopping"]["method"],
        "metrics": ["tricks"],
        "hands": 500,
        "rounds": 1,
        "decided": True,
        "max_hands": 500,
    }
    assert "Robbins" in data["stopping"]["method"]
    assert [v["metric"] for v in data["verdicts"]] == ["tricks"]
    assert (
        data["summary"][0]
        == "stopped after 500 hands in 1 round: every measure decided (alpha 0.05)"
    )


def test_the_measures_decided_unless_told():
    spec = spec_of(*PAIR)
    names = report.default_judged(spec)
    assert names[:5] == ["win_seat_0", "win_seat_1", "win_seat_2", "win_seat_3", "tricks"]
    assert all(n.startswith("end_") for n in names[5:])
    assert report.default_judged(Spec(spec.profiles))[-1] == "skill"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--alpha", "0"), "--alpha 0: it must lie between 0 and 1"),
        (("--alpha", "1.5"), "--alpha 1.5: it must lie between 0 and 1"),
        (("--max-hands", "0"), "--max-hands must be at least 1"),
        (("--metrics", "trick"), "no metric is named trick"),
        (("--hands", "500"), "give --max-hands, not --hands or --matches"),
    ],
)
def test_options_of_until_decided_are_checked(capsys, args, said):
    code, _, err = run_cli(capsys, "compare", *PAIR, "--until-decided", *args)
    assert code != 0
    assert said in err


def test_its_options_need_until_decided(capsys):
    code, _, err = run_cli(capsys, "compare", *PAIR, "--max-hands", "500")
    assert code != 0
    assert "go with --until-decided" in err


def test_a_pair_proven_alike_is_decided_after_the_first_round(tmp_path, capsys):
    house = tmp_path / "house.rules"
    house.write_text('profile "house" extends "equal-hands" {\n    all_out no_winner\n}\n')
    args = ("--no-skill", "--max-hands", "750", "-j", "1")
    code, out, err = run_cli(
        capsys, "compare", "equal-hands", house, "--until-decided", "--json", *args
    )
    assert code == 0, err
    data = json.loads(out)
    assert (data["stopping"]["hands"], data["stopping"]["decided"]) == (750, True)
    assert data["verdicts"] and all(v["verdict"] == "same" for v in data["verdicts"])


def test_an_interrupted_run_says_how_far_it_got(monkeypatch):
    from rulesdsl.reason import sequential

    real = sequential.run

    def interrupted_at_the_second_round(spec, *args):
        result = real(spec, *args)
        result.interrupted = spec.first > 0
        return result

    monkeypatch.setattr(sequential, "run", interrupted_at_the_second_round)
    result = played(("win_seat_2",), margins={"win_seat_2": 0.0}, most=10_000)
    assert result.interrupted and result.stopping is not None
    assert (result.stopping.units, result.stopping.rounds, result.stopping.decided) == (
        500,
        2,
        False,
    )
    assert (
        report.verdict_lines(result)[0]
        == "interrupted after 500 hands in 2 rounds, with 1 measure undecided"
    )


def test_the_csv_says_where_it_stopped(capsys):
    code, out, err = run_cli(
        capsys, "compare", *PAIR, "--until-decided", "--csv", "--metrics", "tricks", "--no-skill"
    )
    assert code == 0, err
    (row,) = [row for row in csv.DictReader(io.StringIO(out)) if row["kind"] == "stopping"]
    assert (row["metric"], row["n"], row["clear"]) == ("tricks", "2000", "True")
    assert row["note"] == "stopped after 2,000 hands in 1 round: every measure decided (alpha 0.05)"


def test_ctrl_c_between_rounds_reports_what_was_played_undecided():
    asked = []

    def interrupted_while_deciding(result) -> bool:
        asked.append(result.units.n)
        if len(asked) == 2:
            raise KeyboardInterrupt
        return False

    stopping = Stopping(0.05, 10_000, 250, ("win_seat_2",))
    result = run_until(spec_of(*PAIR, seed=3), stopping, interrupted_while_deciding, 1)
    assert result.interrupted and result.stopping is not None
    assert (result.stopping.units, result.stopping.rounds, result.stopping.decided) == (
        500,
        2,
        False,
    )


def test_a_search_bot_plays_smaller_rounds_and_fewer_hands_unless_told():
    from rulesdsl.surfaces.cli.sim import _stopping

    plain = _stopping(spec_of(*PAIR), 0.05, None, ("tricks,win_seat_0", "tricks"))
    assert (plain.first, plain.max_units, plain.metrics) == (
        2_000,
        1_000_000,
        ("tricks", "win_seat_0"),
    )
    searching = _stopping(spec_of(*PAIR, bots=("pimc:10",)), 0.05, None, ())
    assert (searching.first, searching.max_units) == (250, 2_000)
    assert _stopping(spec_of(*PAIR, bots=("pimc:10",)), 0.05, 500, ()).max_units == 500
