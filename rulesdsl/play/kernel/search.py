"""The bots that search, in the kernel's dialect, and the hand they play in.

`pimc:N` (PIMC): for each of N worlds drawn consistent with what the seat knows
(`worlds.sample`), every legal card is played and the world played out by the playout
policy (`steps.pick` with PLAYOUT), with the same random numbers for every card of a world,
so the cards are compared on equal luck; the card that won most often is chosen where it
won clearly more often than the heuristic bot's card (`choice`).

`ismcts:N` (ISMCTS): single-observer information-set Monte Carlo tree search (Cowling,
Powley and Whitehouse, 2012): N iterations, each drawing a world, walking a tree of the
cards played from the decision on by UCB over the cards legal in that world, adding one node
and playing the world out by the playout policy; the root's most visited card is chosen.
The tree is rows of numbers (`tree_*` of the Work record).

`solver:N`: PIMC whose card is scored in each world by the open-game solver (`solve.py`):
whether some line of the seat's own play wins after it, the others playing the heuristic
bot's card (`pimc_card`). It reads the others so in drawing its worlds too: they are the
deals in which the heuristic bot plays as the others played (`read_sample`).
`sees-hands:N` and `sees-all:N` are yardsticks that read what their seat cannot know: the
same, in worlds that keep every hand and shuffle the stock alone, or on the hand itself.

A search seat draws from a stream of its own (`streams[seat]`); a hand played here seeds it
from the hand's seed, so a hand plays alike on CPython and compiled.
"""

from __future__ import annotations

import math
from typing import Any

from rulesdsl.play.engine.masks import lowest, popcount
from rulesdsl.play.kernel.primitives import new_stream, next_seed, restart, stream_number, uniform
from rulesdsl.play.kernel.solve import UNSOLVED, heuristic_play, solve
from rulesdsl.play.kernel.state import CARDS, PLAYS, copy_state
from rulesdsl.play.kernel.steps import (
    PLAYOUT,
    allowed_now,
    deal,
    finish_trick,
    last_to_play,
    pick,
    play_card,
    play_now,
    play_out,
    random_card,
    start_trick,
)
from rulesdsl.play.kernel.worlds import (
    FIRST_PROBE,
    MAX_PROPOSALS,
    PLAYED,
    WORLD,
    exclusions,
    log_deal,
    log_trick_finished,
    log_trick_played,
    prepare,
    sample,
)

PIMC, ISMCTS, SOLVER, SEES_HANDS, SEES_ALL = range(PLAYOUT + 1, PLAYOUT + 6)
"""The search bots' kinds, after the kernel's plain bots, in the order of
`players.search.bot.SEARCH_BOTS`."""
SOLVE_FROM = FIRST_PROBE + PLAYS
"""The first of the states the open-game solver's line takes (`SOLVE_DEPTH` of them)."""
SOLVE_BUDGET = 20_000
"""The most positions one question of a solver-scored bot visits; past it, the card is
scored by a playout."""
MODEL_PROPOSALS = 20_000
"""The proposals `solver:N` draws for a world read as the heuristic bot's before it reads
the others' plays as legal alone."""
SEAT_STREAMS = 2
"""A search seat's stream in a hand: the hand seed's number SEAT_STREAMS + seat."""


def choice(w: Any, allowed: int, usual: int, careful: bool) -> int:
    """The card of `allowed` that won in most worlds (the lowest of those) where it won
    more often than the heuristic's card `usual`, and where `careful` (a world's outcome a
    playout's) clearly more often: by more than the square root of their wins together (one
    standard deviation of the difference of two counts drawn by chance); else `usual`. So a
    card that won in a few playouts more by luck does not displace a sound default."""
    top = usual  # the lowest card that won most where it won more than `usual`, else `usual`
    for card in range(CARDS):
        if (allowed >> card) & 1 != 0 and w.wins[card] > w.wins[top]:
            top = card
    ahead = w.wins[top] - w.wins[usual]
    clearly = not careful or ahead * ahead > w.wins[top] + w.wins[usual]
    return top if clearly else usual


# -- ismcts ------------------------------------------------------------------------------

UCB = 0.7
"""The UCB constant: a child scores wins / visits + EXPLORE * sqrt(ln(available) / visits),
where `available` counts the iterations in which its card was legal."""


def child(w: Any, node: int, card: int) -> int:
    """The child of `node` for `card`, or -1."""
    k = w.tree_first[node]
    while k >= 0 and w.tree_card[k] != card:
        k = w.tree_next[k]
    return k


def add_child(w: Any, node: int, card: int, seat: int) -> int:
    k = w.tree_len
    w.tree_len = k + 1
    w.tree_card[k] = card
    w.tree_seat[k] = seat
    w.tree_visits[k] = 0
    w.tree_wins[k] = 0
    w.tree_available[k] = 0
    w.tree_first[k] = -1
    w.tree_next[k] = w.tree_first[node]
    w.tree_first[node] = k
    return k


def score(w: Any, k: int) -> float:
    visits = w.tree_visits[k]
    return w.tree_wins[k] / visits + UCB * math.sqrt(math.log(w.tree_available[k]) / visits)


