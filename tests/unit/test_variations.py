"""One test (or a few) per variation point of docs/rules.md, "Options".

Every position is small and built by hand; the expected result in each test is worked
out from docs/rules.md ("The order of a trick" and "Reproducible deals"), so a
test fails when the semantics of its option break. Hearts are trump unless a test says
otherwise.
"""

from __future__ import annotations

import pytest

from rulesdsl.model.cards import Card, Suit, parse_cards
from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import Rules, RulesError
from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.events import Reshuffle
from rulesdsl.play.engine.hand import Hand, IllegalMove
from rulesdsl.play.engine.match import Match
from rulesdsl.play.players.bots import LowestBot

H = Suit.HEARTS


# -- helpers ----------------------------------------------------------------------------


def rules(**options: str) -> Rules:
    return Rules().with_options(options)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def position(
    hands: list[str],
    stock: str = "",
    trump: Suit | None = H,
    leader: int = 0,
    options: dict[str, str] | None = None,
    **kwargs,
) -> Hand:
    """A hand-built position; `hands` gives each seat's cards as text ("" = no cards)."""
    return Hand.from_position(
        Rules().with_options(options or {}),
        hands=[cards(h) for h in hands],
        stock=cards(stock),
        trump=trump,
        leader=leader,
        **kwargs,
    )


def play(hand: Hand, moves: str) -> Hand:
    """Play the cards in turn; a card the mover does not hold or may not play raises."""
    for card in cards(moves):
        hand.play(card)
    return hand


def legal(hand: Hand) -> set[str]:
    return {str(c) for c in hand.legal_moves()}


def refused(hand: Hand) -> dict[str, str]:
    """Each refused card of the mover, with the option that refuses it."""
    return {str(c): r.rule for c, r in hand.refusals().items()}


def held(hand: Hand, seat: int) -> set[str]:
    return {str(c) for c in hand.hands[seat]}


def result(hand: Hand) -> tuple:
    """(winner, reason, eliminated, stock_left) of a finished hand."""
    assert hand.outcome is not None, "the hand should be over"
    o = hand.outcome
    return (o.winner, o.reason, o.eliminated, o.stock_left)


def deck_order(rules_: Rules, front: str) -> list[Card]:
    """A full deck order: the `front` cards first, then the rest in canonical order."""
    first = cards(front)
    return first + [c for c in rules_.cards if c not in first]


def outcome(winner: int | None, cards_left: int = 1) -> HandResult:
    """A finished hand as Match.record reads it."""
    return HandResult(
        winner=winner,
        reason="last_player" if winner is not None else "all_out",
        tricks=1,
        eliminated=(),
        stock_left=0,
        trump=None,
        trick_winners=(),
        winner_cards=cards_left if winner is not None else 0,
    )


# -- players ----------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "allowed"), [(2, False), (3, True), (6, True), (7, False)])
def test_players_default_allows_3_to_6(count, allowed):
    if allowed:
        hand = Hand.deal(Rules(), count, seed=1)
        assert hand.players == count
    else:
        with pytest.raises(RulesError):
            Hand.deal(Rules(), count, seed=1)


@pytest.mark.parametrize(("count", "allowed"), [(3, False), (4, True), (5, False)])
def test_players_single_count(count, allowed):
    r = rules(players="4")
    if allowed:
        assert Hand.deal(r, count, seed=1).players == 4
        assert Match(r, count, dealer=0).players == 4
    else:
        with pytest.raises(RulesError):
            Hand.deal(r, count, seed=1)
        with pytest.raises(RulesError):
            Match(r, count, dealer=0)


# -- deck -------------------------------------------------------------------------------


def test_deck_32_cards_is_dealt():
    r = rules(deck="A K Q J 10 9 8 7")
    assert len(r.cards) == 32
    assert {c.rank for c in r.cards} == {14, 13, 12, 11, 10, 9, 8, 7}
    hand = Hand.deal(r, 4, seed=3)
    assert [len(h) for h in hand.hands] == [4, 4, 4, 4]
    assert len(hand.stock) == 32 - 16
    assert sorted(hand.cards_in_play()) == sorted(r.cards)


