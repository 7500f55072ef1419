"""Play tables: a hand or a match on the engine, bots moving until the person's turn.

A table keeps what `rulesdsl play` shows and writes: the transcript (the person sees only
their own cards) and the trace, through the same readers of the event stream; and, for a
replay, the table as it stood after the deal and after each card of the last hand.
"""

from __future__ import annotations

import io
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesdsl.model.cards import Card, CardError
from rulesdsl.model.rules import Rules
from rulesdsl.model.seeds import derive
from rulesdsl.play.engine import events as ev
from rulesdsl.play.engine.driver import Player
from rulesdsl.play.engine.match import Match
from rulesdsl.play.players.registry import make_bot
from rulesdsl.surfaces.web.errors import ApiError, bad, not_found
from rulesdsl.surfaces.web.refs import HUMAN
from rulesdsl.words import refusals
from rulesdsl.words.transcript import Style, Trace, Transcript

LOG_LINES = 400
"""The transcript lines a table state carries (the latest)."""
CARD_TEXT = 8
"""The longest text that can name a card (`10♥` with spaces around)."""


@dataclass
class PlayTable:
    """One game at the server: its rules, seats and the hand in play."""

    id: str
    profile: str
    rules: Rules
    bots: list[str]
    seed: int
    is_match: bool
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.players = len(self.bots)
        self.human = self.bots.index(HUMAN) if HUMAN in self.bots else None
        self.seats: list[Player | None] = [
            None if name == HUMAN else make_bot(name, derive(self.seed, "bot", seat))
            for seat, name in enumerate(self.bots)
        ]
        names = ["you" if p is None else p.name for p in self.seats]
        hidden = (
            [s for s in range(self.players) if s != self.human] if self.human is not None else []
        )
        self.log: list[str] = []
        self.trace = io.StringIO()
        self._readers = [
            Transcript(Style(False, names), self.log.append, hidden, self.rules),
            Trace(self.trace),
        ]
        self.match = Match(self.rules, self.players, self.seed)
        self.result: dict[str, Any] | None = None
        self.replay: list[dict[str, Any]] = []
        self._deal()

    # -- playing ------------------------------------------------------------------------

    def _deal(self) -> None:
        self.dealer = self.match.dealer
        self.hand = self.match.deal()
        self.result = None
        self._heard(self.hand.events)
        self.steps = [self._snapshot(len(self.log))]
        self._advance()

    def _heard(self, events: Sequence[ev.Event]) -> None:
        for event in events:
            for reader in self._readers:
                reader(event)

    def _advance(self) -> None:
        """Bots play until it is the person's turn or the hand ends."""
        hand = self.hand
        while hand.outcome is None and hand.to_move != self.human:
            player = self.seats[hand.to_move]
            assert player is not None
            self._play(player.choose(hand, hand.legal_moves()))
        if hand.outcome is not None:
            self._finish()

    def _play(self, card: Card) -> None:
        before = len(self.log)
        self._heard(self.hand.play(card))
        self.steps.append(self._snapshot(before))

    def _finish(self) -> None:
        outcome = self.hand.outcome
        assert outcome is not None
        before = len(self.log)
        self._heard(self.match.record(outcome))
        self.steps[-1]["events"] += self.log[before:]
        self.replay = self.steps
        result = {"hand": self.match.hands_played, "dealer": self.dealer, **outcome.to_dict()}
        if self.is_match:
            result["points"] = list(self.match.points)
            result["match_winners"] = list(self.match.winners) if self.match.winners else None
        self.result = result

    @property
    def finished(self) -> bool:
        """Whether nothing more can be played: the hand over, and the match if it is one."""
        return self.hand.outcome is not None and (not self.is_match or self.match.over)

    def move(self, text: str, lang: str) -> None:
        """The person plays the card `text` names; refused with the rule that refuses it."""
        hand = self.hand
        if hand.outcome is not None:
            raise ApiError(409, "the hand is over")
        if hand.to_move != self.human:
            raise ApiError(409, "it is not your turn")
        if len(text) > CARD_TEXT:
            raise bad(f"'{text[:CARD_TEXT]}...' is not a card; write rank then suit, e.g. 10H")
        try:
            card = Card.parse(text)
        except CardError as error:
            raise bad(str(error)) from None
        refusal = hand.check(card)
        if refusal is not None:
            sentence = refusals.said(refusal, lang)
            raise ApiError(
                422,
                f"{card} is not allowed: {sentence}",
                card=str(card),
                rule=refusal.rule,
                sentence=sentence,
            )
        self._play(card)
        self._advance()

    def traced(self) -> str:
        """The `play --trace` lines of every hand so far; refused while the person plays a
        hand, since they show every seat's cards."""
        with self.lock:
            if self.human is not None and self.hand.outcome is None:
                raise ApiError(409, "the trace shows every hand: it is ready once the hand ends")
            return self.trace.getvalue()

    def next_hand(self) -> None:
        if not self.is_match:
            raise ApiError(409, "this table plays one hand; start a new one")
        if self.hand.outcome is None:
            raise ApiError(409, "the hand is still being played")
        if self.match.over:
            raise ApiError(409, "the match is over")
        self._deal()

    # -- what the page is shown ---------------------------------------------------------

    def state(self, lang: str) -> dict[str, Any]:
        """The table as the person sees it: only their own cards, what they may play and
        what the rules refuse them now, with each refusal's rule and sentence."""
        hand = self.hand
        mine = hand.to_move is not None and hand.to_move == self.human
        refused = hand.refusals() if mine else {}
        return {
            **self._view(reveal=False),
            "legal": [str(c) for c in hand.legal_moves()] if mine else [],
            "refused": [
                {"card": str(c), "rule": r.rule, "sentence": refusals.said(r, lang)}
                for c, r in refused.items()
            ],
            "log": self.log[-LOG_LINES:],
        }

    def _snapshot(self, since: int) -> dict[str, Any]:
        """The table after a step of the hand, every hand shown, with what the step said."""
        return {**self._view(reveal=True), "events": self.log[since:]}

    def _view(self, reveal: bool) -> dict[str, Any]:
        hand = self.hand
        trump = next((e for e in hand.events if isinstance(e, ev.TrumpShown)), None)
        match = None
        if self.is_match:
            winners = list(self.match.winners) if self.match.winners else None
            match = {
                "scores": list(self.match.points),
                "finished": self.match.over,
                "winners": winners,
            }
        return {
            "id": self.id,
            "seed": self.seed,
            "profile": self.profile,
            "players": self.players,
            "dealer": self.dealer,
            "hand_number": self.match.hands_played + (hand.outcome is None),
            "seats": [self._seat(seat, reveal) for seat in range(self.players)],
            "trump": {
                "card": str(trump.card) if trump and trump.card else None,
                "suit": hand.trump.letter if hand.trump is not None else None,
            },
            "stock": len(hand.stock),
            "trick": [{"seat": s, "card": str(c)} for s, c in hand.trick],
            "leader": hand.leader,
            "to_play": hand.to_move,
            "last_trick": _last_trick(hand.events),
            "finished": self.finished,
            "hand_over": hand.outcome is not None,
            "result": self.result,
            "match": match,
        }

    def _seat(self, seat: int, reveal: bool) -> dict[str, Any]:
        hand = self.hand
        held = hand.cards(seat)
        shown = reveal or seat == self.human
        return {
            "seat": seat,
            "name": "you" if seat == self.human else self.bots[seat],
            "bot": self.bots[seat],
            "cards": len(held),
            "out": not hand.active[seat],
            "tricks": hand.tricks_won[seat],
            "hand": [str(c) for c in held] if shown else None,
        }


