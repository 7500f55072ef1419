"""`rulesdsl diverge`: one deal under two profiles, the first event where they part, and why."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from support import deck_order, deck_text

from rulesdsl.model.cards import Card
from rulesdsl.model.rules import Rules
from rulesdsl.play.engine.events import Deal, Draw, Out, Play
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.players.bots import BOTS
from rulesdsl.read.profile import load, load_file
from rulesdsl.surfaces.main import main
from rulesdsl.words.diverge import first_divergence
from rulesdsl.words.explain import phrases

# Three players, seat 2 deals and shows 7H: hearts are trump. With the `lowest` bots,
# trick 1: 2C KC 5C, seat 1 wins and draws 2D; trick 2: 2D 5D 3D, seat 2 wins and draws
# 2S; trick 3: seat 2 leads 2S, seat 0 plays AS, its last card, seat 1 follows 4S:
# seat 0's last card wins, and the next stock card is 9D.
LAST_CARD = deck_order(["2C 3D AS", "KC KD 4S", "5C 5D 7H"], "2D 2S 9D", dealer=2)
# The same deal but seat 0, the opening leader, holds a trump (8H) and would lead 2C.
OPENING = deck_order(["2C 3D 8H", "KC KD 4S", "5C 5D 7H"], "2D 2S 9D", dealer=2)
IMMEDIATE = {"elimination": "immediate"}
THREE = {"players": 3, "dealer": 2, "bots": ("lowest",)}


def rules(name: str) -> Rules:
    return load(name).rules


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["diverge", *args])
    out, err = capsys.readouterr()
    return code, out, err


def deck_args(order: list[Card]) -> list[str]:
    return ["--deck", deck_text(order), "--dealer", "2", "-n", "3", "--bots", "lowest"]


# -- the library ----------------------------------------------------------------------


def test_a_last_card_winner_draws_under_after_draw_and_is_out_at_once_under_immediate():
    found = first_divergence(
        rules("equal-hands"), rules("instant-elimination"), order=LAST_CARD, **THREE
    )
    assert found is not None
    assert found.trick == 3
    assert found.a == Draw(3, 0, (Card.parse("9D"),), 40)
    assert found.b == Out(3, 0)
    assert found.options == ("elimination",)
    assert found.sentence == (
        "trick 3: seat 0's last card won; under A, seat 0 draws 9D and stays in; "
        "under B, seat 0 is out at once (elimination: after_draw vs immediate)"
    )
    assert found.outcome_a.reason == "last_player"
    assert found.outcome_b.eliminated[0] == (3, 0)


def test_a_forced_opening_lead_is_blamed_on_opening_lead():
    found = first_divergence(rules("equal-hands"), rules("opening-trumps"), order=OPENING, **THREE)
    assert found is not None
    assert (found.trick, found.event_index) == (1, 3)  # after the deal, trump and lead events
    assert found.a == Play(1, 0, Card.parse("2C"))
    assert found.b == Play(1, 0, Card.parse("8H"))
    assert found.options == ("opening_lead",)
    assert "since 2C is refused: the first lead must be a trump" in found.sentence


def test_a_different_hand_size_parts_at_the_deal():
    found = first_divergence(
        rules("equal-hands"), rules("seven-card-hands"), order=LAST_CARD, **THREE
    )
    assert found is not None
    assert (found.trick, found.event_index, found.options) == (0, 0, ("hand_size",))
    assert isinstance(found.a, Deal) and isinstance(found.b, Deal)
    assert [len(h) for h in found.b.hands] == [7, 7, 7]
    assert found.sentence.startswith("the deal: under A, seat 2 deals 3 cards each")


@pytest.mark.parametrize("bots", ["random", "heuristic", "lowest"])
def test_a_profile_against_itself_never_parts(bots):
    bicycle = rules("bicycle")
    for seed in range(10):
        assert first_divergence(bicycle, bicycle, 4, seed=seed, bots=(bots,)) is None


@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_an_option_that_never_fires_makes_no_divergence(bots):
    # Under after_draw elimination a trick winner always holds a card, so all_out never
    # decides a hand of the default rules.
    no_winner = Rules().with_options({"all_out": "no_winner"})
    for seed in range(20):
        assert first_divergence(Rules(), no_winner, 4, seed=seed, bots=(bots,)) is None


def test_the_same_trump_named_by_another_rule_is_no_divergence():
    fixed = Rules().with_options({"trump": "hearts"})  # LAST_CARD's dealer shows 7H
    assert first_divergence(Rules(), fixed, order=LAST_CARD, **THREE) is None


def test_out_before_or_after_the_winners_draw_is_no_divergence_when_nothing_else_changes():
    # Clubs are trump (5C). Seat 0 wins trick 1 with AC and draws KD, then wins trick 2
    # with KD while seats 1 and 2 play their last cards: both are out, before the draw
    # (immediate) or after it (after_draw), and seat 0 wins either way.
    order = deck_order(["AC AD", "2C 2D", "3D 5C"], "KD", dealer=2)
    two = {"hand_size": "2"}
    after, immediate = Rules().with_options(two), Rules().with_options(two | IMMEDIATE)
    assert first_divergence(after, immediate, order=order, **THREE) is None


def test_bots_that_only_chose_differently_are_told_apart_from_refusals():
    trumps = Rules().with_options({"when_void": "trump_if_able"})
    found = [first_divergence(Rules(), trumps, 4, seed=seed) for seed in range(120)]
    sentences = [f.sentence for f in found if f is not None]
    assert {f.options for f in found if f is not None} == {("when_void",)}
    assert any("since" in s and "is refused" in s for s in sentences)
    assert any("chose differently only because the legal cards differed" in s for s in sentences)


class CountingBot:
    """Plays by how many legal cards it has been offered so far: its state drifts."""

    name = "counting"

    def __init__(self, seed: int = 0) -> None:
        self.offered = seed % 7

    def choose(self, hand: Hand, legal: Sequence[Card]) -> Card:
        self.offered += len(legal)
        return legal[self.offered % len(legal)]


def test_bots_whose_state_drifted_point_back_to_where_the_legal_cards_differed(monkeypatch):
    monkeypatch.setitem(BOTS, "counting", CountingBot)
    trumps = Rules().with_options({"opening_lead": "trump_if_able"})
    found = [
        first_divergence(Rules(), trumps, 4, seed=seed, bots=("counting",)) for seed in range(40)
    ]
    drifted = [f for f in found if f is not None and "drifted apart at trick 1" in f.sentence]
    assert drifted
    assert all(f.options == ("opening_lead",) and f.trick > 1 for f in drifted)
    assert all("the first lead must be a trump" in f.sentence for f in drifted)


def test_side_a_is_the_hand_rulesdsl_play_plays(capsys):
    args = ["--deck", deck_text(LAST_CARD), "--dealer", "2", "-n", "3", "--seed", "5"]
    assert main(["play", *args, "--bots", "random", "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    found = first_divergence(
        Rules(), Rules().with_options({"hand_size": "4"}), 3, seed=5, dealer=2, order=LAST_CARD
    )
    assert {"hand": 1, "dealer": 2, **found.outcome_a.to_dict()} == played


# -- the command ----------------------------------------------------------------------


def test_the_report_names_the_trick_the_seat_and_the_option(capsys):
    code, out, err = run(capsys, "equal-hands", "instant-elimination", *deck_args(LAST_CARD))
    assert code == 0 and err == ""
    *wrapped, a, b = out.splitlines()
    assert all(line.startswith("  ") for line in wrapped[1:])
    sentence = " ".join(line.strip() for line in wrapped)
    assert sentence.startswith("trick 3: seat 0's last card won;")
    assert sentence.endswith("(elimination: after_draw vs immediate)")
    assert a == "  A (equal-hands): seat 2 wins (last_player) after 4 tricks"
    assert b == "  B (instant-elimination): seat 2 wins (all_out) after 4 tricks"


def test_json_gives_the_documented_shape(capsys):
    code, out, _ = run(
        capsys, "equal-hands", "opening-trumps", *deck_args(OPENING), "--seed", "3", "--json"
    )
    assert code == 0
    report = json.loads(out)
    assert set(report) == {
        "diverged",
        "trick",
        "event_index",
        "a",
        "b",
        "options",
        "sentence",
        "outcomes",
    }
    assert report["a"] == {"event": "play", "trick": 1, "seat": 0, "card": "2C"}
    assert report["b"] == {"event": "play", "trick": 1, "seat": 0, "card": "8H"}
    assert report["options"] == ["opening_lead"]
    assert set(report["outcomes"]) == {"a", "b"}
    assert report["outcomes"]["a"]["winner"] is not None


def test_identical_play_says_so(capsys):
    code, out, _ = run(capsys, "equal-hands", "equal-hands", "--seed", "4")
    assert (code, out) == (0, "the two profiles play this deal identically\n")
    code, out, _ = run(capsys, "equal-hands", "equal-hands", "--seed", "4", "--json")
    assert (code, json.loads(out)) == (0, {"diverged": False})


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuch", "equal-hands", "--seed", "1"], "no profile named `nosuch`"),
        (["equal-hands", "instant-elimination", "--deck", "2C 3C"], "--deck: the deck has 2"),
        (
            ["equal-hands", "instant-elimination", "--deck", "XX 2C"],
            "--deck (column 1): 'XX' is not a card",
        ),
        (["equal-hands", "bicycle", "--seed", "1", "--bots", "human"], "needs a bot at every"),
        (["equal-hands", "bicycle", "--seed", "1", "--bots", "lowst"], "did you mean 'lowest'"),
        (
            ["equal-hands", "catsatcards", "--seed", "1", "--players", "6"],
            "profile catsatcards: 6 players are not allowed",
        ),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert message in err


def test_a_broken_profile_file_is_one_line(capsys, tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text('profile "broken" extends "equal-hands" {\n    drawz 2\n    dral 3\n}\n')
    code, _, err = run(capsys, str(broken), "equal-hands", "--seed", "1")
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "unknown option `drawz`" in err and "1 more" in err


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("trick_winner", "left_of_winner"),
        ("trick_winner", "opening_leader"),
        ("left_of_winner", "opening_leader"),
    ],
)
def test_where_only_the_next_lead_differs_the_leads_part_and_next_lead_is_blamed(a, b):
    rules_a, rules_b = (Rules().with_options({"next_lead": v}) for v in (a, b))
    found = [
        first_divergence(rules_a, rules_b, 4, seed=seed, bots=("lowest",)) for seed in range(12)
    ]
    parted = [f for f in found if f is not None]
    assert parted, "some deal parts"
    for f in parted:
        assert (f.a.kind, f.b.kind) == ("lead", "lead") and f.a.seat != f.b.seat
        assert f.options == ("next_lead",)
        assert f"(next_lead: {a} vs {b})" in f.sentence
        assert "leads the next trick" in f.sentence


@pytest.mark.parametrize("lang", ["en", "pt", "uk"])
def test_a_card_a_stated_rule_refuses_is_told_in_the_rules_own_sentence(lang):
    stated = load("trumps-broken")
    found = first_divergence(rules("equal-hands"), stated.rules, 4, seed=2, lang=lang)
    assert found is not None and found.options == ("trumps-broken",)
    own = (stated.house[0].rule.sentence(lang) or "").removesuffix(".")
    assert phrases(lang).diverge("since_refused", card="7H", why=own) in found.sentence


@pytest.mark.parametrize("lang", ["en", "pt", "uk"])
def test_a_hand_a_stated_rule_ends_is_told_with_the_rules_name(tmp_path, lang):
    path = tmp_path / "short.rules"
    path.write_text(
        'profile "short" extends "equal-hands" {\n    rule short {\n'
        "        end after trick 2\n        winner none\n    }\n}\n",
        encoding="utf-8",
    )
    found = first_divergence(rules("equal-hands"), load_file(path).rules, 4, seed=2, lang=lang)
    assert found is not None and found.options == ("short",)
    assert phrases(lang).diverge("end_by_no_winner", rule="short") in found.sentence
    assert found.to_dict()["b"] == {
        "event": "hand_end",
        "winner": None,
        "reason": "house_rule",
        "tricks": 2,
        "rule": "short",
    }