def test_deck_32_cards_rejects_a_52_card_order():
    with pytest.raises(ValueError):
        Hand.deal(rules(deck="A K Q J 10 9 8 7"), 4, order=list(Rules().cards))


@pytest.mark.parametrize(("players", "allowed"), [(5, True), (6, False)])
def test_deck_must_hold_all_hands(players, allowed):
    # 32 cards, players + 1 each: 5 x 6 = 30 fits, 6 x 7 = 42 does not.
    r = rules(deck="A K Q J 10 9 8 7", hand_size="players + 1")
    if allowed:
        hand = Hand.deal(r, players, seed=2)
        assert len(hand.stock) == 2
    else:
        with pytest.raises(RulesError):
            Hand.deal(r, players, seed=2)


def test_deck_check_counts_the_turnup_card():
    # 8 cards, 4 players x 2 = 8: fits when the trump card stays in a hand, not when
    # one more card is turned up and set aside.
    Hand.deal(rules(deck="A K", players="4", hand_size="2"), 4, seed=1)
    with pytest.raises(RulesError):
        Hand.deal(rules(deck="A K", players="4", hand_size="2", trump="stock_turnup"), 4, seed=1)


# -- hand_size --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "players", "size"),
    [
        ("players", 4, 4),
        ("5", 3, 5),
        ("5", 6, 5),
        ("players + 1", 4, 5),
        ("min(players, 5)", 4, 4),
        ("min(players, 5)", 6, 5),
    ],
)
def test_hand_size(expression, players, size):
    hand = Hand.deal(rules(hand_size=expression), players, seed=4)
    assert [len(h) for h in hand.hands] == [size] * players
    assert len(hand.stock) == 52 - players * size


# -- the deal and trump -----------------------------------------------------------------

# 3 players, dealer 1: deal card k goes to seat (2 + k) % 3, so the ninth card (QH) is the
# dealer's last card and KS is the first card after the deal.
FRONT = "2C 3C 4C 5C 6C 7C 8C 9C QH KS"
DEALT_HANDS = [{"3C", "6C", "9C"}, {"4C", "7C", "QH"}, {"2C", "5C", "8C"}]


def deal_front(**options: str) -> tuple[Hand, list[Card]]:
    r = rules(**options)
    order = deck_order(r, FRONT)
    return Hand.deal(r, 3, dealer=1, order=order), order


def test_deal_order_and_opening_leader():
    hand, _ = deal_front()
    assert [held(hand, s) for s in range(3)] == DEALT_HANDS
    assert hand.dealer == 1
    assert hand.to_move == 2  # the player to the dealer's left leads


def test_trump_dealer_last_card_stays_in_dealer_hand():
    hand, order = deal_front(trump="dealer_last_card")
    assert hand.trump == Suit.HEARTS
    assert "QH" in held(hand, 1)
    assert [len(h) for h in hand.hands] == [3, 3, 3]  # not an extra card
    assert hand.stock == order[9:]
    assert hand.turnup is None


def test_trump_stock_turnup_is_set_aside_and_stock_starts_after_it():
    hand, order = deal_front(trump="stock_turnup")
    assert hand.trump == Suit.SPADES
    assert hand.turnup == Card.parse("KS")
    assert [held(hand, s) for s in range(3)] == DEALT_HANDS
    assert hand.stock == order[10:]
    assert Card.parse("KS") not in hand.stock


def test_trump_stock_turnup_first_draw_is_the_card_after_the_turnup():
    hand, order = deal_front(trump="stock_turnup")
    play(hand, "2C 3C 4C")  # 2C led by seat 2, 3C by seat 0, 4C by seat 1: seat 1 wins
    assert held(hand, 1) == {"7C", "QH", str(order[10])}


