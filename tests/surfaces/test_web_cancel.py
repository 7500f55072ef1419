"""Cancelling a comparison, whatever it plays: many hands or few slow ones, two profiles or
six, search bots, good play, profiles sent as text or chained through workspace files. The
job is cancelled in the answer to DELETE, its slot takes the next comparison at once, its
worker processes end (the work stops, even in the middle of a hand), and its count of hands
done stays where it was. Finished comparisons keep their processes for the next; closing
the app ends them."""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples
from starlette.testclient import TestClient

from rulesdsl.read.profile import shipped_names
from rulesdsl.surfaces.web.app import create_app
from rulesdsl.surfaces.web.errors import ApiError
from rulesdsl.surfaces.web.limits import Limits

BASE = "http://127.0.0.1:8765"
SAFETY = 20.0
"""Seconds before a test gives up waiting: far more than anything here should take."""


@contextmanager
def app_client(workspace: Path, workers: int = 1, jobs: int = 1) -> Iterator[TestClient]:
    """A client of the app, started and closed as a server starts and stops it."""
    app = create_app(workspace, workers=workers, limits=Limits(jobs=jobs))
    with TestClient(app, base_url=BASE) as client:
        yield client


def until(test, what: str):
    """`test()` once it is true, asking every 20 ms; fails after SAFETY seconds."""
    deadline = time.monotonic() + SAFETY
    while time.monotonic() < deadline:
        found = test()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"after {SAFETY} s, still not: {what}")


@pytest.fixture(autouse=True)
def others() -> None:
    """The processes other tests left running, which `children` leaves out."""
    OTHERS.clear()
    OTHERS.update(p.pid for p in multiprocessing.active_children())


OTHERS: set[int] = set()


def children() -> list[multiprocessing.Process]:
    """The worker processes this test's apps run (their jobs run them in this process)."""
    return [p for p in multiprocessing.active_children() if p.pid not in OTHERS]


def no_children() -> bool:
    return not children()


def text_profile(hand_size: int) -> dict:
    text = f'profile "sent" extends "equal-hands" {{\n    hand_size {hand_size}\n}}\n'
    return {"text": text, "syntax": "dsl", "name": f"sent{hand_size}.rules"}


def chain(workspace: Path, depth: int) -> str:
    """A workspace file `depth` files deep, each extending the one before."""
    parent = "equal-hands"
    for level in range(depth):
        name = f"level{level}.rules"
        body = "    trump none\n" if level % 2 else ""
        (workspace / name).write_text(f'profile "l{level}" extends "{parent}" {{\n{body}}}\n')
        parent = name
    return parent


PLAIN = st.fixed_dictionaries(
    {"bots": st.sampled_from(["random", "heuristic", "lowest"]), "hands": st.integers(5000, 20000)}
)
SEARCHING = st.fixed_dictionaries(
    {
        "bots": st.sampled_from(["pimc:200", "ismcts:200", "pimc:20", "heuristic"]),
        "good_play": st.sampled_from(["pimc:100", "ismcts:50", None]),
        "hands": st.integers(50, 200),
    }
).filter(lambda body: body["bots"] != "heuristic" or body["good_play"] is not None)
PROFILE = st.one_of(
    st.sampled_from(shipped_names()),
    st.integers(3, 7).map(text_profile),
    st.integers(1, 8).map(lambda depth: ("chain", depth)),
)
COMPARISON = st.fixed_dictionaries(
    {
        "profiles": st.lists(PROFILE, min_size=2, max_size=6, unique_by=str),
        "players": st.sampled_from([4, 5]),  # every shipped profile seats 4 or 5
        "seed": st.integers(0, 2**32),
    }
).flatmap(lambda base: st.one_of(PLAIN, SEARCHING).map(lambda more: {**base, **more}))


def placed(body: dict, workspace: Path) -> dict:
    """The body, each drawn chain of files written and named."""
    refs = [chain(workspace, ref[1]) if isinstance(ref, tuple) else ref for ref in body["profiles"]]
    return {**body, "profiles": refs}


