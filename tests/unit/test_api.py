"""The Python API as a programmer reads it: readable str() of suits, hands and outcomes, a
seat's cards, and copies of a game that play on independently."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizing import examples
from support import cards

from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import RulesError
from rulesdsl.play import Hand, Match, Rules, Suit, make_bot


def test_a_suit_prints_as_its_letter():
    assert [str(s) for s in Suit] == ["C", "D", "H", "S"]
    assert f"{Suit.HEARTS}" == "H"


def all_out_position() -> Hand:
    """Hearts trump; A leads KC, B plays 3C, C trumps with its last card and is out at once."""
    return Hand.from_position(
        Rules().with_options({"elimination": "immediate"}),
        hands=[cards("KC"), cards("3C"), cards("2H")],
        stock=cards("9D"),
        trump=Suit.HEARTS,
        leader=0,
    )


def test_a_position_prints_trump_hands_stock_trick_and_whose_turn():
    hand = all_out_position()
    hand.play(cards("KC")[0])
    assert str(hand) == (
        "3 players, seat 0 deals, trump hearts (H)\n"
        "seat 0: -\n"
        "seat 1: 3C  <- to play\n"
        "seat 2: 2H\n"
        "stock 1, set aside 0\n"
        "trick 1: seat 0 KC"
    )


def test_every_trump_suit_prints_even_clubs():
    for suit in Suit:
        hand = Hand.from_position(Rules(), [cards("KC"), cards("3C")], trump=suit)
        assert str(hand).startswith(f"2 players, seat 0 deals, trump {suit.word} ({suit.letter})")
    assert "no trump" in str(Hand.from_position(Rules(), [cards("KC"), cards("3C")]))


def test_a_finished_hand_prints_who_is_out_and_the_outcome():
    hand = all_out_position()
    for card in cards("KC 3C 2H"):
        hand.play(card)
    text = str(hand)
    assert "seat 0: out after trick 1" in text and "seat 2: out after trick 1" in text
    assert text.endswith("over: seat 2 wins: all out after 1 trick")


@pytest.mark.parametrize(
    ("winner", "reason", "tricks", "text"),
    [
        (2, "last_player", 7, "seat 2 wins: last player after 7 tricks"),
        (0, "stock_exhausted", 1, "seat 0 wins: stock exhausted after 1 trick"),
        (None, "trick_limit", 2000, "no winner: trick limit after 2000 tricks"),
    ],
)
def test_an_outcome_prints_as_a_sentence(winner, reason, tricks, text):
    outcome = HandResult(winner, reason, tricks, (), 0, None, (), 0)
    assert str(outcome) == text


def test_a_match_prints_its_points_and_the_next_dealer_or_its_winners():
    match = Match(Rules().with_options({"match": "hands 2"}), 3, dealer=1)
    assert str(match) == "after 0 hands: points 0 0 0; seat 1 deals next"
    match.record(HandResult(2, "last_player", 5, (), 10, None, (), 1))
    assert str(match) == "after 1 hand: points 0 0 1; seat 2 deals next"
    match.record(HandResult(0, "last_player", 5, (), 10, None, (), 1))
    assert str(match) == "match over after 2 hands: seat 0, seat 2 won; points 1 0 1"


def test_a_seats_cards_are_a_copy_of_its_hand():
    hand = Hand.deal(Rules(), 4, seed=3)
    held = hand.cards(2)
    assert held == sorted(held) and len(held) == 4
    held.clear()
    assert len(hand.cards(2)) == 4
    with pytest.raises(RulesError, match="seat 4 does not exist"):
        hand.cards(4)


def state(hand: Hand) -> dict[str, Any]:
    """Everything a hand holds, its int state field by field, the generator as its state:
    equal states, equal games. (The rules and the tables made from them are shared.)"""

    def plain(value: Any) -> Any:
        return value.getstate() if isinstance(value, random.Random) else value

    held = {k: v for k, v in vars(hand).items() if k not in ("s", "plan", "codes")}
    fields = {name: plain(getattr(hand.s, name)) for name in hand.s.__slots__}
    return copy.deepcopy({**held, **fields})


def play_legally(hand: Hand, seed: int) -> None:
    """Play the hand to its end with random bots, checking each card is a legal one."""
    rng = random.Random(seed)
    while not hand.is_over:
        legal = hand.legal_moves()
        card = rng.choice(legal)
        assert hand.check(card) is None
        hand.play(card)
        assert sorted(hand.cards_in_play()) == sorted(hand.rules.cards)  # no card lost or doubled
    assert hand.outcome is not None


RULES = [
    Rules(),
    Rules().with_options({"exhaustion": "reshuffle", "draw": "2", "hand_size": "3"}),
    Rules().with_options({"trump": "stock_turnup", "elimination": "immediate"}),
]


@settings(max_examples=examples(40), deadline=None)
@given(
    st.sampled_from(RULES),
    st.integers(3, 6),
    st.integers(0, 2**32),
    st.integers(0, 30),
    st.integers(0, 2**32),
)
def test_a_copy_plays_on_without_touching_the_original(rules, players, seed, moves, other):
    hand = Hand.deal(rules, players, seed=seed)
    bots = [make_bot("random", seed + s) for s in range(players)]
    for _ in range(moves):
        if hand.is_over:
            break
        hand.play(bots[hand.to_move].choose(hand, hand.legal_moves()))
    before = state(hand)
    twin = hand.copy()
    assert state(twin) == before
    play_legally(twin, other)
    assert state(hand) == before  # playing the copy left the original as it was
    mirror = hand.copy()
    play_legally(hand, other + 1)
    play_legally(mirror, other + 1)
    assert state(mirror) == state(hand)  # a copy continues exactly as the original does


def test_a_copy_keeps_the_generator_of_reshuffles():
    # The stock is empty: the first trick's winner draws from a reshuffle of the set-aside cards.
    hand = Hand.from_position(
        Rules().with_options({"exhaustion": "reshuffle"}),
        hands=[cards("KC 2D"), cards("3C 4D"), cards("5C 6D")],
        set_aside=cards("5S 6S 7S 8S 9S 10S JS QS"),
        trump=Suit.HEARTS,
        seed=11,
    )
    twin = hand.copy()
    assert twin.rng is not hand.rng
    for played in (hand, twin):
        for card in cards("KC 3C 5C"):
            played.play(card)
    assert [e.kind for e in hand.events][-3:] == ["reshuffle", "draw", "lead"]
    assert hand.events == twin.events and hand.stock == twin.stock
