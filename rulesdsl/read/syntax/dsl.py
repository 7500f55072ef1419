"""Read the profile language (grammar/profile.lark) into a Document, with every syntax error."""

from __future__ import annotations

import re
from contextvars import ContextVar
from functools import cache

from lark import Lark, Token, Tree, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from rulesdsl.model.language.rule import clause_said
from rulesdsl.model.text import Pos
from rulesdsl.model.units.base import METADATA
from rulesdsl.read import GRAMMAR_DIR
from rulesdsl.read.diagnostics import Located, line_index
from rulesdsl.read.syntax.chars import bidi_controls
from rulesdsl.read.syntax.document import Comment, Document, Entry, RuleBlock
from rulesdsl.read.syntax.sniff import first_line, looks_like_yaml

TOKEN_WORDS = {
    "NAME": "an option name",
    "RBRACE": "`}`",
    "LBRACE": "`{`",
    "STRING": 'a quoted "string"',
    "VALUE": "a value",
    "_NL": "the end of the line",
    "PROFILE": "`profile`",
    "EXTENDS": "`extends`",
    "ASSUMED": "`assumed`",
    "RULE": "`rule`",
    "$END": "the end of the file",
    "<END-OF-FILE>": "the end of the file",
}
# How Lark names the end of the input in what it expected.
END = {"$END", "<END-OF-FILE>"}
_COMMENT = re.compile(r"#[^\n]*")
MAX_SYNTAX_ERRORS = 200


_PASSED: ContextVar[list[Token]] = ContextVar("passed")
"""The line ends and comments the lexer passes over in the parse under way (one list per
parse, so that profiles are read at once in as many threads as ask)."""


def _seen(token: Token) -> Token:
    _PASSED.get().append(token)
    return token


@cache
def _parser() -> Lark:
    return Lark.open(
        str(GRAMMAR_DIR / "profile.lark"),
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
        lexer_callbacks={"_NL": _seen, "COMMENT": _seen},
    )


def _expected(names: set[str]) -> str:
    words = sorted({TOKEN_WORDS.get(n, n.lower()) for n in names})
    if len(words) > 1:
        return ", ".join(words[:-1]) + " or " + words[-1]
    return words[0] if words else "something else"


def _found(token: Token) -> str:
    if token.type == "$END":
        return "end of file"
    if token.type == "_NL":
        return "end of line"
    return f"`{token.value.strip()}`"


