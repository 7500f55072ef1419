"""Where two versions of the rules part ways on one deal, and the option responsible.

Both hands get the same deck order (or shuffle), the same hand seed and, seat by seat,
bots built with the same seed; they are stepped in lockstep and their event streams
compared until the first event that differs. The option responsible is read from the
events themselves: each names the rule that decided it, and a refused card the rule
that refused it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulesdsl.model.cards import Card
from rulesdsl.model.language.rule import HouseRule
from rulesdsl.model.result import EndReason, HandResult
from rulesdsl.model.rules import OPTIONS, UNITS, Rules
from rulesdsl.model.seeds import derive
from rulesdsl.model.units import Elimination, Step
from rulesdsl.play.engine import events as ev
from rulesdsl.play.engine.driver import Player
from rulesdsl.play.engine.hand import Hand, Refusal
from rulesdsl.play.engine.match import Match
from rulesdsl.play.players.registry import make_bot
from rulesdsl.words import refusals
from rulesdsl.words.explain import DEFAULT_LANGUAGE, Phrases, phrases


@dataclass(frozen=True)
class Divergence:
    """The first event where the hands under A and B differ, and why."""

    trick: int  # 0 when the deal itself differs
    event_index: int
    a: ev.Event | None
    b: ev.Event | None
    options: tuple[str, ...]
    sentence: str
    outcome_a: HandResult
    outcome_b: HandResult

    def to_dict(self) -> dict[str, Any]:
        return {
            "diverged": True,
            "trick": self.trick,
            "event_index": self.event_index,
            "a": self.a.to_dict() if self.a else None,
            "b": self.b.to_dict() if self.b else None,
            "options": list(self.options),
            "sentence": self.sentence,
            "outcomes": {"a": self.outcome_a.to_dict(), "b": self.outcome_b.to_dict()},
        }


@dataclass(frozen=True)
class Turn:
    """One decision: the seat to move, whether it leads, what was refused, what it chose."""

    seat: int
    lead: bool
    refused: dict[Card, Refusal]
    card: Card


class DivergeSide:
    """One of the two hands, played by its own bots, remembering every decision."""

    def __init__(self, hand: Hand, bots: Sequence[Player]) -> None:
        self.hand = hand
        self.bots = bots
        self.turns: dict[int, Turn] = {}  # by the index of the Play event it made

    def event(self, index: int) -> ev.Event | None:
        """The hand's event at `index`, playing on until it exists or the hand is over."""
        while len(self.hand.events) <= index and not self.hand.is_over:
            self.step()
        return self.hand.events[index] if index < len(self.hand.events) else None

    def step(self) -> None:
        hand = self.hand
        seat = hand.to_move
        refused = hand.refusals()
        card = self.bots[seat].choose(hand, hand.legal_moves())
        self.turns[len(hand.events)] = Turn(seat, not hand.trick, refused, card)
        hand.play(card)

    def finish(self) -> HandResult:
        while self.hand.outcome is None:
            self.step()
        return self.hand.outcome


def seat_bots(names: Sequence[str], players: int, seed: int) -> list[Player]:
    """One bot per seat, seeded as `rulesdsl play` seeds them; one name serves every seat."""
    names = list(names) * players if len(names) == 1 else list(names)
    if len(names) != players:
        raise ValueError(f"{len(names)} bot names for {players} players")
    return [make_bot(name, derive(seed, "bot", seat)) for seat, name in enumerate(names)]


def first_divergence(
    rules_a: Rules,
    rules_b: Rules,
    players: int,
    *,
    seed: int = 0,
    dealer: int | None = None,
    order: Sequence[Card] | None = None,
    bots: Sequence[str] = ("random",),
    lang: str = DEFAULT_LANGUAGE,
) -> Divergence | None:
    """Play one deal under A and under B; the first event where they part, or None.

    The deal comes from `order` (top card first) or from `seed`, which also seeds the
    bots and the hand (as the first hand of `rulesdsl play --seed`); without `dealer`
    the seed picks one. The sentence is in `lang`.
    """
    sides = [
        DivergeSide(Match(rules, players, seed, dealer).deal(order), seat_bots(bots, players, seed))
        for rules in (rules_a, rules_b)
    ]
    index = _first_difference(*sides)
    return None if index is None else _explain(index, *sides, phrases(lang))


