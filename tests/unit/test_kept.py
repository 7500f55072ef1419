"""What a process keeps for a profile's rules stays bounded: a server or an editor meets new
rules at every edit, and each function that keeps what it made of them (a plan, the rule
model, a compiled hand) keeps at most `PROFILES_KEPT` of them."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path

import rulesdsl
from rulesdsl.model.rules import PROFILES_KEPT, Rules
from rulesdsl.play.kernel.plan import kernel_plan

LEFT_OUT = ("rulesdsl.surfaces", "rulesdsl.play.native")
"""Packages that keep nothing of their own for a profile, and import what a surface (a web
server, an editor's protocol) or the native build (numba) needs, which a machine may lack."""


def kept_for_rules() -> Iterator[tuple[str, object]]:
    """Every function of the package whose results are kept (`functools.cache` and the
    like) and whose first parameter is a profile's rules."""
    root = Path(rulesdsl.__file__).parent
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        dotted = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if dotted.startswith(LEFT_OUT) or parts[-1] == "__main__":
            continue
        module = importlib.import_module(dotted)
        for name, value in vars(module).items():
            if not hasattr(value, "cache_info") or getattr(value, "__module__", "") != dotted:
                continue
            first = next(iter(inspect.signature(value.__wrapped__).parameters.values()), None)
            if first is not None and first.annotation in ("Rules", Rules):
                yield f"{dotted}.{name}", value


def test_every_function_keeping_results_for_rules_keeps_a_bounded_number():
    found = dict(kept_for_rules())
    assert {"rulesdsl.play.kernel.plan.kernel_plan", "rulesdsl.play.engine.plan.plan_for"} <= set(
        found
    )
    unbounded = [name for name, kept in found.items() if kept.cache_info().maxsize is None]
    assert not unbounded, f"keeps results for every profile it meets: {unbounded}"


def test_the_kernel_plans_of_many_profiles_are_not_all_kept():
    """A kernel plan holds the programs of the rules' stated rules, about half a megabyte."""
    for target in range(PROFILES_KEPT + 8):
        kernel_plan(Rules().with_options({"match": f"target {target + 2}"}))
    assert kernel_plan.cache_info().currsize <= PROFILES_KEPT
