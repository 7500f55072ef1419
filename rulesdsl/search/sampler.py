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
from collections.abc import Iterator
from typing import NamedTuple

from rulesdsl.cards import Card
from rulesdsl.engine.hand import Hand
from rulesdsl.engine.state import State
from rulesdsl.search import adapter
from rulesdsl.search.infoset import OUT, STOCK, InfoSet, Slot, observe
from rulesdsl.stream import Stream

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
        self._hidden = [self._hidden_cards(e) for e in range(self.epochs)]
        self._free = [[s for s in info.hidden() if s.epoch == e] for e in range(self.epochs)]
        # Each other player's plays, to place in its slots: (play index, card), by epoch.
        self._placed: dict[tuple[int, int], list[tuple[int, Card]]] = defaultdict(list)
        fixed = {(e, card) for (e, _), card in info.fixed.items()}  # known where they are
        for i, play in enumerate(info.plays):
            if play.seat != info.seat and (play.epoch, play.card) not in fixed:
                self._placed[(play.seat, play.epoch)].append((i, play.card))
        self._checked = [i for i, p in enumerate(info.plays) if p.seat != info.seat]
        self._probes: dict[int, Hand] | None = None
        self._now: Hand | None = None
        self._known: dict[tuple[int, frozenset[Card]], bool] = {}
        self.proposals = 0

    def _hidden_cards(self, epoch: int) -> list[Card]:
        info = self.info
        pool = info.rules.cards if epoch == 0 else info.pools[epoch - 1]
        known = [card for (e, _), card in info.fixed.items() if e == epoch]
        return [c for c in pool if c not in known]

    # -- proposals -------------------------------------------------------------------

    def propose(self, stream: Stream) -> dict[Key, Card]:
        """A filling uniform among those that put every card another player played in
        one of its slots taken before the play."""
        filling: dict[Key, Card] = {}
        for epoch in range(self.epochs):
            free = list(self._free[epoch])
            cards = list(self._hidden[epoch])
            for (seat, e), plays in self._placed.items():
                if e != epoch:
                    continue
                for index, card in plays:  # in order of play: the earliest deadline first
                    able = [k for k, s in enumerate(free) if s.owner == seat and s.time <= index]
                    slot = free.pop(able[stream.below(len(able))])
                    filling[slot[:2]] = card
                    cards.remove(card)
            for i in range(len(cards) - 1, 0, -1):
                j = stream.below(i + 1)
                cards[i], cards[j] = cards[j], cards[i]
            filling.update(zip((s[:2] for s in free), cards, strict=True))
        filling.update(self.info.fixed)
        return filling

    # -- the history, replayed -------------------------------------------------------

    def held(self, filling: dict[Key, Card], seat: int, index: int) -> list[Card]:
        """The cards `seat` holds before the `index`-th play of the hand, in `filling`."""
        cards = [filling[s[:2]] for s in self._slots_of(seat) if s.time <= index]
        for play in self.info.plays[:index]:
            if play.seat == seat:
                cards.remove(play.card)
        return cards

    def _slots_of(self, seat: int) -> Iterator[Slot]:
        return (s for s in self.info.slots if s.owner == seat)

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

    def _positions(self, filling: dict[Key, Card]) -> None:
        """The position before each other player's play, and the position now, from a
        replay of any proposal: what the rules read there is the same in every world."""
        info = self.info
        hand = adapter.deal_world(info.rules, info.players, info.dealer, *self.world(filling))
        probes: dict[int, Hand] = {}
        for i, play in enumerate(info.plays):
            if play.seat != info.seat:
                probes[i] = hand.copy()
            adapter.force(hand, play.card)
        self._probes, self._now = probes, hand

    def consistent(self, filling: dict[Key, Card]) -> bool:
        """Whether every play by another player is legal with the cards `filling` gives."""
        if self._probes is None:
            self._positions(filling)
        assert self._probes is not None
        for i in self._checked:
            play = self.info.plays[i]
            held = self.held(filling, play.seat, i)
            key = (i, frozenset(held))
            if key not in self._known:
                self._known[key] = adapter.may_play(self._probes[i], held, play.card)
            if not self._known[key]:
                return False
        return True

    # -- worlds ----------------------------------------------------------------------

    def sample(self, stream: Stream) -> dict[Key, Card]:
        """A consistent filling, every one equally likely."""
        for _ in range(MAX_PROPOSALS):
            self.proposals += 1
            filling = self.propose(stream)
            if self.consistent(filling):
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
        stock = sorted(
            (s for s in info.slots if s.owner == STOCK and s.epoch == last), key=lambda s: s.index
        )
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
        for i in self._checked:
            play = info.plays[i]
            gone = own | {p.card for p in info.plays[: i + 1]}
            out = [
                x
                for x in info.rules.cards
                if x not in gone
                and not adapter.may_play(self._probes[i], [play.card, x], play.card)
            ]
            reveals.append(Reveal(play.seat, i, play.card, frozenset(out)))
        return reveals


def sampler_for(hand: Hand, seat: int) -> Sampler:
    return Sampler(observe(hand, seat))


__all__ = ["OUT", "Sampler", "World", "sampler_for"]
