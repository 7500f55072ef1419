"""simulate and compare under good play: search bots in the paired simulation, the same
figures for any number of workers, and the good-play report."""

from __future__ import annotations

import json

import pytest

from rulesdsl.model.cards import Card
from rulesdsl.play.engine.events import Deal, Draw, Out, Play
from rulesdsl.play.players.search.table import came_back
from rulesdsl.read.profile import load
from rulesdsl.reason import sim
from rulesdsl.reason.sim import Spec, run
from rulesdsl.surfaces.main import main
from rulesdsl.words import report


def spec_of(*names: str, **options) -> Spec:
    return Spec(profiles=tuple((n, load(n).rules) for n in names), **options)


def test_search_bots_give_the_same_figures_for_any_number_of_workers(monkeypatch):
    monkeypatch.setattr(sim, "CHUNK", 3)
    spec = spec_of(
        "equal-hands",
        "instant-elimination",
        units=5,
        bots=("pimc:1", "heuristic", "random", "ismcts:2"),
        good_play="pimc:1",
    )
    one, two = run(spec, 1), run(spec, 2)
    assert report.to_json(one) == report.to_json(two)
    assert one.units.n == 5 and one.good[0].n == 5


def test_the_report_shows_the_steps_of_skill_seats_comebacks_and_coverage_under_good_play(
    capsys,
):
    code = main(
        ["compare", "equal-hands", "bicycle", "--hands", "6", "--good-play", "pimc:1", "--json"]
    )
    out, _ = capsys.readouterr()
    assert code == 0
    data = json.loads(out)
    assert data["good_play"] == "pimc:1"
    metrics = data["profiles"]["bicycle"]["metrics"]
    for key in ("skill", "good_skill", "good_win_seat_0", "good_comeback", "good_fires_follow"):
        assert metrics[key]["n"] == 6
    assert "good_skill" in data["pairs"][0]["b_minus_a"]
    main(["simulate", "equal-hands", "--hands", "3", "--good-play", "pimc:1"])
    text, _ = capsys.readouterr()
    assert "heuristic vs 3 random: win share" in text
    assert "pimc:1 vs 3 heuristic: win share" in text
    assert "good play: won after holding the fewest cards" in text


def test_good_play_without_a_bot_is_off_and_the_default_report_unchanged(capsys):
    main(["simulate", "equal-hands", "--hands", "20", "--json"])
    data = json.loads(capsys.readouterr()[0])
    assert data["good_play"] is None
    assert not [k for k in data["profiles"]["equal-hands"]["metrics"] if k.startswith("good_")]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--good-play", "pimc:0"], "a whole number from 1"),
        (["--good-play", "pimc:1", "--matches", "2"], "give --hands, not --matches"),
        (["--bots", "ismcts:x"], "ismcts:50"),
    ],
)
def test_a_bad_good_play_is_one_line_and_status_2(capsys, args, words):
    code = main(["simulate", "equal-hands", *args])
    _, err = capsys.readouterr()
    assert code == 2 and words in err and "Traceback" not in err


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def test_a_comeback_is_holding_the_fewest_cards_at_the_start_of_a_later_trick():
    deal = Deal(0, (cards("AS KS"), cards("2C 3C"), cards("4D 5D")), 10)
    events = [
        deal,
        Play(1, 1, Card.parse("2C")),
        Play(1, 2, Card.parse("4D")),
        Play(1, 0, Card.parse("AS")),
        Draw(1, 0, cards("6H"), 9),
        Play(2, 0, Card.parse("KS")),  # seats 1 and 2 hold 1 card, seat 0 holds 2
    ]
    assert came_back(events, 1) is False  # seat 1 ties seat 2 for the fewest
    # once seat 2 is out, seat 1's one card is fewer than seat 0's two
    assert came_back([*events[:4], Out(1, 2), *events[4:]], 1) is True
    fewest = [
        deal,
        Play(1, 1, Card.parse("2C")),
        Draw(1, 0, cards("6H"), 9),
        Draw(1, 2, cards("7H"), 8),
        Play(2, 0, Card.parse("KS")),
    ]
    assert came_back(fewest, 1) is True
    assert came_back(fewest[:-1], 1) is False  # never at the start of a later trick


def test_a_profile_the_kernel_cannot_search_is_said_once_and_played_all_the_same(
    capsys, monkeypatch
):
    from rulesdsl.play.kernel import compiled, hands
    from rulesdsl.play.kernel.plan import NotNative
    from rulesdsl.play.native import trust
    from rulesdsl.play.players.search import table

    def refused(*args):
        raise NotNative("not the kernel's")

    monkeypatch.setattr(trust, "_said", set())
    monkeypatch.setattr(compiled, "compiled_profile", refused)
    monkeypatch.setattr(hands, "kernel_player", refused)
    table.kernel_hand.cache_clear()
    argv = ["simulate", "must-overtrump", "--hands", "2", "--good-play", "pimc:1", "--workers", "1"]
    code = main(argv)
    table.kernel_hand.cache_clear()
    out, err = capsys.readouterr()
    assert code == 0 and "good play: win share" in out
    assert err.count("search bots play this profile on the reference engine") == 1
