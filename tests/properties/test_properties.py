"""Property-based tests: random profiles, deals, player counts and bots, checked after every play.

Every option of the registry (`rulesdsl.model.rules.OPTIONS`) is drawn from its allowed values; the
hands are played by seeded bots and the invariants of docs/rules.md (the order of a trick, the
options, reproducible deals) are checked after each single play, at the end of each hand and across
whole matches."""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any
from unittest import mock

import oracle
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from sizing import examples

import rulesdsl.play.engine.hand as hand_module
import rulesdsl.play.engine.match as match_module
import rulesdsl.play.engine.steps as steps
from rulesdsl.model.cards import RANKS_HIGH_TO_LOW, Card, Suit, rank_text
from rulesdsl.model.expr import parse_expr
from rulesdsl.model.kinds import Choice, CountOrWord, DeckRanks, IntExpr, MatchKind, PlayerRange
from rulesdsl.model.rules import OPTIONS, Rules
from rulesdsl.model.seeds import derive
from rulesdsl.play.engine.driver import play_hand, play_match
from rulesdsl.play.engine.events import (
    Deal,
    Draw,
    Event,
    HandEnd,
    Lead,
    MatchOver,
    Out,
    Play,
    Reshuffle,
    Score,
    TrickWon,
    TrumpShown,
)
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.engine.match import Match
from rulesdsl.play.players.bots import BOTS
from rulesdsl.play.players.registry import make_bot

# Sizing (a few seconds each on one core; HYPOTHESIS_PROFILE=thorough for ten times as
# many): HAND_EXAMPLES * HANDS_PER_EXAMPLE = 1200 checked hands, plus one unchecked replay
# per example, plus MATCH_EXAMPLES matches, each checked and then replayed. Rules that may
# play on for ever are stopped at a short trick limit, in hands and in matches.
HAND_EXAMPLES = examples(150)
HANDS_PER_EXAMPLE = 8
MATCH_EXAMPLES = examples(50)
# A profile may make the target unreachable (e.g. cards_in_hand where every hand ends all_out,
# so the winner scores 0); the engine then stops the match at HAND_LIMIT hands. The match test
# lowers that limit so such a profile costs a few dozen hands, not a thousand.
MATCH_HAND_LIMIT = 40
PROFILE_EXAMPLES = examples(200)

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
# Random bots most of the time; the deterministic bots now and then.
BOT_MIX = ("random", "random", "random", *sorted(BOTS))
HAND_SIZE_FORMS = (
    "players",
    "players + 1",
    "players - 1",
    "2 * players",
    "min(players, 5)",
    "max(3, players)",
    "8 - players",
)
DRAW_COUNTS = range(0, 4)


# -- profiles drawn from the option registry ----------------------------------------------


@dataclass(frozen=True)
class Table:
    """A random profile (options as text, as a user would write them) and a table to play it."""

    options: dict[str, str]
    players: int
    bots: tuple[str, ...]
    seed: int

    @cached_property
    def rules(self) -> Rules:
        return Rules().with_options(self.options)


def _deck(draw: Any, kind: DeckRanks) -> str:
    ranks = st.lists(st.sampled_from(RANKS_HIGH_TO_LOW), min_size=2, max_size=13, unique=True)
    return draw(
        st.one_of(
            st.sampled_from(kind.words()),
            ranks.map(lambda rs: " ".join(rank_text(r) for r in rs)),
        )
    )


def _hand_size(draw: Any, kind: IntExpr, players: int, most: int) -> str:
    forms = [
        text
        for text in (*kind.words(), *HAND_SIZE_FORMS)
        if 1 <= parse_expr(text).eval(players) <= most
    ]
    counts = st.sampled_from(range(1, most + 1)).map(str)  # uniform, not biased towards 1
    return draw(st.one_of(st.sampled_from(forms), counts) if forms else counts)


def _count_or_word(draw: Any, kind: CountOrWord) -> str:
    counts = [str(n) for n in DRAW_COUNTS if n >= kind.minimum]
    return draw(st.sampled_from([*kind.words(), *counts]))


def _match(draw: Any, kind: MatchKind) -> str:
    word = draw(st.sampled_from(kind.words()))
    counts = ["1", "2", "3"] + (["players"] if word == "hands" else [])
    return f"{word} {draw(st.sampled_from(counts))}"


