"""Simulation speed: rulesdsl's `simulate` against a hand-written yardstick and OpenSpiel.

    .venv/bin/python benchmarks/sim_speed.py [--hands 20000] [--memory-hands 1000000]
        [--speed-only | --stated-only]

In one run, on one core: the yardstick (benchmarks/yardstick.py, the default rules hard-coded
with ints and random play), `simulate` on the default profile with random bots and 4
players, every shipped profile, each profile stating a rule of section 5 of docs/rules.md
against its parent without it, and, when open-spiel is installed, random oh_hell(players=4)
games through its Python API. Then the peak memory of `rulesdsl simulate` over many hands,
and start-up and profile-loading times. Timings are the best of 3 repeats.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import yardstick

from rulesdsl.read.profile import clear_cache, load, shipped_names
from rulesdsl.reason.sim import Spec, run

REPEATS = 3
BIN = Path(sys.executable).parent


def best_of(work: Callable[[], int]) -> tuple[float, int]:
    """The shortest time of REPEATS runs, and what the work counted."""
    times, count = [], 0
    for _ in range(REPEATS):
        start = time.perf_counter()
        count = work()
        times.append(time.perf_counter() - start)
    return min(times), count


ACES_LOW = {"deck": "K Q J 10 9 8 7 6 5 4 3 2 A"}

# Card plays per second against the yardstick's, per shipped profile, as measured before the
# rules became units (6,000 hands): each run prints its own figure as a ratio to these.
BEFORE_UNITS = {
    "bicycle": 0.72,
    "catsatcards": 0.82,
    "denexa": 0.81,
    "dominorules": 0.85,
    "equal-hands": 0.85,
    "gamerules-lift-smoke": 0.86,
    "hoyle-lift-smoke": 0.83,
    "instant-elimination": 0.82,
    "kids-games": 0.85,
    "no-trumps": 0.84,
    "opening-trumps": 0.84,
    "parlett-sift-smoke": 0.80,
    "seven-card-hands": 1.00,
    "equal-hands, aces low": 0.80,
}


def against_before(label: str, per_play: float) -> str:
    before = BEFORE_UNITS.get(label)
    return f"{per_play / before:5.2f}x of before" if before else ""


def ours(profile: str, hands: int, options: dict[str, str] | None = None) -> tuple[float, int]:
    """`simulate` in-process on one worker, with `options` set; counts the cards played."""
    rules = load(profile).rules.with_options(options or {})
    spec = Spec(profiles=((profile, rules),), units=hands, skill=False)
    seconds, plays = best_of(lambda: run(spec, workers=1).profiles[0].total("plays"))
    return seconds, plays


def openspiel_plays(seconds: float = 3.0) -> tuple[float, int] | None:
    """Random oh_hell(players=4) games through OpenSpiel's Python API: (time, card plays)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell(players=4)")
    rng = random.Random(0)

    def work() -> int:
        plays = 0
        stop = time.perf_counter() + seconds
        while time.perf_counter() < stop:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    action = outcomes[int(rng.random() * len(outcomes))][0]
                else:
                    legal = state.legal_actions()
                    action = legal[int(rng.random() * len(legal))]
                    plays += action < 52
                state.apply_action(action)
        return plays

    return best_of(work)


def line(label: str, seconds: float, hands: int | None, plays: int) -> None:
    per_hand = f"{hands / seconds:>10,.0f}" if hands else f"{'-':>10}"
    print(f"  {label:<34} {per_hand} hands/s {plays / seconds:>11,.0f} card plays/s")


