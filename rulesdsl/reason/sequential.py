"""Compare until decided: play in rounds, whole chunks each, and stop at the end of the
first round after which every verdict asked for is decided, each read from its confidence
sequence (`rulesdsl.reason.sequence`), valid however the stopping point was chosen.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from rulesdsl.reason.executors import LOCAL, Workers, own_workers
from rulesdsl.reason.sequence import Stopping
from rulesdsl.reason.sim import CHUNK, Result, Spec, kernels_for_workers, run

ALPHA = 0.05
MAX_HANDS = 1_000_000
MAX_SLOW_HANDS = 2_000
"""The most hands with a search bot or good play, unless told."""
FIRST_ROUND = 2_000
GROWTH = 1.25
"""Each round brings the hands played to this many times those before it, in whole chunks."""


def slow(spec: Spec) -> bool:
    """Whether hands are slow: a search bot or good play."""
    from rulesdsl.play.players.search.table import searches

    return spec.good_play is not None or searches(spec.seat_bots())


def stopping_for(
    spec: Spec, alpha: float, max_hands: int | None, metrics: tuple[str, ...]
) -> Stopping:
    """How `--until-decided` plays `spec`, deciding `metrics`: its first round and its cap
    (`max_hands`, else MAX_HANDS, or MAX_SLOW_HANDS where hands are slow)."""
    hard = slow(spec)
    most = max_hands if max_hands is not None else (MAX_SLOW_HANDS if hard else MAX_HANDS)
    chunk = spec.chunk
    first = chunk if hard else math.ceil(FIRST_ROUND / chunk) * chunk  # slow: one chunk
    most -= most % spec.cluster if max_hands is None else 0
    return Stopping(alpha, most, first, metrics, len(spec.pairs))


def round_ends(first: int, most: int, chunk: int = CHUNK) -> list[int]:
    """The deals played by the end of each round: `first`, then each GROWTH times the one
    before, in whole chunks of `chunk`, up to `most`."""
    ends, end = [], min(first, most)
    while True:
        ends.append(end)
        if end >= most:
            return ends
        grown = math.ceil(end * GROWTH / chunk) * chunk
        end = min(max(grown, end + chunk), most)


def run_until(
    spec: Spec,
    stopping: Stopping,
    decided: Callable[[Result], bool],
    workers: int,
    progress: Callable[[int], None] | None = None,
    executor: str = LOCAL,
    stop: Callable[[], bool] | None = None,
    kept: Workers | None = None,
) -> Result:
    """Play the deals of `spec` round by round until `decided` says yes of the merged
    result, `stopping.max_units` are played, or the run is interrupted (`stop` and `kept`
    as `sim.run` takes them); the result carries where it stopped. Rounds end on whole
    chunks, so where it stops does not depend on the workers. Local workers are started
    once for every round, and every round, however small, is sized by the cap (`sim.Spec`'s
    `planned`)."""
    spec = replace(spec, planned=stopping.max_units)
    played = partial(_rounds, spec, stopping, decided, workers, progress, executor, stop)
    if kept is not None or executor != LOCAL or workers <= 1:
        return played(kept)
    kernels_for_workers(spec)  # forked workers inherit them
    with own_workers(workers) as own:
        return played(own)


def _rounds(
    spec: Spec,
    stopping: Stopping,
    decided: Callable[[Result], bool],
    workers: int,
    progress: Callable[[int], None] | None,
    executor: str,
    stop: Callable[[], bool] | None,
    kept: Workers | None,
) -> Result:
    result: Result | None = None
    start = rounds = 0
    done = False
    try:
        for end in round_ends(stopping.first, stopping.max_units, spec.chunk):
            deals = replace(spec, first=start, units=end)
            part = run(deals, workers, _shifted(progress, start), executor, stop, kept)
            result = part if result is None else _merged(result, part)
            rounds, start = rounds + 1, end
            result.stopping = replace(stopping, units=result.units.n, rounds=rounds)
            if result.interrupted:
                break
            done = decided(result)
            if done:
                break
    except KeyboardInterrupt:  # between rounds: what was played is reported, undecided
        if result is None:
            raise
        result.interrupted, done = True, False
    assert result is not None and result.stopping is not None
    result.stopping = replace(result.stopping, decided=done)
    return result


def _merged(result: Result, part: Result) -> Result:
    result.merge(part)
    result.interrupted = part.interrupted
    return result


def _shifted(progress: Callable[[int], None] | None, start: int) -> Callable[[int], None] | None:
    if progress is None:
        return None
    return lambda done: progress(start + done)
