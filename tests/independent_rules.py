"""A small, plain player of RULES.md sections 2, 3 and 4, written from that page alone, and
its comparison with `rulesdsl play --decks FILE --bots lowest|highest --json --set ...`.

It imports nothing of the engine or the rule units: a card is a (rank, suit) pair of texts,
the options are the texts given to `--set`, and every rule is stated once more here, step by
step. Only a reshuffle's order is taken from the trace (RULES.md leaves it to chance): the
cards drawn after it, which must be set-aside cards.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulesdsl.surfaces.main import main

Card = tuple[str, str]  # rank text, suit letter: ("10", "H")
SUITS = "CDHS"  # section 4: the suit order for ties, C < D < H < S
STANDARD = "A K Q J 10 9 8 7 6 5 4 3 2"
SUIT_WORDS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}

# The texts of `--set` this player knows, per option (section 3), default first.
VALUES: dict[str, tuple[str, ...]] = {
    "deck": ("standard", "A K Q J 10 9 8 7", "K Q J 10 9 8 7 6 5 4 3 2 A", "A 10 K Q J 9 8 7"),
    "hand_size": ("players", "3", "players + 1"),
    "trump": ("dealer_last_card", "stock_turnup", "stock_bottom", "none", "hearts"),
    "opening_lead": ("any", "trump_if_able"),
    "follow": ("suit", "suit_or_trump", "any"),
    "when_void": ("any", "trump_if_able"),
    "must_head": ("no", "yes"),
    "draw": ("1", "0", "2", "per_card_in_trick"),
    "draw_by": ("winner", "everyone"),
    "elimination": ("after_draw", "immediate"),
    "exhaustion": ("last_draw_wins", "play_out", "reshuffle", "most_tricks"),
    "all_out": ("last_trick_winner", "no_winner"),
    "next_lead": ("trick_winner", "left_of_winner", "opening_leader"),
}
NEW = ("follow", "draw_by", "next_lead", "trump", "deck")  # the options new in section 3
PLAYERS = (3, 4, 5, 6)
HAND_SIZE: dict[str, Callable[[int], int]] = {
    "players": lambda n: n,
    "3": lambda n: 3,
    "players + 1": lambda n: n + 1,
}


def ranks(deck: str) -> list[str]:
    """The ranks of the deck, high to low (section 3, deck)."""
    return (STANDARD if deck == "standard" else deck).split()


def cards_of(deck: str) -> list[Card]:
    return [(rank, suit) for suit in SUITS for rank in ranks(deck)]


def text(card: Card) -> str:
    return card[0] + card[1]


def endless(options: Mapping[str, str]) -> bool:
    """Section 3: with reshuffle, a draw of 2 or more (or everyone drawing) need not end."""
    draws = options["draw"] != "0"
    many = options["draw"] not in ("0", "1") or (options["draw_by"] == "everyone" and draws)
    return options["exhaustion"] == "reshuffle" and many


def playable(options: Mapping[str, str], players: int) -> bool:
    """Section 3: the deal fits the deck, and the stock may be empty only where the profile
    says what then happens."""
    dealt = players * HAND_SIZE[options["hand_size"]](players)
    turned = options["trump"] in ("stock_turnup", "stock_bottom")
    stock = len(cards_of(options["deck"])) - dealt - turned
    empty_ends = options["exhaustion"] == "last_draw_wins" and options["draw"] != "0"
    return stock >= 0 and not (stock == 0 and empty_ends)


@dataclass
class Hand:
    """One hand under `options`, played by the bots `bots` (one name per seat)."""

    options: Mapping[str, str]
    order: Sequence[Card]
    players: int
    dealer: int
    bots: Sequence[str]
    reshuffled: list[list[Card]]  # the cards drawn after each reshuffle, from the trace
    hands: list[list[Card]] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)
    set_aside: list[Card] = field(default_factory=list)
    trump: str | None = None
    out: list[list[int]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    plays: list[list[Any]] = field(default_factory=list)

    def strength(self, card: Card) -> int:
        order = ranks(self.options["deck"])
        return len(order) - order.index(card[0])

    def key(self, card: Card) -> tuple[int, int]:
        """Section 4: (rank, suit), rank by the profile's order."""
        return self.strength(card), SUITS.index(card[1])

    # -- section 4: the deal -------------------------------------------------------------

    def deal(self) -> None:
        n, order = self.players, list(self.order)
        size = HAND_SIZE[self.options["hand_size"]](n)
        dealt = n * size
        self.hands = [[] for _ in range(n)]
        for k in range(dealt):
            self.hands[(self.dealer + 1 + k) % n].append(order[k])
        rule = self.options["trump"]
        self.stock = order[dealt:]
        if rule == "dealer_last_card":
            self.trump = order[dealt - 1][1]
        elif rule == "stock_turnup":
            self.trump, self.stock = order[dealt][1], order[dealt + 1 :]
        elif rule == "stock_bottom":
            self.trump, self.stock = order[dealt][1], [*order[dealt + 1 :], order[dealt]]
        elif rule != "none":
            self.trump = SUIT_WORDS[rule]

    # -- section 2, step 1: the cards a player may play -----------------------------------

    def allowed(self, seat: int, trick: Sequence[tuple[int, Card]], first: bool) -> list[Card]:
        held = self.hands[seat]
        trumps = [c for c in held if c[1] == self.trump]
        if not trick:  # the lead
            if first and self.options["opening_lead"] == "trump_if_able" and trumps:
                return trumps
            return list(held)
        led = trick[0][1][1]
        of_led = [c for c in held if c[1] == led]
        if of_led:
            follow = self.options["follow"]
            if follow == "suit":
                allowed = of_led
            elif follow == "suit_or_trump":
                allowed = [c for c in held if c[1] in (led, self.trump)]
            else:
                allowed = list(held)
        elif self.options["when_void"] == "trump_if_able" and trumps:
            allowed = trumps
        else:
            allowed = list(held)
        if self.options["must_head"] == "yes":
            best = trick[self.best(trick)][1]
            heading = [c for c in allowed if self.beats(c, best, led)]
            allowed = heading or allowed
        return allowed

    def beats(self, card: Card, best: Card, led: str) -> bool:
        """Section 1 rule 8: a trump beats any other suit and a lower trump; otherwise only a
        higher card of the led suit wins."""
        if card[1] == self.trump:
            return best[1] != self.trump or self.strength(card) > self.strength(best)
        return card[1] == led == best[1] and self.strength(card) > self.strength(best)

    def best(self, trick: Sequence[tuple[int, Card]]) -> int:
        """The index in `trick` of the card winning it so far."""
        led, at = trick[0][1][1], 0
        for i, (_, card) in enumerate(trick):
            if self.beats(card, trick[at][1], led):
                at = i
        return at

    def choose(self, seat: int, allowed: Sequence[Card]) -> Card:
        pick = min if self.bots[seat] == "lowest" else max
        return pick(allowed, key=self.key)

    # -- section 2, steps 3 to 10 ----------------------------------------------------------

    def draw(self, seat: int, count: int, number: int) -> int:
        """Step 4: up to `count` cards from the top of the stock; an empty stock under
        reshuffle is refilled from the set-aside cards first."""
        drawn = 0
        for _ in range(count):
            if not self.stock and self.options["exhaustion"] == "reshuffle" and self.set_aside:
                self.reshuffle()
            if not self.stock:
                break
            self.hands[seat].append(self.stock.pop(0))
            drawn += 1
        return drawn

    def reshuffle(self) -> None:
        """The set-aside cards in a new order: the order the trace shows them drawn in."""
        seen = self.reshuffled.pop(0) if self.reshuffled else []
        pool = list(self.set_aside)
        if not set(seen) <= set(pool):
            raise AssertionError(f"cards drawn after a reshuffle were not set aside: {seen}")
        self.stock = seen + [c for c in pool if c not in seen]
        self.set_aside = []

    def eliminate(self, active: list[bool], seats: Sequence[int], number: int) -> None:
        for seat in seats:  # in the order they played to the trick
            if active[seat] and not self.hands[seat]:
                active[seat] = False
                self.out.append([number, seat])

    def next_active(self, seat: int, active: Sequence[bool]) -> int:
        """`seat` if active, else the next active seat clockwise."""
        while not active[seat % self.players]:
            seat += 1
        return seat % self.players

    def play(self) -> dict[str, Any]:
        """Play the hand out; its outcome as `play --json` gives it."""
        self.deal()
        n, options = self.players, self.options
        active = [bool(h) for h in self.hands]
        leader = first_leader = (self.dealer + 1) % n
        won, last_win = [0] * n, [0] * n
        number = 0
        while True:
            number += 1
            seats = [(leader + i) % n for i in range(n) if active[(leader + i) % n]]
            trick: list[tuple[int, Card]] = []
            for seat in seats:
                card = self.choose(seat, self.allowed(seat, trick, number == 1))
                self.hands[seat].remove(card)
                trick.append((seat, card))
                self.plays.append([number, seat, text(card)])
            winner = trick[self.best(trick)][0]  # step 2
            self.winners.append(winner)
            won[winner] += 1
            last_win[winner] = number
            self.set_aside += [c for _, c in trick]
            if options["elimination"] == "immediate":  # step 3
                self.eliminate(active, seats, number)
            end = self.draws(winner, active, len(trick), number)  # steps 4 and 5
            if end is not None:
                return self.outcome(end, "stock_exhausted", number)
            if options["elimination"] == "after_draw":  # step 6
                self.eliminate(active, seats, number)
            if active.count(True) == 1:  # step 7
                return self.outcome(active.index(True), "last_player", number)
            if not any(active):  # step 8
                who = winner if options["all_out"] == "last_trick_winner" else None
                return self.outcome(who, "all_out", number)
            if options["exhaustion"] == "most_tricks" and not self.stock:  # step 9
                best = max(range(n), key=lambda s: (won[s], last_win[s]))
                return self.outcome(best, "most_tricks", number)
            rule = options["next_lead"]  # step 10
            start = {"trick_winner": winner, "left_of_winner": winner + 1}.get(rule, first_leader)
            leader = self.next_active(start, active)

    def draws(self, winner: int, active: list[bool], in_trick: int, number: int) -> int | None:
        """Step 4, and step 5: the seat whose draw took the last stock card under
        last_draw_wins, else None."""
        draw = self.options["draw"]
        count = in_trick if draw == "per_card_in_trick" else int(draw)
        drawers = [winner] if active[winner] else []
        if self.options["draw_by"] == "everyone":
            others = [(winner + i) % self.players for i in range(1, self.players)]
            drawers += [s for s in others if active[s]]
        for seat in drawers:
            took = self.draw(seat, count, number)
            if took and not self.stock and self.options["exhaustion"] == "last_draw_wins":
                return seat
        return None

    def outcome(self, winner: int | None, reason: str, tricks: int) -> dict[str, Any]:
        return {
            "winner": winner,
            "reason": reason,
            "tricks": tricks,
            "eliminated": self.out,
            "stock_left": len(self.stock),
            "trump": self.trump,
            "trick_winners": self.winners,
        }