def descend(w: Any, p: Any, world: Any, rng: Any) -> int:
    """Walk from the root while every legal card has a child, by UCB, adding one child
    (for a legal card drawn among those that have none); the path's nodes in `tree_path`,
    how many."""
    node = 0
    depth = 0
    fresh = 0  # the legal cards without a child
    while world.over == 0 and fresh == 0:
        best = -1
        cards = allowed_now(world, p)
        while cards != 0:
            card = lowest(cards)
            k = child(w, node, card)
            if k < 0:
                fresh |= 1 << card
            else:
                w.tree_available[k] += 1
                if best < 0 or score(w, k) > score(w, best):
                    best = k
            cards &= cards - 1
        if fresh != 0:
            node = add_child(w, node, random_card(fresh, rng), world.trick_seats[world.trick_len])
            w.tree_available[node] += 1
        else:
            node = best
        play_now(world, p, w.tree_card[node])
        w.tree_path[depth] = node
        depth += 1
    return depth


def ismcts_card(
    s: Any, p: Any, g: Any, w: Any, states: Any, me: int, allowed: int, iterations: int, rng: Any
) -> int:
    """The card `me` plays of `allowed` (more than one) by ISMCTS over `iterations`."""
    prepare(g, w, s, me, False)
    w.tree_len = 1
    w.tree_first[0] = -1
    world = states[WORLD]
    for _ in range(iterations):
        copy_state(s, world)
        if not sample(g, w, p, s, states, me, rng, MAX_PROPOSALS):
            w.gave_up += 1
            return heuristic_play(s, allowed)
        depth = descend(w, p, world, rng)
        play_out(world, p, PLAYOUT, rng)  # nothing where the walk ended the hand
        for d in range(depth):
            k = w.tree_path[d]
            w.tree_visits[k] += 1
            if w.tree_seat[k] == world.hand_winner:
                w.tree_wins[k] += 1
    top = -1
    for card in range(CARDS):
        k = child(w, 0, card) if (allowed >> card) & 1 != 0 else -1
        if k >= 0 and (top < 0 or w.tree_visits[k] > w.tree_visits[top]):
            top = k
    return w.tree_card[top]


# -- pimc scored by the open-game solver -------------------------------------------------


def restock(w: Any, world: Any, rng: Any) -> None:
    """Shuffle the stock of `world` (but the card that named trump, where it lies in the
    deal's stock) and seed its reshuffles anew: what a seat that sees every hand does not
    know."""
    movable = 0
    for k in range(world.stock_len):
        if world.refills > 0 or world.stock[k] != world.shown:
            w.left[movable] = k
            movable += 1
    for i in range(movable - 1, 0, -1):
        a, b = w.left[i], w.left[int(uniform(rng) * (i + 1))]
        world.stock[a], world.stock[b] = world.stock[b], world.stock[a]
    world.shuffle_seed = next_seed(rng)
    world.shuffle_drawn = 0


def read_sample(g: Any, w: Any, p: Any, s: Any, states: Any, me: int, rng: Any) -> bool:
    """A world drawn by `sample`, the others' plays read as the heuristic bot's where
    `w.model` is set; where none is found in MODEL_PROPOSALS, the others do not play as
    that bot: `me` reads their plays' legality alone for the rest of the hand."""
    if w.model != 0:
        if sample(g, w, p, s, states, me, rng, MODEL_PROPOSALS):
            return True
        g.unread |= 1 << me
        prepare(g, w, s, me, False)
    return sample(g, w, p, s, states, me, rng, MAX_PROPOSALS)


def solved(w: Any, p: Any, out: Any, states: Any, me: int) -> int:
    """1 where `me` wins from `out` against the others playing the heuristic, whatever the
    playout's luck, 0 where it cannot, UNSOLVED past SOLVE_BUDGET positions."""
    w.visited[0] = 0
    return solve(out, p, states, SOLVE_FROM, w.todo, me, SOLVE_BUDGET, w.visited, True)


