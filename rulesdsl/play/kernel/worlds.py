"""What a seat knows of a hand, and worlds drawn consistent with it, in the kernel's dialect.

As a hand is played the kernel writes what its seats see into a `Seen` record (`log_*`):
every card played, by whom, and the cards its player cannot have held then (`exclusions`,
asked of the rules on the position); every card taken into a hand (a *slot*: its taker,
when and from which stock; only the taker sees the card); the cards of each refilled
stock. A seat knows its own slots, the card that named trump where it lies, every play and
every pool.

A world, for `me`, fills every slot `me` cannot see with a card of its stock's pool; it is
consistent when each other player's plays are legal with the cards the world gives it then,
as the profile's own `allowed_for` says on the position before each play (`probes`: the
state before the i-th play is `states[FIRST_PROBE + i]`; the rules read the mover's cards
and what every seat sees, never another hand).

Where the others are modelled as the heuristic bot (`solver:N`), a play is consistent only
where that bot plays it, and each play's ruled-out cards are those under which it would
not (`Seen.read`): the worlds kept are then exactly the deals in which the heuristic bot
plays as the others played, each as likely.

A proposal draws from what the seat knows: each card another player played goes to one of
that player's slots of its stock taken before the play and after any play of the player's
it would have made illegal; each other slot gets a card of its pool that no play of its
player's after it rules out. Drawn so, some fillings are likelier than others; a proposal is
kept with a chance that makes every filling that avoids the ruled-out cards as likely
(`propose_seat`). Then every play is checked on its position, and a proposal with an
illegal play is drawn again (rejection), so the worlds kept are exactly the consistent
ones, each as likely: provided that a card that rules a play out beside the played card
alone also rules it out in any hand (true of following suit, trumping and heading; a card
for which it visibly fails is not ruled out, `exclusions`). Where the profile's rules
decide who leads from the dealt hands, a proposal whose deal would have another player
lead is drawn again too (`led_first_as_dealt`). The rules of who draws too and who is out
read nothing hidden (a player's hand is known to them at the deal and at scoring alone,
`vocab.ATTRIBUTES`), so every world agrees with them; a player out keeps in the world the
cards it held, which left play, as its slots.
"""

from __future__ import annotations

from typing import Any

from rulesdsl.play.engine.masks import ALL_CARDS, nth, popcount
from rulesdsl.play.kernel.primitives import next_seed, uniform
from rulesdsl.play.kernel.rules import left_of
from rulesdsl.play.kernel.solve import heuristic_play
from rulesdsl.play.kernel.state import CARDS, EPOCHS, PLAYS, SEATS, SLOTS, Field, record_class
from rulesdsl.play.kernel.steps import allowed_for, lead_first

WORLD, PLAYED, FIRST_PROBE = range(3)
"""The states a search works on: the world drawn, the world played out, then the probes."""
MAX_BUDGET = 10_000
"""The largest N a search bot `KIND:N` takes: worlds or iterations a decision."""
SOLVE_DEPTH = 512
"""The most cards a line of the open-game solver's holds; a longer one is left unsolved."""
MAX_PROPOSALS = 200_000
"""Proposals tried for one world before the sampler gives up (the world actually played is
always consistent, so this is never reached)."""

