"""A person at the terminal: the cards they may play, numbered; answers by number or card
text; help; a message for every wrong answer; and the seed that replays the game."""

from __future__ import annotations

import io
import shlex
from dataclasses import replace

import pytest
from support import cards, deck_order, deck_text

from rulesdsl.model.cards import Suit
from rulesdsl.model.rules import Rules
from rulesdsl.model.text import UNSAFE
from rulesdsl.play.engine.hand import Hand, Refusal
from rulesdsl.read.profile import load
from rulesdsl.surfaces.main import main
from rulesdsl.words import refusals
from rulesdsl.words.terminal import HumanPlayer, why
from rulesdsl.words.transcript import Style

HINT = "type a number from the list or a card such as 3C (? for help)"


def position() -> Hand:
    """Seat 0 has led 2C; seat 1 holds 3C 5H 10C JD, so only the clubs may be played."""
    hand = Hand.from_position(
        Rules(),
        hands=[cards("2C 9C"), cards("3C 5H 10C JD"), cards("4C QC")],
        stock=cards("9D 8D"),
        trump=Suit.HEARTS,
    )
    hand.play(cards("2C")[0])
    return hand


def answer(*answers: str) -> tuple[str, list[str]]:
    """The card the person picks after typing `answers` in turn, and every line shown."""
    lines: list[str] = []
    replies = iter(answers)

    def read(prompt: str) -> str:
        lines.append(prompt)
        return next(replies)

    hand = position()
    card = HumanPlayer(Style(False, ["lowest", "you", "lowest"]), read, lines.append).choose(
        hand, hand.legal_moves()
    )
    return str(card), lines


def test_the_legal_cards_are_numbered_and_the_refused_ones_say_why():
    _, lines = answer("1")
    assert "You may play: 1:3C  2:10C" in lines
    assert "Not allowed:  5H JD: you hold a club: follow suit (follow)" in lines
    assert lines[-1] == "Your card (1-2, a card such as 3C, or ? for help): "


@pytest.mark.parametrize(("typed", "card"), [("1", "3C"), ("2", "10C"), ("10c", "10C")])
def test_a_card_is_named_by_its_number_in_the_list_or_by_its_text(typed, card):
    assert answer(typed)[0] == card


def test_a_number_outside_the_list_says_what_was_expected():
    card, lines = answer("7", "4", "0", "2")
    expected = f"is not a number from 1 to 2 nor a card; {HINT}."
    assert [line for line in lines if "is not a number" in line] == [
        f"{n} {expected}" for n in (7, 4, 0)
    ]
    assert card == "10C"


@pytest.mark.parametrize("word", ["help", "?", "HELP"])
def test_help_says_what_can_be_typed_and_why_cards_are_refused(word):
    card, lines = answer(word, "1")
    text = "\n".join(lines)
    assert "Type the number of a card in the list (1-2), or the card itself" in text
    assert "Not allowed now: 5H JD: you hold a club: follow suit (follow)." in text
    assert card == "3C"


def test_every_wrong_answer_is_told_and_asked_again():
    card, lines = answer("", "XX", "KS", "JD", "3C")
    said = [line for line in lines if not line.startswith("Your card")][-4:]
    assert said[0] == f"T{HINT[1:]}."
    assert said[1].startswith("'XX' is not a card") and "or type a number from the list" in said[1]
    assert said[2] == f"You do not hold KS; {HINT}."
    assert said[3] == "JD is not allowed: you hold a club: follow suit (follow)."
    assert card == "3C"


HANDS = ["2C 9C 4H 8S", "3C 10C 5H JD", "4C QC 6H 9D", "5C KC 3S 7H"]


def play_as_a_person(capsys, monkeypatch, args: list[str]) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    assert main(["play", *args]) == 0
    return capsys.readouterr().out


def test_the_game_starts_with_its_seed_and_the_command_that_replays_it(capsys, monkeypatch):
    args = ["--bots", "human,random,random,random", "--set", "draw=2", "--no-color"]
    out = play_as_a_person(capsys, monkeypatch, args)
    first = out.splitlines()[0]
    assert first.startswith("Seed ") and "; to replay: rulesdsl play " in first
    seed = first.split()[1].rstrip(";")
    command = shlex.split(first.split("; to replay: ")[1])
    assert command == ["rulesdsl", "play", *args[:2], "--seed", seed, *args[2:]]
    assert play_as_a_person(capsys, monkeypatch, command[2:]) == out


