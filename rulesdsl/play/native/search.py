"""Whole hands with `pimc:N` seats in compiled code: a profile's search kernel.

The kernel's module holds the profile's steps of `search_driver.py` and its playout hand,
specialised and lowered as every native hand is, and the loops of `search_loop.py`; one
call plays many hands, every decision of every seat inside. It chooses exactly what
`rulesdsl.play.players.search.pimc.PimcBot` chooses on the reference engine (the same
sampler drawing the same numbers), so a hand plays alike on either
(`tests/agreement/test_native_search.py`).

It runs where the native path runs and the profile's hands can be read as slots of the
deck order: no reshuffle (a reshuffled stock is a new order the search reads in Python),
every card a bit of a 64-bit mask, and every seat a bot of the fast path or `pimc:N`.
Elsewhere `hand_player` is None and the hands are played on the reference engine.
"""

from __future__ import annotations

import ast
import contextlib
import inspect
from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple

import numpy as np

from rulesdsl.model.cards import Card
from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import Rules
from rulesdsl.model.seeds import derive
from rulesdsl.model.stream import Stream
from rulesdsl.play import native
from rulesdsl.play.engine import fast
from rulesdsl.play.engine.fast import BOTS, HandPlayer, int_deck, recode, recoded, table_for
from rulesdsl.play.engine.inline import specialised_tree
from rulesdsl.play.engine.plan import plan_for
from rulesdsl.play.native import driver, search_driver, search_loop
from rulesdsl.play.native.card_masks import Kinds, MaskError, MaskRewrite, masked
from rulesdsl.play.native.kernel import (
    MAX_MASK_CARD,
    Kernel,
    arrayed,
    assembled,
    compiled,
    hand_function,
    jitted,
)
from rulesdsl.play.native.lent_rows import scratch_rows, scratched
from rulesdsl.play.native.lower import KEPT, Lowered, NativeError, lower
from rulesdsl.play.native.no_refcounts import redecorated
from rulesdsl.play.players.registry import search_size
from rulesdsl.play.players.search.infoset import layout
from rulesdsl.play.players.search.rollout import POLICY
from rulesdsl.play.players.search.sampler import MAX_PROPOSALS, SamplerError

PIMC = len(BOTS)
"""The kind of a `pimc:N` seat; the fast path's bots are their index in BOTS."""

STEPS = (search_driver.deal_position, search_driver.legal_at, search_driver.finish_at)
LOOPS = (
    search_loop.seat_mask,
    search_loop.seat_masks,
    search_loop.cache_slot,
    search_loop.legal_with,
    search_loop.deal_out,
    search_loop.sample_world,
    search_loop.sample_worlds,
    search_loop.play_worlds,
    search_loop.pimc_card,
    search_loop.measure,
    search_loop.came_back,
    search_loop.search_hands,
)
CALLED_ONCE = {
    search_loop.sample_worlds,
    search_loop.play_worlds,
    search_loop.pimc_card,
    search_loop.measure,
    search_loop.came_back,
    search_loop.search_hands,
}
"""The loops called once a decision, a trick or a hand, and the entry. The other loops and
`legal_at` run thousands of times a hand: each is inlined into its caller, as a call passes
every array field by field (and, from counted code, holds a reference on each)."""
INLINED = {search_driver.legal_at, *LOOPS} - CALLED_ONCE


class Played(NamedTuple):
    """Hands played by the search kernel: each one's result, whether its winner came back
    (held, as a trick after the first began, fewer cards than every other player in), and
    the cards played, in order."""

    results: list[HandResult]
    comebacks: list[int]
    moves: list[list[Card]]


def seat_kind(name: str) -> tuple[int, int] | None:
    """A seat's (kind, budget) in the kernel; None for a bot it cannot play."""
    if name in BOTS:
        return BOTS.index(name), 0
    size = search_size(name)
    if size is not None and size[0] == "pimc":
        return PIMC, size[1]
    return None


def supported(rules: Rules, bots: tuple[str, ...]) -> bool:
    """Whether the kernel can play these hands (see the module's note)."""
    return (
        not plan_for(rules).refill.act.reshuffles
        and max(*int_deck(rules), *recode(rules)) < MAX_MASK_CARD
        and all(seat_kind(name) is not None for name in bots)
    )


def step_function(rules: Rules, players: int, bots: tuple[str, ...], fn: Any) -> Lowered:
    """A step of `search_driver.py` specialised for the profile and lowered, its card sets
    as masks where the card-mask pass can tell them."""
    fixed = {"trace": False, "players": players}
    tree = specialised_tree(fn, {"t": table_for(rules, players, bots)}, fixed, KEPT)
    (function,) = tree.module.body
    assert isinstance(function, ast.FunctionDef)
    lowered = lower(function, tree.objects, fn.__name__)
    function = lowered.function
    with contextlib.suppress(MaskError):  # else it keeps its cards in lists
        function = OnSets().visit(masked(function))
    function = scratched(arrayed(function, len(rules.cards)), len(rules.cards))
    return Lowered(jitted(function, fn in INLINED), lowered.tables)


