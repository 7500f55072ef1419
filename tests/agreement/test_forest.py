"""`--plot`'s forest plot: a panel for each measure that differs, each profile's
difference from the baseline in it, profiles proven to play the same hands drawn once
and named together."""

from __future__ import annotations

import pytest

from rulesdsl.read.profile import load
from rulesdsl.reason.analysis.sameness import samenesses
from rulesdsl.reason.sim import Spec, run
from rulesdsl.words.forest import groups, plot, rows
from rulesdsl.words.report import metrics

PROFILES = ("equal-hands", "no-trick-no-stay", "seven-card-hands")
"""no-trick-no-stay never acts at four players: it plays equal-hands' hands."""


@pytest.fixture(scope="module")
def compared():
    spec = Spec(tuple((name, load(name).rules) for name in PROFILES), units=400, seed=3)
    return run(spec, 1), samenesses(spec.profiles, spec.players, spec.pairs)


def test_profiles_proven_to_play_the_same_hands_are_drawn_once_named_together(compared):
    result, same = compared
    drawn = groups(result, same)
    assert [g.name(result.spec.labels) for g in drawn] == [
        "equal-hands = no-trick-no-stay",
        "seven-card-hands",
    ]
    assert [g.name(result.spec.labels) for g in groups(result, ())] == list(PROFILES)


def test_a_panel_for_each_measure_that_differs_and_a_count_of_those_equal(compared):
    result, same = compared
    panels, equal = rows(result, groups(result, same))
    labels = [panel.metric.label for panel in panels]
    assert "hand length (tricks)" in labels
    assert equal > 0 and len(panels) + equal == len(metrics(result))
    assert "hands with no winner" not in labels  # none on any deal of these profiles
    (tricks,) = [p for p in panels if p.metric.key == "tricks"]
    (difference,) = tricks.estimates  # seven-card-hands less the baseline group
    assert difference.low > 0


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_the_plot_is_written(compared, tmp_path, suffix):
    result, same = compared
    path = tmp_path / f"forest{suffix}"
    plot(result, str(path), same)
    assert path.stat().st_size > 1000
