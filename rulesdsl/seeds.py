"""Seeds derived from one master seed, so every hand, bot and worker draws the same numbers."""

from __future__ import annotations

import hashlib


def derive(seed: int, *labels: object) -> int:
    """A 64-bit seed for the stream named by `labels` under `seed`; stable across machines."""
    text = ":".join(str(part) for part in (seed, *labels))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
