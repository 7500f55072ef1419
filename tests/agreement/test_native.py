"""The native path plays exactly the hands of the pure-Python fast path and of the reference
engine, from the same seeds: the same HandResult, field for field, with random bots and the
deterministic ones, under random option combinations and the rules profiles state.

Each profile compiled here costs seconds the first time; kernels are cached on disk, so the
tests compile few profiles and a second run reads them back. `make test` plays the rules
the shipped house profiles state in three kernels (one alone, the others together by the
steps they act at) and two random option combinations; a thorough run
(HYPOTHESIS_PROFILE=thorough) each stated rule alone as well, and a dozen combinations."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba", reason="numba is not installed: pip install 'rulesdsl[fast]'")

import numpy as np
from sizing import examples, sized
from support import settings_strategy

from rulesdsl.model import seeds, stream
from rulesdsl.model.rules import Rules, RulesError
from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.fast import compile_hand, int_deck, table_for, to_int
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.engine.inline import specialised_tree
from rulesdsl.play.native import ENV, driver, runtime
from rulesdsl.play.native.card_masks import hands_as_arrays, masked
from rulesdsl.play.native.driver import ELIMINATED, TRICKS, hand_result
from rulesdsl.play.native.kernel import chunks, kernel, position
from rulesdsl.play.native.lower import KEPT, lower
from rulesdsl.play.players.bots import RandomBot
from rulesdsl.play.players.registry import make_bot
from rulesdsl.read.profile import load
from rulesdsl.reason import sim
from rulesdsl.surfaces.main import main

HOUSE = sorted(Path("profiles/house").glob("*.rules"))
TOGETHER = [
    ("must-overtrump",),  # its kernel plays on from positions below too
    ("no-trump-first-lead", "trumps-broken"),  # the lead rules
    ("points-for-tricks", "time-limit", "trump-wins-draw-two"),  # a draw, a score, an end
]
STATED = sized(TOGETHER, [(path.stem,) for path in HOUSE] + TOGETHER[1:])
"""The rules the shipped house profiles state, played in a kernel together."""
MIXED = ("random", "heuristic", "lowest", "highest")  # every bot, in one kernel


@pytest.fixture(autouse=True)
def native_on(monkeypatch):
    monkeypatch.setenv(ENV, "1")


@settings(deadline=None)  # the first example compiles
@given(st.integers(0, 2**64 - 1), st.integers(1, 2**40))
def test_the_native_stream_draws_the_numbers_of_the_stream(seed, drawn):
    python = stream.Stream(seed, drawn)
    native = runtime.new_stream(np.uint64(seed))
    native[1] = np.uint64(drawn)
    assert runtime.number(np.uint64(seed), np.uint64(drawn)) == stream.number(seed, drawn)
    assert [runtime.next_uniform(native) for _ in range(40)] == python.take(40)
    assert runtime.next_seed(native) == python.split()
    cards, copy = list(range(52)), np.arange(52)
    seeds.shuffle(cards, python)
    runtime.shuffle(copy, native)  # an array, as the chunk loops deal
    assert copy.tolist() == cards


def test_chunks_played_in_one_call_are_the_chunks_played_one_by_one():
    rules = load("denexa").rules
    compiled = kernel(rules, 4, MIXED)
    cards = np.array(int_deck(rules), np.int64)
    played = compiled.chunks(cards, chunks([5, 6, 7], [8, 9, 10], [0, 40, 80], [40, 40, 3]))
    alone = [compiled.deals(cards, 5 + k, 8 + k, 40 * k, (40, 40, 3)[k]) for k in range(3)]
    assert np.array_equal(played, np.concatenate([deals.rows for deals in alone]))


@settings(deadline=None)
@given(
    st.lists(st.integers(0, 62), max_size=20, unique=True),
    st.integers(-25, 25),
    st.integers(-25, 25),
    st.integers(1, 5),
)
def test_the_set_of_a_slice_is_the_set_of_its_cards(cards, start, stop, step):
    got = runtime.mask_of_slice(np.array(cards, np.int64), start, stop, step)
    assert got == sum(1 << c for c in cards[start:stop:step])


@settings(deadline=None)
@given(st.lists(st.integers(-1, 62), max_size=20))
def test_the_set_of_a_padded_row_is_the_set_of_its_cards(cards):
    got = runtime.mask_of_kept(np.array(cards, np.int64))
    assert got == sum(1 << c for c in set(cards) if c >= 0)


def native_hands(rules: Rules, players: int, bots: tuple[str, ...], count: int, seed: int):
    """`count` deals of a chunk on the native path, as HandResults, with their decks."""
    compiled = kernel(rules, players, bots)
    cards = int_deck(rules)
    deals_seed, bots_seed = sim.deals_seed(seed, 0, cards), seed + 1
    played = compiled.deals(np.array(cards, np.int64), deals_seed, bots_seed, 0, count)
    counted = compiled.chunks(
        np.array(cards, np.int64), chunks([deals_seed], [bots_seed], [0], [count])
    )
    assert np.array_equal(counted, played.rows)  # simulate's hands, without the lists
    found, winners, outs = [], 0, 0
    for row in played.rows:
        tricks, out = row[TRICKS], row[ELIMINATED]
        trick_winners = played.trick_winners[winners : winners + tricks]
        eliminated = played.eliminated[outs : outs + out]
        found.append(hand_result(row, trick_winners, eliminated, compiled.plan))
        winners, outs = winners + tricks, outs + out
    decks = sim._Decks(seed, 0, [cards])
    return found, [decks.next_deal()[0] for _ in range(count)], bots_seed


def assert_three_engines_agree(rules: Rules, players: int, bots: tuple[str, ...], count: int):
    """The native chunk, the pure-Python fast path and the reference engine, deal by deal."""
    native, decks, bots_seed = native_hands(rules, players, bots, count, seed=7)
    fast = compile_hand(rules, players, bots)
    fast_bots, reference_bots = stream.Stream(bots_seed), stream.Stream(bots_seed)
    players_of = [RandomBot(reference_bots) if b == "random" else make_bot(b) for b in bots]
    by_int = {to_int(card): card for card in rules.cards}
    for row, (deck, hand_seed) in enumerate(decks):
        dealer = row % players
        assert fast(list(deck), hand_seed, fast_bots, dealer) == native[row]
        order = [by_int[c] for c in deck]
        hand = Hand.deal(rules, players, dealer, order=order, seed=hand_seed)
        assert play_hand(hand, players_of) == native[row]


@pytest.mark.parametrize("names", STATED, ids="+".join)
def test_each_stated_rule_plays_the_same_hands_on_every_engine(names):
    stated = [r for name in names for r in load(f"profiles/house/{name}.rules").rules.house_rules]
    rules = dataclasses.replace(load("equal-hands").rules, house_rules=tuple(stated))
    assert_three_engines_agree(rules, 4, MIXED, 300)


def test_random_bots_play_the_same_hands_on_every_engine():
    assert_three_engines_agree(load("denexa").rules, 4, ("random",) * 4, 400)


@settings(
    max_examples=examples(2, 12),
    derandomize=True,  # the same option combinations every run: their kernels are cached
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(settings_strategy, st.integers(2, 6))
def test_random_option_combinations_play_the_same_hands_on_every_engine(options, players):
    rules = Rules().with_options({**options, "players": "2..6"})
    try:
        rules.check_players(players)
    except RulesError:
        return
    bots = (MIXED * 2)[:players]
    assert_three_engines_agree(rules, players, bots, 250)


def simulate_json(capsys, *args: str) -> str:
    code = main(["simulate", "equal-hands", "--hands", "600", "--json", *args])
    out, _ = capsys.readouterr()
    assert code == 0
    return out


def test_simulate_json_is_byte_identical_native_and_pure_and_for_any_workers(capsys, monkeypatch):
    native = simulate_json(capsys, "--workers", "1")
    assert simulate_json(capsys, "--workers", "2") == native
    monkeypatch.setenv(ENV, "0")
    assert simulate_json(capsys, "--workers", "1") == native
    assert json.loads(native)["units"] == 600


def test_the_native_path_is_taken_unless_turned_off(monkeypatch):
    spec = sim.Spec(profiles=(("equal-hands", load("equal-hands").rules),), units=10)
    assert sim.native_kernels(spec) is not None
    monkeypatch.setenv(ENV, "0")
    assert sim.native_kernels(spec) is None


def test_unless_forced_a_run_too_small_to_pay_for_the_kernel_plays_on_the_pure_path(monkeypatch):
    monkeypatch.delenv(ENV)
    rules = load("equal-hands").rules
    profiles = (("a", rules), ("b", rules))
    fewest = sim.NATIVE_FROM // len(profiles)
    assert sim.native_kernels(sim.Spec(profiles=profiles, units=fewest - 1)) is None
    assert sim.native_kernels(sim.Spec(profiles=profiles, units=fewest)) is not None
    monkeypatch.setenv(ENV, "1")
    assert sim.native_kernels(sim.Spec(profiles=profiles, units=1)) is not None


@pytest.mark.parametrize("name", ["equal-hands", "denexa", "bicycle", "kids-games"])
def test_every_hand_and_set_of_cards_made_from_one_is_a_mask(name):
    """The card-mask pass takes the shipped profiles whole (else they play on lists)."""
    rules = load(name).rules
    lowered = ast.unparse(ast.fix_missing_locations(masked_hand(rules)))
    assert "hands = np.zeros(4, np.int64)" in lowered  # the hands are an array of masks
    assert "mask_of" in lowered and "sorted(" not in lowered and ".remove(" not in lowered


@pytest.mark.parametrize(
    ("use", "array"), [("hands[1] = hands[0] | 2", True), ("hands.append(0)", False)]
)
def test_a_list_of_hands_becomes_an_array_only_where_nothing_needs_a_list(use, array):
    text = f"def f(deck):\n    hands = [mask_of(deck) for seat in range(4)]\n    {use}\n"
    function = ast.parse(text).body[0]
    hands_as_arrays(function, {"hands"})
    lowered = ast.unparse(ast.fix_missing_locations(function))
    assert ("np.zeros(4, np.int64)" in lowered) is array


def masked_hand(rules: Rules) -> ast.Module:
    table = table_for(rules, 4, MIXED)
    fixed = {"trace": False, "players": 4}
    tree = specialised_tree(driver.play_native, {"t": table, "details": True}, fixed, KEPT)
    return ast.Module([masked(lower(tree.module.body[0], tree.objects, "hand").function)], [])


@pytest.mark.parametrize("name", ["denexa", "must-overtrump"])
@pytest.mark.parametrize("first", [0, 2])
def test_play_on_from_a_position_plays_the_reference_engines_hand(name, first):
    """From a position mid-hand and mid-trick, the native rollout plays what the reference
    engine plays from it with the same bots and stream."""
    rules = load(name).rules
    compiled = kernel(rules, 4, MIXED)
    lowest = make_bot("lowest")
    compared = 0
    for game in range(30):
        setup = dict(dealer=game % 4, seed=game)
        dealt = Hand.deal(rules, 4, **setup)
        for _ in range(4 * (game % 3) + first):  # a few cards played by the lowest bot
            if dealt.outcome is None:
                dealt.play(lowest.choose(dealt, dealt.legal_moves()))
        if dealt.outcome is not None or dealt.s.trick_number == 0:
            continue
        s = dealt.s
        played = list(s.trick)
        hands = [sorted(h) for h in s.hands]
        for seat, card in zip(s.trick_seats, played, strict=False):
            hands[seat] = sorted([*hands[seat], card])
        cards = dealt.codes.cards
        reference = Hand.from_position(
            rules,
            [cards(h) for h in hands],
            cards(reversed(s.stock)),
            dealt.trump,
            s.leader,
            out=[seat for seat in range(4) if not s.active[seat]],
            set_aside=cards(s.set_aside),
            opening=s.opening,
            seed=game + 100,
        )
        for card in played:
            reference.play(cards([card])[0])
        shared = stream.Stream(game + 7)
        bots = [RandomBot(shared) if b == "random" else make_bot(b) for b in MIXED]
        expected = play_hand(reference, bots)
        out = [seat for seat in range(4) if not s.active[seat]]
        at = position(
            hands, s.stock, s.set_aside, s.trump, s.leader, out, s.opening, game + 100, played
        )
        assert compiled.play_on(at, game + 7) == expected
        compared += 1
    assert compared >= 15


def test_a_profile_without_a_native_form_plays_on_the_pure_python_path(monkeypatch, capsys):
    from rulesdsl.play.kernel import compiled
    from rulesdsl.play.kernel.plan import NotNative
    from rulesdsl.play.native import kernel as kernels
    from rulesdsl.play.native.lower import NativeError

    def refuse(*args):
        raise NativeError("no native form")

    def not_the_kernels(*args):
        raise NotNative("not the kernel's")

    native = simulate_json(capsys, "--workers", "1")
    monkeypatch.setattr(kernels, "ready", refuse)
    monkeypatch.setattr(compiled, "compiled_profile", not_the_kernels)
    spec = sim.Spec(profiles=(("equal-hands", load("equal-hands").rules),), units=10)
    assert sim.native_kernels(spec) is None
    assert simulate_json(capsys, "--workers", "1") == native


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("@numba.njit()\ndef f(x):\n    return x + 1", None),
        ("@numba.njit(inline='always')\ndef f(x):\n    return x + 1", None),
        ("@numba.njit(inline='never')\ndef f(x):\n    return x", "decorator"),
        ("@numba.njit(cache=True)\ndef f(x):\n    return x", "decorator"),  # numba's own cache
        ("@numba.njit()\ndef f(x):\n    return 'always'", "constant"),
        ("@numba.njit()\ndef f(x):\n    return open(x)", "unknown name"),
    ],
)
def test_a_kernel_module_holds_only_its_decorators_names_and_literals(text, refused):
    from rulesdsl.play.native.kernel import check_tree
    from rulesdsl.play.native.lower import NativeError

    module = ast.parse(text)
    if refused is None:
        check_tree(module)
    else:
        with pytest.raises(NativeError, match=refused):
            check_tree(module)
