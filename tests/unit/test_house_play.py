"""The engines play the rules a profile states (docs/rules.md, "Rules beyond the options"): each
shipped rule on hand-built positions of the reference engine, exactly as the section's table says,
and the state names the rules read."""

from __future__ import annotations

import re

from rulesdsl.model.cards import Card, Suit
from rulesdsl.model.language import vocab
from rulesdsl.model.result import EndReason
from rulesdsl.model.state import State
from rulesdsl.play.engine import steps
from rulesdsl.play.engine.events import Draw, HandEnd, Lead, Out, Score
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.engine.match import Match
from rulesdsl.read.profile import load
from rulesdsl.reason.analysis import witness as w
from rulesdsl.reason.analysis.report import analyse
from rulesdsl.reason.analysis.verdicts import Verdict
from rulesdsl.surfaces.main import main
from rulesdsl.words import refusals


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def position(name: str, hands: str, stock: str = "", trump: Suit | None = Suit.HEARTS) -> Hand:
    """A hand of profile `name`: hands as `|`-separated card lists, seat 0 leads."""
    return Hand.from_position(
        load(name).rules, [cards(h) for h in hands.split("|")], cards(stock), trump, 0
    )


def play(hand: Hand, text: str) -> None:
    for card in cards(text):
        hand.play(card)


def test_must_overtrump_refuses_a_trump_below_the_best_trump_and_names_itself():
    hand = position("must-overtrump", "KC 2D|5H 3D|9H 3H 7D|4S 6S", "2S 3S 5S 7S")
    play(hand, "KC 5H")
    assert set(hand.legal_moves()) == set(cards("9H 7D"))
    refusal = hand.check(Card.parse("3H"))
    assert refusal is not None and refusal.rule == "must-overtrump"
    assert refusals.said(refusal) == load("must-overtrump").house[0].rule.sentence("en").rstrip(".")
    play(hand, "9H 4S")
    assert "must-overtrump" in hand.fired


def test_must_overtrump_binds_no_one_without_a_higher_trump():
    hand = position("must-overtrump", "KC 2D|9H 3D|5H 3H 7D|4S 6S", "2S 3S 5S 7S")
    play(hand, "KC 9H")
    assert set(hand.legal_moves()) == set(cards("5H 3H 7D"))


def test_trumps_broken_refuses_a_trump_lead_until_a_trump_was_played():
    hand = position("trumps-broken", "2H 5C 9C|3C 4D 6H 7H|7C 8D 9D", "2S 3S 4S 5S 6S")
    assert hand.legal_moves() == cards("5C 9C")
    play(hand, "9C 3C 7C")  # no trump played: still closed
    assert Card.parse("2H") not in hand.legal_moves()
    play(hand, "5C 6H 8D")  # seat 1 trumps in, wins and leads
    assert Card.parse("7H") in hand.legal_moves()
    hand = position("trumps-broken", "2H 5H|3C 4D|7C 8D", "2S 3S 4S")
    assert hand.legal_moves() == cards("2H 5H")  # only trumps: the rule does not apply


def test_no_trump_first_lead_refuses_a_trump_on_the_first_lead_only():
    hand = position("no-trump-first-lead", "AH 2C|3C 4D|5C 8D", "2S 3S 4S 5S 6S")
    assert hand.legal_moves() == cards("2C")
    play(hand, "2C 3C 5C")  # seat 2 wins and draws
    assert Card.parse("AH") in hand.cards(0)
    hand = position("no-trump-first-lead", "AH 2H|3C 4D|5C 8D", "2S 3S 4S")
    assert hand.legal_moves() == cards("2H AH")


def test_trump_wins_draw_two_draws_two_after_a_trump_win_and_one_otherwise():
    hand = position("trump-wins-draw-two", "2C 9C|3H 4D|5C 8D", "2S 3S 4S 5S 6S 7S")
    play(hand, "2C 3H 5C")
    (drawn,) = [e for e in hand.events if isinstance(e, Draw)]
    assert (drawn.seat, len(drawn.cards), drawn.rule) == (1, 2, "trump-wins-draw-two")
    play(hand, "4D 8D 9C")  # seat 2 wins with the led suit's best
    last = [e for e in hand.events if isinstance(e, Draw)][-1]
    assert (last.seat, len(last.cards)) == (2, 1)
    assert "trump-wins-draw-two" in hand.fired and "draw" not in hand.fired


