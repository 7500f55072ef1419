"""Seeds derived from one master seed, so every hand, bot and worker draws the same numbers."""

from __future__ import annotations

import hashlib
import random


def shuffle(cards: list, rng: random.Random) -> None:
    """Shuffle in place (Fisher-Yates on `rng.random()`: faster than random.shuffle)."""
    uniform = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(uniform() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def derive(seed: int, *labels: object) -> int:
    """A 64-bit seed for the stream named by `labels` under `seed`; stable across machines."""
    text = ":".join(str(part) for part in (seed, *labels))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
