"""YAML syntax errors in plain words: where the real culprit is, what is wrong, how to mend it.

PyYAML and libyaml word their errors differently and point at the place where reading
stopped, which is often a line after the mistake. Each kind of error is recognised by the
words both of them use, and pointed at its cause: the opening quote of an unclosed string,
the key that lacks its colon, the tab, the start of a second document.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import yaml

from rulesdsl.model.text import Pos

ESCAPE_BEYOND_UNICODE = (
    "this escape writes no character",
    "\\x takes 2 hex digits, \\u 4 and \\U 8, up to 0010FFFF",
)
INDENT_HINT = (
    "line up each key with the keys above it; an option's value, assumed and note go 2 spaces in"
)


@dataclass(frozen=True)
class Described:
    """A YAML syntax error in plain words."""

    pos: Pos
    message: str
    hint: str


class _Error:
    """The parts of one YAML error, with the text it was found in."""

    def __init__(self, error: yaml.MarkedYAMLError, text: str, loader: type) -> None:
        self.text = text
        self.loader = loader
        self.context = error.context or ""
        self.problem = error.problem or ""
        start = yaml.Mark("", 0, 0, 0, None, None)
        self.problem_mark = error.problem_mark or error.context_mark or start
        self.context_mark = error.context_mark or self.problem_mark
        self.words = f"{self.context} {self.problem}"

    def pos(self, mark: yaml.Mark) -> Pos:
        return Pos(mark.line + 1, mark.column + 1)

    def line(self, mark: yaml.Mark) -> str:
        lines = self.text.splitlines()
        return lines[mark.line] if mark.line < len(lines) else ""

    def char(self, mark: yaml.Mark) -> str:
        line = self.line(mark)
        return line[mark.column] if mark.column < len(line) else ""


def _tab(e: _Error) -> Described:
    mark = e.problem_mark
    line = e.line(mark)
    column = line.find("\t") if "\t" in line else mark.column
    pos = Pos(mark.line + 1, column + 1)
    if line[:column].strip():
        return Described(pos, "a tab in this line", "YAML does not allow tabs here; use spaces")
    return Described(
        pos, "a tab indents this line", "YAML does not allow tabs for indentation; use spaces"
    )


def _bad_start(e: _Error) -> Described:
    if e.char(e.problem_mark) == "\t":
        return _tab(e)
    char = e.char(e.problem_mark)
    return Described(
        e.pos(e.problem_mark),
        f"`{char}` cannot start a value in YAML",
        "put the value in quotes",
    )


def _no_colon(e: _Error) -> Described:
    mark = e.context_mark
    word = e.line(mark)[mark.column :].split(" ")[0]
    return Described(
        e.pos(mark),
        f"`{word}` has no `:` after it",
        "write one `key: value` per line, e.g. `trump: none`",
    )


def _last_scalar(e: _Error) -> yaml.Token | None:
    """The last scalar read before the error: what a stray `:` ends."""
    last = None
    try:
        for token in yaml.scan(e.text, Loader=e.loader):
            if isinstance(token, yaml.ScalarToken):
                last = token
    except yaml.YAMLError:
        pass
    return last


def _stray_colon(e: _Error) -> Described:
    mark = e.problem_mark
    scalar = _last_scalar(e)
    start = scalar.start_mark if scalar is not None else mark
    if start.line == mark.line:
        key, _, rest = e.line(mark).partition(":")
        quoted = json.dumps(rest.strip(), ensure_ascii=False)
        return Described(
            e.pos(mark),
            "a `: ` inside a value",
            f"put the whole value in quotes: {key.strip()}: {quoted}",
        )
    line = e.line(start)
    if not line[: start.column].strip():
        return Described(
            e.pos(start),
            "this line has no `:`, so YAML reads the lines after it as its continuation",
            "write one `key: value` per line, e.g. `trump: none`",
        )
    here = e.line(mark)
    indent = len(here) - len(here.lstrip(" "))
    return Described(
        Pos(mark.line + 1, indent + 1),
        "this line is indented further than the key above it",
        INDENT_HINT,
    )


def _unclosed(e: _Error) -> Described:
    quote = e.char(e.context_mark) or '"'
    return Described(
        e.pos(e.context_mark),
        "this quoted text is not closed",
        f"end it with {quote}",
    )


def _escape(e: _Error) -> Described:
    mark = e.problem_mark
    line = e.line(mark)
    column = line.rfind("\\", 0, mark.column + 1)
    column = column if column >= 0 else mark.column
    pos = Pos(mark.line + 1, column + 1)
    escape = line[column : column + 2]
    if escape[1:2] in ("x", "u", "U"):
        return Described(pos, *ESCAPE_BEYOND_UNICODE)
    return Described(
        pos,
        f"`{escape}` is not an escape YAML knows",
        "write \\\\ for a backslash, or put the text in single quotes",
    )


def _indent(e: _Error) -> Described:
    mark = e.problem_mark
    before = e.line(mark)[: mark.column].rstrip()
    if before.endswith(("'", '"')) and ":" in before:
        return Described(
            e.pos(mark),
            "text after the closing quote",
            "a quote inside '...' is written '', inside \"...\" as \\\"; or quote the whole value",
        )
    if e.char(mark) == "-":
        return Described(
            e.pos(mark),
            "a list item (`- `) where a key belongs",
            "write one `key: value` per line; a list of ranks goes in brackets: [A, K, Q]",
        )
    return Described(e.pos(mark), "this line does not line up with the keys above it", INDENT_HINT)


def _flow(e: _Error) -> Described:
    bracket = e.char(e.context_mark) or "["
    closer = {"[": "]", "{": "}"}.get(bracket, "]")
    return Described(
        e.pos(e.context_mark),
        f"this `{bracket}` is not closed",
        f"end it with `{closer}` and separate its items with `,`",
    )


def _block_header(e: _Error) -> Described:
    return Described(
        e.pos(e.context_mark),
        "a `|` or `>` block takes nothing after it on its line but `-`, `+` or a comment",
        "start the text on the next line, indented",
    )


def _second_document(e: _Error) -> Described:
    return Described(
        e.pos(e.problem_mark),
        "a second YAML document starts here; a file holds one profile",
        "move what follows to a file of its own, and delete this `---`",
    )


def _after_end(e: _Error) -> Described:
    return Described(
        e.pos(e.problem_mark),
        "the file goes on after its YAML document has ended",
        "a profile is one mapping of `key: value` lines: delete the `...` line, or what "
        "follows the first value",
    )


def _marker(e: _Error) -> Described:
    char = e.char(e.context_mark) or e.char(e.problem_mark)
    return Described(
        e.pos(e.context_mark),
        f"`{char}` starts YAML markup a profile does not use",
        "put the value in quotes",
    )


def _other(e: _Error) -> Described:
    return Described(
        e.pos(e.problem_mark),
        "YAML cannot read this",
        "check the quotes, the colons and the indentation of this line and the one above",
    )


# Each kind of error by words that PyYAML's and libyaml's messages for it share; the first
# kind whose words all occur in the error's context and problem is taken.
KINDS: list[tuple[tuple[str, ...], Callable[[_Error], Described]]] = [
    (("tab",), _tab),
    (("cannot start any token",), _bad_start),
    (("simple key", "expected ':'"), _no_colon),
    (("mapping values are not allowed",), _stray_colon),
    (("quoted scalar", "escape"), _escape),
    (("quoted scalar", "hex"), _escape),
    (("quoted scalar",), _unclosed),
    (("flow",), _flow),
    (("block scalar",), _block_header),
    (("another document",), _second_document),
    (("document start",), _after_end),
    (("block",), _indent),
    (("sequence entries are not allowed",), _indent),
    (("anchor",), _marker),
    (("alias",), _marker),
    (("tag",), _marker),
    (("directive",), _marker),
]


def describe(error: yaml.MarkedYAMLError, text: str, loader: type) -> Described:
    """`error`, met reading `text` with `loader`, in plain words at its real culprit."""
    e = _Error(error, text, loader)
    for words, kind in KINDS:
        if all(w in e.words for w in words):
            return kind(e)
    return _other(e)
