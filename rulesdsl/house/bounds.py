"""The largest value a count can take, read off its checked tree (None: no bound known).

The checker uses it for the fact RULES.md section 3 states of the draw option: a draw of
at least as many cards as the trick holds, with `exhaustion reshuffle`, need not end.
"""

from __future__ import annotations

from rulesdsl.house import ir

# The vocabulary's numbers with a bound: the players, and the cards in one trick.
MOST_PLAYERS = 6
KNOWN = {
    "s.players": MOST_PLAYERS,
    "len(s.trick)": MOST_PLAYERS,
    "len(s.trick_seats)": MOST_PLAYERS,
}


def upper(node: ir.Node) -> int | None:
    """An upper bound of an int expression; None when the tree gives none."""
    if isinstance(node, ir.Number):
        return node.value
    if isinstance(node, ir.Leaf):
        return KNOWN.get(node.code)
    if isinstance(node, ir.Ternary):
        return _most(upper(node.then), upper(node.otherwise))
    if isinstance(node, ir.Call):
        bounds = [upper(a) for a in node.args]
        if node.fn == "min":
            known = [b for b in bounds if b is not None]
            return min(known) if known else None
        return None if None in bounds else max(b for b in bounds if b is not None)
    if isinstance(node, ir.Binary) and node.op == "+":
        left, right = upper(node.left), upper(node.right)
        return None if left is None or right is None else left + right
    return None


def _most(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else max(a, b)
