"""Comparisons as jobs: `compare` run in the background on the configured executor, with
its progress, a way to cancel it, and as result the bytes `compare --json` (or `--csv`)
prints for the same profiles, players, hands, bots and seed."""

from __future__ import annotations

import gc
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rulesdsl.reason.analysis.sameness import samenesses
from rulesdsl.reason.attribution import attributions
from rulesdsl.reason.executors import LOCAL, ExecutorError, Workers, WorkersClosed
from rulesdsl.reason.sequence import Stopping
from rulesdsl.reason.sim import Spec
from rulesdsl.service import most_played, played
from rulesdsl.service import printed as cli_printed
from rulesdsl.surfaces.web.errors import ApiError, bad, not_found

KEPT = 16
"""Finished jobs kept for their results; an older one is forgotten."""
CLOSING = 5.0
"""How long (seconds) closing waits for the jobs' threads to end their work."""


class JobState(StrEnum):
    RUNNING = "running"
    DONE = "done"
    CANCELLED = "cancelled"
    FAILED = "failed"


@dataclass
class Job:
    """One comparison: its spec, how far it is, and once done what it printed. Its state
    leaves RUNNING once, and is final: a job cancelled is cancelled at once, though its
    thread may take a moment more to end its work."""

    id: str
    spec: Spec
    attribute: bool = False  # split each difference among the rules (`compare --attribute`)
    stopping: Stopping | None = None  # play until decided (`compare --until-decided`)
    state: JobState = JobState.RUNNING
    done: int = 0
    error: str | None = None
    printed: dict[bool, str] = field(default_factory=dict)
    cancel: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "job": self.id,
            "state": str(self.state),
            "done": self.done,
            "total": most_played(self.spec, self.stopping),
            "unit": "match" if self.spec.matches else "hand",
            "error": self.error,
        }

    def work(self, workers: int, executor: str, kept: Workers | None = None) -> None:
        """Run the comparison (on the `kept` workers, where given); the outcome is the
        job's state."""
        try:
            same = samenesses(self.spec.profiles, self.spec.players, self.spec.pairs)
            stop = self.cancel.is_set
            result = played(
                self.spec, self.stopping, same, {}, workers, self._progress, executor, stop, kept
            )
            if result.interrupted:
                self._end(JobState.CANCELLED)
                return
            split = attributions(self.spec, same, result.units.n) if self.attribute else None
            printed = {
                as_csv: cli_printed(result, same, as_csv, None, split) for as_csv in (False, True)
            }
            self._end(JobState.DONE, printed=printed)
        except ExecutorError as error:
            self._end(JobState.FAILED, error=str(error))
        except WorkersClosed:
            self._end(JobState.CANCELLED)
        except Exception as error:  # the job's thread must say what failed, whatever it was
            self._end(JobState.FAILED, error=f"the comparison failed ({type(error).__name__})")

    def stop(self) -> None:
        """Cancel the comparison: it is cancelled now, and its work ends within a moment."""
        self._end(JobState.CANCELLED)
        self.cancel.set()

    def _progress(self, done: int) -> None:
        with self._lock:
            if self.state is JobState.RUNNING:
                self.done = done

    def _end(self, state: JobState, error: str | None = None, printed: dict | None = None) -> None:
        """Leave RUNNING for `state`; nothing, once the job has left it."""
        with self._lock:
            if self.state is not JobState.RUNNING:
                return
            self.error = error
            self.printed = printed or {}
            self.state = state

    def result(self, as_csv: bool) -> str:
        if self.state is JobState.RUNNING:
            raise ApiError(409, "the comparison is still running")
        if self.state is not JobState.DONE:
            raise ApiError(409, f"the comparison {self.state}: it has no result")
        return self.printed[as_csv]


class Jobs:
    """The comparisons the server runs, at most `most` at once, each in a thread. On the
    local executor each runs on a set of worker processes, kept for the next comparison
    (with the kernels they loaded) unless it was cancelled."""

    def __init__(self, most: int, workers: int, executor: str) -> None:
        self.most = most
        self.workers = workers
        self.executor = executor
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._threads: dict[str, threading.Thread] = {}
        self._idle: list[Workers] = []
        self._busy: set[Workers] = set()
        self._closed = False
        self._lock = threading.Lock()

    def start(self, spec: Spec, attribute: bool = False, stopping: Stopping | None = None) -> Job:
        with self._lock:
            if self._closed:
                raise ApiError(503, "the server is stopping; it starts no comparison")
            running = sum(job.state is JobState.RUNNING for job in self._jobs.values())
            if running >= self.most:
                raise bad(f"{running} comparisons are running; wait for one or cancel it")
            job = Job(secrets.token_hex(8), spec, attribute, stopping)
            self._jobs[job.id] = job
            self._forget()
            kept = self._take()
            thread = threading.Thread(
                target=self._work, args=(job, kept), daemon=True, name=f"job-{job.id}"
            )
            self._threads[job.id] = thread
        thread.start()
        return job

    def _take(self) -> Workers | None:
        """Worker processes for a job: an idle set, or a new one (none on Dask)."""
        if self.executor != LOCAL:
            return None
        kept = self._idle.pop() if self._idle else Workers(self.workers, threaded=True)
        self._busy.add(kept)
        return kept

    def _work(self, job: Job, kept: Workers | None) -> None:
        try:
            job.work(self.workers, self.executor, kept)
        finally:
            self._give_back(job, kept)

    def _give_back(self, job: Job, kept: Workers | None) -> None:
        with self._lock:
            self._threads.pop(job.id, None)
            if kept is None:
                return
            self._busy.discard(kept)
            if not self._closed and len(self._idle) < self.most:
                self._idle.append(kept)
                return
        kept.close()

    def _forget(self) -> None:
        finished = [key for key, job in self._jobs.items() if job.state is not JobState.RUNNING]
        for key in finished[: max(0, len(self._jobs) - KEPT)]:
            del self._jobs[key]

    def get(self, key: str) -> Job:
        job = self._jobs.get(key)
        if job is None:
            raise not_found("no such comparison (it may have been forgotten); run it again")
        return job

    def close(self, wait: float = CLOSING) -> None:
        """Cancel every running job, wait up to `wait` seconds for their threads, and end
        every worker process; no job starts after."""
        with self._lock:
            self._closed = True
            jobs = [job for job in self._jobs.values() if job.state is JobState.RUNNING]
            threads = list(self._threads.values())
            every = [*self._idle, *self._busy]
            self._idle.clear()
        for job in jobs:
            job.stop()
        deadline = time.monotonic() + wait
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        for kept in every:
            kept.close()
        gc.collect()  # the ended pools release their semaphores now, not at exit
