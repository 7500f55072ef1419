"""The count analysis: its bounds, its witnesses replayed, and its "never"s attacked."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import random
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from exhaustive import broken_bounds
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.model.language.rule import HouseRule
from rulesdsl.model.rules import OPTIONS, Rules
from rulesdsl.model.units.base import Step
from rulesdsl.play.engine.hand import TRICK_LIMIT, Hand
from rulesdsl.play.players.registry import make_bot
from rulesdsl.read.check import rule_problems
from rulesdsl.read.profile import load, load_text, shipped_files, shipped_names
from rulesdsl.reason.analysis import stated
from rulesdsl.reason.analysis import witness as w
from rulesdsl.reason.analysis.counts import CountModel, build
from rulesdsl.reason.analysis.lint import LINT_BUDGET
from rulesdsl.reason.analysis.report import analyse, dead_rules
from rulesdsl.reason.analysis.sameness import sameness, sameness_lines, samenesses
from rulesdsl.reason.analysis.verdicts import (
    Proofs,
    Verdict,
    option_questions,
    questions_for,
    settle,
)
from rulesdsl.service import checked_file, checked_text
from rulesdsl.surfaces.main import cli, main


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_equal_hands_last_at_most_2n_minus_1_tricks_and_keep_a_stock(players):
    model = build(Rules(), players)
    assert model.max_tricks == 2 * players - 1
    assert model.min_stock == 54 - (players + 1) ** 2
    report = analyse("equal-hands", Rules(), players).players[players]
    assert report.stock_runs_out.verdict is Verdict.NEVER
    assert report.all_out.verdict is Verdict.NEVER
    assert report.rules["exhaustion"].verdict is Verdict.NEVER
    assert report.rules["all_out"].verdict is Verdict.NEVER
    assert f"at least {54 - (players + 1) ** 2} cards" in report.rules["exhaustion"].proof
    # the bound is reached by a real hand
    found = w.search(Rules(), players, {}, 300, 2 * players - 1, longest_tries=300)
    assert found.longest.trick == 2 * players - 1


def every_line(hand: Hand, seen: dict, found: list[tuple[int, int]]) -> None:
    """Play every legal line from `hand` to its end; note each end's tricks and stock."""
    if hand.is_over:
        found.append((hand.outcome.tricks, hand.outcome.stock_left))
        return
    key = str(hand)
    if key in seen:
        return
    seen[key] = True
    for card in hand.legal_moves():
        child = hand.copy()
        child.play(card)
        every_line(child, seen, found)


@pytest.mark.parametrize(
    ("ranks", "players", "hand_size"),
    [("A K Q J", 3, "players"), ("A K Q", 3, "players"), ("A K Q J 10", 3, "2")],
)
def test_the_count_bounds_agree_with_every_line_of_play_on_small_decks(ranks, players, hand_size):
    rules = Rules().with_options({"deck": ranks, "hand_size": hand_size})
    model = build(rules, players)
    ends: list[tuple[int, int]] = []
    for candidate in w.candidates(rules, players, 5):
        every_line(w.replay(rules, candidate), {}, ends)
    assert max(t for t, _ in ends) <= model.max_tricks
    assert min(t for t, _ in ends) >= model.min_tricks
    assert min(s for _, s in ends) >= model.min_stock
    if ranks == "A K Q J":
        assert max(t for t, _ in ends) == 2 * players - 1 == model.max_tricks


@cache
def shipped_analyses():
    return [(name, analyse(name, load(name).rules)) for name in shipped_names()]


def test_shipped_profiles_leave_no_question_unknown():
    """Every shipped profile, the ones that state rules of their own included, at every
    player count it allows: every option, every stated rule and every flag is settled."""
    analysed = dict(shipped_analyses())
    assert set(analysed) == {path.stem for path in shipped_files()}
    for name, analysis in analysed.items():
        low, high = analysis.rules.players
        assert list(analysis.players) == list(range(low, high + 1))
        for report in analysis.players.values():
            assert set(report.rules) == set(questions_for(analysis.rules))
            findings = [*report.rules.values(), report.stock_runs_out, report.all_out]
            findings += [report.hand_fails_to_end, report.match_fails_to_end]
            unknown = [f.proof for f in findings if f.verdict is Verdict.UNKNOWN]
            assert not unknown, (name, report.players, unknown)


