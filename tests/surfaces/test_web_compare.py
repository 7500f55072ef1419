"""Comparisons as jobs over HTTP: progress, cancel, and a result that is byte for byte what
`rulesdsl compare --json` (or `--csv`) prints for the same arguments."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from rulesdsl.surfaces.main import main
from rulesdsl.surfaces.web.app import create_app
from rulesdsl.surfaces.web.jobs import Job
from rulesdsl.surfaces.web.limits import Limits

BASE = "http://127.0.0.1:8765"
PAIR = ["equal-hands", "instant-elimination"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path), base_url=BASE) as opened:  # closed: processes end
        yield opened


def finished(client: TestClient, job: str) -> dict:
    """The job's state once it is no longer running."""
    for _ in range(600):
        state = client.get(f"/api/jobs/{job}").json()
        if state["state"] != "running":
            return state
        time.sleep(0.05)
    raise AssertionError("the job is still running after 30 s")


@pytest.fixture
def compare(capsys):
    """What `rulesdsl compare ARGS` prints on stdout (run in this process)."""

    def printed(*args: str) -> str:
        capsys.readouterr()
        assert main(["compare", *args]) == 0
        return capsys.readouterr().out

    return printed


def test_a_jobs_result_is_what_compare_prints(client: TestClient, compare):
    body = {"profiles": PAIR, "players": 4, "hands": 40, "bots": "random", "seed": 5}
    job = client.post("/api/compare", json=body).json()["job"]
    state = finished(client, job)
    assert state == {
        "job": job,
        "state": "done",
        "done": 40,
        "total": 40,
        "unit": "hand",
        "error": None,
    }
    args = [*PAIR, "--hands", "40", "--seed", "5", "--players", "4"]
    answer = client.get(f"/api/jobs/{job}/result")
    assert answer.headers["content-type"] == "application/json"
    assert answer.content == compare(*args, "--json").encode()
    csv = client.get(f"/api/jobs/{job}/result?format=csv")
    assert csv.content == compare(*args, "--csv").encode()


def test_a_workspace_file_is_labelled_as_the_command_line_labels_it(
    client: TestClient, tmp_path: Path, compare, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.rules").write_text(
        'profile "house" extends "equal-hands" {\n    hand_size 5\n}\n'
    )
    body = {"profiles": ["equal-hands", "house.rules"], "hands": 20, "bots": ["heuristic"]}
    job = client.post("/api/compare", json=body).json()["job"]
    assert finished(client, job)["state"] == "done"
    printed = compare(
        "equal-hands", "house.rules", "--hands", "20", "--bots", "heuristic", "--json"
    )
    assert client.get(f"/api/jobs/{job}/result").text == printed


def test_a_job_compares_with_the_baseline_it_names_as_compare_does(client: TestClient, compare):
    three = [*PAIR, "seven-card-hands"]
    body = {"profiles": three, "hands": 20, "bots": "random", "seed": 5, "baseline": 2}
    job = client.post("/api/compare", json=body).json()["job"]
    assert finished(client, job)["state"] == "done"
    args = [*three, "--hands", "20", "--seed", "5", "--baseline", "seven-card-hands"]
    printed = compare(*args, "--json")
    assert client.get(f"/api/jobs/{job}/result").text == printed
    data = json.loads(printed)
    assert data["baseline"] == "seven-card-hands"
    assert {v["baseline"] for v in data["verdicts"]} == {"seven-card-hands"}
    assert data["summary"][0].startswith("equal-hands: ")


def printed_alike(client: TestClient, compare, body: dict, *args: str) -> str:
    """The result of a job of `body` and 20 hands, asserted byte-equal to what `compare`
    prints with `args`."""
    body = {"profiles": PAIR, "hands": 20, "bots": "random", "seed": 5, **body}
    job = client.post("/api/compare", json=body).json()["job"]
    assert finished(client, job)["state"] == "done"
    printed = compare(*PAIR, "--hands", "20", "--seed", "5", *args, "--json")
    assert client.get(f"/api/jobs/{job}/result").text == printed
    return printed


def test_a_job_splits_the_differences_among_the_rules_as_compare_attribute_does(
    client: TestClient, compare
):
    body = {"profiles": PAIR, "hands": 20, "bots": "random", "seed": 5, "attribute": True}
    data = json.loads(printed_alike(client, compare, {"attribute": True}, "--attribute"))
    assert data["attribution"] and data["attribution_summary"][0].startswith("which rule caused")
    plain = client.post("/api/compare", json={**body, "attribute": False}).json()["job"]
    finished(client, plain)
    assert "attribution" not in client.get(f"/api/jobs/{plain}/result").json()


