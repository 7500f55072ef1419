"""Hands with bots that search, for simulation: played on the kernel (compiled where the
native path runs, else in CPython), with the fast path's call (`fast.HandPlayer`), so
`simulate` and `compare` take any bot and give the same figures for any number of workers.
A search seat draws from a stream seeded from the hand's seed and its seat."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import PROFILES_KEPT, Rules
from rulesdsl.model.stream import Stream
from rulesdsl.play import native
from rulesdsl.play.engine import fast
from rulesdsl.play.kernel.plan import NotNative
from rulesdsl.play.kernel.rows import not_searchable
from rulesdsl.play.players.registry import is_search_bot


def searches(bots: tuple[str, ...]) -> bool:
    """Whether a seat's bot searches (the fast path plays none of those)."""
    return any(is_search_bot(name) for name in bots)


KernelHand = Callable[[list[int], int, Stream, int], tuple[HandResult, int]]
"""A hand on the kernel: (deck, hand seed, the random bots' stream, dealer) to its result
and whether its winner came back (held strictly the fewest cards of the players in at the
start of some trick after the first)."""


@lru_cache(maxsize=PROFILES_KEPT)
def kernel_hand(rules: Rules, players: int, bots: tuple[str, ...]) -> KernelHand:
    """Hands of `rules` with `bots` on the kernel, compiled where the native path runs;
    SearchError where the kernel cannot play them."""
    try:
        if native.available():
            from rulesdsl.play.kernel.compiled import compiled_profile

            return compiled_profile(rules, players, bots).play
        from rulesdsl.play.kernel.hands import kernel_player

        return kernel_player(rules, players, bots)
    except NotNative as refused:
        raise not_searchable(refused) from None


def search_hand(rules: Rules, players: int, bots: tuple[str, ...]) -> fast.HandPlayer:
    """A function playing one hand as `fast.compile_hand`'s does, on the kernel: the random
    bots draw from the generator passed in, in the order they play (as in the fast path)."""
    kernel = kernel_hand(rules, players, bots)
    return lambda deck, hand_seed, rng, dealer: kernel(deck, hand_seed, rng, dealer)[0]


class _NoRandom:
    """The generator handed to hands without random bots: drawing from it is a mistake."""

    def random(self) -> float:
        raise AssertionError("no random bot plays in this hand")


NO_RANDOM: Stream = _NoRandom()  # type: ignore[assignment]


def good_hand(
    rules: Rules, players: int, bot: str, deck: list[int], hand_seed: int, dealer: int
) -> tuple[HandResult, int]:
    """A hand with `bot` at every seat, and whether its winner came back (1 or 0)."""
    return kernel_hand(rules, players, (bot,) * players)(deck, hand_seed, NO_RANDOM, dealer)
