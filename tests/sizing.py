"""How many examples the property tests draw.

`make test` runs the quick sizes: enough to find what the properties are about in a few
seconds each, and hypothesis keeps every failing example it finds for the next run. Set
HYPOTHESIS_PROFILE=thorough for a long run: ten times as many examples, or the count a
test names for it.
"""

from __future__ import annotations

import os

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE", "quick") == "thorough"


def examples(quick: int, thorough: int | None = None) -> int:
    """The number of examples to draw: `quick`, or the thorough count in a long run."""
    if not THOROUGH:
        return quick
    return thorough if thorough is not None else 10 * quick
