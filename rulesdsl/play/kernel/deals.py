"""Many deals played in one call, as `rulesdsl.reason.sim` deals them: chunk `k` is the deals
`starts[k]` .. `starts[k] + counts[k] - 1`, shuffled from the deals' stream `deal_seeds[k]`,
each deal taking the stream's next number as its hand seed; the dealer of deal `unit` is
`unit % players`; the bots draw from the chunk's stream `bot_seeds[k]`. Under `rotate`, a
deck and hand seed serve `players` deals in a row (each chunk starts a new one), the dealt
cards turned one seat further each deal (`rotate_deck`), so every hand of it is played
from every seat relative to the dealer. With `skill`, the
heuristic bot plays one seat (turning relative to the dealer every `players` deals) and the
random bot the others. Each hand's numbers go to a row of `out` (COLUMNS).
"""

from __future__ import annotations

from typing import Any

from rulesdsl.play.engine.fast import int_deck, recode
from rulesdsl.play.engine.masks import popcount
from rulesdsl.play.kernel.primitives import new_deck, new_stream, next_seed, shuffle_deck
from rulesdsl.play.kernel.search import play_dealt
from rulesdsl.play.kernel.steps import HEURISTIC, RANDOM, hand_points

WINNER, REASON, TRICKS, STOCK_LEFT, TRUMP, WINNER_CARDS, PLAYS, SAVES, FIRED, POINTS = range(10)
ELIMINATED = POINTS + 1
COLUMNS = ELIMINATED + 1
"""The numbers of a hand, by their column in a row; how many."""

NO_POINTS = -(1 << 62)
"""`points` of a hand without a winner."""


def record(s: Any, p: Any, out: Any, row: int) -> None:
    """Write the finished hand's numbers into `out[row]`."""
    won = s.hand_winner
    out[row, POINTS] = hand_points(s, p) if won >= 0 else NO_POINTS  # it may fire the score
    out[row, WINNER] = won
    out[row, REASON] = s.end_reason
    out[row, TRICKS] = s.trick_number
    out[row, STOCK_LEFT] = s.stock_len
    out[row, TRUMP] = s.trump
    out[row, WINNER_CARDS] = popcount(s.hands[won]) if won >= 0 else 0
    out[row, PLAYS] = s.plays
    out[row, SAVES] = s.saves
    out[row, FIRED] = s.fired
    out[row, ELIMINATED] = s.eliminated_len


def rotate_deck(deck: Any, dealt_from: Any, dealt: int, size: int, turn: int) -> None:
    """`deck` as `dealt_from` with its first `dealt` cards moved `turn` places on (the last
    `turn` of them first): dealt in turn from the seat after the dealer, each hand goes
    `turn` seats further round the table; the stock is as it was."""
    for k in range(dealt):
        deck[k] = dealt_from[(k - turn) % dealt]
    for k in range(dealt, size):
        deck[k] = dealt_from[k]


def skill_seat(unit: Any, players: int) -> Any:
    """The seat a step of skill is measured at in deal `unit` (a number or an array of
    them): it turns relative to the dealer every `players` deals, so it sits everywhere
    equally often."""
    return (unit % players + unit // players) % players


def play_deals(
    s: Any, p: Any, g: Any, w: Any, states: Any, streams: Any,
    table: Any, bots: Any, budgets: Any, skill: bool,
    deal_seeds: Any, bot_seeds: Any, starts: Any, counts: Any, rotate: bool,
    out: Any,
) -> None:  # fmt: skip
    """Play every deal of the chunks (`search.play_dealt`: `g`, `w`, `states` and
    `streams` are the searches' rows, `budgets` each search seat's); `table` is [players,
    dealt, the number of cards, each card int of the profile's canonical order, then by
    card int its int as the profile ranks it] (`table_of`)."""
    players, dealt, size = table[0], table[1], table[2]
    turned = new_deck(size)
    shuffled = new_deck(size)
    ranked = new_deck(size)
    for k in range(size):
        ranked[k] = table[3 + size + table[3 + k]]
    row = 0
    seed = next_seed(new_stream(0))  # each chunk's first deal sets it
    for piece in range(len(starts)):
        deals = new_stream(deal_seeds[piece])
        rng = new_stream(bot_seeds[piece])
        for unit in range(starts[piece], starts[piece] + counts[piece]):
            dealer = unit % players
            turn = dealer if rotate else 0
            if turn == 0:
                for k in range(size):  # shuffled ranked, as ranking the shuffled canonical order
                    shuffled[k] = ranked[k]
                shuffle_deck(shuffled, deals)
                seed = next_seed(deals)
            deck = shuffled
            if turn != 0:
                rotate_deck(turned, shuffled, dealt, size, turn)
                deck = turned
            if skill:
                for seat in range(players):
                    bots[seat] = HEURISTIC if seat == skill_seat(unit, players) else RANDOM
            play_dealt(
                s, p, g, w, states, deck, players, dealt, dealer, seed, bots, budgets, rng, streams
            )
            record(s, p, out, row)
            row += 1


def table_of(rules: Any, players: int) -> list[int]:
    """The table `play_deals` reads, for `rules` at `players`."""
    cards = int_deck(rules)
    dealt = players * rules.hand_size_for(players)
    return [players, dealt, len(cards), *cards, *recode(rules)]
