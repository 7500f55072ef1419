"""Paired simulation: every profile plays the same deals, with the same dealers and bot seeds.

Work is cut into fixed chunks of deals; each chunk yields exact integer sums, so the
merged figures are the same for any number of workers. Nothing is kept per hand.

Under seat rotation (`Spec.rotate`) each deck is played once from every seat: the hands
of `players` deals in a row are one cluster, and an interval reads the clusters' means,
which are independent, rather than the hands, which are not.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from rulesdsl.model.result import EndReason, HandResult
from rulesdsl.model.rules import COUNTED, PROFILES_KEPT, Rules
from rulesdsl.model.seeds import derive, shuffle
from rulesdsl.model.stream import Stream
from rulesdsl.play import native
from rulesdsl.play.engine.fast import REASONS, HandPlayer, compile_hand, int_deck, play_plain
from rulesdsl.play.engine.match import Match
from rulesdsl.play.kernel.deals import skill_seat
from rulesdsl.play.kernel.rows import not_searchable
from rulesdsl.play.players.registry import make_bot, search_size
from rulesdsl.play.players.search.table import NO_RANDOM, good_hand, search_hand, searches
from rulesdsl.reason.estimate import Estimate
from rulesdsl.reason.executors import LOCAL, Workers, default_workers, lasting, results
from rulesdsl.reason.ladder import FOOT, UNSOLVED, Ladder, Rung, against, seeing
from rulesdsl.reason.luck import LUCK, luck_difference, luck_index

if TYPE_CHECKING:
    from rulesdsl.reason.sequence import Stopping

CHUNK = 250
"""Deals of a chunk draw from the chunk's own streams, so the chunks fix the hands."""
TASK_CHUNKS = 100
"""At most this many chunks make one task (one call of a native kernel, one tally): a
native task pays about 3 ms to make its kernels and tally its rows, which 25,000 hands
(about 40 ms of play) make small, where 10,000 made native `simulate` 12% slower."""
TASKS_PER_WORKER = 4
NATIVE_FROM = 5_000
"""The fewest hands (deals times profiles) worth loading the compiled kernel for: fewer
play sooner on the pure-Python path, which gives the same hands. Whole processes of
`simulate equal-hands` take as long on either path near 8,000 hands (the kernel loads in
about 0.35 s); `benchmarks/whole_process.py` times both at 1,000 and 100,000."""
SPECIALISE_FROM = 2_000
"""The fewest hands worth specialising a play loop for (`fast.compile_hand`, about 0.3 s
a loop): fewer play sooner on the driver as written (`fast.play_plain`), which plays the
same hands at about 0.6 times the speed."""


@dataclass(frozen=True)
class Spec:
    """What to simulate: profiles (label, rules), table size, how many deals, bots, seed,
    and which profiles to pair."""

    profiles: tuple[tuple[str, Rules], ...]
    players: int = 4
    units: int = 10_000
    matches: bool = False
    bots: tuple[str, ...] = ("random",)
    seed: int = 0
    skill: bool = True
    good_play: str | None = None  # the bot of good play (e.g. pimc:10); None measures none
    baseline: int = 0  # the profile every other is paired with
    all_pairs: bool = False  # pair every profile with every other instead
    first: int = 0  # the first deal played: deals first to units - 1 are played
    rotate: bool = False  # each deck played from every seat in turn (`deals.rotate_deck`)
    planned: int = 0  # the deals of the whole run, when more than units (a round's end)

    def seat_bots(self) -> tuple[str, ...]:
        return self.bots * self.players if len(self.bots) == 1 else self.bots

    @property
    def labels(self) -> list[str]:
        return [label for label, _ in self.profiles]

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """The pairs (a, b) whose differences b - a are measured: each profile against the
        baseline, or every profile against every later one under `all_pairs`."""
        count = len(self.profiles)
        if self.all_pairs:
            return [(a, b) for a in range(count) for b in range(a + 1, count)]
        return [(self.baseline, b) for b in range(count) if b != self.baseline]

    @property
    def chunk(self) -> int:
        """The deals of a chunk: CHUNK, or under rotation the nearest whole number of
        rotations at or above it, so that no chunk splits one."""
        if not self.rotate:
            return CHUNK
        return math.ceil(CHUNK / self.players) * self.players

    @property
    def cluster(self) -> int:
        """The hands of one cluster: `players` under rotation, else 1."""
        return self.players if self.rotate else 1

    def chunks(self) -> list[range]:
        return pieces(range(self.first, self.units), self.chunk)

    def tasks(self, workers: int) -> list[range]:
        """The deals of each task, in order: whole chunks, up to TASK_CHUNKS to a task while
        every worker gets TASKS_PER_WORKER tasks, one to a task for matches and search
        bots (whose hands are slow). The figures are the same however chunks are grouped."""
        chunks = self.chunks()
        slow = self.matches or self.good_play is not None or searches(self.seat_bots())
        spread = len(chunks) // (max(workers, 1) * TASKS_PER_WORKER)
        per = 1 if slow else max(1, min(TASK_CHUNKS, spread))
        return [
            range(chunks[k].start, chunks[min(k + per, len(chunks)) - 1].stop)
            for k in range(0, len(chunks), per)
        ]