def _first_difference(a: DivergeSide, b: DivergeSide) -> int | None:
    """The index of the first event that differs; a trick resolved with the same events
    in another order (an empty hand out before the draw, not after it) is no difference."""
    index = 0
    while True:
        event_a, event_b = a.event(index), b.event(index)
        if event_a is None and event_b is None:
            return None
        if _same(event_a, event_b):
            index += 1
            continue
        rests = _resolution(a, index), _resolution(b, index)
        if not rests[0] or Counter(rests[0]) != Counter(rests[1]):
            return index
        index += len(rests[0])


def _resolution(side: DivergeSide, index: int) -> list[ev.Event]:
    """The events from `index` up to the next card played: the rest of a trick's outcome."""
    events: list[ev.Event] = []
    while (event := side.event(index + len(events))) is not None and event.kind != "play":
        events.append(event)
    return events


def _same(event_a: ev.Event | None, event_b: ev.Event | None) -> bool:
    """Equal events; trump is the same trump whichever rule named it."""
    if isinstance(event_a, ev.TrumpShown) and isinstance(event_b, ev.TrumpShown):
        return event_a.suit == event_b.suit
    return event_a == event_b


def _explain(index: int, a: DivergeSide, b: DivergeSide, words: Phrases) -> Divergence:
    event_a, event_b = a.event(index), b.event(index)
    outcomes = a.finish(), b.finish()
    both_play = isinstance(event_a, ev.Play) and isinstance(event_b, ev.Play)
    cause = _play_cause(index, a, b, words) if both_play else _step_cause(index, a, b)
    trick = _trick_at(index, a, b)
    prefix = a.hand.events[:index]
    held = _held(prefix)
    told = Told(words, held)
    what_a = told.event(event_a, event_b, a, index) + cause.note_a
    what_b = told.event(event_b, event_a, b, index) + cause.note_b + cause.tail
    parts = [
        _context(prefix, told, event_a, event_b, a, index),
        words.diverge("under", side="A", event=what_a),
        words.diverge("under", side="B", event=what_b),
    ]
    head = words.diverge("at_trick", trick=trick) if trick else words.diverge("at_deal")
    sentence = f"{head}: " + "; ".join(p for p in parts if p) + _values(cause, a, b, words)
    return Divergence(trick, index, event_a, event_b, cause.options, sentence, *outcomes)


def _values(cause: Cause, a: DivergeSide, b: DivergeSide, words: Phrases) -> str:
    """` (option: A's value vs B's value; ...)`"""
    rules_a, rules_b = a.hand.rules, b.hand.rules
    pairs = [
        words.diverge(
            "value_pair", option=o, a=_text(rules_a, o, words), b=_text(rules_b, o, words)
        )
        for o in cause.options
    ]
    return f" ({'; '.join(pairs)})" if pairs else ""


def _stated(rules: Rules) -> dict[str, HouseRule]:
    return {r.name: r for r in rules.house_rules}


def _text(rules: Rules, name: str, words: Phrases) -> str:
    """An option's value, or a rule the profile states: its clauses, or `not stated`."""
    if name in OPTIONS:
        return rules.text(name)
    rule = _stated(rules).get(name)
    return "; ".join(f"{w} {t}" for w, t in rule.clauses) if rule else words.diverge("not_stated")


# -- the option responsible -----------------------------------------------------------


@dataclass(frozen=True)
class Cause:
    options: tuple[str, ...]
    note_a: str = ""  # added to A's side of the sentence
    note_b: str = ""
    tail: str = ""  # added after B's side