def test_every_can_replays_on_the_reference_engine_and_the_compiled_path():
    """Each witness is replayed once, watching for every rule it is the witness of."""
    for name, analysis in shipped_analyses():
        detectors = {r: q.detectors for r, q in questions_for(analysis.rules).items()}
        for report in analysis.players.values():
            shown: dict[w.Witness, set[str]] = {}
            for rule, finding in report.rules.items():
                if finding.verdict is Verdict.CAN:
                    shown.setdefault(finding.witness, set()).add(rule)
            for witness, rules in shown.items():
                watching = {rule: detectors[rule] for rule in rules}
                acted = w.watch(analysis.rules, witness, watching).acted
                assert set(acted) == rules, (name, report.players, rules - set(acted))
                assert w.same_on_compiled(analysis.rules, witness), (name, rules)


def test_a_witness_replays_through_rulesdsl_play():
    report = analyse("equal-hands", Rules(), 4).players[4]
    found = report.rules["elimination"].witness
    args = ["play", "-n", "4", "--deck", found.deck_text, "--dealer", str(found.dealer)]
    result = CliRunner().invoke(cli, [*args, "--bots", found.bots_text, "--json"])
    assert result.exit_code == 0, result.output
    hand = w.replay(Rules(), found)
    bots = [make_bot(b) for b in found.bots]
    while not hand.is_over:
        hand.play(bots[hand.to_move].choose(hand, hand.legal_moves()))
    played = json.loads(result.output)
    assert (played["winner"], played["tricks"]) == (hand.outcome.winner, hand.outcome.tricks)
    assert played["trick_winners"] == list(hand.outcome.trick_winners)


def test_every_never_survives_a_search_that_tries_to_reach_it():
    names = ("lowest", "highest", "random", "heuristic")
    for name, analysis in shipped_analyses():
        for players, report in analysis.players.items():
            asked = questions_for(analysis.rules)
            dead = {r: asked[r].detectors for r, f in report.rules.items()}
            dead = {r: d for r, d in dead.items() if report.rules[r].verdict is Verdict.NEVER}
            for candidate in w.candidates(analysis.rules, players, 40, seed=1, names=names):
                assert not w.watch(analysis.rules, candidate, dead).acted, (name, players)


def test_dead_rules_are_the_nevers_at_every_count():
    dead = dead_rules(Rules())
    assert set(dead) == {"exhaustion", "all_out"}
    assert str(dead["exhaustion"]).startswith("never comes into play with 3\u20136 players")
    assert "at least 5 cards" in str(dead["exhaustion"])
    no_trump = dead_rules(Rules().with_options({"trump": "none"}))
    assert "when_void" in no_trump
    # `follow any` frees a follower from the led suit, so `follow` acts without trumps too.
    assert "follow" not in no_trump
    one_card = dead_rules(Rules().with_options({"hand_size": "1", "draw": "0"}))
    assert "follow" in one_card and "draw_by" in one_card


def test_reshuffle_with_a_big_draw_can_repeat_its_counts():
    rules = Rules().with_options({"exhaustion": "reshuffle", "draw": "per_card_in_trick"})
    model = build(rules, 4)
    assert model.cycles and model.max_tricks is None
    report = analyse("x", rules, 4, tries=3).players[4]
    assert report.hand_fails_to_end.verdict is not Verdict.NEVER


