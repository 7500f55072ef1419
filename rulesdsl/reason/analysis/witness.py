"""Concrete hands that show a rule acting: a deck order, a dealer and the deterministic
bots `lowest`/`highest`, played by the reference engine and watched move by move.

A witness replays with `rulesdsl play --deck ... --dealer ... --bots ...` (the command
seeds reshuffles with seed 0, as `replay` here does), and plays the same game on the
compiled path (`compiled_outcome`).
"""

from __future__ import annotations

import copy
import random
import shlex
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rulesdsl.model.cards import Card
from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import Rules
from rulesdsl.model.seeds import derive
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.driver import Player
from rulesdsl.play.engine.events import Draw, TrickWon
from rulesdsl.play.engine.fast import HandPlayer, compile_hand, play_plain, to_int
from rulesdsl.play.engine.hand import Hand, card_beats
from rulesdsl.play.players.registry import make_bot

# The seed `rulesdsl play --deck` plays with when none is given.
REPLAY_SEED = 0
DETERMINISTIC = ("lowest", "highest")
# The line-ups of mixed bots a search tries, besides every seat playing alike.
MIXTURES = 6


@dataclass(frozen=True)
class Witness:
    """A hand that shows something happening, at trick `trick` (0: at the deal or the end)."""

    players: int
    deck: tuple[Card, ...]
    dealer: int
    bots: tuple[str, ...]
    trick: int
    plays: tuple[Card, ...] = ()

    @property
    def deck_text(self) -> str:
        return " ".join(map(str, self.deck))

    @property
    def bots_text(self) -> str:
        return self.bots[0] if len(set(self.bots)) == 1 else ",".join(self.bots)

    def command(self, profile: str) -> str:
        words = ["rulesdsl", "play", "-p", profile, "-n", str(self.players)]
        words += ["--deck", self.deck_text, "--dealer", str(self.dealer), "--bots", self.bots_text]
        return shlex.join(words)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "deck": self.deck_text,
            "dealer": self.dealer,
            "bots": self.bots_text,
            "trick": self.trick,
            "plays": [str(c) for c in self.plays],
        }


def replay_seed() -> int:
    """The hand seed `rulesdsl play --deck` deals with (it seeds reshuffles): every replay
    of a witness, on either engine, takes it from here."""
    return derive(REPLAY_SEED, "hand", 0)


def replay(rules: Rules, witness: Witness) -> Hand:
    """The hand dealt as `rulesdsl play --deck` deals it, before any card is played."""
    return Hand.deal(rules, witness.players, witness.dealer, list(witness.deck), replay_seed())


Driver = Callable[[Rules, int, tuple[str, ...]], HandPlayer]


def play_fast(
    rules: Rules,
    players: int,
    bots: tuple[str, ...],
    deck: Sequence[Card],
    hand_seed: int,
    rng: Stream,
    dealer: int,
    driver: Driver = compile_hand,
) -> HandResult:
    """One hand on the compiled path, as simulations play it (or, with `driver=play_plain`,
    the same driver before it is specialised: no time spent specialising, for a few
    hands): the only place the analysis calls that path."""
    play = driver(rules, players, bots)
    return play([to_int(c) for c in deck], hand_seed, rng, dealer)


def compiled_outcome(rules: Rules, witness: Witness, driver: Driver = compile_hand) -> HandResult:
    """The witness's hand played on the compiled path."""
    return play_fast(
        rules,
        witness.players,
        witness.bots,
        witness.deck,
        replay_seed(),
        Stream(REPLAY_SEED),
        witness.dealer,
        driver,
    )


# -- what a rule's acting looks like in a hand ------------------------------------------


@dataclass
class Moment:
    """One move about to be made: the hand, and the seat to move."""

    hand: Hand
    seat: int

    def allowed_before(self, rule: str) -> list[Card]:
        """The mover's cards that the rules before `rule` allow: what `rule` chooses among
        (a refused card is charged to the first rule that refuses it)."""
        refused = self.hand.refusals()
        held = self.hand.hands[self.seat]
        return [c for c in held if c not in refused or refused[c].rule == rule]

    def beats_best(self, card: Card) -> bool:
        """Whether `card` would beat the best card of the trick so far."""
        hand = self.hand
        best = hand.best_so_far()[1]
        return card_beats(card, best, hand.led_suit, hand.trump, hand.rules.rank_strength)