def _differing(a: DivergeSide, b: DivergeSide) -> list[str]:
    rules_a, rules_b = a.hand.rules, b.hand.rules
    options = [name for name in OPTIONS if getattr(rules_a, name) != getattr(rules_b, name)]
    stated_a, stated_b = _stated(rules_a), _stated(rules_b)
    rules = [n for n in {**stated_a, **stated_b} if stated_a.get(n) != stated_b.get(n)]
    return options + rules


def _between_hands(name: str, a: DivergeSide, b: DivergeSide) -> bool:
    """Whether the option or stated rule `name` acts only between hands."""
    if name in OPTIONS:
        return OPTIONS[name].between_hands
    rule = {**_stated(a.hand.rules), **_stated(b.hand.rules)}[name]
    return set(rule.step_names) <= {Step.SCORE}


def _keep(candidates: Sequence[str], a: DivergeSide, b: DivergeSide) -> tuple[str, ...]:
    """The candidates whose values differ between A and B; failing that, every difference
    that can matter within a hand."""
    differing = _differing(a, b)
    kept = [o for o in dict.fromkeys(candidates) if o in differing]
    within = [o for o in differing if not _between_hands(o, a, b)]
    return tuple(kept or within)


def _acting_at(*steps: Step) -> list[str]:
    """The rules that act at any of these steps of a trick."""
    return [unit.name for unit in UNITS if unit.steps & set(steps)]


def _step_cause(index: int, a: DivergeSide, b: DivergeSide) -> Cause:
    """The options of the step that made the differing events."""
    event_a, event_b = a.event(index), b.event(index)
    if isinstance(event_a, ev.Deal) and isinstance(event_b, ev.Deal):
        return Cause(_keep(_deal_options(event_a, event_b), a, b))
    events = [e for e in (event_a, event_b) if e is not None]
    if len({e.kind for e in events}) > 1:  # a Play only shows that one hand moved on
        events = [e for e in events if e.kind != "play"]
    ruled_out = _ruled_out(events, a.hand.events[:index])
    candidates = [e.rule for e in events if e.rule not in ruled_out]
    return Cause(_keep(candidates, a, b))


def _ruled_out(events: Sequence[ev.Event], prefix: Sequence[ev.Event]) -> set[str]:
    """Options that what happened shows cannot be responsible."""
    ruled_out = set()
    kinds = [e.kind for e in events]
    if _stock_left(prefix) and "reshuffle" not in kinds:
        ruled_out.add("exhaustion")  # the stock has not run out
    ends = [e.reason for e in events if isinstance(e, ev.HandEnd)]
    if kinds == ["draw", "draw"] or ends == ["all_out", "all_out"] or not _emptied(prefix):
        ruled_out.add("elimination")  # both drew, both emptied, or nobody ran out
    return ruled_out


def _deal_options(deal_a: ev.Deal, deal_b: ev.Deal) -> tuple[str, ...]:
    """Different hand sizes come from hand_size, a different stock from a turned-up trump
    card, different cards from the deck."""
    if len(deal_a.hands[0]) != len(deal_b.hands[0]):
        return ("hand_size", "deck")
    if deal_a.stock != deal_b.stock:
        return ("trump", "deck")
    return ("deck",)


def _refused_apart(one: Turn, other: Turn) -> list[Card]:
    """The cards refused under one profile and allowed under the other."""
    return sorted(one.refused.keys() ^ other.refused.keys())


def _refusal_options(one: Turn, other: Turn, a: DivergeSide, b: DivergeSide) -> tuple[str, ...]:
    named = [
        refusal.rule
        for card in _refused_apart(one, other)
        for refusal in (one.refused.get(card), other.refused.get(card))
        if refusal is not None
    ]
    differing = _differing(a, b)
    return tuple(o for o in dict.fromkeys(named) if o in differing) or tuple(named)


