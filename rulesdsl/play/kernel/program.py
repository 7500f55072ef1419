"""A stated rule's checked tree (`rulesdsl.model.language.tree`) as a program of ints, which
the kernel's interpreter (`machine.run_program`) runs on the kernel's state: a profile's own rules
are numbers in its plan, like its options, and one compiled kernel plays them all.

A program is a run of instructions of `machine.WIDTH` ints, an operation and its operands,
for a stack machine: each part of the tree pushes its value, an operation replaces the
values it takes by its result, and the program's value is the one left at RETURN.

    PUSH n        push the number n
    LEAF k        push the value of name k (`meanings.leaf_names()`)
    VAR v         push bound variable v (0 is `card`)
    SLOT k        push the value of aggregate k
    ATTR k        replace the top value by its attribute k (`meanings.ATTRIBUTES_MEANT`)
    OPERATE k n   replace the top n values by operation k of them (`meanings.OPERATIONS`)
    JUMP t        go on at instruction t
    UNLESS t      pop the top; go on at t where it was 0 (false)
    SET k         push set k (a mask, `meanings.SETS`)
    CARDS_WITH k  push the cards for which yes-or-no attribute k of a card holds (a mask,
                  `meanings.CARDS_WHERE`)
    BEGIN k f     aggregate k starts, making f (`machine.FOLDS`) of the set the top value is
                  (SET's, or an attribute's: `p.won`), which it pops
    NEXT k v t    bind v to aggregate k's next member; with none left, go on at t (an
                  aggregate with a filter: the filter's value, UNLESS back to its NEXT,
                  then the body, so a member the filter is false for is skipped)
    STEP k v t    pop the body's value for v's member into aggregate k, and go on at t
    RETURN        the top value is the program's

and fused ones, each doing the work of a run of the above that rules often hold:

    VAR_ATTR v k      push attribute k of bound variable v (VAR v, ATTR k)
    LEAF_ATTR l k     push attribute k of name l (LEAF l, ATTR k)
    ELSE_NONE         pop the top; where it was 0 (false), the program's value is 0: a part of
                      a refuse or out rule's condition that reads no member
    OPERATE_WITH k n  replace the top value by operation k of it and the number n
                      (PUSH n, OPERATE k 2)
    KEPT m            push the allowed cards but those of the mask m: a refuse rule whose
                      condition on the card reads nothing else, worked out for every card
                      as the program is made
    COUNT_IN m        replace the top value, a set of cards, by how many of the mask m's
                      cards it holds: `count` of a set of cards (`any` and `all` read the set
                      itself), its body worked out for every card as the program is made

A condition on a card made of its yes-or-no attributes, of comparisons of it or its suit or
rank with a value that does not read it, and of `not`, `and` and `or`, is worked out for
every card at once, as a mask (`card_set`), by the operations on sets of cards of
`meanings.ON_SETS`: a refusal's cards kept, and `any`, `all` and `count` of a set of cards,
without a loop. A run of instructions that reads nothing is worked out as the program is
made, by the interpreter itself (`folded`), so a condition on the card alone is one mask.

Words are numbered by their place in `meanings`' tables, which are the vocabulary's; a rank
or a card a rule names (`queen`, `QS`) is a number, its strength (or card) under the
profile's deck order. An aggregate keeps its value in its slot; as in the generated Python
(`codegen`), it is worked out in the innermost loop whose variable it reads, before the
loop it does not read begins, so its work stays within the bounds the checker proves
(`model.language.bounds`).

What each stated rule's program gives:

    refuse   the cards of `allowed` its condition does not refuse (aggregate `keep`)
    lead     its seat, or -1 for none; also_draws likewise
    out      the players still in whom its condition puts out, as a mask of seats
    draw     max(0, its count); score likewise
    end      its winner where its condition holds, else NO_END

A program holds at most STACK values, AGGREGATES aggregates and BOUND variables
(`machine`); a profile's programs together at most PROGRAM instructions. A rule beyond
them is a ProgramError.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import reduce
from types import SimpleNamespace
from typing import NamedTuple

from rulesdsl.model.language import tree as ir
from rulesdsl.model.language.rule import MAX_CODE, SEAT_KINDS, HouseRule, RuleKind
from rulesdsl.model.language.vocab import ATTRIBUTES, CARD_SETS, NAMES, Aggregate, Type
from rulesdsl.model.language.vocab import SETS as NAMED_SETS
from rulesdsl.model.state import NO_END
from rulesdsl.play.engine.masks import ALL_CARDS
from rulesdsl.play.kernel import machine as vm
from rulesdsl.play.kernel.meanings import (
    ATTRIBUTE_CODES,
    CARDS_WHERE,
    LEAF_CODES,
    ON_SETS,
    OPERATED,
    OPERATIONS,
    SET_CODES,
    SHORT,
    leaf_meaning,
    leaf_names,
)
from rulesdsl.play.kernel.state import State

PROGRAM = MAX_CODE
"""The most instructions a profile's programs hold in all: as many as the characters of
Python its rules may compile to (`MAX_CODE`), each instruction's part of that text being
one character at least."""

CARDS_OF = {ATTRIBUTES[Type.CARD, name].code: k for k, name in enumerate(CARDS_WHERE)}
"""The number of each yes-or-no attribute of a card whose cards a program reads as a mask
(CARDS_WITH), by its vocabulary code."""
ON_SET = {word: OPERATIONS.index((n, word)) for n, words in ON_SETS.items() for word in words}
BOTH = {"and": ON_SET["&"], "or": ON_SET["|"]}
TERMS = {ATTRIBUTES[Type.CARD, name].code: name for name in ("suit", "rank")}
TERMS[ATTRIBUTES[Type.CARD, "strength"].code] = "rank"
"""The attributes of a card whose cards a value picks (`meanings.CARDS_EQUAL`), by
code: a strength is a rank."""
TURNED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
"""Each comparison with its sides the other way round: `5 > card.rank` is `card.rank < 5`."""
PURE = frozenset(k for k, meaning in enumerate(OPERATED) if "s." not in meaning)
"""The operations that read nothing but their values: a run of them on numbers a program
holds is worked out as it is made (`folded`)."""

COUNTED = {Aggregate.ANY: "!=", Aggregate.ALL: "==", Aggregate.COUNT: ""}
"""The aggregates a count of cards against a mask gives (`Compiler.counted`), each with the
comparison of the count with 0 that gives it."""
ALLOWED = SET_CODES[CARD_SETS[NAMES["allowed"].code]]


class ProgramError(Exception):
    """A rule whose program is beyond the bounds of the kernel's interpreter."""


