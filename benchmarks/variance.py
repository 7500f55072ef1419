"""Fewer hands for the same answer: how wide each default measure's 95% interval is per
10,000 hands, with and without each variance reduction `compare` has.

    .venv/bin/python benchmarks/variance.py [--hands 200000] [--seed 1] [--workers 2]
        [--aligned-hands 40000]

For each case, random bots at 4 players, the skill gap measured, the widths of every
measure `--until-decided` decides unless told (seat win shares, hand length, how hands
end, the skill gap), scaled to 10,000 hands (width times the root of hands / 10,000):

- one profile alone: each deal once (`plain`), and each deal from every seat
  (`--rotate-seats`, `rotated`); `after/before` is rotated over plain.
- a pair (profile B minus the baseline A): the two played on different deals (`apart`,
  the root of the sum of the squares of the two profiles' half-widths: what a run of two
  separate simulations gives), on the same deals with the same bots' streams (`paired`,
  what `compare` does), and paired with each deal from every seat (`rotated`);
  `after/before` is rotated over paired.

- a pair whose deals differ in size (seven-card-hands against equal-hands), on the
  pure-Python path with `--aligned-hands` of each: dealt as now (the stock starts after
  each profile's own deal, so every card drawn differs), against aligned (the shorter deal's
  stock laid out from the end of the longer deal, then the cards only the longer deal
  deals: both draw the same cards first, and each deck order is still equally likely).

A ratio below 1 is a narrower interval: about ratio squared as many hands give the same
width. Measures that do not vary (a way of ending no hand takes) or whose difference is nothing
on every deal are left out.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from rulesdsl.model.seeds import derive, shuffle
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.fast import int_deck
from rulesdsl.read.profile import load
from rulesdsl.reason.estimate import Z95
from rulesdsl.reason.sim import Estimate, Result, Spec, counted, hand_player, run
from rulesdsl.words.report import default_judged, measured

PAIRS = (
    ("equal-hands", "instant-elimination"),
    ("equal-hands", "no-trumps"),
    ("equal-hands", "seven-card-hands"),
    ("equal-hands", "bicycle"),
)
"""The pairs measured: a rule about who is out, about trump, about the deal's size (every
stock card shifted), and a manual's version differing in many rules."""


def per_10k(estimate: Estimate) -> float:
    return (estimate.high - estimate.low) * math.sqrt(estimate.n / 10_000)


def apart(a: Estimate, b: Estimate) -> float:
    """The width of B - A measured on different deals, per 10,000 hands each."""
    return math.hypot(per_10k(a), per_10k(b))


def played(profiles: Sequence[str], hands: int, seed: int, workers: int, rotate: bool) -> Result:
    spec = Spec(tuple((name, load(name).rules) for name in profiles), units=hands, seed=seed)
    return run(replace(spec, rotate=rotate), workers)


def row(name: str, widths: Sequence[float]) -> str:
    cells = "".join(f"{w:>10.4f}" for w in widths)
    return f"  {name:<26}{cells}{widths[-1] / widths[-2]:>14.2f}"


def spread(estimates: Sequence[Estimate]) -> bool:
    """Whether any of `estimates` saw its measure vary: a mean other than 0 or 1 (a share
    never or always seen gets an interval of some width from no spread at all)."""
    return any(e.mean not in (0, 1) for e in estimates)


def shares(result: Result) -> dict[str, bool]:
    judged = set(default_judged(result.spec))
    return {m.key: m.share for m in measured(result.spec) if m.name in judged}


def alone(profile: str, hands: int, seed: int, workers: int) -> None:
    plain = played([profile], hands, seed, workers, False)
    rotated = played([profile], hands, seed, workers, True)
    print(f"\n{profile} alone, {hands:,} hands: width per 10,000 hands")
    print(f"  {'measure':<26}{'plain':>10}{'rotated':>10}{'after/before':>14}")
    for key, share in shares(plain).items():
        found = [r.profiles[0].estimate(key, share) for r in (plain, rotated)]
        if spread(found):
            print(row(key, [per_10k(e) for e in found]))


def pair(first: str, second: str, hands: int, seed: int, workers: int) -> None:
    plain = played([first, second], hands, seed, workers, False)
    rotated = played([first, second], hands, seed, workers, True)
    print(f"\n{second} - {first}, {hands:,} hands: width per 10,000 hands")
    print(f"  {'measure':<26}{'apart':>10}{'paired':>10}{'rotated':>10}{'after/before':>14}")
    for key, share in shares(plain).items():
        a, b = (plain.profiles[k].estimate(key, share) for k in (0, 1))
        found = [r.pairs[0].estimate(key) for r in (plain, rotated)]
        if spread([a, b]) and found[0].high > found[0].low:
            print(row(key, [apart(a, b), *map(per_10k, found)]))


ALIGNED = ("win_seat_0", "win_seat_1", "win_seat_2", "win_seat_3", "tricks")


def aligned_values(key: tuple) -> list[int]:
    """ALIGNED of a hand, as `counted` gives it."""
    return [int(key[0] == seat) for seat in range(4)] + [key[3]]


def aligned_pair(first: str, second: str, hands: int, seed: int) -> None:
    """Paired widths of `second` - `first` (the longer deal) dealt as now and aligned."""
    rules = [load(first).rules, load(second).rules]
    dealt = [4 * r.hand_size_for(4) for r in rules]
    plays = [hand_player(r, 4, ("random",) * 4, hands) for r in rules]
    cards = list(int_deck(rules[0]))
    print(f"\n{second} - {first}, {hands:,} hands dealt as now and aligned: width per 10,000")
    print(f"  {'measure':<26}{'as now':>10}{'aligned':>10}{'after/before':>14}")
    widths = []
    for aligned in (False, True):
        deals = Stream(derive(seed, "aligned deals"))
        differences = []
        for unit in range(hands):
            deck = list(cards)
            shuffle(deck, deals)
            hand_seed, dealer = deals.split(), unit % 4
            short = deck[: dealt[0]] + deck[dealt[1] :] + deck[dealt[0] : dealt[1]]
            values = []
            for play, order in zip(plays, (short if aligned else deck, deck), strict=True):
                bots = Stream(derive(seed, "aligned bots", unit))
                values.append(
                    aligned_values(counted(play(order, hand_seed, bots, dealer), dealer, 4))
                )
            differences.append([b - a for a, b in zip(*values, strict=True)])
        spread = np.array(differences, float).std(axis=0, ddof=1)
        widths.append(2 * Z95 * spread / math.sqrt(10_000))
    for place, key in enumerate(ALIGNED):
        print(row(key, [widths[0][place], widths[1][place]]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--aligned-hands", type=int, default=40_000)
    args = parser.parse_args()
    hands = args.hands - args.hands % 4
    alone("equal-hands", hands, args.seed, args.workers)
    for first, second in PAIRS:
        pair(first, second, hands, args.seed, args.workers)
    aligned_pair("equal-hands", "seven-card-hands", args.aligned_hands, args.seed)


if __name__ == "__main__":
    main()