@dataclass
class TrickDone:
    """A trick just finished: its number, winner, whether the winner played their last
    card, the stock at the start of the trick, the events it caused, its cards, and who
    played to it."""

    hand: Hand
    number: int
    winner: int
    last_card: bool
    stock_before: int
    events: list
    in_trick: int
    seats: tuple[int, ...]  # who played to the trick, from its leader

    @property
    def drew(self) -> bool:
        return any(isinstance(e, Draw) for e in self.events)

    @property
    def other_drew(self) -> bool:
        """A player other than the trick's winner drew, by the rule of who draws (not by a
        rule the profile states that has a player draw too)."""
        drawers = self.hand.plan.drawers.rule
        return any(
            isinstance(e, Draw) and e.seat != self.winner and e.rule == drawers for e in self.events
        )

    def card_available(self) -> bool:
        """A card was there to draw at step 4: in the stock, or by a reshuffle."""
        return self.stock_before > 0 or self.hand.plan.refill.act.reshuffles

    def count_at_draw(self, seat: int) -> int:
        """The cards `seat` was to draw at step 4, by the rule that decides the count: asked
        of the state with the trick's led suit, seats, best card and winner put back (the
        next trick has started since)."""
        hand = self.hand
        (won,) = (e for e in self.events if isinstance(e, TrickWon))
        codes = hand.codes.ints(won.cards)
        s = copy.copy(hand.s)
        s.led = codes[0] & 3
        s.best = codes[self.seats.index(won.seat)]
        s.winner = won.seat
        s.trick_seats = self.seats
        return hand.plan.draw_count.act(s, seat)

    def in_at_draw(self, seat: int) -> bool:
        """Whether `seat` was still in at step 4: in now, or out at step 6 of this trick."""
        hand = self.hand
        out_after_draw = (self.number, seat) in hand.eliminated and not hand.plan.eliminate.act
        return hand.active[seat] or out_after_draw

    def stock_after_winner(self) -> int:
        """The stock once the trick's winner had drawn, and anyone a rule the profile
        states has draw a card too right after them."""
        drawers = self.hand.plan.drawers.rule
        drawn = [
            e
            for e in self.events
            if isinstance(e, Draw) and (e.seat == self.winner or e.rule != drawers)
        ]
        return drawn[-1].stock_left if drawn else self.stock_before


Detector = Callable[[Any], bool]


@dataclass(frozen=True)
class Detectors:
    """How a rule's acting shows: at a move, after a trick, or in the hand's outcome."""

    move: Detector | None = None
    trick: Detector | None = None
    outcome: Callable[[Hand], bool] | None = None
    # How near a hand's outcome comes to showing it (0 or more: it may): what a search
    # climbs toward when no random deal shows it.
    aim: Callable[[HandResult], int] | None = None


@dataclass
class Watched:
    """One hand watched: the trick (0 for the deal or the end) where each name first acted."""

    acted: dict[str, int] = field(default_factory=dict)
    tricks: int = 0
    outcome: HandResult | None = None
    plays: list[Card] = field(default_factory=list)


def watch(
    rules: Rules,
    witness: Witness,
    detectors: dict[str, Detectors],
    stop: set[str] | None = None,
    cap: int | None = None,
    players: Sequence[Player] | None = None,
) -> Watched:
    """Play the witness's hand, noting where each detector first fires (for at most `cap`
    tricks, when given: the outcome of a hand cut short is not looked at). `players` play
    the seats in place of the witness's bots."""
    hand = replay(rules, witness)
    bots = players or [make_bot(name) for name in witness.bots]
    seen = Watched()
    last_cards: dict[int, bool] = {}
    stock_before = len(hand.stock)
    seats: tuple[int, ...] = ()
    while not hand.is_over:
        seat = hand.to_move
        number = hand.tricks_played + 1
        moment = Moment(hand, seat)
        for name, d in detectors.items():
            if d.move is not None and name not in seen.acted and d.move(moment):
                seen.acted[name] = number
        if not hand.trick:
            stock_before, last_cards = len(hand.stock), {}
            seats = tuple(hand.trick_seats)
        last_cards[seat] = len(hand.hands[seat]) == 1
        card = bots[seat].choose(hand, hand.legal_moves())
        seen.plays.append(card)
        events = hand.play(card)
        won = [e for e in events if isinstance(e, TrickWon)]
        if won:
            winner = won[0].seat
            cards = len(won[0].cards)
            done = TrickDone(
                hand, number, winner, last_cards[winner], stock_before, events, cards, seats
            )
            for name, d in detectors.items():
                if d.trick is not None and name not in seen.acted and d.trick(done):
                    seen.acted[name] = number
        if stop is not None and stop <= set(seen.acted):
            break
        if cap is not None and hand.tricks_played >= cap and not hand.trick:
            break
    seen.tricks = hand.tricks_played
    seen.outcome = hand.outcome
    if hand.outcome is not None:
        for name, d in detectors.items():
            if d.outcome is not None and name not in seen.acted and d.outcome(hand):
                seen.acted[name] = 0
    return seen


