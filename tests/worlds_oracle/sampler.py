"""Worlds consistent with what a seat knows: fillings of the hidden slots under which the
whole history replays legally under the profile's rules.

Drawn by rejection, which makes every consistent world equally likely (as a shuffled deck
makes them a priori): a proposal is uniform among the fillings that put each card another
player played in one of that player's slots, taken before the play; it is kept when the
engine allows each of those plays with the cards the filling gives the player then. The
engine is asked on a position of the history (`adapter.may_play`), so whatever a rule
reads, options and profile-stated rules alike, is honoured without being written here.
"""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from rulesdsl.model.cards import Card
from rulesdsl.model.state import State
from rulesdsl.model.stream import Stream
from rulesdsl.play.engine.hand import Hand, codes_for
from rulesdsl.play.engine.plan import plan_for
from worlds_oracle import adapter
from worlds_oracle.infoset import STOCK, InfoSet

Key = tuple[int, int]
"""A slot by (epoch, index)."""

MAX_PROPOSALS = 200_000
"""Proposals tried for one world before the sampler gives up (never reached in practice:
the world actually played is always consistent)."""


class World(NamedTuple):
    """A complete hidden state: the deck order and each reshuffled stock (top first)."""

    order: tuple[Card, ...]
    reshuffles: tuple[tuple[Card, ...], ...]


class Reveal(NamedTuple):
    """What a play rules out: `seat` played `card` as the `index`-th card of the hand, so
    it held none of `excluded` then (each alone beside the card would have made it
    illegal)."""

    seat: int
    index: int
    card: Card
    excluded: frozenset[Card]


class SamplerError(RuntimeError):
    """No consistent world was found within MAX_PROPOSALS proposals."""


