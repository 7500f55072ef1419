"""Play over HTTP: a table on the engine, bots moving until the person's turn, refused cards
with their rule and sentence, replays, and the trace `rulesdsl play --trace` writes."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from rulesdsl.read.profile import load
from rulesdsl.surfaces.main import main
from rulesdsl.surfaces.web.app import create_app
from rulesdsl.surfaces.web.limits import Limits
from rulesdsl.words.explain import phrases

BASE = "http://127.0.0.1:8765"
BOTS = ["human", "heuristic", "random", "lowest"]


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path), base_url=BASE)


def start(client: TestClient, **body) -> dict:
    answer = client.post("/api/play", json={"profile": "equal-hands", "players": 4, **body})
    assert answer.status_code == 200, answer.json()
    return answer.json()


def refused_state(client: TestClient) -> dict:
    """A table where the rules refuse the person a card they hold."""
    for seed in range(50):
        state = start(client, bots=BOTS, seed=seed)
        if state["refused"]:
            return state
    raise AssertionError("no seed of 50 refuses a card")


def test_bots_move_until_the_persons_turn(client: TestClient):
    state = start(client, bots=BOTS, seed=7)
    assert state["to_play"] == 0 and state["seed"] == 7 and not state["finished"]
    you, *others = state["seats"]
    assert len(you["hand"]) == you["cards"] and all(s["hand"] is None for s in others)
    assert sorted(state["legal"] + [r["card"] for r in state["refused"]]) == sorted(you["hand"])
    assert state["trump"]["suit"] in "SHDC" and state["stock"] > 0
    assert state["dealer"] in range(4) and "deals" in state["log"][0]


def test_a_refused_card_is_422_with_its_rule_and_sentence(client: TestClient):
    state = refused_state(client)
    refused = state["refused"][0]
    answer = client.post(f"/api/play/{state['id']}/move?lang=pt", json={"card": refused["card"]})
    assert answer.status_code == 422
    said = answer.json()
    assert (said["card"], said["rule"]) == (refused["card"], refused["rule"])
    assert said["sentence"] != refused["sentence"]  # in Portuguese, asked for
    again = client.get(f"/api/play/{state['id']}?lang=pt").json()
    assert {r["sentence"] for r in again["refused"]} == {said["sentence"]}
    assert again["to_play"] == 0  # nothing was played


def test_the_refusal_sentence_is_the_one_play_uses(client: TestClient):
    state = refused_state(client)
    refused = state["refused"][0]
    sentences = phrases("en").get("refusals", refused["rule"])
    assert any(refused["sentence"].startswith(s.split("{")[0]) for s in sentences.values())


def test_a_hand_played_to_its_end_has_a_result_a_replay_and_a_trace(client: TestClient):
    state = start(client, bots=BOTS, seed=3)
    key = state["id"]
    assert client.get(f"/api/play/{key}/trace").status_code == 409  # it shows every hand
    while not state["finished"]:
        state = client.post(f"/api/play/{key}/move", json={"card": state["legal"][0]}).json()
    assert state["result"]["reason"] and state["to_play"] is None
    steps = client.get(f"/api/play/{key}/replay").json()["steps"]
    assert all(all(seat["hand"] is not None for seat in step["seats"]) for step in steps)
    plays = sum(1 for step in steps for line in step["events"] if " plays " in line)
    assert plays == len(steps) - 1
    trace = client.get(f"/api/play/{key}/trace")
    assert trace.headers["content-disposition"].startswith("attachment")
    assert trace.text.splitlines()[0].startswith('{"hand": 1, "event": "deal"')


def test_a_bots_match_traces_as_rulesdsl_play_does(client: TestClient, tmp_path: Path):
    bots = ["heuristic", "random", "lowest", "highest"]
    state = start(client, bots=bots, seed=11, match=True)
    while not state["finished"]:
        state = client.post(f"/api/play/{state['id']}/next", json={}).json()
    assert state["match"]["finished"] and state["result"]["match_winners"]
    written = tmp_path / "trace.jsonl"
    args = ["play", "--bots", ",".join(bots), "--seed", "11", "--trace", str(written), "--json"]
    assert main(args) == 0
    assert client.get(f"/api/play/{state['id']}/trace").text == written.read_text()


def test_a_search_bot_takes_a_seat(client: TestClient):
    state = start(client, bots=["human", "pimc:3", "ismcts:3", "heuristic"], seed=1)
    assert [s["bot"] for s in state["seats"]][1:3] == ["pimc:3", "ismcts:3"]


def test_a_profile_sent_as_text_is_played(client: TestClient):
    text = 'profile "t" extends "equal-hands" {\n    hand_size 2\n}\n'
    state = start(client, profile={"text": text, "syntax": "dsl"}, bots="heuristic", seed=2)
    assert state["profile"] == "t" and state["finished"]


def test_next_on_a_single_hand_and_a_move_out_of_turn_are_409(client: TestClient):
    state = start(client, bots="heuristic", seed=2)
    assert client.post(f"/api/play/{state['id']}/next", json={}).status_code == 409
    moved = client.post(f"/api/play/{state['id']}/move", json={"card": "AS"})
    assert moved.status_code == 409


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"bots": ["human", "human", "random", "random"]}, "at most one seat"),
        ({"bots": ["random", "random"]}, "one per seat"),
        ({"bots": "pimc:9999"}, "at most pimc:"),
        ({"bots": "smart"}, "unknown bot"),
        ({"players": 40}, "`players` is 40"),
        ({"players": 1}, "`players` is 1"),
        ({"seed": -1}, "`seed`"),
        ({"match": "yes"}, "`match`"),
        ({"profile": "equal-hand"}, "did you mean"),
        ({"profile": "none.rules"}, "no shipped profile or workspace file"),
        ({"profile": "../x.rules"}, "not a workspace file name"),
        ({"profile": 3}, "a profile is a name"),
    ],
)
def test_a_bad_table_is_refused_by_what_is_wrong(client: TestClient, body: dict, said: str):
    answer = client.post("/api/play", json={"profile": "equal-hands", "players": 4, **body})
    assert answer.status_code in (400, 404) and said in answer.json()["error"]


def test_a_profile_with_errors_is_422_with_its_diagnostics(client: TestClient):
    text = 'profile "t" extends "equal-hands" {\n    hand_sise 2\n}\n'
    answer = client.post("/api/play", json={"profile": {"text": text}, "players": 4})
    assert answer.status_code == 422
    assert answer.json()["diagnostics"][0]["fix"]["text"] == "hand_size"


def test_a_player_count_the_profile_refuses_is_400(client: TestClient):
    answer = client.post("/api/play", json={"profile": "bicycle", "players": 2})
    assert answer.status_code == 400 and "bicycle" in answer.json()["error"]


def test_a_bad_card_is_400_and_an_unknown_table_404(client: TestClient):
    state = start(client, bots=BOTS, seed=7)
    for text in ("ZZ", "AS" + " " * 20 + "x"):
        answer = client.post(f"/api/play/{state['id']}/move", json={"card": text})
        assert answer.status_code == 400 and "not a card" in answer.json()["error"]
    assert client.get("/api/play/nothing").status_code == 404


def test_tables_are_bounded_and_a_finished_one_makes_room(tmp_path: Path):
    client = TestClient(create_app(tmp_path, limits=Limits(tables=2)), base_url=BASE)
    first = start(client, bots="heuristic", seed=1)
    start(client, bots=BOTS, seed=1)
    start(client, bots=BOTS, seed=2)  # the finished first table is closed for it
    assert client.get(f"/api/play/{first['id']}").status_code == 404
    answer = client.post("/api/play", json={"profile": "equal-hands", "bots": BOTS})
    assert answer.status_code == 400 and "finish one" in answer.json()["error"]


@pytest.mark.parametrize("lang", ["en", "pt", "uk"])
def test_a_card_a_stated_rule_refuses_says_the_rules_own_sentence(client: TestClient, lang):
    """What the page's tooltip shows, and the 422 of playing it: the rule's own sentence."""
    own = (load("trumps-broken").house[0].rule.sentence(lang) or "").removesuffix(".")
    bots = ["human", "lowest", "lowest", "lowest"]
    for seed in range(60):
        state = start(client, profile="trumps-broken", bots=bots, seed=seed)
        mine = [r for r in state["refused"] if r["rule"] == "trumps-broken"]
        if mine:
            break
    else:
        raise AssertionError("no seed of 60 has trumps-broken refuse the person a card")
    told = client.get(f"/api/play/{state['id']}?lang={lang}").json()["refused"]
    assert {r["sentence"] for r in told if r["rule"] == "trumps-broken"} == {own}
    answer = client.post(
        f"/api/play/{state['id']}/move?lang={lang}", json={"card": mine[0]["card"]}
    )
    assert answer.status_code == 422
    assert (answer.json()["rule"], answer.json()["sentence"]) == ("trumps-broken", own)