WORK_FIELDS = (
    Field("unseen", EPOCHS, meaning="the cards of each pool the seat cannot place, unplayed"),
    Field("free", EPOCHS, meaning="the cards of each pool not yet in a slot of the proposal"),
    Field("fill", SLOTS, "int8", "the card of each slot"),
    Field("choices", SLOTS, "int32", "(scratch) the slots a card to place may go to"),
    Field("seat_slots", SLOTS, "int32", "each seat's slots, seat by seat, in order"),
    Field("slots_from", SEATS + 1, meaning="where each seat's slots begin in `seat_slots`"),
    Field("seat_plays", PLAYS, "int32", "each seat's plays, seat by seat, in order"),
    Field("plays_from", SEATS + 1),
    Field("place", PLAYS, "int32", "the plays by another seat of a card to place, by seat"),
    Field("place_epoch", PLAYS, "int16", "the stock the card came from"),
    Field("place_from", SEATS + 1),
    Field("place_lo", PLAYS, "int32", "the earliest time of the card's slot"),
    Field("place_room", PLAYS, "int32", "the fewest slots the card has to choose from"),
    Field("banned", SLOTS, meaning="the cards a slot's card cannot be if never played"),
    Field("room", SLOTS, meaning="how many cards of its pool a slot's card can be"),
    Field("count", EPOCHS, meaning="(scratch) slots of each pool"),
    Field("held", SEATS, meaning="each seat's cards now in the proposal"),
    Field("dealt", SEATS, meaning="(scratch) the hands a proposal's deal is checked beside"),
    Field("first", meaning="the seat whose cards a proposal checks first"),
    Field("model", meaning="1 where the others' plays are read as the heuristic bot's"),
    Field("left", CARDS, meaning="the cards of the stock's pool left to put in it"),
    Field("wins", CARDS, meaning="the worlds each card won"),
    Field("playout", 2, "uint64", "the stream of a playout"),
    Field("proposals", meaning="the proposals drawn, all hand long"),
    Field("worlds", meaning="the worlds drawn, all hand long"),
    Field("gave_up", meaning="the decisions where no world was found"),
    Field("tree_len", meaning="the nodes of an ismcts tree, the root first"),
    Field("tree_card", MAX_BUDGET + 1, "int8", "the card a node plays from its parent's position"),
    Field("tree_seat", MAX_BUDGET + 1, "int8", "who plays it"),
    Field("tree_visits", MAX_BUDGET + 1),
    Field("tree_wins", MAX_BUDGET + 1, meaning="the visits its seat won"),
    Field("tree_available", MAX_BUDGET + 1, meaning="the visits its card was legal"),
    Field("tree_first", MAX_BUDGET + 1, "int32", "its first child, -1 for none"),
    Field("tree_next", MAX_BUDGET + 1, "int32", "its parent's next child, -1 for none"),
    Field("tree_path", PLAYS, "int32", "the nodes an iteration walked"),
    Field("todo", SOLVE_DEPTH, meaning="the solver's cards not yet tried, by depth"),
    Field("visited", 1, meaning="the positions the solver's question visited"),
)
"""A search's working rows."""
Work = record_class("Work", WORK_FIELDS)

# -- what the seats see ------------------------------------------------------------------


def take(g: Any, seat: int, card: int, epoch: int) -> None:
    k = g.slots_len
    g.slot_seat[k] = seat
    g.slot_card[k] = card
    g.slot_time[k] = g.plays_len
    g.slot_epoch[k] = epoch
    g.slots_len = k + 1


def log_deal(g: Any, s: Any, deck: Any, dealer: int) -> None:
    """The deal of `deck` to the hands of `s`."""
    g.dealer = dealer
    g.plays_len = 0
    g.slots_len = 0
    g.epochs = 0
    g.aside = 0
    g.fewest = 0
    g.unread = 0
    g.pool[0] = 0  # its time is never read: `epoch_of` reads a refill's alone
    for k in range(len(deck)):
        g.pool[0] |= 1 << deck[k]
    for seat in range(s.players):
        for card in range(CARDS):
            if (s.hands[seat] >> card) & 1 != 0:
                take(g, seat, card, 0)


def log_trick_played(g: Any, s: Any) -> None:
    """Before the trick is finished: the cards held and set aside."""
    for seat in range(s.players):
        g.held[seat] = s.hands[seat]
    for k in range(s.trick_len):
        g.aside |= 1 << s.trick[k]


def log_trick_finished(g: Any, s: Any) -> None:
    """After it: a refill of the stock, the cards drawn, who holds the fewest cards."""
    if s.refills > g.epochs:
        g.epochs += 1
        g.pool[g.epochs] = g.aside
        g.pool_time[g.epochs] = g.plays_len
        g.aside = 0
    for seat in range(s.players):
        drawn = s.hands[seat] & ~g.held[seat]
        for card in range(CARDS):
            if (drawn >> card) & 1 != 0:
                take(g, seat, card, epoch_of(g, card, g.plays_len))
        fewest = s.over == 0 and s.remaining > 1 and s.active[seat] != 0
        for other in range(s.players):
            if other != seat and s.active[other] != 0:
                fewest = fewest and popcount(s.hands[seat]) < popcount(s.hands[other])
        if fewest:
            g.fewest |= 1 << seat


