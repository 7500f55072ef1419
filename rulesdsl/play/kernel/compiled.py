"""A profile at one table on the compiled kernel: what `rulesdsl.reason.sim` plays chunks of
deals with, as it does with a profile's own native kernel (`rulesdsl.play.native.kernel`)."""

from __future__ import annotations

from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from rulesdsl.model.rules import Rules
from rulesdsl.play.engine.fast import BOTS
from rulesdsl.play.engine.plan import plan_for
from rulesdsl.play.engine.steps import Plan
from rulesdsl.play.kernel import build
from rulesdsl.play.kernel.deals import table_of
from rulesdsl.play.kernel.plan import NotNative, kernel_plan, plan_record
from rulesdsl.play.kernel.state import SEATS, STATE
from rulesdsl.play.native.driver import FIELDS
from rulesdsl.play.native.kernel import chunks


class CompiledProfile(NamedTuple):
    """The compiled kernel, with a profile's plan, table and bots as its arrays."""

    module: ModuleType
    plan: Plan
    record: Any
    table: Any
    bots: Any

    def chunks(self, cards: Any, played: Any, skill: bool = False) -> Any:
        """The rows (`rulesdsl.play.native.driver.FIELDS`) of the deals of every chunk of
        `played`, in order, with the profile's bots or (with `skill`) the heuristic bot at
        one seat."""
        out = np.zeros((int(played.counts.sum()), len(FIELDS)), np.int64)
        state = np.zeros(1, STATE)[0]
        bots = self.bots.copy()
        self.module.play_deals(state, self.record, self.table, bots, skill, *played, out)
        return out


def compiled_profile(rules: Rules, players: int, bots: tuple[str, ...]) -> CompiledProfile:
    """`rules` at `players` with `bots` on the compiled kernel (NotNative if it cannot)."""
    rules.check_players(players)
    plan = kernel_plan(rules)
    unknown = [b for b in bots if b not in BOTS]
    if unknown:
        raise NotNative(f"the bot {unknown[0]} is not the kernel's")
    seats = np.zeros(SEATS, np.int64)
    seats[:players] = [BOTS.index(b) for b in bots]
    table = np.array(table_of(rules, players), np.int64)
    profile = CompiledProfile(build.kernel(), plan_for(rules), plan_record(plan)[0], table, seats)
    profile.chunks(None, chunks([0], [0], [0], [0]))  # compiled or loaded here, once
    return profile
