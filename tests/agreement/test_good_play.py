"""simulate and compare under good play: search bots in the paired simulation, the same
figures for any number of workers, and the good-play report."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from rulesdsl.model.cards import Card
from rulesdsl.model.rules import Rules
from rulesdsl.model.seeds import shuffle
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.events import Deal, Draw, Event, Out, Play
from rulesdsl.play.engine.fast import int_deck, recode
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.engine.plan import plan_for
from rulesdsl.play.kernel.hands import comeback, hand_result, seat_kinds
from rulesdsl.play.kernel.plan import kernel_plan
from rulesdsl.play.kernel.rows import search_rows
from rulesdsl.play.kernel.search import play_dealt
from rulesdsl.play.kernel.state import State
from rulesdsl.play.players.search.table import NO_RANDOM
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
    lucks = [data["profiles"][name]["metrics"]["good_luck"] for name in ("equal-hands", "bicycle")]
    difference = data["pairs"][0]["b_minus_a"]["good_luck"]
    assert difference["mean"] == pytest.approx(lucks[1]["mean"] - lucks[0]["mean"])
    assert metrics["good_heuristic"]["n"] == 6
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
        (
            ["--good-play", "pimc:1", "--until-decided", "--metrics", "good_luck"],
            "a ratio of means, which --until-decided does not decide",
        ),
    ],
)
def test_a_bad_good_play_is_one_line_and_status_2(capsys, args, words):
    code = main(["compare", "equal-hands", "bicycle", *args])
    _, err = capsys.readouterr()
    assert code == 2 and words in err and "Traceback" not in err


def came_back(events: Sequence[Event], winner: int) -> bool:
    """Whether `winner` held strictly the fewest cards of the players in, at the start of
    some trick after the first."""
    counts: list[int] = []
    active: list[bool] = []
    trick = 1
    for event in events:
        if isinstance(event, Deal):
            counts = [len(h) for h in event.hands]
            active = [True] * len(counts)
        elif isinstance(event, Play):
            if event.trick != trick:
                trick = event.trick
                others = [counts[s] for s in range(len(counts)) if active[s] and s != winner]
                if active[winner] and others and counts[winner] < min(others):
                    return True
            counts[event.seat] -= 1
        elif isinstance(event, Draw):
            counts[event.seat] += len(event.cards)
        elif isinstance(event, Out):
            active[event.seat] = False
    return False


def test_the_kernel_tells_a_comeback_as_the_reference_engines_events_show_it():
    """The hands of a search table played on the kernel, replayed on the reference engine
    from the plays the kernel recorded: the kernel's comeback is `came_back` of its events."""
    seen = set()
    for profile in ("equal-hands", "bicycle", "seven-card-hands"):
        seen |= comebacks_agree(load(profile).rules)
    assert seen == {0, 1}


def comebacks_agree(rules: Rules) -> set[int]:
    """The comebacks of 30 hands of `rules`, each the same on the kernel as from the
    reference engine's events."""
    p, ranked, dealt = kernel_plan(rules), recode(rules), 4 * rules.hand_size_for(4)
    kinds, budgets = seat_kinds(("pimc:1", "heuristic", "pimc:1", "heuristic"))
    by_int = dict(zip(int_deck(rules), rules.cards, strict=True))
    seen = set()
    for number in range(30):
        deck = list(int_deck(rules))
        shuffle(deck, Stream(number))
        s = State()
        g, w, states, streams = search_rows()
        ranks = [ranked[c] for c in deck]
        args = (ranks, 4, dealt, number % 4, number, kinds, budgets, NO_RANDOM, streams)
        play_dealt(s, p, g, w, states, *args)
        result = hand_result(s, p, plan_for(rules).fired_names)
        hand = Hand.deal(rules, 4, number % 4, order=[by_int[c] for c in deck], seed=number)
        for k in range(g.plays_len):
            hand.play(hand.codes.card[g.play_card[k]])
        assert hand.is_over and hand.outcome == result
        told = int(result.winner is not None and came_back(hand.events, result.winner))
        assert comeback(result, g.fewest) == told
        seen.add(told)
    return seen


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


@pytest.mark.parametrize(
    ("path", "bots"),
    [("0", ["--good-play", "pimc:1"]), ("0", ["--bots", "pimc:1"]), ("1", ["--bots", "pimc:1"])],
)
def test_a_profile_the_kernel_cannot_search_is_one_line_and_status_2(
    capsys, monkeypatch, path, bots
):
    from rulesdsl.play import native
    from rulesdsl.play.kernel import compiled, hands
    from rulesdsl.play.kernel.plan import NotNative
    from rulesdsl.play.players.search import table

    def refused(*args):
        raise NotNative("not the kernel's")

    monkeypatch.setattr(compiled, "compiled_profile", refused)
    monkeypatch.setattr(hands, "kernel_player", refused)
    monkeypatch.setenv(native.ENV, path)
    table.kernel_hand.cache_clear()
    argv = ["simulate", "must-overtrump", "--hands", "2", *bots, "--workers", "1"]
    code = main(argv)
    table.kernel_hand.cache_clear()
    _, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in err
    assert "search bots cannot play this profile: not the kernel's" in err