def test_a_job_plays_until_decided_as_compare_does_with_its_hands_the_most(
    client: TestClient, compare
):
    body = {"profiles": PAIR, "hands": 500, "bots": "random", "seed": 5, "until_decided": True}
    answer = client.post("/api/compare", json=body).json()
    assert answer["total"] == 500
    assert finished(client, answer["job"])["state"] == "done"
    printed = compare(*PAIR, "--until-decided", "--max-hands", "500", "--seed", "5", "--json")
    assert client.get(f"/api/jobs/{answer['job']}/result").text == printed
    stopping = json.loads(printed)["stopping"]
    assert (stopping["hands"], stopping["max_hands"]) == (500, 500)


def test_a_job_until_decided_takes_its_error_rate_and_measures_as_compare_does(
    client: TestClient, compare
):
    body = {
        "profiles": PAIR,
        "hands": 400,
        "bots": "random",
        "seed": 2,
        "until_decided": True,
        "alpha": 0.2,
        "metrics": ["tricks", "no_winner"],
    }
    job = client.post("/api/compare", json=body).json()["job"]
    assert finished(client, job)["state"] == "done"
    printed = compare(
        *PAIR, "--until-decided", "--max-hands", "400", "--seed", "2", "--alpha", "0.2",
        "--metrics", "tricks,no_winner", "--json",
    )  # fmt: skip
    assert client.get(f"/api/jobs/{job}/result").text == printed
    stopping = json.loads(printed)["stopping"]
    assert stopping["alpha"] == 0.2 and stopping["metrics"] == ["tricks", "no_winner"]


@pytest.mark.parametrize(
    ("more", "words"),
    [
        ({"alpha": 0.1}, "go with `until_decided`"),
        ({"until_decided": True, "alpha": 1.5}, "`alpha` 1.5: it must lie between 0 and 1"),
        ({"until_decided": True, "metrics": ["trick"]}, "did you mean 'tricks'"),
        ({"until_decided": True, "metrics": [3]}, "a list of at most 200 metric names"),
        ({"until_decided": True, "alpha": "x"}, "`alpha` must be"),
    ],
)
def test_a_bad_error_rate_or_measure_is_refused_with_what_is_expected(
    client: TestClient, more, words
):
    body = {"profiles": PAIR, "hands": 40, "bots": "random", **more}
    answer = client.post("/api/compare", json=body)
    assert answer.status_code == 400 and words in answer.json()["error"]


def test_the_json_holds_what_the_plots_draw(client: TestClient):
    body = {"profiles": PAIR, "hands": 4, "bots": "heuristic", "good_play": "pimc:1"}
    job = client.post("/api/compare", json=body).json()["job"]
    assert finished(client, job)["state"] == "done"
    data = client.get(f"/api/jobs/{job}/result").json()
    names = [m["name"] for m in data["metrics"]]
    assert {"win_seat_0", "skill", "good_skill", "fires_follow"} <= set(names)
    profile = data["profiles"]["equal-hands"]
    assert set(profile["metrics"]) == set(names)
    assert {"mean", "low", "high", "n"} <= set(profile["metrics"]["win_seat_0"])
    assert sum(profile["hand_length"].values()) == 4


def test_a_cancelled_job_stops_and_has_no_result(tmp_path: Path, monkeypatch):
    gate = threading.Event()
    heard = Job._progress

    def waiting(job: Job, done: int) -> None:
        heard(job, done)
        gate.wait(30)

    monkeypatch.setattr(Job, "_progress", waiting)
    with TestClient(create_app(tmp_path), base_url=BASE) as client:
        body = {"profiles": PAIR, "hands": 1000, "bots": "random"}
        job = client.post("/api/compare", json=body).json()["job"]
        assert client.delete(f"/api/jobs/{job}").status_code == 200
        gate.set()
        state = finished(client, job)
        assert state["state"] == "cancelled" and state["done"] < 1000
        assert client.get(f"/api/jobs/{job}/result").status_code == 409


def test_running_jobs_are_bounded(tmp_path: Path, monkeypatch):
    gate = threading.Event()
    monkeypatch.setattr(Job, "_progress", lambda job, done: gate.wait(30))
    with TestClient(create_app(tmp_path, limits=Limits(jobs=1)), base_url=BASE) as client:
        body = {"profiles": PAIR, "hands": 500}
        first = client.post("/api/compare", json=body).json()["job"]
        second = client.post("/api/compare", json=body)
        assert second.status_code == 400 and "running" in second.json()["error"]
        client.delete(f"/api/jobs/{first}")
        gate.set()
        assert finished(client, first)["state"] == "cancelled"


