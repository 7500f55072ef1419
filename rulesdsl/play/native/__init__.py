"""The native path: each profile's specialised hand compiled with numba (`rulesdsl[fast]`).

`available()` says whether it runs here: numba imports, and RULESDSL_NATIVE is not `0`
(which forces the pure-Python fast path, for tests and benchmarks).
"""

from __future__ import annotations

import importlib.util
import os

ENV = "RULESDSL_NATIVE"


def available() -> bool:
    """Whether simulations play on the native path."""
    if os.environ.get(ENV, "1") == "0":
        return False
    return importlib.util.find_spec("numba") is not None
