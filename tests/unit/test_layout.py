"""Every report fits the width it is laid out for, and no cell or word is broken to fit."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.read.profile import load
from rulesdsl.reason import sim
from rulesdsl.surfaces.main import main
from rulesdsl.words import report
from rulesdsl.words.layout import PIPED_WIDTH, Page

WIDTHS = (80, 120)
LONG_TITLE = (
    "Our kitchen-table rules, as agreed after a long argument about what happens "
    "when the stock runs out and every hand empties in the same trick"
)
LONG_NOTE = (
    "we argued about this for an evening; grandmother says the dealer's turn-up decides, "
    "the cousins say it never mattered, and nobody wrote it down until 2026"
)
# An interval as the reports print it: `low..high`, maybe in parentheses, maybe marked `*`.
NUMBER = r"[+-]?\d+(?:\.\d+)?(?:e[+-]\d+)?%?"
INTERVAL = re.compile(rf"\(?{NUMBER}\.\.{NUMBER}\)?")
RUNS = ["one", "two", "four", "matches", "long labels"]


@pytest.fixture
def house(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A profile with a long title, source and note, and a long file name, in the cwd."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "our-kitchen-table-house-rules-2026.rules"
    path.write_text(
        'profile "our-kitchen-table-house-rules-2026" extends "equal-hands" {\n'
        f'    title "{LONG_TITLE}"\n'
        f'    source "{LONG_NOTE}"\n'
        f'    hand_size players + 1 "{LONG_NOTE}"\n'
        f'    assumed exhaustion play_out "{LONG_NOTE}"\n'
        "}\n"
    )
    return Path(path.name)


def assert_fits(out: str, width: int) -> None:
    """No line is wider than `width`, except where one word (a path) is wider than the room."""
    for line in out.splitlines():
        assert len(line) <= width or any(
            "/" in word and len(word) > width // 2 for word in line.split()
        ), f"{len(line)} columns: {line!r}"


def words(out: str) -> Counter[str]:
    """The words printed, apart from the rules drawn under headings."""
    return Counter(w for w in out.split() if set(w) not in ({"-"}, {"="}))


def run(capsys: pytest.CaptureFixture[str], *args: object) -> str:
    assert main([str(a) for a in args]) in (0, 1)
    return capsys.readouterr().out


# -- simulate and compare ----------------------------------------------------------------


@pytest.fixture(scope="module")
def results() -> dict[str, sim.Result]:
    """Runs with one, two and four profiles (and one of matches), played once for every test."""
    names = ["equal-hands", "instant-elimination", "opening-trumps", "seven-card-hands"]

    def result(labels: dict[str, str], **options) -> sim.Result:
        profiles = tuple((label, load(name).rules) for label, name in labels.items())
        return sim.run(sim.Spec(profiles=profiles, **options), 1)

    def same(*chosen: str) -> dict[str, str]:
        return {name: name for name in chosen}

    return {
        "one": result(same(*names[:1]), units=sim.CHUNK),
        "two": result(same(*names[:2]), units=sim.CHUNK),
        "four": result(same(*names), units=sim.CHUNK),
        "matches": result(same("equal-hands", "gamerules-lift-smoke"), units=40, matches=True),
        "long labels": result(
            {"a-profile-with-a-very-long-name-indeed": "equal-hands", "bicycle": "bicycle"},
            units=sim.CHUNK,
        ),
    }


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("plain", [True, False])
@pytest.mark.parametrize("run_name", RUNS)
def test_simulation_reports_fit_with_every_figure_whole(results, run_name, width, plain):
    assert_report_fits(results[run_name], width, plain)


@settings(max_examples=examples(40), deadline=None)
@given(run_name=st.sampled_from(RUNS), width=st.integers(40, 240), plain=st.booleans())
def test_simulation_reports_fit_any_width(results, run_name, width, plain):
    assert_report_fits(results[run_name], width, plain)


def assert_report_fits(result: sim.Result, width: int, plain: bool) -> None:
    out = report.render(result, Page(width, plain))
    visible = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert_fits(visible, width)
    lines = visible.splitlines()
    for index, label in enumerate(result.spec.labels):
        assert any(label in line for line in lines)
        for metric in report.metrics(result):
            _, interval = report.figures(
                report.profile_estimate(result, index, metric), metric.share
            )
            assert any(interval in line for line in lines), (metric.key, interval)
    for word in visible.split():
        if ".." in word:
            assert INTERVAL.fullmatch(word.rstrip("*")), word


def test_two_profiles_stand_side_by_side_at_80_columns_and_four_stack(results):
    two = report.render(results["two"], Page(80)).splitlines()
    assert any("equal-hands" in line and "instant-elimination" in line for line in two)
    four = report.render(results["four"], Page(80)).splitlines()
    assert "seven-card-hands" in four  # a block of its own, under its name
    assert not any("equal-hands" in line and "opening-trumps" in line for line in four[:3])
    wide = report.render(results["four"], Page(200)).splitlines()
    assert any("equal-hands" in line and "seven-card-hands" in line for line in wide)


def test_plain_reports_use_no_colour_and_no_box_drawing(results):
    out = report.render(results["four"], Page(120, plain=True))
    assert out.isascii() and "\x1b" not in out


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("others", [[], ["opening-trumps", "seven-card-hands"]])
def test_compare_honours_width_and_pipes_at_most_100_columns(capsys, house, width, others):
    profiles = ["equal-hands", house, *others]
    args = ["compare", *profiles, "--hands", "250", "-j", "1", "--no-skill"]
    out = run(capsys, *args, "--width", width)
    assert_fits(out, width)
    assert house.stem in out
    piped = run(capsys, *args)
    assert_fits(piped, PIPED_WIDTH)
    assert max(map(len, piped.splitlines())) > 80  # the room is used


# -- the text reports --------------------------------------------------------------------


def text_reports(house: Path) -> list[list[object]]:
    return [
        ["show", house],
        ["show", "bicycle"],
        ["list"],
        ["explain", house],
        ["explain", "bicycle", "--lang", "uk"],
        ["diff", house, "bicycle"],
        ["diff", "equal-hands", "instant-elimination"],
        ["diverge", house, "instant-elimination", "--seed", "1"],
        ["diverge", "equal-hands", "instant-elimination", "--seed", "1"],
        ["options"],
    ]


@pytest.mark.parametrize("width", WIDTHS)
def test_text_reports_fit_and_wrap_only_between_words(capsys, house, width):
    for args in text_reports(house):
        out = run(capsys, *args, "--width", width)
        assert_fits(out, width)
        unwrapped = run(capsys, *args, "--width", 1000)
        assert words(out) == words(unwrapped), args


def test_show_puts_the_note_under_its_option(capsys, house):
    lines = run(capsys, "show", house, "--width", 80).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  hand_size "))
    following = lines[start + 1 : start + 6]
    assert following[0].startswith("      set in ")
    assert following[1].startswith("      (note: we argued about this")
    assert all(line.startswith("        ") for line in following[2:4])


def test_options_prints_a_block_per_option_and_markdown_on_request(capsys):
    from rulesdsl.model.rules import OPTIONS, options_table

    out = run(capsys, "options", "--width", 80)
    assert [line.split()[0] for line in out.splitlines() if not line[0].isspace()] == list(OPTIONS)
    assert run(capsys, "options", "--markdown") == options_table() + "\n"


def test_explain_wraps_a_long_title_and_underlines_it(capsys, house):
    lines = run(capsys, "explain", house, "--width", 80).splitlines()
    rule = next(i for i, line in enumerate(lines) if set(line) == {"="})
    assert " ".join(lines[:rule]) == LONG_TITLE
    assert len(lines[rule]) == max(len(line) for line in lines[:rule])
