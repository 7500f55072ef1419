"""Python source of a profile rule's step function, generated from its checked tree.

The functions follow the step-function conventions of the rule units: plain Python over
the int state (`s`), one `return` at the end, no closures (aggregates are explicit loops),
no globals. Each aggregate is evaluated in the outermost loop it depends on, so a
condition that does not depend on the card is computed once per call, not once per card.
Every name in the output is the generator's own (`v3`, `t1`) or comes from `vocab`; every
literal is an int of the checked tree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulesdsl.model.language import tree as ir
from rulesdsl.model.language.vocab import FUNCTIONS, RANK_CODE, Aggregate, Type

NO_END = -2
"""What an end check returns when the hand does not end (a seat wins, -1: nobody)."""

NO_WINNER = -1


@dataclass
class Block:
    """A compound statement: lines before it (`pre`), its header, and its body."""

    header: str
    binds: frozenset[int] = frozenset()
    pre: list[str | Block] = field(default_factory=list)
    body: list[str | Block] = field(default_factory=list)


def _render(items: list[str | Block], depth: int) -> list[str]:
    out = []
    pad = "    " * depth
    for item in items:
        if isinstance(item, str):
            out += [pad + line for line in item.split("\n")]
        else:
            out += _render(item.pre, depth)
            out.append(pad + item.header)
            out += _render(item.body or ["pass"], depth + 1)
    return out


class Gen:
    def __init__(self, header: str, subject: str = "card") -> None:
        self.root = Block(header)
        self.subject = subject  # the name of what the rule decides on (`ir.CARD_VAR`)
        self.stack = [self.root]
        self.temps = 0

    def temp(self) -> str:
        self.temps += 1
        return f"t{self.temps}"

    def emit(self, line: str, needs: frozenset[int] = frozenset()) -> None:
        """Add a line at the outermost open block that binds everything it `needs`."""
        level = max((i for i, b in enumerate(self.stack) if b.binds & needs), default=0)
        if level == len(self.stack) - 1:
            self.stack[-1].body.append(line)
        else:
            self.stack[level + 1].pre.append(line)

    def open(self, header: str, binds: frozenset[int], needs: frozenset[int]) -> Block:
        block = Block(header, binds)
        level = max((i for i, b in enumerate(self.stack) if b.binds & needs), default=0)
        if level == len(self.stack) - 1:
            self.stack[-1].body.append(block)
        else:
            self.stack[level + 1].pre.append(block)
        self.stack = [*self.stack[: level + 1], block]
        return block

    def close(self, saved: list[Block]) -> None:
        self.stack = saved

    def source(self) -> str:
        return "\n".join(_render([self.root], 0)) + "\n"

    # expressions

    def expr(self, node: ir.Node) -> str:
        method = getattr(self, "_" + type(node).__name__.lower())
        return method(node)

    def _leaf(self, node: ir.Leaf) -> str:
        return node.code

    def _number(self, node: ir.Number) -> str:
        return str(int(node.value))

    def _named(self, node: ir.Named) -> str:
        rank = RANK_CODE.format(node.rank)
        return rank if node.suit < 0 else f"({rank} * 4 + {node.suit})"

    def _var(self, node: ir.Var) -> str:
        return self.subject if node.index == ir.CARD_VAR else f"v{node.index}"

    def _attr(self, node: ir.Attr) -> str:
        return node.code.replace("{x}", self.expr(node.base))

    def _unary(self, node: ir.Unary) -> str:
        return (
            f"(not {self.expr(node.operand)})"
            if node.op == "not"
            else f"(-{self.expr(node.operand)})"
        )

    def _binary(self, node: ir.Binary) -> str:
        return f"({self.expr(node.left)} {node.op} {self.expr(node.right)})"

    def _ternary(self, node: ir.Ternary) -> str:
        condition = self.expr(node.condition)
        return f"({self.expr(node.then)} if {condition} else {self.expr(node.otherwise)})"

    def _call(self, node: ir.Call) -> str:
        if node.fn in FUNCTIONS:
            a, b = (self.expr(arg) for arg in node.args)
            return FUNCTIONS[node.fn].code.format(a=a, b=b)
        return f"{node.fn}({', '.join(self.expr(a) for a in node.args)})"

    def _over(self, node: ir.Over) -> str:
        result = self.temp()
        var = f"v{node.var}"
        start, step, end = _AGGREGATE_CODE[node.kind]
        keys = {"r": result, "v": var, "x": "{x}", "top": result + "top", "tie": result + "tie"}
        self.emit(start.format(**keys), node.free)
        saved = self.stack
        members = node.over.iterate
        if node.base is not None:
            members = members.replace("{x}", self.expr(node.base))
        self.open(f"for {var} in {members}:", frozenset({node.var}), node.free)
        if node.over.keep:
            self.emit(
                f"if not {node.over.keep.replace('{v}', var)}:\n    continue",
                node.free | {node.var},
            )
        if node.where is not None:  # a member the filter leaves out: on to the next
            where = self.expr(node.where)
            self.emit(f"if not {where}:\n    continue", node.free | {node.var})
        body = self.expr(node.body)
        self.emit(step.format(**keys).replace("{x}", body), node.free | {node.var})
        self.close(saved)
        if end:
            self.emit(end.format(**keys), node.free)
        return result


# Per aggregate: the line before the loop, the step inside it (`{x}` is the body), and a
# line after it. Empty sets: any false, all true, count/sum/max/min 0, most/least none.
_AGGREGATE_CODE: dict[Aggregate, tuple[str, str, str]] = {
    Aggregate.ANY: ("{r} = False", "if {x}:\n    {r} = True\n    break", ""),
    Aggregate.ALL: ("{r} = True", "if not {x}:\n    {r} = False\n    break", ""),
    Aggregate.COUNT: ("{r} = 0", "if {x}:\n    {r} += 1", ""),
    Aggregate.SUM: ("{r} = 0", "{r} += {x}", ""),
    Aggregate.MAX: (
        "{r} = 0\n{r}top = False",
        "if not {r}top or {x} > {r}:\n    {r} = {x}\n    {r}top = True",
        "",
    ),
    Aggregate.MIN: (
        "{r} = 0\n{r}top = False",
        "if not {r}top or {x} < {r}:\n    {r} = {x}\n    {r}top = True",
        "",
    ),
    Aggregate.MOST: (
        "{r} = -1\n{r}top = 0\n{r}tie = False",
        "if {r} < 0 or {x} > {r}top:\n    {r} = {v}\n    {r}top = {x}\n    {r}tie = False\n"
        "elif {x} == {r}top:\n    {r}tie = True",
        "{r} = -1 if {r}tie else {r}",
    ),
    Aggregate.LEAST: (
        "{r} = -1\n{r}top = 0\n{r}tie = False",
        "if {r} < 0 or {x} < {r}top:\n    {r} = {v}\n    {r}top = {x}\n    {r}tie = False\n"
        "elif {x} == {r}top:\n    {r}tie = True",
        "{r} = -1 if {r}tie else {r}",
    ),
}


def filter_source(function: str, refused: ir.Node) -> str:
    """`def f(s, seat, allowed) -> list[int]`: the allowed cards the condition keeps."""
    gen = Gen(f"def {function}(s: State, seat: int, allowed: list[int]) -> list[int]:")
    gen.emit("kept = []")
    saved = gen.stack
    gen.open("for card in allowed:", frozenset({ir.CARD_VAR}), frozenset())
    condition = gen.expr(refused)
    gen.emit(f"if not {condition}:\n    kept.append(card)", frozenset({ir.CARD_VAR}))
    gen.close(saved)
    gen.emit("return kept")
    return gen.source()


def seat_source(function: str, who: ir.Node) -> str:
    """`def f(s) -> int`: the seat, -1 for none."""
    gen = Gen(f"def {function}(s: State) -> int:")
    gen.emit(f"return {gen.expr(who)}")
    return gen.source()


def out_source(function: str, condition: ir.Node) -> str:
    """`def f(s) -> list[int]`: the players still in, in the order they played to the
    trick, for whom the condition holds."""
    gen = Gen(f"def {function}(s: State) -> list[int]:", "player")
    gen.emit("gone = []")
    saved = gen.stack
    gen.open("for player in s.trick_seats:", frozenset({ir.CARD_VAR}), frozenset())
    condition_code = gen.expr(condition)
    gen.emit(
        f"if s.active[player] and {condition_code}:\n    gone.append(player)",
        frozenset({ir.CARD_VAR}),
    )
    gen.close(saved)
    gen.emit("return gone")
    return gen.source()


def count_source(function: str, parameter: str, count: ir.Node) -> str:
    """`def f(s, <parameter>) -> int`: the count, never below 0."""
    gen = Gen(f"def {function}(s: State, {parameter}: int) -> int:")
    gen.emit(f"return max(0, {gen.expr(count)})")
    return gen.source()


def end_source(function: str, condition: ir.Node, winner: ir.Node) -> str:
    """`def f(s) -> int`: the winner's seat (-1 for nobody) when the hand ends, else NO_END."""
    gen = Gen(f"def {function}(s: State) -> int:")
    ends = gen.expr(condition)
    who = gen.expr(winner) if winner.type != Type.NONE else str(NO_WINNER)
    gen.emit(f"return {who} if {ends} else {NO_END}")
    return gen.source()
