"""The web API's editor routes over HTTP: meta, profiles, check, and the refusals every
route shares (Host, Origin, content type, body size, bad JSON, errors without internals)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples
from starlette.testclient import TestClient

from rulesdsl.read.profile import shipped_names
from rulesdsl.surfaces.main import main
from rulesdsl.surfaces.web.app import create_app
from rulesdsl.surfaces.web.checking import UNWRAPPED
from rulesdsl.surfaces.web.limits import Limits
from rulesdsl.words.explain import languages
from rulesdsl.words.highlight import WordKind

BASE = "http://127.0.0.1:8765"
TYPO = (
    'profile "house" extends "equal-hands" {\n'
    "    hand_size players + 1\n"
    "    elimnation immediate\n"
    "}\n"
)


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path), base_url=BASE)


@pytest.fixture
def rulesdsl(capsys):
    """What `rulesdsl ARGS` prints on stdout (run in this process)."""

    def printed(*args: str) -> str:
        capsys.readouterr()
        main(list(args))
        return capsys.readouterr().out

    return printed


def test_meta_lists_languages_bots_profiles_and_limits(client: TestClient, tmp_path: Path):
    (tmp_path / "mine.yaml").write_text("profile: mine\n")
    meta = client.get("/api/meta").json()
    assert meta["languages"] == list(languages())
    assert {"random", "heuristic", "pimc:N", "ismcts:N"} <= set(meta["bots"])
    shipped = {p["name"] for p in meta["profiles"] if p["origin"] == "shipped"}
    assert shipped == set(shipped_names())
    assert {"name": "mine.yaml", "syntax": "yaml", "origin": "workspace"} in meta["profiles"]
    assert meta["limits"]["body_bytes"] == Limits().body_bytes


def test_every_answer_carries_the_page_headers(client: TestClient):
    for response in (client.get("/api/meta"), client.get("/api/nothing")):
        assert response.headers["x-content-type-options"] == "nosniff"
        assert "default-src 'self'" in response.headers["content-security-policy"]


def test_a_shipped_profile_is_sent_as_its_file_says(client: TestClient):
    answer = client.get("/api/profiles/equal-hands").json()
    assert answer["origin"] == "shipped" and answer["syntax"] == "dsl"
    assert 'profile "equal-hands"' in answer["text"]


def test_an_unknown_profile_is_404_and_a_bad_name_400(client: TestClient):
    assert client.get("/api/profiles/nothing.rules").status_code == 404
    assert client.get("/api/profiles/..%2F..%2Fetc%2Fpasswd").status_code == 400


def test_check_gives_the_diagnostic_with_its_fix(client: TestClient):
    answer = client.post("/api/check", json={"text": TYPO, "syntax": "dsl", "lang": "en"}).json()
    assert answer["ok"] is False
    (found,) = answer["diagnostics"]
    assert (found["code"], found["line"], found["column"]) == ("unknown-option", 3, 5)
    assert found["end_column"] == 5 + len("elimnation")
    assert found["fix"]["text"] == "elimination"
    assert (found["fix"]["line"], found["fix"]["column"]) == (3, 5)
    assert answer["sheet"] is None and answer["diff"] is None


def test_the_diagnostics_are_those_validate_prints(client: TestClient, tmp_path: Path, rulesdsl):
    (tmp_path / "house.rules").write_text(TYPO)
    printed = json.loads(rulesdsl("validate", "--format", "json", str(tmp_path)))
    body = {"text": TYPO, "syntax": "dsl", "name": "house.rules"}
    answered = client.post("/api/check", json=body).json()["diagnostics"]
    said = [(d["line"], d["column"], d["code"], d["message"], d["hint"]) for d in printed]
    assert said == [(d["line"], d["column"], d["code"], d["message"], d["hint"]) for d in answered]


def test_a_fixed_text_gets_the_sheet_the_diff_and_the_tokens(
    client: TestClient, tmp_path: Path, rulesdsl, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    text = TYPO.replace("elimnation", "elimination")
    (tmp_path / "house.rules").write_text(text)
    body = {"text": text, "syntax": "dsl", "lang": "pt", "name": "house.rules"}
    answer = client.post("/api/check", json=body).json()
    assert answer["ok"] and answer["parent"] == "equal-hands"
    explained = rulesdsl("explain", "--lang", "pt", "--width", str(UNWRAPPED), "house.rules")
    assert answer["sheet"] == explained and max(map(len, explained.splitlines())) > 80
    differ = rulesdsl("diff", "--format", "json", "equal-hands", "house.rules")
    assert answer["diff"] == json.loads(differ)
    assert [d["option"] for d in answer["diff"]] == ["hand_size", "elimination"]
    first = answer["tokens"][0]
    assert first == {"line": 1, "column": 1, "length": 7, "kind": WordKind.KEYWORD}


def test_a_rule_that_can_never_act_is_listed_dead(client: TestClient):
    text = 'profile "p" extends "equal-hands" {\n    exhaustion reshuffle\n    draw 0\n}\n'
    answer = client.post("/api/check", json={"text": text, "syntax": "dsl"}).json()
    assert answer["ok"], answer["diagnostics"]
    assert "exhaustion" in {d["rule"] for d in answer["dead"]}


def test_check_reads_yaml(client: TestClient):
    text = "profile: y\nextends: equal-hands\nhand_size: 5\n"
    answer = client.post("/api/check", json={"text": text, "syntax": "yaml"}).json()
    assert answer["ok"] and answer["diff"][0]["option"] == "hand_size"
    assert {"line": 3, "column": 1, "length": 9, "kind": "option"} in answer["tokens"]


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"syntax": "dsl"}, "`text` is missing"),
        ({"text": 5}, "`text` must be a string"),
        ({"text": "", "syntax": "xml"}, "`syntax`"),
        ({"text": "", "lang": "fr"}, "`lang`"),
        ({"text": "", "name": "../x.rules"}, "not a workspace file name"),
        ({"text": "", "name": "a.yaml", "syntax": "dsl"}, "is a yaml file"),
    ],
)
def test_check_refuses_a_bad_field_by_name(client: TestClient, body: dict, said: str):
    response = client.post("/api/check", json=body)
    assert response.status_code == 400 and said in response.json()["error"]


def test_a_profile_over_the_limit_is_413(client: TestClient):
    text = "#" * (Limits().profile_bytes + 1)
    assert client.post("/api/check", json={"text": text}).status_code == 413


def test_a_body_over_the_limit_is_413(client: TestClient):
    body = json.dumps({"text": "#" * (Limits().body_bytes + 1)})
    response = client.post("/api/check", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 413 and "bytes" in response.json()["error"]


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("{", "not JSON"),
        ("[1]", "a JSON object"),
        (b"\xff\xfe", "not UTF-8"),
        ("[" * 100_000 + "]" * 100_000, "too deep"),
        ('{"seed": ' + "9" * 5000 + "}", "cannot be read"),
    ],
)
def test_a_body_that_is_not_a_json_object_is_400(client: TestClient, content, said: str):
    headers = {"content-type": "application/json"}
    response = client.post("/api/check", content=content, headers=headers)
    assert response.status_code == 400 and said in response.json()["error"]


def test_a_body_of_another_type_is_415(client: TestClient):
    response = client.post("/api/check", content="text=x", headers={"content-type": "text/plain"})
    assert response.status_code == 415 and "application/json" in response.json()["error"]


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1:x", ""])
def test_another_host_is_refused(client: TestClient, host: str):
    response = client.get("/api/meta", headers={"host": host})
    assert response.status_code == 403 and "Host" in response.json()["error"]


@pytest.mark.parametrize("host", ["localhost:8765", "[::1]:8765", "127.0.0.1"])
def test_this_machine_is_served_by_any_of_its_names(client: TestClient, host: str):
    assert client.get("/api/meta", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("origin", ["http://evil.example", "null"])
def test_a_request_from_another_sites_page_is_refused(client: TestClient, origin: str):
    body = {"text": TYPO}
    response = client.post("/api/check", json=body, headers={"origin": origin})
    assert response.status_code == 403


def test_a_failure_says_what_failed_without_a_traceback(tmp_path: Path, monkeypatch):
    from rulesdsl.surfaces.web import checking

    def broken(*args):
        raise RuntimeError("/secret/path line 12")

    monkeypatch.setattr(checking, "checked_text", broken)
    client = TestClient(create_app(tmp_path), base_url=BASE, raise_server_exceptions=False)
    response = client.post("/api/check", json={"text": TYPO})
    assert response.status_code == 500
    said = response.json()["error"]
    assert "POST /api/check" in said and "secret" not in said and "Traceback" not in said


def test_an_unknown_route_is_a_json_404(client: TestClient):
    response = client.get("/api/nothing")
    assert response.status_code == 404 and "error" in response.json()


def test_a_lone_surrogate_is_400_not_a_failure(client: TestClient):
    body = '{"text": "profile \\"x\\" {\\ud800}"}'
    headers = {"content-type": "application/json"}
    response = client.post("/api/check", content=body, headers=headers)
    assert response.status_code == 400 and "surrogate" in response.json()["error"]


HOSTILE = st.one_of(
    st.text(max_size=200),
    st.lists(
        st.sampled_from(
            [
                'profile "p" extends "equal-hands" {',
                "}",
                "hand_size ",
                "players",
                "+",
                '"',
                "#",
                "\n",
                "rule r {",
                "refuse",
                "assumed",
                "\u202e",
                "\x00",
                ":",
                "  - ",
            ]
        ),
        max_size=30,
    ).map("".join),
)


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(text=HOSTILE, syntax=st.sampled_from(["dsl", "yaml"]))
def test_any_text_is_answered_never_failed(client: TestClient, text: str, syntax: str):
    answer = client.post("/api/check", json={"text": text, "syntax": syntax})
    assert answer.status_code == 200
    found = answer.json()
    assert found["ok"] == (found["sheet"] is not None)
    lines = text.split("\n")
    spans = [(t["line"], t["column"], t["length"]) for t in found["tokens"]]
    assert spans == sorted(spans)
    assert all(column + length - 1 <= len(lines[line - 1]) for line, column, length in spans)
    for (line, column, length), after in itertools.pairwise(spans):
        assert after[0] > line or after[1] >= column + length  # no overlap


@pytest.mark.parametrize(
    "path", ["/static/..%2Fapp.py", "/static/%2e%2e/app.py", "/static/../app.py"]
)
def test_static_files_stay_in_their_folder(client: TestClient, path: str):
    response = client.get(path)
    assert response.status_code == 404 and "create_app" not in response.text


def test_a_route_asked_with_the_wrong_method_is_a_json_405(client: TestClient):
    response = client.get("/api/check")
    assert response.status_code == 405 and "method" in response.json()["error"]


def test_the_docs_state_the_servers_bounds():
    page = (Path(__file__).parents[2] / "docs" / "web.md").read_text()
    start = page.index("- Bounds:")
    said = " ".join(page[start : page.index("\n- ", start + 1)].split())
    limits = Limits()
    for figure in (
        f"{limits.body_bytes // 1024} KiB",
        f"a profile {limits.profile_bytes // 1024} KiB",
        f"{limits.hands:,} hands",
        f"({limits.search_hands} with a search bot",
        f"pimc:{limits.search_n}",
        f"{limits.players_max} players",
        f"{limits.jobs} comparisons at once",
        f"{limits.tables} open tables",
    ):
        assert figure in said