def test_points_for_tricks_scores_the_tricks_the_hand_winner_won():
    rules = load("points-for-tricks").rules
    hand = Hand.from_position(rules, [cards("AC AD"), cards("3C 4D"), cards("5C")], [], None, 0)
    play(hand, "AC 3C 5C AD 4D")
    assert hand.outcome is not None
    assert (hand.outcome.winner, hand.outcome.points) == (0, 2)
    match = Match(rules, 3, seed=1)
    (score, *_) = match.record(hand.outcome)
    assert isinstance(score, Score)
    assert (score.gained, score.rule) == (2, "points-for-tricks")


def test_time_limit_ends_the_hand_after_trick_8_for_the_most_cards():
    suits = ("C", "D", "S")
    hands = "|".join(" ".join(f"{r}{s}" for r in range(2, 11)) for s in suits)
    hand = position("time-limit", hands, " ".join(f"{r}{s}" for s in suits for r in "JQKA"))
    while not hand.is_over:
        hand.play(hand.legal_moves()[0])  # seat 0 leads clubs and wins every trick
    assert hand.outcome is not None
    assert (hand.outcome.reason, hand.outcome.tricks) == (EndReason.HOUSE_RULE, 8)
    assert hand.outcome.winner == 0
    (end,) = [e for e in hand.events if isinstance(e, HandEnd)]
    assert end.rule == "time-limit"
    assert "time-limit" in hand.fired


def test_every_name_the_rules_read_is_a_field_of_the_state():
    codes = [c for n in vocab.NAMES.values() for c in (n.code, n.resolved)]
    codes += [c for s in vocab.SETS.values() for c in (s.iterate, s.keep)]
    codes += [a.code for a in vocab.ATTRIBUTES.values()]
    read = {m for code in codes for m in re.findall(r"\bs\.(\w+)", code)}
    assert "trumps_broken" in read
    assert read <= set(State.__slots__), read - set(State.__slots__)


def test_diverge_names_the_stated_rule_where_two_profiles_part(capsys):
    code = main(["diverge", "equal-hands", "trumps-broken", "--seed", "2"])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 0
    said = load("trumps-broken").house[0].rule.sentence("en").rstrip(".")
    assert f"since 7H is refused: {said} (trumps-broken: not stated vs" in out
    assert "(trumps-broken: not stated vs refuse lead if card.trump and not" in out


