"""Simulation on a Dask cluster gives the numbers of a local run."""

from __future__ import annotations

import json

import pytest

from rulesdsl.surfaces.main import main

distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def scheduler():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address.replace("tcp://", "dask://")


def test_a_dask_run_equals_a_local_run(scheduler, capsys):
    args = ["compare", "equal-hands", "instant-elimination", "--hands", "800", "--json"]
    assert main([*args, "--workers", "1"]) == 0
    local = capsys.readouterr().out
    assert main([*args, "--executor", scheduler]) == 0
    assert capsys.readouterr().out == local


def test_matches_on_dask_equal_local(scheduler, capsys):
    args = ["simulate", "gamerules-lift-smoke", "--matches", "300", "--json"]
    assert main([*args, "--workers", "2"]) == 0
    local = capsys.readouterr().out
    assert main([*args, "--executor", scheduler]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(local)


@pytest.mark.parametrize(
    ("executor", "message"),
    [
        ("dask:/nowhere", "expected local or dask://HOST:PORT"),
        ("dask://127.0.0.1:1", "cannot reach a Dask scheduler at tcp://127.0.0.1:1"),
    ],
)
def test_a_bad_executor_is_a_usage_error(capsys, monkeypatch, executor, message):
    monkeypatch.setattr("rulesdsl.reason.executors.CONNECT_TIMEOUT", "1s")
    assert main(["simulate", "equal-hands", "--hands", "10", "--executor", executor]) == 2
    assert message in capsys.readouterr().err
