"""What every test runs under: its tier, marked by its folder; the hypothesis profile; and the
pure-Python path.

The tiers (pyproject.toml registers their markers; `pytest -m unit` runs one):

- unit/: fast unit and position tests, in process;
- properties/: hypothesis property tests of the rules, the readers and the writers;
- agreement/: engines and oracles agreeing (the reference engine, the fast path and the
  native path; tests/oracle.py; replays; simulations for any number of workers);
- surfaces/ and e2e/: the command line, the language server, the web page, the editors and
  the wheel, end to end (subprocesses, servers, a browser).

HYPOTHESIS_PROFILE=thorough runs the long versions: ten times the examples, or the count a
test names for it (tests/sizing.py), drawn afresh each run. The quick profile, the default,
draws the same examples every run (derandomized), so that `make test` is deterministic.

The tests play on the pure-Python path unless they turn the native one on (the native
tests of agreement/): compiling every profile the suite simulates would take minutes.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings
from sizing import THOROUGH

from rulesdsl.play.native import ENV

os.environ[ENV] = "0"

TESTS = Path(__file__).parent
TIERS = {
    "unit": "unit",
    "properties": "properties",
    "agreement": "agreement",
    "surfaces": "surfaces",
    "e2e": "surfaces",
}
"""Each folder of tests and the tier its tests are marked with."""

settings.register_profile("quick", derandomize=True, deadline=None)
settings.register_profile("thorough", deadline=None)
settings.load_profile("thorough" if THOROUGH else "quick")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        folder = item.path.relative_to(TESTS).parts[0]
        if folder not in TIERS:
            raise pytest.UsageError(f"{item.path}: a test lies in a folder of its tier ({TIERS})")
        item.add_marker(TIERS[folder])