def test_the_replay_command_keeps_a_deck_and_leaves_out_the_trace(capsys, monkeypatch, tmp_path):
    deck = deck_text(deck_order(HANDS, dealer=3))
    trace = str(tmp_path / "events.jsonl")
    args = ["--deck", deck, "--dealer", "3", "--bots", "lowest,human,lowest,lowest"]
    first = play_as_a_person(capsys, monkeypatch, [*args, "--trace", trace]).splitlines()[0]
    assert shlex.split(first.split("; to replay: ")[1])[2:] == [
        "--bots",
        "lowest,human,lowest,lowest",
        "--seed",
        "0",
        "--dealer",
        "3",
        "--deck",
        deck,
    ]


# -- a card a rule the profile states refuses -------------------------------------------

LANGS = ("en", "pt", "uk")


def stated_answers(lang: str, *answers: str) -> list[str]:
    """Every line shown to a person leading 2H 3C under trumps-broken (hearts trump, none
    played yet), answering in turn, told why in `lang`."""
    hand = Hand.from_position(
        load("trumps-broken").rules, [cards("2H 3C"), cards("4C")], trump=Suit.HEARTS
    )
    lines: list[str] = []
    replies = iter(answers)

    def read(prompt: str) -> str:
        lines.append(prompt)
        return next(replies)

    HumanPlayer(Style(False, []), read, lines.append, lang).choose(hand, hand.legal_moves())
    return lines


@pytest.mark.parametrize("lang", LANGS)
def test_a_card_a_stated_rule_refuses_says_the_rules_own_sentence_in_the_players_language(lang):
    own = load("trumps-broken").house[0].rule.sentence(lang)
    assert own is not None
    why = f"{own.removesuffix('.')} (trumps-broken)"
    lines = stated_answers(lang, "2H", "?", "1")
    assert f"Not allowed:  2H: {why}" in lines
    assert f"2H is not allowed: {why}." in lines
    assert f"Not allowed now: 2H: {why}." in "\n".join(lines)


def test_a_rules_sentence_is_shown_with_its_control_characters_escaped():
    rule = replace(load("trumps-broken").house[0].rule, sentences=(("en", "Wait\x1b[31m."),))
    refusal = Refusal(cards("2H")[0], rule.name, ("refused", "house"), stated=rule)
    assert refusals.said(refusal) == "Wait\x1b[31m"
    assert why(refusal) == "Wait\\x1b[31m (trumps-broken)"


def test_play_tells_a_person_why_in_the_language_asked_for(capsys, monkeypatch):
    # Seat 0 deals and shows 7H: hearts are trump; seat 1, the person, leads 2H 5C 9C.
    deck = deck_text(deck_order(["8S 9S 7H", "2H 5C 9C", "3D 4D 5D"], dealer=0))
    args = ["-p", "trumps-broken", "-n", "3", "--deck", deck, "--dealer", "0"]
    rule = load("trumps-broken").house[0].rule
    for lang in ("en", "pt"):
        more = ["--lang", lang] if lang != "en" else []
        out = play_as_a_person(capsys, monkeypatch, [*args, "--bots", "lowest,human,lowest", *more])
        own = (rule.sentence(lang) or "").removesuffix(".")
        assert f"Not allowed:  2H: {own} (trumps-broken)" in out


@pytest.mark.parametrize(
    "typed",
    ["\x1b]0;owned\x07", "\u202e3C", "X" * 100_000, "1" * 5_000, "1" * 5_000 + "H", "\x1b[2J" * 99],
)
def test_a_hostile_answer_is_told_back_escaped_and_cut(typed):
    card, lines = answer(typed, "1")
    (told,) = [line for line in lines if not line.startswith(("Your card", "You may", "Not"))][-1:]
    assert card == "3C"
    assert len(told) < 300 and not UNSAFE.search(told)
