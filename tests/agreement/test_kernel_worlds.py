"""The kernel's worlds (rulesdsl.play.kernel.worlds): on small decks the sampler draws
exactly the worlds an exhaustive replay on the reference engine finds consistent, each
about equally often; every world it draws replays the history legally on the reference
engine and is the position the search plays out; and the search plays the same hands
compiled as on CPython."""

from __future__ import annotations

import importlib.util
import random
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from replays import replay
from sizing import sized
from test_kernel import remembering
from test_search_sampler import (
    SMALL,
    chi_square,
    every_world,
    generous,
    played,
    reshuffled,
    small,
)
from worlds_oracle.infoset import Place, observe
from worlds_oracle.sampler import Sampler

from rulesdsl.model.cards import Card
from rulesdsl.model.rules import Rules
from rulesdsl.model.seeds import derive, shuffle
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.events import Deal, Draw, Play
from rulesdsl.play.engine.fast import int_deck
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.kernel.hands import kernel_player
from rulesdsl.play.kernel.state import copy_state
from rulesdsl.play.kernel.steps import PLAYOUT, allowed_now, play_out
from rulesdsl.play.kernel.worlds import FIRST_PROBE, MAX_PROPOSALS, WORLD, may_play, prepare, sample
from rulesdsl.play.players.bots import HeuristicBot, RandomBot
from rulesdsl.play.players.search.bot import Position
from rulesdsl.read.profile import load, load_text