def test_trump_none():
    hand, order = deal_front(trump="none")
    assert hand.trump is None
    assert hand.stock == order[9:]
    # with no trump suit, a heart played to a club lead does not win
    hand2 = position(["KC 2D", "2H 3D", "3C 4D"], stock="5S", trump=None, options={"trump": "none"})
    play(hand2, "KC 2H 3C")
    assert hand2.trick_winners == [0]


def test_trump_fixed_suit():
    hand, order = deal_front(trump="diamonds")
    assert hand.trump == Suit.DIAMONDS
    assert hand.stock == order[9:]
    assert "QH" in held(hand, 1)


# -- opening_lead -----------------------------------------------------------------------


def test_opening_lead_any():
    hand = position(["AS 2H 5D", "3H 9D", "4H 5H 8D"], stock="2C 3C 4C")
    assert legal(hand) == {"AS", "2H", "5D"}


def test_opening_lead_trump_if_able_binds_only_the_first_lead():
    hand = position(
        ["AS 2H 5D", "3H 9D", "4H 5H 8D"],
        stock="2C 3C 4C",
        options={"opening_lead": "trump_if_able"},
    )
    assert legal(hand) == {"2H"}
    assert refused(hand) == {"AS": "opening_lead", "5D": "opening_lead"}
    play(hand, "2H 3H 4H")  # seat 2 wins and draws 2C
    assert hand.to_move == 2
    assert held(hand, 2) == {"5H", "8D", "2C"}
    assert legal(hand) == {"5H", "8D", "2C"}  # the second lead is free
    assert refused(hand) == {}


def test_opening_lead_trump_if_able_without_a_trump():
    hand = position(["AS 5D", "3H 9D", "4H 8D"], options={"opening_lead": "trump_if_able"})
    assert legal(hand) == {"AS", "5D"}


def test_opening_lead_trump_if_able_not_binding_mid_hand_position():
    hand = position(
        ["AS 2H 5D", "3H 9D", "4H 8D"], options={"opening_lead": "trump_if_able"}, opening=False
    )
    assert legal(hand) == {"AS", "2H", "5D"}


# -- follow -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("follow", "allowed", "refusals"),
    [
        ("suit", {"3C"}, {"5H": "follow", "9D": "follow"}),
        ("suit_or_trump", {"3C", "5H"}, {"9D": "follow"}),
    ],
)
def test_follow_when_holding_the_led_suit(follow, allowed, refusals):
    hand = position(["KC 2D", "3C 5H 9D", "4C 6D"], options={"follow": follow})
    play(hand, "KC")
    assert legal(hand) == allowed
    assert refused(hand) == refusals


@pytest.mark.parametrize("follow", ["suit", "suit_or_trump"])
def test_follow_does_not_bind_when_void(follow):
    hand = position(["KC 2D", "5H 9D", "4C 6D"], options={"follow": follow})
    play(hand, "KC")
    assert legal(hand) == {"5H", "9D"}


def test_follow_suit_or_trump_trump_wins():
    hand = position(["KC 2D", "3C 5H", "4C 6D"], stock="7S", options={"follow": "suit_or_trump"})
    play(hand, "KC 5H 4C")
    assert hand.trick_winners == [1]


# -- when_void --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("when_void", "seat1", "trump", "allowed", "refusals"),
    [
        ("any", "5H 9D 4S", H, {"5H", "9D", "4S"}, {}),
        ("trump_if_able", "5H 9D 4S", H, {"5H"}, {"9D": "when_void", "4S": "when_void"}),
        ("trump_if_able", "9D 4S", H, {"9D", "4S"}, {}),
        ("trump_if_able", "5H 9D 4S", None, {"5H", "9D", "4S"}, {}),
        ("trump_if_able", "3C 5H 9D", H, {"3C"}, {"5H": "follow", "9D": "follow"}),
    ],
)
def test_when_void(when_void, seat1, trump, allowed, refusals):
    hand = position(["KC 2D", seat1, "4C 6D"], trump=trump, options={"when_void": when_void})
    play(hand, "KC")
    assert legal(hand) == allowed
    assert refused(hand) == refusals