class Label:
    """A place in a program, known once the program is laid out."""

    at = -1


Item = tuple[int | Label, ...] | Label | list  # an instruction, a place, or a run of items


class Loop(NamedTuple):
    """An aggregate's loop as its body is compiled: the variable it binds, the run of its
    body, and the run before it begins (where aggregates that do not read it go)."""

    binds: frozenset[int]
    body: list[Item]
    before: list[Item]


class Compiler:
    """One rule's code, as runs of items within runs, laid out by `program`."""

    def __init__(self, strength: Mapping[int, int]) -> None:
        self.strength = strength  # each rank's, under the profile's deck order
        self.slots = 0
        self.root: list[Item] = []

    def constant(self, node: ir.Node) -> int | None:
        """The value of a number, of a name that means one, or of a rank or card named
        (under the profile's deck order); None for another node."""
        if isinstance(node, ir.Number):
            return node.value
        if isinstance(node, ir.Named):
            strength = self.strength[node.rank]
            return strength if node.suit < 0 else strength * 4 + node.suit
        if isinstance(node, ir.Leaf):
            meaning = leaf_meaning(leaf_names()[LEAF_CODES[node.code]])
            if meaning.lstrip("-").isdigit():
                return int(meaning)
        return None

    def value(self, node: ir.Node, loops: list[Loop]) -> None:
        """Code that pushes `node`'s value, at the end of the innermost loop's body."""
        out = loops[-1].body
        number = self.constant(node)
        if number is not None:
            out.append((vm.PUSH, number))
        elif isinstance(node, ir.Leaf):
            out.append((vm.LEAF, LEAF_CODES[node.code]))
        elif isinstance(node, ir.Var):
            out.append((vm.VAR, node.index))
        elif isinstance(node, ir.Attr):
            self.attribute(node, loops)
        elif isinstance(node, ir.Unary):
            self.value(node.operand, loops)
            out.append((vm.OPERATE, OPERATIONS.index((1, node.op)), 1))
        elif isinstance(node, ir.Binary) and node.op in SHORT:  # of 0 or 1, as a choice
            decided = ir.Number(Type.BOOL, node.pos, int(node.op == "or"))
            sides = (decided, node.right) if node.op == "or" else (node.right, decided)
            self.choice(node.left, *sides, loops)
        elif isinstance(node, ir.Binary):
            self.value(node.left, loops)
            self.operand(OPERATIONS.index((2, node.op)), node.right, loops)
        elif isinstance(node, ir.Ternary):
            self.choice(node.condition, node.then, node.otherwise, loops)
        elif isinstance(node, ir.Call):
            self.value(node.args[0], loops)
            for arg in node.args[1:]:
                self.operand(OPERATIONS.index((2, node.fn)), arg, loops)
        else:
            assert isinstance(node, ir.Over)
            if not self.counted(node, loops):
                fold = vm.FOLDS.index(node.kind)
                self.fold(fold, node.var, members(node), node.body, node.free, loops, node.where)

    def attribute(self, node: ir.Attr, loops: list[Loop]) -> None:
        """Code that pushes an attribute's value: of a variable or a name, in one
        instruction."""
        out = loops[-1].body
        code = ATTRIBUTE_CODES[node.code]
        if isinstance(node.base, ir.Var):
            out.append((vm.VAR_ATTR, node.base.index, code))
        elif isinstance(node.base, ir.Leaf) and self.constant(node.base) is None:
            out.append((vm.LEAF_ATTR, LEAF_CODES[node.base.code], code))
        else:
            self.value(node.base, loops)
            out.append((vm.ATTR, code))

    def operand(self, operation: int, right: ir.Node, loops: list[Loop]) -> None:
        """Code that replaces the top value by `operation` of it and `right`'s value (a
        number in the instruction, where `right` is one)."""
        number = self.constant(right)
        if number is None:
            self.value(right, loops)
            loops[-1].body.append((vm.OPERATE, operation, 2))
        else:
            loops[-1].body.append((vm.OPERATE_WITH, operation, number))

    def choice(self, condition: ir.Node, then: ir.Node, orelse: ir.Node, loops: list[Loop]) -> None:
        out = loops[-1].body
        other, end = Label(), Label()
        self.value(condition, loops)
        out.append((vm.UNLESS, other))
        self.value(then, loops)
        out += [(vm.JUMP, end), other]
        self.value(orelse, loops)
        out.append(end)

    def fold(
        self,
        fold: int,
        var: int,
        members: int | ir.Node,
        body: ir.Node,
        free: frozenset[int],
        loops: list[Loop],
        where: ir.Node | None = None,
    ) -> None:
        """Code for an aggregate of the set `members` (its number, or the node whose value
        it is), where it is worked out (see the module's docstring), and its SLOT. With a
        filter (`where`), its body is skipped for a member the filter is false for: the
        filter's value, then UNLESS back to the NEXT, whose stack is as it left it."""
        level = max((i for i, loop in enumerate(loops) if loop.binds & free), default=0)
        out = loops[level].body if level == len(loops) - 1 else loops[level + 1].before
        slot = self.slots
        self.slots += 1
        inner = Loop(frozenset({var}), [], [])  # the aggregate's own
        start, end = Label(), Label()
        within = [*loops[: level + 1], inner]
        for part in conjuncts(where) if where is not None else []:
            self.value(part, within)
            inner.body.append((vm.UNLESS, start))
        self.value(body, within)
        # the set, pushed in `out` (as a loop's body that binds nothing, any aggregate in
        # its value goes to `out` first)
        self.set_value(members, [*loops[: level + 1], Loop(frozenset(), out, out)])
        out += [inner.before, (vm.BEGIN, slot, fold)]
        out += [start, (vm.NEXT, slot, var, end), inner.body, (vm.STEP, slot, var, start), end]
        loops[-1].body.append((vm.SLOT, slot))

    def set_value(self, members: int | ir.Node, loops: list[Loop]) -> None:
        """Code that pushes a set of `members` (an aggregate's): its number, or the node
        whose value it is (`p.won`, a mask)."""
        if isinstance(members, int):
            loops[-1].body.append((vm.SET, members))
        else:
            self.value(members, loops)

    def guarded(self, condition: ir.Node, loops: list[Loop]) -> list[ir.Node]:
        """A refuse or out rule's code: the parts of its condition (`and`ed) that do not
        read its variable (`card`, `player`) are worked out once, before the members, and
        where one is false the rule gives 0 (no card refused, no player out); the parts
        that read it, whose code the caller lays out where all hold."""
        parts = conjuncts(condition)
        for part in parts:
            if ir.CARD_VAR not in part.free:
                self.value(part, loops)
                self.root.append((vm.ELSE_NONE,))
        return [part for part in parts if ir.CARD_VAR in part.free]

    def refused(self, per_card: list[ir.Node], loops: list[Loop]) -> None:
        """The cards the parts of a refusal that read `card` keep; 0 where there are none
        (every card refused: the rule does not apply)."""
        if not per_card:
            self.root.append((vm.PUSH, 0))
            return
        body = reduce(both, per_card)
        if self.card_set(body, ir.CARD_VAR, None):
            self.root.append((vm.SET, ALLOWED))
            self.card_set(body, ir.CARD_VAR, loops)
            if self.root[-1][0] == vm.PUSH:  # known as the program is made
                self.root[-2:] = [(vm.KEPT, self.root[-1][1])]
            else:
                self.root.append((vm.OPERATE, ON_SET["&~"], 2))
        else:
            self.fold(vm.KEEP, ir.CARD_VAR, ALLOWED, body, frozenset(), loops)

    def put_out(self, per_player: list[ir.Node], condition: ir.Node, loops: list[Loop]) -> None:
        """The players still in for whom the parts of an out rule's condition that read
        `player` hold (all of them, where there are none), as the players their negation
        does not keep."""
        stays = negation(reduce(both, per_player) if per_player else condition)
        self.fold(vm.KEEP, ir.CARD_VAR, SET_CODES[NAMED_SETS["active"]], stays, frozenset(), loops)

    def counted(self, node: ir.Over, loops: list[Loop]) -> bool:
        """Code for `any`, `all` or `count` of a set of cards whose filter and body are a
        condition on the member that `card_set` works out (`count(c in p.won: c.rank ==
        ace)`): the set's value and the cards it counts (for `all`, those it fails on), a
        mask, both; a mask known as the program is made is counted against (COUNT_IN).
        False, with no code, for another aggregate."""
        if node.kind not in COUNTED or node.over not in CARD_SETS.values():
            return False
        body = negation(node.body) if node.kind == Aggregate.ALL else node.body
        condition = body if node.where is None else both(node.where, body)
        if not self.card_set(condition, node.var, None):
            return False
        out = loops[-1].body
        self.set_value(members(node), loops)
        self.card_set(condition, node.var, loops)
        if out[-1][0] == vm.PUSH:  # known as the program is made
            out[-1] = (vm.COUNT_IN, out[-1][1])
        else:
            out.append((vm.OPERATE, ON_SET["&"], 2))
            if node.kind == Aggregate.COUNT:  # `any` and `all` read the set itself
                out.append((vm.COUNT_IN, ALL_CARDS))
        if COUNTED[node.kind]:
            out.append((vm.OPERATE_WITH, OPERATIONS.index((2, COUNTED[node.kind])), 0))
        return True

    def card_set(self, condition: ir.Node, var: int, loops: list[Loop] | None) -> bool:
        """Whether the cards for which `condition` on the card `var` holds can be worked out
        at once, as a mask: those a yes-or-no attribute holds for (CARDS_WITH), those that
        are a value or whose suit or rank is, or is above or below it, the value not read
        of the card (`card.suit == led`, `card.rank > ten`), and `not`, `and` and `or` of
        them. With `loops`, the code that pushes it too, a part that reads nothing as the
        program runs worked out as it is made (`folded`)."""
        out = loops[-1].body if loops else []
        start = len(out)
        compared = comparison(condition, var)
        if isinstance(condition, ir.Attr) and is_var(condition.base, var):
            if condition.code not in CARDS_OF:
                return False
            out.append((vm.CARDS_WITH, CARDS_OF[condition.code]))
        elif isinstance(condition, ir.Unary) and condition.op == "not":
            if not self.card_set(condition.operand, var, loops):
                return False
            out.append((vm.OPERATE, ON_SET["~"], 1))
        elif isinstance(condition, ir.Binary) and condition.op in BOTH:
            parts = (condition.left, condition.right)
            if not all(self.card_set(part, var, loops) for part in parts):
                return False
            out.append((vm.OPERATE, BOTH[condition.op], 2))
        elif compared is not None:  # `x <= v` is the cards but those above v, `x < v` v - 1
            term, op, value = compared
            if loops:
                self.value(value, loops)
            if op in (">=", "<"):
                out.append((vm.OPERATE_WITH, OPERATIONS.index((2, "-")), 1))
            picked = f"cards of {term}" if op in ("==", "!=") else "ranks above"
            out.append((vm.OPERATE, ON_SET[picked], 1))
            if op in ("!=", "<", "<="):
                out.append((vm.OPERATE, ON_SET["~"], 1))
        else:
            return False
        if loops:
            out[start:] = folded(out[start:])
        return True

    def rule(self, rule: HouseRule) -> None:
        """The code of a stated rule's program (see the module's docstring)."""
        tree = rule.tree
        if tree is None or (rule.kind == RuleKind.END and rule.winner is None):
            raise ProgramError("its checked tree is not kept")
        loops = [Loop(frozenset(), self.root, [])]
        if rule.kind == RuleKind.REFUSE:
            self.refused(self.guarded(tree, loops), loops)
        elif rule.kind == RuleKind.OUT:
            self.put_out(self.guarded(tree, loops), tree, loops)
        elif rule.kind == RuleKind.END:
            assert rule.winner is not None
            self.choice(tree, rule.winner, ir.Number(Type.INT, tree.pos, NO_END), loops)
        else:
            self.value(tree, loops)
            if rule.kind not in SEAT_KINDS:  # draw and score: max(0, its count)
                self.root.append((vm.OPERATE_WITH, OPERATIONS.index((2, "max")), 0))
        self.root.append((vm.RETURN,))


