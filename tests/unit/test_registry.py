"""The rule units come from the entry point group `rulesdsl.rules`: the built-ins first, in
their fixed order, then other packages' units by name; a unit that cannot be a rule is
refused in one line naming its package and entry point, and left out."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from rulesdsl.model.result import EndReason
from rulesdsl.model.rules import UNITS
from rulesdsl.model.state import State
from rulesdsl.model.units import BUILT_IN, Step
from rulesdsl.model.units.base import COMPOSITION, ENDING_STEPS, Composition
from rulesdsl.model.units.follow import UNIT as FOLLOW
from rulesdsl.model.units.registry import (
    GROUP,
    Registry,
    load,
    others_declare,
    report,
    step_clashes,
    step_problems,
)

ROOT = Path(__file__).parents[2]
BUILT_IN_UNITS = [module.UNIT for module in BUILT_IN]


@dataclass
class Point:
    """An entry point as `importlib.metadata` gives it: a name, a value, a package."""

    name: str
    loads: Callable[[], Any]
    package: str = "house-rules"

    @property
    def value(self) -> str:
        return f"house_rules:{self.name.upper()}"

    @property
    def dist(self) -> SimpleNamespace:
        return SimpleNamespace(name=self.package)

    def load(self) -> Any:
        return self.loads()


def unit_named(name: str, **changes: Any) -> Any:
    """A third-party unit: the follow rule under another name, with its own phrases."""
    phrases = {"en": {word: f"Follow: {word}." for word in FOLLOW.kind.words()}}
    refusals = {"en": {"suit": "follow suit", "suit_or_trump": "follow suit or trump"}}
    given = {"phrases": phrases, "refusals": refusals, **changes}
    return dataclasses.replace(FOLLOW, name=name, **given)


def point(name: str, package: str = "house-rules", **changes: Any) -> Point:
    return Point(name, lambda: unit_named(name, **changes), package)


def loaded(*points: Point) -> Registry:
    return load(BUILT_IN_UNITS, points)


def test_the_built_in_units_are_the_installed_entry_point_of_the_group():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    assert declared[GROUP] == {"rulesdsl": "rulesdsl.model.units:BUILT_IN_UNITS"}
    (installed,) = [p for p in entry_points(group=GROUP) if p.dist.name == "rulesdsl"]
    assert installed.load() == tuple(BUILT_IN_UNITS) == UNITS[: len(BUILT_IN)]


def test_every_module_of_the_units_package_that_declares_a_unit_is_built_in():
    folder = ROOT / "rulesdsl" / "model" / "units"
    declaring = {p.stem for p in folder.glob("*.py") if "\nUNIT = " in p.read_text()}
    assert {module.__name__.rsplit(".", 1)[1] for module in BUILT_IN} == declaring
    places = [unit.place for unit in BUILT_IN_UNITS]
    assert places == sorted(set(places)), "each built-in has a place of its own, in order"


def test_built_ins_keep_their_order_and_other_packages_follow_by_name():
    own = [Point(u.name, lambda u=u: u, "rulesdsl") for u in reversed(BUILT_IN_UNITS)]
    registry = loaded(point("zebra"), *own, point("aardvark", "other-rules"))
    assert [u.name for u in registry.units] == [
        *(u.name for u in BUILT_IN_UNITS),
        "aardvark",
        "zebra",
    ]
    assert registry.refused == ()


def test_without_the_package_metadata_the_built_ins_are_found_all_the_same():
    assert loaded().units == tuple(BUILT_IN_UNITS)


def two_returns(s: State, seat: int, allowed: list[int]) -> list[int]:
    if s.holding:
        return s.holding
    return allowed


def closing_over(cards: list[int]) -> Callable:
    def keep(s: State, seat: int, allowed: list[int]) -> list[int]:
        return cards

    return keep


def tries(s: State, seat: int, allowed: list[int]) -> list[int]:
    try:
        kept = [c for c in allowed if c & 3 == s.led]
    except IndexError:
        kept = allowed
    return kept


def broken_import() -> Any:
    raise ImportError("No module named 'house_rules'")


REFUSED = [
    (Point("lead_low", lambda: "lead low"), "it is a str, not a rulesdsl.model.units.base.Unit"),
    (Point("lead_low", broken_import), "cannot be loaded: ImportError: No module named"),
    (Point("lead_low", lambda: unit_named("other")), "named 'lead_low' but the unit 'other'"),
    (point("title"), "'title' is a word of every profile, not a rule name"),
    (point("follow"), "the rule 'follow' is already registered by rulesdsl (a built-in"),
    (
        point("x", plays=lambda v: {Step.FOLLOW_FILTER: two_returns}),
        "two_returns must have one return, at its end",
    ),
    (
        point("x", plays=lambda v: {Step.FOLLOW_FILTER: closing_over([])}),
        "keep is not a plain function (no lambdas, no closures",
    ),
    (
        point("x", plays=lambda v: {Step.FOLLOW_FILTER: tries}),
        "tries cannot be inlined by the fast path: it uses a Try statement",
    ),
    (
        point("x", plays=lambda v: {Step.FOLLOW_FILTER: lambda s, seat, allowed: allowed}),
        "<lambda> is not a plain function",
    ),
    (point("x", refusals={}), "a value that filters cards says why in refusals"),
    (
        point("x", refusals={"en": {"suit": "follow", "suit_or_trump": "or trump", "any": "no"}}),
        "and only such a value: 'any'",
    ),
    (
        point("x", refusals={"en": {"suit": "follow", "suit_or_trump": "or"}, "pt": {}}),
        "its refusals in 'pt' have no sentence for the value 'suit'",
    ),
    (point("x", phrases={"pt": {}}), "it brings no English phrases"),
    (point("x", phrases={"en": {"suit": "Follow."}}), "no sentence for the value 'suit_or_trump'"),
    (point("x", steps=frozenset({"follow_filter", 3})), "its steps must be a non-empty set"),
]


@pytest.mark.parametrize(("bad", "reason"), REFUSED, ids=[r for _, r in REFUSED])
def test_a_unit_that_cannot_be_a_rule_is_refused_naming_its_package(bad, reason):
    registry = loaded(point("aardvark"), bad)
    assert [u.name for u in registry.units[len(BUILT_IN) :]] == ["aardvark"]
    (refusal,) = registry.refused
    assert reason in refusal.reason
    assert refusal.package == "house-rules"
    assert f"'{bad.name} = {bad.value}' of package house-rules" in str(refusal)


def test_the_built_in_units_pass_the_checks_of_other_packages_units():
    assert [list(step_problems(unit)) for unit in BUILT_IN_UNITS] == [[]] * len(BUILT_IN_UNITS)


def more_cards(s: State, seat: int) -> int:
    return 3


def test_a_unit_on_a_step_where_one_rule_decides_is_refused_naming_both():
    """`draw` decides how many cards a drawer takes: a second count is refused, not let
    silently replace it."""
    counts = point(
        "draw_three",
        steps=frozenset({Step.DRAW_COUNT}),
        plays=lambda v: {Step.DRAW_COUNT: more_cards},
        refusals={},
    )
    registry = loaded(counts)
    assert "draw_three" not in [u.name for u in registry.units]
    (refusal,) = registry.refused
    assert "the step 'draw_count', where one rule decides" in refusal.reason
    assert "the rule 'draw' already decides it" in refusal.reason


@pytest.mark.parametrize("step", [s for s in Step if COMPOSITION[s] is Composition.EXCLUSIVE])
def test_every_step_where_one_rule_decides_refuses_a_second(step):
    holders = [u.name for u in BUILT_IN_UNITS if step in u.steps]
    ends = {step: EndReason.HOUSE_RULE} if step in ENDING_STEPS else {}
    second = point("second", steps=frozenset({step}), plays=lambda v: {}, refusals={}, ends=ends)
    registry = loaded(second)
    if holders:
        (refusal,) = registry.refused
        assert f"the rule '{holders[0]}' already decides it" in refusal.reason
    else:
        assert "second" in [u.name for u in registry.units]


def test_the_built_in_units_decide_each_exclusive_step_once():
    deciders = list(BUILT_IN_UNITS)
    for i, unit in enumerate(deciders):
        assert list(step_clashes(unit, deciders[:i])) == []


def test_play_filters_of_two_packages_compose():
    registry = loaded(point("a_filter"), point("b_filter"))
    assert registry.refused == ()
    assert [u.name for u in registry.units[len(BUILT_IN) :]] == ["a_filter", "b_filter"]


def test_of_two_packages_with_one_rule_name_the_second_is_refused():
    registry = loaded(point("lead_low", "a-rules"), point("lead_low", "b-rules"))
    assert [u.name for u in registry.units[len(BUILT_IN) :]] == ["lead_low"]
    (refusal,) = registry.refused
    assert refusal.package == "b-rules"
    assert "already registered by a-rules" in refusal.reason


def test_each_refusal_is_one_line_on_stderr(capsys):
    report(loaded(Point("a", lambda: 1), Point("b", broken_import)))
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2
    assert all(line.startswith("rulesdsl: warning: the rule unit") for line in lines)


def test_a_refused_package_does_not_stop_the_command(tmp_path):
    """A package whose unit is broken: the command says so once and runs, no traceback."""
    dist = tmp_path / "broken_rule-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-rule\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(f"[{GROUP}]\nlead_low = broken_rule:UNIT\n")
    (tmp_path / "broken_rule.py").write_text("UNIT = 1 / 0\n")
    result = subprocess.run(
        [sys.executable, "-m", "rulesdsl.surfaces", "validate", str(ROOT / "profiles")],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tmp_path), "PATH": ""},
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        "rulesdsl: warning: the rule unit 'lead_low = broken_rule:UNIT' of package broken-rule "
        f"(entry point group {GROUP}) is refused and left out: it cannot be loaded: "
        "ZeroDivisionError: division by zero"
    )
    assert "Traceback" not in result.stderr
    assert "0 error(s)" in result.stderr


def dist_info(folder: Path, name: str, points: str) -> None:
    info = folder / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "entry_points.txt").write_text(points)


def test_the_metadata_is_read_only_when_another_package_declares_the_group(tmp_path):
    own, other, unrelated = tmp_path / "own", tmp_path / "other", tmp_path / "unrelated"
    dist_info(own, "rulesdsl", f"[{GROUP}]\nfollow = rulesdsl.model.units.follow:UNIT\n")
    dist_info(other, "house_rules", f"[console_scripts]\nx = a:b\n[{GROUP}]\nx = a:B\n")
    dist_info(unrelated, "click", "[console_scripts]\nclick = click:main\n")
    zipped = tmp_path / "rules.zip"
    zipped.write_bytes(b"PK")
    assert not others_declare([str(own), str(unrelated), str(tmp_path / "missing")])
    assert others_declare([str(own), str(other)])
    assert others_declare([str(zipped)]), "a zip file on the path is not read: it may"