# -- must_head --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("must_head", "seat2", "allowed", "refusals"),
    [
        # must beat the best card so far (JC), not just the led card (9C)
        (
            "yes",
            "QC 10C 2C 5H",
            {"QC"},
            {"10C": "must_head", "2C": "must_head", "5H": "follow"},
        ),
        # unable to beat with an allowed card: the trump 5H would beat, but follow refuses it
        ("yes", "10C 2C 5H", {"10C", "2C"}, {"5H": "follow"}),
        # void: trumping is the only allowed way to beat
        ("yes", "5H 7D", {"5H"}, {"7D": "must_head"}),
        # void with no trump: cannot beat, anything goes
        ("yes", "7D 8S", {"7D", "8S"}, {}),
        ("no", "QC 10C 2C 5H", {"QC", "10C", "2C"}, {"5H": "follow"}),
    ],
)
def test_must_head(must_head, seat2, allowed, refusals):
    hand = position(["9C 2D", "JC 4C", seat2], stock="3S", options={"must_head": must_head})
    assert legal(hand) == {"9C", "2D"}  # the lead is never bound by must_head
    play(hand, "9C JC")
    assert legal(hand) == allowed
    assert refused(hand) == refusals


def test_must_head_second_player():
    hand = position(["9C 2D", "JC 4C", "5D"], options={"must_head": "yes"})
    play(hand, "9C")
    assert legal(hand) == {"JC"}
    assert refused(hand) == {"4C": "must_head"}


@pytest.mark.parametrize(
    ("follow", "allowed", "refusals"),
    [
        # trumped already: no club can beat 5H, so any club may be played
        ("suit", {"QC", "2C"}, {"9H": "follow", "3H": "follow"}),
        # trumps are allowed too, and 9H is the only card that beats 5H
        ("suit_or_trump", {"9H"}, {"QC": "must_head", "2C": "must_head", "3H": "must_head"}),
    ],
)
def test_must_head_after_a_trump(follow, allowed, refusals):
    hand = position(
        ["9C 2D", "5H 4D", "QC 2C 9H 3H"], options={"must_head": "yes", "follow": follow}
    )
    play(hand, "9C")
    assert legal(hand) == {"5H"}  # void in clubs: must trump to beat 9C
    play(hand, "5H")
    assert legal(hand) == allowed
    assert refused(hand) == refusals


# -- draw -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("draw", "drawn"),
    [("0", ""), ("1", "2S"), ("2", "2S 3S"), ("per_card_in_trick", "2S 3S 4S")],
)
def test_draw_count(draw, drawn):
    hand = position(["AC 5D", "2C 6D", "3C 7D"], stock="2S 3S 4S 5S", options={"draw": draw})
    play(hand, "AC 2C 3C")
    assert not hand.is_over
    assert held(hand, 0) == {"5D"} | {str(c) for c in cards(drawn)}
    assert held(hand, 1) == {"6D"}  # only the winner draws
    assert held(hand, 2) == {"7D"}
    assert len(hand.stock) == 4 - len(cards(drawn))


def test_draw_per_card_in_trick_counts_cards_not_seats():
    # seat 3 is out: the trick has 3 cards, so the winner draws 3
    hand = position(
        ["AC 5D", "2C 6D", "3C 7D", "8S 9S"],
        stock="2S 3S 4S 5S",
        options={"draw": "per_card_in_trick"},
        out=[3],
    )
    play(hand, "AC 2C 3C")
    assert held(hand, 0) == {"5D", "2S", "3S", "4S"}
    assert [str(c) for c in hand.stock] == ["5S"]


