"""follow any, draw_by, next_lead and trump stock_bottom (docs/rules.md, "The order of a trick",
steps 4, 5 and 10; "Options"; "Reproducible deals"): hand-built positions on the reference engine,
and dealt hands that both engines must play alike."""

from __future__ import annotations

import random

import pytest

from rulesdsl.model.cards import Card, Suit, parse_cards
from rulesdsl.model.rules import Rules, RulesError
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.events import Draw, Reshuffle
from rulesdsl.play.engine.fast import compile_hand, to_int
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.players.registry import make_bot
from rulesdsl.read.check import rule_problems

H = Suit.HEARTS


def position(hands: list[str], stock: str = "", leader: int = 0, **options: str) -> Hand:
    return Hand.from_position(
        Rules().with_options(options),
        hands=[parse_cards(h) for h in hands],
        stock=parse_cards(stock),
        trump=H,
        leader=leader,
    )


def play(hand: Hand, moves: str) -> list:
    events = []
    for card in parse_cards(moves):
        events += hand.play(card)
    return events


def draws(events: list) -> list[tuple[int, str, str]]:
    """(seat, cards, rule) of each draw."""
    return [(e.seat, " ".join(map(str, e.cards)), e.rule) for e in events if isinstance(e, Draw)]


def held(hand: Hand, seat: int) -> str:
    return " ".join(map(str, hand.hands[seat]))


def both_engines(rules: Rules, players: int, order: list[Card], dealer: int) -> Hand:
    """The hand dealt from `order`, played by `lowest` bots on the reference engine; the
    compiled path must end it the same way."""
    hand = Hand.deal(rules, players, dealer, order=order, seed=5)
    play_hand(hand, [make_bot("lowest") for _ in range(players)])
    bots = ("lowest",) * players
    fast = compile_hand(rules, players, bots)([to_int(c) for c in order], 5, Stream(0), dealer)
    assert fast == hand.outcome
    return hand


# -- draw_by ----------------------------------------------------------------------------

LAST_CARD = ["AC 5D", "2C", "3C 6D"]  # seat 1 plays its last card to a trick seat 0 wins


def test_draw_by_winner_only_the_winner_draws():
    hand = position(LAST_CARD, "7S 8S 9S")
    assert draws(play(hand, "AC 2C 3C")) == [(0, "7S", "draw")]
    assert hand.eliminated == [(1, 1)]


def test_draw_by_everyone_after_draw_a_last_card_player_draws_and_stays_in():
    hand = position(LAST_CARD, "7S 8S 9S 10S", draw_by="everyone")
    events = play(hand, "AC 2C 3C")
    assert draws(events) == [(0, "7S", "draw"), (1, "8S", "draw_by"), (2, "9S", "draw_by")]
    assert hand.eliminated == []
    assert held(hand, 1) == "8S"
    assert hand.to_move == 0
    assert "draw_by" in hand.fired


def test_draw_by_everyone_immediate_a_last_card_player_is_out_and_does_not_draw():
    hand = position(LAST_CARD, "7S 8S 9S", draw_by="everyone", elimination="immediate")
    assert draws(play(hand, "AC 2C 3C")) == [(0, "7S", "draw"), (2, "8S", "draw_by")]
    assert hand.eliminated == [(1, 1)]
    assert len(hand.stock) == 1 and not hand.is_over


def test_draw_by_everyone_the_others_draw_when_the_winner_is_out():
    hand = position(
        ["AC", "2C 5D", "3C 6D"], "7S 8S 9S", draw_by="everyone", elimination="immediate"
    )
    assert draws(play(hand, "AC 2C 3C")) == [(1, "7S", "draw_by"), (2, "8S", "draw_by")]
    assert hand.to_move == 1  # the winner is out: the next active seat clockwise leads


def test_last_draw_wins_goes_to_the_player_who_took_the_last_card():
    hand = position(LAST_CARD, "7S 8S 9S", draw_by="everyone")
    play(hand, "AC 2C 3C")
    assert (hand.outcome.winner, hand.outcome.reason) == (2, "stock_exhausted")
    assert hand.outcome.winner_cards == 2


def test_last_draw_wins_stops_the_draws_at_the_last_card():
    hand = position(LAST_CARD, "7S 8S", draw_by="everyone", draw="2")
    events = play(hand, "AC 2C 3C")
    assert draws(events) == [(0, "7S 8S", "draw")]
    assert (hand.outcome.winner, hand.outcome.reason) == (0, "stock_exhausted")


def test_draw_by_everyone_reshuffles_before_a_draw_from_an_empty_stock():
    hand = position(["AC 5D", "2C 6D", "3C 7D"], "8S", draw_by="everyone", exhaustion="reshuffle")
    events = play(hand, "AC 2C 3C")
    kinds = [type(e).__name__ for e in events if isinstance(e, (Draw, Reshuffle))]
    assert kinds == ["Draw", "Reshuffle", "Draw", "Draw"]
    assert [seat for seat, _, _ in draws(events)] == [0, 1, 2]
    assert [len(h) for h in hand.hands] == [2, 2, 2] and len(hand.stock) == 1


def test_draw_by_everyone_in_both_engines_keeps_hands_full():
    rules = Rules().with_options({"draw_by": "everyone", "deck": "A K Q J 10 9 8 7"})
    for seed in range(6):
        order = list(rules.cards)
        random.Random(seed).shuffle(order)
        hand = both_engines(rules, 4, order, seed % 4)
        # 16 cards in the stock, 4 drawn a trick: it runs out at trick 4 at the latest
        assert hand.outcome.reason == "stock_exhausted" and hand.outcome.tricks == 4
        assert hand.outcome.eliminated == ()