def test_analyze_prints_text_and_json():
    runner = CliRunner()
    result = runner.invoke(cli, ["analyze", "equal-hands", "--players", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    four = data["players"]["4"]
    assert data["profile"] == "equal-hands"
    assert (four["max_tricks"], four["min_stock_left"]) == (7, 29)
    assert four["stock_can_run_out"] is False and four["all_out_possible"] is False
    assert four["hand_can_fail_to_end"] is False and four["match_can_fail_to_end"] is False
    assert four["rules"]["exhaustion"]["verdict"] == "never"
    assert four["rules"]["all_out"]["can_change"] == ["hand_winner"]
    assert four["rules"]["follow"]["can_change"] == ["play"]
    assert four["rules"]["elimination"]["witness"]["dealer"] in range(4)
    text = runner.invoke(cli, ["analyze", "equal-hands", "no-trumps", "-n", "3"])
    assert text.exit_code == 0
    assert "never   exhaustion" in text.output and "no-trumps" in text.output
    assert "hands, to replay:\n      1: rulesdsl play -p equal-hands -n 3 --deck" in text.output
    assert "can     elimination  a trick is won with a last card" in text.output


def test_analyze_refuses_a_player_count_the_profile_does_not_allow(capsys):
    assert main(["analyze", "equal-hands", "-n", "9"]) == 2
    assert "9 players are not allowed" in capsys.readouterr().err


# -- no simulated hand of any profile contradicts a "never" -----------------------------

EXTRA_TEXTS = {
    "PlayerRange": ("2", "3", "4", "5", "6"),
    "DeckRanks": ("A K Q J 10 9 8 7", "A K Q J", "A K Q", "K Q J 10 9 8 7 6 5 4 3 2 A"),
    "IntExpr": ("1", "2", "3", "5", "players + 1"),
    "CountOrWord": ("0", "1", "2", "3"),
    "MatchKind": ("target 1", "target 3", "hands 2", "hands players"),
}


def option_texts(name: str) -> list[str]:
    """The values to draw for an option: its kind's words, and a few values of its kind."""
    kind = OPTIONS[name].kind
    return [*kind.words(), *EXTRA_TEXTS.get(type(kind).__name__, ())]


def playable(values: dict[str, str]) -> Rules | None:
    if values["match"] in ("target", "hands"):
        return None
    rules = Rules().with_options(values)
    return None if any(p.is_error for p in rule_problems(rules)) else rules


random_values = st.fixed_dictionaries(
    {name: st.sampled_from(option_texts(name)) for name in OPTIONS}
)


EXTRA_RULES = """profile "extra" extends "equal-hands" {
    rule late-end {
        end when trick.number > 5 and stock.size < 30
        winner most(p in active: p.tricks)
    }
    rule early-end {
        end after trick 3
        winner none
    }
    rule low-lead {
        refuse lead if card.strength > 9 and stock.size < 25
    }
}
"""
EXTRA_DRAWS = """profile "draws" extends "equal-hands" {
    rule trump-draws-three {
        draw 3 if trick.won_by_trump else 0
    }
}
"""


@cache
def stated_pool() -> tuple[HouseRule, ...]:
    """Rules a profile may state: the shipped ones and a few more (of every kind)."""
    shipped = [r for name in shipped_names() for r in load(name).rules.house_rules]
    extra = [
        r
        for text in (EXTRA_RULES, EXTRA_DRAWS)
        for r in load_text(Path("/extra.rules"), text).rules.house_rules
    ]
    return tuple({r.name: r for r in [*shipped, *extra]}.values())


def with_stated(rules: Rules, picks: list[int]) -> Rules:
    """`rules` with the picked rules of the pool, at most one draw and one score rule."""
    chosen, steps = [], set()
    for rule in (stated_pool()[i] for i in picks):
        single = {Step.DRAW_COUNT, Step.SCORE} & set(rule.step_names)
        if not single & steps:
            chosen.append(rule)
            steps |= single
    return dataclasses.replace(rules, house_rules=tuple(chosen))


# Fewer tricks walked than `analyze` allows: a random profile beyond them is skipped.
PROPERTY_BUDGET = 20_000


def contradictions(rules: Rules, players: int, seed: int, model: CountModel) -> list[str]:
    """Every way a simulated hand (compiled path and reference engine) contradicts the
    count model's bounds or the "never" of an option or a stated rule at this player
    count."""
    questions = questions_for(rules)
    never = {name for name, q in questions.items() if q.never(Proofs(rules, model)) is not None}
    found = []
    rng = random.Random(seed)
    for i in range(12):
        deck = list(rules.cards)
        rng.shuffle(deck)
        hand = w.play_fast(rules, players, ("random",) * players, deck, seed + i, rng, i % players)
        if hand.reason == "trick_limit" and model.max_tricks is None:
            continue
        found += broken_bounds(model, hand)
        found += [f"{name} fired" for name in hand.fired & never]
    detectors = {name: questions[name].detectors for name in never}
    if model.max_tricks is not None:
        for candidate in w.candidates(rules, players, 4, seed, ("lowest", "highest", "random")):
            found += [f"{name} acted" for name in w.watch(rules, candidate, detectors).acted]
    return found


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    random_values,
    st.lists(st.integers(0, len(stated_pool()) - 1), max_size=3, unique=True),
    st.integers(0, 2**16),
)
def test_no_simulated_hand_of_a_random_profile_contradicts_a_never(values, picks, seed):
    rules = playable(values)
    assume(rules is not None)
    rules = with_stated(rules, picks)
    players = rules.players[0] + seed % (rules.players[1] - rules.players[0] + 1)
    model = build(rules, players, PROPERTY_BUDGET)
    assume(model.complete)
    names = [r.name for r in rules.house_rules]
    assert contradictions(rules, players, seed, model) == [], (rules.changed(), names)


# -- validate warns about a chosen rule that can never act ------------------------------


def warnings_of(tmp_path, body: str) -> list[tuple[int, int, str, str]]:
    path = tmp_path / "house.rules"
    path.write_text(f'profile "house" extends "equal-hands" {{\n{body}\n}}\n')
    return [(d.line, d.column, d.code, d.message) for d in checked_file(path).diagnostics]


def test_a_chosen_value_that_never_acts_is_a_dead_rule_warning_at_its_value(tmp_path):
    (found,) = warnings_of(tmp_path, "    exhaustion play_out")
    assert found[:3] == (2, 16, "dead-rule")
    assert found[3].startswith("exhaustion play_out never comes into play with 3\u20136 players")
    assert "at least 5 cards" in found[3]


@pytest.mark.parametrize(
    "body",
    [
        '    exhaustion play_out "the manual says so"',
        "    assumed exhaustion play_out",
        "    exhaustion last_draw_wins",
        "    hand_size 8\n    exhaustion play_out",
    ],
)
def test_a_dead_value_kept_knowingly_or_unchanged_or_alive_is_not_warned_about(tmp_path, body):
    assert [w for w in warnings_of(tmp_path, body) if w[2] == "dead-rule"] == []


def test_a_value_another_warning_already_points_at_gets_no_second_one(tmp_path):
    found = warnings_of(tmp_path, "    trump none\n    when_void trump_if_able")
    assert [w[2] for w in found] == ["never-applies"]


def test_show_and_explain_mark_a_rule_that_never_acts():
    runner = CliRunner()
    shown = runner.invoke(cli, ["show", "equal-hands", "--width", "200"]).output
    after = shown.split("\n  exhaustion", 1)[1].split("\n  all_out", 1)[0]
    assert (
        "(never comes into play with 3\u20136 players: the stock always keeps at least 5" in after
    )
    assert "never comes into play" not in shown.split("\n  draw", 1)[1].split("\n  exhaustion")[0]
    data = json.loads(runner.invoke(cli, ["show", "equal-hands", "--json"]).output)
    assert data["options"]["exhaustion"]["never_acts"].startswith("never comes into play")
    assert data["options"]["draw"]["never_acts"] is None
    sheet = " ".join(runner.invoke(cli, ["explain", "equal-hands"]).output.split())
    assert sheet.count("(never comes into play with 3\u20136 players") == 2
    portuguese = " ".join(
        runner.invoke(cli, ["explain", "no-trumps", "--lang", "pt"]).output.split()
    )
    assert "nunca entra em jogo com 3\u20136 jogadores" in portuguese


def test_compare_names_the_differing_rules_that_never_act_and_identical_games():
    equal = ("equal-hands", Rules())
    play_out = ("play-out", Rules().with_options({"exhaustion": "play_out"}))
    both = ("both", Rules().with_options({"exhaustion": "play_out", "all_out": "no_winner"}))
    house = ("house", Rules().with_options({"exhaustion": "play_out", "draw": "2"}))
    assert sameness(equal, play_out, 4).identical
    assert sameness(equal, both, 4).identical
    assert set(sameness(equal, both, 4).dead) == {"exhaustion", "all_out"}
    assert not sameness(equal, house, 4).identical
    lines = sameness_lines(samenesses([equal, play_out, house], 4))
    assert lines[0].startswith("exhaustion differs between equal-hands and play-out but never")
    assert "equal-hands and play-out play identical games with 4 players" in lines
    assert not any("and house play identical" in line for line in lines)
    result = CliRunner().invoke(cli, [*COMPARE_CATSATCARDS])
    assert result.output.index("play identical games") < result.output.index("paired hands")


COMPARE_CATSATCARDS = ("compare", "equal-hands", "catsatcards", "--hands", "20", "-j", "1")
COMPARE_CATSATCARDS += ("--no-skill",)
CATSATCARDS_NOTES = [
    "exhaustion differs between equal-hands and catsatcards but never acts with 4 players: "
    "the stock always keeps at least 29 cards (4 players: 36 after the deal, and a hand "
    "lasts at most 7 tricks)",
    "equal-hands and catsatcards play identical games with 4 players",
]


def test_compare_json_carries_the_note_before_the_table():
    result = CliRunner().invoke(cli, [*COMPARE_CATSATCARDS, "--json"])
    assert result.exit_code == 0, result.output
    (pair,) = json.loads(result.output)["sameness"]
    assert (pair["a"], pair["b"], pair["players"], pair["identical"]) == (
        "equal-hands",
        "catsatcards",
        4,
        True,
    )
    assert list(pair["never_act"]) == ["exhaustion"]
    assert pair["notes"] == CATSATCARDS_NOTES


def test_compare_csv_carries_the_note_before_the_table():
    result = CliRunner().invoke(cli, [*COMPARE_CATSATCARDS, "--csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    notes = [r for r in rows if r["kind"] in ("never_acts", "identical")]
    assert [(r["kind"], r["profile"], r["other"], r["metric"]) for r in notes] == [
        ("never_acts", "equal-hands", "catsatcards", "exhaustion"),
        ("identical", "equal-hands", "catsatcards", ""),
    ]
    assert [r["note"] for r in notes] == CATSATCARDS_NOTES
    assert all(r["note"] == "" for r in rows if r["kind"] in ("profile", "difference"))


def test_a_match_nobody_can_score_in_can_fail_to_end():
    rules = Rules().with_options(
        {"hand_size": "1", "elimination": "immediate", "scoring": "cards_in_hand"}
    )
    report = analyse("x", rules, 4).players[4]
    assert report.all_out.verdict is Verdict.CAN
    assert report.match_fails_to_end.verdict is Verdict.CAN
    assert "no hand can score" in report.match_fails_to_end.proof
    assert report.to_dict()["match_can_fail_to_end"] is True
    hands = Rules().with_options({**rules.changed(), "match": "hands 2"})
    assert analyse("x", hands, 4).players[4].match_fails_to_end.verdict is Verdict.NEVER


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_values, st.integers(0, 2**16))
def test_every_can_of_a_random_profile_replays_on_both_engines(values, seed):
    rules = playable(values)
    assume(rules is not None)
    players = rules.players[0] + seed % (rules.players[1] - rules.players[0] + 1)
    model = build(rules, players)
    assume(model.complete and model.max_tricks is not None)
    report = analyse("random", rules, players, tries=20).players[players]
    detectors = {name: q.detectors for name, q in option_questions(rules).items()}
    for name, finding in report.rules.items():
        assert finding.verdict is not Verdict.NEVER or finding.witness is None
        if finding.verdict is Verdict.CAN:
            assert w.check(rules, finding.witness, name, detectors), name
            assert w.same_on_compiled(rules, finding.witness), name


def test_past_its_state_budget_the_model_proves_nothing():
    model = build(Rules(), 4, budget=3)
    assert not model.complete
    finding = settle(option_questions(Rules())["exhaustion"], Rules(), model, None)
    assert finding.verdict is Verdict.UNKNOWN and "more than" in finding.proof
    assert dead_rules(Rules(), budget=3) == {}


def test_a_model_that_proves_nothing_claims_no_bound_and_says_why(monkeypatch):
    """Where the counts are unsettled (a rule whose effect on them is not known, or too
    many states), the report states no length of a hand and no least stock, and says why."""
    from rulesdsl.reason.analysis import verdicts
    from rulesdsl.words import analysis as words

    real = verdicts.build
    monkeypatch.setattr(verdicts, "build", lambda rules, players, *_: real(rules, players, 3))
    report = verdicts.analyse_players(Rules(), 4, tries=5)
    text = "\n".join(words._summary(report, 100))
    assert "more than" in text and "no bound is proved" in text
    assert "least stock left" not in text and "a hand lasts" not in text
    assert report.to_dict()["min_stock_left"] is None
    assert "more than" in report.to_dict()["counts_unsettled"]


def test_under_draw_by_everyone_the_draw_that_empties_the_stock_ends_the_hand():
    # 2 players, 1 card each, 50 in the stock, 2 drawn by each player a trick: 2 cards are
    # left for the 13th trick, and the winner's draw takes them and ends the hand
    rules = Rules().with_options(
        {"players": "2", "hand_size": "1", "draw": "per_card_in_trick", "draw_by": "everyone"}
    )
    model = build(rules, 2)
    assert (model.min_tricks, model.max_tricks) == (13, 13)
    assert model.winner_cards == {14}


# -- what the model reads off the rules a profile states --------------------------------


@pytest.fixture(scope="module")
def shipped_by_name():
    return dict(shipped_analyses())


def test_an_end_rule_that_acts_only_after_every_hand_is_over_never_acts(shipped_by_name):
    reports = shipped_by_name["time-limit"].players
    for players in (3, 4):
        finding = reports[players].rules["time-limit"]
        assert finding.verdict is Verdict.NEVER
        most = 2 * players - 1
        assert f"only from trick 8, and with {players} players no hand goes on past trick" in (
            finding.proof
        )
        assert f"at most {most} tricks" in finding.proof
    for players in (5, 6):
        assert reports[players].rules["time-limit"].verdict is Verdict.CAN
        # `end after trick 8` surely ends the hand there: no hand is longer
        assert reports[players].model.max_tricks == 8


def test_a_draw_count_on_tricks_won_by_a_trump_is_limited_by_the_trumps(shipped_by_name):
    reports = shipped_by_name["trump-wins-draw-two"].players
    for players in (3, 4):
        assert reports[players].stock_runs_out.verdict is Verdict.NEVER
    for players in (5, 6):
        assert reports[players].stock_runs_out.verdict is Verdict.CAN
    # the count is 1 or 2, never 0: the trick winner always draws, so nobody is all out
    assert all(r.all_out.verdict is Verdict.NEVER for r in reports.values())


def stated_rules(tmp_path, body: str) -> Rules:
    path = tmp_path / "stated.rules"
    path.write_text(f'profile "stated" extends "equal-hands" {{\n{body}\n}}\n')
    profile = load(str(path))
    assert not [d for d in profile.diagnostics if d.is_error], profile.diagnostics
    return profile.rules


@pytest.mark.parametrize(
    ("condition", "first", "sure"),
    [
        ("after trick 5", 5, 5),
        ("when trick.number > 3 and stock.size < 9", 4, None),
        ("when stock.size < 9 or trick.number >= 2", 1, 2),
        ("when 6 <= trick.number", 6, 6),
        ("when stock.size < 9", 1, None),
    ],
)
def test_the_first_and_the_sure_trick_of_an_end_rule(tmp_path, condition, first, sure):
    rules = stated_rules(tmp_path, f"rule r {{\n end {condition}\n winner none\n}}")
    (rule,) = rules.house_rules
    assert (stated.first_trick(rule), stated.sure_trick(rule)) == (first, sure)


@pytest.mark.parametrize(
    ("condition", "truths"),
    [
        ("all(p in active: p.cards < 2)", {False}),
        ("all(p in active where p.cards >= 6: p.cards < 2)", {True}),  # none kept: true
        ("any(p in active where p.cards >= 6: true)", {False}),  # none kept: false
        ("any(p in active where p.cards > 3: p.cards == 4)", {True}),
        ("any(p in active where p.cards < 4: p.cards == 4)", {False}),
        ("any(p in active where p.tricks > 0: p.cards == 3)", {True, False}),  # not known
        ("all(p in active where p.cards > 3: p.cards == 4)", {True}),
    ],
)
def test_the_count_model_reads_a_quantifier_over_the_seats_a_filter_keeps(condition, truths):
    """At active hands of 3 and 4 cards: a seat the filter surely leaves out is not asked;
    one it may leave out may make the quantifier either way."""
    from rulesdsl.model.language.vocab import Type, Where
    from rulesdsl.model.text import Pos
    from rulesdsl.read.language.compile import check_expression

    tree = check_expression(condition, Pos(1, 1), Where.END, Type.BOOL)
    counts = stated.Counts(players=3, sizes=(3, 4), stock=0, tricks=(2, 2))
    assert stated.truths(tree, counts) == truths


TRUMP = stated.Winning(trump=True)


@pytest.mark.parametrize(
    ("count", "kind", "of_kind", "otherwise"),
    [
        ("2 if trick.won_by_trump else 1", TRUMP, (2,), (1,)),
        ("1 if not trick.won_by_trump else 3", TRUMP, (3,), (1,)),
        ("min(players, 2) - 1", None, (1,), (1,)),  # a table seats 2 at least
        ("2 if trick.won_by_trump and stock.size > 3 else 0", TRUMP, (0, 1, 2), (0,)),
        ("2 if trick.best.rank == ace else 1", stated.Winning(rank=14), (2,), (1,)),
        ("3 if queen != trick.best.rank else 1", stated.Winning(rank=12), (1,), (3,)),
        ("0 if trick.best == QS else 1", stated.Winning(suit=3, rank=12), (0,), (1,)),
        ("2 if trick.best.suit == hearts else 1", stated.Winning(suit=2), (2,), (1,)),
    ],
)
def test_the_values_of_a_stated_draw_count(tmp_path, count, kind, of_kind, otherwise):
    rules = stated_rules(tmp_path, f"rule r {{\n draw {count}\n}}")
    (rule,) = rules.house_rules
    assert stated.draw_counts(rule, 52) == stated.DrawCounts(kind, of_kind, otherwise)


def test_a_draw_count_on_tricks_won_by_an_ace_is_limited_by_the_aces(shipped_by_name):
    reports = shipped_by_name["ace-draws-two"].players
    # four aces win at most four tricks: up to five players the stock outlasts the hand
    for players in (3, 4, 5):
        assert reports[players].stock_runs_out.verdict is Verdict.NEVER
    assert reports[6].stock_runs_out.verdict is Verdict.CAN


def test_a_hand_that_does_not_end_has_a_witness_the_engine_stops_at_its_trick_limit():
    rules = Rules().with_options({"exhaustion": "reshuffle", "draw_by": "everyone"})
    report = analyse("x", rules, 3, tries=20).players[3]
    finding = report.hand_fails_to_end
    assert finding.verdict is Verdict.CAN and report.to_dict()["hand_can_fail_to_end"] is True
    found = finding.witness
    assert found.trick == TRICK_LIMIT
    hand = w.replay(rules, found)
    bots = [make_bot(b) for b in found.bots]
    while not hand.is_over:
        hand.play(bots[hand.to_move].choose(hand, hand.legal_moves()))
    assert (hand.outcome.reason, hand.outcome.tricks) == ("trick_limit", TRICK_LIMIT)
    assert w.compiled_outcome(rules, found).reason == "trick_limit"
    options = ["--set", "exhaustion=reshuffle", "--set", "draw_by=everyone"]
    args = ["play", *options, "-n", "3", "--deck", found.deck_text, "--dealer", str(found.dealer)]
    result = CliRunner().invoke(cli, [*args, "--bots", found.bots_text, "--json"])
    assert result.exit_code == 0, result.output
    played = json.loads(result.output)
    assert (played["reason"], played["tricks"]) == ("trick_limit", TRICK_LIMIT)


def test_a_stated_rule_that_never_acts_is_a_dead_rule_warning_at_its_name(tmp_path):
    end_rule = "    rule time-limit {\n        end after trick 8\n        winner none\n    }"
    (found,) = warnings_of(tmp_path, f"    players 3..4\n{end_rule}")
    assert found[:3] == (3, 10, "dead-rule")
    assert found[3].startswith("rule time-limit never comes into play with 3\u20134 players")
    assert "only from trick 8" in found[3] and "at most 7 tricks" in found[3]
    # with 5 players a hand can go on past trick 8, so the rule can act
    assert warnings_of(tmp_path, f"    players 3..5\n{end_rule}") == []
    # the editor checks the text it holds the same way
    text = f'profile "house" extends "equal-hands" {{\n    players 3..4\n{end_rule}\n}}\n'
    edited = checked_text(tmp_path / "unsaved.rules", text).diagnostics
    assert [(d.line, d.column, d.code) for d in edited] == [(3, 10, "dead-rule")]


def test_every_shipped_model_is_complete_within_the_budget_validate_walks():
    """Bounding the tricks walked leaves every shipped profile's count model whole, for
    `validate` and the editor as for `analyze`."""
    for name in shipped_names():
        rules = load(name).rules
        low, high = rules.players
        for players in range(low, high + 1):
            assert build(rules, players, LINT_BUDGET).complete, (name, players)


LONG_NAME = "a-house-rule-with-a-very-long-name-indeed-that-goes-on"


@pytest.mark.parametrize("width", [80, 120])
def test_analyze_keeps_its_columns_for_long_rule_names(tmp_path, width):
    path = tmp_path / "long.rules"
    path.write_text(
        'profile "long" extends "equal-hands" {\n    players 4\n'
        f"    rule {LONG_NAME} {{\n        refuse lead if card.trump and trick.number == 1\n"
        "    }\n    rule short {\n        end after trick 8\n        winner none\n    }\n}\n"
    )
    result = CliRunner().invoke(cli, ["analyze", str(path), "--width", str(width)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    commands = [line for line in lines if line.lstrip().startswith(("1: ", "2: "))]
    assert commands and all("rulesdsl play" in line for line in commands)
    assert all(len(line) <= width for line in lines if line not in commands)
    rows = [line for line in lines if line[4:12].rstrip() in ("can", "never")]
    column = rows[0].index("the deck is dealt")
    assert column < width // 2
    for row in rows:
        if LONG_NAME in row:  # too long for its column: the proof goes under the others
            follows = lines[lines.index(row) + 1]
            assert follows[:column].strip() == "" and follows[column] != " "
        else:
            assert row[column - 1] == " " and row[column] != " ", row
    proof = lines[lines.index(next(r for r in rows if " short " in r)) + 1]
    assert proof[:column].strip() == ""  # a wrapped proof stays in its column


@pytest.mark.parametrize(("players", "dead"), [("4", True), ("3..4", False)])
def test_show_and_explain_mark_a_stated_rule_that_never_acts(tmp_path, players, dead):
    """With every card dealt at 4 players there is never a card to draw: a rule of the
    profile's own about the draw is marked; with 3 players too it can act."""
    path = tmp_path / "no-stock.rules"
    path.write_text(
        f'profile "no-stock" extends "equal-hands" {{\n    players {players}\n'
        "    hand_size 13\n    exhaustion play_out\n    rule two {\n        draw 2\n    }\n}\n",
        encoding="utf-8",
    )
    runner = CliRunner()
    shown = runner.invoke(cli, ["show", str(path), "--width", "200"]).output
    rule_part = shown.split("\n  rule two", 1)[1]
    assert ("(never comes into play" in rule_part) == dead
    data = json.loads(runner.invoke(cli, ["show", str(path), "--json"]).output)
    (rule,) = data["rules"]
    assert (rule["never_acts"] or "").startswith("never comes into play") == dead
    sheet = " ".join(runner.invoke(cli, ["explain", str(path)]).output.split())
    own = sheet.split("- two: ", 1)[1].split(" - ", 1)[0]  # said in place of the draw option
    assert ("(never comes into play" in own) == dead
