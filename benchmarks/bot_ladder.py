"""The skill ladder: each bot's win share against three of the bot one step below, with
95% intervals (Wilson), on three profiles.

    .venv/bin/python benchmarks/bot_ladder.py [--hands 2000] [--python-hands 100] [--seed 1]
        [--profiles equal-hands,bicycle,profiles/house/must-overtrump.rules]

The ladder is random < heuristic < pimc:10 < pimc:50, and ismcts:50 against heuristic
and against pimc:10 to show where it stands. The stronger bot sits at seat 0 and the
dealer rotates, so it plays from every place at the table equally often: with no skill its
share would be 1 in 4. Every step plays the same deals. The steps the compiled search
kernel plays (`rulesdsl.play.kernel`: with numba, every profile without rules of its own)
play `--hands` hands; the others, on the reference engine, `--python-hands` (ten times as
many for the step without search).
"""

from __future__ import annotations

import argparse
import time
from typing import Any, NamedTuple

from rulesdsl.model.rules import Rules
from rulesdsl.model.seeds import derive, shuffle
from rulesdsl.model.stream import Stream
from rulesdsl.play import Hand, make_bot, play_hand
from rulesdsl.play.engine.fast import int_deck, to_int
from rulesdsl.play.native import available
from rulesdsl.play.players.registry import is_search_bot
from rulesdsl.play.players.search.table import NO_RANDOM, kernel_hand
from rulesdsl.read.profile import load
from rulesdsl.reason.sim import Estimate

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


def deal(rules: Rules, seed: int, number: int) -> tuple[list[int], int, int]:
    """Deal `number`: its deck order (as `fast.to_int`), hand seed and dealer."""
    deck = list(int_deck(rules))
    shuffle(deck, Stream(derive(seed, "deck", number)))
    return deck, derive(seed, "hand", number), number % PLAYERS


def seats(step: Step) -> tuple[str, ...]:
    return (step.bot, *(step.below,) * (PLAYERS - 1))


def seeds(seed: int, number: int) -> list[int]:
    return [derive(seed, "bot", number, s) for s in range(PLAYERS)]


def search_kernel(rules: Rules, step: Step) -> Any:
    """The compiled kernel's hands for a step with a search bot, where it plays them."""
    if not available() or not any(is_search_bot(name) for name in seats(step)):
        return None
    return kernel_hand(rules, PLAYERS, seats(step))


def win_share(profile: str, step: Step, hands: int, seed: int) -> Estimate:
    """The share of `hands` deals that `step.bot`, at seat 0, wins."""
    rules = load(profile).rules
    deals = [deal(rules, seed, number) for number in range(hands)]
    kernel = search_kernel(rules, step)
    if kernel is not None:
        wins = sum(kernel(deck, s, NO_RANDOM, dealer)[0].winner == 0 for deck, s, dealer in deals)
        return Estimate.share(wins, hands)
    cards = {to_int(c): c for c in rules.cards}
    wins = 0
    for number, (deck, hand_seed, dealer) in enumerate(deals):
        bots = [make_bot(n, s) for n, s in zip(seats(step), seeds(seed, number), strict=True)]
        order = [cards[c] for c in deck]
        hand = Hand.deal(rules, PLAYERS, dealer, order=order, seed=hand_seed)
        wins += play_hand(hand, bots).winner == 0
    return Estimate.share(wins, hands)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--python-hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profiles", default="equal-hands,bicycle,profiles/house/must-overtrump.rules"
    )
    args = parser.parse_args()
    print(f"{PLAYERS} players, seed {args.seed}; a share of 25.0% is no skill")
    print(f"{'profile':<22} {'step':<26} {'hands':>6} {'win share':>10}  95% interval  seconds")
    for profile in args.profiles.split(","):
        for step in LADDER:
            compiled = search_kernel(load(profile).rules, step) is not None
            hands = args.hands if compiled else args.python_hands * step.scale
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