@st.composite
def tables(draw: Any) -> Table:
    """Every option drawn from its allowed values, built so that `check_players` accepts it."""
    options: dict[str, str] = {}
    for name, opt in OPTIONS.items():
        if isinstance(opt.kind, Choice):
            options[name] = draw(st.sampled_from(opt.kind.words()))
        elif isinstance(opt.kind, CountOrWord):
            options[name] = _count_or_word(draw, opt.kind)
        elif isinstance(opt.kind, MatchKind):
            options[name] = _match(draw, opt.kind)
        elif isinstance(opt.kind, DeckRanks):
            options[name] = _deck(draw, opt.kind)
        elif not isinstance(opt.kind, IntExpr | PlayerRange):
            raise TypeError(f"no strategy for option {name} of kind {type(opt.kind).__name__}")
    # The player count, the allowed range and the hand size depend on the deck and the trump rule.
    in_deck = len(Rules().with_options({"deck": options["deck"]}).cards)
    free = in_deck - (options["trump"] in ("stock_turnup", "stock_bottom"))
    player_kind = OPTIONS["players"].kind
    players = draw(st.sampled_from(range(player_kind.lowest, min(player_kind.highest, free) + 1)))
    low = draw(st.integers(player_kind.lowest, players))
    high = draw(st.integers(players, player_kind.highest))
    options["players"] = f"{low}..{high}" if low < high else str(low)
    options["hand_size"] = _hand_size(draw, OPTIONS["hand_size"].kind, players, free // players)
    bots = tuple(draw(st.lists(st.sampled_from(BOT_MIX), min_size=players, max_size=players)))
    table = Table(options, players, bots, draw(SEEDS))
    table.rules.check_players(players)
    return table


def bots_for(names: Sequence[str], seed: int, label: object) -> list:
    return [make_bot(name, derive(seed, "bot", label, seat)) for seat, name in enumerate(names)]


# -- the profile and its cards as the oracle reads them ----------------------------------------


def options_of(rules: Rules) -> dict[str, str]:
    """Every option's text, as the oracle (tests/oracle.py) reads the rules."""
    return {name: rules.text(name) for name in OPTIONS}


def plain(card: Card) -> oracle.Card:
    """A card as the oracle writes it: ("10", "H")."""
    written = str(card)
    return written[:-1], written[-1]


def plain_cards(cards: Iterable[Card]) -> list[oracle.Card]:
    return [plain(card) for card in cards]


def plain_trick(trick: Sequence[tuple[int, Card]]) -> list[tuple[int, oracle.Card]]:
    return [(seat, plain(card)) for seat, card in trick]


def letter(suit: Suit | None) -> str | None:
    return None if suit is None else str(suit)


def endless(rules: Rules) -> bool:
    """Whether a hand may go on for ever (the engine stops it at its trick limit)."""
    return oracle.endless(options_of(rules))


def trick_bound(rules: Rules, players: int) -> int:
    """The most tricks a hand may take before it must have ended."""
    size, in_deck = rules.hand_size_for(players), len(rules.cards)
    return oracle.trick_bound(options_of(rules), players, size, in_deck, hand_module.TRICK_LIMIT)


# -- one hand, checked after every play ---------------------------------------------------


@dataclass
class Watch:
    """What the checks remember while a hand is played."""

    hand: Hand
    deck: frozenset[Card]
    trump: Suit | None
    options: dict[str, str]
    out: set[int] = field(default_factory=set)
    tricks: int = 0
    next_leader: int = 0
    first_leader: int = 0
    trick: list[tuple[int, Card]] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)
    set_aside: int = 0


def same_cards(cards: Sequence[Card], deck: frozenset[Card]) -> bool:
    """Whether `cards` is exactly the deck as a multiset (the deck holds each card once)."""
    return len(cards) == len(deck) and set(cards) == deck


def check_cards(watch: Watch) -> None:
    """Hands + trick + stock + set-aside tricks + turn-up == the deck in play, as a multiset."""
    hand = watch.hand
    where = [c for h in hand.hands for c in h] + [c for _, c in hand.trick]
    where += hand.stock + hand.set_aside + ([hand.turnup] if hand.turnup is not None else [])
    assert same_cards(where, watch.deck), (
        ("extra", Counter(where) - Counter(watch.deck)),
        ("missing", Counter(watch.deck) - Counter(where)),
    )
    assert same_cards(hand.cards_in_play(), watch.deck)


