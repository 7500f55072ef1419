"""How often the heuristic bot wins a hand against three random bots, with a 95% interval.

    .venv/bin/python benchmarks/bot_strength.py [--hands 20000] [--profile equal-hands]

The heuristic bot takes each seat in turn and the dealer rotates, so neither the seat
nor the lead favours it; a fair share would be 1 in 4.
"""

from __future__ import annotations

import argparse
import math
import time

from rulesdsl.model.seeds import derive
from rulesdsl.play import Hand, make_bot, play_hand
from rulesdsl.read.profile import load

PLAYERS = 4


def win_share(profile: str, hands: int, seed: int) -> tuple[float, float]:
    rules = load(profile).rules
    wins = 0
    for number in range(hands):
        seat = number % PLAYERS
        bots = [make_bot("random", derive(seed, "bot", number, s)) for s in range(PLAYERS)]
        bots[seat] = make_bot("heuristic")
        dealer = (number // PLAYERS) % PLAYERS
        hand = Hand.deal(rules, PLAYERS, dealer, seed=derive(seed, "hand", number))
        wins += play_hand(hand, bots).winner == seat
    share = wins / hands
    return share, 1.96 * math.sqrt(share * (1 - share) / hands)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--profile", default="equal-hands")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    share, half = win_share(args.profile, args.hands, args.seed)
    elapsed = time.perf_counter() - start
    print(f"profile {args.profile}: heuristic vs 3 random, {args.hands:,} hands")
    print(
        f"win share {share:.1%} (95% interval {share - half:.1%} to {share + half:.1%}); "
        f"fair share 25.0%; ratio {share / 0.25:.2f}x"
    )
    print(f"{args.hands / elapsed:,.0f} hands/s")


if __name__ == "__main__":
    main()
