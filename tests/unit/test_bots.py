"""Bots: replayable choices, legal play, and a heuristic that beats random play."""

from __future__ import annotations

import pytest
from support import cards

from rulesdsl.model.seeds import derive
from rulesdsl.play import Hand, Rules, Suit, make_bot, play_hand
from rulesdsl.play.players.bots import BOTS
from rulesdsl.play.players.registry import UnknownBot


def position() -> Hand:
    hands = [cards("KC 2D 9H"), cards("3C 5C AS 4H"), cards("2S 5H QC")]
    return Hand.from_position(Rules(), hands, cards("7D 8D"), Suit.HEARTS)


def test_lowest_and_highest_pick_by_rank_then_suit():
    hand = position()
    assert make_bot("lowest").choose(hand, hand.legal_moves()) == cards("2D")[0]
    assert make_bot("highest").choose(hand, hand.legal_moves()) == cards("KC")[0]
    tied = cards("5C 5H 5S")
    assert make_bot("lowest").choose(hand, tied) == cards("5C")[0]
    assert make_bot("highest").choose(hand, tied) == cards("5S")[0]


def test_random_bot_is_reproducible_from_its_seed():
    legal = cards("2C 3C 4C 5C 6C 7C 8C 9C")

    def picks(seed: int) -> list:
        bot = make_bot("random", seed)
        return [bot.choose(position(), legal) for _ in range(20)]

    assert picks(1) == picks(1)
    assert picks(2) != picks(1)
    assert len(set(picks(1))) > 1


def test_heuristic_wins_cheaply_when_it_plays_last():
    hand2 = Hand.from_position(
        Rules(), [cards("9C 2D"), cards("3C 5S"), cards("JC QC 2H")], cards("7D"), Suit.HEARTS
    )
    hand2.play(cards("9C")[0])
    hand2.play(cards("3C")[0])
    assert make_bot("heuristic").choose(hand2, hand2.legal_moves()) == cards("JC")[0]


def test_heuristic_keeps_trumps_when_it_cannot_win_with_a_side_card():
    hand = Hand.from_position(
        Rules(), [cards("AC 2D"), cards("2H 7S 3D"), cards("KC QC")], cards("7D"), Suit.HEARTS
    )
    hand.play(cards("AC")[0])
    assert make_bot("heuristic").choose(hand, hand.legal_moves()) == cards("3D")[0]


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_only_play_legal_cards(name):
    rules = Rules().with_options({"must_head": "yes", "when_void": "trump_if_able"})
    for number in range(30):
        hand = Hand.deal(rules, 4, number % 4, seed=number)
        bots = [make_bot(name, derive(number, s)) for s in range(4)]
        play_hand(hand, bots)  # Hand.play raises IllegalMove on an illegal card
        assert hand.outcome is not None


def test_heuristic_clearly_beats_random():
    """2,000 seeded hands; the measured share over 20,000 is 33% (benchmarks/bot_strength.py)."""
    wins = 0
    hands = 2000
    for number in range(hands):
        seat = number % 4
        bots = [make_bot("random", derive(7, number, s)) for s in range(4)]
        bots[seat] = make_bot("heuristic")
        hand = Hand.deal(Rules(), 4, (number // 4) % 4, seed=derive(7, "hand", number))
        wins += play_hand(hand, bots).winner == seat
    assert wins / hands > 0.29


def test_unknown_bot_suggests_a_name():
    with pytest.raises(UnknownBot, match="did you mean 'heuristic'"):
        make_bot("heuristc")