class _Reader:
    def __init__(self, path: str, text: str) -> None:
        self.text = text
        self.where = Located(path, text)
        self.doc = Document(path, "dsl", text)
        self.error_lines: set[int] = set()
        self.errors = 0

    def syntax_error(self, error: UnexpectedInput) -> bool:
        """Report the first error of each line; go on reading unless at the end, or unless
        there have been too many (a file of nothing but errors would take long to read)."""
        if self._whole_file(error):
            return False
        line, column = self._error_position(error)
        self.errors += 1
        if self.errors > MAX_SYNTAX_ERRORS:
            self.doc.diagnostics.append(
                self.where.at(
                    Pos(line, column),
                    "too-many-errors",
                    f"more than {MAX_SYNTAX_ERRORS} syntax errors: the rest is not read",
                    "mend the errors above, then validate again",
                )
            )
            return False
        if line not in self.error_lines:
            self.error_lines.add(line)
            message, hint = self._describe(error)
            self.doc.diagnostics.append(self.where.at(Pos(line, column), "syntax", message, hint))
        return not (isinstance(error, UnexpectedToken) and error.token.type == "$END")

    def _whole_file(self, error: UnexpectedInput) -> bool:
        """A file written in YAML, or text after the profile's end: one diagnostic says it,
        and reading stops."""
        if looks_like_yaml(self.text):
            number, line = first_line(self.text)
            indent = len(line) - len(line.lstrip())
            self._report(
                Pos(number, indent + 1, len(line.strip())),
                "wrong-syntax",
                "this looks like YAML, not the profile language",
                "name the file .yaml, or write `name value` lines",
            )
            return True
        if not isinstance(error, UnexpectedToken) or not set(error.expected) <= END:
            return False
        if error.token.type == "PROFILE":
            message = "a second profile starts here; a file holds one profile"
            hint = "move it to a file of its own"
        else:
            message = f"unexpected {_found(error.token)} after the end of the profile"
            hint = "the profile ends with its `}`: move this inside it, or delete it"
        self._report(_pos(error.token), "syntax", message, hint)
        return True

    def _report(self, pos: Pos, code: str, message: str, hint: str) -> None:
        self.doc.diagnostics.append(self.where.at(pos, code, message, hint))

    def _error_position(self, error: UnexpectedInput) -> tuple[int, int]:
        if isinstance(error, UnexpectedToken) and error.token.type == "$END":
            lines = self.text.rstrip().splitlines() or [""]
            return len(lines), len(lines[-1]) + 1
        return int(error.line or 1), int(error.column or 1)

    def _describe(self, error: UnexpectedInput) -> tuple[str, str]:
        if isinstance(error, UnexpectedCharacters):
            char = self.text[error.pos_in_stream] if error.pos_in_stream < len(self.text) else ""
            if char == '"':
                return "this string is not closed", 'end it with " on the same line'
            expected = _expected(set(error.allowed or ()))
            return f"unexpected `{char}`; expected {expected}", ""
        token = error.token
        expected = _expected(set(error.expected))
        hint = ""
        if token.type == "$END" and "RBRACE" in error.expected:
            hint = "close the profile with `}` on its own line"
        elif "LBRACE" in error.expected or "PROFILE" in error.expected:
            hint = 'a profile starts: profile "name" extends "parent" {'
        return f"unexpected {_found(token)}; expected {expected}", hint

    def read(self) -> Document:
        for pos, refused in bidi_controls(self.text):
            self._report(pos, refused.code, refused.message, refused.hint)
        passed: list[Token] = []
        token = _PASSED.set(passed)
        try:
            tree = _parser().parse(self.text, on_error=self.syntax_error)
        except UnexpectedInput:
            tree = None
        finally:
            _PASSED.reset(token)
        self._comments(passed)
        if tree is not None:
            self._profile(next(tree.find_data("profile")))
        return self.doc

    def _comments(self, tokens: list[Token]) -> None:
        """The comments in the tokens the lexer passed over, each once, in linear time."""
        index = line_index(self.text)
        seen: set[Comment] = set()
        for token in tokens:
            for match in _COMMENT.finditer(token.value):
                pos = index.pos(token.start_pos + match.start())
                before = index.line(pos.line)[: pos.column - 1]
                comment = Comment(pos.line, match.group().rstrip(), bool(before.strip()))
                if comment not in seen:
                    seen.add(comment)
                    self.doc.comments.append(comment)

    def _profile(self, tree: Tree) -> None:
        _, name, _, parent, *rest = tree.children
        self.doc.name, self.doc.name_pos = _label(name)
        if parent is not None:
            self.doc.extends, self.doc.extends_pos = _label(parent)
        first_line: dict[str, int] = {}
        for child in rest:
            if isinstance(child, Tree) and child.data == "rule":
                self.doc.rules.append(self._rule(child))
            if not (isinstance(child, Tree) and child.data == "statement"):
                continue
            entry = _statement(child)
            if entry.key in first_line:
                message = f"`{entry.key}` is set twice: here and on line {first_line[entry.key]}"
                self._report(entry.key_pos, "duplicate-key", message, "keep one of them")
                continue
            first_line[entry.key] = entry.key_pos.line
            if entry.key in METADATA:
                self._metadata(entry)
            self.doc.entries.append(entry)

    def _rule(self, tree: Tree) -> RuleBlock:
        """A rule block; a clause said twice (a sentence twice in one language) is reported
        and dropped, as an option set twice is: a YAML mapping could not hold it."""
        _, name, _, *body = tree.children
        entries: list[Entry] = []
        first_line: dict[tuple[str, str | None], int] = {}
        for child in body:
            if not (isinstance(child, Tree) and child.data == "statement"):
                continue
            entry = _statement(child)
            said = clause_said(entry.key, entry.value)
            if said in first_line:
                message = (
                    f"`{entry.key}` is said twice in this rule: here and on line {first_line[said]}"
                )
                self._report(entry.key_pos, "duplicate-key", message, "keep one of them")
                continue
            first_line[said] = entry.key_pos.line
            entries.append(entry)
        return RuleBlock(str(name), _pos(name), tuple(entries), tree.meta.end_line)

    def _metadata(self, entry: Entry) -> None:
        """The title and the source are text about the profile: no note, not assumed (the
        YAML form has no way to say either), and never empty."""
        if entry.value is None:
            self._report(
                entry.key_pos,
                "missing-value",
                f"`{entry.key}` needs its text",
                f'write it in quotes: {entry.key} "..."',
            )
        elif entry.note is not None:
            self._report(
                entry.key_pos,
                "metadata-note",
                f"`{entry.key}` takes no note",
                "a note is a remark on an option's value; write a # comment instead",
            )
        elif entry.assumed:
            self._report(
                entry.key_pos,
                "metadata-assumed",
                f"`{entry.key}` cannot be assumed",
                "`assumed` marks an option's value the source does not state; drop it",
            )


def _pos(token: Token) -> Pos:
    return Pos(token.line, token.column, len(token.value))


def _unquote(token: Token) -> str:
    if token.type != "STRING":
        return str(token)
    return re.sub(r"\\(.)", r"\1", token.value[1:-1])


def _label(token: Token) -> tuple[str, Pos]:
    return _unquote(token), _pos(token)


def _statement(tree: Tree) -> Entry:
    assumed, name, value, note = tree.children
    if value is None and note is not None and name.value in METADATA:
        value, note = note, None
    end = _pos(name)
    value_pos = _pos(value) if value is not None else Pos(end.line, end.column + end.length)
    return Entry(
        key=str(name),
        value=_unquote(value) if value is not None else None,
        key_pos=_pos(name),
        value_pos=value_pos,
        assumed=assumed is not None,
        note=_unquote(note) if note is not None else None,
    )


def read_dsl(path: str, text: str) -> Document:
    """Read profile text; syntax problems become diagnostics on the Document."""
    return _Reader(path, text).read()