def check_deal(hand: Hand, rules: Rules, players: int, dealer: int, order) -> None:
    """Section 4: who gets which card, the stock, the turn-up and the trump suit."""
    size = rules.hand_size_for(players)
    dealt = players * size
    deal, trump_event = hand.events[0], hand.events[1]
    assert isinstance(deal, Deal) and isinstance(trump_event, TrumpShown)
    assert deal.dealer == dealer == hand.dealer
    assert all(len(cards) == size for cards in deal.hands)
    assert [sorted(cards) for cards in deal.hands] == [sorted(h) for h in hand.hands]
    turnup = rules.trump == "stock_turnup"
    bottom = rules.trump == "stock_bottom"
    assert deal.stock == len(hand.stock) == len(rules.cards) - dealt - turnup
    options = options_of(rules)
    if order is not None:  # the deal of the oracle, card for card
        expected = oracle.deal(plain_cards(order), players, dealer, size, options)
        assert [plain_cards(cards) for cards in deal.hands] == expected.hands
        assert plain_cards(hand.stock) == expected.stock
        assert (None if hand.turnup is None else plain(hand.turnup)) == expected.turnup
        shown = trump_event.card
        assert (None if shown is None else plain(shown), letter(hand.trump)) == (
            expected.shown,
            expected.trump,
        )
    if rules.trump == "dealer_last_card":
        shown = deal.hands[dealer][-1]
        assert trump_event.card == shown and hand.trump == shown.suit
        assert shown in hand.hands[dealer]
    elif turnup:
        assert hand.turnup is not None and hand.turnup not in hand.stock
        assert trump_event.card == hand.turnup and hand.trump == hand.turnup.suit
    elif bottom:
        assert hand.turnup is None and trump_event.card == hand.stock[-1]
        assert hand.trump == trump_event.card.suit
    else:
        assert trump_event.card is None
        word = options["trump"]
        assert letter(hand.trump) == (None if word == "none" else oracle.SUIT_WORDS[word])
    assert trump_event.suit == hand.trump
    # Section 1 rule 6: the player to the dealer's left leads the first trick.
    assert hand.to_move == (dealer + 1) % players
    assert hand.events[2] == Lead(1, hand.to_move) and hand.events[2].rule == "opening_lead"


def start_trick(watch: Watch) -> None:
    hand = watch.hand
    n = hand.players
    assert hand.to_move == watch.next_leader  # section 2 step 10 (rule 6 for the first)
    watch.trick = []
    watch.seats = [(watch.next_leader + i) % n for i in range(n)]
    watch.seats = [s for s in watch.seats if s not in watch.out]
    watch.sizes = [len(h) for h in hand.hands]
    watch.stock = list(hand.stock)
    watch.set_aside = len(hand.set_aside)