@pytest.mark.parametrize(
    ("draw", "stock", "drawn"),
    [("2", "2S", {"2S"}), ("per_card_in_trick", "2S 3S", {"2S", "3S"})],
)
def test_draw_fewer_when_stock_is_short(draw, stock, drawn):
    hand = position(
        ["AC 5D", "2C 6D", "3C 7D"],
        stock=stock,
        options={"draw": draw, "exhaustion": "play_out"},
    )
    play(hand, "AC 2C 3C")
    assert not hand.is_over
    assert held(hand, 0) == {"5D"} | drawn
    assert hand.stock == []


def test_draw_short_stock_last_card_ends_the_hand():
    hand = position(["AC 5D", "2C 6D", "3C 7D"], stock="2S", options={"draw": "2"})
    play(hand, "AC 2C 3C")
    assert result(hand) == (0, "stock_exhausted", (), 0)
    assert held(hand, 0) == {"5D", "2S"}


# -- the worked example; next leader; elimination ---------------------------------------


def test_worked_example_winner_with_last_card_survives_and_leads():
    hand = position(["KC 4D", "3C 5D", "2H", "AC 6D"], stock="9D 5S")
    play(hand, "KC 3C 2H AC")
    assert hand.trick_winners == [2]
    assert held(hand, 2) == {"9D"}
    assert hand.eliminated == []
    assert hand.to_move == 2
    assert {str(c) for c in hand.set_aside} == {"KC", "3C", "2H", "AC"}
    assert len(hand.stock) == 1


def test_worked_example_last_stock_card_wins():
    hand = position(["KC 4D", "3C 5D", "2H", "AC 6D"], stock="9D")
    play(hand, "KC 3C 2H AC")
    assert result(hand) == (2, "stock_exhausted", (), 0)


def test_loser_with_last_card_is_out():
    hand = position(["KC 4D", "3C", "2H", "AC 6D"], stock="9D 5S")
    play(hand, "KC 3C 2H AC")
    assert hand.eliminated == [(1, 1)]
    assert not hand.is_over
    assert hand.trick_seats == [2, 3, 0]  # seat 1 is skipped from then on


def test_eliminated_in_the_order_they_played():
    # seat 2 leads, so seat 3 plays before seat 0; both play their last card and lose
    hand = position(["3C", "4C 5D", "AC 4D", "2C"], stock="6S 7S", leader=2)
    play(hand, "AC 2C 3C 4C")
    assert hand.eliminated == [(1, 3), (1, 0)]
    assert hand.to_move == 2


@pytest.mark.parametrize(
    ("elimination", "eliminated", "leader", "winner_holds", "stock_left"),
    [
        # the last-card winner draws 6S and survives; it leads next
        ("after_draw", [(1, 0)], 3, {"6S"}, 1),
        # the last-card winner is out at once, does not draw; the next active seat
        # clockwise from it (seat 0 is out too) leads
        ("immediate", [(1, 3), (1, 0)], 1, set(), 2),
    ],
)
def test_elimination_and_next_leader(elimination, eliminated, leader, winner_holds, stock_left):
    hand = position(
        ["2C", "3C 5D", "KC 4D", "AC"],
        stock="6S 7S",
        leader=2,
        options={"elimination": elimination},
    )
    play(hand, "KC AC 2C 3C")
    assert hand.trick_winners == [3]
    assert hand.eliminated == eliminated
    assert held(hand, 3) == winner_holds
    assert len(hand.stock) == stock_left
    assert not hand.is_over
    assert hand.to_move == leader


@pytest.mark.parametrize(
    ("elimination", "expected"),
    [
        ("after_draw", (0, "stock_exhausted", (), 0)),
        ("immediate", (2, "last_player", ((1, 0), (1, 1)), 1)),
    ],
)
def test_elimination_last_card_winner_and_last_stock_card(elimination, expected):
    hand = position(["AC", "2C", "3C 4D"], stock="5S", options={"elimination": elimination})
    play(hand, "AC 2C 3C")
    assert result(hand) == expected


