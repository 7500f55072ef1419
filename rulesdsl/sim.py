"""Paired simulation: every profile plays the same deals, with the same dealers and bot seeds.

Work is cut into fixed chunks of deals; each chunk yields exact integer sums, so the
merged figures are the same for any number of workers. Nothing is kept per hand.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from rulesdsl.bots import make_bot
from rulesdsl.engine.compiled import FIRED_BITS, compile_hand, outcome
from rulesdsl.engine.hand import COUNTED, REASONS
from rulesdsl.engine.match import Match
from rulesdsl.rules import Rules
from rulesdsl.seeds import derive

CHUNK = 250
Z95 = 1.959964


@dataclass(frozen=True)
class Spec:
    """What to simulate: profiles (label, rules), table size, how many deals, bots, seed."""

    profiles: tuple[tuple[str, Rules], ...]
    players: int = 4
    units: int = 10_000
    matches: bool = False
    bots: tuple[str, ...] = ("random",)
    seed: int = 0
    skill: bool = True

    def seat_bots(self) -> tuple[str, ...]:
        return self.bots * self.players if len(self.bots) == 1 else self.bots

    @property
    def labels(self) -> list[str]:
        return [label for label, _ in self.profiles]

    @property
    def pairs(self) -> list[tuple[int, int]]:
        count = len(self.profiles)
        return [(a, b) for a in range(count) for b in range(a + 1, count)]

    def chunks(self) -> list[range]:
        return [range(s, min(s + CHUNK, self.units)) for s in range(0, self.units, CHUNK)]


@dataclass
class Tally:
    """Exact sums of integer metrics over units: count, sums, sums of squares, histograms."""

    n: int = 0
    sums: Counter[str] = field(default_factory=Counter)
    squares: Counter[str] = field(default_factory=Counter)
    hists: dict[str, Counter[int]] = field(default_factory=dict)

    def add(
        self, names: Sequence[str], values: Sequence[int], hist: dict[str, int] | None = None
    ) -> None:
        self.n += 1
        sums, squares = self.sums, self.squares
        for key, value in zip(names, values, strict=True):
            if value:
                sums[key] += value
                squares[key] += value * value
        for key, value in (hist or {}).items():
            self.hists.setdefault(key, Counter())[value] += 1

    def merge(self, other: Tally) -> None:
        self.n += other.n
        self.sums.update(other.sums)
        self.squares.update(other.squares)
        for key, counts in other.hists.items():
            self.hists.setdefault(key, Counter()).update(counts)

    def estimate(self, key: str, share: bool = False) -> Estimate:
        return Estimate.of(self.n, self.sums[key], self.squares[key], share)


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% interval (normal approximation)."""

    mean: float
    low: float
    high: float
    n: int

    @classmethod
    def of(cls, n: int, total: int, squares: int, share: bool = False) -> Estimate:
        """From exact sums; a `share` (every value 0 or 1) gets Wilson's interval."""
        if n == 0:
            return cls(math.nan, math.nan, math.nan, 0)
        if share:
            return cls.share(total, n)
        mean = total / n
        variance = (squares - total * total / n) / (n - 1) if n > 1 else 0.0
        half = Z95 * math.sqrt(max(variance, 0.0) / n)
        return cls(mean, mean - half, mean + half, n)

    @classmethod
    def share(cls, hits: int, n: int) -> Estimate:
        p = hits / n
        centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
        return cls(p, max(0.0, centre - half), min(1.0, centre + half), n)

    @property
    def clear_of_zero(self) -> bool:
        return self.low > 0 or self.high < 0


@dataclass
class Result:
    """Merged tallies: per profile (units, and hands inside matches), and per pair (a, b)
    of the differences b - a on the same deals."""

    spec: Spec
    units: Tally
    profiles: list[Tally]
    hands: list[Tally]
    pairs: list[Tally]
    interrupted: bool = False

    def merge(self, other: Result) -> None:
        self.units.merge(other.units)
        for mine, theirs in zip(
            self.profiles + self.hands + self.pairs,
            other.profiles + other.hands + other.pairs,
            strict=True,
        ):
            mine.merge(theirs)


def empty_result(spec: Spec) -> Result:
    count = len(spec.profiles)
    return Result(
        spec,
        Tally(),
        [Tally() for _ in range(count)],
        [Tally() for _ in range(count)],
        [Tally() for _ in spec.pairs],
    )


def metric_names(players: int) -> tuple[str, ...]:
    """The integer measurements of one hand, in the order `measure` gives them."""
    return (
        *(f"win_seat_{r}" for r in range(players)),
        "no_winner",
        "tricks",
        "plays",
        *(f"end_{reason}" for reason in REASONS),
        "stock_left",
        "eliminations",
        "last_card_saves",
        *(f"fires_{option}" for option in COUNTED),
    )


_BITS = tuple(FIRED_BITS[option] for option in COUNTED)


