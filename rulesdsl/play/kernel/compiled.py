"""A profile at one table on the compiled kernel: what `rulesdsl.reason.sim` plays chunks of
deals with (`chunks`), and single hands of search bots (`play`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import PROFILES_KEPT, Rules
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.plan import plan_for
from rulesdsl.play.engine.steps import Plan
from rulesdsl.play.kernel import build
from rulesdsl.play.kernel.deals import COLUMNS, table_of
from rulesdsl.play.kernel.hands import comeback, hand_result, seat_kinds
from rulesdsl.play.kernel.plan import PLAN_FIELDS, kernel_plan
from rulesdsl.play.kernel.rows import searched
from rulesdsl.play.kernel.search import PIMC, SOLVE_FROM
from rulesdsl.play.kernel.state import FIELDS, SEATS, SEEN_FIELDS, record_type
from rulesdsl.play.kernel.worlds import FIRST_PROBE, SOLVE_DEPTH, WORK_FIELDS

STATE = record_type(FIELDS)
"""The numpy type of a state record: numba plays on `np.zeros(1, STATE)[0]`."""
SEEN = record_type(SEEN_FIELDS)
PLAN = record_type(PLAN_FIELDS)


@lru_cache(maxsize=PROFILES_KEPT)
def plan_record(plan: Any) -> Any:
    """The plan as a numpy record, for numba: made once for each plan (some 2 ms), which
    every task playing the plan reads and none writes."""
    from rulesdsl.play.native.programs import native_code

    record = np.zeros(1, PLAN)
    for field in PLAN_FIELDS:
        record[0][field.name] = getattr(plan, field.name)
    record[0]["native"] = native_code(plan)
    return record


Ints = Sequence[int]


class Chunks(NamedTuple):
    """Chunks of deals played in one call (`deals.play_deals`): for each, the seeds of its
    deals' and its bots' streams, its first deal and how many deals it holds; whether each
    deck is played from every seat in turn."""

    deal_seeds: Any
    bot_seeds: Any
    starts: Any
    counts: Any
    rotate: bool = False


def chunks(
    deal_seeds: Ints, bot_seeds: Ints, starts: Ints, counts: Ints, rotate: bool = False
) -> Chunks:
    """Chunks from lists of ints, one item per chunk."""
    seeds = (np.array(s, np.uint64) for s in (deal_seeds, bot_seeds))
    return Chunks(*seeds, np.array(starts, np.int64), np.array(counts, np.int64), rotate)


class SearchRows(NamedTuple):
    """What a hand's searches work on (`search.play_dealt`)."""

    seen: Any
    work: Any
    states: Any
    streams: Any


def search_rows(searching: bool) -> SearchRows:
    """The rows for numba; the states kept before each play only where a seat searches."""
    return SearchRows(
        np.zeros(1, SEEN)[0],
        np.zeros(1, record_type(WORK_FIELDS))[0],
        np.empty(SOLVE_FROM + SOLVE_DEPTH if searching else FIRST_PROBE, STATE),
        np.zeros((SEATS, 2), np.uint64),
    )


class CompiledProfile(NamedTuple):
    """The compiled kernel, with a profile's plan, table and bots as its arrays."""

    module: ModuleType
    plan: Plan
    numbers: Any  # the plan as CPython reads it (`kernel_plan`): its programs interpreted
    record: Any
    table: Any
    bots: Any
    budgets: Any
    rows: SearchRows

    def chunks(self, played: Chunks, skill: bool = False) -> Any:
        """The rows (`deals.COLUMNS`) of the deals of every chunk of `played`, in order,
        with the profile's bots or (with `skill`) the heuristic bot at one seat."""
        out = np.zeros((int(played.counts.sum()), COLUMNS), np.int64)
        state = np.zeros(1, STATE)[0]
        bots = self.bots.copy()
        self.module.play_deals(
            state, self.record, *self.rows, self.table, bots, self.budgets, skill, *played, out
        )
        searched(int(self.rows.work["gave_up"]))
        return out

    def loaded(self) -> CompiledProfile:
        """This profile, its `chunks` compiled or loaded here (`play` loads its own as first
        called): a run forks its workers after, so they inherit it."""
        self.chunks(chunks([0], [0], [0], [0]))
        return self

    def play(self, deck: Any, hand_seed: int, rng: Any, dealer: int) -> tuple[HandResult, int]:
        """One hand with a search seat dealt from `deck` (card ints of the canonical
        order), its random bots drawing from the Stream `rng` (anything else where none
        plays): its result, and whether its winner came back (held strictly the fewest
        cards of the players in at the start of some trick after the first)."""
        players, dealt, size = (int(v) for v in self.table[:3])
        ranked = self.table[3 + size + np.asarray(deck, np.int64)]
        state = np.zeros(1, STATE).view(np.recarray)[0]
        stream = np.array([rng.seed, rng.drawn] if isinstance(rng, Stream) else [0, 0], np.uint64)
        self.module.play_dealt(
            state, self.record, *self.rows[:3], ranked, players, dealt, dealer,
            np.uint64(hand_seed), self.bots, self.budgets, stream, self.rows.streams,
        )  # fmt: skip
        if isinstance(rng, Stream):
            rng.skip(int(stream[1]) - rng.drawn)
        searched(int(self.rows.work["gave_up"]))
        result = hand_result(state, self.numbers, self.plan.fired_names)
        return result, comeback(result, int(self.rows.seen["fewest"]))


def compiled_profile(rules: Rules, players: int, bots: tuple[str, ...]) -> CompiledProfile:
    """`rules` at `players` with `bots` on the compiled kernel (NotNative if it cannot)."""
    rules.check_players(players)
    plan = kernel_plan(rules)
    kinds, budgets = seat_kinds(bots)
    seats, sizes = np.zeros((2, SEATS), np.int64)
    seats[:players], sizes[:players] = kinds, budgets
    table = np.array(table_of(rules, players), np.int64)
    rows = search_rows(max(kinds) >= PIMC)
    return CompiledProfile(
        build.kernel(), plan_for(rules), plan, plan_record(plan)[0], table, seats, sizes, rows
    )
