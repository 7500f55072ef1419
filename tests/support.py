"""Helpers shared by the tests of every tier: card lists and deck orders built from the hands
wanted, a YAML loader that reads as YAML 1.2 does (as editors and schema checkers do), hands
played by the fast path and by its driver as written, the same game on every Python engine,
and option combinations to draw."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import ClassVar

import yaml
from hypothesis import strategies as st

from rulesdsl.model.cards import FULL_DECK, Card, parse_cards
from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import OPTIONS, Rules
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.events import Play
from rulesdsl.play.engine.fast import compile_hand, int_deck, play_plain, to_int
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.players.bots import RandomBot
from rulesdsl.play.players.registry import make_bot


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def deck_order(hands: Sequence[str], stock: str = "", dealer: int = 0) -> list[Card]:
    """The deck order that deals `hands` (one string per seat, in the order each seat
    receives its cards) with `dealer` dealing, followed by `stock` and then every other card."""
    players = len(hands)
    wanted = [cards(h) for h in hands]
    size = len(wanted[0])
    order = [wanted[(dealer + 1 + k) % players][k // players] for k in range(players * size)]
    order += cards(stock)
    return order + [c for c in FULL_DECK if c not in order]


def deck_text(order: Sequence[Card]) -> str:
    return " ".join(str(c) for c in order)


class Yaml12Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """The YAML 1.2 core schema (spec 1.2.2, section 10.3.2) for plain scalars."""

    yaml_implicit_resolvers: ClassVar[dict] = {}


for tag, pattern, first in [
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    (
        "float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        list("-+0123456789."),
    ),
]:
    Yaml12Loader.add_implicit_resolver(f"tag:yaml.org,2002:{tag}", re.compile(pattern), first)


def fast_and_plain(rules: Rules, hands: int, seed: int) -> list[tuple[HandResult, HandResult]]:
    """`hands` shuffled deals of four random bots, each played by the specialised fast path
    and by its driver as written."""
    bots = ("random",) * 4
    fast, plain = compile_hand(rules, 4, bots), play_plain(rules, 4, bots)
    deck = list(int_deck(rules))
    rng = random.Random(seed)
    played = []
    for number in range(hands):
        rng.shuffle(deck)
        a = fast(list(deck), number, Stream(number), number % 4)
        b = plain(list(deck), number, Stream(number), number % 4)
        played.append((a, b))
    return played


BOT_NAMES = ("random", "lowest", "highest", "heuristic")


def same_game(rules: Rules, players: int, dealer: int, seed: int, bots: tuple[str, ...]):
    """Deal the same deck order to both engines; random bots share one generator."""
    order = list(rules.cards)
    random.Random(seed).shuffle(order)
    hand = Hand.deal(rules, players, dealer, order=order, seed=seed + 1)
    shared = Stream(seed + 2)
    play_hand(hand, [RandomBot(shared) if name == "random" else make_bot(name) for name in bots])
    deck = [to_int(c) for c in order]
    fast = compile_hand(rules, players, bots)(deck, seed + 1, Stream(seed + 2), dealer)
    plain = play_plain(rules, players, bots)(deck, seed + 1, Stream(seed + 2), dealer)
    assert fast == hand.outcome
    assert plain == fast
    assert fast.plays == sum(1 for e in hand.events if isinstance(e, Play))


def option_values(name: str) -> list[str]:
    extra = {
        "draw": ["0", "2", "3"],
        "hand_size": ["players", "players + 1", "3", "7", "min(players, 5)", "1"],
        "deck": [
            "standard",
            "A K Q J 10 9 8 7",
            "A K Q J 10",
            "K Q J 10 9 8 7 6 5 4 3 2 A",
            "A 10 K Q J 9 8 7",
            "7 8 9 10 J Q K A",
        ],
        "match": ["target 3"],
        "players": ["2..6"],
    }
    return [*OPTIONS[name].kind.words(), *extra.get(name, [])]


settings_strategy = st.fixed_dictionaries(
    {
        name: st.sampled_from([v for v in option_values(name) if v != "target" and v != "hands"])
        for name in OPTIONS
        if name not in ("players", "match")
    }
)


def run_cli(capsys, *args: object) -> tuple[int, str, str]:
    """`rulesdsl ARGS` as a user runs it: its exit status, stdout and stderr."""
    from rulesdsl.surfaces.main import main

    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err
