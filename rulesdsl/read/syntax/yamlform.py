"""Read a YAML profile into a Document: plain data only, every position kept.

The text is composed, never constructed: values stay the text the user wrote, so YAML 1.1
booleans (`yes`, `off`, ...) cannot silently change a rule; they are reported instead.
Plain scalars are typed as YAML 1.2 (the core schema, as editors and schema validators
read them): where text is due (the name, `extends`, the title, the source, a note) a
number, a boolean or nothing is refused, as the JSON Schema refuses it. Aliases, anchors
and tags beyond plain data are refused, nesting is capped, a key given twice is reported
at every level, and a value holds one line of text without control characters.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import yaml

from rulesdsl.model.hints import suggest
from rulesdsl.model.language.rule import Clause
from rulesdsl.model.text import Pos
from rulesdsl.model.units.base import HEADER, METADATA
from rulesdsl.read.diagnostics import Located, offset_pos
from rulesdsl.read.syntax.chars import CharRefusal, bidi_controls, control_refusal, refusal
from rulesdsl.read.syntax.document import (
    ASSUMED,
    ASSUMED_WORDS,
    NAME,
    NOT_IN_A_VALUE,
    RULES_KEY,
    Comment,
    Document,
    Entry,
    RuleBlock,
)
from rulesdsl.read.syntax.sniff import first_line, looks_like_dsl
from rulesdsl.read.syntax.yamlerrors import ESCAPE_BEYOND_UNICODE, describe
from rulesdsl.read.syntax.yamltypes import (
    FAST_LOADER,
    PLAIN_TAGS,
    YAML11_BOOLEANS,
    CoreLoader,
    YamlType,
    kind_of,
)

MAX_DEPTH = 8
ENTRY_KEYS = ("value", ASSUMED, "note")
# Keys whose value is text: YAML must read it as a string.
TEXT_KEYS = (*HEADER, *METADATA)
HEX = re.compile("[0-9a-fA-F]+")
LONG_ESCAPE = re.compile(r"\\U([0-9a-fA-F]{8})")


class BadKey(NamedTuple):
    """How a key that is not a name is reported."""

    code: str
    message: str
    hint: str


RULE_NAME = BadKey(
    "rule-name",
    "a rule's name is letters, digits, `-` and `_`, not starting with a digit",
    "e.g. must-overtrump",
)
LANGUAGE = BadKey("rule-language", "a language is a word", "e.g. en")
TYPE_WORDS = {YamlType.BOOL: "a boolean", YamlType.INT: "a number", YamlType.FLOAT: "a number"}


def _key_line(node: yaml.Node, key: str) -> int | None:
    """The line of `key` in a mapping node, if it holds it."""
    if not isinstance(node, yaml.MappingNode):
        return None
    return next((_pos(k).line for k, _ in node.value if k.value == key), None)


def _pos(node: yaml.Node) -> Pos:
    start, end = node.start_mark, node.end_mark
    length = end.column - start.column if end.line == start.line else 1
    return Pos(start.line + 1, start.column + 1, max(1, length))


def _text_of(node: yaml.Node) -> str:
    return node.value if isinstance(node, yaml.ScalarNode) else ""


def scalars(node: yaml.Node) -> Iterator[yaml.ScalarNode]:
    """Every scalar in `node`, keys included, in the order written."""
    if isinstance(node, yaml.ScalarNode):
        yield node
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from scalars(item)
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from scalars(key)
            yield from scalars(value)


class _Reader:
    def __init__(self, path: str, text: str) -> None:
        # Without a byte-order mark, which libyaml leaves out of its positions.
        self.text = text = text.removeprefix("\ufeff")
        self.where = Located(path, text)
        self.doc = Document(path, "yaml", text)
        # The scalars already refused (for a character or a line break): read no further.
        self.refused: set[int] = set()

    def error(self, pos: Pos, code: str, message: str, hint: str = "", severity="error") -> None:
        diagnostic = self.where.at(pos, code, message, hint, severity)
        self.doc.diagnostics.append(diagnostic)

    def refuse(self, pos: Pos, refused: CharRefusal) -> None:
        self.error(pos, refused.code, refused.message, refused.hint)

    def read(self) -> Document:
        for pos, refused in bidi_controls(self.text):
            self.refuse(pos, refused)
        try:
            if not self._plain_data():
                return self.doc
            root = yaml.compose(self.text, Loader=CoreLoader)
        except yaml.MarkedYAMLError as error:
            self._syntax_error(error)
            return self.doc
        except ValueError:  # PyYAML's own scanner, on an escape beyond the last character
            self._beyond_unicode()
            return self.doc
        except yaml.reader.ReaderError as error:
            char = chr(error.character)
            self.refuse(
                offset_pos(self.text, error.position), refusal(char) or control_refusal(char)
            )
            return self.doc
        if root is None:
            self._no_name(None)
        else:
            self._profile(root)
        return self.doc

    def _profile(self, root: yaml.Node) -> None:
        found = list(scalars(root))
        self.doc.comments = _comments(self.text, found)
        self.refused = {id(node) for node in found if not self._characters(node)}
        if not isinstance(root, yaml.MappingNode):
            self._not_a_mapping(root)
            return
        second = self._second_profile(root)
        pairs = self._pairs(root, None, second.start_mark.line if second else None)
        if HEADER[0] not in pairs:
            keys = [k.value for k, _ in root.value if kind_of(k) == YamlType.STR]
            misspelt = next((k for k in keys if suggest(k, HEADER[:1])), None)
            if misspelt is None or misspelt in pairs:  # else refused as a key already
                self._no_name(pairs.pop(misspelt)[0] if misspelt else None)
        self._rules_at_margin(pairs)
        for key, (key_node, value_node) in pairs.items():
            self._entry(key, key_node, value_node)

    def _rules_at_margin(self, pairs: dict[str, tuple[yaml.ScalarNode, yaml.Node]]) -> None:
        """An empty `rules:` followed by keys that hold a rule's clauses (or `removed`) is
        rules not indented under it: each is one mistake, and neither is read further."""
        if RULES_KEY not in pairs or kind_of(pairs[RULES_KEY][1]) != YamlType.NULL:
            return
        after = pairs[RULES_KEY][0].start_mark.line
        dedented = [
            key
            for key, (key_node, value) in pairs.items()
            if key_node.start_mark.line > after and _holds_a_rule(value)
        ]
        for key in dedented:
            self.error(
                _pos(pairs.pop(key)[0]),
                "yaml-shape",
                f"rule `{key}` is not indented under `{RULES_KEY}:`",
                f"indent it by 2 spaces, and its clauses by 4: `  {key}:`",
            )
        if dedented:
            del pairs[RULES_KEY]

    def _syntax_error(self, error: yaml.MarkedYAMLError) -> None:
        if looks_like_dsl(self.text):
            self._looks_like_dsl()
            return
        described = describe(error, self.text, FAST_LOADER)
        self.error(described.pos, "yaml-syntax", described.message, described.hint)

    def _no_name(self, misspelt: yaml.Node | None) -> None:
        """The profile has no `profile:` key; `misspelt` is a key that may have meant it."""
        if misspelt is not None:
            pos, hint = _pos(misspelt), suggest(misspelt.value, HEADER[:1])
        else:
            stem = Path(self.doc.path).stem
            pos, hint = Pos(1, 1), f"add `{HEADER[0]}: {stem}` at the top"
        self.error(pos, "missing-name", "the profile has no name", hint)

    def _second_profile(self, root: yaml.MappingNode) -> yaml.Node | None:
        """A second `profile:` key, reported as the start of a second profile (what follows
        it is that profile's, not keys given twice)."""
        keys = [k for k, _ in root.value if kind_of(k) == YamlType.STR and k.value == HEADER[0]]
        if len(keys) < 2:
            return None
        first = keys[0].start_mark.line + 1
        self.error(
            _pos(keys[1]),
            "duplicate-key",
            f"a second profile starts here (the first is named on line {first}); "
            "a file holds one profile",
            "move it, and what follows, to a file of its own",
        )
        return keys[1]

    def _beyond_unicode(self) -> None:
        """Where an escape writes a code point beyond Unicode's last, U+10FFFF."""
        beyond = (m for m in LONG_ESCAPE.finditer(self.text) if int(m.group(1), 16) > 0x10FFFF)
        found = next(beyond, None)
        pos = offset_pos(self.text, found.start()) if found else Pos(1, 1)
        self.error(pos, "yaml-syntax", *ESCAPE_BEYOND_UNICODE)

    def _looks_like_dsl(self) -> None:
        number, line = first_line(self.text)
        self.error(
            Pos(number, len(line) - len(line.lstrip()) + 1, len(line.strip())),
            "wrong-syntax",
            "this looks like the profile language, not YAML",
            "name the file .rules, or write `key: value` lines",
        )

    def _not_a_mapping(self, root: yaml.Node) -> None:
        if looks_like_dsl(self.text):
            self._looks_like_dsl()
            return
        self.error(
            _pos(root),
            "yaml-shape",
            "a YAML profile is a mapping of keys to values",
            "write one `key: value` per line, e.g. `elimination: immediate`",
        )

    def _characters(self, node: yaml.ScalarNode) -> bool:
        """Refuse what an escape wrote that the file itself may not hold, and line breaks;
        whether the scalar passes."""
        if node.style == '"':
            raw = self.text[node.start_mark.index : node.end_mark.index]
            for offset, length, refused in _escapes(raw):
                at = offset_pos(raw, offset)
                column = at.column + (node.start_mark.column if at.line == 1 else 0)
                self.refuse(Pos(node.start_mark.line + at.line, column, length), refused)
                return False
        if "\n" in node.value or "\r" in node.value:
            self.error(
                _pos(node),
                "multi-line",
                "this text runs over more than one line; a profile's values are one line each",
                "write it on one line, or as a `>-` block (folded, without a final line break)",
            )
            return False
        return True

    def _passed(self, node: yaml.Node) -> bool:
        """Whether no scalar in `node` was refused for its characters."""
        return not any(id(n) in self.refused for n in scalars(node))

    def _plain_data(self) -> bool:
        """Refuse aliases, anchors, non-plain tags and deep nesting, before composing."""
        depth = 0
        clean = True
        for event in yaml.parse(self.text, Loader=FAST_LOADER):
            mark = event.start_mark
            pos = Pos(mark.line + 1, mark.column + 1)
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                self.error(
                    pos,
                    "yaml-alias",
                    "anchors and aliases are not allowed in a profile",
                    "write the value out in full",
                )
                clean = False
            tag = getattr(event, "tag", None)
            implicit = getattr(event, "implicit", True)
            explicit = tag is not None and implicit in (False, (False, False))
            if explicit and tag not in PLAIN_TAGS:
                self.error(
                    pos,
                    "yaml-tag",
                    f"the tag {tag} is not allowed in a profile",
                    "a profile holds plain text, numbers and mappings only",
                )
                clean = False
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    self.error(pos, "too-deep", f"nesting deeper than {MAX_DEPTH} levels")
                    return False
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
        return clean

    def _pairs(
        self,
        mapping: yaml.MappingNode,
        owner: str | None,
        before: int | None = None,
        bad_key: BadKey | None = None,
    ) -> dict[str, tuple[yaml.ScalarNode, yaml.Node]]:
        """The keys and values of a mapping; a key that is not a name (reported as `bad_key`
        says, if given), or is given twice, is left out and reported; the keys from line
        `before` (0-based) on are not read."""
        found: dict[str, tuple[yaml.ScalarNode, yaml.Node]] = {}
        for key_node, value_node in mapping.value:
            if before is not None and key_node.start_mark.line >= before:
                break
            if kind_of(key_node) != YamlType.STR or not NAME.fullmatch(key_node.value):
                self.error(
                    _pos(key_node),
                    *(
                        bad_key
                        or (
                            "yaml-shape",
                            "a key must be a name: letters, digits, `_` and `-`",
                            suggest(_text_of(key_node), _unsaid(HEADER, mapping))
                            or "write `name: value`, e.g. `draw: 1`",
                        )
                    ),
                )
                continue
            key = key_node.value
            if key in found:
                first = found[key][0].start_mark.line + 1
                where = f"`{owner}` has `{key}`" if owner else f"`{key}` is set"
                self.error(
                    _pos(key_node),
                    "duplicate-key",
                    f"{where} twice: here and on line {first}",
                    "keep one of them; YAML readers differ on which one wins",
                )
                continue
            found[key] = (key_node, value_node)
        return found

    def _text(self, node: yaml.Node, what: str) -> str | None:
        """The text of a scalar that must be text, or None (with an error) when it is not."""
        kind = kind_of(node)
        if kind == YamlType.STR:
            self._yaml11_boolean(node)
            return node.value
        if kind in (YamlType.MAP, YamlType.SEQ):
            shape = "a list" if kind == YamlType.SEQ else "a mapping"
            self.error(
                _pos(node),
                "yaml-shape",
                f"{what} is one line of text, not {shape}",
                "write it on the line of its key; a # comment can say more",
            )
        elif kind == YamlType.NULL:
            self.error(_pos(node), "yaml-type", f"{what} is empty", "write it, or drop the line")
        else:
            self.error(
                _pos(node),
                "yaml-type",
                f"{what} is text, but YAML reads `{node.value}` as {TYPE_WORDS[kind]}",
                f'quote it: "{node.value}"',
            )
        return None

    def _yaml11_boolean(self, node: yaml.ScalarNode) -> None:
        if not node.style and node.value.lower() in YAML11_BOOLEANS:
            self.error(
                _pos(node),
                "yaml-boolean",
                f"`{node.value}` is a boolean to YAML 1.1 readers; rulesdsl reads the "
                f"word '{node.value}'",
                f'quote it ("{node.value}") so every YAML reader agrees',
                "warning",
            )

    def _yaml11_flag(self, node: yaml.ScalarNode, flag: bool) -> None:
        if node.value.lower() in YAML11_BOOLEANS:
            word = "true" if flag else "false"
            self.error(
                _pos(node),
                "yaml-boolean",
                f"`{node.value}` is a boolean to YAML 1.1 readers and text to YAML 1.2 "
                f"readers; rulesdsl reads `assumed: {node.value}` as {word}",
                f"write `assumed: {word}` so every YAML reader agrees",
                "warning",
            )

    def _value(self, node: yaml.Node, what: str) -> tuple[str | None, bool]:
        """An option's value as text (None when there is none, or only blanks), and whether
        it was written as a list."""
        if isinstance(node, yaml.SequenceNode) and all(
            isinstance(n, yaml.ScalarNode) for n in node.value
        ):
            return self._value_text(node, " ".join(n.value for n in node.value)), True
        if not isinstance(node, yaml.ScalarNode):
            self.error(_pos(node), "yaml-shape", f"{what} must be a single value")
            return None, False
        if kind_of(node) == YamlType.NULL and not node.style:
            return None, False
        self._yaml11_boolean(node)
        return self._value_text(node, node.value), False

    def _value_text(self, node: yaml.Node, text: str) -> str | None:
        """A value's text without the blanks around it (None when nothing else is there);
        a character no value holds is refused, as the profile language refuses it."""
        odd = next((c for c in NOT_IN_A_VALUE if c in text), None)
        if odd is not None:
            self.error(
                _pos(node),
                "bad-value",
                f"no option's value holds `{odd}`",
                "write the value without it; a remark goes in a note",
            )
            self.refused.update(id(n) for n in scalars(node))
        return text.strip() or None

    def _entry(self, key: str, key_node: yaml.ScalarNode, node: yaml.Node) -> None:
        if key == RULES_KEY:  # each rule is read unless one of its texts was refused
            self.doc.rules_line = _pos(key_node).line
            self._rules(node)
            return
        if not self._passed(node):
            return
        if key in TEXT_KEYS:
            value = self._text(node, f"`{key}`")
            entry = Entry(key, value, _pos(key_node), _pos(node))
        elif isinstance(node, yaml.MappingNode):
            entry = self._detailed(key, key_node, node)
        else:
            value, listed = self._value(node, f"`{key}`")
            entry = Entry(key, value, _pos(key_node), _pos(node), listed=listed)
        if entry is None or not self._passed(node):
            return
        if key == "profile":
            self.doc.name, self.doc.name_pos = entry.value, entry.value_pos
        elif key == "extends":
            self.doc.extends, self.doc.extends_pos = entry.value, entry.value_pos
        else:
            self.doc.entries.append(entry)

    def _detailed(
        self, key: str, key_node: yaml.ScalarNode, node: yaml.MappingNode
    ) -> Entry | None:
        """An option given as a mapping of value, assumed and note."""
        unknown = [
            k for k, _ in node.value if kind_of(k) == YamlType.STR and k.value not in ENTRY_KEYS
        ]
        # What follows an unknown part is often a key indented too far, and what it holds:
        # the unknown part is the one mistake reported.
        parts = self._pairs(node, key, unknown[0].start_mark.line if unknown else None)
        if unknown:
            self.error(
                _pos(unknown[0]),
                "yaml-shape",
                f"`{key}` has an unknown part `{unknown[0].value}`",
                suggest(unknown[0].value, ENTRY_KEYS)
                or "an option's mapping holds value, assumed and note; is this key indented "
                "too far?",
            )
            return None
        if "value" not in parts:
            self.error(_pos(node), "yaml-shape", f"`{key}` needs a `value`")
            return None
        value_node = parts["value"][1]
        value, listed = self._value(value_node, f"`{key}`")
        assumed, reason = self._assumed(key, parts)
        note = self._text(parts["note"][1], "a note") if "note" in parts else None
        if reason is not None and "note" in parts:
            self.error(
                _pos(parts[ASSUMED][1]),
                "two-notes",
                f"`{key}` has a reason in `assumed` and a `note`: one would be lost",
                "keep one: `assumed: true` with the `note`, or the reason alone",
            )
        return Entry(
            key,
            value,
            _pos(key_node),
            _pos(value_node),
            assumed,
            reason if note is None else note,
            listed,
        )

    # The rules a profile states itself (section 5 of docs/rules.md): `rules:` maps each rule's name
    # to its clauses (`refuse: card if ...`, `say: {en: "..."}`), or to `removed`.

    def _rules(self, node: yaml.Node) -> None:
        if kind_of(node) != YamlType.MAP:
            self.error(
                _pos(node),
                "yaml-shape",
                f"`{RULES_KEY}` maps each rule's name to its clauses",
                f"e.g. `{RULES_KEY}:` then `  time-limit:` and its clauses indented under it",
            )
            return
        for name, (name_node, body) in self._pairs(node, RULES_KEY, bad_key=RULE_NAME).items():
            # A rule with a text refused for its characters, or a part the reader left out,
            # is not compiled: the refusal is its one problem.
            errors = self._errors()
            entries = self._clauses(name, body) if self._passed(body) else None
            if entries is not None and self._errors() == errors:
                end = max(_pos(body).line, body.end_mark.line)
                said = _key_line(body, Clause.SAY)
                block = RuleBlock(name, _pos(name_node), tuple(entries), end, said)
                self.doc.rules.append(block)

    def _errors(self) -> int:
        return sum(d.is_error for d in self.doc.diagnostics)

    def _clauses(self, name: str, body: yaml.Node) -> list[Entry] | None:
        """A rule's clauses, each an Entry as the profile language reads it; None when the
        rule is not a mapping of clauses, nor `removed`."""
        if kind_of(body) == YamlType.STR and body.value == Clause.REMOVED:
            return [Entry(Clause.REMOVED, None, _pos(body), _pos(body))]
        if kind_of(body) != YamlType.MAP:
            self.error(
                _pos(body),
                "yaml-shape",
                f"rule `{name}` maps its clauses to their text, or is `{Clause.REMOVED}`",
                f"e.g. `draw: 1` indented under `{name}:`",
            )
            return None
        pairs = self._pairs(body, name)
        if Clause.REMOVED in pairs:
            self.error(
                _pos(pairs[Clause.REMOVED][0]),
                "rule-clause",
                f"`{Clause.REMOVED}` stands alone: it is the rule, not one of its clauses",
                f"write `{name}: {Clause.REMOVED}`",
            )
            return None
        entries = []
        for clause, (key_node, value) in pairs.items():
            if clause == Clause.SAY:
                entries += self._sentences(value)
            else:
                text = self._clause_text(value, f"`{clause}` of rule `{name}`")
                if text is not None:
                    entries.append(Entry(clause, text, _pos(key_node), _text_pos(value)))
        return entries

    def _clause_text(self, node: yaml.Node, what: str) -> str | None:
        """A clause's text: one line of the rule language (a whole number is one, `draw: 2`)
        holding nothing the profile language could not write in a clause."""
        text = node.value if kind_of(node) == YamlType.INT else self._text(node, what)
        odd = next((c for c in NOT_IN_A_VALUE if c in (text or "")), None)
        if odd is None:
            return None if text is None else text.strip()
        self.error(
            _text_pos(node),
            "rule-syntax",
            f"`{odd}` cannot appear in a rule's clause",
            "a clause is one line of the rule language; a sentence goes under `say`",
        )
        return None

    def _sentences(self, node: yaml.Node) -> list[Entry]:
        """`say:` maps each language to its sentence: one `say` entry each."""
        if kind_of(node) != YamlType.MAP:
            self.error(
                _pos(node),
                "yaml-shape",
                f"`{Clause.SAY}` maps each language to its sentence",
                f'e.g. {Clause.SAY}: {{en: "...", pt: "..."}}',
            )
            return []
        said = []
        for language, (lang, text) in self._pairs(node, Clause.SAY, bad_key=LANGUAGE).items():
            sentence = self._text(text, "a sentence")
            if sentence is not None:
                said.append(Entry(Clause.SAY, language, _pos(lang), _pos(lang), note=sentence))
        return said

    def _assumed(
        self, key: str, parts: dict[str, tuple[yaml.ScalarNode, yaml.Node]]
    ) -> tuple[bool, str | None]:
        """Whether the value is assumed, and the reason `assumed` gives (if it is text)."""
        if ASSUMED not in parts:
            return False, None
        node = parts[ASSUMED][1]
        kind = kind_of(node)
        if kind == YamlType.BOOL:
            return ASSUMED_WORDS[node.value.lower()], None
        if kind != YamlType.STR:
            self.error(
                _pos(node),
                "yaml-type",
                f"`assumed` of `{key}` is true, false or the reason it is assumed",
                "write `assumed: true`, or give the reason as text",
            )
            return False, None
        if node.value.lower() in ASSUMED_WORDS:
            flag = ASSUMED_WORDS[node.value.lower()]
            self._yaml11_flag(node, flag)
            return flag, None
        return True, self._text(node, "the reason in `assumed`")


def _text_pos(node: yaml.Node) -> Pos:
    """Where a scalar's text starts: after its opening quote, if it has one."""
    pos = _pos(node)
    if isinstance(node, yaml.ScalarNode) and node.style in ("'", '"'):
        return Pos(pos.line, pos.column + 1, max(1, pos.length - 2))
    return pos


def _holds_a_rule(node: yaml.Node) -> bool:
    """Whether a value is a rule's: `removed`, or a mapping with a clause among its keys."""
    if kind_of(node) == YamlType.STR:
        return node.value == Clause.REMOVED
    return kind_of(node) == YamlType.MAP and any(_text_of(k) in set(Clause) for k, _ in node.value)


def _escapes(raw: str) -> Iterator[tuple[int, int, CharRefusal]]:
    """In the source of a double-quoted scalar: each escape that writes a character a
    profile may not hold, as (offset, length, why)."""
    codes = yaml.scanner.Scanner.ESCAPE_CODES
    replacements = yaml.scanner.Scanner.ESCAPE_REPLACEMENTS
    i = raw.find("\\")
    while i >= 0:
        letter = raw[i + 1 : i + 2]
        length = 2 + codes.get(letter, 0)
        digits = raw[i + 2 : i + length]
        if letter in codes and HEX.fullmatch(digits) and int(digits, 16) <= 0x10FFFF:
            char = chr(int(digits, 16))
        else:
            char = replacements.get(letter, "")
        refused = refusal(char) if len(char) == 1 else None
        if refused is not None:
            yield i, length, refused
        i = raw.find("\\", i + length)


def _spans(found: list[yaml.ScalarNode]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Where each scalar's text lies, as sorted (line, column) starts and their ends; a
    block scalar's text starts on the line after its `|` or `>`."""
    spans = []
    for node in found:
        start = (node.start_mark.line, node.start_mark.column)
        if node.style in ("|", ">"):
            start = (node.start_mark.line + 1, 0)
        spans.append((start, (node.end_mark.line, node.end_mark.column)))
    spans.sort()
    return [s for s, _ in spans], [e for _, e in spans]


def _comments(text: str, found: list[yaml.ScalarNode]) -> list[Comment]:
    """Comments: a `#` at the start of a line or after a space, outside every scalar."""
    starts, ends = _spans(found)
    comments = []
    for number, line in enumerate(text.split("\n")):
        column = line.find("#")
        while column >= 0:
            after_space = column == 0 or line[column - 1] in " \t"
            i = bisect_right(starts, (number, column)) - 1
            inside = i >= 0 and (number, column) < ends[i]
            if after_space and not inside:
                comment = line[column:].rstrip()
                comments.append(Comment(number + 1, comment, bool(line[:column].strip())))
                break
            column = line.find("#", column + 1)
    return comments


def read_yaml(path: str, text: str) -> Document:
    """Read YAML profile text; problems become diagnostics on the Document."""
    return _Reader(path, text).read()


def _unsaid(keys: tuple[str, ...], mapping: yaml.MappingNode) -> list[str]:
    """The keys the mapping does not have yet: a did-you-mean for a key is one of them, as
    a key said twice is an error."""
    said = {k.value for k, _ in mapping.value if kind_of(k) == YamlType.STR}
    return [k for k in keys if k not in said]
