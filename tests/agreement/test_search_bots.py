"""The bots that search: named as any bot is, reproducible, playing any profile, and never
reading what their seat cannot know."""

from __future__ import annotations

import pytest
from replays import replay
from worlds_oracle.infoset import observe

from rulesdsl.model.cards import Card
from rulesdsl.model.rules import Rules
from rulesdsl.model.seeds import derive, shuffle
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.driver import play_hand
from rulesdsl.play.engine.events import Deal
from rulesdsl.play.engine.fast import int_deck
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.kernel import search
from rulesdsl.play.kernel.rows import SearchError
from rulesdsl.play.players.bots import RandomBot
from rulesdsl.play.players.registry import MAX_SEARCH, UnknownBot, make_bot
from rulesdsl.read.profile import load, shipped_names

SEARCHERS = ("pimc:3", "ismcts:12", "solver:3")
POSITIONS = 12


@pytest.fixture(autouse=True)
def quick_solves(monkeypatch):
    """The solver's questions cut short, so the solver's bots play quickly on CPython (a
    question past its budget is scored by a playout)."""
    monkeypatch.setattr(search, "SOLVE_BUDGET", 300)


@pytest.mark.parametrize("name", ["pimc:1", "pimc:50", "ismcts:200", f"pimc:{MAX_SEARCH}"])
def test_a_search_bot_is_made_from_its_name(name):
    assert make_bot(name, 3).name == name


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("pimc:x", "a whole number from 1 to 10,000"),
        ("pimc:0", "a whole number from 1 to 10,000"),
        (f"ismcts:{MAX_SEARCH + 1}", "ismcts:50"),
        ("pimc:", "worlds"),
        ("ismcts:-3", "iterations"),
        ("pimcc:5", "did you mean 'pimc'"),
        ("nobody", "pimc:N"),
    ],
)
def test_a_bad_search_bot_name_says_what_is_expected(name, words):
    with pytest.raises(UnknownBot, match=words):
        make_bot(name)


def small(profile: str) -> Rules:
    """A shipped profile on 24 cards at three players, for quick hands."""
    return load(profile).rules.with_options(
        {"deck": "A K Q J 10 9", "players": "3", "hand_size": "3"}
    )


@pytest.mark.parametrize("name", SEARCHERS)
def test_a_search_bot_plays_the_same_hand_again_for_the_same_seed(name):
    rules = small("equal-hands")
    results = []
    for _ in range(2):
        players = [make_bot(name, derive(5, "bot", seat)) for seat in range(3)]
        hand = Hand.deal(rules, 3, 1, seed=11)
        play_hand(hand, players)
        results.append([e for e in hand.events])
    assert results[0] == results[1]


PROFILES = [
    *shipped_names(),
    "profiles/house/must-overtrump.rules",
    "profiles/house/trumps-broken.rules",
    "profiles/house/time-limit.rules",
    "profiles/house/trump-wins-draw-two.rules",
]


@pytest.mark.parametrize("profile", PROFILES)
def test_search_bots_play_every_profile_to_its_end(profile):
    rules = small(profile)
    players = [make_bot("pimc:2", 1), make_bot("ismcts:6", 2), RandomBot(3)]
    result = play_hand(Hand.deal(rules, 3, 0, seed=4), players)
    assert result.tricks >= 1


@pytest.mark.parametrize("profile", ["two-of-clubs-leads", "lowest-follower-draws"])
def test_search_bots_play_rules_of_who_leads_and_who_draws_on_the_whole_deck(profile):
    """The two of clubs in play: its holder leads, and a world never deals it elsewhere."""
    for seed in range(3):
        hand = Hand.deal(load(profile).rules, 4, seed, seed=seed)
        players = [make_bot("pimc:3", seed), RandomBot(2), make_bot("ismcts:8", 3), RandomBot(4)]
        assert play_hand(hand, players).tricks >= 1


def deck(rules: Rules, seed: int) -> list[Card]:
    order = list(rules.cards)
    shuffle(order, Stream(seed))
    return order


def unseen_places(hand: Hand, order: list[Card], seat: int) -> list[int]:
    """The places in the deck order whose card `seat` has not seen (nor will, by the
    position): other players' cards and the stock."""
    info = observe(hand, seat)
    seen = {*info.fixed.values(), *(p.card for p in info.plays)}
    return [k for k, card in enumerate(order) if card not in seen]


def variants(hand: Hand, order: list[Card], seat: int, plays: list[Card], count: int):
    """Hands with the same history as `hand` where two cards `seat` has not seen changed
    places (between other players' hands and the stock), as far as the history stays
    legal: every one of them is the same information set for `seat`."""
    places = unseen_places(hand, order, seat)
    stream = Stream(len(plays))
    made = 0
    for _ in range(20 * count):
        a, b = places[stream.below(len(places))], places[stream.below(len(places))]
        if a == b:
            continue
        other = list(order)
        other[a], other[b] = other[b], other[a]
        variant = replay(hand.rules, hand.players, other, plays)
        if variant is None or variant.cards(seat) != hand.cards(seat):
            continue
        assert observe(variant, seat).plays == observe(hand, seat).plays
        made += 1
        yield variant
        if made == count:
            return