def comparison(condition: ir.Node, var: int) -> tuple[str, str, ir.Node] | None:
    """Of a comparison of the card `var` or its suit or rank with a value that does not read
    it (`card.rank > ten`, `led == card.suit`): what of the card it compares (`card` or one
    of TERMS), the comparison with the card's side on the left, and the value; None for
    another condition, or one that orders what is not a rank."""
    if not (isinstance(condition, ir.Binary) and condition.op in TURNED):
        return None
    for side, value, op in (
        (condition.left, condition.right, condition.op),
        (condition.right, condition.left, TURNED[condition.op]),
    ):
        term = "card" if is_var(side, var) else None
        if isinstance(side, ir.Attr) and is_var(side.base, var):
            term = TERMS.get(side.code)
        if term is not None and var not in value.free and (term == "rank" or op in ("==", "!=")):
            return term, op, value
    return None


def members(node: ir.Over) -> int | ir.Node:
    """The set an aggregate ranges over: its number, or where it is an attribute (`p.won`)
    the node whose value it is, a mask."""
    if node.base is None:
        return SET_CODES[node.over]
    return ir.Attr(Type.CARDS, node.pos, node.base, node.over.iterate)


def is_var(node: ir.Node, var: int) -> bool:
    return isinstance(node, ir.Var) and node.index == var