def test_next_leader_when_winner_goes_out_under_after_draw():
    # stock empty under play_out: the winner cannot draw and goes out after the draw
    hand = position(["2C 5D", "AC", "3C 6D", "4C 7D"], stock="", options={"exhaustion": "play_out"})
    play(hand, "2C AC 3C 4C")
    assert hand.eliminated == [(1, 1)]
    assert hand.to_move == 2


# -- exhaustion -------------------------------------------------------------------------

EXHAUST_HANDS = ["AC 5D", "2C 6D", "3C 7D"]


def test_exhaustion_last_draw_wins():
    hand = position(EXHAUST_HANDS, stock="2S", options={"exhaustion": "last_draw_wins"})
    play(hand, "AC 2C 3C")
    assert result(hand) == (0, "stock_exhausted", (), 0)
    assert hand.outcome.tricks == 1


def test_exhaustion_last_draw_wins_ends_before_elimination():
    # section 2: step 5 ends the hand before step 6, so seat 1 is not recorded as out
    hand = position(["AC 5D", "2C", "3C 7D"], stock="2S")
    play(hand, "AC 2C 3C")
    assert result(hand) == (0, "stock_exhausted", (), 0)


def test_exhaustion_play_out():
    hand = position(EXHAUST_HANDS, stock="2S", options={"exhaustion": "play_out"})
    play(hand, "AC 2C 3C")
    assert not hand.is_over
    assert held(hand, 0) == {"5D", "2S"}
    play(hand, "5D 6D 7D")  # seat 2 wins, cannot draw: seats 1 and 2 are out
    assert result(hand) == (0, "last_player", ((2, 1), (2, 2)), 0)
    assert hand.outcome.tricks == 2


def test_exhaustion_reshuffle_makes_a_new_stock_of_the_trick_cards():
    hand = position(EXHAUST_HANDS, stock="2S", options={"exhaustion": "reshuffle"}, seed=7)
    play(hand, "AC 2C 3C")
    assert not hand.is_over
    assert not any(isinstance(e, Reshuffle) for e in hand.events)  # the stock was not empty
    assert hand.stock == []
    play(hand, "5D 6D 7D")  # seat 2 wins; the stock is empty, so the tricks are reshuffled
    assert not hand.is_over
    reshuffles = [e for e in hand.events if isinstance(e, Reshuffle)]
    assert [(e.trick, e.cards) for e in reshuffles] == [(2, 6)]
    trick_cards = {"AC", "2C", "3C", "5D", "6D", "7D"}
    assert len(held(hand, 2)) == 1
    assert held(hand, 2) | {str(c) for c in hand.stock} == trick_cards
    assert len(hand.stock) == 5
    assert hand.set_aside == []
    assert hand.eliminated == [(2, 1)]
    assert hand.to_move == 2


def test_exhaustion_reshuffle_is_deterministic():
    def after_reshuffle(seed: int) -> list[Card]:
        hand = position(EXHAUST_HANDS, stock="2S", options={"exhaustion": "reshuffle"}, seed=seed)
        play(hand, "AC 2C 3C 5D 6D 7D")
        return list(hand.hands[2]) + hand.stock

    assert after_reshuffle(11) == after_reshuffle(11)
    orders = {tuple(after_reshuffle(seed)) for seed in range(20)}
    assert len(orders) > 1  # the seed does drive the shuffle


def test_exhaustion_reshuffle_in_dealt_hands_is_deterministic():
    def replay(seed: int) -> tuple:
        hand = Hand.deal(rules(exhaustion="reshuffle"), 4, dealer=0, seed=seed)
        o = play_hand(hand, [LowestBot()] * 4)
        return (o.winner, o.reason, o.tricks, o.eliminated, o.trick_winners)

    assert replay(5) == replay(5)


