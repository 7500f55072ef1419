"""The play rules of docs/rules.md (equal hands, the order of a
trick, the options, the deal), stated once more from that page alone: the one independent
oracle the tests hold the engines to.

Its rules import nothing of rulesdsl: a card is a (rank, suit) pair of texts, ("10", "H");
the options are their texts, as `--set` takes them and `Rules.text` gives them back; every
rule is a plain function here. A new option or value is stated here once, and every test
that needs an independent statement of the rules checks it:
tests/agreement/test_rules_independent.py plays whole hands with `Player` and compares them
with `rulesdsl play`, card by card (`disagreements`, the one place that runs the command;
benchmarks/rules_agreement.py runs it over the whole product of the options), and
tests/properties/test_properties.py holds the reference engine to these functions after
every single play of random profiles.
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

Card = tuple[str, str]  # rank text, suit letter: ("10", "H")
Trick = Sequence[tuple[int, Card]]  # (seat, card) in the order played
Options = Mapping[str, str]
SUITS = "CDHS"  # section 4: the suit order for ties, C < D < H < S
STANDARD = "A K Q J 10 9 8 7 6 5 4 3 2"
SUIT_WORDS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}

# The texts of `--set` the player knows, per option (section 3), default first.
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


# -- section 3: the deck and what the options allow -------------------------------------------


def ranks(deck: str) -> list[str]:
    """The ranks of the deck, high to low (section 3, deck)."""
    return (STANDARD if deck == "standard" else deck).split()


def cards_of(deck: str) -> list[Card]:
    return [(rank, suit) for suit in SUITS for rank in ranks(deck)]


def text(card: Card) -> str:
    return card[0] + card[1]


def strength(card: Card, options: Options) -> int:
    """How high the card's rank is: the deck lists its ranks highest first."""
    order = ranks(options["deck"])
    return len(order) - order.index(card[0])


def key(card: Card, options: Options) -> tuple[int, int]:
    """Section 4: (rank, suit), rank by the profile's order."""
    return strength(card, options), SUITS.index(card[1])


def endless(options: Options) -> bool:
    """Section 3: only reshuffle, with a draw of 2 or more or with every player drawing,
    may go on for ever."""
    draws = options["draw"] != "0"
    many = options["draw"] not in ("0", "1") or (options["draw_by"] == "everyone" and draws)
    return options["exhaustion"] == "reshuffle" and many


def playable(options: Options, players: int) -> bool:
    """Section 3: the deal fits the deck, and the stock may be empty only where the profile
    says what then happens."""
    dealt = players * HAND_SIZE[options["hand_size"]](players)
    turned = options["trump"] in ("stock_turnup", "stock_bottom")
    stock = len(cards_of(options["deck"])) - dealt - turned
    empty_ends = options["exhaustion"] == "last_draw_wins" and options["draw"] != "0"
    return stock >= 0 and not (stock == 0 and empty_ends)


def trick_bound(options: Options, players: int, size: int, in_deck: int, limit: int) -> int:
    """The most tricks a hand of `size` cards each from a deck of `in_deck` may take before
    it must have ended; `limit` is where the engine stops a hand that may never end."""
    draw = options["draw"]
    if options["draw_by"] == "everyone" and draw != "0":
        # a trick takes a card from the stock while there is one, and then from the hands
        return limit if endless(options) else in_deck
    if draw in ("0", "1"):
        return players * size  # within the cards dealt
    if not endless(options):
        return in_deck // 2  # each trick sets aside at least two cards for good
    return limit


# -- section 4: the deal -----------------------------------------------------------------------


@dataclass(frozen=True)
class Dealt:
    """The deal: each seat's cards in the order received, the stock (top first), the trump
    suit, the card that showed it, and the card turned up beside the stock."""

    hands: list[list[Card]]
    stock: list[Card]
    trump: str | None
    shown: Card | None
    turnup: Card | None