def speed(hands: int) -> None:
    print(f"speed, one core, best of {REPEATS} ({hands:,} hands each)")
    stick_s, stick_plays = best_of(lambda: yardstick.play(hands))
    ours_s, ours_plays = ours("equal-hands", hands)
    line("yardstick (hand-written)", stick_s, hands, stick_plays)
    line("rulesdsl simulate equal-hands", ours_s, hands, ours_plays)
    print(f"  ratio simulate/yardstick: {stick_s / ours_s:.2f}x hands per second (target 0.8x)")
    peer = openspiel_plays()
    if peer is None:
        print("  OpenSpiel: not installed (pip install open-spiel)")
    else:
        line("OpenSpiel oh_hell(players=4)", peer[0], None, peer[1])
        ratio = (ours_plays / ours_s) / (peer[1] / peer[0])
        print(f"  ratio simulate/OpenSpiel: {ratio:.2f}x card plays per second (target 2x)")
    print("\nevery shipped profile against the yardstick (per card play; per hand; and the")
    print("card plays against the yardstick as a ratio to the figures before rule units)")
    for name in shipped_names():
        low, high = load(name).rules.players
        if not low <= 4 <= high:
            print(f"  {name:<24} does not seat 4 players")
            continue
        seconds, plays = ours(name, hands // 2)
        per_play = (plays / seconds) / (stick_plays / stick_s)
        per_hand = (hands // 2 / seconds) / (hands / stick_s)
        print(
            f"  {name:<24} {per_play:5.2f}x per card play {per_hand:5.2f}x per hand "
            + against_before(name, per_play)
        )
    seconds, plays = ours("equal-hands", hands // 2, ACES_LOW)
    per_play = (plays / seconds) / (stick_plays / stick_s)
    label = "equal-hands, aces low"
    print(f"  {label:<24} {per_play:5.2f}x per card play {against_before(label, per_play)}")


def stated_rules(hands: int) -> None:
    """Each profile that states a rule of section 5 of docs/rules.md against its parent without it:
    time per card play and per hand, as a ratio (target: 2x at most)."""
    print(f"\nrules a profile states, against the parent profile ({hands:,} hands each)")
    for name in shipped_names():
        profile = load(name)
        if not profile.house or len(profile.chain) < 2:
            continue
        parent = profile.chain[-2]
        rule_s, rule_plays = ours(name, hands)
        base_s, base_plays = ours(parent, hands)
        per_play = (rule_s / rule_plays) / (base_s / base_plays)
        print(
            f"  {name:<22} vs {parent:<12} {per_play:5.2f}x time per card play "
            f"{rule_s / base_s:5.2f}x time per hand"
        )


PEAK = (
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True,"
    " capture_output=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def peak_memory(hands: int) -> None:
    print("\npeak memory of `rulesdsl simulate equal-hands --no-skill` (2 workers)")
    for count in (hands // 100, hands // 10, hands):
        command = [
            str(BIN / "rulesdsl"),
            "simulate",
            "equal-hands",
            "--no-skill",
            "--hands",
            str(count),
            "--workers",
            "2",
            "--json",
        ]
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", PEAK, *command], check=True, capture_output=True, text=True
        )
        seconds = time.perf_counter() - start
        peak = int(done.stdout.strip()) / 1024
        print(f"  {count:>9,} hands: {seconds:6.1f} s, largest process peak {peak:5.1f} MB")


def startup() -> None:
    print("\nstart-up")
    for label, command in (
        ("rulesdsl --version", [str(BIN / "rulesdsl"), "--version"]),
        (
            "rulesdsl validate equal-hands file",
            [str(BIN / "rulesdsl"), "validate", str(Path(__file__).parent.parent / "profiles")],
        ),
    ):
        seconds, _ = best_of(lambda c=command: subprocess.run(c, capture_output=True).returncode)
        print(f"  {label:<36} {seconds * 1000:6.0f} ms")
    for name in ("equal-hands", "bicycle"):
        load(name)

        def fresh(profile: str = name) -> int:
            clear_cache()
            return len(load(profile).diagnostics)

        seconds, _ = best_of(fresh)
        print(f"  load and validate {name:<18} {seconds * 1000:6.1f} ms (after start-up)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--memory-hands", type=int, default=1_000_000)
    parser.add_argument("--speed-only", action="store_true", help="Only the speed figures.")
    parser.add_argument(
        "--stated-only", action="store_true", help="Only the rules a profile states."
    )
    args = parser.parse_args()
    if not args.stated_only:
        speed(args.hands)
    stated_rules(args.hands // 2)
    if not (args.speed_only or args.stated_only):
        peak_memory(args.memory_hands)
        startup()


if __name__ == "__main__":
    main()
