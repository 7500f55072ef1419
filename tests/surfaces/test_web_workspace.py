"""The workspace over HTTP: listing, loading and saving profiles in its folder and nowhere
else; a save over a version another tab saved is refused and changes nothing."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples
from starlette.testclient import TestClient

from rulesdsl.surfaces.web.app import create_app
from rulesdsl.surfaces.web.workspace import NAME, check_name

BASE = "http://127.0.0.1:8765"
TEXT = 'profile "house" extends "equal-hands" {\n    hand_size 5\n}\n'


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    inside = tmp_path / "ws"
    inside.mkdir()
    return inside


@pytest.fixture
def client(folder: Path) -> TestClient:
    return TestClient(create_app(folder), base_url=BASE)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_new_file_is_saved_then_listed_and_loaded(client: TestClient, folder: Path):
    saved = client.put("/api/workspace/house.rules", json={"text": TEXT, "version": None})
    assert saved.status_code == 200 and saved.json()["version"] == digest(TEXT)
    assert (folder / "house.rules").read_text() == TEXT
    (listed,) = client.get("/api/workspace").json()["files"]
    assert listed == {
        "name": "house.rules",
        "syntax": "dsl",
        "bytes": len(TEXT),
        "version": digest(TEXT),
    }
    loaded = client.get("/api/workspace/house.rules").json()
    assert (loaded["text"], loaded["version"]) == (TEXT, digest(TEXT))
    assert client.get("/api/profiles/house.rules").json()["origin"] == "workspace"


def test_a_save_names_the_version_it_replaces(client: TestClient, folder: Path):
    client.put("/api/workspace/house.rules", json={"text": TEXT, "version": None})
    changed = TEXT.replace("5", "6")
    answer = client.put(
        "/api/workspace/house.rules", json={"text": changed, "version": digest(TEXT)}
    )
    assert answer.status_code == 200
    assert (folder / "house.rules").read_text() == changed


def test_a_save_over_another_tabs_save_is_409_and_writes_nothing(client: TestClient, folder: Path):
    client.put("/api/workspace/house.rules", json={"text": TEXT, "version": None})
    other = TEXT.replace("5", "6")
    client.put("/api/workspace/house.rules", json={"text": other, "version": digest(TEXT)})
    late = client.put("/api/workspace/house.rules", json={"text": "lost", "version": digest(TEXT)})
    assert late.status_code == 409
    assert late.json()["version"] == digest(other)
    assert (folder / "house.rules").read_text() == other


def test_a_new_file_over_an_existing_one_is_409(client: TestClient, folder: Path):
    (folder / "house.rules").write_text(TEXT)
    answer = client.put("/api/workspace/house.rules", json={"text": "x", "version": None})
    assert answer.status_code == 409 and (folder / "house.rules").read_text() == TEXT


def test_a_save_leaves_no_temporary_file(client: TestClient, folder: Path):
    client.put("/api/workspace/house.rules", json={"text": TEXT, "version": None})
    assert sorted(p.name for p in folder.iterdir()) == ["house.rules"]


@pytest.mark.parametrize(
    "name",
    [
        "..%2Fout.rules",
        "%2Ftmp%2Fout.rules",
        "sub%2Fout.rules",
        ".hidden.rules",
        "-dash.rules",
        "notes.txt",
        "house",
        "a" * 70 + ".rules",
        "caf%C3%A9.rules",
        "sp%20ace.rules",
    ],
)
def test_a_bad_name_is_400_for_reading_and_saving(client: TestClient, folder: Path, name: str):
    assert client.get(f"/api/workspace/{name}").status_code == 400
    saved = client.put(f"/api/workspace/{name}", json={"text": TEXT, "version": None})
    assert saved.status_code == 400 and "not a workspace file name" in saved.json()["error"]
    assert list(folder.parent.rglob("out.rules")) == []


def test_a_symbolic_link_is_neither_read_nor_written(client: TestClient, folder: Path):
    outside = folder.parent / "outside.rules"
    outside.write_text(TEXT)
    (folder / "link.rules").symlink_to(outside)
    assert client.get("/api/workspace/link.rules").status_code == 400
    digest_now = digest(TEXT)
    saved = client.put("/api/workspace/link.rules", json={"text": "x", "version": digest_now})
    assert saved.status_code == 400 and outside.read_text() == TEXT
    assert client.get("/api/workspace").json()["files"] == []


def test_a_folder_named_as_a_profile_is_not_a_file(client: TestClient, folder: Path):
    (folder / "dir.rules").mkdir()
    assert client.get("/api/workspace/dir.rules").status_code == 400
    assert client.get("/api/workspace").json()["files"] == []


def test_a_missing_file_is_404(client: TestClient):
    assert client.get("/api/workspace/none.rules").status_code == 404


def test_a_file_over_the_limit_is_413(client: TestClient, folder: Path):
    (folder / "big.rules").write_text("#" * 70_000)
    assert client.get("/api/workspace/big.rules").status_code == 413
    big = client.put("/api/workspace/new.rules", json={"text": "#" * 70_000, "version": None})
    assert big.status_code == 413 and not (folder / "new.rules").exists()


def test_a_save_of_bad_fields_is_400(client: TestClient):
    response = client.put("/api/workspace/a.rules", json={"text": TEXT, "version": 3})
    assert response.status_code == 400 and "`version`" in response.json()["error"]


def test_extends_in_the_workspace_reads_the_workspace(client: TestClient, folder: Path):
    (folder / "base.rules").write_text(TEXT)
    child = 'profile "kid" extends "base.rules" {\n    draw 2\n}\n'
    answer = client.post("/api/check", json={"text": child, "name": "kid.rules"}).json()
    assert answer["ok"], answer["diagnostics"]
    assert [d["option"] for d in answer["diff"]] == ["draw"]


def test_extends_out_of_the_workspace_is_refused(client: TestClient, folder: Path):
    (folder.parent / "secret.rules").write_text(TEXT)
    child = 'profile "kid" extends "../secret.rules" {\n}\n'
    answer = client.post("/api/check", json={"text": child, "name": "kid.rules"}).json()
    assert [d["code"] for d in answer["diagnostics"]] == ["extends-outside"]


NAMES = st.one_of(
    st.text(max_size=80),
    st.text(alphabet="./\\-_aZ09~:%\x00 ", max_size=20).map(lambda s: s + ".rules"),
    st.sampled_from(["..", ".", "/", "\\", "~"]).flatmap(
        lambda part: st.lists(st.sampled_from([part, "a", "b.rules"]), max_size=4).map("/".join)
    ),
)


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(name=NAMES)
def test_no_name_writes_outside_the_workspace(folder: Path, name: str):
    client = TestClient(create_app(folder), base_url=BASE)
    before = sorted(folder.parent.rglob("*"))
    response = client.put("/api/workspace/" + _quoted(name), json={"text": TEXT, "version": None})
    written = [p for p in sorted(folder.parent.rglob("*")) if p not in before]
    assert all(p.parent == folder for p in written)
    if response.status_code == 200:
        assert check_name(response.json()["name"]) and NAME.fullmatch(written[0].name)
        os.unlink(written[0])
    else:
        assert response.status_code in (400, 404, 405, 409) and "error" in response.json()


def _quoted(name: str) -> str:
    from urllib.parse import quote

    return quote(name, safe="")