def test_a_job_that_cannot_reach_its_executor_fails_saying_why(tmp_path: Path, monkeypatch):
    pytest.importorskip("dask.distributed")
    monkeypatch.setattr("rulesdsl.reason.executors.CONNECT_TIMEOUT", "1s")
    with TestClient(create_app(tmp_path, executor="dask://127.0.0.1:1"), base_url=BASE) as client:
        job = client.post("/api/compare", json={"profiles": PAIR, "hands": 10}).json()["job"]
        state = finished(client, job)
        assert state["state"] == "failed" and "127.0.0.1:1" in state["error"]


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"profiles": ["equal-hands"]}, "compare takes 2"),
        ({"hands": 10**9}, "`hands` is 1000000000"),
        ({"hands": 0}, "`hands` is 0"),
        ({"bots": "pimc:5", "hands": 5000}, "`hands` is 5000"),
        ({"good_play": "ismcts:100000"}, "1 to 10,000"),
        ({"bots": ["random", "heuristic"]}, "one per seat"),
        ({"players": 2, "profiles": ["bicycle", "equal-hands"]}, "bicycle"),
        ({"seed": "x"}, "`seed`"),
        ({"baseline": 2}, "`baseline` is 2; it must be from 0 to 1"),
        ({"baseline": "equal-hands"}, "`baseline` must be"),
        ({"format": 1, "profiles": "equal-hands"}, "`profiles` must be a list"),
    ],
)
def test_a_bad_comparison_is_refused_by_what_is_wrong(client: TestClient, body: dict, said: str):
    answer = client.post("/api/compare", json={"profiles": PAIR, **body})
    assert answer.status_code == 400 and said in answer.json()["error"], answer.json()


def test_an_unknown_job_is_404_and_a_bad_format_400(client: TestClient):
    assert client.get("/api/jobs/nothing").status_code == 404
    assert client.delete("/api/jobs/nothing").status_code == 404
    job = client.post("/api/compare", json={"profiles": PAIR, "hands": 5}).json()["job"]
    finished(client, job)
    assert client.get(f"/api/jobs/{job}/result?format=xml").status_code == 400


def test_a_run_told_to_stop_returns_what_it_gathered_marked_interrupted():
    from rulesdsl.read.profile import load
    from rulesdsl.reason.sim import Spec, run

    rules = load("equal-hands").rules
    spec = Spec(profiles=(("a", rules), ("b", rules)), units=1000)
    result = run(spec, 1, stop=lambda: True)
    assert result.interrupted and 0 < result.units.n < 1000


def test_compare_json_names_every_metric_it_holds(compare):
    data = json.loads(compare(*PAIR, "--hands", "5", "--json"))
    names = [m["name"] for m in data["metrics"]]
    assert names == list(data["profiles"]["equal-hands"]["metrics"])
    assert all(
        isinstance(m["label"], str) and isinstance(m["share"], bool) for m in data["metrics"]
    )


def _job_result(app_client: TestClient, body: dict) -> str:
    job = app_client.post("/api/compare", json=body).json()["job"]
    assert finished(app_client, job)["state"] == "done"
    return app_client.get(f"/api/jobs/{job}/result").text


def test_a_job_on_local_processes_or_dask_gives_the_same_bytes(tmp_path: Path, compare):
    distributed = pytest.importorskip("dask.distributed")
    body = {"profiles": PAIR, "hands": 500, "seed": 9}
    printed = compare(*PAIR, "--hands", "500", "--seed", "9", "--json")
    with TestClient(create_app(tmp_path, workers=2), base_url=BASE) as pool:
        assert _job_result(pool, body) == printed
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address.replace("tcp://", "dask://")
        with TestClient(create_app(tmp_path, executor=address), base_url=BASE) as on_dask:
            assert _job_result(on_dask, body) == printed


def test_a_job_plays_each_deal_from_every_seat_as_compare_rotate_seats_does(
    client: TestClient, compare
):
    printed = printed_alike(client, compare, {"rotate_seats": True}, "--rotate-seats")
    assert json.loads(printed)["rotate_seats"] is True
    body = {"profiles": PAIR, "hands": 42, "rotate_seats": True}
    refused = client.post("/api/compare", json=body)
    assert refused.status_code == 400 and "multiple of 4" in refused.json()["error"]
