"""The skill ladder: each bot's win share against three of the bot one step below, with
95% intervals (Wilson), on three profiles.

    .venv/bin/python benchmarks/bot_ladder.py [--hands 100] [--seed 1]
        [--profiles equal-hands,bicycle,profiles/house/must-overtrump.rules]

The ladder is random < heuristic < pimc:10 < pimc:50, and ismcts:50 against heuristic
and against pimc:10 to show where it stands. The stronger bot takes each seat in turn and
the dealer rotates, so neither the seat nor the lead favours it: with no skill its share
would be 1 in 4. Every step plays the same deals. `--hands` sets the hands of the search
steps (the steps without search play ten times as many); the default runs in a few
minutes on one core.
"""

from __future__ import annotations

import argparse
import time
from typing import NamedTuple

from rulesdsl import Hand, make_bot, play_hand
from rulesdsl.profile import load
from rulesdsl.seeds import derive
from rulesdsl.sim import Estimate

PLAYERS = 4


class Step(NamedTuple):
    """A rung: `bot` at one seat against three of `below`; `scale` times the hands."""

    bot: str
    below: str
    scale: int = 1


LADDER = (
    Step("heuristic", "random", 10),
    Step("pimc:10", "heuristic"),
    Step("pimc:50", "pimc:10"),
    Step("ismcts:50", "heuristic"),
    Step("ismcts:50", "pimc:10"),
)


def win_share(profile: str, step: Step, hands: int, seed: int) -> Estimate:
    rules = load(profile).rules
    wins = 0
    for number in range(hands):
        dealer = number % PLAYERS
        seat = (dealer + number // PLAYERS) % PLAYERS
        names = [step.bot if s == seat else step.below for s in range(PLAYERS)]
        bots = [make_bot(name, derive(seed, "bot", number, s)) for s, name in enumerate(names)]
        hand = Hand.deal(rules, PLAYERS, dealer, seed=derive(seed, "hand", number))
        wins += play_hand(hand, bots).winner == seat
    return Estimate.share(wins, hands)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profiles", default="equal-hands,bicycle,profiles/house/must-overtrump.rules"
    )
    args = parser.parse_args()
    print(f"{PLAYERS} players, seed {args.seed}; a share of 25.0% is no skill")
    print(f"{'profile':<22} {'step':<26} {'hands':>6} {'win share':>10}  95% interval  seconds")
    for profile in args.profiles.split(","):
        for step in LADDER:
            hands = args.hands * step.scale
            start = time.perf_counter()
            e = win_share(profile, step, hands, args.seed)
            took = time.perf_counter() - start
            name = f"{step.bot} vs 3 {step.below}"
            interval = f"{100 * e.low:.1f}..{100 * e.high:.1f}"
            above = " *" if e.low > 1 / PLAYERS else ""
            print(
                f"{profile.split('/')[-1]:<22} {name:<26} {hands:>6} {e.mean:>10.1%}  "
                f"{interval:<12}{above:<2} {took:>6.1f}"
            )
    print("* the interval lies above 25%: the bot is the stronger, clear of chance")


if __name__ == "__main__":
    main()