def check_play(watch: Watch, seat: int, card: Card, events: list[Event]) -> None:
    hand, rules, options = watch.hand, watch.hand.rules, watch.options
    assert isinstance(events[0], Play) and (events[0].seat, events[0].card) == (seat, card)
    assert events[0].trick == watch.tricks + 1
    assert all(
        isinstance(e, TrickWon | Draw | Reshuffle | Out | HandEnd | Lead) for e in events[1:]
    )
    watch.trick.append((seat, card))
    check_cards(watch)
    assert hand.trump == watch.trump  # trump never changes within a hand
    if len(watch.trick) < len(watch.seats):
        assert len(events) == 1 and hand.outcome is None
        return
    # The trick is complete: everyone active at the lead has played once, clockwise.
    assert [s for s, _ in watch.trick] == watch.seats
    assert hand.trick == []
    number = watch.tricks = watch.tricks + 1
    assert hand.tricks_played == number
    won = [e for e in events if isinstance(e, TrickWon)]
    assert len(won) == 1 and won[0].trick == number
    winner = won[0].seat
    assert winner == oracle.trick_winner(plain_trick(watch.trick), letter(watch.trump), options)
    assert won[0].cards == tuple(c for _, c in watch.trick)
    if rules.exhaustion != "reshuffle":
        assert set(won[0].cards) <= set(hand.set_aside)  # section 1 rule 9: set aside

    # Elimination: only empty hands drop out, in the order they played, at the profile's step.
    outs = [e for e in events if isinstance(e, Out)]
    draws = [e for e in events if isinstance(e, Draw)]
    reshuffles = [e for e in events if isinstance(e, Reshuffle)]
    out_seats = [e.seat for e in outs]
    assert all(e.trick == number for e in outs + draws + reshuffles)
    assert out_seats == [s for s in watch.seats if s in out_seats]
    for seat_out in out_seats:
        assert seat_out not in watch.out and not hand.hands[seat_out]
        assert not hand.active[seat_out]
    watch.out.update(out_seats)
    if draws:
        position = events.index(draws[0])
        if rules.elimination == "immediate":
            assert all(events.index(e) < position for e in outs)
        else:
            assert all(events.index(e) > position for e in outs)
    ended = hand.outcome
    empty_now = [s for s in watch.seats if not hand.hands[s]]
    if rules.elimination == "immediate" or ended is None or ended.reason != "stock_exhausted":
        assert sorted(out_seats) == sorted(empty_now)

    wanted = oracle.draw_count(options, len(watch.trick))
    pool = len(watch.stock)
    if rules.exhaustion == "reshuffle":
        pool += watch.set_aside + len(watch.trick)
    # Who draws: the players of the trick still in when the draw comes (step 3 first under
    # immediate), as the oracle names them.
    early = set(out_seats) if rules.elimination == "immediate" else set()
    at_draw = [s in watch.seats and s not in early for s in range(hand.players)]
    drawers = oracle.drawers(options, winner, at_draw)
    if rules.draw_by == "everyone":
        check_everyone_draws(watch, winner, drawers, draws, wanted, pool, reshuffles)
        draws = []  # checked
    else:
        # The draw: only the winner, the profile's number of cards from the top of the stock.
        assert drawers in ([winner], [])
        expected = min(wanted, pool) if drawers else 0
        assert sum(len(d.cards) for d in draws) == expected
        assert len(draws) <= 1
    if reshuffles and rules.draw_by == "winner":
        assert rules.exhaustion == "reshuffle" and len(watch.stock) < wanted
    if draws:
        drawn = draws[0]
        assert drawn.seat == winner and drawn.stock_left == len(hand.stock)
        if not reshuffles:
            assert list(drawn.cards) == watch.stock[: len(drawn.cards)]
            assert hand.stock == watch.stock[len(drawn.cards) :]
        assert all(c in hand.hands[winner] for c in drawn.cards)
        if options["draw"] == "1" and hand.active[winner]:
            # Section 1 rule 10: winning keeps a hand's size (one played, one drawn).
            assert len(hand.hands[winner]) == watch.sizes[winner]
    elif not reshuffles and rules.draw_by == "winner":
        assert hand.stock == watch.stock

    assert number <= trick_bound(rules, hand.players)
    if ended is None:
        active = [s for s in range(hand.players) if hand.active[s]]
        assert active == [s for s in range(hand.players) if s not in watch.out]
        assert active == [s for s in range(hand.players) if hand.hands[s]]
        assert len(active) >= 2
        if rules.exhaustion == "most_tricks":
            assert hand.stock  # step 9: the hand ends as soon as the stock is empty
        if rules.exhaustion == "last_draw_wins" and draws:
            assert hand.stock  # step 5: the draw of the last stock card ends the hand
        still_in = [s not in watch.out for s in range(hand.players)]
        watch.next_leader = oracle.next_leader(options, winner, watch.first_leader, still_in)
        # The lead closes the trick, tagged next_lead where it passes elsewhere than the
        # fixed order of a trick says: the winner, or the next active seat after them.
        fixed = oracle.next_active(winner, still_in)
        lead = events[-1]
        assert lead == Lead(number + 1, watch.next_leader) and [events.count(lead)] == [1]
        assert lead.rule == ("core" if watch.next_leader == fixed else "next_lead")
    else:
        assert not any(isinstance(e, Lead) for e in events)


def check_everyone_draws(
    watch: Watch, winner: int, drawers: list[int], draws: list, wanted: int, pool: int, shuffled
) -> None:
    """Step 4 under `draw_by everyone`: the `drawers` (the winner if still in, then every
    other player still in, clockwise from the winner), each up to `wanted` cards, until the
    cards run out (or, under last_draw_wins, the last one is taken)."""
    hand = watch.hand
    total = min(wanted * len(drawers), pool)
    assert sum(len(d.cards) for d in draws) == total
    assert [d.seat for d in draws] == [s for s in drawers if s in {d.seat for d in draws}]
    assert all(len(d.cards) <= wanted for d in draws)
    assert all(d.rule == ("draw" if d.seat == winner else "draw_by") for d in draws)
    if not shuffled:
        taken = [c for d in draws for c in d.cards]
        assert taken == watch.stock[: len(taken)] and hand.stock == watch.stock[len(taken) :]
    for d in draws:
        assert all(c in hand.hands[d.seat] for c in d.cards)