def epoch_of(g: Any, card: int, time: int) -> int:
    """The stock `card` came from, for a hand that took it after `time` plays: the last
    refill before then whose pool held it, else the deck."""
    for e in range(g.epochs, 0, -1):
        if g.pool_time[e] <= time and (g.pool[e] >> card) & 1 != 0:
            return e
    return 0


# -- worlds ------------------------------------------------------------------------------


def shown_slot(g: Any, s: Any, k: int) -> bool:
    """Whether every seat sees the card of slot `k`: the card that named trump, dealt or at
    the bottom of the deal's stock."""
    return g.slot_epoch[k] == 0 and g.slot_card[k] == s.shown


def prepare(g: Any, w: Any, s: Any, me: int, modelled: bool) -> None:
    """Once a decision: each seat's slots, plays and plays of a card to place (another
    seat's, of a card `me` cannot place), in order; the cards of each pool `me` cannot
    place, less those. Where the others are `modelled` as the heuristic bot, the worlds
    drawn are those in which it plays as they played (`Seen.read`)."""
    w.model = 1 if modelled else 0
    for e in range(g.epochs + 1):
        w.unseen[e] = g.pool[e]
    if s.shown >= 0:
        w.unseen[0] &= ~(1 << s.shown)
    for k in range(g.slots_len):
        if g.slot_seat[k] == me:  # its own (the card that named trump is out already)
            w.unseen[g.slot_epoch[k]] &= ~(1 << g.slot_card[k])
    slots = 0
    plays = 0
    places = 0
    for seat in range(s.players + 1):  # the last round writes where the seats' rows end
        w.slots_from[seat] = slots
        w.plays_from[seat] = plays
        w.place_from[seat] = places
        for k in range(g.slots_len):
            if g.slot_seat[k] == seat:
                w.seat_slots[slots] = k
                slots += 1
        for i in range(g.plays_len):
            if g.play_seat[i] == seat:
                w.seat_plays[plays] = i
                plays += 1
                card = g.play_card[i]
                e = epoch_of(g, card, i)
                if seat != me and (w.unseen[e] >> card) & 1 != 0:
                    w.place[places] = i
                    w.place_epoch[places] = e
                    w.unseen[e] &= ~(1 << card)
                    places += 1
    w.first = 0
    for seat in range(s.players):
        if seat != me:
            ban(g, w, seat)
            windows(g, w, s, seat)


def windows(g: Any, w: Any, s: Any, seat: int) -> None:
    """For each card of `seat` to place: the earliest time its slot can have been taken
    (after the last play of the seat's it would have made illegal) and how many slots it
    has at least to choose from: those of its pool from then to its play, less those the
    seat's earlier cards to place must take among them."""
    for j in range(w.place_from[seat], w.place_from[seat + 1]):
        i = w.place[j]
        card = g.play_card[i]
        lo = 0
        for b in range(w.plays_from[seat], w.plays_from[seat + 1]):
            if w.seat_plays[b] < i and (ruled_out(g, w, w.seat_plays[b]) >> card) & 1 != 0:
                lo = w.seat_plays[b] + 1
        w.place_lo[j] = lo
        w.place_room[j] = 0
        for a in range(w.slots_from[seat], w.slots_from[seat + 1]):
            k = w.seat_slots[a]
            time = g.slot_time[k]
            if g.slot_epoch[k] == w.place_epoch[j] and lo <= time <= i and not shown_slot(g, s, k):
                w.place_room[j] += 1
        for earlier in range(w.place_from[seat], j):
            if w.place_epoch[earlier] == w.place_epoch[j] and w.place_lo[earlier] >= lo:
                w.place_room[j] -= 1


def ruled_out(g: Any, w: Any, i: int) -> int:
    """The cards the player of the i-th play cannot have held then, as the worlds read it."""
    return g.read[i] if w.model != 0 else g.excluded[i]


def ban(g: Any, w: Any, seat: int) -> None:
    """For each slot of `seat`: the cards its card, held from then on if it is never played,
    cannot be (`g.excluded` of each of its plays after), and how many of its pool are left."""
    banned = 0
    b = w.plays_from[seat + 1] - 1
    for a in range(w.slots_from[seat + 1] - 1, w.slots_from[seat] - 1, -1):
        k = w.seat_slots[a]
        while b >= w.plays_from[seat] and w.seat_plays[b] >= g.slot_time[k]:
            banned |= ruled_out(g, w, w.seat_plays[b])
            b -= 1
        w.banned[k] = banned
        w.room[k] = popcount(w.unseen[g.slot_epoch[k]] & ~banned)