def candidates(
    rules: Rules,
    players: int,
    tries: int,
    seed: int = 0,
    names: tuple[str, ...] = DETERMINISTIC,
) -> Iterator[Witness]:
    """Deals to try: shuffled decks, every dealer in turn, and bots from `names`: each
    name at every seat, then `MIXTURES` seat-by-seat mixtures, in turn (a few line-ups,
    so that the compiled path specialises few loops to replay the witnesses)."""
    rng = random.Random(derive(seed, "analyze", players))
    cards = list(rules.cards)
    line_ups = [(name,) * players for name in names]
    line_ups += [tuple(rng.choice(names) for _ in range(players)) for _ in range(MIXTURES)]
    for i in range(tries):
        order = cards[:]
        rng.shuffle(order)
        yield Witness(players, tuple(order), i % players, line_ups[i % len(line_ups)], 0)


# Deals the search plays, once every detector has fired (or those left have an aim to
# climb toward), looking for a hand as long as the count model's bound; past them the
# longest hand seen is reported as it is.
LONGEST_TRIES = 40
# The tricks the search watches of a hand, once no detector asks for a hand that does
# not end: where most hands go on for ever, each would otherwise play to the trick limit.
WATCHED_TRICKS = 100


@dataclass
class SearchFound:
    """What a search found: a witness per detector that fired, the longest hand seen, and
    for each detector with an aim the deal that came nearest (to climb from)."""

    witnesses: dict[str, Witness] = field(default_factory=dict)
    longest: Witness | None = None
    nearest: dict[str, tuple[int, Witness]] = field(default_factory=dict)


def search(
    rules: Rules,
    players: int,
    detectors: dict[str, Detectors],
    tries: int,
    longest_wanted: int | None = None,
    endless: str = "endless",
    longest_tries: int = LONGEST_TRIES,
) -> SearchFound:
    """Witnesses for as many detectors as `tries` deals find, and the longest hand seen
    (the search stops early once every detector has fired, or those left have an aim,
    and a hand of `longest_wanted` tricks is seen, or `longest_tries` deals are played).
    `endless` names the detector of a hand that does not end: until it fires, every hand
    is played to its end."""
    got = SearchFound()
    for number, candidate in enumerate(candidates(rules, players, tries)):
        wanted = {n: d for n, d in detectors.items() if n not in got.witnesses}
        cap = None if endless in wanted else WATCHED_TRICKS
        seen = watch(rules, candidate, wanted, cap=cap)
        plays = tuple(seen.plays)
        for name, trick in seen.acted.items():
            got.witnesses[name] = replace(candidate, trick=trick, plays=plays)
        for name, d in wanted.items():
            if d.aim is not None and seen.outcome is not None:
                near = d.aim(seen.outcome)
                if name not in got.nearest or near > got.nearest[name][0]:
                    got.nearest[name] = (near, candidate)
        if got.longest is None or seen.tricks > got.longest.trick:
            got.longest = replace(candidate, trick=seen.tricks, plays=plays)
        tried = number + 1 >= longest_tries
        long_enough = got.longest.trick >= (longest_wanted or 0) or tried
        left = [d for n, d in detectors.items() if n not in got.witnesses]
        if long_enough and all(d.aim is not None and tried for d in left):
            break
    return got


def climb(
    rules: Rules, name: str, detectors: Detectors, start: Witness, steps: int
) -> Witness | None:
    """A witness for `name` near `start`: swap two cards of the deck at a time (played by
    the compiled path's driver as written), keeping each swap that brings the hand
    no farther from the detector's aim; a hand that reaches it (aim 0) is watched on the
    reference engine, and is the witness if the detector fires there."""
    assert detectors.aim is not None
    rng = random.Random(derive(0, "climb", name))
    deck = list(start.deck)
    best = None
    for _ in range(steps):
        candidate = replace(start, deck=tuple(deck))
        near = detectors.aim(compiled_outcome(rules, candidate, play_plain))
        if best is None or near >= best[0]:
            best = (near, deck[:])
            if near >= 0:
                seen = watch(rules, candidate, {name: detectors})
                if name in seen.acted:
                    return replace(candidate, trick=seen.acted[name], plays=tuple(seen.plays))
        deck = best[1][:]
        i, j = rng.randrange(len(deck)), rng.randrange(len(deck))
        deck[i], deck[j] = deck[j], deck[i]
    return None


def check(rules: Rules, witness: Witness, name: str, detectors: dict[str, Detectors]) -> bool:
    """Whether the witness, replayed, shows `name` acting."""
    return name in watch(rules, witness, {name: detectors[name]}).acted


def same_on_compiled(rules: Rules, witness: Witness) -> bool:
    """Whether the compiled path plays the witness's hand to the same outcome."""
    hand = replay(rules, witness)
    bots = [make_bot(name) for name in witness.bots]
    while not hand.is_over:
        hand.play(bots[hand.to_move].choose(hand, hand.legal_moves()))
    expected, fast = hand.outcome, compiled_outcome(rules, witness)
    return (
        fast.winner == expected.winner
        and fast.reason == expected.reason
        and fast.tricks == expected.tricks
        and fast.stock_left == expected.stock_left
        and fast.trick_winners == expected.trick_winners
    )