def deal(order: Sequence[Card], players: int, dealer: int, size: int, options: Options) -> Dealt:
    """One card at a time clockwise from the dealer's left; then the trump rule."""
    order = list(order)
    dealt = players * size
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(dealt):
        hands[(dealer + 1 + k) % players].append(order[k])
    rule, stock = options["trump"], order[dealt:]
    if rule == "dealer_last_card":  # the dealer's last card, which the dealer keeps
        last = order[dealt - 1]
        return Dealt(hands, stock, last[1], last, None)
    if rule == "stock_turnup":  # the top of the stock, set aside face up
        top = order[dealt]
        return Dealt(hands, stock[1:], top[1], top, top)
    if rule == "stock_bottom":  # the top of the stock, turned and put at its bottom
        top = order[dealt]
        return Dealt(hands, [*stock[1:], top], top[1], top, None)
    return Dealt(hands, stock, None if rule == "none" else SUIT_WORDS[rule], None, None)


# -- section 2, steps 1 and 2: the cards a player may play, and who wins the trick -------------


def beats(card: Card, best: Card, led: str, trump: str | None, options: Options) -> bool:
    """Section 1 rule 8: a trump beats any other suit and a lower trump; otherwise only a
    higher card of the led suit wins."""
    higher = strength(card, options) > strength(best, options)
    if trump is not None and card[1] == trump:
        return best[1] != trump or higher
    return card[1] == led == best[1] and higher


def trick_winner(trick: Trick, trump: str | None, options: Options) -> int:
    """The seat whose card wins the trick (so far): the highest trump, else the highest card
    of the led suit."""
    led = trick[0][1][1]
    trumps = [(strength(card, options), seat) for seat, card in trick if card[1] == trump]
    if trumps:
        return max(trumps)[1]
    return max((strength(card, options), seat) for seat, card in trick if card[1] == led)[1]


def allowed(
    held: Sequence[Card], trick: Trick, trump: str | None, first: bool, options: Options
) -> list[Card]:
    """Section 3: opening_lead, follow, when_void and must_head, in that order. `first` is
    whether this is the first trick of the hand."""
    trumps = [c for c in held if c[1] == trump]
    if not trick:  # the lead
        if first and options["opening_lead"] == "trump_if_able" and trumps:
            return trumps
        return list(held)
    led = trick[0][1][1]
    of_led = [c for c in held if c[1] == led]
    if of_led:
        follow = options["follow"]
        if follow == "suit":
            cards = of_led
        elif follow == "suit_or_trump":
            cards = [c for c in held if c[1] in (led, trump)]
        else:
            cards = list(held)
    elif options["when_void"] == "trump_if_able" and trumps:
        cards = trumps
    else:
        cards = list(held)
    if options["must_head"] == "yes":
        winning = trick_winner(trick, trump, options)
        best = next(card for seat, card in trick if seat == winning)
        heading = [c for c in cards if beats(c, best, led, trump, options)]
        cards = heading or cards
    return cards


# -- section 2, steps 3 to 10 ----------------------------------------------------------------


def draw_count(options: Options, in_trick: int) -> int:
    """Step 4: how many cards each drawer draws."""
    return in_trick if options["draw"] == "per_card_in_trick" else int(options["draw"])


def drawers(options: Options, winner: int, active: Sequence[bool]) -> list[int]:
    """Step 4: who draws, in order: the winner if still in, then under `draw_by everyone`
    every other player still in, clockwise from the winner."""
    players = len(active)
    found = [winner] if active[winner] else []
    if options["draw_by"] == "everyone":
        others = [(winner + i) % players for i in range(1, players)]
        found += [s for s in others if active[s]]
    return found


def next_active(seat: int, active: Sequence[bool]) -> int:
    """`seat` if active, else the next active seat clockwise."""
    players = len(active)
    while not active[seat % players]:
        seat += 1
    return seat % players


def next_leader(options: Options, winner: int, first_leader: int, active: Sequence[bool]) -> int:
    """Step 10: who leads the next trick."""
    rule = options["next_lead"]
    start = {"trick_winner": winner, "left_of_winner": winner + 1}.get(rule, first_leader)
    return next_active(start, active)


def most_tricks_winner(trick_winners: Sequence[int]) -> int:
    """Step 9: the player who won the most tricks; of those tied, the one who won a trick
    last."""
    won = {seat: trick_winners.count(seat) for seat in trick_winners}
    last = {seat: number for number, seat in enumerate(trick_winners)}
    return max(won, key=lambda seat: (won[seat], last[seat]))


def all_out_winner(options: Options, last_winner: int) -> int | None:
    """Step 8: when every player is out at once."""
    return last_winner if options["all_out"] == "last_trick_winner" else None


