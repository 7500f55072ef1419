"""`executors.lasting`: the collector paused while the kernel's objects are made, those
objects frozen out of its sight the first time, its state as it was after; in the main
thread alone."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import gc
import json
import threading
from rulesdsl.reason.executors import lasting

seen = []
with lasting():
    seen.append(gc.isenabled())
    made = [[] for _ in range(1000)]
seen += [gc.isenabled(), gc.get_freeze_count() >= len(made)]
frozen = gc.get_freeze_count()
with lasting():
    more = [[] for _ in range(1000)]
seen.append(gc.get_freeze_count() == frozen)
gc.disable()
with lasting():
    pass
seen.append(gc.isenabled())
gc.enable()
frozen = gc.get_freeze_count()


def in_a_thread():
    with lasting():
        seen.append(gc.isenabled())
        made = [[] for _ in range(1000)]
    seen.append(gc.get_freeze_count() == frozen)


thread = threading.Thread(target=in_a_thread)
thread.start()
thread.join()
print(json.dumps(seen))
"""


def test_lasting_pauses_the_collector_freezes_once_and_restores_it():
    """Run in a process of its own: freezing is for the life of a process. In another
    thread than the main one, the collector runs on and nothing more is frozen."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    ).stdout
    paused, enabled_after, frozen, frozen_once, still_disabled, thread_runs, thread_froze_none = (
        json.loads(out)
    )
    assert not paused
    assert enabled_after
    assert frozen
    assert frozen_once
    assert not still_disabled
    assert thread_runs
    assert thread_froze_none