def pieces(units: range, size: int = CHUNK) -> list[range]:
    """`units`, from the start of a chunk, cut into chunks of `size`."""
    return [range(s, min(s + size, units.stop)) for s in range(units.start, units.stop, size)]


NUMBERS = ("tricks", "plays", "stock_left", "eliminations", "last_card_saves")
COUNTS = {*NUMBERS, "match_hands"}
OUTCOME_FIELDS = ("winner", "reason", "fired", *NUMBERS)
Test = Callable[[object], bool]


@cache
def indicators(players: int) -> dict[str, tuple[str, Test]]:
    """Yes/no measurements: the category each is counted in and the test on its value."""
    tests: dict[str, tuple[str, Test]] = {}
    for r in range(players):
        tests[f"win_seat_{r}"] = ("winner", lambda v, r=r: v == r)
        tests[f"match_win_seat_{r}"] = ("match_winners", lambda v, r=r: r in v)
    tests["no_winner"] = ("winner", lambda v: v == -1)
    for reason in EndReason:
        tests[f"end_{reason}"] = ("reason", lambda v, reason=reason: v is reason)
    for name in ("skill", "comeback", "decided", "unsolved", *(r.key for r in good_ladder(1))):
        tests[name] = (name, lambda v: v == 1)
    return tests


FIRES = "fires_"
"""The prefix of the coverage measurements: `fires_NAME` counts the hands where the rule
NAME fired, an option's or one the profile states."""


def indicator(players: int, key: str) -> tuple[str, Test]:
    """The category and test of the yes/no measurement `key`."""
    if key.startswith(FIRES):
        rule = key.removeprefix(FIRES)
        return "fired", lambda v: rule in v
    return indicators(players)[key]


def covered(spec: Spec) -> list[str]:
    """The rules coverage counts: the counted options, then the rules the profiles state."""
    stated = (r.name for _, rules in spec.profiles for r in rules.house_rules)
    return list(dict.fromkeys([*COUNTED, *stated]))


@dataclass
class Tally:
    """Exact counts over units, whose size does not grow with their number.

    Hands are counted by their distinct results (who won relative to the dealer, why the
    hand ended, which rules fired, and the numbers of NUMBERS). A paired tally holds the
    differences b - a of numbers and counts (a, b) pairs of categories. Where hands come
    in clusters of `cluster` (seat rotation), it also holds, by measurement, the sum of
    the squares of each cluster's total.
    """

    players: int
    paired: bool = False
    cluster: int = 1
    n: int = 0
    outcomes: Counter[tuple] = field(default_factory=Counter)
    sums: Counter[str] = field(default_factory=Counter)
    squares: Counter[str] = field(default_factory=Counter)
    counts: dict[str, Counter] = field(default_factory=dict)
    cluster_squares: Counter[str] = field(default_factory=Counter)

    def add_numbers(self, names: Sequence[str], values: Sequence[int]) -> None:
        sums, squares = self.sums, self.squares
        for key, value in zip(names, values, strict=True):
            sums[key] += value
            squares[key] += value * value

    def count(self, category: str, value: object) -> None:
        counts = self.counts.get(category)
        if counts is None:
            counts = self.counts[category] = Counter()
        counts[value] += 1

    def merge(self, other: Tally) -> None:
        self.n += other.n
        self.outcomes.update(other.outcomes)
        self.sums.update(other.sums)
        self.squares.update(other.squares)
        for name, counts in other.counts.items():
            self.counts.setdefault(name, Counter()).update(counts)
        self.cluster_squares.update(other.cluster_squares)

    def distribution(self, name: str) -> Counter:
        """How often each value of a category or number occurred."""
        found = Counter(self.counts.get(name, {}))
        if name in OUTCOME_FIELDS:
            index = OUTCOME_FIELDS.index(name)
            for outcome, count in self.outcomes.items():
                found[outcome[index]] += count
        return found

    def totals(self, key: str) -> tuple[int, int]:
        """The sum over units of a measurement, and the sum of its squares."""
        if key in COUNTS:
            values = self.distribution(key)
            total = sum(v * c for v, c in values.items()) + self.sums[key]
            return total, sum(v * v * c for v, c in values.items()) + self.squares[key]
        category, test = indicator(self.players, key)
        total = squares = 0
        for value, count in self.distribution(category).items():
            step = int(test(value[1])) - int(test(value[0])) if self.paired else int(test(value))
            total += count * step
            squares += count * step * step
        return total, squares

    def total(self, key: str) -> int:
        return self.totals(key)[0]

    def observations(self, key: str) -> tuple[int, float, float]:
        """The independent observations of a measurement: their number, sum and sum of
        squares. Each is a hand, or under rotation a cluster's mean."""
        total, squares = self.totals(key)
        size = self.cluster
        if size == 1:
            return self.n, total, squares
        return self.n // size, total / size, self.cluster_squares[key] / (size * size)

    def estimate(self, key: str, share: bool = False) -> Estimate:
        """The mean of a measurement per hand with its interval: from the observations'
        spread, or for a `share` Wilson's, on as many hands as would give the clusters'
        spread (at most `cluster` times those played); the luck index, a ratio, its own."""
        if key == LUCK:
            clusters = self.counts.get(LUCK, Counter())
            return (luck_difference if self.paired else luck_index)(clusters, self.cluster)
        count, total, squares = self.observations(key)
        if not share or self.cluster == 1 or count < 2:
            return dataclasses.replace(Estimate.of(count, total, squares, share), n=self.n)
        p = total / count
        clustered = (squares - total * total / count) / (count - 1) / count
        binomial = p * (1 - p) / self.n
        ratio = clustered / binomial if binomial > 0 and clustered > 0 else 1.0
        hands = self.n / max(ratio, 1 / self.cluster)
        return dataclasses.replace(Estimate.share(p * hands, hands), n=self.n)