def propose_seat(g: Any, w: Any, s: Any, seat: int, rng: Any) -> bool:
    """Fill the slots of `seat` (not the deciding seat's): each card it played that the
    deciding seat cannot place in one of its unseen slots of the card's stock within its
    window (`windows`), uniformly among those still free, the earliest play first; then,
    in the order they were taken, each other unseen slot with a card of its pool drawn
    uniformly among those its plays after allow (`ban`). Whether the proposal goes on: it
    is kept with the chance (the choices it had) / (the most it could have had: the
    windows' `place_room`, `fill_bound`), so every filling within the windows and bans is
    as likely."""
    first, stop = w.slots_from[seat], w.slots_from[seat + 1]
    for a in range(first, stop):
        k = w.seat_slots[a]
        w.fill[k] = g.slot_card[k] if shown_slot(g, s, k) else -1
    made = 1.0
    most = 1.0
    for j in range(w.place_from[seat], w.place_from[seat + 1]):
        i = w.place[j]
        e = w.place_epoch[j]
        count = 0
        for a in range(first, stop):
            k = w.seat_slots[a]
            if g.slot_epoch[k] == e and w.fill[k] < 0 and w.place_lo[j] <= g.slot_time[k] <= i:
                w.choices[count] = k
                count += 1
        if count == 0:
            return False
        w.fill[w.choices[int(uniform(rng) * count)]] = g.play_card[i]
        made *= count
        most *= w.place_room[j]
    most *= fill_bound(g, w, s, seat)
    for a in range(first, stop):
        k = w.seat_slots[a]
        if w.fill[k] < 0:
            e = g.slot_epoch[k]
            allowed = w.free[e] & ~w.banned[k]
            count = popcount(allowed)
            if count == 0:
                return False
            w.fill[k] = nth(allowed, int(uniform(rng) * count))
            w.free[e] &= ~(1 << w.fill[k])
            made *= count
    return made >= most or uniform(rng) * most < made


def fill_bound(g: Any, w: Any, s: Any, seat: int) -> float:
    """The most ways `seat`'s unseen slots left free by the placements could be filled.

    A free slot's allowed cards grow with its time (fewer plays after it), so drawing the
    free slots in time order, the j-th of a pool has `room - j` choices less those the
    seats before took from its room: never more than `min(room, left) - j`, `left` the
    pool's cards the seats before left free, and no more than that of the latest slots of the
    pool. Keeping a proposal with the chance (its choices) / (this bound) makes each
    filling as likely, whichever slots the placements left free."""
    most = 1.0
    for e in range(g.epochs + 1):
        w.count[e] = 0
    first, stop = w.slots_from[seat], w.slots_from[seat + 1]
    for a in range(first, stop):
        k = w.seat_slots[a]
        if w.fill[k] < 0:
            w.count[g.slot_epoch[k]] += 1
    for a in range(stop - 1, first - 1, -1):  # the latest unseen slots of each pool
        k = w.seat_slots[a]
        e = g.slot_epoch[k]
        if w.count[e] > 0 and not shown_slot(g, s, k):
            w.count[e] -= 1
            most *= min(w.room[k], popcount(w.free[e])) - w.count[e]
    return most


def may_play(q: Any, p: Any, seat: int, held: int, card: int, modelled: bool) -> bool:
    """Whether `seat`, to move in the probe `q`, may play `card` holding `held`; where it
    is `modelled` as the heuristic bot, whether that bot plays it."""
    own = q.hands[seat]
    q.hands[seat] = held
    allowed = allowed_for(q, p, seat)
    q.hands[seat] = own
    return (allowed >> card) & 1 != 0 and (not modelled or heuristic_play(q, allowed) == card)