def test_exhaustion_most_tricks_ends_when_the_stock_empties():
    hand = position(EXHAUST_HANDS, stock="2S", options={"exhaustion": "most_tricks"})
    play(hand, "AC 2C 3C")
    assert result(hand) == (0, "most_tricks", (), 0)


def test_exhaustion_most_tricks_tie_goes_to_the_most_recent_trick_winner():
    hand = position(
        ["AC 4D", "2C AD", "3C 5D"], stock="2S 3S", options={"exhaustion": "most_tricks"}
    )
    play(hand, "AC 2C 3C")  # seat 0 wins, draws 2S
    play(hand, "4D AD 5D")  # seat 1 wins, draws 3S: stock empty; seat 2 is out
    # seats 0 and 1 have one trick each; seat 1 won one most recently
    assert result(hand) == (1, "most_tricks", ((2, 2),), 0)


@pytest.mark.parametrize(
    ("exhaustion", "expected"),
    [
        ("most_tricks", (0, "most_tricks", ((3, 2),), 0)),
        ("last_draw_wins", (1, "stock_exhausted", (), 0)),
    ],
)
def test_exhaustion_most_tricks_beats_last_trick(exhaustion, expected):
    hand = position(
        ["AC AD 4S", "2C 2D AS", "3C 3D 5S"],
        stock="6C 7C 8C",
        options={"exhaustion": exhaustion},
    )
    play(hand, "AC 2C 3C")  # seat 0 wins
    play(hand, "AD 2D 3D")  # seat 0 wins
    play(hand, "4S AS 5S")  # seat 1 wins and draws the last card
    assert result(hand) == expected


def test_exhaustion_most_tricks_after_last_player_check():
    # step 7 comes before step 9: one player left is a last_player win
    hand = position(["AC", "2C", "3C"], stock="5S", options={"exhaustion": "most_tricks"})
    play(hand, "AC 2C 3C")
    assert result(hand) == (0, "last_player", ((1, 1), (1, 2)), 0)


# -- all_out ----------------------------------------------------------------------------


@pytest.mark.parametrize(("all_out", "winner"), [("last_trick_winner", 1), ("no_winner", None)])
@pytest.mark.parametrize(
    ("elimination", "stock", "stock_left"), [("immediate", "5S", 1), ("after_draw", "", 0)]
)
def test_all_out(all_out, winner, elimination, stock, stock_left):
    hand = position(
        ["2C", "AC", "3C"],
        stock=stock,
        options={"all_out": all_out, "elimination": elimination, "exhaustion": "play_out"},
    )
    play(hand, "2C AC 3C")
    assert result(hand) == (winner, "all_out", ((1, 0), (1, 1), (1, 2)), stock_left)


# -- scoring and match ------------------------------------------------------------------


@pytest.mark.parametrize(("scoring", "points"), [("one_per_hand", 1), ("cards_in_hand", 3)])
def test_scoring(scoring, points):
    hand = position(["AC 5D 6D", "2C 7D", "3C 8D"], stock="2S", options={"scoring": scoring})
    play(hand, "AC 2C 3C")  # seat 0 draws the last card and holds 5D 6D 2S
    assert result(hand) == (0, "stock_exhausted", (), 0)
    assert (hand.outcome.winner_cards, hand.outcome.points) == (3, points)
    match = Match(rules(scoring=scoring), 3, dealer=0)
    match.record(hand.outcome)
    assert match.points == [points, 0, 0]
    made = Match(rules(scoring=scoring), 3, dealer=0)
    made.record(hand.outcome._replace(points=None))  # a result made without its points
    assert made.points == [points, 0, 0]


def test_scoring_cards_in_hand_can_reach_the_target_at_once():
    match = Match(rules(scoring="cards_in_hand"), 3, dealer=0)
    match.record(outcome(2, cards_left=3))
    assert match.over
    assert match.winners == (2,)


