"""The open-game solver (`rulesdsl.reason.solver`, on the kernel) against plain minimax on
the reference engine: on small decks, for random options and stated rules, every seat's
answer is minimax's, and its line of play is legal and ends as the answer says."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples
from support import run_cli, settings_strategy

from rulesdsl.model.cards import Card
from rulesdsl.model.rules import Rules, RulesError
from rulesdsl.play.engine.hand import Hand
from rulesdsl.read.profile import load, shipped_names
from rulesdsl.reason.solver import solve_deal

SMALL = {"deck": ["A K Q", "A K Q J"], "hand_size": ["1", "2", "3"]}
"""Decks and hand sizes small enough for plain minimax."""


def forced(hand: Hand, me: int) -> bool:
    """Plain minimax: whether `me` wins whatever the others play, from `hand`."""
    if hand.is_over:
        assert hand.outcome is not None
        return hand.outcome.winner == me
    results = (forced(played(hand, card), me) for card in hand.legal_moves())
    return any(results) if hand.to_move == me else all(results)


def played(hand: Hand, card: Card) -> Hand:
    child = hand.copy()
    child.play(card)
    return child


def replayed(rules: Rules, players: int, order: list[Card], dealer: int, seed: int, line):
    hand = Hand.deal(rules, players, dealer, order, seed)
    for card in line:
        assert card in hand.legal_moves()
        hand.play(card)
    assert hand.is_over
    return hand.outcome


def endless(options: dict[str, str]) -> bool:
    """Whether hands may last to the trick limit: the tricks are shuffled back into the
    stock and drawn again, so a hand need not shrink; too deep for plain minimax, and the
    solver may answer unsolved."""
    return options["exhaustion"] == "reshuffle" and options["draw"] != "0"


def agree(rules: Rules, players: int, rng: random.Random) -> None:
    order = list(rules.cards)
    rng.shuffle(order)
    dealer, seed = rng.randrange(players), rng.randrange(1000)
    solution = solve_deal(rules, players, order, dealer, seed)
    assert solution.solved
    for answer in solution.seats:
        hand = Hand.deal(rules, players, dealer, order, seed)
        assert answer.can_force_win == forced(hand, answer.seat)
        outcome = replayed(rules, players, order, dealer, seed, answer.line)
        assert (outcome.winner == answer.seat) == answer.can_force_win
    winners = [a.seat for a in solution.seats if a.can_force_win]
    assert len(winners) <= 1 and solution.forced_winner == (winners[0] if winners else None)


def small_tables(count: int):
    """Hypothesis draws `count` tables (scaled by `sizing.examples`): random options on a
    deck and hand size of SMALL, a number of players, and a random generator."""
    return lambda test: settings(
        max_examples=examples(count),
        deadline=None,
        suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
    )(
        given(
            settings_strategy,
            st.sampled_from(SMALL["deck"]),
            st.sampled_from(SMALL["hand_size"]),
            st.integers(2, 4),
            st.randoms(use_true_random=False),
        )(test)
    )


def small_rules(options: dict[str, str], deck: str, hand_size: str, players: int) -> Rules | None:
    """The rules of `options` on a small deck, or None where they cannot seat `players`."""
    chosen = {**options, "deck": deck, "hand_size": hand_size, "players": "2..6"}
    rules = Rules().with_options(chosen)
    try:
        rules.check_players(players)
    except RulesError:
        return None
    return rules


@small_tables(60)
def test_random_options_on_small_decks_are_solved_as_minimax_solves_them(
    options, deck, hand_size, players, rng
):
    rules = small_rules(options, deck, hand_size, players)
    if rules is None:
        return
    if endless(options):
        order = list(rules.cards)
        rng.shuffle(order)
        for answer in solve_deal(rules, players, order, budget=20_000).seats:
            if answer.can_force_win is not None and answer.line:
                won = replayed(rules, players, order, 0, 0, answer.line).winner == answer.seat
                assert won == answer.can_force_win
        return
    for _ in range(3):
        agree(rules, players, rng)


STATED = [name for name in shipped_names() if load(name).rules.house_rules]


@pytest.mark.parametrize("name", STATED)
def test_profiles_stating_rules_are_solved_as_minimax_solves_them(name):
    rules = load(name).rules.with_options({"deck": "A K Q J", "hand_size": "3"})
    rng = random.Random(name)
    for _ in range(4):
        agree(rules, 4, rng)


def test_a_budget_too_small_leaves_a_question_unsolved():
    rules = Rules()
    order = list(rules.cards)
    random.Random(3).shuffle(order)
    solution = solve_deal(rules, 4, order, budget=5)
    assert not solution.solved and solution.forced_winner is None
    assert any(a.can_force_win is None and a.positions == 5 for a in solution.seats)
    assert solution.to_dict()["seats"][0]["can_force_win"] in ("unsolved", True, False)


def test_solve_prints_every_seat_and_the_forced_winner_as_json(capsys):
    rules = Rules()
    order = list(rules.cards)
    random.Random(7).shuffle(order)
    deck = " ".join(map(str, order))
    code, out, err = run_cli(
        capsys, "solve", "equal-hands", "--deck", deck, "--dealer", 2, "--json"
    )
    assert code == 0, err
    found = json.loads(out)
    expected = solve_deal(rules, 4, order, 2)
    assert found["deck"] == deck and found["dealer"] == 2
    assert found["forced_winner"] == expected.forced_winner
    assert [s["can_force_win"] for s in found["seats"]] == [a.can_force_win for a in expected.seats]
    code, text, _ = run_cli(capsys, "solve", "equal-hands", "--deck", deck, "--dealer", 2)
    assert code == 0 and "seat 3:" in text and "forced winner:" in text


def test_solve_says_unsolved_when_the_budget_runs_out(capsys):
    code, out, _ = run_cli(capsys, "solve", "equal-hands", "--budget", 3, "--json")
    assert code == 0
    found = json.loads(out)
    assert not found["solved"] and "unsolved" in [s["can_force_win"] for s in found["seats"]]
    code, text, _ = run_cli(capsys, "solve", "equal-hands", "--budget", 3)
    assert "unsolved within the budget" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dealer", "4"], "--dealer 4: the seats are 0 to 3"),
        (["--budget", "0"], "--budget must be at least 1"),
        (["--deck", "AS KS"], "--deck"),
        (["-n", "9"], "players"),
    ],
)
def test_solve_refuses_bad_requests_in_one_line(capsys, args, message):
    code, _, err = run_cli(capsys, "solve", "equal-hands", *args)
    assert code == 2 and message in err and "Traceback" not in err
