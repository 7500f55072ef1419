"""How much one request may ask of the server: bodies, profiles, simulations, tables."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Limits:
    """The bounds the server holds every request to (`GET /api/meta` lists them)."""

    body_bytes: int = 256 * 1024
    profile_bytes: int = 64 * 1024
    hands: int = 20_000
    players_max: int = 10
    search_n: int = 200
    search_hands: int = 200
    jobs: int = 2
    tables: int = 32
    compare_profiles: int = 6

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