def _refused_text(one: Turn, other: Turn, words: Phrases) -> str:
    """The first card refused under one profile only, and why."""
    card = _refused_apart(one, other)[0]
    side, refusal = ("A", one.refused[card]) if card in one.refused else ("B", other.refused[card])
    why = refusals.said(refusal, words.lang)
    return words.diverge("refused_under", side=side, card=str(card), why=why)


def _play_cause(index: int, a: DivergeSide, b: DivergeSide, words: Phrases) -> Cause:
    turn_a, turn_b = a.turns[index], b.turns[index]
    if turn_a.refused.keys() != turn_b.refused.keys():
        return _legal_sets_cause(turn_a, turn_b, a, b, words)
    earlier = [
        i
        for i in sorted(a.turns)
        if i < index and i in b.turns and _refused_apart(a.turns[i], b.turns[i])
    ]
    if not earlier:
        filters = _acting_at(Step.LEAD_FILTER, Step.FOLLOW_FILTER)
        return Cause(_keep(filters, a, b), tail=words.diverge("same_legal"))
    then_a, then_b = a.turns[earlier[0]], b.turns[earlier[0]]
    trick = a.hand.events[earlier[0]].trick
    refused = _refused_text(then_a, then_b, words)
    tail = words.diverge("drifted", trick=trick, refused=refused)
    return Cause(_refusal_options(then_a, then_b, a, b), tail=tail)


def _legal_sets_cause(
    turn_a: Turn, turn_b: Turn, a: DivergeSide, b: DivergeSide, words: Phrases
) -> Cause:
    options = _refusal_options(turn_a, turn_b, a, b)
    note_a = _since(turn_b.card, turn_a, words)
    note_b = _since(turn_a.card, turn_b, words)
    if note_a or note_b:
        return Cause(options, note_a, note_b)
    refused = _refused_text(turn_a, turn_b, words)
    return Cause(options, tail=words.diverge("chose_differently", refused=refused))


def _since(card: Card, turn: Turn, words: Phrases) -> str:
    refusal = turn.refused.get(card)
    if refusal is None:
        return ""
    return words.diverge("since_refused", card=str(card), why=refusals.said(refusal, words.lang))


# -- the sentence ---------------------------------------------------------------------


def _trick(event: ev.Event | None) -> int | None:
    """The trick an event belongs to: a lead after a trick, to the trick that passed it."""
    if isinstance(event, ev.HandEnd):
        return event.tricks
    if isinstance(event, ev.Lead):
        return max(event.trick - 1, 1)
    return getattr(event, "trick", None)


def _trick_at(index: int, a: DivergeSide, b: DivergeSide) -> int:
    """The trick the divergence belongs to; 0 for the deal."""
    tricks = [_trick(side.hand.events[index]) for side in (a, b) if index < len(side.hand.events)]
    return min((t for t in tricks if t is not None), default=0)


def _stock_left(events: Sequence[ev.Event]) -> int:
    """How many cards the stock holds after `events`."""
    left = 0
    for event in events:
        match event:
            case ev.Deal(stock=left) | ev.Reshuffle(cards=left) | ev.Draw(stock_left=left):
                pass
    return left


def _held(events: Sequence[ev.Event]) -> list[int]:
    """How many cards each seat holds after `events`."""
    held: list[int] = []
    for event in events:
        if isinstance(event, ev.Deal):
            held = [len(cards) for cards in event.hands]
        elif isinstance(event, ev.Play):
            held[event.seat] -= 1
        elif isinstance(event, ev.Draw):
            held[event.seat] += len(event.cards)
    return held


def _context(
    prefix: Sequence[ev.Event],
    told: Told,
    event_a: ev.Event | None,
    event_b: ev.Event | None,
    a: DivergeSide,
    index: int,
) -> str:
    """What led up to the divergence: the seat to move, or who won the trick just played."""
    if isinstance(event_a, ev.Play) and isinstance(event_b, ev.Play):
        lead = a.turns[index].lead
        return told.words.diverge("to_lead" if lead else "to_play", seat=event_a.seat)
    won = [e for e in prefix if isinstance(e, ev.TrickWon)]
    return told.trick_result(won[-1].seat, prefix) if won else ""