def test_simulate_counts_each_stated_rule_by_name(capsys):
    code = main(["simulate", "must-overtrump", "--hands", "200", "--workers", "1", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    assert '"fires_must-overtrump"' in out


COUNTS = ("trump-wins-draw-two", "points-for-tricks")


def test_the_analysis_finds_a_hand_where_each_shipped_stated_rule_acts():
    """Its witness shows the rule firing on the fast path too."""
    for name in ("must-overtrump", "trumps-broken", "no-trump-first-lead", *COUNTS):
        rules = load(name).rules
        finding = analyse(name, rules, 4).players[4].rules[name]
        assert finding.verdict is Verdict.CAN, name
        assert name in w.compiled_outcome(rules, finding.witness).fired, name


# -- the house rules of the trick-taking family (docs/rules.md) -------------------------


def draws(hand: Hand) -> list[tuple[int, int]]:
    """Each draw of the hand so far: (seat, cards drawn)."""
    return [(e.seat, len(e.cards)) for e in hand.events if isinstance(e, Draw)]


def test_hearts_broken_refuses_a_heart_lead_until_a_heart_was_played_to_an_earlier_trick():
    hand = position("hearts-broken", "2H 5C 9C|3C 4D 6H 7H|7C 8D 9D", "2D 3D 5D 6D 7D", Suit.SPADES)
    assert hand.legal_moves() == cards("5C 9C")
    refusal = hand.check(Card.parse("2H"))
    assert refusal is not None and refusal.rule == "hearts-broken"
    play(hand, "9C 3C 7C")  # no heart played: still closed
    assert Card.parse("2H") not in hand.legal_moves()
    play(hand, "5C 6H 8D")  # seat 1 discards a heart; seat 0 wins and leads again
    assert Card.parse("2H") in hand.legal_moves()
    assert "hearts-broken" in hand.fired
    only = position("hearts-broken", "2H 5H|3C 4D|7C 8D", "2S 3S 4S", Suit.SPADES)
    assert only.legal_moves() == cards("2H 5H")  # only hearts: the rule does not apply


def test_no_queen_of_spades_first_trick_refuses_it_on_the_first_trick_if_able():
    hand = position(
        "no-queen-of-spades-first-trick", "2S 5C|QS 9S 4D|3S 8D", "2C 3C 4C", Suit.HEARTS
    )
    play(hand, "2S")
    assert hand.legal_moves() == cards("9S")
    refusal = hand.check(Card.parse("QS"))
    assert refusal is not None and refusal.rule == "no-queen-of-spades-first-trick"
    forced = position(
        "no-queen-of-spades-first-trick", "2S 5C|QS 4D|3S 8D", "2C 3C 4C", Suit.HEARTS
    )
    play(forced, "2S")
    assert forced.legal_moves() == cards("QS")  # its only card of the led suit
    later = position("no-queen-of-spades-first-trick", "2S 5S|QS 9S|3S 8S", "2C 3C 4C", Suit.HEARTS)
    play(later, "2S 9S 3S")  # trick 1; seat 1 wins and leads trick 2
    assert Card.parse("QS") in later.legal_moves()


def test_previous_suit_barred_refuses_the_suit_led_to_the_previous_trick():
    hand = position("previous-suit-barred", "5C 9C 2D|3C 4D 6H|7C 8D 9D", "2S 3S 4S", Suit.SPADES)
    assert set(hand.legal_moves()) == set(cards("5C 9C 2D"))  # no previous trick
    play(hand, "9C 3C 7C")
    assert Card.parse("5C") not in hand.legal_moves()
    assert Card.parse("2D") in hand.legal_moves()
    only = position("previous-suit-barred", "5C 9C|3C 4D|7C 8D", "2C 4C 6C", Suit.SPADES)
    play(only, "9C 3C 7C")  # seat 0 draws a club: it holds only clubs
    assert all(card.suit is Suit.CLUBS for card in only.legal_moves())


def test_ace_draws_two_draws_two_after_an_ace_wins_and_one_otherwise():
    hand = position("ace-draws-two", "AC 2D|3C 4D|5C 8D", "2S 3S 4S 5S 6S 7S", Suit.SPADES)
    play(hand, "AC 3C 5C 2D 4D 8D")
    assert draws(hand) == [(0, 2), (2, 1)]
    assert "ace-draws-two" in hand.fired


def test_ace_draws_two_names_the_ace_under_the_deck_order_aces_low():
    rules = load("ace-draws-two").rules.with_options({"deck": "K Q J 10 9 8 7 6 5 4 3 2 A"})
    hand = Hand.from_position(
        rules, [cards("AC 2D"), cards("3D 4D"), cards("5D 8D")], cards("2S 3S 4S"), None, 0
    )
    play(hand, "AC 3D 5D")  # the lowest card wins: nobody else holds a club
    assert draws(hand) == [(0, 2)]


def test_three_in_a_row_ends_the_hand_for_the_player_who_won_the_last_three_tricks():
    hands = "AC KC QC JC|2C 3C 4C 5C|6C 7C 8C 9C|2D 3D 4D 5D"
    hand = position("three-in-a-row", hands, "2S 3S 4S 5S 6S 7S 8S", Suit.SPADES)
    play(hand, "AC 2C 6C 2D KC 3C 7C 3D")
    assert not hand.is_over
    play(hand, "QC 4C 8C 4D")
    assert hand.outcome is not None
    assert (hand.outcome.winner, hand.outcome.reason, hand.outcome.tricks) == (
        0,
        EndReason.HOUSE_RULE,
        3,
    )
    (end,) = [e for e in hand.events if isinstance(e, HandEnd)]
    assert end.rule == "three-in-a-row"


def test_three_in_a_row_counts_only_tricks_won_one_after_another():
    hands = "AC KC 2H QC|2C 3C AH 4C|6C 7C 8C 9C|2D 3D 4D 5D"
    hand = position("three-in-a-row", hands, "2S 3S 4S 5S 6S 7S 8S 9S", Suit.SPADES)
    play(hand, "AC 2C 6C 2D KC 3C 7C 3D")  # seat 0 wins two
    play(hand, "2H AH 8C 4D")  # seat 1 wins the third
    assert not hand.is_over
    assert hand.s.streak == 1 and hand.s.streak_seat == 1


def test_trump_finish_scores_two_when_the_last_trick_was_won_by_a_trump():
    rules = load("trump-finish-scores-two").rules
    trumped = Hand.from_position(rules, [cards("2C"), cards("3H"), cards("5C")], [], Suit.HEARTS, 0)
    play(trumped, "2C 3H 5C")
    assert trumped.outcome is not None
    assert (trumped.outcome.winner, trumped.outcome.points) == (1, 2)
    plain = Hand.from_position(
        rules, [cards("AC 2D"), cards("3C"), cards("5C")], [], Suit.HEARTS, 0
    )
    play(plain, "AC 3C 5C")
    assert plain.outcome is not None
    assert (plain.outcome.winner, plain.outcome.points) == (0, 1)


def test_aces_score_counts_the_aces_the_hand_winner_won_and_at_least_one():
    rules = load("aces-score").rules
    hand = Hand.from_position(rules, [cards("AC AD"), cards("3C 4D"), cards("5C 6D")], [], None, 0)
    play(hand, "AC 3C 5C AD 4D 6D")
    assert hand.outcome is not None
    assert (hand.outcome.winner, hand.outcome.points) == (0, 2)
    none = Hand.from_position(rules, [cards("KC"), cards("3C"), cards("5C")], [], None, 0)
    play(none, "KC 3C 5C")
    assert none.outcome is not None
    assert (none.outcome.winner, none.outcome.points) == (0, 1)


def test_the_hand_remembers_each_card_won_and_played_once():
    s = State([[], [], []], [], -1, 0, [True] * 3, False)
    for _ in range(2):  # a reshuffle brings the same cards back to a later trick
        s.trick, s.leader, s.led, s.best = [48, 8, 4], 0, 0, 48
        steps.remember_trick(s, 0)
    assert sorted(s.won[0]) == [4, 8, 48] and sorted(s.hand_played) == [4, 8, 48]
    assert s.history_winner == [-1, 0, 0] and (s.streak, s.streak_seat) == (2, 0)
    assert s.history_cards[1] == [48, 8, 4]


def test_a_card_each_seat_played_to_an_earlier_trick_is_remembered(tmp_path):
    path = tmp_path / "own-suit.rules"
    path.write_text(
        'profile "own-suit" extends "equal-hands" {\n'
        "    follow any\n"
        "    rule own-suit {\n"
        "        refuse card if card.suit == card_of(me, previous).suit\n"
        "    }\n}\n"
    )
    rules = load(str(path)).rules
    hands = [cards("9C 2D 3H"), cards("3C 4D 5H"), cards("7C 8D 9H")]
    hand = Hand.from_position(rules, hands, cards("2S 3S 4S"), Suit.SPADES, 0)
    assert set(hand.legal_moves()) == set(cards("9C 2D 3H"))  # no previous trick
    play(hand, "9C 4D 9H")  # seat 0 wins with the only club, draws 2S and leads
    assert set(hand.legal_moves()) == set(cards("2D 3H 2S"))
    play(hand, "2D")
    assert set(hand.legal_moves()) == set(cards("3C 5H"))  # seat 1 played a diamond


def test_two_of_clubs_leads_gives_the_first_lead_to_its_holder_who_must_lead_it():
    rules = load("two-of-clubs-leads").rules
    top = cards("5D 6D 2C 7D 8D 9D 3C 4C 5C 6C 7C 8C")
    order = top + [c for c in rules.cards if c not in top]
    hand = Hand.deal(rules, 3, 0, order=order)  # seat 0 gets 2C 9D 5C
    lead = next(e for e in hand.events if isinstance(e, Lead))
    assert (lead.seat, lead.rule) == (0, "two-of-clubs-leads")
    assert hand.legal_moves() == cards("2C")
    refusal = hand.check(Card.parse("9D"))
    assert refusal is not None and refusal.rule == "two-of-clubs-first"
    assert "two-of-clubs-leads" in hand.fired


def test_two_of_clubs_leads_leaves_the_first_lead_to_the_options_when_nobody_holds_it():
    rules = load("two-of-clubs-leads").rules
    order = [c for c in rules.cards if str(c) != "2C"] + cards("2C")  # 2C at the bottom
    hand = Hand.deal(rules, 3, 2, order=order)
    lead = next(e for e in hand.events if isinstance(e, Lead))
    assert lead.seat == 0 and lead.rule != "two-of-clubs-leads"
    assert len(hand.legal_moves()) > 1  # the forced card does not apply


def test_lowest_follower_draws_gives_a_card_to_the_lowest_of_the_led_suit_after_the_winner():
    hand = position("lowest-follower-draws", "5C 2H|9C 3H|2D 4H", "2S 3S 4S 5S 6S", Suit.SPADES)
    play(hand, "5C 9C 2D")  # seat 1 wins; seat 0, the leader, played the lowest club
    assert draws(hand) == [(1, 1), (0, 1)]
    (extra,) = [e for e in hand.events if isinstance(e, Draw) and e.seat == 0]
    assert extra.rule == "lowest-follower-draws"
    assert "lowest-follower-draws" in hand.fired


def test_lowest_follower_draws_gives_nobody_a_card_when_no_other_player_followed_suit():
    hand = position("lowest-follower-draws", "5C 2H|2D 3H|3D 4H", "2S 3S 4S 5S 6S", Suit.SPADES)
    play(hand, "5C 2D 3D")
    assert draws(hand) == [(0, 1)]
    assert "lowest-follower-draws" not in hand.fired


def test_lowest_follower_draws_can_take_the_last_card_and_win_under_last_draw_wins():
    hand = position("lowest-follower-draws", "5C 2H|9C 3H|2D 4H", "2S 3S", Suit.SPADES)
    play(hand, "5C 9C 2D")
    assert draws(hand) == [(1, 1), (0, 1)]
    assert hand.outcome is not None
    assert (hand.outcome.winner, hand.outcome.reason) == (0, EndReason.STOCK_EXHAUSTED)


NO_TRICK_STOCK = "6S 7S 8S 9S 10S JS"


def test_no_trick_no_stay_puts_out_at_trick_4_whoever_won_no_trick_and_their_cards_leave():
    hands = "AC 5D AS KC 6H|2C AD 2S 3C 3H|4C 4D 4S 5C 4H"
    hand = position("no-trick-no-stay", hands, NO_TRICK_STOCK, Suit.HEARTS)
    play(hand, "AC 2C 4C 5D AD 4D 2S 4S AS")  # seat 0, seat 1 and seat 0 win
    assert not [e for e in hand.events if isinstance(e, Out)]
    play(hand, "KC 3C 5C")  # trick 4: seat 2 has won none, and still holds 4H
    (out,) = [e for e in hand.events if isinstance(e, Out)]
    assert (out.trick, out.seat, out.rule) == (4, 2, "no-trick-no-stay")
    assert hand.hands[2] == [] and Card.parse("4H") not in hand.cards_in_play()
    assert not hand.is_over and "no-trick-no-stay" in hand.fired


def test_no_trick_no_stay_ends_the_hand_when_one_player_won_the_first_four_tricks():
    hands = "AC AD AS KC 6H|2C 2D 2S 3C 3H|4C 4D 4S 5C 4H"
    hand = position("no-trick-no-stay", hands, NO_TRICK_STOCK, Suit.HEARTS)
    play(hand, "AC 2C 4C AD 2D 4D AS 2S 4S KC 3C 5C")
    outs = [(e.seat, e.rule) for e in hand.events if isinstance(e, Out)]
    assert outs == [(1, "no-trick-no-stay"), (2, "no-trick-no-stay")]
    assert hand.outcome is not None
    assert (hand.outcome.winner, hand.outcome.reason) == (0, EndReason.LAST_PLAYER)


def test_play_names_the_stated_rule_that_put_a_player_out(capsys):
    code = main(["play", "-p", "no-trick-no-stay", "-n", "5", "--bots", "random", "--seed", "3"])
    assert code == 0
    assert "is out by rule no-trick-no-stay" in capsys.readouterr().out