def test_match_target_default_is_3():
    match = Match(Rules(), 3, dealer=0)
    for _ in range(2):
        match.record(outcome(1))
    match.record(outcome(0))
    assert not match.over
    match.record(outcome(1))
    assert match.over
    assert match.winners == (1,)
    assert match.points == [1, 3, 0]


def test_match_target_n():
    match = Match(rules(match="target 2"), 3, dealer=0)
    match.record(outcome(0))
    assert not match.over
    match.record(outcome(0))
    assert match.over
    assert match.winners == (0,)


def test_match_hands_n_ties_are_shared():
    match = Match(rules(match="hands 3"), 3, dealer=0)
    match.record(outcome(0))
    match.record(outcome(1))
    assert not match.over
    match.record(outcome(None))  # a no-winner hand still counts as a hand
    assert match.over
    assert match.hands_played == 3
    assert match.winners == (0, 1)
    assert match.points == [1, 1, 0]


def test_match_hands_n_does_not_stop_at_a_target():
    match = Match(rules(match="hands 5"), 3, dealer=0)
    for _ in range(4):
        match.record(outcome(2))
    assert not match.over
    match.record(outcome(0))
    assert match.over
    assert match.winners == (2,)


@pytest.mark.parametrize("players", [3, 4])
def test_match_hands_players(players):
    match = Match(rules(match="hands players"), players, dealer=0)
    for hand in range(players):
        assert not match.over
        match.record(outcome(hand % players))
    assert match.over
    assert match.winners == tuple(range(players))


def test_no_winner_hand_scores_nothing():
    match = Match(Rules(), 3, dealer=0)
    match.record(outcome(None))
    assert match.points == [0, 0, 0]
    assert not match.over


# -- next_dealer ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("next_dealer", "dealer", "winner", "expected"),
    [
        ("left", 1, 0, 2),
        ("left", 2, 1, 0),
        ("hand_winner", 1, 0, 0),
        ("hand_winner", 1, 1, 1),
        ("left", 1, None, 2),
        ("hand_winner", 1, None, 2),  # no winner: the deal passes left
        ("hand_winner", 2, None, 0),
    ],
)
def test_next_dealer(next_dealer, dealer, winner, expected):
    match = Match(rules(next_dealer=next_dealer), 3, dealer=dealer)
    match.record(outcome(winner))
    assert match.dealer == expected


def test_next_dealer_deals_the_next_hand():
    match = Match(rules(next_dealer="hand_winner"), 4, seed=5, dealer=3)
    hand = match.deal()
    assert hand.dealer == 3
    assert hand.to_move == 0
    match.record(outcome(2))
    hand = match.deal()
    assert hand.dealer == 2
    assert hand.to_move == 3


# -- refusals name their option ---------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "hands", "moves", "card", "option"),
    [
        ({"opening_lead": "trump_if_able"}, ["AS 2H", "3H", "4H"], "", "AS", "opening_lead"),
        ({}, ["KC", "3C 9D", "4C"], "KC", "9D", "follow"),
        ({"follow": "suit_or_trump"}, ["KC", "3C 5H 9D", "4C"], "KC", "9D", "follow"),
        ({"when_void": "trump_if_able"}, ["KC", "5H 9D", "4C"], "KC", "9D", "when_void"),
        ({"must_head": "yes"}, ["9C", "JC 4C", "5D"], "9C", "4C", "must_head"),
    ],
)
def test_refusal_names_its_option(options, hands, moves, card, option):
    hand = position(hands, options=options)
    play(hand, moves)
    refusal = hand.check(Card.parse(card))
    assert refusal is not None
    assert refusal.rule == option
    assert refusal.card == Card.parse(card)
    with pytest.raises(IllegalMove) as error:
        hand.play(Card.parse(card))
    assert error.value.refusal.rule == option


def test_card_not_held_is_refused_by_hand():
    hand = position(["KC", "3C", "4C"])
    assert hand.check(Card.parse("3C")).rule == "hand"