class Sampler:
    """Draws worlds consistent with `info`, uniformly."""

    def __init__(self, info: InfoSet) -> None:
        self.info = info
        self.epochs = 1 + len(info.pools)
        fixed = {(e, card) for (e, _), card in info.fixed.items()}  # known where they are
        # Each other player's plays, to place in its slots: (play index, card), by epoch.
        self._placed: dict[tuple[int, int], list[tuple[int, Card]]] = defaultdict(list)
        for i, play in enumerate(info.plays):
            if play.seat != info.seat and (play.epoch, play.card) not in fixed:
                self._placed[(play.seat, play.epoch)].append((i, play.card))
        placed = {(e, card) for (_, e), plays in self._placed.items() for _, card in plays}
        # The cards left to deal out freely, by epoch.
        self._pool = [
            [c for c in self._hidden_cards(e) if (e, c) not in placed] for e in range(self.epochs)
        ]
        hidden = info.hidden()
        self._others = [s for s in range(info.players) if s != info.seat]
        self._slots = {  # each other player's hidden slots, by epoch
            (seat, e): [s for s in hidden if s.owner == seat and s.epoch == e]
            for seat in self._others
            for e in range(self.epochs)
        }
        self._rest = [
            [s[:2] for s in hidden if s.owner < 0 and s.epoch == e] for e in range(self.epochs)
        ]
        self._taken = {  # each seat's slots, (time, key), and its plays, (index, card)
            seat: [(s.time, s[:2]) for s in info.slots if s.owner == seat]
            for seat in range(info.players)
        }
        self._plays = {
            seat: [(i, p.card) for i, p in enumerate(info.plays) if p.seat == seat]
            for seat in range(info.players)
        }
        # The plays to check, each player's; a check that fails moves to the front.
        self._checks = {seat: [i for i, _ in self._plays[seat]] for seat in self._others}
        self._probes: dict[int, State] | None = None
        self._now: Hand | None = None
        self._known: dict[tuple[int, frozenset[Card]], bool] = {}
        self.proposals = 0
        self._codes, self._plan = codes_for(info.rules), plan_for(info.rules)

    def _hidden_cards(self, epoch: int) -> list[Card]:
        info = self.info
        pool = info.rules.cards if epoch == 0 else info.pools[epoch - 1]
        known = [card for (e, _), card in info.fixed.items() if e == epoch]
        return [c for c in pool if c not in known]

    # -- proposals -------------------------------------------------------------------

    def propose(self, stream: Stream, check: bool = False) -> dict[Key, Card] | None:
        """A filling uniform among those that put every card another player played in
        one of its slots taken before the play. With `check`, None as soon as a player's
        plays are found illegal with the cards given it (rejection, found early)."""
        filling: dict[Key, Card] = dict(self.info.fixed)
        pools = [list(pool) for pool in self._pool]
        for seat in self._others:
            for epoch in range(self.epochs):
                free = list(self._slots[(seat, epoch)])
                for index, card in self._placed.get((seat, epoch), ()):  # earliest first
                    able = [k for k, s in enumerate(free) if s.time <= index]
                    filling[free.pop(able[stream.below(len(able))])[:2]] = card
                _deal(pools[epoch], [s[:2] for s in free], filling, stream)
            if check and not self._fits(filling, seat):
                return None
        for epoch in range(self.epochs):
            _deal(pools[epoch], self._rest[epoch], filling, stream)
        return filling

    # -- the history, replayed -------------------------------------------------------

    def held(self, filling: dict[Key, Card], seat: int, index: int) -> list[Card]:
        """The cards `seat` holds before the `index`-th play of the hand, in `filling`."""
        cards = [filling[key] for time, key in self._taken[seat] if time <= index]
        for i, card in self._plays[seat]:
            if i >= index:
                break
            cards.remove(card)
        return cards

    def world(self, filling: dict[Key, Card]) -> World:
        order = tuple(filling[(0, k)] for k in range(len(self.info.rules.cards)))
        shuffles = tuple(
            tuple(filling[(e, j)] for j in range(len(self.info.pools[e - 1])))
            for e in range(1, self.epochs)
        )
        return World(order, shuffles)

    def replay(self, world: World, strict: bool = True) -> Hand:
        """The hand dealt from `world` with the history played: strictly, every play is
        checked by the engine (IllegalMove if the world is not consistent)."""
        info = self.info
        hand = adapter.deal_world(info.rules, info.players, info.dealer, *world)
        for play in info.plays:
            if strict:
                hand.play(play.card)
            else:
                adapter.force(hand, play.card)
        return hand

    def _positions(self, filling: dict[Key, Card] | None) -> None:
        """The position before each other player's play, and the position now, from a
        replay of any proposal: what the rules read there is the same in every world."""
        info = self.info
        assert filling is not None
        hand = adapter.deal_world(info.rules, info.players, info.dealer, *self.world(filling))
        probes: dict[int, State] = {}
        for i, play in enumerate(info.plays):
            if play.seat != info.seat:
                probes[i] = adapter.probe(hand)
            adapter.force(hand, play.card)
        self._probes, self._now = probes, hand

    def consistent(self, filling: dict[Key, Card]) -> bool:
        """Whether every play by another player is legal with the cards `filling` gives."""
        return all(self._fits(filling, seat) for seat in self._others)

    def _fits(self, filling: dict[Key, Card], seat: int) -> bool:
        """Whether every play by `seat` is legal with the cards `filling` gives it."""
        if self._probes is None:
            self._positions(self.propose(Stream(0)))
        assert self._probes is not None
        checks = self._checks[seat]
        for n, i in enumerate(checks):
            card = self.info.plays[i].card
            held = self.held(filling, seat, i)
            key = (i, frozenset(held))
            legal = self._known.get(key)
            if legal is None:
                legal = self._known[key] = self._may_play(i, held, card)
            if not legal:
                checks.insert(0, checks.pop(n))
                return False
        return True

    def _may_play(self, index: int, held: list[Card], card: Card) -> bool:
        """Whether the `index`-th play of the hand, `card`, is legal holding `held`."""
        assert self._probes is not None
        codes = self._codes
        return adapter.may_play(
            self._probes[index], self._plan, sorted(codes.ints(held)), codes.of[card]
        )

    # -- worlds ----------------------------------------------------------------------

    def sample(self, stream: Stream) -> dict[Key, Card]:
        """A consistent filling, every one equally likely."""
        for _ in range(MAX_PROPOSALS):
            self.proposals += 1
            filling = self.propose(stream, check=True)
            if filling is not None:
                return filling
        raise SamplerError(f"no consistent world in {MAX_PROPOSALS} proposals")

    def state(self, filling: dict[Key, Card], hand_seed: int) -> State:
        """The position now in the world `filling`, as an int State to play out."""
        info = self.info
        assert self._now is not None
        hands = {
            seat: self.held(filling, seat, len(info.plays))
            for seat in range(info.players)
            if seat != info.seat
        }
        last = self.epochs - 1
        stock = [s for s in info.slots if s.owner == STOCK and s.epoch == last]  # top first
        return adapter.position_state(self._now, hands, [filling[s[:2]] for s in stock], hand_seed)

    def reveals(self) -> list[Reveal]:
        """What each play by another player rules out, asked of the engine on its position:
        under `follow suit`, every card of the led suit for a player who did not follow."""
        if self._probes is None:
            self._positions(self.propose(Stream(0)))
        assert self._probes is not None
        info = self.info
        own = set(info.fixed.values())
        reveals = []
        for i in sorted(self._probes):
            play = info.plays[i]
            gone = own | {p.card for p in info.plays[: i + 1]}
            out = [
                x
                for x in info.rules.cards
                if x not in gone and not self._may_play(i, [play.card, x], play.card)
            ]
            reveals.append(Reveal(play.seat, i, play.card, frozenset(out)))
        return reveals


def _deal(pool: list[Card], keys: list[Key], filling: dict[Key, Card], stream: Stream) -> None:
    """Put cards drawn at random from `pool` (which loses them) in the slots `keys`."""
    for key, uniform in zip(keys, stream.take(len(keys)), strict=True):
        j = int(uniform * len(pool))  # stream.below(len(pool)), drawn in one block
        pool[j], pool[-1] = pool[-1], pool[j]
        filling[key] = pool.pop()
