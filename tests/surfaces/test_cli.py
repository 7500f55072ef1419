"""The `rulesdsl play` command: replayable JSON, traces, the transcript and bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from support import deck_order, deck_text

from rulesdsl.surfaces.main import main

HANDS = ["2C 9C 4H 8S", "3C 10C 5H JD", "4C QC 6H 9D", "5C KC 3S 7H"]
ORDER = deck_text(deck_order(HANDS, dealer=3))


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_a_deal_replayed_with_lowest_gives_the_worked_out_json(capsys):
    code, out, _ = run(
        capsys, "play", "--deck", ORDER, "--dealer", "3", "--bots", "lowest", "--json"
    )
    assert code == 0
    (hand,) = json_lines(out)
    # Trump is hearts (7H, the dealer's last card). Seat 0 leads 2C; everyone follows
    # with their lowest club and seat 3's 5C wins.
    assert hand["trump"] == "H"
    assert hand["trick_winners"][0] == 3
    assert set(hand) >= {
        "winner",
        "reason",
        "tricks",
        "eliminated",
        "stock_left",
        "trump",
        "trick_winners",
    }
    assert hand["reason"] in ("last_player", "stock_exhausted")
    assert hand["tricks"] == len(hand["trick_winners"])


def test_the_same_deal_gives_byte_identical_json_every_run(capsys):
    args = ["play", "--deck", ORDER, "--bots", "highest", "--json", "--set", "draw=2"]
    first = run(capsys, *args)[1]
    second = run(capsys, *args)[1]
    assert first == second


def test_json_keys_match_the_documented_shape(capsys):
    code, out, _ = run(
        capsys, "play", "--bots", "heuristic,random,random,random", "--seed", "5", "--json"
    )
    assert code == 0
    lines = json_lines(out)
    for line in lines:
        assert isinstance(line["eliminated"], list)
        assert all(len(pair) == 2 for pair in line["eliminated"])
        assert line["trump"] in ("C", "D", "H", "S")
        assert len(line["points"]) == 4
    assert all(line["match_winners"] is None for line in lines[:-1])
    assert max(lines[-1]["points"]) == 3
    assert lines[-1]["match_winners"] == [lines[-1]["points"].index(3)]


def test_seeded_match_is_reproducible(capsys):
    args = ["play", "--bots", "random", "--seed", "11", "--json", "--players", "5"]
    assert run(capsys, *args)[1] == run(capsys, *args)[1]


def test_decks_file_plays_one_hand_per_line(tmp_path, capsys):
    path = tmp_path / "decks.txt"
    path.write_text(f"# two deals\n{ORDER}\n\n{ORDER}\n")
    code, out, _ = run(capsys, "play", "--decks", str(path), "--bots", "lowest", "--json")
    assert code == 0
    first, second = json_lines(out)
    assert first["hand"] == 1 and second["hand"] == 2
    assert {k: v for k, v in first.items() if k != "hand"} == {
        k: v for k, v in second.items() if k != "hand"
    }


def test_trace_writes_one_event_per_line(tmp_path, capsys):
    trace = tmp_path / "trace.jsonl"
    code, _, _ = run(
        capsys, "play", "--deck", ORDER, "--dealer", "3", "--bots", "lowest", "--trace", str(trace)
    )
    assert code == 0
    events = json_lines(trace.read_text())
    kinds = [e["event"] for e in events]
    assert kinds[:3] == ["deal", "trump", "lead"]
    assert kinds[-1] == "hand_end"
    assert {"play", "trick_won", "draw", "out"} <= set(kinds)
    lead = {"hand": 1, "event": "lead", "trick": 1, "seat": 0, "rule": "opening_lead"}
    assert events[2] == lead
    assert events[3] == {"hand": 1, "event": "play", "trick": 1, "seat": 0, "card": "2C"}
    assert events[7] == {
        "hand": 1,
        "event": "trick_won",
        "trick": 1,
        "seat": 3,
        "cards": ["2C", "3C", "4C", "5C"],
    }
    assert events[8] == {
        "hand": 1,
        "event": "draw",
        "trick": 1,
        "seat": 3,
        "cards": ["6C"],
        "stock_left": 35,
    }
    second = {"hand": 1, "event": "lead", "trick": 2, "seat": 3, "rule": "core"}
    assert events[kinds.index("lead", 3)] == second  # the winner of trick 1 leads


def test_transcript_is_readable_without_colour(capsys):
    code, out, _ = run(capsys, "play", "--bots", "lowest", "--seed", "1", "--no-color")
    assert code == 0
    assert "\x1b[" not in out
    assert "Trump:" in out and "Match over" in out


def test_set_changes_the_rules_played(capsys):
    code, out, _ = run(
        capsys,
        "play",
        "--deck",
        ORDER,
        "--bots",
        "lowest",
        "--json",
        "--set",
        "trump=spades",
        "--set",
        "exhaustion=play_out",
    )
    assert code == 0
    assert json_lines(out)[0]["trump"] == "S"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "hadn_size=5"], "unknown option 'hadn_size'; did you mean 'hand_size'?"),
        (["--set", "elimination=immediat"], "did you mean 'immediate'?"),
        (["--set", "hand_size"], "is not NAME=VALUE"),
        (["--deck", "AS KS 1H"], "'1H' is not a card"),
        (["--players", "9"], "profile equal-hands: 9 players are not allowed"),
        (["--players", "6", "--set", "hand_size=9"], "on equal-hands: 6 players x 9 cards"),
        (["--dealer", "4"], "--dealer 4: seats are 0 to 3"),
        (["--bots", "lowest,random"], "--bots names 2 seats, but there are 4 players"),
        (["--bots", "randon"], "did you mean 'random'?"),
        (["--frobnicate"], "No such option"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_status_2(capsys, args, message):
    code, out, err = run(capsys, "play", "--bots", "lowest", *args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("rulesdsl: error: ")
    assert message in err


def test_bad_line_in_decks_file_is_named_with_its_line_number(tmp_path, capsys):
    path = tmp_path / "decks.txt"
    path.write_text(f"{ORDER}\n# comment\n{ORDER.replace('QC', 'QX')}\n")
    code, _, err = run(capsys, "play", "--decks", str(path), "--bots", "lowest")
    assert code == 2
    assert f"--decks {path}:3:{ORDER.index('QC') + 1}: 'QX' is not a card" in err


def test_the_installed_command_never_shows_a_traceback():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "rulesdsl.surfaces",
            "play",
            "--set",
            "draw=lots",
            "--bots",
            "lowest",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "draw: 'lots' is not allowed" in result.stderr


def test_a_person_is_refused_an_illegal_card_with_the_rule(capsys, monkeypatch):
    # Seat 0 leads 2C; the person at seat 1 holds 3C, so JD is refused.
    answers = "JD\nXX\n3C\n" + "1\n2\n3\n4\n" * 30
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    code, out, _ = run(
        capsys,
        "play",
        "--deck",
        ORDER,
        "--dealer",
        "3",
        "--bots",
        "lowest,human,lowest,lowest",
        "--no-color",
    )
    assert code == 0
    assert "You may play: 1:3C  2:10C" in out
    assert "Not allowed:  5H JD: you hold a club: follow suit (follow)" in out
    assert "Trick 1: seat 0 (lowest) 2C" in out
    assert "JD is not allowed: you hold a club: follow suit (follow)." in out
    assert "'XX' is not a card" in out
    assert "Hand 1:" in out
    # The person sees their own cards, not the bots'.
    assert "seat 0 (lowest): 2C" not in out


def test_every_command_is_found_where_the_group_lists_it():
    from rulesdsl.surfaces.main import COMMANDS, cli

    for name, (module, _) in COMMANDS.items():
        command = cli.get_command(None, name)
        assert command is not None and command.name == name
        assert command.callback.__module__ == module
    assert cli.list_commands(None) == list(COMMANDS)


def test_start_up_imports_no_heavy_library():
    heavy = ("rich", "matplotlib", "dask", "lark", "yaml", "pygls", "lsprotocol")
    code = (
        f"import sys, rulesdsl.surfaces.main; print(sorted(m for m in {heavy} if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "[]"


def test_a_deck_replays_identically_without_a_seed_even_with_reshuffles(capsys):
    args = [
        "play",
        "--deck",
        ORDER,
        "--bots",
        "random",
        "--json",
        "--set",
        "exhaustion=reshuffle",
        "--set",
        "draw=2",
        "--players",
        "4",
    ]
    first = run(capsys, *args)[1]
    assert first == run(capsys, *args)[1]
    assert first == run(capsys, *args, "--seed", "0")[1]


def test_without_a_terminal_play_asks_for_bots(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, err = run(capsys, "play")
    assert code == 2 and out == ""
    assert "give a bot for every seat" in err