@dataclass
class Result:
    """Merged tallies: per profile (units, and hands inside matches), and per pair (a, b)
    of the differences b - a on the same deals."""

    spec: Spec
    units: Tally
    profiles: list[Tally]
    hands: list[Tally]
    pairs: list[Tally]
    good: list[Tally] = field(default_factory=list)  # hands under good play, per profile
    good_pairs: list[Tally] = field(default_factory=list)
    interrupted: bool = False
    stopping: Stopping | None = None  # where a run played until decided stopped

    def merge(self, other: Result) -> None:
        self.units.merge(other.units)
        for mine, theirs in zip(self._tallies(), other._tallies(), strict=True):
            mine.merge(theirs)

    def _tallies(self) -> list[Tally]:
        return self.profiles + self.hands + self.pairs + self.good + self.good_pairs


def empty_result(spec: Spec) -> Result:
    count, n, size = len(spec.profiles), spec.players, spec.cluster
    good = range(count if spec.good_play else 0)
    return Result(
        spec,
        Tally(n),
        [Tally(n, cluster=size) for _ in range(count)],
        [Tally(n) for _ in range(count)],
        [Tally(n, True, size) for _ in spec.pairs],
        [Tally(n, cluster=size) for _ in good],
        [Tally(n, True, size) for _ in spec.pairs] if spec.good_play else [],
    )


def counted(result: HandResult, dealer: int, players: int) -> tuple:
    """What a simulation counts of a hand, as OUTCOME_FIELDS: the winner's seat relative
    to the dealer (-1 for none), the reason, the rules that fired, then NUMBERS."""
    winner = result.winner
    return (
        -1 if winner is None else (winner - dealer) % players,
        result.reason,
        result.fired,
        result.tricks,
        result.plays,
        result.stock_left,
        len(result.eliminated),
        result.saves,
    )


def record(tally: Tally, key: tuple) -> None:
    """Count one hand, as `counted` gives it."""
    tally.outcomes[key] += 1
    tally.n += 1


def record_pair(tally: Tally, first: tuple, second: tuple) -> None:
    """Count the paired difference of two hands on the same deal, as `counted` gives them."""
    tally.n += 1
    tally.add_numbers(NUMBERS, [second[i] - first[i] for i in range(3, 8)])
    tally.count("winner", (first[0], second[0]))
    tally.count("reason", (first[1], second[1]))
    tally.count("fired", (first[2], second[2]))


def deals_seed(seed: int, start: int, cards: tuple[int, ...]) -> int:
    """The seed of the stream a chunk draws its deals from, for one card set."""
    return derive(seed, "deals", start, _card_text(cards))


@cache
def _card_text(cards: tuple[int, ...]) -> str:
    return ",".join(map(str, cards))


def card_sets(spec: Spec) -> list[int]:
    """Each profile's card set, by its place among the distinct sets in order (`_Decks`)."""
    cards = [int_deck(rules) for _, rules in spec.profiles]
    distinct = list(dict.fromkeys(cards))
    return [distinct.index(c) for c in cards]


Deal = tuple[list[int], int]
"""A deck order and a hand seed."""


class _Decks:
    """Deck orders (and reshuffle seeds) deal by deal, one per card set in play, the same
    for every profile that plays those cards; each chunk draws them from its own stream."""

    def __init__(self, seed: int, start: int, card_sets: Sequence[tuple[int, ...]]) -> None:
        self.card_sets = list(dict.fromkeys(card_sets))
        self.streams = [Stream(deals_seed(seed, start, cards)) for cards in self.card_sets]

    def next_deal(self) -> list[Deal]:
        """The next deal: (deck order, hand seed) for each card set."""
        deals = []
        for cards, stream in zip(self.card_sets, self.streams, strict=True):
            deck = list(cards)
            shuffle(deck, stream)
            deals.append((deck, stream.split()))
        return deals


