import pytest

from rulesdsl.model.cards import FULL_DECK, Card, CardError, Suit, check_permutation, parse_deck


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("10H", Card(10, Suit.HEARTS)),
        ("TH", Card(10, Suit.HEARTS)),
        ("10♥", Card(10, Suit.HEARTS)),
        ("th", Card(10, Suit.HEARTS)),
        ("KC", Card(13, Suit.CLUBS)),
        ("A♠", Card(14, Suit.SPADES)),
        ("2♦", Card(2, Suit.DIAMONDS)),
        (" QS ", Card(12, Suit.SPADES)),
        ("JD", Card(11, Suit.DIAMONDS)),
    ],
)
def test_card_text_is_read(text, card):
    assert Card.parse(text) == card


def test_cards_are_written_rank_then_suit_letter():
    assert [str(Card.parse(t)) for t in ("T♥", "KC", "AS", "2d")] == ["10H", "KC", "AS", "2D"]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("1H", "'1' is not a rank"),
        ("11H", "'11' is not a rank"),
        ("10X", "'X' is not a suit"),
        ("H", "write rank then suit"),
        ("", "write rank then suit"),
    ],
)
def test_a_bad_card_is_named_with_what_was_expected(text, says):
    with pytest.raises(CardError, match=says):
        Card.parse(text)


def test_cards_order_by_rank_then_suit():
    assert sorted([Card.parse("2S"), Card.parse("2C"), Card.parse("AC")]) == [
        Card.parse("2C"),
        Card.parse("2S"),
        Card.parse("AC"),
    ]


def test_a_deck_order_must_be_a_permutation_of_the_deck():
    order = " ".join(str(c) for c in FULL_DECK)
    assert parse_deck(order) == list(FULL_DECK)
    with pytest.raises(CardError, match="more than once"):
        parse_deck(order.replace("3C", "2C"))
    with pytest.raises(CardError, match="51 cards, not 52: missing 3C"):
        parse_deck(order.replace("3C", ""))


def test_a_card_outside_a_short_deck_is_refused():
    short = [c for c in FULL_DECK if c.rank >= 7]
    with pytest.raises(CardError, match="holds 2C, which is not in the deck in play"):
        check_permutation([*short[1:], Card.parse("2C")], short)