def exclusions(q: Any, p: Any, seat: int, card: int, modelled: bool) -> int:
    """The cards `seat`, to move in the probe `q`, cannot have held when it played `card`
    (`may_play`): each alone beside the card would have made it illegal, and so would it
    beside every card but those (a card the rules rule out only in some hands is not one of
    them)."""
    out = 0
    for x in range(CARDS):
        if x != card and not may_play(q, p, seat, (1 << card) | (1 << x), card, modelled):
            out |= 1 << x
    others = ALL_CARDS & ~out
    for x in range(CARDS):
        if (out >> x) & 1 != 0 and may_play(q, p, seat, others | (1 << x), card, modelled):
            out &= ~(1 << x)
    return out


def walk(g: Any, w: Any, p: Any, states: Any, seat: int) -> int:
    """The cards the proposal gives `seat` now, its slots and plays walked in order; -1 as
    soon as one of its plays is illegal with the cards it held then."""
    held = 0
    a, stop = w.slots_from[seat], w.slots_from[seat + 1]
    for b in range(w.plays_from[seat], w.plays_from[seat + 1]):
        i = w.seat_plays[b]
        while a < stop and g.slot_time[w.seat_slots[a]] <= i:
            held |= 1 << w.fill[w.seat_slots[a]]
            a += 1
        card = g.play_card[i]
        if not may_play(states[FIRST_PROBE + i], p, seat, held, card, w.model != 0):
            return -1
        held &= ~(1 << card)
    for rest in range(a, stop):
        held |= 1 << w.fill[w.seat_slots[rest]]
    return held


def propose(g: Any, w: Any, p: Any, s: Any, states: Any, me: int, rng: Any) -> bool:
    """A proposal, checked seat by seat from the seat that failed last (which changes the
    order the seats draw in, not what a proposal is): whether every play in it is legal;
    each seat's cards now in `w.held`."""
    for e in range(g.epochs + 1):
        w.free[e] = w.unseen[e]
    for k in range(s.players):
        seat = (w.first + k) % s.players
        if seat != me:
            if not propose_seat(g, w, s, seat, rng):
                return False
            w.held[seat] = walk(g, w, p, states, seat)
            if w.held[seat] < 0:
                w.first = seat
                return False
    return p.first_len == 0 or led_first_as_dealt(g, w, p, s, states, me)


def led_first_as_dealt(g: Any, w: Any, p: Any, s: Any, states: Any, me: int) -> bool:
    """Whether the proposal's deal has the first trick led by the player who led it, where
    the profile's rules decide that from the dealt hands (`steps.lead_first`, asked on the
    position before the first play with the proposal's hands, then put back)."""
    q = states[FIRST_PROBE] if g.plays_len > 0 else s
    for seat in range(s.players):
        w.dealt[seat] = q.hands[seat]
        q.hands[seat] = 0
    for k in range(g.slots_len):
        if g.slot_time[k] == 0:
            q.hands[g.slot_seat[k]] |= 1 << (g.slot_card[k] if g.slot_seat[k] == me else w.fill[k])
    leader, first_leader, fired = q.leader, q.first_leader, q.fired
    q.leader = left_of(g.dealer, s.players)
    lead_first(q, p)
    agrees = q.leader == first_leader  # as it was led (`q` may be `s` itself)
    q.leader, q.first_leader, q.fired = leader, first_leader, fired
    for seat in range(s.players):
        q.hands[seat] = w.dealt[seat]
    return agrees


def sample(g: Any, w: Any, p: Any, s: Any, states: Any, me: int, rng: Any, tries: int) -> bool:
    """Draw a consistent world into `states[WORLD]`, a copy of the position now `s`: the
    other hands and the stock's unseen cards as the world has them, its reshuffles seeded
    anew; False if none was found in `tries` proposals."""
    for _ in range(tries):
        w.proposals += 1
        if not propose(g, w, p, s, states, me, rng):
            continue
        w.worlds += 1
        ws = states[WORLD]
        for seat in range(s.players):
            if seat != me:
                ws.hands[seat] = w.held[seat] if s.active[seat] != 0 else 0
        left = 0
        for card in range(CARDS):
            if (w.free[g.epochs] >> card) & 1 != 0:
                w.left[left] = card
                left += 1
        for k in range(s.stock_len):
            if g.epochs > 0 or s.stock[k] != s.shown:
                j = int(uniform(rng) * left)
                ws.stock[k] = w.left[j]
                left -= 1
                w.left[j] = w.left[left]
        ws.shuffle_seed = next_seed(rng)
        ws.shuffle_drawn = 0
        return True
    return False
