"""The native path: hands played in code compiled with numba (`rulesdsl[fast]`).

`available()` says whether it runs here: numba imports, and RULESDSL_NATIVE is not `0`
(which forces the pure-Python fast path, for tests and benchmarks). `forced()` says
whether RULESDSL_NATIVE is `1`, which plays on the native path even where the pure-Python
path would be quicker (a run too small to pay for loading the compiled kernel).
"""

from __future__ import annotations

import importlib.util
import os

ENV = "RULESDSL_NATIVE"


def available() -> bool:
    """Whether simulations may play on the native path."""
    return os.environ.get(ENV) != "0" and importlib.util.find_spec("numba") is not None


def forced() -> bool:
    """Whether simulations play on the native path whatever their size."""
    return os.environ.get(ENV) == "1" and available()
