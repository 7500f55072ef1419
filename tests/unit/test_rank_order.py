"""A deck's rank list is its rank order, highest first (docs/rules.md, "Options"), everywhere."""

from __future__ import annotations

import json
import random

import pytest
from support import cards, same_game

from rulesdsl.model.cards import Suit
from rulesdsl.model.rules import Rules
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.fast import compile_hand, to_int
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.players.bots import HeuristicBot
from rulesdsl.play.players.registry import make_bot
from rulesdsl.read.profile import load_file
from rulesdsl.surfaces.main import main
from rulesdsl.words.explain import rule_sheet, sentence

ACES_LOW = "K Q J 10 9 8 7 6 5 4 3 2 A"
TEN_HIGH = "A 10 K Q J 9 8 7"


def rules(deck: str, **more: str) -> Rules:
    return Rules().with_options({"deck": deck, "players": "2..6", **more})


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("deck", "order"),
    [
        (ACES_LOW, (13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 14)),
        (TEN_HIGH, (14, 10, 13, 12, 11, 9, 8, 7)),
    ],
)
def test_the_order_written_is_kept(deck, order):
    assert rules(deck).deck == order
    assert rules(deck).text("deck") == deck


def test_a_trick_is_won_by_the_profile_order_in_the_reference_engine():
    low = rules(ACES_LOW, trump="none")
    hand = Hand.from_position(low, [cards("AC 5D"), cards("KC 6D")], cards("2H 3H"), None)
    hand.play(cards("AC")[0])
    (won,) = [e for e in hand.play(cards("KC")[0]) if type(e).__name__ == "TrickWon"]
    assert won.seat == 1  # the king beats the ace when aces are low
    ten = rules(TEN_HIGH, trump="none")
    hand = Hand.from_position(ten, [cards("KC 8D"), cards("10C 9D")], cards("7H AH"), None)
    hand.play(cards("KC")[0])
    (won,) = [e for e in hand.play(cards("10C")[0]) if type(e).__name__ == "TrickWon"]
    assert won.seat == 1  # the ten ranks above the king


@pytest.mark.parametrize(("deck", "winner"), [("standard", 1), (ACES_LOW, 0)])
def test_a_trick_is_won_by_the_profile_order_in_the_compiled_path(deck, winner):
    played = rules(deck, trump="none", hand_size="1")
    order = cards("AC KC") + [c for c in played.cards if c not in cards("AC KC")]
    fast = compile_hand(played, 2, ("lowest", "lowest"))
    got = fast([to_int(c) for c in order], 0, Stream(0), 0)
    assert got.trick_winners == (winner,)  # seat 1 leads the ace, seat 0 follows the king


def test_must_head_asks_for_a_card_higher_in_the_profile_order():
    low = rules(ACES_LOW, must_head="yes", trump="none")
    hand = Hand.from_position(low, [cards("2C 5D"), cards("AC 3C 9D")], cards("2H 3H"), None)
    hand.play(cards("2C")[0])
    assert hand.legal_moves() == cards("3C")  # the ace is below the two
    assert hand.check(cards("AC")[0]).rule == "must_head"


def test_the_deterministic_bots_pick_by_the_profile_order():
    low = rules(ACES_LOW)
    hand = Hand.from_position(low, [cards("AC 2D KH"), cards("5C 6D")], cards("7H"), Suit.SPADES)
    legal = hand.legal_moves()
    assert make_bot("lowest").choose(hand, legal) == cards("AC")[0]
    assert make_bot("highest").choose(hand, legal) == cards("KH")[0]
    assert HeuristicBot().choose(hand, legal) == cards("KH")[0]  # it leads its highest side card
    assert hand.hands[0] == cards("AC 2D KH")  # hands are held in play order