# -- section 2: between hands ------------------------------------------------------------------


def points(options: Options, winner_cards: int) -> int:
    """What the hand's winner scores."""
    return 1 if options["scoring"] == "one_per_hand" else winner_cards


def match_over(options: Options, points: Sequence[int], hands: int, count: int) -> bool:
    """Whether the match is over after `hands` hands: a target reached, or the hands all
    played (`count` is the match's number for the table)."""
    if options["match"].split()[0] == "target":
        return max(points) >= count
    return hands >= count


def next_dealer(options: Options, dealer: int, winner: int | None, players: int) -> int:
    if options["next_dealer"] == "hand_winner" and winner is not None:
        return winner
    return (dealer + 1) % players


# -- a whole hand ------------------------------------------------------------------------------


@dataclass
class Player:
    """One hand under `options`, played by the bots `bots` (`lowest` or `highest`, one per
    seat) from the deck `order`."""

    options: Options
    order: Sequence[Card]
    players: int
    dealer: int
    bots: Sequence[str]
    reshuffled: list[list[Card]]  # the cards drawn after each reshuffle (docs/rules.md leaves
    # their order to chance: the caller takes it from the trace)
    hands: list[list[Card]] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)
    set_aside: list[Card] = field(default_factory=list)
    trump: str | None = None
    out: list[list[int]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    plays: list[list[Any]] = field(default_factory=list)

    def choose(self, seat: int, cards: Sequence[Card]) -> Card:
        pick = min if self.bots[seat] == "lowest" else max
        return pick(cards, key=lambda card: key(card, self.options))

    def draw(self, seat: int, count: int) -> int:
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

    def play(self) -> dict[str, Any]:
        """Play the hand out; its outcome as `play --json` gives it."""
        n, options = self.players, self.options
        size = HAND_SIZE[options["hand_size"]](n)
        dealt = deal(self.order, n, self.dealer, size, options)
        self.hands, self.stock, self.trump = dealt.hands, dealt.stock, dealt.trump
        active = [bool(h) for h in self.hands]
        leader = first_leader = (self.dealer + 1) % n
        number = 0
        while True:
            number += 1
            seats = [(leader + i) % n for i in range(n) if active[(leader + i) % n]]
            trick: list[tuple[int, Card]] = []
            for seat in seats:
                cards = allowed(self.hands[seat], trick, self.trump, number == 1, options)
                card = self.choose(seat, cards)
                self.hands[seat].remove(card)
                trick.append((seat, card))
                self.plays.append([number, seat, text(card)])
            winner = trick_winner(trick, self.trump, options)  # step 2
            self.winners.append(winner)
            self.set_aside += [c for _, c in trick]
            if options["elimination"] == "immediate":  # step 3
                self.eliminate(active, seats, number)
            count = draw_count(options, len(trick))
            for seat in drawers(options, winner, active):  # step 4
                took = self.draw(seat, count)
                if took and not self.stock and options["exhaustion"] == "last_draw_wins":
                    return self.outcome(seat, "stock_exhausted", number)  # step 5
            if options["elimination"] == "after_draw":  # step 6
                self.eliminate(active, seats, number)
            if active.count(True) == 1:  # step 7
                return self.outcome(active.index(True), "last_player", number)
            if not any(active):  # step 8
                return self.outcome(all_out_winner(options, winner), "all_out", number)
            if options["exhaustion"] == "most_tricks" and not self.stock:  # step 9
                return self.outcome(most_tricks_winner(self.winners), "most_tricks", number)
            leader = next_leader(options, winner, first_leader, active)  # step 10

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


# -- the command, and the comparison -------------------------------------------------------


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
        from rulesdsl.surfaces.main import main  # the command, and nothing under it

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
    """Where the command and the oracle's player part, on `deals` shuffles of the deck drawn
    from `seed`; empty when they agree on every deal."""
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
        mine = Player(options, order, players, dealer, bots, list(played.reshuffled[k]))
        expected = mine.play()
        got = {key: played.outcomes[k][key] for key in expected}
        if (got, played.plays[k]) != (expected, mine.plays):
            found.append(f"deal {k + 1}: play says {got}, the rules say {expected}")
    return found