def started(client: TestClient, body: dict) -> dict:
    answer = client.post("/api/compare", json=body)
    assert answer.status_code == 200, answer.json()
    return answer.json()


def cancelled(client: TestClient, job: str) -> dict:
    answer = client.delete(f"/api/jobs/{job}")
    assert answer.status_code == 200
    state = answer.json()
    assert state["state"] == "cancelled", state
    return state


@settings(
    max_examples=examples(12, 48),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=COMPARISON, wait=st.booleans(), workers=st.sampled_from([1, 2]))
def test_a_cancelled_comparison_frees_its_slot_and_its_work_stops(
    tmp_path: Path, body: dict, wait: bool, workers: int
):
    body = placed(body, tmp_path)
    with app_client(tmp_path, workers=workers) as client:
        first = started(client, body)["job"]
        if wait:  # cancelled at work, else perhaps before its processes start
            until(children, "the comparison's processes started")
        done = cancelled(client, first)["done"]
        second = started(client, body)["job"]  # the slot is free at once
        cancelled(client, second)
        until(no_children, "every worker process ended")
        assert client.get(f"/api/jobs/{first}").json() == {**done_state(first, body), "done": done}
        assert client.get(f"/api/jobs/{first}/result").status_code == 409


def done_state(job: str, body: dict) -> dict:
    return {"job": job, "state": "cancelled", "total": body["hands"], "unit": "hand", "error": None}


def test_a_comparison_cancelled_part_way_keeps_its_count_and_plays_no_more(tmp_path: Path):
    body = {"profiles": ["equal-hands", "no-trumps"], "hands": 20000, "bots": "random"}
    with app_client(tmp_path, workers=2) as client:
        job = started(client, body)["job"]
        until(lambda: client.get(f"/api/jobs/{job}").json()["done"] > 0, "some hands played")
        done = cancelled(client, job)["done"]
        assert 0 < done < 20000
        until(no_children, "the comparison's processes ended")
        time.sleep(0.5)  # time enough for a task the workers might still be playing
        assert client.get(f"/api/jobs/{job}").json()["done"] == done


def test_cancelling_twice_or_after_the_end_changes_nothing(tmp_path: Path):
    with app_client(tmp_path) as client:
        body = {"profiles": ["equal-hands", "no-trumps"], "hands": 20, "seed": 3}
        job = started(client, body)["job"]
        until(lambda: client.get(f"/api/jobs/{job}").json()["state"] == "done", "done")
        assert client.delete(f"/api/jobs/{job}").json()["state"] == "done"
        assert client.get(f"/api/jobs/{job}/result").status_code == 200
        slow = started(client, {**body, "hands": 20000})["job"]
        assert cancelled(client, slow) == cancelled(client, slow)


def test_a_finished_comparison_leaves_its_processes_to_the_next_and_closing_ends_them(
    tmp_path: Path,
):
    body = {"profiles": ["equal-hands", "no-trumps"], "hands": 20}
    seen = []
    with app_client(tmp_path, workers=2) as client:
        for seed in range(3):
            job = started(client, {**body, "seed": seed})["job"]
            until(lambda job=job: client.get(f"/api/jobs/{job}").json()["state"] == "done", "done")
            seen.append({p.pid for p in children()})
    assert len(seen[0]) == 2 and seen == [seen[0]] * 3
    until(no_children, "the app closed its processes")


def test_closing_the_app_cancels_its_running_comparisons(tmp_path: Path):
    body = {"profiles": ["equal-hands", "no-trumps"], "hands": 20000}
    with app_client(tmp_path, jobs=2) as client:
        jobs = [started(client, {**body, "seed": seed})["job"] for seed in range(2)]
        until(lambda: len(children()) == 2, "both comparisons at work")
        app = client.app
    assert no_children()
    states = [app.state.server.jobs.get(job).state for job in jobs]
    assert states == ["cancelled", "cancelled"]
    with pytest.raises(ApiError, match="stopping") as refused:
        app.state.server.jobs.start(app.state.server.jobs.get(jobs[0]).spec)
    assert refused.value.status == 503