def _emptied(prefix: Sequence[ev.Event]) -> list[int]:
    """The seats that played to the last trick in `prefix` and now hold no cards."""
    won = [e for e in prefix if isinstance(e, ev.TrickWon)]
    held = _held(prefix)
    return [
        e.seat
        for e in prefix
        if won and isinstance(e, ev.Play) and e.trick == won[-1].trick and held[e.seat] == 0
    ]


@dataclass(frozen=True)
class Told:
    """The events told in one language, knowing how many cards each seat holds before them."""

    words: Phrases
    held: list[int]

    def trick_result(self, winner: int, prefix: Sequence[ev.Event]) -> str:
        """Who won the trick just played, and who played their last card to it."""
        say = self.words.diverge
        text = say("last_card_won" if self.held[winner] == 0 else "won", seat=winner)
        emptied = [seat for seat in _emptied(prefix) if seat != winner]
        if len(emptied) == 1:
            return text + say("emptied_one", seat=emptied[0])
        if emptied:
            seats = ", ".join(map(str, emptied[:-1]))
            return text + say("emptied_many", seats=seats, last=emptied[-1])
        return text

    def event(
        self, event: ev.Event | None, other: ev.Event | None, side: DivergeSide, index: int
    ) -> str:
        """What the event says."""
        say = self.words.diverge
        match event:
            case ev.Deal():
                return self.deal(event, other)
            case ev.TrumpShown():
                return self.trump(event)
            case ev.Play(seat=seat, card=card):
                lead = side.turns[index].lead
                return say("leads" if lead else "plays", seat=seat, card=str(card))
            case ev.TrickWon(seat=seat):
                return say("trick_won", seat=seat)
            case ev.Lead(seat=seat):
                return say("leads_next", seat=seat)
            case ev.Reshuffle(cards=count):
                return say("reshuffle", count=count)
            case ev.Draw(seat=seat, cards=cards):
                drawn = " ".join(map(str, cards))
                stays = self.held[seat] == 0
                return say("draw_stays" if stays else "draw", seat=seat, cards=drawn)
            case ev.Out(seat=seat):
                immediate = side.hand.rules.elimination is Elimination.IMMEDIATE
                return say("out_at_once" if immediate else "out", seat=seat)
            case ev.HandEnd():
                return self.end(event)
        return say("nothing")

    def deal(self, deal: ev.Deal, other: ev.Event | None) -> str:
        """The hand size and stock; when those agree, the first hand that differs."""
        say = self.words.diverge
        size = len(deal.hands[0])
        text = say("deal", dealer=deal.dealer, size=size, stock=deal.stock)
        if isinstance(other, ev.Deal) and (len(other.hands[0]), other.stock) == (size, deal.stock):
            seat = next(s for s, cards in enumerate(deal.hands) if cards != other.hands[s])
            held = " ".join(map(str, deal.hands[seat]))
            return text + say("deal_gets", seat=seat, cards=held)
        return text

    def trump(self, trump: ev.TrumpShown) -> str:
        """The trump suit, and the card that named it under the trump rule that showed it."""
        say = self.words.diverge
        if trump.suit is None:
            return say("no_trump")
        if trump.card is None:
            return say("trump_fixed", suit=trump.suit)
        return say("shown", str(trump.source), suit=trump.suit, card=str(trump.card))

    def end(self, end: ev.HandEnd) -> str:
        """Who wins; for a hand a rule the profile states ended, that rule by its name."""
        say = self.words.diverge
        if end.reason is EndReason.HOUSE_RULE:
            if end.winner is None:
                return say("end_by_no_winner", rule=end.rule)
            return say("end_by", rule=end.rule, winner=end.winner)
        if end.winner is None:
            return say("end_no_winner", reason=end.reason)
        return say("end", winner=end.winner, why=self.words.end(end.reason))
