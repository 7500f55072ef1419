"""A rule's expression in words, for `explain` when the profile gives no sentence.

The words come from the phrase table of a language (`house.words` in phrases/<lang>.yaml):
a phrase for every name and attribute of the vocabulary, every operator and aggregate,
each with `{a}`, `{b}`, `{x}`, `{v}`, `{set}` where its parts go. Bound variables keep
their letter. A clause that does not read (it cannot happen for a checked rule) is shown
as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lark import Token, Tree, UnexpectedInput

from rulesdsl.house.checker import parser


class Words:
    def __init__(self, table: Mapping[str, Any]) -> None:
        self.table = table

    def phrase(self, group: str, key: str, **parts: str) -> str:
        template = self.table.get(group, {}).get(key)
        if template is None:
            return key if not parts else " ".join([key, *parts.values()])
        return template.format_map(parts)

    def say(self, item: Tree | Token) -> str:
        if isinstance(item, Token):
            return str(item)
        method = getattr(self, "_" + item.data, None)
        if method is None:
            return " ".join(self.say(c) for c in item.children)
        return method(item)

    def _number(self, tree: Tree) -> str:
        return str(tree.children[0])

    def _path(self, tree: Tree) -> str:
        parts = [str(p) for p in tree.children]
        names = self.table.get("names", {})
        used = 2 if ".".join(parts[:2]) in names and len(parts) > 1 else 1
        head = ".".join(parts[:used])
        said = names.get(head, head)
        for attribute in parts[used:]:
            said = self.phrase("attributes", attribute, x=said)
        return said

    def _not_(self, tree: Tree) -> str:
        return self.phrase("ops", "not", a=self.say(tree.children[1]))

    def _minus(self, tree: Tree) -> str:
        return "-" + self.say(tree.children[1])

    def _and_(self, tree: Tree) -> str:
        return self.phrase("ops", "and", a=self.say(tree.children[0]), b=self.say(tree.children[2]))

    def _or_(self, tree: Tree) -> str:
        return self.phrase("ops", "or", a=self.say(tree.children[0]), b=self.say(tree.children[2]))

    def _arith(self, tree: Tree) -> str:
        left, op, right = tree.children
        return self.phrase("ops", str(op), a=self.say(left), b=self.say(right))

    def _comparison(self, tree: Tree) -> str:
        left, op, right = tree.children
        return self.phrase("ops", str(op), a=self.say(left), b=self.say(right))

    def _ternary(self, tree: Tree) -> str:
        then, _, condition, _, otherwise = tree.children
        parts = {"a": self.say(then), "c": self.say(condition), "b": self.say(otherwise)}
        return self.phrase("ops", "if", **parts)

    def _call(self, tree: Tree) -> str:
        fn, *args = tree.children
        return self.phrase("ops", str(fn), a=", ".join(self.say(a) for a in args))

    def _aggregate(self, tree: Tree) -> str:
        fn, var, _, over, body = tree.children
        parts = {"v": str(var), "set": self.say(over), "x": self.say(body)}
        return self.phrase("aggregates", str(fn), **parts)


def in_words(text: str, table: Mapping[str, Any]) -> str:
    """The expression `text` in the words of `table`; the text itself if it does not read."""
    try:
        tree = parser().parse(text, start="expr")
    except UnexpectedInput:
        return text
    return Words(table).say(tree)
