"""Native speed: the native `simulate` against a hand-written numba player of the default rules.

    .venv/bin/python benchmarks/native_speed.py [--hands 200000] [--memory-hands 10000000]

In one run, on one core: the numba yardstick (benchmarks/yardstick_numba.py: the default
rules hard-coded over 64-bit card masks, random play, the project's stream), `simulate` on
the default profile with random bots and 4 players on the native path and on the
pure-Python path (`--no-skill`), card plays per second of every shipped profile on the
compiled kernel against the yardstick's, `pimc:50` at all four seats on the compiled kernel
against the hand-written numba pimc (`search_speed.py`), the compile time of the default
profile's kernel cold (an empty cache folder) and cached, and the peak memory of
`rulesdsl simulate --no-skill -j 1` native over many hands and a tenth of them (flat when
the two agree). Timings are the best of 3 rounds, each round timing every work of its
group once (the yardstick and both paths; every profile and the yardstick; the compiled
kernel and the hand-written pimc), so that the load of a shared machine falls on the works
it compares alike. Whole processes, start-up and compiling included, are timed by
`whole_process.py`.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import search_speed
from timing import best_of
from yardstick_numba import PLAYERS, yardstick

from rulesdsl.play.kernel.compiled import chunks, compiled_profile
from rulesdsl.play.kernel.deals import PLAYS
from rulesdsl.play.kernel.plan import NotNative
from rulesdsl.play.native import ENV
from rulesdsl.read.profile import load, shipped_names
from rulesdsl.reason.sim import Spec, run


def simulate(hands: int, native: bool) -> Callable[[], object]:
    """`simulate equal-hands --no-skill` on one core, its kernel compiled or loaded."""
    spec = Spec(profiles=(("equal-hands", load("equal-hands").rules),), units=hands, skill=False)

    def work() -> object:
        os.environ[ENV] = "1" if native else "0"
        return run(spec, 1)

    os.environ[ENV] = "1" if native else "0"
    run(Spec(spec.profiles, units=250, skill=False), 1)
    return work


STICK = "the numba yardstick"


def plays_per_second(names: list[str], hands: int) -> tuple[float, dict[str, float | str]]:
    """Card plays per second of the numba yardstick and of each profile on the compiled
    kernel (random bots, 4 players), timed in the same rounds; why not, for a profile the
    kernel does not play."""
    works: dict[str, Callable[[], object]] = {STICK: partial(yardstick, hands, 1)}
    plays, refused = {STICK: yardstick(hands, 1)}, {}
    played = chunks([1], [2], [0], [hands])
    for name in names:
        try:
            profile = compiled_profile(load(name).rules, PLAYERS, ("random",) * PLAYERS)
        except NotNative as error:
            refused[name] = str(error)
            continue
        plays[name] = int(profile.chunks(played)[:, PLAYS].sum())
        works[name] = partial(profile.chunks, played)
    seconds = best_of(works)
    rates = {name: plays[name] / seconds[name] for name in works}
    return rates.pop(STICK), {name: rates.get(name, refused.get(name, "")) for name in names}


def fresh_process(code: str, cache: str) -> float:
    env = {**os.environ, "RULESDSL_CACHE": cache, ENV: "1"}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    return time.perf_counter() - start


COMPILE = (
    "from rulesdsl.read.profile import load; from rulesdsl.reason.sim import Spec, run; "
    "run(Spec((('equal-hands', load('equal-hands').rules),), units=250, skill=False), 1)"
)
MEMORY = (
    "import resource, subprocess, sys; subprocess.run([sys.argv[2],"
    " 'simulate', 'equal-hands', '--no-skill', '-j', '1', '--json', '--hands', sys.argv[1]],"
    " capture_output=True, check=True);"
    " print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def peak_kb(hands: int) -> int:
    env = {**os.environ, ENV: "1"}
    done = subprocess.run(
        [sys.executable, "-c", MEMORY, str(hands), str(Path(sys.executable).parent / "rulesdsl")],
        env=env,
        capture_output=True,
        text=True,
    )
    return int(done.stdout.strip() or 0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--memory-hands", type=int, default=10_000_000)
    args = parser.parse_args()
    hands = args.hands

    yardstick(10, 1)
    ours_plays = yardstick(hands, 1)
    pure_hands = max(hands // 20, 1000)
    works = {
        "yardstick": partial(yardstick, hands, 1),
        "native": simulate(hands, native=True),
        "pure": simulate(pure_hands, native=False),
    }
    seconds = best_of(works)
    stick, native = hands / seconds["yardstick"], hands / seconds["native"]
    pure = pure_hands / seconds["pure"]
    print(f"numba yardstick           {stick:12,.0f} hands/s ({ours_plays / hands:.1f} plays/hand)")
    print(f"native simulate           {native:12,.0f} hands/s")
    print(f"pure-Python simulate      {pure:12,.0f} hands/s")
    print(f"native / numba yardstick  {native / stick:12.2f}   (target >= 0.5)")
    print(f"native / pure-Python      {native / pure:12.1f}x  (target >= 25)")

    print("\ncard plays per second on the compiled kernel, against the yardstick's (same rounds)")
    stick_plays, rates = plays_per_second(shipped_names(), hands)
    for name, rate in rates.items():
        if isinstance(rate, str):
            print(f"  {name:28} not on the compiled kernel: {rate}")
        else:
            print(f"  {name:28} {rate:14,.0f}  {rate / stick_plays:5.2f}  (target >= 0.5)")
    met = sum(not isinstance(rate, str) and rate >= 0.5 * stick_plays for rate in rates.values())
    print(f"  {met} of {len(rates)} profiles at 0.5x the yardstick's card plays or more")

    search_speed.report(search_speed.SEARCH_HANDS, search_speed.YARDSTICK_HANDS, 50)

    with tempfile.TemporaryDirectory() as cache:
        cold = fresh_process(COMPILE, cache)
        cached = fresh_process(COMPILE, cache)
    print(f"\ncompile the default profile: cold {cold:.1f} s, cached {cached:.1f} s")

    many = args.memory_hands
    small, large = peak_kb(max(many // 10, 250)), peak_kb(many)
    print(
        f"peak memory of simulate --no-skill -j 1: {small / 1024:.0f} MB for {many // 10:,}"
        f" hands, {large / 1024:.0f} MB for {many:,}"
    )


if __name__ == "__main__":
    main()