class Peeking:
    """A bot that reads every hand: it plays out the true position, to show that the test
    below notices a bot that reads what its seat cannot know."""

    name = "peeking"

    def choose(self, hand: Hand, legal: list[Card]) -> Card:
        seat = hand.to_move

        def wins(card: Card) -> int:
            total = 0
            for n in range(8):
                world = hand.copy()
                world.play(card)
                bot = RandomBot(n)
                while not world.is_over:
                    world.play(bot.choose(world, world.legal_moves()))
                total += world.outcome.winner == seat
            return total

        return max(legal, key=wins)


def changed_decisions(make, profile: str) -> tuple[int, int]:
    """How many decisions of the bot `make()` changed under a change of the cards its
    seat cannot see, of how many positions tried."""
    rules = load(profile).rules
    positions = changed = 0
    for seed in range(POSITIONS):
        order = deck(rules, seed)
        truth = Hand.deal(rules, 4, 0, order=order)
        walker = RandomBot(seed)
        plays: list[Card] = []
        while not truth.is_over and len(plays) < 3 + 2 * seed:
            card = walker.choose(truth, truth.legal_moves())
            truth.play(card)
            plays.append(card)
        if truth.is_over or len(truth.legal_moves()) < 2:
            continue
        seat = truth.to_move
        chosen = make().choose(truth, truth.legal_moves())
        for variant in variants(truth, order, seat, plays, 4):
            assert variant.legal_moves() == truth.legal_moves()
            changed += make().choose(variant, variant.legal_moves()) != chosen
            positions += 1
    return changed, positions


@pytest.mark.parametrize("name", SEARCHERS)
@pytest.mark.parametrize(
    "profile", ["equal-hands", "bicycle", "profiles/house/must-overtrump.rules"]
)
def test_no_search_bot_reads_what_its_seat_cannot_know(name, profile):
    changed, positions = changed_decisions(lambda: make_bot(name, 9), profile)
    assert changed == 0 and positions >= 12


def test_a_bot_that_reads_the_other_hands_is_caught():
    changed, _ = changed_decisions(Peeking, "equal-hands")
    assert changed > 0


def test_a_search_bot_refuses_a_hand_without_its_deal():
    hand = Hand.from_position(
        Rules(), [[Card.parse("AS"), Card.parse("2S")], [Card.parse("KS")], [Card.parse("2C")]]
    )
    with pytest.raises(SearchError, match=r"Hand\.deal"):
        make_bot("pimc:2").choose(hand, hand.legal_moves())
    assert not [e for e in hand.events if isinstance(e, Deal)]


def test_play_and_diverge_take_search_bots(capsys):
    from rulesdsl.surfaces.main import main

    code = main(
        [
            "play",
            "--bots",
            "pimc:2,ismcts:4,heuristic,random",
            "--seed",
            "3",
            "--json",
            "--set",
            "match=target 1",
        ]
    )
    out, _ = capsys.readouterr()
    assert code == 0 and '"winner"' in out
    code = main(["diverge", "equal-hands", "bicycle", "--bots", "pimc:2", "--seed", "4"])
    out, _ = capsys.readouterr()
    assert code == 0 and "equal-hands" in out
    code = main(["play", "--bots", "pimc:0", "--seed", "3", "--json"])
    _, err = capsys.readouterr()
    assert code == 2 and "from 1 to 10,000" in err


def test_the_playout_policy_plays_alike_alone_and_among_other_bots():
    """A seat on the playout policy plays as `pick_playout` whether the table is all
    playout seats or a mix of bots (each seat's own bot)."""
    from functools import partial

    from rulesdsl.model.seeds import shuffle
    from rulesdsl.play.engine import fast

    rules = load("equal-hands").rules
    alone = fast.table_for(rules, 4, ("playout",) * 4)
    mixed = alone._replace(pick=partial(fast.pick_by_seat, kinds=(4, 4, 4, 4)))
    for game in range(20):
        order = list(fast.int_deck(rules))
        shuffle(order, Stream(game + 50))
        results = [fast.play(t, order, game, Stream(game), game % 4) for t in (alone, mixed)]
        assert results[0] == results[1]


def unread_after_hands(monkeypatch, others: str) -> list[int]:
    """Whether `solver:2` at seat 0 found, in each of four hands against `others`, that
    they do not play as the heuristic bot (it then reads their plays' legality alone);
    no decision gave up."""
    from rulesdsl.play.kernel import hands
    from rulesdsl.play.kernel.rows import search_rows

    made = []
    monkeypatch.setattr(hands, "search_rows", lambda: made.append(search_rows()) or made[-1])
    monkeypatch.setattr(search, "MODEL_PROPOSALS", 2_000)
    rules = small("equal-hands")
    play = hands.kernel_player(rules, 3, ("solver:2", others, others))
    found = []
    for number in range(4):
        deck = list(int_deck(rules))
        shuffle(deck, Stream(number))
        play(deck, number, Stream(number), number % 3)
        g, w = made[-1][0], made[-1][1]
        assert w.gave_up == 0
        found.append(g.unread & 1)
    return found


def test_the_solver_bot_reads_the_heuristic_bot_as_such_all_hand(monkeypatch):
    assert unread_after_hands(monkeypatch, "heuristic") == [0, 0, 0, 0]


def test_the_solver_bot_reads_legality_alone_once_the_others_play_otherwise(monkeypatch):
    assert any(unread_after_hands(monkeypatch, "random"))
