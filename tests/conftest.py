"""Helpers shared by the tests: card lists and deck orders built from the hands wanted, and
a YAML loader that reads as YAML 1.2 does (as editors and schema checkers do).

The tests play on the pure-Python path unless they turn the native one on (test_native):
compiling every profile the suite simulates would take minutes."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Sequence
from typing import ClassVar

import yaml

from rulesdsl.model.cards import FULL_DECK, Card, parse_cards
from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import Rules
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.fast import compile_hand, int_deck, play_plain
from rulesdsl.play.native import ENV

os.environ[ENV] = "0"


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