def folded(run: list[Item]) -> list[Item]:
    """`run`, or where it is numbers and operations that read nothing else (PURE), the one
    PUSH of its value, worked out by the interpreter as the program is made."""
    operations = (vm.OPERATE, vm.OPERATE_WITH)
    pure = (i[0] == vm.PUSH or (i[0] in operations and i[1] in PURE) for i in run)
    if len(run) < 2 or not all(isinstance(i, tuple) for i in run) or not all(pure):
        return run
    plan = SimpleNamespace(program=[n for i in (*run, (vm.RETURN,)) for n in padded(i)])
    return [(vm.PUSH, vm.run_program(plan, 0, State(), 0, 0, -1))]


def padded(instruction: tuple[int, ...]) -> tuple[int, ...]:
    """An instruction's numbers, as many as `machine.WIDTH`."""
    return instruction + (0,) * (vm.WIDTH - len(instruction))


def conjuncts(node: ir.Node) -> list[ir.Node]:
    """The parts of `node` that `and` joins, left to right."""
    if isinstance(node, ir.Binary) and node.op == "and":
        return [*conjuncts(node.left), *conjuncts(node.right)]
    return [node]


def both(left: ir.Node, right: ir.Node) -> ir.Node:
    return ir.Binary(left.type, left.pos, "and", left, right, free=ir.uses(left, right))


