"""Profiles: both syntaxes, inheritance with provenance, conversion and formatting."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.model.rules import DEFAULT_RULES, Rules
from rulesdsl.read.profile import (
    SHIPPED,
    load,
    load_file,
    read_document,
    shipped_files,
    shipped_names,
)
from rulesdsl.read.syntax.writer import write

SHIPPED_FILES = shipped_files()
MANUAL_PROFILES = [
    "bicycle",
    "hoyle-lift-smoke",
    "parlett-sift-smoke",
    "denexa",
    "gamerules-lift-smoke",
    "catsatcards",
    "kids-games",
    "dominorules",
]
SHEET_VARIANTS = ["instant-elimination", "opening-trumps", "seven-card-hands"]


def profile_content(profile) -> tuple:
    """What a profile says: metadata and every option's value, assumption and note."""
    settings = {
        name: (s.value, s.origin != "default", s.assumed, s.note)
        for name, s in profile.settings.items()
    }
    return profile.name, profile.title, profile.source, profile.extends, settings


def write_file(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_every_expected_profile_is_shipped():
    expected = {"equal-hands", "no-trumps", *MANUAL_PROFILES, *SHEET_VARIANTS}
    assert expected <= set(shipped_names())


@pytest.mark.parametrize("path", SHIPPED_FILES, ids=lambda p: p.name)
def test_every_shipped_profile_validates_clean(path):
    profile = load_file(path)
    assert [d.text() for d in profile.diagnostics] == []
    assert profile.title and profile.source


def test_equal_hands_is_the_default_in_both_syntaxes():
    dsl = load_file(SHIPPED / "equal-hands.rules")
    yaml = load_file(SHIPPED / "equal-hands.yaml")
    assert profile_content(dsl) == profile_content(yaml)
    assert dsl.rules == yaml.rules == DEFAULT_RULES == Rules()


@pytest.mark.parametrize("name", [*MANUAL_PROFILES, "no-trumps"])
def test_manual_profiles_mark_what_the_manual_does_not_state(name):
    profile = load(name)
    assert any(s.assumed for s in profile.settings.values())
    assert all(s.note for s in profile.settings.values() if s.assumed)


@pytest.mark.parametrize("path", SHIPPED_FILES, ids=lambda p: p.name)
def test_convert_there_and_back_gives_an_equal_profile(path, tmp_path):
    doc = read_document(path, path.read_text(encoding="utf-8"))
    other = "yaml" if doc.syntax == "dsl" else "dsl"
    there = write_file(
        tmp_path, "there" + (".yaml" if other == "yaml" else ".rules"), write(doc, other)
    )
    there_doc = read_document(there, there.read_text())
    back = write_file(tmp_path, "back" + path.suffix, write(there_doc, doc.syntax))
    original = load_file(path)
    assert profile_content(load_file(there)) == profile_content(original)
    assert profile_content(load_file(back)) == profile_content(original)
    assert back.read_text() == path.read_text()


def test_bicycle_settings_say_where_they_came_from():
    bicycle = load("bicycle")
    players = bicycle.settings["players"]
    assert players.value == (4, 6)
    assert players.assumed and players.origin == "set" and players.profile == "bicycle"
    assert players.line == 6
    assert bicycle.settings["elimination"].value == "immediate"
    assert not bicycle.settings["elimination"].assumed
    assert bicycle.chain == ("equal-hands", "bicycle")


def test_a_chain_of_profiles_inherits_with_provenance(tmp_path):
    write_file(tmp_path, "house.rules", 'profile "house" extends "bicycle" {\n    draw 2\n}\n')
    child = write_file(
        tmp_path,
        "child.yaml",
        "profile: child\nextends: ./house.rules\nhand_size: players + 1\n",
    )
    profile = load_file(child)
    assert profile.ok, [d.text() for d in profile.diagnostics]
    assert profile.chain == ("equal-hands", "bicycle", "house", "child")
    settings = profile.settings
    assert settings["hand_size"].origin == "set" and settings["hand_size"].line == 3
    assert settings["draw"].origin == "inherited" and settings["draw"].profile == "house"
    assert settings["draw"].value == 2
    assert settings["elimination"].profile == "bicycle"
    assert settings["players"].assumed
    assert settings["scoring"].profile == "bicycle"
    assert profile.rules.hand_size_for(5) == 6


def test_a_profile_without_extends_starts_from_the_registry_defaults(tmp_path):
    path = write_file(tmp_path, "bare.rules", 'profile "bare" {\n    trump none\n}\n')
    profile = load_file(path)
    assert profile.settings["follow"].origin == "default"
    assert profile.rules == DEFAULT_RULES.with_options({"trump": "none"})


def test_an_extends_cycle_is_an_error_naming_the_chain(tmp_path):
    write_file(tmp_path, "a.rules", 'profile "a" extends "./b.rules" {\n}\n')
    write_file(tmp_path, "b.rules", 'profile "b" extends "./a.rules" {\n}\n')
    profile = load_file(tmp_path / "a.rules")
    (problem,) = [d for d in profile.diagnostics if d.is_error]
    assert problem.code == "extends-cycle"
    assert "a.rules -> b.rules -> a.rules" in problem.message
    assert (problem.line, problem.column) == (1, 21)


def test_extends_an_unknown_profile_suggests_the_closest_name(tmp_path):
    path = write_file(tmp_path, "x.rules", 'profile "x" extends "bicycel" {\n}\n')
    (problem,) = load_file(path).diagnostics
    assert problem.code == "unknown-profile"
    assert problem.hint == "did you mean 'bicycle'?"


def test_a_parent_with_errors_is_reported_at_extends(tmp_path):
    write_file(tmp_path, "parent.rules", 'profile "parent" {\n    trump hart\n}\n')
    child = write_file(tmp_path, "child.rules", 'profile "child" extends "parent.rules" {\n}\n')
    (problem,) = load_file(child).diagnostics
    assert problem.code == "bad-parent"
    assert "trump" in problem.message and problem.line == 1


def test_a_missing_profile_name_is_reported():
    profile = load("no-such-profile")
    assert profile.diagnostics[0].code == "unknown-profile"


FORMATTED = """\
# house rules
profile "house" extends "equal-hands" {
    title "House rules"

    # we like long hands
    hand_size players + 1  # one more than usual
    assumed elimination immediate "we never agreed on this"
    # the end
}
"""

MESSY = """\
# house rules

profile  house   extends equal-hands
{
  assumed   elimination immediate   "we never agreed on this"
        # we like long hands
  hand_size players + 1     # one more than usual
  title "House rules"
        # the end
}
"""


def test_fmt_writes_the_canonical_layout_and_keeps_every_comment(tmp_path):
    path = write_file(tmp_path, "house.rules", MESSY)
    doc = read_document(path, MESSY)
    assert doc.ok
    assert write(doc, "dsl") == FORMATTED
    assert write(read_document(path, FORMATTED), "dsl") == FORMATTED


def test_comments_survive_conversion_to_yaml_and_back(tmp_path):
    path = write_file(tmp_path, "house.rules", FORMATTED)
    yaml_text = write(read_document(path, FORMATTED), "yaml")
    assert "# we like long hands" in yaml_text
    assert "hand_size: players + 1  # one more than usual" in yaml_text
    yaml_path = write_file(tmp_path, "house.yaml", yaml_text)
    assert write(read_document(yaml_path, yaml_text), "dsl") == FORMATTED


def test_yaml_values_use_the_same_expression_grammar(tmp_path):
    path = write_file(
        tmp_path,
        "x.yaml",
        "profile: x\nhand_size: min(players, 5)\nmatch: hands players\n"
        "deck: [A, K, Q, J, 10, 9, 8, 7]\nplayers: 3..4\n",
    )
    profile = load_file(path)
    assert profile.ok, [d.text() for d in profile.diagnostics]
    assert profile.rules.hand_size_for(6) == 5
    assert len(profile.rules.cards) == 32


def test_yaml_assumed_and_note_forms(tmp_path):
    path = write_file(
        tmp_path,
        "x.yaml",
        "profile: x\n"
        "exhaustion:\n  value: play_out\n  assumed: the manual is silent\n"
        "draw:\n  value: 1\n  note: one card a trick\n"
        "follow:\n  value: suit\n  assumed: true\n",
    )
    settings = load_file(path).settings
    assert (settings["exhaustion"].assumed, settings["exhaustion"].note) == (
        True,
        "the manual is silent",
    )
    assert (settings["draw"].assumed, settings["draw"].note) == (False, "one card a trick")
    assert (settings["follow"].assumed, settings["follow"].note) == (True, None)
