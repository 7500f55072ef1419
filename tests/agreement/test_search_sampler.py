"""What a seat knows, and the worlds consistent with it: on small decks the sampler draws
exactly the worlds an exhaustive replay finds consistent, each about equally often, and
every world it draws replays the history legally and plays on to its end."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest
from replays import replay
from worlds_oracle.infoset import Place, observe
from worlds_oracle.sampler import Sampler

from rulesdsl.model.cards import Card, Suit
from rulesdsl.model.rules import Rules
from rulesdsl.model.seeds import derive
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.driver import Player
from rulesdsl.play.engine.events import Deal, Draw
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.players.bots import RandomBot
from rulesdsl.read.profile import load

SMALL = {"deck": "A K Q", "hand_size": "2", "players": "3"}


def small(profile: str = "equal-hands", **more: str) -> Rules:
    return load(profile).rules.with_options({**SMALL, **more})


def played(
    rules: Rules, seed: int, plays: int, players: int = 3, bot: Player | None = None
) -> Hand:
    """A hand dealt by seat 0 and played `plays` cards on by `bot` (a random bot where none
    is given), or to its end."""
    hand = Hand.deal(rules, players, 0, seed=seed)
    bot = bot or RandomBot(seed)
    for _ in range(plays):
        if hand.is_over:
            break
        hand.play(bot.choose(hand, hand.legal_moves()))
    return hand


def key(hand: Hand, seat: int) -> tuple:
    """A world as `seat` could tell worlds apart: the others' dealt cards, what each of
    their draws took, and the stock left (as a set: its order is never seen)."""
    deal = next(e for e in hand.events if isinstance(e, Deal))
    dealt = tuple(frozenset(h) for s, h in enumerate(deal.hands) if s != seat)
    draws = tuple(e.cards for e in hand.events if isinstance(e, Draw) and e.seat != seat)
    return dealt, draws, frozenset(hand.stock)


def every_world(truth: Hand, seat: int, read: bool = False) -> set[tuple]:
    """The consistent worlds, by brute force: every way to give the other players their
    dealt cards and draws out of the cards `seat` has not seen, each replayed from the
    deal in the reference engine (the deck order of docs/rules.md, "Reproducible deals");
    with `read`, those in which the heuristic bot plays every other player's cards."""
    rules, n = truth.rules, truth.players
    deal = next(e for e in truth.events if isinstance(e, Deal))
    draws = [e for e in truth.events if isinstance(e, Draw)]
    info = observe(truth, seat)
    own = set(deal.hands[seat]) | {c for e in draws if e.seat == seat for c in e.cards}
    hidden = {c for c in rules.cards if c not in own and c != info.shown}
    size, dealer = len(deal.hands[0]), deal.dealer
    plays = [p.card for p in info.plays]
    found = set()
    others = [s for s in range(n) if s != seat]
    shown = {s: [info.shown] if s == dealer and info.place is Place.HAND else [] for s in others}
    for dealt in _splits(
        sorted(hidden, key=rules.card_key), [size - len(shown[s]) for s in others]
    ):
        hands = {seat: list(deal.hands[seat])}
        for s, cards in zip(others, dealt[:-1], strict=True):
            hands[s] = list(cards) + shown[s]  # the trump card is the dealer's last
        left = dealt[-1]
        theirs = [e for e in draws if e.seat != seat]
        for taken in itertools.permutations(left, sum(len(e.cards) for e in theirs)):
            it = iter(taken)
            stock = [
                c
                for e in draws
                for c in (e.cards if e.seat == seat else [next(it) for _ in e.cards])
            ]
            rest = [c for c in left if c not in taken]
            order = [hands[(dealer + 1 + k) % n][k // n] for k in range(n * size)]
            if info.place is Place.STOCK_BOTTOM:
                order.append(info.shown)
            hand = replay(rules, 3, order + stock + rest, plays, frozenset(others if read else ()))
            if hand is not None and hand.to_move == truth.to_move:  # the same seat to lead
                found.add(key(hand, seat))
    return found


def _splits(cards: list[Card], sizes: list[int]):
    """Every way to deal `cards` into groups of `sizes` (as sets), and the rest."""
    if not sizes:
        yield [tuple(cards)]
        return
    for group in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in group]
        for more in _splits(rest, sizes[1:]):
            yield [group, *more]


def chi_square(counts: Counter, support: set) -> tuple[float, int]:
    total = sum(counts.values())
    expected = total / len(support)
    return sum((counts[k] - expected) ** 2 / expected for k in support), len(support) - 1


def generous(df: int) -> float:
    """A bound a chi-square of `df` degrees exceeds with odds far below one in a million."""
    return df + 8 * math.sqrt(2 * df) + 20


CASES = [
    ("equal-hands", {}, 11, 3),
    ("equal-hands", {"must_head": "yes"}, 5, 4),
    ("equal-hands", {"follow": "suit_or_trump", "when_void": "trump_if_able"}, 2, 5),
    ("profiles/house/must-overtrump.rules", {}, 7, 4),
    ("profiles/house/trumps-broken.rules", {"trump": "stock_bottom"}, 3, 4),
]


@pytest.mark.parametrize(("profile", "more", "seed", "plays"), CASES)
def test_the_sampler_draws_every_consistent_world_uniformly(profile, more, seed, plays):
    rules = small(profile, **more)
    truth = played(rules, seed, plays)
    seat = truth.to_move
    sampler = Sampler(observe(truth, seat))
    support = every_world(truth, seat)
    assert key(truth, seat) in support
    stream = Stream(derive(1, "sampler", profile, seed))
    counts = Counter()
    draws = 40 * len(support) if len(support) > 1 else 50
    for _ in range(draws):
        world = sampler.world(sampler.sample(stream))
        hand = sampler.replay(world)  # strict: every play checked by the engine
        counts[key(hand, seat)] += 1
    assert set(counts) == support
    chi, df = chi_square(counts, support)
    assert chi < generous(df), (chi, df)


@pytest.mark.parametrize(
    ("profile", "more"),
    [
        ("equal-hands", {}),
        ("bicycle", {}),
        ("profiles/house/time-limit.rules", {}),
        ("profiles/house/trumps-broken.rules", {"trump": "stock_bottom"}),
        ("equal-hands", {"trump": "stock_turnup", "hand_size": "7"}),
    ],
)
def test_every_sampled_world_replays_legally_and_plays_to_its_end(profile, more):
    rules = load(profile).rules.with_options(more)
    for seed in range(6):
        truth = played(rules, seed, 3 + 4 * seed, players=4)
        if truth.is_over:
            continue
        seat = truth.to_move
        sampler = Sampler(observe(truth, seat))
        stream = Stream(seed)
        for n in range(4):
            filling = sampler.sample(stream)
            hand = sampler.replay(sampler.world(filling))
            assert hand.cards(seat) == truth.cards(seat)
            assert hand.legal_moves() == truth.legal_moves()
            now = sampler.state(filling, 0)  # the position the bots play out
            assert (now.hands, now.stock, now.trick) == (hand.s.hands, hand.s.stock, hand.s.trick)
            bot = RandomBot(n)
            while not hand.is_over:
                hand.play(bot.choose(hand, hand.legal_moves()))


def reshuffled() -> list[tuple[int, Hand]]:
    """Hands of a 16-card deck at three players, the stock reshuffled before the seat to
    move plays, each with the seed it was played from."""
    rules = Rules().with_options(
        {
            "deck": "A K Q J",
            "players": "3",
            "hand_size": "3",
            "exhaustion": "reshuffle",
            "draw": "2",
        }
    )
    found = []
    for seed in range(12):
        truth = played(rules, seed, 10 + seed % 5)
        if not truth.is_over and observe(truth, truth.to_move).pools:
            found.append((seed, truth))
    assert found
    return found


def test_worlds_replay_through_reshuffles():
    for seed, truth in reshuffled():
        sampler = Sampler(observe(truth, truth.to_move))
        stream = Stream(seed)
        for _ in range(5):
            filling = sampler.sample(stream)
            hand = sampler.replay(sampler.world(filling))
            assert hand.cards(truth.to_move) == truth.cards(truth.to_move)
            assert len(hand.stock) == len(truth.stock)


def test_a_player_who_did_not_follow_suit_is_void_in_it():
    rules = small()
    checked = 0
    for seed in range(30):
        truth = played(rules, seed, 7)
        if truth.is_over:
            continue
        info = observe(truth, truth.to_move)
        for reveal in Sampler(info).reveals():
            trick = [p for p in info.plays if p.trick == info.plays[reveal.index].trick]
            led = trick[0].card.suit
            if reveal.card.suit != led:
                gone = set(info.fixed.values()) | {p.card for p in info.plays[: reveal.index]}
                assert {c for c in rules.cards if c.suit == led} - gone <= reveal.excluded
                checked += 1
            else:
                assert all(c.suit != led for c in reveal.excluded)
    assert checked


def test_the_information_set_counts_and_places_the_trump_card():
    rules = small()
    truth = played(rules, 3, 4)
    info = observe(truth, 1)
    assert info.place is Place.HAND
    assert info.held == tuple(len(h) for h in truth.hands)
    assert info.stock == len(truth.stock)
    assert sum(info.drawn) == sum(len(e.cards) for e in truth.events if isinstance(e, Draw))
    if info.shown not in [p.card for p in info.plays]:
        assert info.trump_holder() == 0
    bottom = observe(played(small(trump="stock_bottom"), 3, 0), 1)
    assert bottom.place is Place.STOCK_BOTTOM and bottom.trump_holder() is None
    assert observe(played(small(trump="none"), 3, 0), 1).place is Place.NONE
    assert info.trump in (*Suit, None)


@pytest.mark.parametrize(("profile", "more", "seed", "plays"), [CASES[0], CASES[1], CASES[3]])
def test_the_rules_rule_out_worlds_the_deal_alone_allows(profile, more, seed, plays):
    """The cases above are ones where a play tells something: unchecked proposals reach
    worlds the replay refuses, which the sampler never draws."""
    rules = small(profile, **more)
    truth = played(rules, seed, plays)
    seat = truth.to_move
    sampler = Sampler(observe(truth, seat))
    stream = Stream(3)
    proposed = {
        key(sampler.replay(sampler.world(sampler.propose(stream)), strict=False), seat)
        for _ in range(400)
    }
    assert proposed - every_world(truth, seat)