def deals_of(seed: int, cards: tuple[int, ...], units: range) -> Iterator[tuple[list[int], int]]:
    """The deck and hand seed of each deal of `units` of the card set `cards`, as a run
    of `seed` deals them."""
    decks = None
    for unit in units:
        if decks is None or unit % CHUNK == 0:
            start = unit - unit % CHUNK
            decks = _Decks(seed, start, [cards])
            for _ in range(start, unit):
                decks.next_deal()
        yield decks.next_deal()[0]


def hand_player(rules: Rules, players: int, bots: tuple[str, ...], hands: int) -> HandPlayer:
    """The fastest way to play `hands` hands of `rules` with `bots`, one name per seat: the
    fast path, its loop specialised for many hands, or the kernel for bots that search."""
    if searches(bots):
        return search_hand(rules, players, bots)
    return (compile_hand if hands >= SPECIALISE_FROM else play_plain)(rules, players, bots)


def _skill_bots(players: int, seat: int) -> tuple[str, ...]:
    """The heuristic bot at `seat` against random bots. The sim turns its seat relative
    to the dealer every `players` deals, so it sits everywhere equally often."""
    return tuple("heuristic" if s == seat else "random" for s in range(players))


def _play_hands(spec: Spec, units: range, result: Result) -> None:
    # Good play is measured deal by deal beside the plain hands, on the Python path.
    kernels = None if spec.good_play else native_kernels(spec)
    if kernels is not None:
        _play_native(spec, units, result, kernels)
        return
    for chunk in pieces(units, spec.chunk):
        _play_chunk(spec, chunk, result)


def rotated(deck: list[int], dealt: int, turn: int) -> list[int]:
    """`deck` with its dealt cards turned `turn` seats on (`deals.rotate_deck`)."""
    if turn == 0:
        return deck
    from rulesdsl.play.kernel.deals import rotate_deck

    found = list(deck)
    rotate_deck(found, deck, dealt, len(deck), turn)
    return found


def _hands(spec: Spec, units: range) -> Iterator[tuple[int, list[Deal], list]]:
    """Each deal of `units` on the Python path: its unit, each profile's deck of it (turned
    under rotation) and each profile's hand of it, as `counted` gives it."""
    n = spec.players
    decks = _Decks(spec.seed, units.start, [int_deck(rules) for _, rules in spec.profiles])
    card_set = card_sets(spec)
    dealt = [n * rules.hand_size_for(n) for _, rules in spec.profiles]
    plays = [hand_player(rules, n, spec.seat_bots(), spec.units) for _, rules in spec.profiles]
    bots = [Stream(derive(spec.seed, "bots", units.start)) for _ in spec.profiles]
    deals: list[Deal] = []
    for unit in units:
        dealer = unit % n
        turn = dealer if spec.rotate else 0
        if turn == 0:
            deals = decks.next_deal()
        played = [
            (rotated(deals[which][0], cards, turn), deals[which][1])
            for which, cards in zip(card_set, dealt, strict=True)
        ]
        keys = [
            counted(play(deck, hand_seed, rng, dealer), dealer, n)
            for play, (deck, hand_seed), rng in zip(plays, played, bots, strict=True)
        ]
        yield unit, played, keys


