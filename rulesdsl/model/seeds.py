"""Seeds derived from one master seed, so every hand, bot and worker draws the same numbers."""

from __future__ import annotations

import hashlib

from rulesdsl.model.stream import Stream


def shuffle(cards: list, stream: Stream) -> None:
    """Shuffle in place: Fisher-Yates, from the last place down, place i swapped with
    int(u * (i + 1)) for the stream's next uniform u."""
    uniforms = stream.take(len(cards) - 1) if cards else []
    for i, u in zip(range(len(cards) - 1, 0, -1), uniforms, strict=True):
        j = int(u * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def derive(seed: int, *labels: object) -> int:
    """A 64-bit seed for the stream named by `labels` under `seed`; stable across machines."""
    text = ":".join(str(part) for part in (seed, *labels))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