def test_draw_by_everyone_with_reshuffle_warns_of_an_endless_hand():
    codes = {
        p.code
        for p in rule_problems(
            Rules().with_options({"draw_by": "everyone", "exhaustion": "reshuffle"})
        )
    }
    assert "endless-hand" in codes
    quiet = Rules().with_options({"draw_by": "everyone", "exhaustion": "reshuffle", "draw": "0"})
    assert "endless-hand" not in {p.code for p in rule_problems(quiet)}


# -- next_lead --------------------------------------------------------------------------

OPENER_OUT = ["AC 5D", "2C 6D", "3C", "4C 7D"]  # seat 2 leads its last card, seat 0 wins


@pytest.mark.parametrize(
    ("next_lead", "leader"), [("trick_winner", 0), ("left_of_winner", 1), ("opening_leader", 3)]
)
def test_next_lead_when_the_opening_leader_is_out(next_lead, leader):
    hand = position(OPENER_OUT, leader=2, next_lead=next_lead, exhaustion="play_out")
    play(hand, "3C 4C AC 2C")
    assert hand.eliminated == [(1, 2)]
    assert hand.to_move == leader


@pytest.mark.parametrize(
    ("next_lead", "leader"), [("trick_winner", 0), ("left_of_winner", 1), ("opening_leader", 2)]
)
def test_next_lead_with_everyone_in(next_lead, leader):
    hand = position(["AC 5D", "2C 6D", "3C 8D", "4C 7D"], "9S 10S", leader=2, next_lead=next_lead)
    play(hand, "3C 4C AC 2C")
    assert hand.to_move == leader


def test_left_of_winner_skips_players_who_are_out():
    hand = position(LAST_CARD, next_lead="left_of_winner", exhaustion="play_out")
    play(hand, "AC 2C 3C")
    assert hand.to_move == 2


@pytest.mark.parametrize("next_lead", ["left_of_winner", "opening_leader"])
def test_next_lead_in_both_engines(next_lead):
    rules = Rules().with_options({"next_lead": next_lead})
    default = Rules()
    changed = 0
    for seed in range(6):
        order = list(rules.cards)
        random.Random(seed).shuffle(order)
        hand = both_engines(rules, 4, order, seed % 4)
        changed += hand.outcome != both_engines(default, 4, order, seed % 4).outcome
    assert changed


# -- follow any -------------------------------------------------------------------------


def test_follow_any_lets_a_follower_holding_the_led_suit_play_anything():
    hand = position(["AC 5D", "2C 6D", "3C 7D"], "8S", follow="any")
    play(hand, "AC")
    assert {str(c) for c in hand.legal_moves()} == {"2C", "6D"}
    play(hand, "6D 3C")
    assert hand.trick_winners == [0]


def test_follow_any_keeps_when_void():
    hand = position(["AC 5D", "2H 6D", "3C 7D"], "8S", follow="any", when_void="trump_if_able")
    play(hand, "5D")
    assert {str(c) for c in hand.legal_moves()} == {"2H", "6D"}


# -- trump stock_bottom -----------------------------------------------------------------

FRONT = "2C 3C 4C 5C 6C 7C 8C 9C QH KS"


def front_order(rules: Rules) -> list[Card]:
    first = parse_cards(FRONT)
    return first + [c for c in rules.cards if c not in first]


def test_stock_bottom_turned_card_names_trump_and_goes_under_the_stock():
    rules = Rules().with_options({"trump": "stock_bottom"})
    order = front_order(rules)
    hand = Hand.deal(rules, 3, dealer=1, order=order)
    assert hand.trump == Suit.SPADES
    assert hand.stock == [*order[10:], order[9]]  # the card after the deal, moved last
    assert hand.turnup is None
    assert [len(h) for h in hand.hands] == [3, 3, 3]
    assert sorted(hand.cards_in_play()) == sorted(rules.cards)
    assert hand.events[1].card == Card.parse("KS")


def test_stock_bottom_turned_card_is_drawn_last_in_both_engines():
    # every player draws, so the stock runs out, and the draw that takes the last card
    # takes the turned-up one
    options = {"trump": "stock_bottom", "deck": "A K Q J 10 9", "draw_by": "everyone"}
    rules = Rules().with_options(options)
    for seed in range(4):
        order = list(rules.cards)
        random.Random(seed).shuffle(order)
        hand = both_engines(rules, 3, order, 0)
        drawn = [c for e in hand.events if isinstance(e, Draw) for c in e.cards]
        assert hand.outcome.reason == "stock_exhausted"
        assert drawn[-1] == order[9] and hand.outcome.trump == order[9].suit
        assert order[9] in hand.hands[hand.outcome.winner]


def test_stock_bottom_needs_a_card_after_the_deal_but_keeps_it_in_play():
    tight = {"deck": "A K", "players": "4", "hand_size": "2"}
    with pytest.raises(RulesError):
        Hand.deal(Rules().with_options({**tight, "trump": "stock_bottom"}), 4, seed=1)
    # 27 of 28 cards dealt: one card is left, turned up and drawn last, so the stock is not
    # empty (under stock_turnup it would be, and last_draw_wins would have no card).
    deep = {"deck": "A K Q J 10 9 8", "players": "3", "hand_size": "9"}
    bottom = {
        p.code for p in rule_problems(Rules().with_options({**deep, "trump": "stock_bottom"}))
    }
    turnup = {
        p.code for p in rule_problems(Rules().with_options({**deep, "trump": "stock_turnup"}))
    }
    assert "empty-stock" not in bottom and "empty-stock" in turnup