def drawn(hand: Hand, seat: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """Each draw by another seat than `seat`: cards played before it, its seat, its cards."""
    plays, draws = 0, []
    for event in hand.events:
        if isinstance(event, Play):
            plays += 1
        elif isinstance(event, Draw) and event.seat != seat:
            draws.append((plays, event.seat, tuple(hand.codes.of[c] for c in event.cards)))
    return draws


def reference_key(hand: Hand, seat: int) -> tuple:
    """A world as `seat` could tell worlds apart (the key of test_search_sampler, the cards
    of a draw as a set: the stock's order is never seen), in card ints."""
    code = hand.codes.of
    deal = next(e for e in hand.events if isinstance(e, Deal))
    dealt = tuple(frozenset(code[c] for c in h) for s, h in enumerate(deal.hands) if s != seat)
    draws = tuple(sorted((t, s, frozenset(cards)) for t, s, cards in drawn(hand, seat)))
    return dealt, draws, frozenset(code[c] for c in hand.stock)


def kernel_world(position: Position, seat: int) -> tuple[tuple, dict, dict, list[int]]:
    """The key of the world the sampler just drew (as `reference_key`), each other seat's
    dealt cards, the cards of its later slots by (time, seat), and the stock now (top
    last)."""
    g, w, world = position.g, position.w, position.states[WORLD]
    dealt: dict[int, set[int]] = defaultdict(set)
    taken: dict[tuple[int, int], list[int]] = defaultdict(list)
    for k in range(g.slots_len):
        other, time, card = g.slot_seat[k], g.slot_time[k], w.fill[k]
        if other != seat:
            (dealt[other].add(card) if time == 0 else taken[(time, other)].append(card))
    players = position.s.players
    stock = list(world.stock[: world.stock_len])
    key = (
        tuple(frozenset(dealt[s]) for s in range(players) if s != seat),
        tuple(sorted((t, s, frozenset(cards)) for (t, s), cards in taken.items())),
        frozenset(stock),
    )
    return key, dealt, taken, stock


def draws_from(position: Position, seat: int, rng: Stream, count: int, read: bool = False):
    """`count` worlds for `seat` at the position, each as `kernel_world` gives it; with
    `read`, the others' plays read as the heuristic bot's."""
    s, p, g, w, states = position.rows()
    prepare(g, w, s, seat, read)
    for _ in range(count):
        copy_state(s, states[WORLD])
        assert sample(g, w, p, s, states, seat, rng, MAX_PROPOSALS)
        yield kernel_world(position, seat)


CASES = [
    ("equal-hands", {}, 11, 3),
    ("equal-hands", {"must_head": "yes"}, 5, 4),
    ("equal-hands", {"follow": "suit_or_trump", "when_void": "trump_if_able"}, 2, 5),
    ("equal-hands", {"trump": "stock_bottom"}, 3, 4),
    ("bicycle", {}, 7, 4),
    ("equal-hands", {"deck": "A K Q J", "hand_size": "3"}, 3, 5),
    ("equal-hands", {"deck": "A K Q J", "hand_size": "3"}, 5, 7),
    ("equal-hands", {"deck": "A K Q J", "hand_size": "3", "when_void": "trump_if_able"}, 1, 5),
]


LEAD_QS = (
    "lead most(p in seats: count(c in p.hand: c == QS))",
    "refuse lead if trick.number == 1 and card != QS",
)
ALSO_DRAWS = (
    "also_draws least(p in active where p != trick.winner and p.played.suit == led:"
    " p.played.strength)",
)
OUT = ("out if trick.number == 2 and player.tricks == 0",)
SIXTEEN = {"deck": "A K Q J", "hand_size": "3"}
STATED_CASES = [
    (LEAD_QS, {}, 0, 0),  # QS in the stock: no world may deal it to a player, at the lead
    (LEAD_QS, {}, 0, 2),  # or after it
    (LEAD_QS, {}, 8, 4),  # QS dealt, led by who held it
    (ALSO_DRAWS, {}, 0, 4),
    (ALSO_DRAWS, {}, 1, 6),
    (OUT, SIXTEEN, 16, 7),  # a player out at trick 2 with a card, which leaves play
    (OUT, SIXTEEN, 20, 8),
]
"""Rules of who leads, who draws too and who is out, on small decks."""


def stated(clauses: tuple[str, ...], **more: str) -> Rules:
    """Equal hands with the rules `clauses` state, on a small deck."""
    body = "\n".join(f"rule r{k} {{\n{clause}\n}}" for k, clause in enumerate(clauses))
    read = load_text(Path("/stated.rules"), f'profile "stated" {{\n{body}\n}}\n')
    assert read.ok, [d.text() for d in read.diagnostics]
    return read.rules.with_options({**SMALL, **more})


@pytest.mark.parametrize(("profile", "more", "seed", "plays"), CASES)
def test_the_kernel_draws_every_consistent_world_uniformly(profile, more, seed, plays):
    assert_uniform(small(profile, **more), seed, plays)


@pytest.mark.parametrize(("clauses", "more", "seed", "plays"), STATED_CASES)
def test_the_kernel_draws_every_world_consistent_with_who_led_drew_and_went_out(
    clauses, more, seed, plays
):
    assert_uniform(stated(clauses, **more), seed, plays)


def test_no_word_reading_a_players_cards_is_known_where_who_draws_too_or_is_out_is_decided():
    """Why the worlds need no check of those rules: the words that read a player's cards
    (not how many: `p.cards`) are known where the player does, at the deal and scoring."""
    from rulesdsl.model.language.vocab import ATTRIBUTES, NAMES, Where

    words = [
        *((a.name, a.code, a.where) for a in ATTRIBUTES.values()),
        *((n.name, n.code, n.where) for n in NAMES.values()),
    ]
    readers = {
        name: where for name, code, where in words if "s.hands[" in code.replace("len(s.hands[", "")
    }
    assert set(readers) == {"hand", "held"}
    for where in readers.values():
        assert not where & {Where.ALSO_DRAWS, Where.OUT, Where.DRAW, Where.END}


READ_CASES = [
    ("equal-hands", {}, 11, 3),
    ("equal-hands", {"must_head": "yes"}, 5, 4),
    ("equal-hands", {"follow": "suit_or_trump", "when_void": "trump_if_able"}, 2, 5),
    ("bicycle", {}, 7, 4),
    ("equal-hands", {"deck": "A K Q J", "hand_size": "3"}, 3, 5),
    ("equal-hands", {"deck": "A K Q J", "hand_size": "3"}, 0, 6),
    *sized([], [("equal-hands", {"deck": "A K Q J", "hand_size": "3"}, 8, 7)]),
    ("equal-hands", {"deck": "A K Q J", "hand_size": "4", "trump": "stock_bottom"}, 4, 6),
]
"""Hands the heuristic bot plays, and positions in them. The brute force replays the 369
legal worlds of the hand of seed 8 in a minute or more: a thorough run's."""


@pytest.mark.parametrize(("profile", "more", "seed", "plays"), READ_CASES)
def test_worlds_read_as_the_heuristic_bots_are_those_it_plays_so_each_as_likely(
    profile, more, seed, plays
):
    """`solver:N`'s worlds: exactly those in which the heuristic bot plays every other
    player's cards as they were played, each about equally often."""
    assert_uniform(small(profile, **more), seed, plays, read=True)


def test_reading_the_others_as_the_heuristic_bot_rules_worlds_out():
    narrowed = 0
    for profile, more, seed, plays in READ_CASES:
        truth = played(small(profile, **more), seed, plays, bot=HeuristicBot())
        read = every_world(truth, truth.to_move, read=True)
        legal = every_world(truth, truth.to_move)
        assert read <= legal
        narrowed += len(read) < len(legal)
    assert narrowed >= len(READ_CASES) - 1


@pytest.mark.parametrize(
    "profile", ["equal-hands", "bicycle", "no-trumps", "profiles/house/must-overtrump.rules"]
)
def test_a_card_a_heuristic_play_reads_out_would_have_changed_that_play_in_any_hand(profile):
    """What makes `solver:N`'s worlds exact: each card `Seen.read` rules out of a play, held
    beside the played card in any hand of the player's size, would have had the heuristic
    bot play another card (drawn: hands of the cards not yet played), while the hand held
    then has it play that card."""
    rules = load(profile).rules
    rng = random.Random(profile)
    ruled_out = 0
    for seed in range(6):
        truth = played(rules, seed, 200, players=4, bot=HeuristicBot())
        position = Position(truth)
        g, p = position.g, position.p
        unplayed = {truth.codes.of[c] for c in rules.cards}
        for i in range(g.plays_len):
            seat, card = g.play_seat[i], g.play_card[i]
            probe = position.states[FIRST_PROBE + i]
            unplayed.discard(card)
            assert may_play(probe, p, seat, probe.hands[seat], card, True)
            size = bin(probe.hands[seat]).count("1")
            if size < 2:
                continue
            for x in set(_cards(g.read[i])) & unplayed:
                ruled_out += 1
                for _ in range(4):
                    rest = rng.sample(sorted(unplayed - {x}), min(size - 2, len(unplayed) - 1))
                    held = (1 << card) | (1 << x) | sum(1 << c for c in rest)
                    assert not may_play(probe, p, seat, held, card, True), (i, card, x)
    assert ruled_out > 100


def assert_uniform(rules: Rules, seed: int, plays: int, read: bool = False) -> None:
    """At the position `plays` cards into the hand dealt from `seed`, the kernel draws
    exactly the worlds the exhaustive replay finds, each about equally often; with `read`,
    in a hand the heuristic bot plays, the worlds in which it plays the others' cards."""
    truth = played(rules, seed, plays, bot=HeuristicBot() if read else None)
    seat = truth.to_move
    support = {_in_ints(truth, k) for k in every_world(truth, seat, read)}
    assert reference_key(truth, seat) in support
    rng = Stream(derive(1, "kernel worlds", seed, plays))
    draws = 100 * len(support)  # enough to see the bias of a proposal kept every time
    position = Position(truth)
    counts = Counter(key for key, _, _, _ in draws_from(position, seat, rng, draws, read))
    assert set(counts) == support
    chi, df = chi_square(counts, support)
    assert chi < generous(df), (chi, df)


def _in_ints(hand: Hand, key: tuple) -> tuple:
    """A key of test_search_sampler as `reference_key` gives it."""
    code = hand.codes.of
    dealt, draws, stock = key
    seat = hand.to_move
    ordered = iter(draws)
    times = [(t, s) for t, s, _ in drawn(hand, seat)]
    sets = [(t, s, frozenset(code[c] for c in next(ordered))) for t, s in times]
    return (
        tuple(frozenset(code[c] for c in h) for h in dealt),
        tuple(sorted(sets)),
        frozenset(code[c] for c in stock),
    )


def world_order(truth: Hand, seat: int, dealt: dict, taken: dict, stock: list[int]) -> list[Card]:
    """The deck order that deals the world: the others' dealt cards in their places, each
    draw's cards where it took them, the stock now under them (the deck order of
    docs/rules.md, "Reproducible deals")."""
    card = truth.codes.card
    info = observe(truth, seat)
    deal = next(e for e in truth.events if isinstance(e, Deal))
    n, size = truth.players, len(deal.hands[0])
    hands = {s: [card[c] for c in cards] for s, cards in dealt.items()}
    hands[seat] = list(deal.hands[seat])
    if info.place is Place.HAND:  # the card that named trump is the dealer's last
        last = hands[deal.dealer]
        last.append(last.pop(last.index(info.shown)))
    order = [hands[(deal.dealer + 1 + k) % n][k // n] for k in range(n * size)]
    bottom = []
    if info.place is Place.STOCK_BOTTOM:
        order.append(info.shown)
        bottom = [truth.codes.of[info.shown]]
    plays = 0
    for event in truth.events:
        if isinstance(event, Play):
            plays += 1
        elif isinstance(event, Draw):
            mine = event.seat == seat
            order += event.cards if mine else [card[c] for c in taken[(plays, event.seat)]]
    order += [card[c] for c in reversed(stock) if c not in bottom]
    return order


@pytest.mark.parametrize(
    ("profile", "more"),
    [
        ("equal-hands", {}),
        ("bicycle", {}),
        ("equal-hands", {"trump": "stock_bottom", "hand_size": "6"}),
        ("equal-hands", {"must_head": "yes", "when_void": "trump_if_able"}),
        ("two-of-clubs-leads", {}),
        ("lowest-follower-draws", {}),
        ("no-trick-no-stay", {"hand_size": "6"}),
    ],
)
def test_every_kernel_world_replays_legally_and_is_the_position_played_out(profile, more):
    assert_worlds_replay(load(profile).rules.with_options(more))


def test_the_worlds_of_rules_reading_the_hands_memory_replay_legally():
    assert_worlds_replay(remembering())


def assert_worlds_replay(rules: Rules) -> None:
    """Every world drawn at positions of a few hands replays legally on the reference
    engine, holds the position's hands and allowed cards, and plays out."""
    for seed in range(6):
        truth = played(rules, seed, 3 + 3 * seed, players=4)
        if truth.is_over:
            continue
        seat = truth.to_move
        position = Position(truth)
        s, p = position.s, position.p
        plays = [e.card for e in truth.events if isinstance(e, Play)]
        worlds = draws_from(position, seat, Stream(seed), 4)
        for n, (_, dealt, taken, stock) in enumerate(worlds):
            world = position.states[WORLD]
            hand = replay(rules, 4, world_order(truth, seat, dealt, taken, stock), plays)
            assert hand is not None  # every play legal on the reference engine
            assert hand.s.hands == [sorted(_cards(h)) for h in world.hands[:4]]
            assert allowed_now(world, p) == allowed_now(s, p)
            play_out(world, p, PLAYOUT, Stream(n))
            assert world.over
            bot = RandomBot(n)
            while not hand.is_over:
                hand.play(bot.choose(hand, hand.legal_moves()))


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba is not installed")
@pytest.mark.parametrize(
    ("profile", "bots"),
    [
        ("equal-hands", ("pimc:6", "pimc:3", "ismcts:20", "heuristic")),
        ("bicycle", ("ismcts:15", "random", "pimc:4", "playout")),
        ("denexa", ("pimc:3",) * 4),
        ("two-of-clubs-leads", ("pimc:4", "random", "ismcts:15", "pimc:3")),
        ("lowest-follower-draws", ("ismcts:15", "pimc:4", "random", "heuristic")),
        ("memory", ("pimc:4", "ismcts:15", "random", "heuristic")),
        ("equal-hands", ("solver:3", "sees-hands:2", "sees-all:2", "heuristic")),
        ("bicycle", ("sees-all:2", "solver:2", "heuristic", "sees-hands:2")),
    ],
)
def test_the_compiled_search_plays_every_hand_as_cpython_does(profile, bots):
    from rulesdsl.play.kernel.compiled import compiled_profile

    rules = remembering() if profile == "memory" else load(profile).rules
    compiled = compiled_profile(rules, 4, bots).play
    python = kernel_player(rules, 4, bots)
    for number in range(6):
        deck = list(int_deck(rules))
        shuffle(deck, Stream(number))
        on_numba, on_cpython = Stream(number + 1), Stream(number + 1)
        assert compiled(deck, number, on_numba, number % 4) == python(
            deck, number, on_cpython, number % 4
        )
        assert on_numba.drawn == on_cpython.drawn


def held_before_plays(position: Position, seat: int) -> dict[int, set[int]]:
    """The cards the world drawn gives `seat` before each of its plays, by play index."""
    g, w = position.g, position.w
    slots = sorted(
        (g.slot_time[k], w.fill[k]) for k in range(g.slots_len) if g.slot_seat[k] == seat
    )
    held, before, taken = set(), {}, 0
    for i in range(g.plays_len):
        if g.play_seat[i] == seat:
            while taken < len(slots) and slots[taken][0] <= i:
                held.add(slots[taken][1])
                taken += 1
            before[i] = set(held)
            held.discard(g.play_card[i])
    return before


def test_worlds_through_reshuffles_are_consistent_and_as_likely_as_the_python_samplers():
    for seed, truth in reshuffled():
        seat, card = truth.to_move, truth.codes.card
        others = [s for s in range(3) if s != seat]
        sampler = Sampler(observe(truth, seat))
        sampler.reveals()  # the reference engine's positions before each play
        position = Position(truth)
        assert position.g.epochs == len(sampler.info.pools)
        kernel, python = Counter(), Counter()
        for _ in draws_from(position, seat, Stream(seed), 300):
            for other in others:
                for i, held in held_before_plays(position, other).items():
                    played_card = card[position.g.play_card[i]]
                    assert sampler._may_play(i, [card[c] for c in held], played_card)
            world = position.states[WORLD]
            hands = tuple(frozenset(_cards(world.hands[s])) for s in others)
            kernel[hands, frozenset(world.stock[: world.stock_len])] += 1
        stream = Stream(seed + 100)
        for _ in range(300):
            s = sampler.state(sampler.sample(stream), 0)
            python[tuple(frozenset(s.hands[o]) for o in others), frozenset(s.stock)] += 1
        keys = set(kernel) | set(python)
        chi = sum((kernel[k] - python[k]) ** 2 / (kernel[k] + python[k]) for k in keys)
        assert chi < generous(len(keys) - 1), (chi, len(keys))
