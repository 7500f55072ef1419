"""The native path: simulate plays on the one compiled kernel (`rulesdsl.play.kernel`) the
figures the pure-Python path gives, for any number of workers; chunks played together are
the chunks played one by one; a run too small to gain from loading the kernel, or a profile
the kernel does not play (said once), plays on the pure-Python path. That the kernel plays
the hands of the other engines is `test_kernel.py`'s."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from sizing import sized

pytest.importorskip("numba", reason="numba is not installed: pip install 'rulesdsl[fast]'")

from rulesdsl.play.kernel.compiled import chunks, compiled_profile
from rulesdsl.play.native import ENV
from rulesdsl.read.profile import load
from rulesdsl.reason import sim
from rulesdsl.reason.solver import solve_deal
from rulesdsl.surfaces.main import main

MIXED = ("random", "heuristic", "lowest", "highest")


@pytest.fixture(autouse=True)
def native_on(monkeypatch):
    monkeypatch.setenv(ENV, "1")


def test_chunks_played_in_one_call_are_the_chunks_played_one_by_one():
    profile = compiled_profile(load("denexa").rules, 4, MIXED)
    played = profile.chunks(chunks([5, 6, 7], [8, 9, 10], [0, 40, 80], [40, 40, 3]))
    alone = [profile.chunks(chunks([5 + k], [8 + k], [40 * k], [(40, 40, 3)[k]])) for k in range(3)]
    assert np.array_equal(played, np.concatenate(alone))


def simulate_json(capsys, *args: str) -> str:
    code = main(["simulate", "equal-hands", "--hands", "600", "--json", *args])
    out, _ = capsys.readouterr()
    assert code == 0
    return out


def test_simulate_json_is_byte_identical_native_and_pure_and_for_any_workers(capsys, monkeypatch):
    native = simulate_json(capsys, "--workers", "1")
    assert simulate_json(capsys, "--workers", "2") == native
    monkeypatch.setenv(ENV, "0")
    assert simulate_json(capsys, "--workers", "1") == native
    assert json.loads(native)["units"] == 600


def test_compare_against_a_later_baseline_is_byte_identical_native_and_pure(capsys, monkeypatch):
    three = ["equal-hands", "seven-card-hands", "instant-elimination"]
    args = ["compare", *three, "--hands", "300", "-j", "1", "--baseline", "seven-card-hands"]
    assert main([*args, "--json"]) == 0
    native = capsys.readouterr().out
    monkeypatch.setenv(ENV, "0")
    assert main([*args, "--json"]) == 0
    assert capsys.readouterr().out == native
    assert json.loads(native)["pairs"][0]["a"] == "seven-card-hands"


def test_the_native_path_is_taken_unless_turned_off(monkeypatch):
    spec = sim.Spec(profiles=(("equal-hands", load("equal-hands").rules),), units=10)
    assert sim.native_kernels(spec) is not None
    monkeypatch.setenv(ENV, "0")
    assert sim.native_kernels(spec) is None


def test_unless_forced_a_run_too_small_to_pay_for_the_kernel_plays_on_the_pure_path(monkeypatch):
    monkeypatch.delenv(ENV)
    rules = load("equal-hands").rules
    profiles = (("a", rules), ("b", rules))
    fewest = sim.NATIVE_FROM // len(profiles)
    assert sim.native_kernels(sim.Spec(profiles=profiles, units=fewest - 1)) is None
    assert sim.native_kernels(sim.Spec(profiles=profiles, units=fewest)) is not None
    planned = sim.Spec(profiles=profiles, units=fewest - 1, planned=fewest)  # a round of more
    assert sim.native_kernels(planned) is not None
    monkeypatch.setenv(ENV, "1")
    assert sim.native_kernels(sim.Spec(profiles=profiles, units=1)) is not None


def test_a_profile_the_kernel_does_not_play_is_said_once_and_played_on_the_pure_path(
    monkeypatch, capsys
):
    from rulesdsl.play.kernel import compiled
    from rulesdsl.play.kernel.plan import NotNative

    def not_the_kernels(*args):
        raise NotNative("not the kernel's")

    native = simulate_json(capsys, "--workers", "1")
    monkeypatch.setattr(compiled, "compiled_profile", not_the_kernels)
    spec = sim.Spec(profiles=(("equal-hands", load("equal-hands").rules),), units=10)
    assert sim.native_kernels(spec) is None
    code = main(["simulate", "equal-hands", "--hands", "600", "--json", "--workers", "1"])
    out, err = capsys.readouterr()
    assert code == 0 and out == native
    assert err.count("not the kernel's") == 1


@pytest.mark.parametrize(
    ("name", "deals"),
    [("equal-hands", 6), ("bicycle", 6), ("lowest-follower-draws", sized(1, 6))],
)
def test_the_compiled_solver_answers_as_cpython_does(name, deals, monkeypatch):
    """Six deals (their hand seeds above and below 2**63); in `make test`, one of the profile
    stating a rule, whose deals CPython solves some ten times slower than the others'."""
    rules = load(name).rules
    rng = random.Random(name)
    for seed in range(deals):
        order = list(rules.cards)
        rng.shuffle(order)
        native = solve_deal(rules, 4, order, 1, seed, budget=200_000)
        monkeypatch.setenv(ENV, "0")
        assert solve_deal(rules, 4, order, 1, seed, budget=200_000) == native
        monkeypatch.setenv(ENV, "1")