def _play_chunk(spec: Spec, units: range, result: Result) -> None:
    """`_play_hands` on the Python path, one chunk."""
    n = spec.players
    skilled = [
        [hand_player(rules, n, _skill_bots(n, seat), spec.units // n) for seat in range(n)]
        if spec.skill
        else []
        for _, rules in spec.profiles
    ]
    skill_bots = [Stream(derive(spec.seed, "skill", units.start)) for _ in spec.profiles]
    kept, good, luck = _Kept.of(spec), _Kept.of(spec), _Luck.of(spec)
    for unit, deals, raws in _hands(spec, units):
        dealer = unit % n
        seat = skill_seat(unit, n)
        skills = []
        for index, (key, tally) in enumerate(zip(raws, result.profiles, strict=True)):
            record(tally, key)
            if spec.skill:
                deck, hand_seed = deals[index]
                skill = skilled[index][seat](deck, hand_seed, skill_bots[index], dealer)
                won = skill.winner == seat
                skills.append(int(won))
                tally.count("skill", int(won))
        for tally, (a, b) in zip(result.pairs, spec.pairs, strict=True):
            record_pair(tally, raws[a], raws[b])
            if spec.skill:
                tally.count("skill", (skills[a], skills[b]))
        kept.add(raws, skill=skills)
        if spec.good_play:
            hands, columns = _play_good(spec, result, deals, dealer, seat)
            good.add(hands, **columns)
            luck.add(spec, result, columns)
        result.units.n += 1
    if spec.rotate:
        kept.cluster(spec, result.profiles, result.pairs)
        if spec.good_play:
            good.cluster(spec, result.good, result.good_pairs)


@dataclass
class _Kept:
    """Under rotation, the hands of a chunk on the Python path, for the clusters' squares:
    each profile's hands as `counted` gives them, and its yes/no columns by name."""

    rotate: bool
    hands: list[list[tuple]]
    columns: list[dict[str, list[int]]]

    @classmethod
    def of(cls, spec: Spec) -> _Kept:
        count = len(spec.profiles)
        return cls(spec.rotate, [[] for _ in range(count)], [{} for _ in range(count)])

    def add(self, keys: Sequence[tuple], **columns: Sequence[int]) -> None:
        """One deal: each profile's hand, and each named column's value for each profile
        (none where the column was not measured)."""
        if not self.rotate:
            return
        for index, key in enumerate(keys):
            self.hands[index].append(key)
            for name, values in columns.items():
                if values:
                    self.columns[index].setdefault(name, []).append(values[index])

    def cluster(self, spec: Spec, tallies: list[Tally], pairs: list[Tally]) -> None:
        import numpy as np

        values = []
        for hands, columns in zip(self.hands, self.columns, strict=True):
            fired = {name: code for code, name in enumerate(dict.fromkeys(k[2] for k in hands))}
            keys = np.array(
                [(k[0], REASONS.index(k[1]), fired[k[2]], *k[3:]) for k in hands], np.int64
            )
            extra = {name: np.array(column, np.int64) for name, column in columns.items()}
            values.append(hand_values(spec, keys, list(fired), extra))
        add_clusters(spec, tallies, pairs, values)


@dataclass
class _Luck:
    """Under good play, each profile's wins in the cluster so far of the seat that sees
    everything and of the heuristic seat, counted as the luck index's clusters."""

    sums: list[list[int]]
    deals: int = 0

    @classmethod
    def of(cls, spec: Spec) -> _Luck:
        return cls([[0, 0] for _ in spec.profiles])

    def add(self, spec: Spec, result: Result, columns: dict[str, list[int]]) -> None:
        top = columns[seeing(1)[0].key]
        for sums, won, heuristic in zip(self.sums, top, columns[FOOT.key], strict=True):
            sums[0] += won
            sums[1] += heuristic
        self.deals += 1
        if self.deals < spec.cluster:
            return
        clusters = [(won, heuristic) for won, heuristic in self.sums]
        for tally, cluster in zip(result.good, clusters, strict=True):
            tally.count(LUCK, cluster)
        for tally, (a, b) in zip(result.good_pairs, spec.pairs, strict=True):
            tally.count(LUCK, (clusters[a], clusters[b]))
        self.sums, self.deals = [[0, 0] for _ in self.sums], 0


def hand_values(
    spec: Spec, keys: Any, fired_names: Sequence[frozenset], extra: dict[str, Any]
) -> dict[str, Any]:
    """Each measurement's value on each hand: from `keys`, rows of ints as `_keys` gives
    them (`fired_names` naming the fired column's ints), and the columns of `extra`."""
    import numpy as np

    values = dict(extra)
    for key in [*indicators(spec.players), *(FIRES + rule for rule in covered(spec))]:
        category, test = indicator(spec.players, key)
        if category not in CATEGORY_COLUMNS:
            continue
        column = CATEGORY_COLUMNS[category]
        found, inverse = np.unique(keys[:, column], return_inverse=True)
        hits = [test(_cell(column, value, fired_names)) for value in found.tolist()]
        values[key] = np.array(hits, np.int64)[inverse]
    for place, name in enumerate(NUMBERS, 3):
        values[name] = keys[:, place]
    return values


CATEGORY_COLUMNS = {"winner": 0, "reason": 1, "fired": 2}
"""The columns of `_keys` that hold each category; the measurements of the others (skill,
comeback, the ladder's, match winners) are not in `_keys`: `hand_values` takes those of
good play as columns of their own."""


def add_clusters(
    spec: Spec, tallies: list[Tally], pairs: list[Tally], values: list[dict[str, Any]]
) -> None:
    """Add the squares of each cluster's totals of each profile's `values` (`hand_values`,
    one per profile), and of each pair's differences b - a, to their tallies."""
    for tally, found in zip(tallies, values, strict=True):
        _add_squares(tally, found, spec.cluster)
    for tally, (a, b) in zip(pairs, spec.pairs, strict=True):
        _add_squares(tally, {k: values[b][k] - values[a][k] for k in values[a]}, spec.cluster)


def _add_squares(tally: Tally, values: dict[str, Any], size: int) -> None:
    for key, column in values.items():
        totals = column.reshape(-1, size).sum(axis=1)
        tally.cluster_squares[key] += int(totals @ totals)


def _play_good(
    spec: Spec, result: Result, deals: list[Deal], dealer: int, seat: int
) -> tuple[list[tuple], dict[str, list[int]]]:
    """The same deal under good play: every seat the good bot (seat shares, coverage,
    comebacks), the good bot at `seat` against heuristic bots (a step of skill), and the
    rungs of the ladder above it at `seat` (`ladder.seeing`), with whether the deal was
    decided before play. Each profile's hand, and its yes/no columns by name."""
    assert spec.good_play is not None
    n, bot = spec.players, spec.good_play
    keys: list[tuple] = []
    columns: dict[str, list[int]] = {}
    for index, (_, rules) in enumerate(spec.profiles):
        deck, hand_seed = deals[index]
        tally = result.good[index]
        hand, comeback = good_hand(rules, n, bot, deck, hand_seed, dealer)
        key = counted(hand, dealer, n)
        record(tally, key)
        step = hand_player(rules, n, against(bot, seat, n), spec.units)
        won = int(step(deck, hand_seed, NO_RANDOM, dealer).winner == seat)
        outcome = _ladder(rules, n, spec.good_play).outcome(deck, hand_seed, dealer, seat)
        found = {
            "comeback": comeback,
            "skill": won,
            "decided": int(outcome.decided == 1),
            "unsolved": int(outcome.decided == UNSOLVED),
        }
        found.update(zip(good_rungs(bot), outcome.wins, strict=True))
        for name, value in found.items():
            tally.count(name, value)
            columns.setdefault(name, []).append(value)
        keys.append(key)
    for tally, (a, b) in zip(result.good_pairs, spec.pairs, strict=True):
        record_pair(tally, keys[a], keys[b])
        for name, values in columns.items():
            tally.count(name, (values[a], values[b]))
    return keys, columns


LADDER_WORLDS = 10
"""The worlds of the ladder's rungs above a good bot that does not search."""


def good_ladder(worlds: int) -> tuple[Rung, ...]:
    """The ladder's rungs measured under good play: those above the good bot, then the
    heuristic, the luck index's baseline."""
    return (*seeing(worlds), FOOT)


def good_rungs(bot: str) -> list[str]:
    """The measurements of the ladder's rungs under the good bot `bot`."""
    return [rung.key for rung in good_ladder(good_worlds(bot))]


def good_worlds(bot: str) -> int:
    """The worlds of the ladder's rungs above `bot`: its N, where it is a search bot."""
    size = search_size(bot)
    return size[1] if size is not None else LADDER_WORLDS


@lru_cache(maxsize=PROFILES_KEPT)
def _ladder(rules: Rules, players: int, bot: str) -> Ladder:
    return Ladder(rules, players, good_ladder(good_worlds(bot)))


def native_kernels(spec: Spec) -> list[Any] | None:
    """Each profile on the compiled kernel, when the native path runs here, the run is
    large enough to gain from it and the kernel plays every profile (where it does not, it
    says why, once, and the run plays on the pure-Python path; with search bots, a
    SearchError says why)."""
    small = max(spec.units, spec.planned) * len(spec.profiles) < NATIVE_FROM
    bots = spec.seat_bots()
    if not native.available() or (small and not native.forced()):
        return None
    from rulesdsl.play.kernel.compiled import compiled_profile
    from rulesdsl.play.kernel.plan import NotNative
    from rulesdsl.play.native.trust import say

    try:
        with lasting():
            return [
                compiled_profile(rules, spec.players, bots).loaded() for _, rules in spec.profiles
            ]
    except NotNative as refused:
        if searches(bots):  # the search is the kernel's alone
            raise not_searchable(refused) from None
        say(f"this run plays on the pure-Python path: {refused}")
        return None


def _keys(rows: Any, units: range, players: int) -> Any:
    """The columns `counted` gives, one row per deal, as ints (reason and fired by index)."""
    import numpy as np

    from rulesdsl.play.kernel import deals as d

    dealers = np.arange(units.start, units.stop, dtype=np.int64) % players
    columns = (d.WINNER, d.REASON, d.FIRED, d.TRICKS, d.PLAYS, d.STOCK_LEFT, d.ELIMINATED, d.SAVES)
    keys = rows[:, list(columns)]
    won = keys[:, 0]
    keys[:, 0] = np.where(won < 0, -1, (won - dealers) % players)
    return keys


def _distinct(values: Any) -> list[tuple[tuple[int, ...], int]]:
    """The distinct rows of an int array with their counts, in order of first occurrence:
    each row read as one number in mixed radix (the spans of its columns), where those
    numbers fit in 62 bits, else row by row."""
    import numpy as np

    if len(values) == 0:
        return []
    lows, highs = values.min(axis=0), values.max(axis=0)
    spans = [high - low + 1 for high, low in zip(highs.tolist(), lows.tolist(), strict=True)]
    if math.prod(spans) >= 1 << 62:
        return list(Counter(map(tuple, values.tolist())).items())
    places = np.cumprod([1, *spans[:-1]], dtype=np.int64)
    keys = (values - lows) @ places
    _, firsts, counts = np.unique(keys, return_index=True, return_counts=True)
    order = np.argsort(firsts)
    return list(
        zip(map(tuple, values[firsts[order]].tolist()), counts[order].tolist(), strict=True)
    )


def _cell(column: int, value: int, fired_names: Sequence[frozenset]) -> object:
    """A value of the first three columns of `_keys` as `counted` gives it."""
    if column == 1:
        return REASONS[value]
    return fired_names[value] if column == 2 else value


def _named(key: tuple[int, ...], fired_names: Sequence[frozenset]) -> tuple:
    """A row of `_keys` as `counted` gives it."""
    return (*(_cell(c, key[c], fired_names) for c in range(3)), *key[3:])


def _count(tally: Tally, category: str, values: Any, name: Callable[[tuple], object]) -> None:
    """Count the rows of `values` in `category`, each named by `name`, in order."""
    counts = tally.counts.setdefault(category, Counter())
    for value, count in _distinct(values):
        counts[name(value)] += count


def _native_chunks(spec: Spec, units: range, cards: tuple[int, ...], bots: str) -> Any:
    """The chunks of `units` for a native kernel: the streams of each as `_play_chunk`
    draws them, its bots' stream the one named `bots`."""
    from rulesdsl.play.kernel.compiled import chunks

    played = pieces(units, spec.chunk)
    starts = [chunk.start for chunk in played]
    return chunks(
        [deals_seed(spec.seed, start, cards) for start in starts],
        [derive(spec.seed, bots, start) for start in starts],
        starts,
        [len(chunk) for chunk in played],
        spec.rotate,
    )


def deal_keys(spec: Spec) -> list[Any]:
    """Each profile's hand of every deal of `spec` (without good play or skill), one row
    of ints a deal: the winner relative to the dealer (-1 for none), the reason's index in
    REASONS, then NUMBERS; the hands `run` plays of the same spec."""
    import numpy as np

    units = range(spec.units)
    kernels = native_kernels(spec)
    if kernels is not None:
        found = []
        for (_, rules), kernel in zip(spec.profiles, kernels, strict=True):
            played = kernel.chunks(_native_chunks(spec, units, int_deck(rules), "bots"))
            found.append(np.delete(_keys(played, units, spec.players), 2, axis=1))
        return found
    rows: list[list[tuple[int, ...]]] = [[] for _ in spec.profiles]
    for chunk in pieces(units, spec.chunk):
        for _, _, keys in _hands(spec, chunk):
            for found, key in zip(rows, keys, strict=True):
                found.append((key[0], REASONS.index(key[1]), *key[3:]))
    return [np.array(found, dtype=np.int64).reshape(-1, 2 + len(NUMBERS)) for found in rows]


def _play_native(spec: Spec, units: range, result: Result, kernels: list[Any]) -> None:
    """`_play_hands` on the native path: each profile's chunks in one call, tallied by
    their distinct outcomes."""
    import numpy as np

    n = spec.players
    unit = np.arange(units.start, units.stop, dtype=np.int64)
    seat = skill_seat(unit, n)
    keys, skills = [], []
    for (_, rules), kernel, tally in zip(spec.profiles, kernels, result.profiles, strict=True):
        played = kernel.chunks(_native_chunks(spec, units, int_deck(rules), "bots"))
        key = _keys(played, units, n)
        for value, count in _distinct(key):
            tally.outcomes[_named(value, kernel.plan.fired_names)] += count
        tally.n += len(units)
        keys.append(key)
        if spec.skill:
            played = kernel.chunks(_native_chunks(spec, units, int_deck(rules), "skill"), True)
            won = (played[:, 0] == seat).astype(np.int64)[:, None]
            _count(tally, "skill", won, lambda v: v[0])
            skills.append(won)
    for tally, (a, b) in zip(result.pairs, spec.pairs, strict=True):
        tally.n += len(units)
        differences = keys[b][:, 3:] - keys[a][:, 3:]
        for name, total, square in zip(
            NUMBERS, differences.sum(axis=0), (differences**2).sum(axis=0), strict=True
        ):
            tally.sums[name] += int(total)
            tally.squares[name] += int(square)
        names = kernels[a].plan.fired_names, kernels[b].plan.fired_names
        for category, column in CATEGORY_COLUMNS.items():
            pairs = np.column_stack([keys[a][:, column], keys[b][:, column]])
            _count(
                tally,
                category,
                pairs,
                lambda v, c=column, f=names: (_cell(c, v[0], f[0]), _cell(c, v[1], f[1])),
            )
        if spec.skill:
            _count(tally, "skill", np.column_stack([skills[a], skills[b]]), lambda v: v)
    if spec.rotate:
        extras = [{"skill": won[:, 0]} for won in skills] if spec.skill else [{}] * len(keys)
        values = [
            hand_values(spec, key, kernel.plan.fired_names, extra)
            for key, kernel, extra in zip(keys, kernels, extras, strict=True)
        ]
        add_clusters(spec, result.profiles, result.pairs, values)
    result.units.n += len(units)


def _play_matches(spec: Spec, units: range, result: Result) -> None:
    n, bots = spec.players, spec.seat_bots()
    plays = [hand_player(rules, n, bots, spec.units) for _, rules in spec.profiles]
    for unit in units:
        lengths, winners = [], []
        for index, (_, rules) in enumerate(spec.profiles):
            match = Match(rules, spec.players, derive(spec.seed, "match", unit))
            first = match.dealer
            decks = _Decks(spec.seed, unit, [int_deck(rules)])
            bots = Stream(derive(spec.seed, "match bots", unit))
            while not match.over:
                ((deck, hand_seed),) = decks.next_deal()
                dealer = match.dealer
                hand = plays[index](deck, hand_seed, bots, dealer)
                match.record(hand)
                record(result.hands[index], counted(hand, dealer, spec.players))
            tally = result.profiles[index]
            tally.n += 1
            tally.add_numbers(("match_hands",), (match.hands_played,))
            relative = frozenset((s - first) % spec.players for s in match.winners)
            tally.count("match_winners", relative)
            lengths.append(match.hands_played)
            winners.append(relative)
        for tally, (a, b) in zip(result.pairs, spec.pairs, strict=True):
            tally.n += 1
            tally.add_numbers(("match_hands",), (lengths[b] - lengths[a],))
            tally.count("match_winners", (winners[a], winners[b]))
        result.units.n += 1


def run_task(spec: Spec, units: range) -> Result:
    """Play the deals numbered `units` (whole chunks) under every profile; their tallies."""
    result = empty_result(spec)
    (_play_matches if spec.matches else _play_hands)(spec, units, result)
    return result


def _run_task_args(args: tuple[Spec, range]) -> Result:
    return run_task(*args)


def run(
    spec: Spec,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    executor: str = LOCAL,
    stop: Callable[[], bool] | None = None,
    kept: Workers | None = None,
) -> Result:
    """Simulate on `workers` local processes (the `kept` ones, when given), or on a Dask
    cluster (`dask://HOST:PORT`); `progress` hears the units done after each task. Ctrl-C,
    or `stop` saying yes, stops early and returns what was gathered, marked `interrupted`;
    the tasks not done are cancelled. `stop` is heard within `executors.POLL` seconds where
    the tasks run away from this thread (kept workers, a pool, Dask), else after a task."""
    result = empty_result(spec)
    workers = kept.count if kept is not None else workers or default_workers()
    tasks = [(spec, units) for units in spec.tasks(workers)]
    gathered = 0
    try:
        if kept is None and executor == LOCAL and min(workers, len(tasks)) > 1:
            kernels_for_workers(spec)  # forked workers inherit them
        with closing(results(_run_task_args, tasks, workers, executor, stop, kept)) as parts:
            for part in parts:
                result.merge(part)
                gathered += 1
                if progress is not None:
                    progress(result.units.n)
                if stop is not None and stop():
                    break
    except KeyboardInterrupt:
        pass
    result.interrupted = gathered < len(tasks)
    return result


def kernels_for_workers(spec: Spec) -> None:
    """The native kernels the tasks play on, made here before the local workers start, so
    that they inherit them: made or read from the cache once, anything the cache refuses
    said once."""
    if not spec.matches and spec.good_play is None:
        native_kernels(spec)


def check_spec(spec: Spec) -> None:
    """Raise RulesError/ValueError when a profile cannot seat the players or bots are wrong."""
    for label, rules in spec.profiles:
        rules.check_players_of(label, spec.players)
    if len(spec.bots) not in (1, spec.players):
        raise ValueError(
            f"--bots names {len(spec.bots)} seats, but there are {spec.players} players"
        )
    for name in spec.bots + ((spec.good_play,) if spec.good_play else ()):
        make_bot(name)
    if spec.good_play and spec.matches:
        raise ValueError("--good-play measures hands: give --hands, not --matches")
    if spec.rotate and spec.matches:
        raise ValueError("--rotate-seats turns the seats of hands: give --hands, not --matches")
    if not 0 <= spec.baseline < len(spec.profiles):
        raise ValueError(f"the baseline is profile {spec.baseline}, of {len(spec.profiles)}")


def check_rotation(spec: Spec, hands: int) -> None:
    """Raise ValueError where rotation would split a deal's turns: `hands` (the most to be
    played) not a multiple of the players."""
    if not spec.rotate or hands % spec.players == 0:
        return
    fewer = hands - hands % spec.players
    raise ValueError(
        f"--rotate-seats plays each deal from all {spec.players} seats, so the hands must be "
        f"a multiple of {spec.players}: {fewer:,} or {fewer + spec.players:,}, not {hands:,}"
    )