@pytest.mark.parametrize("deck", [ACES_LOW, TEN_HIGH, "7 8 9 10 J Q K A"])
@pytest.mark.parametrize("bot", ["lowest", "highest", "heuristic", "random"])
def test_both_engines_play_the_same_games_in_any_order(deck, bot):
    played = rules(deck, must_head="yes")
    for seed in range(30):
        same_game(played, 3, seed % 3, seed, (bot,) * 3)


def test_aces_low_changes_the_games_played():
    """The order is not ignored: the same deals play differently under aces low."""
    high, low = rules("standard"), rules(ACES_LOW)
    differ = 0
    for seed in range(20):
        order = list(high.cards)
        random.Random(seed).shuffle(order)
        winners = []
        for played in (high, low):
            fast = compile_hand(played, 4, ("lowest",) * 4)
            winners.append(fast([to_int(c) for c in order], 0, Stream(0), 0))
        differ += winners[0].trick_winners != winners[1].trick_winners
    assert differ > 10


PROFILE = f"""\
profile "aces-low" extends "equal-hands" {{
    deck {ACES_LOW}
}}
"""


@pytest.fixture
def aces_low(tmp_path):
    path = tmp_path / "aces-low.rules"
    path.write_text(PROFILE, encoding="utf-8")
    return path


def test_show_prints_the_order_written(capsys, aces_low):
    code, out, _ = run(capsys, "show", str(aces_low))
    assert code == 0
    (line,) = [line for line in out.splitlines() if line.split()[:1] == ["deck"]]
    assert line.split()[1:14] == ACES_LOW.split()
    code, out, _ = run(capsys, "show", str(aces_low), "--json")
    assert json.loads(out)["options"]["deck"]["value"] == ACES_LOW


def test_fmt_and_convert_keep_the_order(capsys, aces_low, tmp_path):
    code, out, _ = run(capsys, "convert", str(aces_low), "--to", "yaml")
    assert code == 0 and f"deck: {ACES_LOW}\n" in out
    back = tmp_path / "back.yaml"
    back.write_text(out, encoding="utf-8")
    assert load_file(back).rules.deck == load_file(aces_low).rules.deck
    code, out, _ = run(capsys, "convert", str(back), "--to", "dsl")
    assert f"    deck {ACES_LOW}\n" in out
    assert run(capsys, "fmt", "--check", str(aces_low))[0] == 0


def test_diff_and_explain_state_the_order(capsys, aces_low):
    code, out, _ = run(capsys, "diff", "equal-hands", str(aces_low))
    assert code == 1
    assert f"aces-low: {ACES_LOW} (stated" in out
    sheet = " ".join(rule_sheet(load_file(aces_low)).split())
    assert f"not the usual one: {ACES_LOW}." in sheet
    assert "not the usual one" not in sentence("deck", rules("A K Q J 10 9 8 7").deck)
    assert "not the usual one: A 10 K Q J 9 8 7" in sentence("deck", rules(TEN_HIGH).deck)
    for lang in ("pt", "uk"):
        assert ACES_LOW in sentence("deck", rules(ACES_LOW).deck, lang)


def test_play_honours_the_order_from_the_command_line(capsys):
    args = ["play", "--bots", "lowest", "--seed", "3", "--json", "--players", "4"]
    _, high, _ = run(capsys, *args)
    _, low, _ = run(capsys, *args, "--set", f"deck={ACES_LOW}")
    assert high != low


@pytest.mark.parametrize(
    ("deck", "warned"),
    [
        ("2 3 4 5 6 7 8 9 10 J Q K A", True),
        ("9 10 J Q K A", True),
        (ACES_LOW, False),
        (TEN_HIGH, False),
        ("A K Q J 10 9 8 7", False),
    ],
)
def test_ranks_listed_lowest_first_are_warned_of(tmp_path, deck, warned):
    path = tmp_path / "house.rules"
    path.write_text(f'profile "house" {{\n    players 3\n    deck {deck}\n}}\n', encoding="utf-8")
    codes = [d.code for d in load_file(path).diagnostics]
    assert codes == (["ranks-low-first"] if warned else [])
