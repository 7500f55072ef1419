"""A rule written in Python by another package: install rulesdsl and the example package
of examples/rulesdsl-example-rule, and use its rule `lead_from longest_suit` from a profile,
through every command and in both engines."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import sysconfig
from collections import Counter
from pathlib import Path

import pytest

from rulesdsl.model.cards import FULL_DECK

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "examples" / "rulesdsl-example-rule"
DECK = [str(card) for card in FULL_DECK]
random.Random(3).shuffle(DECK)
ORDER = " ".join(DECK)

PROFILE = 'profile "longest" extends "equal-hands" {\n    lead_from longest_suit\n}\n'
YAML_PROFILE = "profile: longest-yaml\nextends: equal-hands\nlead_from: longest_suit\n"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder with rulesdsl and the example package installed into it, as pip installs."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--no-build-isolation",
            "--target",
            str(target),
            str(ROOT),
            str(EXAMPLE),
        ],
        check=True,
    )
    return target


def python(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """Python with the installed folder first; the dependencies from the test's environment."""
    path = os.pathsep.join([str(site), sysconfig.get_paths()["purelib"]])
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path},
        cwd=cwd,
    )


def rulesdsl(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    result = python(site, "-m", "rulesdsl.surfaces", *args, cwd=cwd)
    assert result.returncode == 0, result.stderr
    assert "refused" not in result.stderr
    return result


@pytest.fixture
def profile(tmp_path) -> Path:
    path = tmp_path / "longest.rules"
    path.write_text(PROFILE)
    return path


def test_the_rule_comes_from_the_installed_packages(site, tmp_path):
    # The unit's module first: it imports rulesdsl.model.units while the registry is not built.
    code = (
        "import rulesdsl_longest_suit, rulesdsl\n"
        "from rulesdsl.model.rules import OPTIONS\n"
        "print(rulesdsl.__file__, OPTIONS['lead_from'] is rulesdsl_longest_suit.UNIT)"
    )
    result = python(site, "-c", code, cwd=tmp_path)
    assert result.stderr == ""
    assert result.stdout.startswith(str(site))
    assert result.stdout.split()[-1] == "True"
    options = rulesdsl(site, "options", cwd=tmp_path).stdout
    assert "lead_from" in options


def test_validate_show_and_explain_know_the_rule(site, profile, tmp_path):
    yaml_profile = tmp_path / "longest-yaml.yaml"
    yaml_profile.write_text(YAML_PROFILE)
    checked = rulesdsl(site, "validate", str(profile), str(yaml_profile), cwd=tmp_path)
    assert "2 file(s) checked: 0 error(s), 0 warning(s)" in checked.stderr
    shown = rulesdsl(site, "show", str(profile), cwd=tmp_path).stdout
    assert "lead_from     longest_suit       stated   set in" in shown
    sentences = {
        "en": "The leader must lead a card of the suit they hold the most cards of.",
        "pt": "Quem sai tem de jogar uma carta do naipe de que tem mais cartas.",
        "uk": "Той, хто ходить першим, мусить зайти з масті, якої має найбільше карт.",
    }
    for lang, sentence in sentences.items():
        sheet = rulesdsl(
            site, "explain", str(profile), "--lang", lang, "--width", "200", cwd=tmp_path
        )
        assert f"- {sentence}" in sheet.stdout.splitlines()


def leads(trace: str) -> list[tuple[list[str], str]]:
    """Each lead of the traced hand: the leader's cards as it leads, and the card led."""
    hands: list[list[str]] = []
    found = []
    trick = None
    for event in map(json.loads, trace.splitlines()):
        kind = event["event"]
        if kind == "deal":
            hands = event["hands"]
        elif kind == "draw":
            hands[event["seat"]] += event["cards"]
        elif kind == "play":
            seat, card = event["seat"], event["card"]
            if event["trick"] != trick:
                trick = event["trick"]
                found.append((list(hands[seat]), card))
            hands[seat].remove(card)
    return found


def test_play_leads_from_a_longest_suit_in_the_reference_engine(site, profile, tmp_path):
    args = ("play", "--bots", "lowest", "--deck", ORDER, "--dealer", "0")
    traced = rulesdsl(site, *args, "--profile", str(profile), "--trace", "-", cwd=tmp_path)
    events = "\n".join(line for line in traced.stdout.splitlines() if line.startswith("{"))
    found = leads(events)
    assert len(found) >= 5
    for hand, card in found:
        suits = Counter(c[-1] for c in hand)
        assert suits[card[-1]] == max(suits.values()), (hand, card)
    with_rule = rulesdsl(site, *args, "--profile", str(profile), "--json", cwd=tmp_path)
    without = rulesdsl(site, *args, "--json", cwd=tmp_path)
    assert json.loads(with_rule.stdout) != json.loads(without.stdout)


FAST_PATH = """
import random
from rulesdsl.play.players.bots import RandomBot
from rulesdsl.play.players.registry import make_bot
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.fast import compile_hand, to_int
from rulesdsl.model.rules import Rules
from rulesdsl.model.stream import Stream

rules = Rules().with_options({"lead_from": "longest_suit"})
changed = 0
for seed in range(40):
    bots = ("lowest", "random", "heuristic", "highest")
    order = list(rules.cards)
    random.Random(seed).shuffle(order)
    hand = Hand.deal(rules, 4, seed % 4, order=order, seed=seed)
    shared = Stream(seed + 1)
    play_hand(hand, [RandomBot(shared) if b == "random" else make_bot(b) for b in bots])
    deck = [to_int(c) for c in order]
    fast = compile_hand(rules, 4, bots)(deck, seed, Stream(seed + 1), seed % 4)
    assert fast == hand.outcome, seed
    plain = compile_hand(Rules(), 4, bots)(deck, seed, Stream(seed + 1), seed % 4)
    changed += plain != fast
assert changed, "the rule changes no hand"
print("ok", changed)
"""


def test_the_fast_path_plays_the_rule_as_the_reference_engine_does(site, profile, tmp_path):
    result = python(site, "-c", FAST_PATH, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ok")
    simulated = rulesdsl(
        site, "simulate", str(profile), "--hands", "200", "--workers", "1", cwd=tmp_path
    )
    fires = next(line for line in simulated.stdout.splitlines() if "lead_from fires" in line)
    assert not fires.split()[-2].startswith("0.0%"), fires


def test_diverge_names_the_rule_that_refused_the_lead(site, profile, tmp_path):
    args = ("diverge", "equal-hands", str(profile), "--deck", ORDER, "--bots", "lowest")
    told = rulesdsl(site, *args, "--width", "200", cwd=tmp_path).stdout.splitlines()[0]
    assert told == (
        "trick 1: seat 1 to lead; under A, seat 1 leads 2D; under B, seat 1 leads 5H, since 2D "
        "is refused: lead from your longest suit (lead_from: any vs longest_suit)"
    )
