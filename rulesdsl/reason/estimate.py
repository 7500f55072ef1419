"""A mean with its 95% interval."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959964


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% interval (normal approximation)."""

    mean: float
    low: float
    high: float
    n: int

    @classmethod
    def of(cls, n: int, total: float, squares: float, share: bool = False) -> Estimate:
        """From the sum of `n` values and of their squares (exact, as a tally's ints); a
        `share` (every value 0 or 1) gets Wilson's interval."""
        if n == 0:
            return cls(math.nan, math.nan, math.nan, 0)
        if share:
            return cls.share(total, n)
        mean = total / n
        variance = (squares - total * total / n) / (n - 1) if n > 1 else 0.0
        half = Z95 * math.sqrt(max(variance, 0.0) / n)
        return cls(mean, mean - half, mean + half, n)

    @classmethod
    def share(cls, hits: float, n: float) -> Estimate:
        p = hits / n
        centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
        return cls(p, max(0.0, centre - half), min(1.0, centre + half), n)

    @property
    def clear_of_zero(self) -> bool:
        return self.low > 0 or self.high < 0