def _last_trick(events: Sequence[ev.Event]) -> list[dict[str, Any]] | None:
    """The cards of the last trick won, by seat, in the order played."""
    won = next((e for e in reversed(events) if isinstance(e, ev.TrickWon)), None)
    if won is None:
        return None
    plays = [e for e in events if isinstance(e, ev.Play) and e.trick == won.trick]
    return [{"seat": e.seat, "card": str(e.card)} for e in plays]


class Tables:
    """The open tables, at most `most`: a new one takes the place of the oldest finished."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._open: OrderedDict[str, PlayTable] = OrderedDict()
        self._lock = threading.Lock()

    def open(
        self, profile: str, rules: Rules, bots: list[str], seed: int | None, is_match: bool
    ) -> PlayTable:
        chosen = random.SystemRandom().randrange(2**32) if seed is None else seed
        with self._lock:
            self._make_room()
        table = PlayTable(secrets.token_hex(8), profile, rules, bots, chosen, is_match)
        with self._lock:
            self._make_room()
            self._open[table.id] = table
        return table

    def _make_room(self) -> None:
        """Close the oldest finished table if the server holds as many as it may."""
        if len(self._open) < self.most:
            return
        done = next((key for key, table in self._open.items() if table.finished), None)
        if done is None:
            raise bad(f"{self.most} tables are being played; finish one first")
        del self._open[done]

    def get(self, key: str) -> PlayTable:
        table = self._open.get(key)
        if table is None:
            raise not_found("no such table (it may have been closed); start a new game")
        return table
