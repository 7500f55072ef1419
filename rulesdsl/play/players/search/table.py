"""Hands for simulation with bots the fast path does not know: played by the reference
engine, with the fast path's call (`fast.HandPlayer`), so `simulate` and `compare` take any
bot and give the same figures for any number of workers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import Rules
from rulesdsl.model.seeds import derive
from rulesdsl.model.stream import Stream
from rulesdsl.play import native
from rulesdsl.play.engine import fast
from rulesdsl.play.engine.driver import Player, play_hand
from rulesdsl.play.engine.events import Deal, Draw, Event, Out, Play
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.native.trust import say
from rulesdsl.play.players.bots import RandomBot
from rulesdsl.play.players.registry import is_search_bot, make_bot


def needs_reference(bots: tuple[str, ...]) -> bool:
    """Whether a seat's bot is one the fast path cannot play (a search bot)."""
    return any(is_search_bot(name) for name in bots)


@cache
def reference_hand(rules: Rules, players: int, bots: tuple[str, ...]) -> fast.HandPlayer:
    """A function playing one hand as `fast.compile_hand`'s does: the random bots draw from
    the generator passed in, in the order they play (as in the fast path); a search bot
    draws from a stream seeded from the hand's seed and its seat. On the kernel (compiled
    where the native path runs, `kernel_hand`); where the kernel cannot play the profile,
    said once, on the reference engine."""
    kernel = kernel_hand(rules, players, bots)
    if kernel is not None:
        return lambda deck, hand_seed, rng, dealer: kernel(deck, hand_seed, rng, dealer)[0]
    cards = {fast.to_int(c): c for c in rules.cards}

    def play(deck: list[int], hand_seed: int, rng: Stream, dealer: int) -> HandResult:
        order = [cards[c] for c in deck]
        hand = Hand.deal(rules, players, dealer, order=order, seed=hand_seed)
        seats: list[Player] = [
            RandomBot(rng) if name == "random" else make_bot(name, derive(hand_seed, name, seat))
            for seat, name in enumerate(bots)
        ]
        return play_hand(hand, seats)

    return play


KernelHand = Callable[[list[int], int, Stream, int], tuple[HandResult, int]]
"""A hand on the kernel: (deck, hand seed, the random bots' stream, dealer) to its result
and whether its winner came back (`came_back`)."""


@cache
def kernel_hand(rules: Rules, players: int, bots: tuple[str, ...]) -> KernelHand | None:
    """Hands of `rules` with `bots` on the kernel, compiled where the native path runs;
    None, said once on stderr, where the kernel cannot play them."""
    from rulesdsl.play.kernel.plan import NotNative

    try:
        if native.available():
            from rulesdsl.play.kernel.compiled import compiled_profile

            return compiled_profile(rules, players, bots).play
        from rulesdsl.play.kernel.hands import kernel_player

        return kernel_player(rules, players, bots)
    except NotNative as refused:
        say(f"search bots play this profile on the reference engine: {refused}")
        return None


class _NoRandom:
    """The generator handed to hands without random bots: drawing from it is a mistake."""

    def random(self) -> float:
        raise AssertionError("no random bot plays in this hand")


NO_RANDOM: Stream = _NoRandom()  # type: ignore[assignment]


def good_hand(
    rules: Rules, players: int, bot: str, deck: list[int], hand_seed: int, dealer: int
) -> tuple[HandResult, int]:
    """A hand with `bot` at every seat, and whether its winner came back: held, after some
    trick the hand went on past, fewer cards than every other player still in (1 or 0).
    On the kernel where it plays the profile."""
    bots = (bot,) * players
    kernel = kernel_hand(rules, players, bots)
    if kernel is not None:
        return kernel(deck, hand_seed, NO_RANDOM, dealer)
    cards = {fast.to_int(c): c for c in rules.cards}
    hand = Hand.deal(rules, players, dealer, order=[cards[c] for c in deck], seed=hand_seed)
    seats = [make_bot(bot, derive(hand_seed, bot, seat)) for seat in range(players)]
    result = play_hand(hand, seats)
    return result, int(result.winner is not None and came_back(hand.events, result.winner))


def came_back(events: Sequence[Event], winner: int) -> bool:
    """Whether `winner` held strictly the fewest cards of the players in, at the start of
    some trick after the first."""
    counts: list[int] = []
    active: list[bool] = []
    trick = 1
    for event in events:
        if isinstance(event, Deal):
            counts = [len(h) for h in event.hands]
            active = [True] * len(counts)
        elif isinstance(event, Play):
            if event.trick != trick:
                trick = event.trick
                others = [counts[s] for s in range(len(counts)) if active[s] and s != winner]
                if active[winner] and others and counts[winner] < min(others):
                    return True
            counts[event.seat] -= 1
        elif isinstance(event, Draw):
            counts[event.seat] += len(event.cards)
        elif isinstance(event, Out):
            active[event.seat] = False
    return False
