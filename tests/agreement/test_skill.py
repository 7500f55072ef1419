"""What skill is worth (`rulesdsl skill`, `rulesdsl.reason.skill`) and the solver's bots:
the seat that sees everything wins exactly where some line of its play wins against the
heuristic bots (a search over the reference engine says where), a world of the seat that
sees every hand keeps every hand and shuffles the stock alone, and the figures are the
rows' own."""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest
from support import run_cli
from test_solver import endless, played, small_rules, small_tables

from rulesdsl.model.rules import Rules
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.kernel.search import restock
from rulesdsl.play.kernel.state import State, copy_state
from rulesdsl.play.kernel.worlds import Work
from rulesdsl.play.players.bots import HeuristicBot
from rulesdsl.play.players.registry import make_bot
from rulesdsl.play.players.search.bot import Position
from rulesdsl.reason.ladder import Outcome
from rulesdsl.reason.skill import SkillSpec, figures


def winnable(hand: Hand, me: int) -> bool:
    """Whether some line of `me`'s play wins from `hand` against heuristic bots."""
    if hand.is_over:
        assert hand.outcome is not None
        return hand.outcome.winner == me
    legal = hand.legal_moves()
    if hand.to_move == me:
        return any(winnable(played(hand, card), me) for card in legal)
    return winnable(played(hand, HeuristicBot().choose(hand, legal)), me)


@small_tables(15)
def test_the_seat_that_sees_everything_wins_where_a_line_of_its_play_wins(
    options, deck, hand_size, players, rng
):
    rules = small_rules(options, deck, hand_size, players)
    if rules is None or endless(options):
        return
    for _ in range(2):
        order = list(rules.cards)
        rng.shuffle(order)
        dealer, seed, me = rng.randrange(players), rng.randrange(1000), rng.randrange(players)
        hand = Hand.deal(rules, players, dealer, order, seed)
        expected = winnable(hand.copy(), me)
        seats = [make_bot("sees-all:2", 1) if s == me else HeuristicBot() for s in range(players)]
        assert (play_hand(hand, seats).winner == me) == expected


@pytest.mark.parametrize(("trump", "fixed"), [("dealer_last_card", 0), ("stock_bottom", 1)])
def test_a_world_of_the_seat_that_sees_every_hand_shuffles_the_stock_alone(trump, fixed):
    s = Position(Hand.deal(Rules().with_options({"trump": trump}), 4, 0, seed=3)).s
    shown = [k for k in range(s.stock_len) if s.stock[k] == s.shown]
    assert len(shown) == fixed
    stock = sorted(s.stock[: s.stock_len])
    rng, world, w = Stream(5), State(), Work()
    tops: Counter[int] = Counter()
    for _ in range(2000):
        copy_state(s, world)
        restock(w, world, rng)
        assert world.hands == s.hands
        assert sorted(world.stock[: s.stock_len]) == stock
        assert all(world.stock[k] == s.shown for k in shown)
        tops[world.stock[s.stock_len - 1]] += 1
    movable = s.stock_len - len(shown)
    expected = 2000 / movable
    assert len(tops) == movable
    assert all(abs(count - expected) < 5 * math.sqrt(expected) for count in tops.values())


def test_the_figures_are_the_rows_own():
    spec = SkillSpec("x", Rules(), deals=6)
    rows = [
        Outcome(1, (1, 1, 0, 0, 0)),
        Outcome(0, (1, 0, 1, 0, 0)),
        Outcome(-1, (0, 0, 0, 1, 1)),
        Outcome(1, (1, 1, 1, 1, 1)),
        Outcome(0, (0, 0, 0, 0, 0)),
        Outcome(0, (1, 0, 0, 0, 0)),
    ]
    found = figures(spec, rows)
    assert found.decided.share == pytest.approx(2 / 5)
    assert found.decided.unsolved == 1
    assert found.decided.low < 2 / 6 and found.decided.high > 3 / 6
    shares = [rung.share.mean for rung in found.rungs]
    assert shares == pytest.approx([4 / 6, 2 / 6, 2 / 6, 2 / 6, 2 / 6])
    assert found.rungs[0].gain.mean == pytest.approx(2 / 6)
    assert found.luck.mean == pytest.approx(1 - (2 / 6) / (4 / 6))


SMALL_PROFILE = """profile "small" extends "equal-hands" {
    deck A K Q J 10
    hand_size 3
}
"""


def test_skill_prints_the_same_figures_for_any_number_of_workers(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("RULESDSL_NATIVE", "0")
    path = tmp_path / "small.rules"
    path.write_text(SMALL_PROFILE)
    args = ["skill", str(path), "--deals", "8", "--worlds", "2", "--pimc", "2", "--json"]
    code, one, err = run_cli(capsys, *args, "-j", "1")
    assert code == 0, err
    code, two, err = run_cli(capsys, *args, "-j", "2")
    assert code == 0, err
    assert one == two
    found = json.loads(one)
    assert found["deals"] == 8 and found["players"] == 4
    assert [rung["bot"] for rung in found["ladder"]] == [
        "sees-all:2", "sees-hands:2", "solver:2", "pimc:2", "heuristic",
    ]  # fmt: skip
    code, text, err = run_cli(capsys, "skill", str(path), "--deals", "8", "--worlds", "2",
                              "--pimc", "2", "-j", "1")  # fmt: skip
    assert code == 0, err
    assert "decided before play" in text and "luck index" in text


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--deals", "1"], "--deals must be at least 2"),
        (["--worlds", "0"], "--worlds 0: expected a whole number from 1"),
        (["--pimc", "5000"], "--pimc 5000"),
        (["--budget", "0"], "--budget must be at least 1"),
        (["--executor", "nowhere"], "expected local or dask://"),
    ],
)
def test_skill_refuses_bad_requests_in_one_line(capsys, args, said):
    code, _, err = run_cli(capsys, "skill", "equal-hands", *args)
    assert code != 0 and said in err and "Traceback" not in err


def test_random_rows_give_intervals_that_hold_their_estimates():
    rng = random.Random(4)
    spec = SkillSpec("x", Rules(), deals=200)
    rows = []
    for _ in range(200):
        heuristic = int(rng.random() < 0.25)
        top = max(heuristic, int(rng.random() < 0.3))
        rows.append(Outcome(rng.choice((-1, 0, 1)), (top, 0, 0, 0, heuristic)))
    found = figures(spec, rows)
    for rung in found.rungs:
        assert rung.share.low <= rung.share.mean <= rung.share.high
        assert rung.gain.low <= rung.gain.mean <= rung.gain.high
    assert found.luck.low <= found.luck.mean <= found.luck.high
