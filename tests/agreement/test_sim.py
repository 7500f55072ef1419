"""Paired simulation: same deals for every profile, deterministic for any worker count."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizing import THOROUGH

from rulesdsl.read.profile import load
from rulesdsl.reason import sim
from rulesdsl.reason.sim import Spec, run
from rulesdsl.surfaces.main import main
from rulesdsl.words import report


def run_cli(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def spec_of(*names: str, **options) -> Spec:
    return Spec(profiles=tuple((n, load(n).rules) for n in names), **options)


def test_results_are_byte_identical_for_any_number_of_workers(capsys):
    args = ["compare", "equal-hands", "instant-elimination", "--hands", "700", "--json"]
    one = run_cli(capsys, *args, "--workers", "1")
    two = run_cli(capsys, *args, "--workers", "2")
    assert one[0] == two[0] == 0
    assert one[1] == two[1]
    assert json.loads(one[1])["units"] == 700


@settings(deadline=None)
@given(
    st.integers(0, 40 * sim.CHUNK),
    st.integers(1, 16),
    st.booleans(),
    st.sampled_from([None, "pimc:1"]),
)
def test_tasks_are_whole_chunks_in_order_covering_every_unit(units, workers, matches, good):
    spec = spec_of("equal-hands", units=units, matches=matches, good_play=good)
    tasks = spec.tasks(workers)
    assert [u for task in tasks for u in task] == list(range(units))
    assert all(task.start % sim.CHUNK == 0 for task in tasks)
    chunks = [chunk for task in tasks for chunk in sim.pieces(task)]
    assert chunks == spec.chunks()
    if matches or good:  # slow hands: one chunk to a task, for the progress bar
        assert len(tasks) == len(chunks)


@pytest.mark.parametrize("native", ["1", "0"])
def test_chunks_grouped_into_tasks_give_the_figures_of_one_chunk_a_task(native, monkeypatch):
    """With the skill measure only when thorough: its functions double the time the native
    kernels take to compile (test_native compares them with the pure ones)."""
    monkeypatch.setenv("RULESDSL_NATIVE", native)
    units = 5 * sim.CHUNK + 17
    spec = spec_of("equal-hands", "instant-elimination", units=units, seed=3, skill=THOROUGH)
    monkeypatch.setattr(sim, "TASKS_PER_WORKER", 1)
    monkeypatch.setattr(sim, "TASK_CHUNKS", 4)
    assert [len(t) for t in spec.tasks(1)] == [4 * sim.CHUNK, sim.CHUNK + 17]
    grouped = report.to_json(run(spec, 1))
    monkeypatch.setattr(sim, "TASK_CHUNKS", 1)
    assert report.to_json(run(spec, 1)) == grouped


def test_an_option_that_never_fires_shows_no_clear_difference(tmp_path, capsys):
    # Under equal hands every hand cannot empty at once, so `all_out` never decides anything.
    house = tmp_path / "house.rules"
    house.write_text('profile "house" extends "equal-hands" {\n    all_out no_winner\n}\n')
    code, out, _ = run_cli(capsys, "compare", "equal-hands", house, "--hands", "600", "--json")
    assert code == 0
    (pair,) = json.loads(out)["pairs"]
    assert not any(d["clear"] for d in pair["b_minus_a"].values())
    assert all(d["mean"] == 0 for d in pair["b_minus_a"].values())


def test_seven_card_hands_are_longer_clear_of_zero():
    result = run(spec_of("equal-hands", "seven-card-hands", units=1000, skill=False), 2)
    longer = result.pairs[0].estimate("tricks")
    assert longer.clear_of_zero and longer.low > 3
    assert result.profiles[1].estimate("tricks").mean > result.profiles[0].estimate("tricks").mean


def test_the_same_profile_twice_differs_by_exactly_nothing():
    result = run(spec_of("bicycle", "bicycle", players=5, units=300), 1)
    keys = [*sim.NUMBERS, *sim.indicators(5)]
    assert all(result.pairs[0].totals(k) == (0, 0) for k in keys)
    assert result.profiles[0] == result.profiles[1]


def test_the_seed_chooses_the_deals():
    first = run(spec_of("equal-hands", units=300, seed=1, skill=False), 1)
    again = run(spec_of("equal-hands", units=300, seed=1, skill=False), 1)
    other = run(spec_of("equal-hands", units=300, seed=2, skill=False), 1)
    assert first.profiles[0] == again.profiles[0]
    assert first.profiles[0] != other.profiles[0]


def test_win_shares_add_up_and_the_skill_gap_shows():
    result = run(spec_of("equal-hands", units=1500), 2)
    tally = result.profiles[0]
    assert sum(tally.total(f"win_seat_{r}") for r in range(4)) == 1500
    assert tally.estimate("skill", share=True).low > 0.25


def test_rule_coverage_shows_which_rules_fire():
    result = run(spec_of("equal-hands", "opening-trumps", "denexa", units=300, skill=False), 2)
    plain, opening, denexa = result.profiles
    assert plain.total("fires_opening_lead") == 0
    assert opening.total("fires_opening_lead") > 0
    assert plain.total("fires_all_out") == 0
    assert plain.total("fires_elimination") > 0
    assert denexa.total("end_stock_exhausted") == 0


def test_reshuffles_count_as_exhaustion_firing():
    rules = load("equal-hands").rules.with_options({"exhaustion": "reshuffle", "players": "3"})
    rules = rules.with_options({"hand_size": "14"})
    result = run(Spec(profiles=(("r", rules),), players=3, units=100, skill=False), 1)
    assert result.profiles[0].total("fires_exhaustion") > 0


def test_matches_report_match_length_and_pair_it(capsys):
    code, out, _ = run_cli(
        capsys, "compare", "equal-hands", "gamerules-lift-smoke", "--matches", "60", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["unit"] == "match"
    lengths = data["profiles"]["gamerules-lift-smoke"]["metrics"]["match_hands"]
    assert lengths["mean"] == 4  # `match hands players` with 4 players
    assert data["profiles"]["equal-hands"]["metrics"]["match_hands"]["mean"] >= 3
    assert "match_hands" in data["pairs"][0]["b_minus_a"]
    assert "tricks" not in data["pairs"][0]["b_minus_a"]


def test_csv_and_plot_outputs(tmp_path, capsys):
    plot = tmp_path / "seats.png"
    code, out, _ = run_cli(
        capsys,
        "compare",
        "equal-hands",
        "seven-card-hands",
        "--hands",
        "300",
        "--csv",
        "--plot",
        plot,
    )
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    kinds = {row["kind"] for row in rows}
    assert kinds == {"profile", "difference", "verdict"}
    tricks = [r for r in rows if r["kind"] == "difference" and r["metric"] == "tricks"]
    assert float(tricks[0]["mean"]) > 0 and tricks[0]["clear"] == "True"
    (verdict,) = [r for r in rows if r["kind"] == "verdict" and r["metric"] == "tricks"]
    assert (verdict["profile"], verdict["other"], verdict["note"]) == (
        "equal-hands",
        "seven-card-hands",
        "higher",
    )
    assert (verdict["mean"], verdict["n"]) == (tricks[0]["mean"], "300")
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_table_names_every_profile(capsys):
    code, out, _ = run_cli(capsys, "simulate", "bicycle", "--hands", "250", "--players", "5")
    assert code == 0
    assert "bicycle" in out and "win share, dealer" in out
    assert "hands where opening_lead fires" in out


def test_an_interrupted_run_reports_what_was_gathered(monkeypatch):
    spec = spec_of("equal-hands", units=sim.CHUNK * 4, skill=False)

    def stop_after_first(done: int) -> None:
        raise KeyboardInterrupt

    result = run(spec, 1, stop_after_first)
    assert result.interrupted
    assert result.units.n == sim.CHUNK
    assert result.profiles[0].n == sim.CHUNK


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["compare", "equal-hands"], "at least two profiles"),
        (["simulate", "equal-hands", "--bots", "randum"], "did you mean 'random'?"),
        (["simulate", "catsatcards", "--players", "6"], "catsatcards: 6 players are not allowed"),
        (
            ["compare", "equal-hands", "catsatcards", "--players", "6"],
            "profile catsatcards: 6 players are not allowed",
        ),
        (["simulate", "equal-hands", "--hands", "5", "--matches", "5"], "not both"),
        (["simulate", "equal-hands", "--plot", "x.pdf"], ".png or .svg"),
        (["simulate", "no-such-profile"], "no profile named"),
    ],
)
def test_bad_simulation_requests_are_usage_errors(capsys, args, message):
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and out == ""
    assert message in err


def test_json_with_csv_is_one_line_of_usage_error(capsys):
    code, out, err = run_cli(capsys, "compare", "equal-hands", "bicycle", "--json", "--csv")
    assert (code, out) == (2, "")
    assert err == "rulesdsl: error: give --json or --csv, not both\n"


def test_shared_match_wins_are_totalled_and_said_so(tmp_path, capsys):
    # Two hands a match: when two players win one hand each, both win the match.
    short = tmp_path / "short.rules"
    short.write_text('profile "short" extends "equal-hands" {\n    match hands 2\n}\n')
    args = ["compare", "equal-hands", short, "--matches", "60", "-j", "1"]
    code, out, _ = run_cli(capsys, *args, "--json")
    assert code == 0
    profiles = json.loads(out)["profiles"]
    shares = {
        name: sum(p["metrics"][f"match_win_seat_{r}"]["mean"] for r in range(4))
        for name, p in profiles.items()
    }
    assert profiles["short"]["match_wins"] == {
        "total": pytest.approx(shares["short"]),
        "shared": True,
    }
    assert shares["short"] > 1
    assert profiles["equal-hands"]["match_wins"] == {"total": 1.0, "shared": False}
    code, out, _ = run_cli(capsys, *args, "--width", "100")
    note = re.search(
        r"Match win shares add up to more than 100%.*?: (.*?)\. ", " ".join(out.split())
    )
    assert note is not None and note[1] == f"short {shares['short']:.1%}"


def test_win_shares_of_hands_need_no_note(capsys):
    code, out, _ = run_cli(capsys, "compare", "equal-hands", "bicycle", "--hands", "250")
    assert code == 0 and "100%" not in out and "Match win" not in out


def test_simulate_reads_a_profile_file(tmp_path, capsys):
    path = Path(tmp_path / "h.yaml")
    path.write_text("profile: h\nextends: equal-hands\ndraw: 2\n")
    code, out, _ = run_cli(capsys, "simulate", path, "--hands", "250", "--json")
    assert code == 0 and "h" in json.loads(out)["profiles"]


def test_set_applies_on_top_of_every_profile(capsys):
    code, out, _ = run_cli(
        capsys,
        "compare",
        "equal-hands",
        "bicycle",
        "--hands",
        "250",
        "--json",
        "--set",
        "hand_size=6",
    )
    assert code == 0
    profiles = json.loads(out)["profiles"]
    assert all(p["metrics"]["stock_left"]["mean"] < 28 for p in profiles.values())
    code, _, err = run_cli(capsys, "simulate", "equal-hands", "--set", "hadn_size=6")
    assert code == 2 and "did you mean 'hand_size'?" in err


def test_ctrl_c_reports_the_units_done_and_exits_130(capsys, monkeypatch):
    def stop(done: int) -> None:
        raise KeyboardInterrupt

    def interrupted_run(spec, workers, progress=None, executor="local", *stopped):
        return run(spec, 1, stop, executor)

    monkeypatch.setattr("rulesdsl.reason.sim.run", interrupted_run)
    code, out, err = run_cli(capsys, "simulate", "equal-hands", "--hands", "1000", "--json")
    assert code == 130
    assert json.loads(out)["interrupted"] is True
    assert json.loads(out)["units"] == sim.CHUNK
    assert f"interrupted: reporting the {sim.CHUNK:,} units done" in err


@settings(deadline=None)
@given(st.lists(st.lists(st.integers(-3, 3), min_size=2, max_size=2), max_size=60))
def test_distinct_rows_are_counted_in_order_of_first_occurrence(rows):
    import numpy as np

    values = np.array(rows, np.int64).reshape(len(rows), 2)
    expected = Counter(map(tuple, rows))
    assert sim._distinct(values) == list(expected.items())


@settings(deadline=None)
@given(st.lists(st.lists(st.integers(-(2**63), 2**63 - 1), min_size=3, max_size=3), max_size=30))
def test_distinct_rows_of_wide_spans_are_counted_in_order_of_first_occurrence(rows):
    import numpy as np

    values = np.array(rows, np.int64).reshape(len(rows), 3)
    assert sim._distinct(values) == list(Counter(map(tuple, rows)).items())
