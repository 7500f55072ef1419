"""Where simulation chunks run: here, in a pool of local processes, or on a Dask cluster.

Results come back in the order of the tasks whatever runs them, so the merged figures
are the same everywhere.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

Task = TypeVar("Task")
Out = TypeVar("Out")
LOCAL = "local"
CONNECT_TIMEOUT = "10s"


class ExecutorError(ValueError):
    """An executor that cannot be used: a bad address, no Dask, no scheduler there."""


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


def results(
    work: Callable[[Task], Out], tasks: Sequence[Task], workers: int, executor: str = LOCAL
) -> Iterator[Out]:
    """`work` applied to each task, yielded in the order of `tasks`."""
    if executor != LOCAL:
        yield from _dask(work, tasks, executor)
    elif workers <= 1 or len(tasks) <= 1:
        yield from map(work, tasks)
    else:
        yield from _pool(work, tasks, workers)


def _pool(work: Callable[[Task], Out], tasks: Sequence[Task], workers: int) -> Iterator[Out]:
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    pool = context.Pool(workers, initializer=_leave_interrupts_to_the_parent)
    try:
        yield from pool.imap(work, tasks)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _leave_interrupts_to_the_parent() -> None:
    """Workers ignore Ctrl-C: the parent stops them and reports what was gathered."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _dask(work: Callable[[Task], Out], tasks: Sequence[Task], executor: str) -> Iterator[Out]:
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
                yield future.result()
        finally:
            client.cancel(futures)
