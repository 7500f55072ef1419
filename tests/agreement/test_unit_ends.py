"""A unit of another package that ends hands says why: the end reason each of its ending
steps gives (`Unit.ends`) is the reason both engines report, and a unit that may end a hand
without saying why is refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rulesdsl.model.units.registry import GROUP

ROOT = Path(__file__).parents[2]

# `short_hand yes` ends the hand after trick 3, won by that trick's winner, for the reason
# it declares: trick_limit.
UNIT_SOURCE = """
from enum import StrEnum

from rulesdsl.model.result import EndReason
from rulesdsl.model.state import State
from rulesdsl.model.state import NO_END
from rulesdsl.model.kinds import enum_choice
from rulesdsl.model.units.base import Section, Step, Unit


class ShortHand(StrEnum):
    NO = "no"
    YES = "yes"


def after_three(s: State) -> int:
    return s.winner if s.trick_number >= 3 else NO_END


def _plays(value):
    return {Step.END_CHECK: after_three} if value is ShortHand.YES else {}


UNIT = Unit(
    "short_hand",
    enum_choice(ShortHand),
    "no",
    "the hand ends after trick 3",
    Section.ENDING,
    frozenset({Step.END_CHECK}),
    fires="it ends the hand",
    ends=ENDS,
    plays=_plays,
    phrases={"en": {"no": "Hands play out.", "yes": "A hand ends after trick 3."}},
)
"""

PROFILE = 'profile "short" extends "equal-hands" {\n    short_hand yes\n}\n'


def registered(tmp_path: Path, ends: str) -> Path:
    """A folder holding the package `short_rule` and its entry point in the group."""
    (tmp_path / "short_rule.py").write_text(UNIT_SOURCE.replace("ENDS", ends))
    info = tmp_path / "short_rule-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: short-rule\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\nshort_hand = short_rule:UNIT\n")
    (tmp_path / "short.rules").write_text(PROFILE)
    return tmp_path


def rulesdsl(site: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rulesdsl.surfaces", *args],
        capture_output=True,
        text=True,
        cwd=site,
        env={"PYTHONPATH": f"{site}:{ROOT}", "PATH": ""},
    )


def test_both_engines_end_a_hand_for_the_reason_the_unit_declares(tmp_path):
    site = registered(tmp_path, "{Step.END_CHECK: EndReason.TRICK_LIMIT}")
    played = rulesdsl(
        site, "play", "--profile", "short.rules", "--bots", "lowest", "--json", "--seed", "4"
    )
    assert played.returncode == 0, played.stderr
    hands = [json.loads(line) for line in played.stdout.splitlines()]
    assert hands and all((h["reason"], h["tricks"]) == ("trick_limit", 3) for h in hands)
    simulated = rulesdsl(
        site, "simulate", "short.rules", "--hands", "20", "-j", "1", "--no-skill", "--json"
    )
    assert simulated.returncode == 0, simulated.stderr
    metrics = json.loads(simulated.stdout)["profiles"]["short"]["metrics"]
    assert metrics["end_trick_limit"]["mean"] == 1.0
    assert metrics["end_most_tricks"]["mean"] == 0.0


def test_a_unit_that_may_end_a_hand_without_saying_why_is_refused(tmp_path):
    site = registered(tmp_path, "{}")
    checked = rulesdsl(site, "validate", str(ROOT / "profiles"))
    assert checked.returncode == 0, checked.stderr
    assert checked.stderr.splitlines()[0].endswith(
        "is refused and left out: its ends must give an EndReason for each step where it "
        "may end a hand (end_check)"
    )
