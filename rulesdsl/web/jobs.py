"""Comparisons as jobs: `compare` run in the background on the configured executor, with
its progress, a way to cancel it, and as result the bytes `compare --json` (or `--csv`)
prints for the same profiles, players, hands, bots and seed."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rulesdsl.analysis.sameness import samenesses
from rulesdsl.cli.sim import printed
from rulesdsl.executors import ExecutorError
from rulesdsl.sim import Spec, run
from rulesdsl.web.errors import ApiError, bad, not_found

KEPT = 16
"""Finished jobs kept for their results; an older one is forgotten."""


class State(StrEnum):
    RUNNING = "running"
    DONE = "done"
    CANCELLED = "cancelled"
    FAILED = "failed"


@dataclass
class Job:
    """One comparison: its spec, how far it is, and once done what it printed."""

    id: str
    spec: Spec
    state: State = State.RUNNING
    done: int = 0
    error: str | None = None
    printed: dict[bool, str] = field(default_factory=dict)
    cancel: threading.Event = field(default_factory=threading.Event)

    def to_dict(self) -> dict[str, Any]:
        return {
            "job": self.id,
            "state": str(self.state),
            "done": self.done,
            "total": self.spec.units,
            "unit": "match" if self.spec.matches else "hand",
            "error": self.error,
        }

    def work(self, workers: int, executor: str) -> None:
        """Run the comparison; the outcome is the job's state."""
        try:
            same = samenesses(self.spec.profiles, self.spec.players)
            result = run(self.spec, workers, self._progress, executor, self.cancel.is_set)
            if result.interrupted:
                self.state = State.CANCELLED
                return
            self.printed = {as_csv: printed(result, same, as_csv) for as_csv in (False, True)}
            self.state = State.DONE
        except ExecutorError as error:
            self._failed(str(error))
        except Exception as error:  # the job's thread must say what failed, whatever it was
            self._failed(f"the comparison failed ({type(error).__name__})")

    def _progress(self, done: int) -> None:
        self.done = done

    def _failed(self, message: str) -> None:
        self.error = message
        self.state = State.FAILED

    def result(self, as_csv: bool) -> str:
        if self.state is State.RUNNING:
            raise ApiError(409, "the comparison is still running")
        if self.state is not State.DONE:
            raise ApiError(409, f"the comparison {self.state}: it has no result")
        return self.printed[as_csv]


class Jobs:
    """The comparisons the server runs, at most `most` at once, each in a thread."""

    def __init__(self, most: int, workers: int, executor: str) -> None:
        self.most = most
        self.workers = workers
        self.executor = executor
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()

    def start(self, spec: Spec) -> Job:
        with self._lock:
            running = sum(job.state is State.RUNNING for job in self._jobs.values())
            if running >= self.most:
                raise bad(f"{running} comparisons are running; wait for one or cancel it")
            job = Job(secrets.token_hex(8), spec)
            self._jobs[job.id] = job
            self._forget()
        threading.Thread(
            target=job.work, args=(self.workers, self.executor), daemon=True, name=job.id
        ).start()
        return job

    def _forget(self) -> None:
        finished = [key for key, job in self._jobs.items() if job.state is not State.RUNNING]
        for key in finished[: max(0, len(self._jobs) - KEPT)]:
            del self._jobs[key]

    def get(self, key: str) -> Job:
        job = self._jobs.get(key)
        if job is None:
            raise not_found("no such comparison (it may have been forgotten); run it again")
        return job