def negation(node: ir.Node) -> ir.Node:
    return ir.Unary(Type.BOOL, node.pos, "not", node, free=node.free)


def _walk(items: list[Item]) -> Iterator[tuple[int | Label, ...] | Label]:
    for item in items:
        if isinstance(item, list):
            yield from _walk(item)
        else:
            yield item


def program(rule: HouseRule, start: int, strength: Mapping[int, int]) -> list[tuple[int, ...]]:
    """The instructions of `rule`'s program, laid out from instruction `start`, under a deck
    whose ranks have `strength` (`Rules.rank_strength`; it holds every rank the rule
    names)."""
    compiler = Compiler(strength)
    compiler.rule(rule)
    laid: list[tuple[int | Label, ...]] = []
    for item in _walk(compiler.root):
        if isinstance(item, Label):
            item.at = start + len(laid)
        else:
            laid.append(item)
    code = [padded(tuple(o.at if isinstance(o, Label) else o for o in item)) for item in laid]
    bound = max((i[2] for i in code if i[0] == vm.NEXT), default=0)
    if compiler.slots > vm.AGGREGATES or bound >= vm.BOUND:
        raise ProgramError(f"it holds more than {vm.AGGREGATES} aggregates or {vm.BOUND} variables")
    if max(heights(code, start).values()) > vm.STACK:
        raise ProgramError(f"it holds more than {vm.STACK} values at once")
    return code


