"""The transcript and the trace of a hand that a rule the profile states ended: both name
the rule; the transcript says what it says."""

from __future__ import annotations

import io
import json

import pytest

from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.players.registry import make_bot
from rulesdsl.read.profile import Profile, load, load_file
from rulesdsl.surfaces.main import main
from rulesdsl.words.explain import phrases, rule_text
from rulesdsl.words.transcript import Style, Trace, Transcript

SHORT = """\
profile "short" extends "equal-hands" {{
    rule short {{
        end after trick 2
        winner {winner}
{say}    }}
}}
"""


def short(tmp_path, winner: str, say: str = "") -> Profile:
    path = tmp_path / "short.rules"
    said = f'        say en "{say}"\n' if say else ""
    path.write_text(SHORT.format(winner=winner, say=said), encoding="utf-8")
    profile = load_file(path)
    assert profile.ok, profile.diagnostics
    return profile


def told(profile: Profile) -> tuple[list[str], list[dict]]:
    """The transcript's lines and the trace's events of one hand played by `lowest` bots."""
    lines: list[str] = []
    stream = io.StringIO()
    readers = [Transcript(Style(False, []), lines.append, (), profile.rules), Trace(stream)]
    hand = Hand.deal(profile.rules, 4, dealer=0, seed=1)
    play_hand(hand, [make_bot("lowest")] * 4, lambda e: [read(e) for read in readers])
    return lines, [json.loads(line) for line in stream.getvalue().splitlines()]


@pytest.mark.parametrize(
    ("winner", "say", "head"),
    [
        ("none", "", "Hand 1 has no winner after 2 tricks"),
        ("trick.winner", "The hand stops after two tricks.", "Hand 1: seat "),
    ],
)
def test_a_hand_a_stated_rule_ended_names_the_rule_and_says_it(tmp_path, winner, say, head):
    profile = short(tmp_path, winner, say)
    lines, events = told(profile)
    said = rule_text(profile.house[0].rule, phrases(), profile.rules.deck).removesuffix(".")
    assert said == (say.removesuffix(".") or said) and "{" not in said
    (end,) = [line for line in lines if "the hand ends by" in line]
    assert end.startswith(head) and " after 2 tricks" in end
    assert end.endswith(f"; the hand ends by short: {said}")
    assert events[-1]["event"] == "hand_end" and events[-1]["rule"] == "short"
    assert events[-1]["reason"] == "house_rule" and events[-1]["tricks"] == 2


def test_a_hand_an_option_ended_names_its_rule_in_the_trace():
    lines, events = told(load("equal-hands"))
    assert "the hand ends by" not in "\n".join(lines)
    assert lines[-1].startswith("Hand 1: seat ") and "wins; it " in lines[-1]
    assert events[-1]["event"] == "hand_end" and events[-1]["rule"] in ("core", "exhaustion")


def test_play_prints_the_rule_that_ended_each_hand(tmp_path, capsys):
    short(tmp_path, "none")
    path = str(tmp_path / "short.rules")
    trace = tmp_path / "events.jsonl"
    args = ["play", "-p", path, "--bots", "lowest", "--seed", "3", "--trace", str(trace)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Hand 1 has no winner after 2 tricks; the hand ends by short: if the hand" in out
    ends = [json.loads(x) for x in trace.read_text().splitlines() if '"hand_end"' in x]
    assert ends and all(e["rule"] == "short" for e in ends)
