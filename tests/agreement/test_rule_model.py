"""One rule model for every tool that reasons about rules: what the engine counts as a rule
changing play, what `analyze` proves, and what `compare` says of two profiles, for options
and the rules a profile states alike; and every claim held against every line of play of
small games."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import textwrap
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from exhaustive import broken_claims
from support import fast_and_plain

from rulesdsl.model.contributions import model
from rulesdsl.model.language.rule import HouseRule
from rulesdsl.model.rules import Rules
from rulesdsl.model.units import Step
from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.engine.match import Match
from rulesdsl.play.engine.plan import plan_for
from rulesdsl.play.players.registry import make_bot
from rulesdsl.read.profile import load, load_text
from rulesdsl.reason.analysis.report import analyse
from rulesdsl.reason.analysis.sameness import sameness
from rulesdsl.reason.analysis.verdicts import Verdict
from rulesdsl.surfaces.main import cli

TESTS = Path(__file__).parents[1]  # the helpers: tests/exhaustive.py
ROOT = TESTS.parent

POOL = """profile "pool" extends "equal-hands" {
    rule same-draw { draw 1 }
    rule trump-two { draw 2 if trick.won_by_trump else 1 }
    rule big-hand-two { draw 2 if any(p in active: p.cards >= 5) else 1 }
    rule ace-none { draw 0 if trick.best.strength == 12 else 1 }
    rule one-point { score 1 }
    rule tricks-score { score hand.winner.tricks }
    rule no-trump-lead { refuse lead if card.trump and not hand.trump_played }
    rule low-follow { refuse follow if card.strength > 8 and stock.size < 30 }
    rule six-cards { end when any(p in active: p.cards >= 6)
        winner most(p in active: p.cards) }
    rule third-trick { end after trick 3
        winner most(p in active: p.tricks) }
    rule two-in-a-row { end when trick.winner.streak >= 2
        winner trick.winner }
    rule king-two { draw 2 if trick.best.rank == king else 1 }
    rule aces-score { score max(1, count(c in hand.winner.won: c.rank == ace)) }
    rule hearts-broken {
        refuse lead if card.suit == hearts and not any(c in hand.played: c.suit == hearts) }
    rule previous-suit { refuse lead if card.suit == previous.led }
    rule no-queen-first { refuse card if trick.number == 1 and card == QS }
    rule last-trump-two { score 2 if hand.last_trick.best.trump else 1 }
    rule no-trick-out { out if trick.number == 2 and player.tricks == 0 }
    rule one-card-out { out if player.cards == 1 and stock.size < 40 }
    rule lowest-follower {
also_draws least(p in active where p != trick.winner and p.played.suit == led: p.played.strength)
    }
    rule leader-too { also_draws trick.leader }
}
"""


@cache
def pool() -> dict[str, HouseRule]:
    rules = load_text(Path("/pool.rules"), POOL).rules
    return {rule.name: rule for rule in rules.house_rules}


def stating(names: list[str], **options: str) -> Rules:
    return dataclasses.replace(
        Rules().with_options(options), house_rules=tuple(pool()[n] for n in names)
    )


def story(rules: Rules, players: int, seed: int, bots: tuple[str, ...]) -> tuple:
    """A hand as the table sees it: its events (without the rules that decided them) and
    its outcome (without the rules that fired and the points it scores)."""
    hand = Hand.deal(rules, players, seed % players, seed=seed)
    outcome = play_hand(hand, [make_bot(name, seed + i) for i, name in enumerate(bots)])
    events = [e.to_dict() for e in hand.events]
    for event in events:
        event.pop("rule", None)
    return events, outcome._replace(fired=frozenset(), points=None), outcome


BOTS = [("lowest",) * 4, ("highest",) * 4, ("random",) * 4]


# -- a rule's coverage is the hands where it changed play ------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "same-draw",
        "big-hand-two",
        "trump-two",
        "ace-none",
        "no-trump-lead",
        "low-follow",
        "six-cards",
        "third-trick",
        "two-in-a-row",
        "king-two",
        "hearts-broken",
        "previous-suit",
        "no-queen-first",
        "no-trick-out",
        "one-card-out",
        "lowest-follower",
        "leader-too",
    ],
)
def test_a_stated_rule_that_did_not_fire_plays_the_hand_as_the_profile_without_it(name):
    """Coverage is sound for every kind of stated rule: in a hand where the rule is not
    counted, the profile plays exactly as it would without the rule. A count, which has no
    choice to hide behind, fires exactly where the hands part."""
    with_rule, without = stating([name]), stating([])
    fired = 0
    for seed in range(60):
        for bots in BOTS:
            events, outcome, full = story(with_rule, 4, seed, bots)
            same = (events, outcome) == story(without, 4, seed, bots)[:2]
            if name not in full.fired:
                assert same, (name, seed, bots)
            elif with_rule.house_rules[0].kind == "draw":
                assert not same, (name, seed, bots)
            fired += name in full.fired
    verdict = analyse("pool", with_rule, 4).players[4].rules[name].verdict
    assert (fired > 0) == (verdict is Verdict.CAN), (name, fired, verdict)


def test_a_draw_rule_counts_no_hand_where_its_count_is_the_options():
    """`draw 2 if trick.won_by_trump else 1` changes nothing without a trump suit."""
    rules = stating(["trump-two"], trump="none")
    for seed in range(40):
        for bots in BOTS:
            assert "trump-two" not in story(rules, 4, seed, bots)[2].fired


@pytest.mark.parametrize("name", ["one-point", "tricks-score"])
def test_a_score_rule_fires_where_it_scores_otherwise_than_the_option(name):
    rules = stating([name])
    for seed in range(30):
        outcome = story(rules, 4, seed, BOTS[seed % 3])[2]
        if outcome.winner is None:
            continue
        differs = outcome.points != 1
        assert (name in outcome.fired) == differs, (name, seed, outcome.points)


def test_the_fired_rules_are_the_same_on_every_engine():
    for names in (["trump-two"], ["ace-none", "six-cards"], ["tricks-score", "low-follow"]):
        for a, b in fast_and_plain(stating(names), 30, 3):
            assert a == b and a.fired == b.fired


# -- the plan derives from the rule model ------------------------------------------------


def test_a_stated_count_takes_the_options_step_and_keeps_its_function_to_compare():
    rules = stating(["trump-two", "tricks-score"])
    found = model(rules)
    assert found.replaced == {"draw": "trump-two", "scoring": "tricks-score"}
    plan = plan_for(rules)
    assert plan.draw_count.rule == "trump-two" and plan.draw_count.replaced is not None
    assert plan.score.rule == "tricks-score"
    assert [c.rule for c in found.at(Step.DRAW_COUNT)] == ["trump-two"]
    assert found.option_at(Step.DRAW_COUNT).replaced_by == "trump-two"


def test_every_event_names_the_rule_that_decided_it_as_the_plan_says():
    """A draw is the count's rule (the profile's own in the option's place), another
    player's draw the rule of who draws, a hand's end the rule that ended it."""
    rules = stating(["trump-two", "six-cards"], draw_by="everyone")
    plan = plan_for(rules)
    seen = set()
    for seed in range(20):
        hand = Hand.deal(rules, 6, seed % 6, seed=seed)
        play_hand(hand, [make_bot("lowest")] * 6)
        for event in hand.events:
            if event.kind == "draw":
                winner = [
                    e for e in hand.events if e.kind == "trick_won" and e.trick == event.trick
                ]
                expected = (
                    plan.draw_count.rule if event.seat == winner[0].seat else plan.drawers.rule
                )
                assert event.rule == expected
                seen.add(event.rule)
            if event.kind == "hand_end":
                seen.add(event.rule)
    assert {"trump-two", "draw_by", "six-cards"} <= seen


def test_match_points_the_next_dealer_and_the_match_end_come_from_units():
    rules = Rules().with_options({"scoring": "cards_in_hand", "next_dealer": "hand_winner"})
    plan = plan_for(rules)
    assert (plan.score.rule, plan.next_dealer.rule, plan.match_end.rule) == (
        "scoring",
        "next_dealer",
        "match",
    )
    match = Match(rules, 4, seed=5)
    while not match.over:
        hand = match.deal()
        outcome = play_hand(hand, [make_bot("lowest")] * 4)
        before = list(match.points)
        match.record(outcome)
        if outcome.winner is not None:
            assert match.points[outcome.winner] - before[outcome.winner] == outcome.winner_cards
            assert match.dealer == outcome.winner
    assert max(match.points) >= 3


# -- analyze proves from the rules' expressions ----------------------------------------


SIX = """profile "six" extends "equal-hands" {
    rule six-cards {
        end when any(p in active: p.cards >= 6)
        winner most(p in active: p.cards)
    }
}
"""


def test_an_end_rule_on_a_hand_of_six_never_acts_where_no_hand_reaches_six():
    rules = load_text(Path("/six.rules"), SIX).rules
    for players in (3, 4, 5):
        finding = analyse("six", rules, players).players[players].rules["six-cards"]
        assert finding.verdict is Verdict.NEVER, (players, finding.proof)
        assert "cannot hold" in finding.proof
    six = analyse("six", rules, 6).players[6]
    assert six.rules["six-cards"].verdict is Verdict.CAN
    assert six.model.max_tricks == 1  # six cards are held after the first trick, always


def test_a_replaced_option_never_acts_and_says_which_rule_decides():
    rules = load("trump-wins-draw-two").rules
    finding = analyse("t", rules, 4).players[4].rules["draw"]
    assert finding.verdict is Verdict.NEVER
    assert "trump-wins-draw-two decides in its place" in finding.proof


def test_a_draw_rule_that_always_gives_the_options_count_never_acts():
    finding = analyse("s", stating(["same-draw"]), 4).players[4].rules["same-draw"]
    assert finding.verdict is Verdict.NEVER
    assert "always gives 1" in finding.proof
    none = stating(["trump-two"], trump="none")
    assert analyse("t", none, 4).players[4].rules["trump-two"].verdict is Verdict.NEVER


def test_the_next_dealer_acts_where_a_one_point_match_can_go_on_after_a_hand_won_by_nobody():
    rules = load("time-limit").rules.with_options({"match": "target 1"})
    report = analyse("t", rules, 6).players[6]
    assert report.model.can_end_without_winner
    assert report.rules["next_dealer"].verdict is not Verdict.NEVER


def test_with_one_card_each_draw_by_acts_on_the_first_trick():
    rules = Rules().with_options({"hand_size": "1"})
    finding = analyse("one", rules, 4).players[4].rules["draw_by"]
    assert finding.verdict is Verdict.CAN and finding.witness.trick == 1


# -- compare claims sameness only where it is proved ------------------------------------


def compared(*names: str, players: int = 4, **more: str) -> dict:
    result = CliRunner().invoke(
        cli,
        ["compare", *names, "--hands", "40", "--seed", "2", "--no-skill", "--json"]
        + ["--players", str(players)]
        + [a for k, v in more.items() for a in (f"--{k}", v)],
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize(
    "house",
    ["trumps-broken", "must-overtrump", "trump-wins-draw-two", "no-trump-first-lead"],
)
def test_a_stated_rule_that_acts_keeps_two_profiles_from_being_called_identical(house):
    (same,) = compared("equal-hands", house)["sameness"]
    assert not same["identical"] and not same["same_hands"]
    assert not any("identical" in note or "same hands" in note for note in same["notes"])


def test_a_time_limit_that_cannot_act_is_identical_and_one_that_can_is_not():
    (four,) = compared("equal-hands", "time-limit")["sameness"]
    assert four["identical"] and "time-limit" in four["never_act"]
    (six,) = compared("equal-hands", "time-limit", players=6)["sameness"]
    assert not six["identical"] and not six["same_hands"]


def test_a_score_rule_plays_the_same_hands_and_says_the_matches_rules_differ():
    (same,) = compared("equal-hands", "points-for-tricks")["sameness"]
    assert same["same_hands"] and not same["identical"]
    assert same["match_rules_differ"] == ["points-for-tricks"]
    assert "play the same hands" in same["notes"][-1]
    text = CliRunner().invoke(
        cli, ["compare", "equal-hands", "points-for-tricks", "--hands", "40", "--csv"]
    )
    assert any(
        row.startswith("same_hands,equal-hands,points-for-tricks")
        for row in text.output.splitlines()
    )


@cache
def profiles() -> list[tuple[str, Rules]]:
    """A pool of versions: options and stated rules, some idle, some acting."""
    found = []
    for names in ([], ["same-draw"], ["trump-two"], ["one-point"], ["tricks-score"], ["six-cards"]):
        for options in ({}, {"exhaustion": "play_out"}, {"all_out": "no_winner"}):
            rules = stating(names, **options)
            found.append(("+".join([*names, *options.values()]) or "base", rules))
    return found


def test_every_sameness_claimed_holds_on_the_same_deals():
    """Whatever pair of the pool: where compare says identical games, every hand and match
    is the same; where it says the same hands, every hand is."""
    pairs = [(a, b) for a in profiles() for b in profiles() if a[0] < b[0]]
    claimed = 0
    for first, second in pairs:
        same = sameness(first, second, 4)
        if not same.same_hands:
            continue
        claimed += 1
        for seed in range(12):
            bots = BOTS[seed % 3]
            assert story(first[1], 4, seed, bots)[:2] == story(second[1], 4, seed, bots)[:2]
        if same.identical:
            assert match_story(first[1]) == match_story(second[1]), (first[0], second[0])
    assert claimed >= 10


def match_story(rules: Rules) -> tuple:
    match = Match(rules, 4, seed=9)
    while not match.over:
        match.record(play_hand(match.deal(), [make_bot("lowest")] * 4))
    return tuple(match.points), match.winners, match.hands_played


# -- every claim of analyze against every line of play of small games --------------------


SMALL = {"deck": "A K Q", "players": "3", "hand_size": "2"}
SMALL_CASES = [
    ({}, []),
    ({"exhaustion": "play_out"}, []),
    ({"exhaustion": "most_tricks", "draw_by": "everyone"}, []),
    ({"elimination": "immediate", "all_out": "no_winner"}, []),
    ({"hand_size": "1"}, []),
    ({"next_lead": "left_of_winner", "follow": "any"}, []),
    ({"exhaustion": "reshuffle"}, ["trump-two"]),
    ({}, ["ace-none", "no-trump-lead"]),
    ({}, ["six-cards", "low-follow"]),
    ({"hand_size": "3"}, ["third-trick", "tricks-score"]),
    ({}, ["two-in-a-row"]),
    ({"hand_size": "3"}, ["two-in-a-row", "king-two"]),
    ({"hand_size": "1"}, ["two-in-a-row"]),
    ({}, ["hearts-broken", "previous-suit"]),
    ({"hand_size": "3"}, ["no-queen-first", "aces-score"]),
    ({}, ["king-two", "last-trump-two"]),
    ({}, ["no-trick-out"]),
    ({"hand_size": "3"}, ["no-trick-out", "one-card-out"]),
    ({"exhaustion": "reshuffle"}, ["one-card-out"]),
    ({"elimination": "immediate"}, ["one-card-out", "no-trick-out"]),
    ({}, ["lowest-follower"]),
    ({"draw_by": "everyone"}, ["leader-too", "lowest-follower"]),
    ({"elimination": "immediate", "draw": "0"}, ["leader-too", "no-trick-out"]),
]


@pytest.mark.parametrize(("options", "names"), SMALL_CASES)
def test_every_claim_of_analyze_holds_on_every_line_of_play_of_a_small_game(options, names):
    rules = stating(names, **{**SMALL, **options})
    broken = broken_claims(rules, 3, 6)
    assert not broken, [str(b) for b in broken[:5]]


TOY = '''
"""Toy rules of another package: a lead filter and an end check."""
from rulesdsl.model.state import State
from rulesdsl.model.result import EndReason
from rulesdsl.model.state import NO_END
from rulesdsl.model.kinds import enum_choice
from rulesdsl.model.units.base import Section, Step, Unit
from enum import StrEnum


class OnOff(StrEnum):
    OFF = "off"
    ON = "on"


def lead_low(s: State, seat: int, allowed: list[int]) -> list[int]:
    return [c for c in allowed if c >> 2 < 2]


def second_trick_ends(s: State) -> int:
    return s.winner if s.trick_number >= 2 else NO_END


LEAD_LOW = Unit(
    "lead_low", enum_choice(OnOff), "on", "lead a low card", Section.PLAY,
    frozenset({Step.LEAD_FILTER}), fires="it refuses a card",
    plays=lambda v: {Step.LEAD_FILTER: lead_low} if v is OnOff.ON else {},
    refusals={"en": {"on": "lead a low card"}},
    phrases={"en": {"on": "Lead low.", "off": "Lead any."}},
)
QUICK = Unit(
    "quick_end", enum_choice(OnOff), "on", "the hand ends after trick 2", Section.ENDING,
    frozenset({Step.END_CHECK}), fires="it ends the hand",
    ends={Step.END_CHECK: EndReason.HOUSE_RULE},
    plays=lambda v: {Step.END_CHECK: second_trick_ends} if v is OnOff.ON else {},
    phrases={"en": {"on": "Two tricks.", "off": "No limit."}},
)
TAKES_DRAW = Unit(
    "takes_draw", enum_choice(OnOff), "on", "draw three", Section.DRAWING,
    frozenset({Step.DRAW_COUNT}), plays=lambda v: {}, phrases={"en": {"on": ".", "off": "."}},
)
'''


def toy_package(folder: Path) -> None:
    dist = folder / "toy_rules-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-rules\nVersion: 0.1\n")
    points = "lead_low = toy_rules:LEAD_LOW\nquick_end = toy_rules:QUICK\n"
    points += "takes_draw = toy_rules:TAKES_DRAW\n"
    (dist / "entry_points.txt").write_text(f"[rulesdsl.rules]\n{points}")
    (folder / "toy_rules.py").write_text(textwrap.dedent(TOY))


def test_units_of_another_package_are_analysed_without_a_false_claim(tmp_path):
    """A toy package's filter and end check: every claim analyze makes of them holds on
    every line of play; its count on a step `draw` decides is refused, naming both."""
    toy_package(tmp_path)
    profile = tmp_path / "small.rules"
    profile.write_text(
        'profile "small" extends "equal-hands" {\n    deck A K Q\n    players 3\n'
        "    hand_size 2\n}\n"
    )
    env = {"PYTHONPATH": f"{tmp_path}:{TESTS}:{ROOT}", "PATH": "/usr/bin:/bin"}
    ran = subprocess.run(
        [sys.executable, str(TESTS / "exhaustive.py"), str(profile), "3", "3"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert ran.returncode == 0, ran.stderr
    assert "'takes_draw' already registered" not in ran.stderr
    assert "the rule 'draw' already decides it" in ran.stderr
    verdicts = dict(
        line.split()[1:] for line in ran.stdout.splitlines() if line.startswith("verdict")
    )
    assert verdicts["lead_low"] in ("can", "never") and verdicts["quick_end"] in ("can", "never")
    assert [line for line in ran.stdout.splitlines() if line.startswith("broken")] == []
