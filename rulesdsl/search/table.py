"""Hands for simulation with bots the fast path does not know: played by the reference
engine, with the fast path's call (`fast.HandPlayer`), so `simulate` and `compare` take any
bot and give the same figures for any number of workers."""

from __future__ import annotations

import random
from functools import cache

from rulesdsl.bots import RandomBot, is_search_bot, make_bot
from rulesdsl.engine import fast
from rulesdsl.engine.driver import Player, play_hand
from rulesdsl.engine.hand import Hand
from rulesdsl.engine.result import HandResult
from rulesdsl.rules import Rules
from rulesdsl.seeds import derive


def needs_reference(bots: tuple[str, ...]) -> bool:
    """Whether a seat's bot is one the fast path cannot play (a search bot)."""
    return any(is_search_bot(name) for name in bots)


@cache
def reference_hand(rules: Rules, players: int, bots: tuple[str, ...]) -> fast.HandPlayer:
    """A function playing one hand as `fast.compile_hand`'s does, in the reference engine:
    the random bots draw from the generator passed in, in the order they play (as in the
    fast path); every other bot is made for the hand, a search bot seeded from the hand's
    seed and its seat."""
    cards = {fast.to_int(c): c for c in rules.cards}

    def play(deck: list[int], hand_seed: int, rng: random.Random, dealer: int) -> HandResult:
        order = [cards[c] for c in deck]
        hand = Hand.deal(rules, players, dealer, order=order, seed=hand_seed)
        seats: list[Player] = [
            RandomBot(rng) if name == "random" else make_bot(name, derive(hand_seed, name, seat))
            for seat, name in enumerate(bots)
        ]
        return play_hand(hand, seats)

    return play


def hand_player(rules: Rules, players: int, bots: tuple[str, ...]) -> fast.HandPlayer:
    """The fastest way to play hands of `rules` with `bots`, one name per seat."""
    if needs_reference(bots):
        return reference_hand(rules, players, bots)
    return fast.compile_hand(rules, players, bots)
