"""The open game solved, in the kernel's dialect: every hand and the stock's order known,
whether one seat can force a win of the hand whatever the others play, all of them against
it. The hand is then a game of two sides, the seat and the rest, with nothing hidden and no
chance (a reshuffle is drawn from the hand's seed, known too), so plain depth-first search
decides it: a position is won where the seat to move is the solver's seat and one card
wins, or another seat's and every card does. Each position's cards are tried the mover's
likeliest first (`heuristic_play`), and the search stops at the first card that settles it.

With the others `modelled` as the heuristic bot, each of them plays the heuristic's card
alone, and the search asks whether some line of the seat's own play wins against them:
what the solver's bots (`search.pimc_card`) ask of each world.
"""

from __future__ import annotations

from typing import Any

from rulesdsl.play.engine.heuristic import heuristic_card
from rulesdsl.play.engine.masks import lowest
from rulesdsl.play.kernel.state import copy_state
from rulesdsl.play.kernel.steps import allowed_now, last_to_play, play_now

UNSOLVED = -1
"""What `solve` gives when its budget of positions ran out first."""


def heuristic_play(s: Any, allowed: int) -> int:
    """The card of `allowed` the heuristic bot plays at `s`: the one the search tries first."""
    return heuristic_card(allowed, s.trump, s.led, s.best, last_to_play(s))


def choices(s: Any, p: Any, me: int, modelled: bool) -> int:
    """The cards the search tries at `s`: every legal card, or where the others are
    `modelled` as the heuristic bot and one of them is to move, the heuristic's card."""
    allowed = allowed_now(s, p)
    if modelled and s.trick_seats[s.trick_len] != me:
        return 1 << heuristic_play(s, allowed)
    return allowed


def solve(
    s: Any, p: Any, states: Any, base: int, todo: Any, me: int, budget: int, visited: Any,
    modelled: bool,
) -> int:  # fmt: skip
    """1 where seat `me` can force a win of the hand from `s`, 0 where the others can stop
    it, UNSOLVED where that takes more than `budget` positions or a line longer than `todo`;
    `visited[0]` counts the positions played. `states[base:]` holds the line searched,
    `todo` each of its positions' cards not yet tried."""
    if s.over != 0:
        return 1 if s.hand_winner == me else 0
    copy_state(s, states[base])
    todo[0] = choices(states[base], p, me, modelled)
    depth = 0
    found = -1  # the value of the position just left, -1 for none
    while True:
        node = states[base + depth]
        goal = 1 if node.trick_seats[node.trick_len] == me else 0
        if found == goal or todo[depth] == 0:
            found = goal if found == goal else 1 - goal
            if depth == 0:
                return found
            depth -= 1
            continue
        card = heuristic_play(node, todo[depth]) if found < 0 else lowest(todo[depth])
        todo[depth] &= ~(1 << card)
        if visited[0] >= budget or depth + 2 > len(todo):
            return UNSOLVED
        visited[0] += 1
        child = states[base + depth + 1]
        copy_state(node, child)
        play_now(child, p, card)
        if child.over != 0:
            found = 1 if child.hand_winner == me else 0
            continue
        depth += 1
        todo[depth] = choices(child, p, me, modelled)
        found = -1


def principal_line(
    s: Any, p: Any, states: Any, todo: Any, me: int, budget: int, visited: Any, probe: Any,
    line: Any,
) -> int:  # fmt: skip
    """The cards of a line that proves `solve`'s answer from `s`, written into `line`, and
    their number (UNSOLVED where the budget ran out, or the line is longer than `line`):
    the seat that gets its way plays a card that keeps it, the others the first card they
    hold. `s` is played to the end."""
    length = 0
    while s.over == 0:
        goal = 1 if s.trick_seats[s.trick_len] == me else 0
        cards = allowed_now(s, p)
        chosen = lowest(cards)
        while cards != 0:
            card = lowest(cards)
            cards &= cards - 1
            copy_state(s, probe)
            play_now(probe, p, card)
            value = solve(probe, p, states, 0, todo, me, budget, visited, False)
            if value == UNSOLVED:
                return UNSOLVED
            if value == goal:
                chosen = card
                break
        if length == len(line):
            return UNSOLVED
        play_now(s, p, chosen)
        line[length] = chosen
        length += 1
    return length