def pimc_card(
    s: Any, p: Any, g: Any, w: Any, states: Any, me: int, allowed: int, worlds: int, view: int,
    rng: Any,
) -> int:  # fmt: skip
    """The card `me` plays of `allowed` (more than one) by PIMC over `worlds` worlds, a
    card's outcome in a world a playout's (`view` PIMC), or the open-game solver's
    (`solved`, a playout's where the solver runs past its budget); the card that won in most
    worlds is chosen where it won in more than the heuristic's (`choice`, careful where the
    outcomes are playouts'). The worlds are drawn from what the seat knows (PIMC, SOLVER),
    from every hand with the stock shuffled (SEES_HANDS), or are the hand itself (SEES_ALL:
    the solver is asked in the first world alone, and a card that wins is played at once).
    Every card of a world plays on its own copy of it, the last on the world itself, with the
    same random numbers."""
    drawn = view in (PIMC, SOLVER)
    if drawn:
        prepare(g, w, s, me, view == SOLVER and (g.unread >> me) & 1 == 0)
    for card in range(CARDS):
        w.wins[card] = 0
    world, played = states[WORLD], states[PLAYED]
    usual = heuristic_play(s, allowed)
    known = 0  # under SEES_ALL, the cards the solver found lose
    for i in range(worlds):
        copy_state(s, world)
        if drawn and not read_sample(g, w, p, s, states, me, rng):
            w.gave_up += 1
            return usual
        if view == SEES_HANDS:
            restock(w, world, rng)
        seed = next_seed(rng)
        solving = view != PIMC and (view != SEES_ALL or i == 0)
        cards = allowed & ~known
        while cards != 0:
            card = lowest(cards)
            cards &= cards - 1
            out = played if cards != 0 else world
            if cards != 0:
                copy_state(world, played)
            play_now(out, p, card)
            value = solved(w, p, out, states, me) if solving else UNSOLVED
            if value == UNSOLVED:
                play_out(out, p, PLAYOUT, restart(w.playout, seed))
                value = 1 if out.hand_winner == me else 0
            elif view == SEES_ALL:
                if value == 1:
                    return card
                known |= 1 << card
            w.wins[card] += value
    return choice(w, allowed, usual, view == PIMC)


# -- the hand ----------------------------------------------------------------------------


def decide(
    s: Any, p: Any, g: Any, w: Any, states: Any, bot: int, budget: int, rng: Any, stream: Any
) -> int:
    """The card the seat to move plays, by `bot`: a search bot with `budget`, drawing from
    `stream`; a plain bot drawing from `rng`."""
    allowed = allowed_now(s, p)
    if bot < PIMC:
        return pick(bot, s, allowed, rng, last_to_play(s))
    if popcount(allowed) == 1:
        return lowest(allowed)
    if bot == ISMCTS:
        return ismcts_card(s, p, g, w, states, s.trick_seats[s.trick_len], allowed, budget, stream)
    return pimc_card(s, p, g, w, states, s.trick_seats[s.trick_len], allowed, budget, bot, stream)


def play_logged(s: Any, p: Any, g: Any, states: Any, card: int, reading: bool) -> None:
    """The seat to move plays `card` (`steps.play_now`), written into `g`, the state before
    the play kept in `states` for the worlds' checks; where `reading` (a seat is `solver:N`),
    the cards it rules out read as the heuristic bot's play too (`Seen.read`)."""
    seat = s.trick_seats[s.trick_len]
    probe = states[FIRST_PROBE + g.plays_len]
    copy_state(s, probe)
    g.excluded[g.plays_len] = exclusions(probe, p, seat, card, False)
    if reading:
        g.read[g.plays_len] = exclusions(probe, p, seat, card, True)
    g.play_seat[g.plays_len] = seat
    g.play_card[g.plays_len] = card
    g.plays_len += 1
    play_card(s, seat, card)
    if s.trick_len == s.seats_len:
        log_trick_played(g, s)
        finish_trick(s, p)
        log_trick_finished(g, s)
        if s.over == 0:
            start_trick(s)


def deal_logged(
    s: Any, p: Any, g: Any, searching: bool, deck: Any, players: int, dealt: int, dealer: int,
    seed: int,
) -> None:  # fmt: skip
    """Deal `deck` (`steps.deal`), written into `g` where a seat is `searching`, and begin
    the first trick."""
    deal(s, p, deck, players, dealt, dealer, seed)
    if searching:
        log_deal(g, s, deck, dealer)
    start_trick(s)


def replay(s: Any, p: Any, g: Any, states: Any, cards: Any, count: int, reading: bool) -> None:
    """Play the first `count` of `cards` in turn from the dealt hand, as `play_dealt`
    plays them (`reading` as `play_logged` takes it), keeping the states before each play."""
    for i in range(count):
        allowed_now(s, p)
        play_logged(s, p, g, states, cards[i], reading)


def play_dealt(
    s: Any, p: Any, g: Any, w: Any, states: Any,
    deck: Any, players: int, dealt: int, dealer: int, seed: int,
    bots: Any, budgets: Any, rng: Any, streams: Any,
) -> None:  # fmt: skip
    """Deal `deck` and play the hand to its end, each seat's card chosen by its bot; each
    search seat's stream is seeded from the hand's `seed`, and where a seat searches, what
    the seats see is written as the hand is played (`play_logged`)."""
    kinds = 0  # the bots' kinds, a bit each
    for seat in range(players):
        kinds |= 1 << int(bots[seat])
        if bots[seat] >= PIMC:
            streams[seat] = new_stream(stream_number(seed, SEAT_STREAMS + seat))
    searching = kinds >> PIMC != 0  # not constants: numba would compile the calls for them too
    reading = (kinds >> SOLVER) & 1 != 0
    deal_logged(s, p, g, searching, deck, players, dealt, dealer, seed)
    while s.over == 0:
        seat = s.trick_seats[s.trick_len]
        if searching:
            card = decide(s, p, g, w, states, bots[seat], budgets[seat], rng, streams[seat])
            play_logged(s, p, g, states, card, reading)
        else:
            play_now(s, p, pick(bots[seat], s, allowed_now(s, p), rng, last_to_play(s)))