def loop_function(fn: Any) -> ast.FunctionDef:
    """A function of `search_loop.py` as the module holds it: no docstring, no hints."""
    (node,) = ast.parse(inspect.getsource(fn)).body
    assert isinstance(node, ast.FunctionDef)
    node.returns = None
    for arg in node.args.args:
        arg.annotation = None
    node.body = node.body[1:] if ast.get_docstring(node) else node.body
    return jitted(node, fn in INLINED)


def plain(bots: tuple[str, ...]) -> tuple[str, ...]:
    """The seats' bots as the steps know them: a pimc seat's is never asked to choose."""
    return tuple(name if name in BOTS else "lowest" for name in bots)


def set_heuristic() -> ast.FunctionDef:
    """`fast.heuristic` on a card set held as a mask (`heuristic_set`), made from its
    source by the card-mask pass."""
    (node,) = ast.parse(inspect.getsource(fast.heuristic)).body
    assert isinstance(node, ast.FunctionDef)
    node.name, node.returns = "heuristic_set", None
    for arg in node.args.args:
        arg.annotation = None
    given = node.args.args[0].arg
    node.args.args[0].arg = "given"
    node.body = [ast.parse(f"{given} = sorted(given)").body[0], *node.body[1:]]
    rewrite = MaskRewrite(Kinds(node))
    node.body = rewrite.block(node.body)[1:]  # the set is given as a mask
    node.args.args[0].arg = given
    ast.fix_missing_locations(node)
    return jitted(node)


class OnSets(ast.NodeTransformer):
    """`heuristic(cards_of(x), ...)` as `heuristic_set(x, ...)`: no list made a card."""

    def visit_Call(self, node: ast.Call) -> ast.expr:
        node = self.generic_visit(node)  # type: ignore[assignment]
        first = node.args[0] if node.args else None
        if (
            isinstance(node.func, ast.Name)
            and node.func.id == "heuristic"
            and isinstance(first, ast.Call)
            and isinstance(first.func, ast.Name)
            and first.func.id == "cards_of"
        ):
            return ast.Call(
                ast.Name("heuristic_set", ast.Load()), [*first.args, *node.args[1:]], []
            )
        return node


def search_tree(
    rules: Rules, players: int, bots: tuple[str, ...], uncounted: bool = True
) -> ast.Module:
    """The search kernel's module: the steps with the seats' bots, the playout hand (its
    heuristic on masks), the loops; with `uncounted`, each function that can be compiled
    without reference counts (`no_refcounts.py`)."""
    steps = [step_function(rules, players, plain(bots), fn) for fn in STEPS]
    playout = (POLICY,) * players
    rest = hand_function(rules, players, playout, "rest_out", driver.play_rest, details=False)
    rest = Lowered(scratched(OnSets().visit(rest.function), len(rules.cards)), rest.tables)
    loops = [set_heuristic(), *(loop_function(fn) for fn in LOOPS)]
    if uncounted:
        redecorated([*(step.function for step in steps), rest.function, *loops])
    return assembled([*steps, rest], loops)


def search_kernel(rules: Rules, players: int, bots: tuple[str, ...]) -> Kernel | None:
    """The compiled search kernel (read from the cache when it is there), tried on one
    hand; None where the native path does not run, the kernel cannot play these hands
    (`supported`) or numba cannot compile it."""
    return compiled_kernel(rules, players, bots) if native.available() else None


@cache
def compiled_kernel(rules: Rules, players: int, bots: tuple[str, ...]) -> Kernel | None:
    if not supported(rules, bots):
        return None
    from numba.core.errors import NumbaError

    for uncounted in (True, False):  # numba may find that a function needs its counts
        try:
            tree = search_tree(rules, players, bots, uncounted)
            kernel = compiled(tree, rules, players, plain(bots))
            play_in(kernel, rules, bots, [(list(int_deck(rules)), 0, 0)], [[0] * players])
        except NativeError:
            return None
        except NumbaError:
            continue
        return kernel
    return None


class Layouts(NamedTuple):
    """`infoset.layout` for every dealer, as arrays (padded with -1)."""

    deal: Any
    dealt: Any
    stock: Any
    shown: Any


