"""Where simulation chunks run: here, in a pool of local processes, or on a Dask cluster.

Results come back in the order of the tasks whatever runs them, so the merged figures
are the same everywhere. A run given `stop` asks it every POLL seconds while it waits for
a task, and once it says yes the results end there: the local processes still at work
are ended at once (mid-task), and the tasks on Dask are cancelled.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.pool import IMapIterator, Pool
from typing import Any, TypeVar

Task = TypeVar("Task")
Out = TypeVar("Out")
Stop = Callable[[], bool]
LOCAL = "local"
CONNECT_TIMEOUT = "10s"
POLL = 0.1
"""How often (seconds) a run that may be told to stop asks, while it waits for a task."""
STOPPED: Any = object()
"""What `_next` gives when the run was told to stop before the task's result came."""


@contextlib.contextmanager
def lasting() -> Iterator[None]:
    """Make objects that live as long as the process, such as the compiled kernel as it
    loads (numba, its types, the compiled code: about 160,000 objects), before workers are
    forked. Python's cyclic collector is paused while they are made, and the first time in
    a process everything then alive is frozen (`gc.freeze`): no later collection traverses
    it, here or in a forked worker, where a collection would also copy the pages holding
    it. Collecting while the kernel loaded took about 0.2 s, a tenth of a 1,000-hand run.
    The little garbage the load leaves (about a thousand objects) is never freed. This
    holds in the main thread alone: where threads load at once (the web server's jobs),
    one thread's pause would end or outlast another's, so the collector is left as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        _freeze_once()
        if enabled:
            gc.enable()


@functools.cache
def _freeze_once() -> None:
    """`gc.freeze()`, the first time in a process (a forked worker inherits both the frozen
    objects and this cache); `gc.get_freeze_count()` would count every frozen object."""
    gc.freeze()


class ExecutorError(ValueError):
    """An executor that cannot be used: a bad address, no Dask, no scheduler there."""


class WorkersClosed(RuntimeError):
    """Work given to workers that were closed (the server is stopping)."""


def check_executor(text: str) -> str:
    """`local`, or `dask://HOST:PORT` (also `tcp://...` or `tls://...`), as given."""
    if text == LOCAL:
        return text
    scheme, sep, rest = text.partition("://")
    host, colon, port = rest.rpartition(":")
    if (
        scheme not in ("dask", "tcp", "tls")
        or not sep
        or not colon
        or not host
        or not port.isdigit()
    ):
        raise ExecutorError(
            f"--executor {text}: expected local or dask://HOST:PORT, e.g. dask://127.0.0.1:8786"
        )
    return text


class Workers:
    """`count` local processes, started when first given work and kept for the next run
    (with what they loaded, such as compiled kernels); `stop` ends them at once, even in
    the middle of a task, and the next run starts new ones; after `close`, none start.

    A process with other threads (`threaded`: a server) does not fork its workers, which
    could copy a lock another thread holds: they come from a fork server where there is
    one, else are spawned."""

    def __init__(self, count: int, threaded: bool = False) -> None:
        self.count = count
        self.threaded = threaded
        self._pool: Pool | None = None
        self._closed = False
        self._lock = threading.Lock()

    def imap(self, work: Callable[[Task], Out], tasks: Sequence[Task]) -> IMapIterator:
        """The results of `work` on each task, in order, as the processes give them."""
        with self._lock:
            if self._closed:
                raise WorkersClosed("the workers were closed")
            if self._pool is None:
                self._pool = _context(self.threaded).Pool(self.count, initializer=_worker_signals)
            return self._pool.imap(work, tasks)

    def stop(self) -> None:
        """End the processes now, whatever they are doing."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.terminate()
            pool.join()

    def close(self) -> None:
        """End the processes, and start none again."""
        with self._lock:
            self._closed = True
        self.stop()


def _context(threaded: bool) -> Any:
    """How worker processes start: forked (fast) where nothing else runs in the parent."""
    methods = multiprocessing.get_all_start_methods()
    if os.name != "posix" or (threaded and "forkserver" not in methods):
        return multiprocessing.get_context("spawn")
    if not threaded:
        return multiprocessing.get_context("fork")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["rulesdsl.reason.sim"])
    return context


def _worker_signals() -> None:
    """Workers ignore Ctrl-C (the parent stops them and reports what was gathered), and
    end on SIGTERM, whatever handler they inherited: it is how the parent stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def default_workers() -> int:
    """The local processes a run uses unless told: one a core."""
    return os.cpu_count() or 1


def results(
    work: Callable[[Task], Out],
    tasks: Sequence[Task],
    workers: int,
    executor: str = LOCAL,
    stop: Stop | None = None,
    kept: Workers | None = None,
) -> Iterator[Out]:
    """`work` applied to each task, yielded in the order of `tasks`: on Dask, on the `kept`
    workers, on a pool of `workers` processes made for the run, or here (one worker, or
    one task), where `stop` can only be heard between tasks."""
    if executor != LOCAL:
        yield from _dask(work, tasks, executor, stop)
    elif kept is not None:
        yield from _on(kept, work, tasks, stop)
    elif workers <= 1 or len(tasks) <= 1:
        yield from map(work, tasks)
    else:
        yield from _pool(work, tasks, workers, stop)


def _pool(
    work: Callable[[Task], Out], tasks: Sequence[Task], workers: int, stop: Stop | None
) -> Iterator[Out]:
    with own_workers(workers) as own:
        yield from _on(own, work, tasks, stop)


@contextlib.contextmanager
def own_workers(count: int) -> Iterator[Workers]:
    """`count` local processes for one run (of one or many `results`), ended with it."""
    own = Workers(count)
    try:
        yield own
    finally:
        own.close()


def _on(
    kept: Workers, work: Callable[[Task], Out], tasks: Sequence[Task], stop: Stop | None
) -> Iterator[Out]:
    """The results from `kept`; its processes are ended when the run ends before its last
    task (told to stop, closed early, or failed), since they may still be at work."""
    given = 0
    try:
        pending = kept.imap(work, tasks)
        for _ in tasks:
            out = _next(pending, stop)
            if out is STOPPED:
                return
            yield out
            given += 1
    finally:
        if given < len(tasks):
            kept.stop()


def _next(pending: IMapIterator, stop: Stop | None) -> Any:
    """The next result, when it comes; STOPPED once `stop` says yes while waiting."""
    while True:
        try:
            return pending.next(None if stop is None else POLL)
        except multiprocessing.TimeoutError:
            if stop is not None and stop():
                return STOPPED


def _dask(
    work: Callable[[Task], Out], tasks: Sequence[Task], executor: str, stop: Stop | None
) -> Iterator[Out]:
    try:
        from dask.distributed import Client
    except ImportError:
        raise ExecutorError(
            f"--executor {executor} needs Dask: pip install 'rulesdsl[dask]'"
        ) from None
    address = (
        "tcp://" + executor.removeprefix("dask://") if executor.startswith("dask://") else executor
    )
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as error:
        raise ExecutorError(f"cannot reach a Dask scheduler at {address}: {error}") from None
    with client:
        futures = client.map(work, list(tasks), pure=False)
        try:
            for future in futures:
                out = _dask_next(future, stop)
                if out is STOPPED:
                    return
                yield out
        finally:
            client.cancel(futures)


def _dask_next(future: Any, stop: Stop | None) -> Any:
    """A Dask future's result, when it comes; STOPPED once `stop` says yes while waiting."""
    while stop is not None and not future.done():
        if stop():
            return STOPPED
        time.sleep(POLL)
    return future.result()
