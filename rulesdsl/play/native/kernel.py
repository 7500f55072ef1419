"""A profile's native kernel: its specialised hands lowered as a module, executed from its
text and compiled by numba, its machine code kept in the kernel cache (`store.py`).

The module's name is a digest of its own text and of the engine's version (the package's
version, the native path's sources, numba's version), so a changed profile or engine
never reads a stale kernel, and a second run starts from the cached machine code.
The text is `ast.unparse` of a tree that `check_tree` has checked: its names are its own
locals, the runtime's helpers and a few builtins, and its constants ints, floats, bools
and tuples of them.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib.metadata
import inspect
import os
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import Rules
from rulesdsl.play.engine.fast import int_deck, recode, table_for
from rulesdsl.play.engine.inline import specialised_tree
from rulesdsl.play.engine.steps import Plan
from rulesdsl.play.native import chunk, driver, runtime
from rulesdsl.play.native.card_arrays import StackError, seat_arrays, stacked
from rulesdsl.play.native.card_masks import MaskError, masked
from rulesdsl.play.native.lower import KEPT, Lowered, NativeError, literal, lower
from rulesdsl.play.native.runtime import new_stream
from rulesdsl.play.native.store import loaded

CACHE_ENV = "RULESDSL_CACHE"
RUNTIME = (
    "all_cards",
    "cards_above",
    "cards_of",
    "heuristic",
    "insort",
    "lowest",
    "mask_of",
    "mask_of_kept",
    "mask_of_slice",
    "new_stream",
    "next_seed",
    "next_uniform",
    "nth",
    "number",
    "popcount",
    "seat_count",
    "seat_index",
    "shuffle",
    "stack_append",
    "stack_clear",
    "stack_extend",
    "stack_from",
    "stack_grown_append",
    "stack_grown_extend",
    "stack_has",
    "stack_item",
    "stack_join",
    "stack_keep",
    "stack_kept",
    "stack_len",
    "stack_new",
    "stack_pop",
    "stack_reverse",
    "stack_view",
    "suit_cards",
    "truth",
)
ALIASING = frozenset({"stack_view", "stack_join", "stack_grown_append", "stack_grown_extend"})
"""The runtime helpers that return the array they are given (or a view of it)."""
BUILTINS = frozenset({"len", "range", "max", "min", "sorted", "list", "int", "bool", "float"})
MODULES = frozenset({"np", "numba"})
MAX_MASK_CARD = 63
"""A card set is a 64-bit int when every card int is below this."""
HAND_ARGS = ("deck", "hand_seed", "rng", "dealer", "out", "row", "trick_winners", "eliminated")


class Deals(NamedTuple):
    """A chunk played: a row of FIELDS per deal, and the trick winners and eliminations of
    all deals in order (each deal's counts are its `tricks` and `eliminated`)."""

    rows: Any
    trick_winners: Any
    eliminated: Any


class Chunks(NamedTuple):
    """Chunks of deals played in one call (`chunk.py`): for each, the seeds of its deals'
    and its bots' streams, its first deal and how many deals it holds."""

    deal_seeds: Any
    bot_seeds: Any
    starts: Any
    counts: Any


def chunks(
    deal_seeds: Sequence[int],
    bot_seeds: Sequence[int],
    starts: Sequence[int],
    counts: Sequence[int],
) -> Chunks:
    """Chunks from lists of ints, one item per chunk."""
    return Chunks(
        np.array(deal_seeds, np.uint64),
        np.array(bot_seeds, np.uint64),
        np.array(starts, np.int64),
        np.array(counts, np.int64),
    )


class Kernel(NamedTuple):
    """A compiled profile at one table: its module and its plan."""

    module: ModuleType
    plan: Plan
    players: int

    def deals(self, cards: Any, deal_seed: int, bot_seed: int, first: int, count: int) -> Deals:
        """Deals `first` .. `first + count - 1`, one chunk, with the profile's bots."""
        played = chunks([deal_seed], [bot_seed], [first], [count])
        return Deals(*self.module.play_deals(cards, *played, self.players))

    def chunks(self, cards: Any, played: Chunks, skill: bool = False) -> Any:
        """The rows of the deals of every chunk of `played`, in order, with the profile's
        bots or (with `skill`) the heuristic bot at one seat (the module's `play_skill`); the
        hands keep no trick winners or eliminations."""
        loop = self.module.play_skill if skill else self.module.count_deals
        return loop(cards, *played, self.players)[0]

    def play_on(self, position: Position, rng_seed: int) -> HandResult:
        """Play on from `position` with the kernel's bots, random ones drawing from the
        stream `rng_seed`."""
        out = np.zeros((1, len(driver.FIELDS)), np.int64)
        from numba import int64, typed

        trick_winners = typed.List.empty_list(int64)
        eliminated = typed.List.empty_list(int64)
        self.module.play_on(
            *position, new_stream(np.uint64(rng_seed)), out, 0, trick_winners, eliminated
        )
        return driver.hand_result(out[0], trick_winners, eliminated, self.plan)

    def play_rests(self, rests: Rests) -> Any:
        """The winning seat (-1 for none) of each hand of `rests`, played on with the
        kernel's bots; `rests.rngs` is left drawn as far as each hand drew."""
        out = np.zeros((len(rests.trumps), len(driver.FIELDS)), np.int64)
        self.module.play_rests(*rests, out)
        return out[:, driver.WINNER]


class Rests(NamedTuple):
    """Hands in progress, a row each, in arrays (see `driver.play_rest`): each hand's
    cards by seat (-1 for no card), its stock and cards set aside (padded with -1), trump,
    leader, seats out, counters, tricks won and last trick won by seat, the stream of
    reshuffles, the cards played to this trick (padded with -1) and the stream of the
    bots' choices (streams as [seed, numbers drawn])."""

    tables: Any
    stocks: Any
    set_asides: Any
    trumps: Any
    leaders: Any
    outs: Any
    counts: Any
    tricks_won: Any
    last_win: Any
    reshuffles: Any
    played: Any
    rngs: Any


class Position(NamedTuple):
    """A position to play on from, in arrays (see `driver.play_on`)."""

    table: Any
    stock: Any
    set_aside: Any
    trump: int
    leader: int
    out_seats: Any
    opening: bool
    seed: Any
    played: Any


def position(
    hands: list[list[int]],
    stock: list[int],
    set_aside: list[int],
    trump: int,
    leader: int,
    out: list[int],
    opening: bool,
    seed: int,
    played: list[int],
) -> Position:
    """A Position from lists of engine card ints: the stock top card last, `out` the seats
    out, `played` the cards played to this trick from the leader on."""
    table = np.full((len(hands), max(1, *map(len, hands))), -1, np.int64)
    for seat, cards in enumerate(hands):
        table[seat, : len(cards)] = cards
    seats_out = np.array([seat in out for seat in range(len(hands))], np.int64)
    return Position(
        table,
        np.array(stock, np.int64),
        np.array(set_aside, np.int64),
        trump,
        leader,
        seats_out,
        opening,
        np.uint64(seed),
        np.array([*played, -1], np.int64),
    )


def cache_dir() -> Path:
    """Where kernels are kept: $RULESDSL_CACHE, else the user's cache folder."""
    given = os.environ.get(CACHE_ENV)
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rulesdsl" / "native"


@cache
def engine_version() -> str:
    """The package's version, the native path's sources and numba's version, as one text."""
    import numba

    from rulesdsl.play.engine import fast, inline, state_in_locals, steps

    parts = [
        inspect.getsource(m) for m in (chunk, driver, runtime, fast, inline, steps, state_in_locals)
    ]
    version = importlib.metadata.version("rulesdsl")
    return hashlib.blake2b("\0".join([version, numba.__version__, *parts]).encode()).hexdigest()


def hand_function(
    rules: Rules,
    players: int,
    bots: tuple[str, ...],
    name: str,
    play: Callable[..., None] = driver.play_native,
    details: bool = True,
) -> Lowered:
    """The lowered driver `play` of `rules` with `bots`, as a function named `name`:
    without `details`, it writes the row of the hand alone."""
    fixed = {"trace": False, "players": players}
    table = table_for(rules, players, bots)
    tree = specialised_tree(play, {"t": table, "details": details}, fixed, KEPT)
    (function,) = tree.module.body
    assert isinstance(function, ast.FunctionDef)
    lowered, tables = lower(function, tree.objects, name)
    if max(*int_deck(rules), *recode(rules)) < MAX_MASK_CARD:
        with contextlib.suppress(MaskError):  # else the hand keeps its cards in lists
            lowered = masked(lowered)
    return Lowered(jitted(arrayed(lowered, len(rules.cards))), tables)


def arrayed(function: ast.FunctionDef, capacity: int) -> ast.FunctionDef:
    """The lowered function with its lists of one item per seat and its lists of cards
    (of up to `capacity`) as arrays where the passes of `card_arrays.py` can take them."""
    seat_arrays(function)
    try:
        return stacked(function, capacity)
    except StackError:  # the function keeps its lists of cards, the deal's among them
        return listed_deck(function)


def listed_deck(function: ast.FunctionDef) -> ast.FunctionDef:
    """The function with its `deck` (an array, as the chunk loops deal it) made a list
    first, for a hand that cuts lists from it."""
    if any(arg.arg == "deck" for arg in function.args.args):
        function.body.insert(0, ast.parse("deck = [c for c in deck]").body[0])
    return function


OWN = "numba.njit()"
INLINE = "numba.njit(inline='always')"
DECORATORS = (OWN, INLINE)
"""The decorators a kernel's function may carry: compiled on its own; inlined into each
caller by numba (so no reference count is kept on the arrays it is passed). None asks
numba to cache: the kernel cache gives each function its own (`store.py`)."""


def jitted(function: ast.FunctionDef, inlined: bool = False) -> ast.FunctionDef:
    decorator = ast.parse(INLINE if inlined else OWN, mode="eval").body
    function.decorator_list = [decorator]
    return function


def template(fn: Any, renames: dict[str, str]) -> ast.FunctionDef:
    """A function of `chunk.py`, with its names (its own too) renamed by `renames` and
    FIELD_COUNT filled in."""
    (node,) = ast.parse(inspect.getsource(fn)).body
    assert isinstance(node, ast.FunctionDef)
    node.returns = None
    node.name = renames.get(node.name, node.name)
    for arg in node.args.args:
        arg.annotation = None
    node.body = [s for s in node.body if not isinstance(s, ast.Expr)]

    class Fill(ast.NodeTransformer):
        def visit_Name(self, found: ast.Name) -> ast.expr:
            if found.id == "FIELD_COUNT":
                return ast.Constant(len(driver.FIELDS))
            return ast.Name(renames.get(found.id, found.id), found.ctx)

    return jitted(Fill().visit(node))


def dispatcher(name: str, hands: list[str]) -> ast.FunctionDef:
    """`name(seat, ...)`: the hand function `hands[seat]`, or the only one."""
    args = ", ".join(HAND_ARGS)
    lines = [f"def {name}(seat, {args}):"]
    if len(hands) == 1:
        lines.append(f"    {hands[0]}({args})")
    for seat, hand in enumerate(hands if len(hands) > 1 else []):
        word = "if" if seat == 0 else "elif"
        lines.append(f"    {word} seat == {seat}:")
        lines.append(f"        {hand}({args})")
    (node,) = ast.parse("\n".join(lines)).body
    assert isinstance(node, ast.FunctionDef)
    return jitted(node)


def module_tree(rules: Rules, players: int, bots: tuple[str, ...]) -> ast.Module:
    """The kernel's module: the hands, then the loops over a chunk of deals."""
    hands = [
        hand_function(rules, players, bots, "hand"),
        hand_function(rules, players, bots, "counted", details=False),
        hand_function(rules, players, bots, "play_on", driver.play_on),
    ]
    for seat in range(players):
        seats = tuple("heuristic" if s == seat else "random" for s in range(players))
        hands.append(hand_function(rules, players, seats, f"skill_{seat}", details=False))
    loops = [
        dispatcher("any_hand", ["hand"]),
        dispatcher("any_counted", ["counted"]),
        dispatcher("skill", [f"skill_{seat}" for seat in range(players)]),
        template(chunk.play_deals, {"seated": "any_hand"}),
        template(chunk.play_deals, {"play_deals": "count_deals", "seated": "any_counted"}),
        template(chunk.play_deals, {"play_deals": "play_skill", "seated": "skill"}),
    ]
    return assembled(hands, loops)


def rests_tree(rules: Rules, players: int, bots: tuple[str, ...]) -> ast.Module:
    """A kernel's module for the search bots' playouts: `play_rest` and its loop only."""
    hand = hand_function(rules, players, bots, "play_rest", driver.play_rest)
    return assembled([hand], [template(driver.play_rests, {})])


def assembled(hands: list[Lowered], loops: list[ast.FunctionDef]) -> ast.Module:
    """A kernel's module of the lowered `hands` and the `loops` that call them, checked."""
    header = ast.parse(
        "import numba\nimport numpy as np\n"
        f"from rulesdsl.play.native.runtime import {', '.join(RUNTIME)}"
    ).body
    tables = {name: rows for hand in hands for name, rows in hand.tables.items()}
    constants = [
        ast.parse(f"{name} = np.array({rows!r}, np.int64)").body[0]
        for name, rows in sorted(tables.items())
    ]
    functions = [hand.function for hand in hands]
    module = ast.Module([*header, *constants, *functions, *loops], type_ignores=[])
    ast.fix_missing_locations(module)
    check_tree(module)
    return module


def check_tree(module: ast.Module) -> None:
    """Raise NativeError unless every decorator is one of DECORATORS, every other name is
    the module's own, a runtime helper, a builtin it may call or numpy, and every other
    constant a literal of ints and floats."""
    own = {n.name for n in module.body if isinstance(n, ast.FunctionDef)}
    for node in ast.walk(module):
        if isinstance(node, ast.FunctionDef):
            own |= {a.arg for a in node.args.args}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
    allowed = own | set(RUNTIME) | BUILTINS | MODULES
    decorators = {ast.dump(ast.parse(text, mode="eval").body) for text in DECORATORS}
    checked: set[int] = set()  # the nodes of the decorators, each one of DECORATORS
    for node in ast.walk(module):
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                if ast.dump(decorator) not in decorators:
                    raise NativeError(f"the kernel's {node.name} would have another decorator")
                checked |= {id(part) for part in ast.walk(decorator)}
    for node in ast.walk(module):
        if id(node) in checked:
            continue
        if isinstance(node, ast.Name) and node.id not in allowed:
            raise NativeError(f"the kernel would read an unknown name {node.id}")
        if isinstance(node, ast.Constant) and not (
            literal(node.value) or type(node.value) is float
        ):
            raise NativeError(f"the kernel would hold a constant {node.value!r}")


@cache
def kernel(rules: Rules, players: int, bots: tuple[str, ...]) -> Kernel:
    """The compiled kernel of `rules` at `players` with `bots` (NativeError if the profile
    has no native form)."""
    return compiled(module_tree(rules, players, bots), rules, players, bots)


@cache
def rests_kernel(rules: Rules, players: int, bots: tuple[str, ...]) -> Kernel:
    """The compiled kernel that holds `Kernel.play_rests` only (`rests_tree`)."""
    return compiled(rests_tree(rules, players, bots), rules, players, bots)


def compiled(tree: ast.Module, rules: Rules, players: int, bots: tuple[str, ...]) -> Kernel:
    """The kernel of the module `tree`, made once in this process and cached."""
    name, text = named_text(tree)
    module = loaded(text, name, cache_dir())
    return Kernel(module, table_for(rules, players, bots).plan, players)


def named_text(tree: ast.Module) -> tuple[str, str]:
    """The kernel module's name (a digest of its text and the engine's version) and text."""
    body = ast.unparse(tree) + "\n"
    digest = hashlib.blake2b(f"{engine_version()}\0{body}".encode(), digest_size=10)
    text = f'"""A native kernel of rulesdsl, generated: do not edit."""\n\n{body}'
    return f"rulesdsl_kernel_{digest.hexdigest()}", text


@cache
def ready(rules: Rules, players: int, bots: tuple[str, ...], skill: bool) -> Kernel:
    """The kernel, compiled (or read from the cache) for the chunk loops simulate calls:
    NativeError, for the pure-Python path, if numba cannot compile it."""
    from numba.core.errors import NumbaError

    compiled = kernel(rules, players, bots)
    cards = np.array(int_deck(rules), np.int64)
    try:
        one = chunks([0], [0], [0], [1])
        compiled.chunks(cards, one)
        if skill:
            compiled.chunks(cards, one, skill=True)
    except NumbaError as error:
        raise NativeError(f"numba cannot compile the kernel: {error}") from None
    return compiled