def measure(raw: tuple, dealer: int, players: int) -> list[int]:
    """A compiled hand's result as the values of `metric_names`."""
    winner, reason, tricks, stock_left, eliminations, saves, fired, _, plays = raw[:9]
    seats = [0] * players
    if winner >= 0:
        seats[(winner - dealer) % players] = 1
    reasons = [0] * len(REASONS)
    reasons[reason] = 1
    fires = [1 if fired & bit else 0 for bit in _BITS]
    return [
        *seats,
        int(winner < 0),
        tricks,
        plays,
        *reasons,
        stock_left,
        eliminations,
        saves,
        *fires,
    ]


def unit_rng(seed: int, *labels: object) -> random.Random:
    """The one generator of a deal: it shuffles, seeds reshuffles and serves random bots."""
    return random.Random(derive(seed, *labels))


def _skill(rules: Rules, spec: Spec, unit: int) -> int:
    """1 when the heuristic bot beats random bots; its seat relative to the dealer turns
    every `players` deals, so it sits everywhere equally often."""
    dealer = unit % spec.players
    seat = (dealer + unit // spec.players) % spec.players
    bots = ["random"] * spec.players
    bots[seat] = "heuristic"
    play = compile_hand(rules, spec.players, tuple(bots))
    return int(play(unit_rng(spec.seed, "unit", unit), dealer)[0] == seat)


def _hand_unit(spec: Spec, unit: int) -> list[tuple[list[int], dict[str, int]]]:
    rows = []
    dealer = unit % spec.players
    for _, rules in spec.profiles:
        play = compile_hand(rules, spec.players, spec.seat_bots())
        raw = play(unit_rng(spec.seed, "unit", unit), dealer)
        values = measure(raw, dealer, spec.players)
        if spec.skill:
            values.append(_skill(rules, spec, unit))
        rows.append((values, {"tricks": raw[2]}))
    return rows


def _match_unit(spec: Spec, unit: int, hands: list[Tally]) -> list[tuple[list[int], dict]]:
    rows = []
    names = metric_names(spec.players)
    for index, (_, rules) in enumerate(spec.profiles):
        match = Match(rules, spec.players, derive(spec.seed, "match", unit))
        first_dealer = match.dealer
        play = compile_hand(rules, spec.players, spec.seat_bots())
        while not match.over:
            dealer = match.dealer
            raw = play(unit_rng(spec.seed, "match", unit, match.hands_played), dealer)
            match.record(outcome(raw))
            hands[index].add(names, measure(raw, dealer, spec.players), {"tricks": raw[2]})
        values = [match.hands_played]
        values += [
            int((first_dealer + r) % spec.players in match.winners) for r in range(spec.players)
        ]
        rows.append((values, {"match_hands": match.hands_played}))
    return rows


def unit_names(spec: Spec) -> tuple[str, ...]:
    """What each deal (or match) measures, per profile and in the pairs."""
    if spec.matches:
        return ("match_hands", *(f"match_win_seat_{r}" for r in range(spec.players)))
    return (*metric_names(spec.players), *(("skill",) if spec.skill else ()))


def run_chunk(spec: Spec, units: range) -> Result:
    """Play the deals numbered `units` under every profile; the tallies of this chunk."""
    result = empty_result(spec)
    names = unit_names(spec)
    for unit in units:
        rows = _match_unit(spec, unit, result.hands) if spec.matches else _hand_unit(spec, unit)
        result.units.n += 1
        for tally, (values, hist) in zip(result.profiles, rows, strict=True):
            tally.add(names, values, hist)
        for tally, (a, b) in zip(result.pairs, spec.pairs, strict=True):
            first, second = rows[a][0], rows[b][0]
            tally.add(names, [y - x for x, y in zip(first, second, strict=True)])
    return result


def _run_chunk_args(args: tuple[Spec, range]) -> Result:
    return run_chunk(*args)


def default_workers() -> int:
    return os.cpu_count() or 1


def run(
    spec: Spec,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Result:
    """Simulate; `progress` hears the units done after each chunk. Ctrl-C stops early and
    returns what was gathered, marked `interrupted`."""
    result = empty_result(spec)
    tasks = [(spec, chunk) for chunk in spec.chunks()]
    try:
        for part in _results(tasks, workers or default_workers()):
            result.merge(part)
            if progress is not None:
                progress(result.units.n)
    except KeyboardInterrupt:
        result.interrupted = True
    return result


def _results(tasks: list[tuple[Spec, range]], workers: int) -> Iterator[Result]:
    if workers <= 1 or len(tasks) <= 1:
        yield from map(_run_chunk_args, tasks)
        return
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    pool = context.Pool(workers)
    try:
        yield from pool.imap(_run_chunk_args, tasks)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def check_spec(spec: Spec) -> None:
    """Raise RulesError/ValueError when a profile cannot seat the players or bots are wrong."""
    for _, rules in spec.profiles:
        rules.check_players(spec.players)
    if len(spec.bots) not in (1, spec.players):
        raise ValueError(
            f"--bots names {len(spec.bots)} seats, but there are {spec.players} players"
        )
    for name in spec.bots:
        make_bot(name)