@cache
def layouts(rules: Rules, players: int) -> Layouts:
    found = [layout(rules, players, dealer) for dealer in range(players)]
    size = len(rules.cards)
    deal = np.full((players, players, size), -1, np.int64)
    dealt = np.zeros((players, players), np.int64)
    stock = np.full((players, size), -1, np.int64)
    for dealer, lay in enumerate(found):
        for seat, positions in enumerate(lay.deal):
            deal[dealer, seat, : len(positions)] = positions
            dealt[dealer, seat] = len(positions)
        stock[dealer, : len(lay.stock)] = lay.stock
    shown = np.array([-1 if lay.shown is None else lay.shown for lay in found], np.int64)
    return Layouts(deal, dealt, stock, shown)


def play_in(
    kernel: Kernel,
    rules: Rules,
    bots: tuple[str, ...],
    deals: Sequence[tuple[Sequence[int], int, int]],
    bot_seeds: Sequence[Sequence[int]],
    rngs: Any = None,
) -> Played:
    """Play `deals` (deck order as `fast.to_int`, hand seed, dealer) in `kernel`, seat s of
    deal h seeded `bot_seeds[h][s]`; random bots draw from `rngs[h]` ([seed, drawn], left
    drawn; none by default)."""
    from numba import int64, typed

    players = kernel.players
    kinds = np.array([seat_kind(name) for name in bots], np.int64)
    lay = layouts(rules, players)
    count = len(deals)
    size = len(rules.cards)
    out = np.zeros((count, len(driver.FIELDS)), np.int64)
    comebacks = np.zeros(count, np.int64)
    moves = np.full((count, size + 1), -1, np.int64)
    trick_winners = typed.List.empty_list(int64)
    eliminated = typed.List.empty_list(int64)
    ends = np.zeros((count, 2), np.int64)
    streams = np.zeros((count, 2), np.uint64) if rngs is None else rngs
    failed = kernel.module.search_hands(
        np.array([deck for deck, _, _ in deals], np.int64),
        np.array([seed for _, seed, _ in deals], np.uint64),
        np.array([dealer for _, _, dealer in deals], np.int64),
        kinds[:, 0].copy(),
        kinds[:, 1].copy(),
        np.array(bot_seeds, np.uint64),
        streams,
        *lay,
        np.array(kernel_cards(rules), np.int64),
        PIMC,
        size,
        len(driver.FIELDS),
        len(search_driver.COUNTS),
        driver.WINNER,
        driver.ELIMINATED,
        MAX_PROPOSALS,
        1 if free_leads(rules) else 0,
        out,
        comebacks,
        moves,
        trick_winners,
        eliminated,
        ends,
        scratch_rows(size),
    )
    if failed >= 0:
        raise SamplerError(f"no consistent world in {MAX_PROPOSALS} proposals")
    results, starts = [], (0, 0)
    for row, end in zip(out, ends, strict=True):
        won, out_seats = trick_winners[starts[0] : end[0]], eliminated[starts[1] : end[1]]
        results.append(driver.hand_result(row, won, out_seats, kernel.plan))
        starts = (int(end[0]), int(end[1]))
    card_of = dict(zip(kernel_cards(rules), rules.cards, strict=True))
    return Played(
        results, comebacks.tolist(), [[card_of[c] for c in row if c >= 0] for row in moves]
    )


def free_leads(rules: Rules) -> bool:
    """Whether a lead is legal holding any cards: the profile has no lead rule (docs/rules.md
    section 2, step 1), so the sampler need not ask a world whether it allows one."""
    return not plan_for(rules).lead_rules


def kernel_cards(rules: Rules) -> list[int]:
    """The cards of `rules.cards` as the kernel plays them (`fast.play` recodes the deck
    where `fast.recoded`)."""
    deck, codes = int_deck(rules), recode(rules)
    return [codes[c] for c in deck] if recoded(rules) else list(deck)


def seeds_of(bots: tuple[str, ...], hand_seed: int) -> list[int]:
    """Each seat's seed in a hand, as `search.table.reference_hand` seeds its bots."""
    return [derive(hand_seed, name, seat) for seat, name in enumerate(bots)]


def hand_player(rules: Rules, players: int, bots: tuple[str, ...]) -> HandPlayer | None:
    """A function playing one hand as `search.table.reference_hand`'s does, in the search
    kernel; None where the kernel does not run."""
    kernel = search_kernel(rules, players, bots)
    if kernel is None:
        return None
    uses_random = "random" in bots

    def play(deck: list[int], hand_seed: int, rng: Stream, dealer: int) -> HandResult:
        start = (rng.seed, rng.drawn) if uses_random else (0, 0)
        streams = np.array([start], np.uint64)
        played = play_in(
            kernel,
            rules,
            bots,
            [(deck, hand_seed, dealer)],
            [seeds_of(bots, hand_seed)],
            streams,
        )
        if uses_random:
            rng.skip(int(streams[0, 1]) - rng.drawn)
        return played.results[0]

    return play
