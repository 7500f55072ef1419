"""`rulesdsl play --decks FILE --bots lowest|highest --json --set ...` against docs/rules.md, over
the whole product of the options: every value the independent player of
tests/oracle.py knows of every option that acts within a hand (the new options
of section 3 with the old ones), every player count 3 to 6, and all seats `lowest` or all
`highest`; each combination on the same shuffled deals.

    .venv/bin/python benchmarks/rules_agreement.py [--deals 4] [--every 1] [--offset 0]

`--every K` plays every K-th combination of the product, in its fixed order (from
`--offset`), for a run shorter than the whole (the whole takes hours); take K prime to 2, 3
and 5 (e.g. 497), so that the slice meets every value of every option. It prints how many
combinations and deals were played and agreed, the combinations skipped (a deal that does
not fit the deck, or a hand that need not end: section 3), and each disagreement.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

from oracle import PLAYERS, VALUES, disagreements, endless, playable

BOTS = ("lowest", "highest")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--offset", type=int, default=0)
    args = parser.parse_args()
    names = list(VALUES)
    product = itertools.product(*VALUES.values(), PLAYERS, BOTS)
    total = len(BOTS) * len(PLAYERS)
    for values in VALUES.values():
        total *= len(values)
    played = skipped = agreed = deals_agreed = 0
    start = time.perf_counter()
    for number, combination in enumerate(product):
        if number < args.offset or (number - args.offset) % args.every:
            continue
        *chosen, players, bot = combination
        options = dict(zip(names, chosen, strict=True))
        if not playable(options, players) or endless(options):
            skipped += 1
            continue
        found = disagreements(
            options, players, number % players, [bot] * players, number, args.deals
        )
        played += 1
        agreed += not found
        failed = args.deals if found and found[0].startswith("play exits") else len(found)
        deals_agreed += args.deals - failed
        for line in found:
            print(f"{options} players={players} bots={bot}: {line}")
    seconds = time.perf_counter() - start
    print(
        f"{total:,} combinations in the product; every {args.every} from {args.offset}: "
        f"{played:,} played on {args.deals} deals each, {skipped:,} skipped "
        f"(deal does not fit, or hand need not end)"
    )
    print(
        f"{agreed:,} of {played:,} combinations agreed on every deal "
        f"({deals_agreed:,} of {played * args.deals:,} deals) in {seconds:.0f} s"
    )


if __name__ == "__main__":
    main()