def check_end(watch: Watch) -> None:
    hand, rules, options = watch.hand, watch.hand.rules, watch.options
    outcome = hand.outcome
    events = hand.events
    wins = [e.seat for e in events if isinstance(e, TrickWon)]
    assert events[-1] == HandEnd(outcome.winner, outcome.reason, outcome.tricks)
    assert sum(isinstance(e, HandEnd) for e in events) == 1
    assert outcome.tricks == hand.tricks_played == len(wins) == watch.tricks >= 1
    assert outcome.trick_winners == tuple(wins)
    assert outcome.eliminated == tuple((e.trick, e.seat) for e in events if isinstance(e, Out))
    assert outcome.stock_left == len(hand.stock)
    assert outcome.trump == watch.trump
    assert hand.to_move is None and hand.legal_moves() == []
    assert outcome.tricks <= trick_bound(rules, hand.players)
    # Rule coverage counts next_lead in the hands where a lead is tagged with it.
    passed = any(isinstance(e, Lead) and e.rule == "next_lead" for e in events)
    assert ("next_lead" in outcome.fired) == passed

    # An eliminated player never plays again: replay the whole event log.
    out: set[int] = set()
    for event in events:
        if isinstance(event, Play):
            assert event.seat not in out
        elif isinstance(event, Out):
            assert event.seat not in out
            out.add(event.seat)
        elif isinstance(event, TrumpShown):
            assert event is events[1]

    winner, reason, last = outcome.winner, outcome.reason, wins[-1]
    holders = [s for s in range(hand.players) if hand.hands[s]]
    if reason == "stock_exhausted":
        assert rules.exhaustion == "last_draw_wins" and not hand.stock
        drew = [e.seat for e in events if isinstance(e, Draw)]
        assert winner == (last if rules.draw_by == "winner" else drew[-1]) and hand.hands[winner]
        assert any(isinstance(e, Draw) and e.trick == outcome.tricks for e in events)
    elif reason == "last_player":
        assert holders == [winner]
        assert [s for s in range(hand.players) if hand.active[s]] == [winner]
    elif reason == "all_out":
        assert holders == []
        assert winner == oracle.all_out_winner(options, last)
    elif reason == "most_tricks":
        assert rules.exhaustion == "most_tricks" and not hand.stock
        assert winner == oracle.most_tricks_winner(wins)
    else:
        assert reason == "trick_limit", reason
        assert oracle.endless(options)
        assert outcome.tricks == hand_module.TRICK_LIMIT and winner is None
    # Exactly one winner, except all_out under no_winner, and the trick limit.
    if winner is None:
        assert (reason, rules.all_out) == ("all_out", "no_winner") or reason == "trick_limit"
    else:
        assert 0 <= winner < hand.players
        assert outcome.winner_cards == len(hand.hands[winner])


def play_checked(hand: Hand, bots: Sequence, order=None) -> Hand:
    """Play `hand` to its end with `bots`, checking every invariant after every play."""
    rules = hand.rules
    check_deal(hand, rules, hand.players, hand.dealer, order)
    first = hand.to_move
    watch = Watch(
        hand,
        frozenset(rules.cards),
        hand.trump,
        options_of(rules),
        next_leader=first,
        first_leader=first,
    )
    check_cards(watch)
    while hand.outcome is None:
        seat = hand.to_move
        assert seat not in watch.out and hand.active[seat] and hand.hands[seat]
        if not hand.trick:
            start_trick(watch)
        legal = hand.legal_moves()
        first = watch.tricks == 0
        expected = oracle.allowed(
            plain_cards(hand.hands[seat]),
            plain_trick(hand.trick),
            letter(watch.trump),
            first,
            watch.options,
        )
        assert sorted(plain_cards(legal)) == sorted(expected)
        card = bots[seat].choose(hand, legal)
        check_play(watch, seat, card, hand.play(card))
    check_end(watch)
    return hand


def replay(table: Table, dealer: int, seed: int, label: object) -> list[Event]:
    """The same hand once more, unchecked: same rules, dealer, seed and bot seeds."""
    hand = Hand.deal(table.rules, table.players, dealer, seed=seed)
    play_hand(hand, bots_for(table.bots, table.seed, label))
    return hand.events


# -- the properties -----------------------------------------------------------------------


