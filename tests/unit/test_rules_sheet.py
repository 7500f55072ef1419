"""The worked example (section 06) and the FAQ of the rules sheet, and the 4-player deal."""

from support import cards, deck_order

from rulesdsl.model.cards import Card, Suit
from rulesdsl.model.rules import Rules
from rulesdsl.play.engine.events import Deal, Draw, Out, TrickWon, TrumpShown
from rulesdsl.play.engine.hand import Hand

A, B, C, D = range(4)


def worked_example(stock: str) -> Hand:
    """Hearts are trump; A leads; C holds only 2H; B's 3C is B's last card."""
    hands = [cards("KC 5S"), cards("3C"), cards("2H"), cards("AC 7S")]
    return Hand.from_position(Rules(), hands, cards(stock), Suit.HEARTS, leader=A)


def play_trick(hand: Hand, *plays: str) -> list:
    events = []
    for text in plays:
        events += hand.play(Card.parse(text))
    return events


def test_worked_example_c_wins_by_trumping_draws_9d_and_stays_in():
    hand = worked_example("9D 4S")
    events = play_trick(hand, "KC", "3C", "2H", "AC")
    assert TrickWon(1, C, tuple(cards("KC 3C 2H AC"))) in events
    assert Draw(1, C, (Card.parse("9D"),), 1) in events
    assert hand.hands[C] == cards("9D")
    assert hand.active[C]
    assert hand.set_aside == cards("KC 3C 2H AC")
    assert hand.outcome is None
    assert hand.to_move == C


def test_worked_example_a_player_whose_last_card_lost_is_out():
    hand = worked_example("9D 4S")
    events = play_trick(hand, "KC", "3C", "2H", "AC")
    assert [e for e in events if isinstance(e, Out)] == [Out(1, B)]
    assert hand.active == [True, False, True, True]
    assert hand.eliminated == [(1, B)]


def test_worked_example_when_9d_was_the_last_stock_card_c_wins_the_hand():
    hand = worked_example("9D")
    play_trick(hand, "KC", "3C", "2H", "AC")
    assert hand.outcome.winner == C
    assert hand.outcome.reason == "stock_exhausted"
    assert hand.outcome.stock_left == 0


def test_faq_winning_does_not_grow_the_hand():
    hand = Hand.from_position(
        Rules(), [cards("AC 2D 3D"), cards("KC 4D 5D"), cards("QC 6D 7D")], cards("9S 9H")
    )
    play_trick(hand, "AC", "KC", "QC")
    assert [len(h) for h in hand.hands] == [3, 2, 2]


def test_faq_a_last_card_winner_is_not_eliminated():
    hand = Hand.from_position(
        Rules(), [cards("AC"), cards("KC 4D"), cards("QC 6D")], cards("9S 9H")
    )
    play_trick(hand, "AC", "KC", "QC")
    assert hand.active[0]
    assert hand.hands[0] == cards("9S")


def test_faq_the_winner_draws_one_card_not_one_per_captured_card():
    hand = Hand.from_position(
        Rules(),
        [cards("AC 2D"), cards("KC 4D"), cards("QC 6D"), cards("JC 8D")],
        cards("9S 9H 9C 9D 8S"),
    )
    events = play_trick(hand, "AC", "KC", "QC", "JC")
    assert [e for e in events if isinstance(e, Draw)] == [Draw(1, 0, (Card.parse("9S"),), 4)]
    assert len(hand.stock) == 4


def test_four_player_deal_four_each_36_in_stock_trump_card_in_dealers_hand():
    order = deck_order(["2C 3C 4C 5C", "2D 3D 4D 5D", "2H 3H 4H 5H", "2S 3S 4S 5S"], dealer=3)
    hand = Hand.deal(Rules(), 4, dealer=3, order=order)
    assert [len(h) for h in hand.hands] == [4, 4, 4, 4]
    assert len(hand.stock) == 36
    assert hand.stock == order[16:]
    assert hand.trump == Suit.SPADES
    assert Card.parse("5S") in hand.hands[3]
    assert order[15] == Card.parse("5S")
    assert hand.turnup is None
    assert TrumpShown(Suit.SPADES, Card.parse("5S"), "dealer_last_card") in hand.events
    assert hand.events[0] == Deal(
        3,
        tuple(
            tuple(cards(h)) for h in ["2C 3C 4C 5C", "2D 3D 4D 5D", "2H 3H 4H 5H", "2S 3S 4S 5S"]
        ),
        36,
    )


def test_deal_goes_one_at_a_time_clockwise_from_the_dealers_left():
    order = deck_order(["2C 3C 4C", "2D 3D 4D", "2H 3H 4H"], dealer=1)
    assert [str(c) for c in order[:9]] == ["2H", "2C", "2D", "3H", "3C", "3D", "4H", "4C", "4D"]
    hand = Hand.deal(Rules(), 3, dealer=1, order=order)
    assert hand.hands[2] == cards("2H 3H 4H")
    assert hand.trump == Suit.DIAMONDS
    assert hand.to_move == 2


def test_the_player_left_of_the_dealer_leads_any_card():
    order = deck_order(["2C 3C 4C 5C", "2D 3D 4D 5D", "2H 3H 4H 5H", "2S 3S 4S 5S"], dealer=0)
    hand = Hand.deal(Rules(), 4, dealer=0, order=order)
    assert hand.to_move == 1
    assert hand.legal_moves() == hand.hands[1]


def test_following_must_follow_suit_else_any_card_and_need_not_beat():
    hand = Hand.from_position(
        Rules(), [cards("KC 2D"), cards("3C AS 9H"), cards("2S 5H")], cards("7D"), Suit.HEARTS
    )
    hand.play(Card.parse("KC"))
    assert hand.legal_moves() == cards("3C")
    assert hand.refusals()[Card.parse("AS")].rule == "follow"
    hand.play(Card.parse("3C"))
    assert hand.legal_moves() == cards("2S 5H")


def test_highest_trump_wins_else_highest_of_the_led_suit():
    hand = Hand.from_position(
        Rules(), [cards("KC 2D"), cards("AD 3D"), cards("2S 5D")], cards("7D 8D"), Suit.HEARTS
    )
    play_trick(hand, "KC", "AD", "2S")
    assert hand.trick_winners == [0]
    hand2 = Hand.from_position(
        Rules(), [cards("KC 2D"), cards("3H 3D"), cards("2H 5D")], cards("7D 8D"), Suit.HEARTS
    )
    play_trick(hand2, "KC", "3H", "2H")
    assert hand2.trick_winners == [1]