PUSHES = frozenset(
    {vm.PUSH, vm.LEAF, vm.VAR, vm.SLOT, vm.VAR_ATTR, vm.LEAF_ATTR, vm.KEPT, vm.SET, vm.CARDS_WITH}
)
POPS = frozenset({vm.UNLESS, vm.BEGIN, vm.ELSE_NONE})
"""The instructions that push one value and pop none, and those that pop one and push none;
OPERATE replaces its values by one, STEP pops one, and ATTR, OPERATE_WITH, COUNT_IN, NEXT
and JUMP leave as many as they found."""


def heights(code: list[tuple[int, ...]], start: int) -> dict[int, int]:
    """The values the program holds at each instruction it reaches, from `start`."""
    heights = {start: 0}
    waiting = [start]
    while waiting:
        pc = waiting.pop()
        for there, h in after(code, pc, start, heights[pc]):
            assert heights.get(there, h) == h, "a program's ways meet at different heights"
            if there not in heights:
                heights[there] = h
                waiting.append(there)
    return heights


def after(code: list[tuple[int, ...]], pc: int, start: int, height: int) -> list[tuple[int, int]]:
    """Where the program laid out from `start` may go on after instruction `pc`, holding
    `height` values there, each with the values it then holds."""
    op, a, b, c = code[pc - start]
    if op == vm.STEP:  # on at its NEXT's body or end
        return [(c + 1, height - 1), (code[c - start][3], height - 1)]
    if op == vm.OPERATE:
        height += 1 - b
    height += (op in PUSHES) - (op in POPS)
    ways = {vm.RETURN: [], vm.JUMP: [a], vm.UNLESS: [a, pc + 1], vm.NEXT: [c, pc + 1]}
    return [(there, height) for there in ways.get(op, [pc + 1])]