@settings(max_examples=PROFILE_EXAMPLES, deadline=None)
@given(tables())
def test_every_drawn_profile_is_playable_and_reads_back(table):
    rules = table.rules
    rules.check_players(table.players)
    for name, opt in OPTIONS.items():
        assert opt.parse(rules.text(name)) == getattr(rules, name)
    assert Rules().with_options(rules.changed()) == rules


@settings(max_examples=HAND_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
@example(Table({}, 4, ("random",) * 4, 1))  # the equal-hands profile of section 1
@example(Table({}, 6, ("heuristic", "random") * 3, 2))
@example(Table({"deck": "A K Q J 10 9 8 7", "hand_size": "5"}, 3, ("lowest",) * 3, 3))
@example(Table({"exhaustion": "reshuffle", "draw": "per_card_in_trick"}, 3, ("random",) * 3, 4))
@example(Table({"trump": "stock_turnup", "elimination": "immediate"}, 5, ("random",) * 5, 5))
def test_hands_keep_every_invariant_after_every_play(table):
    rules, players = table.rules, table.players
    assume(rules.hand_size_for(players) >= 1)
    with short_trick_limit() if endless(rules) else contextlib.nullcontext():
        play_checked_hands(table)


@contextlib.contextmanager
def short_trick_limit(limit: int = 120) -> Iterator[None]:
    """A lower trick limit for the rules that may play on for ever: a hand stopped at it
    keeps every invariant as one stopped at the real limit does, in far less time."""
    saved = steps.TRICK_LIMIT_TRICKS, hand_module.TRICK_LIMIT
    steps.TRICK_LIMIT_TRICKS = hand_module.TRICK_LIMIT = limit
    try:
        yield
    finally:
        steps.TRICK_LIMIT_TRICKS, hand_module.TRICK_LIMIT = saved


def play_checked_hands(table: Table) -> None:
    rules, players = table.rules, table.players
    rng = random.Random(table.seed)
    for number in range(HANDS_PER_EXAMPLE):
        dealer = rng.randrange(players)
        seed = rng.getrandbits(64)
        order = None
        if number % 2:  # every other hand from an explicit deck order (section 4)
            order = list(rules.cards)
            rng.shuffle(order)
        hand = Hand.deal(rules, players, dealer, order=order, seed=seed)
        play_checked(hand, bots_for(table.bots, table.seed, number), order)
        if number == 0:
            # Determinism: the same seed and rules give the same events.
            assert replay(table, dealer, seed, number) == hand.events


@settings(max_examples=MATCH_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_matches_end_score_by_the_rule_and_replay(table):
    rules = table.rules
    with (
        mock.patch.object(match_module, "HAND_LIMIT", MATCH_HAND_LIMIT),
        short_trick_limit() if endless(rules) else contextlib.nullcontext(),
    ):
        check_match(table)


def check_match(table: Table) -> None:
    rules, players = table.rules, table.players
    match = Match(rules, players, seed=table.seed)
    bots = bots_for(table.bots, table.seed, "match")
    assert 0 <= match.dealer < players
    dealer = match.dealer
    events: list[Event] = []
    points = [0] * players
    count = rules.match_count_for(players)
    options = options_of(rules)
    while not match.over:
        assert match.hands_played < MATCH_HAND_LIMIT
        hand = match.deal()
        assert hand.dealer == dealer
        outcome = play_checked(hand, bots).outcome
        events += hand.events
        recorded = match.record(outcome)
        events += recorded
        winner = outcome.winner
        gained = 0
        if winner is not None:
            gained = oracle.points(options, outcome.winner_cards)
            points[winner] += gained
        assert recorded[0] == Score(match.hands_played, winner, gained, tuple(points))
        assert match.points == points
        at_limit = match.hands_played >= MATCH_HAND_LIMIT
        over = oracle.match_over(options, points, match.hands_played, count)
        assert (over or at_limit) == match.over
        dealer = oracle.next_dealer(options, dealer, winner, players)
        assert match.dealer == dealer
    if rules.match.kind == "hands":
        assert match.hands_played == count
    top = max(points)
    winners = tuple(s for s in range(players) if points[s] == top)
    assert match.winners == winners
    assert events[-1] == MatchOver(winners, tuple(points), match.hands_played)

    # The same seed gives the same match.
    again: list[Event] = []
    rerun = Match(rules, players, seed=table.seed)
    play_match(rerun, bots_for(table.bots, table.seed, "match"), again.append)
    assert again == events
    assert rerun.points == match.points and rerun.winners == match.winners