# -- the command, and the comparison ------------------------------------------------------


@dataclass(frozen=True)
class Played:
    """What `rulesdsl play` printed for each deal: its outcome, its plays, and the cards
    drawn after each reshuffle."""

    outcomes: list[dict[str, Any]]
    plays: list[list[list[Any]]]
    reshuffled: list[list[list[Card]]]


def command(
    options: Mapping[str, str],
    players: int,
    dealer: int,
    bots: Sequence[str],
    orders: Sequence[Sequence[Card]],
) -> tuple[int, Played | str]:
    """Run `rulesdsl play --decks FILE --bots ... --json --set ...`: its exit status, and
    what it played (or its error output)."""
    with tempfile.TemporaryDirectory() as folder:
        decks, trace = Path(folder) / "decks.txt", Path(folder) / "trace.jsonl"
        decks.write_text("".join(" ".join(map(text, o)) + "\n" for o in orders))
        args = ["play", "--decks", str(decks), "--bots", ",".join(bots), "--json"]
        args += ["-n", str(players), "--dealer", str(dealer), "--trace", str(trace)]
        for name, value in {"players": str(players), **options}.items():
            args += ["--set", f"{name}={value}"]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
        if code != 0:
            return code, err.getvalue()
        events = [json.loads(line) for line in trace.read_text().splitlines()]
    outcomes = [json.loads(line) for line in out.getvalue().splitlines()]
    plays: list[list[list[Any]]] = [[] for _ in outcomes]
    reshuffled: list[list[list[Card]]] = [[] for _ in outcomes]
    for event in events:
        hand = event["hand"] - 1
        if event["event"] == "play":
            plays[hand].append([event["trick"], event["seat"], event["card"]])
        elif event["event"] == "reshuffle":
            reshuffled[hand].append([])
        elif event["event"] == "draw" and reshuffled[hand]:
            reshuffled[hand][-1] += [(c[:-1], c[-1]) for c in event["cards"]]
    return 0, Played(outcomes, plays, reshuffled)


def disagreements(
    options: Mapping[str, str],
    players: int,
    dealer: int,
    bots: Sequence[str],
    seed: int,
    deals: int,
) -> list[str]:
    """Where the command and this player part, on `deals` shuffles of the deck drawn from
    `seed`; empty when they agree on every deal."""
    rng = random.Random(seed)
    orders = []
    for _ in range(deals):
        order = cards_of(options["deck"])
        rng.shuffle(order)
        orders.append(order)
    code, played = command(options, players, dealer, bots, orders)
    if code != 0 or not isinstance(played, Played):
        return [f"play exits {code}: {played}"]
    found = []
    for k, order in enumerate(orders):
        mine = Hand(options, order, players, dealer, bots, list(played.reshuffled[k]))
        expected = mine.play()
        got = {key: played.outcomes[k][key] for key in expected}
        if (got, played.plays[k]) != (expected, mine.plays):
            found.append(f"deal {k + 1}: play says {got}, the rules say {expected}")
    return found
