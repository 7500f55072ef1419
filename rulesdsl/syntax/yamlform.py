"""Read a YAML profile into a Document: plain data only, every position kept.

The text is composed, never constructed: values stay the text the user wrote, so YAML 1.1
booleans (`yes`, `off`, ...) cannot silently change a rule; they are reported instead.
Aliases, anchors and tags beyond plain data are refused, and nesting is capped.
"""

from __future__ import annotations

import re

import yaml

from rulesdsl.diagnostics import Located, Pos, offset_pos
from rulesdsl.house.unit import Clause
from rulesdsl.syntax.document import Comment, Document, Entry, RuleBlock

MAX_DEPTH = 8
# libyaml's loader where PyYAML has it (ten times faster), else the pure-Python one.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
PLAIN_TAGS = {
    f"tag:yaml.org,2002:{t}" for t in ("str", "int", "bool", "null", "float", "map", "seq")
}
# Booleans to YAML 1.1 readers only: YAML 1.2 reads them as text.
YAML11_BOOLEANS = {"yes", "no", "on", "off", "y", "n"}
ENTRY_KEYS = ("value", "assumed", "note")
# `assumed` is a flag or a reason (a note); these words are the flag, in YAML 1.1 too.
ASSUMED_TRUE = ("true", "yes", "on", "y")
ASSUMED_FALSE = ("false", "no", "off", "n")


def _pos(node: yaml.Node) -> Pos:
    start, end = node.start_mark, node.end_mark
    length = end.column - start.column if end.line == start.line else 1
    return Pos(start.line + 1, start.column + 1, max(1, length))


class _Reader:
    def __init__(self, path: str, text: str) -> None:
        self.text = text
        self.where = Located(path, text)
        self.doc = Document(path, "yaml", text)

    def error(self, pos: Pos, code: str, message: str, hint: str = "", severity="error") -> None:
        diagnostic = self.where.at(pos, code, message, hint, severity)
        self.doc.diagnostics.append(diagnostic)

    def read(self) -> Document:
        self.doc.comments = _comments(self.text)
        try:
            if not self._plain_data():
                return self.doc
            root = yaml.compose(self.text, Loader=LOADER)
        except yaml.MarkedYAMLError as error:
            mark = error.problem_mark or error.context_mark
            line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            problem = error.problem or error.context or "not valid YAML"
            self.error(Pos(line, column), "yaml-syntax", f"YAML syntax: {problem}")
            return self.doc
        except yaml.reader.ReaderError as error:
            self.error(
                offset_pos(self.text, error.position),
                "yaml-syntax",
                f"YAML syntax: the character U+{error.character:04X} is not allowed",
                "delete it; YAML allows no control characters",
            )
            return self.doc
        if root is None:
            return self.doc
        if not isinstance(root, yaml.MappingNode):
            self.error(
                _pos(root),
                "yaml-shape",
                "a YAML profile is a mapping of keys to values",
                "write one `key: value` per line, e.g. `elimination: immediate`",
            )
            return self.doc
        self._mapping(root)
        return self.doc

    def _plain_data(self) -> bool:
        """Refuse aliases, anchors, non-plain tags and deep nesting, before composing."""
        depth = 0
        clean = True
        for event in yaml.parse(self.text, Loader=LOADER):
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

    def _mapping(self, root: yaml.MappingNode) -> None:
        seen: dict[str, yaml.Node] = {}
        for key_node, value_node in root.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.error(_pos(key_node), "yaml-shape", "a key must be a plain name")
                continue
            key = key_node.value
            if key in seen:
                first = seen[key].start_mark.line + 1
                self.error(
                    _pos(key_node),
                    "duplicate-key",
                    f"`{key}` is set twice: here and on line {first}",
                    "keep one of them; YAML readers differ on which one wins",
                )
                continue
            seen[key] = key_node
            self._entry(key, key_node, value_node)

    def _scalar(self, node: yaml.Node, what: str) -> str | None:
        if isinstance(node, yaml.SequenceNode) and all(
            isinstance(n, yaml.ScalarNode) for n in node.value
        ):
            return " ".join(n.value for n in node.value)
        if not isinstance(node, yaml.ScalarNode):
            self.error(_pos(node), "yaml-shape", f"{what} must be a single value")
            return None
        if node.tag == "tag:yaml.org,2002:null" and not node.style:
            return None
        if not node.style and node.value.lower() in YAML11_BOOLEANS:
            self.error(
                _pos(node),
                "yaml-boolean",
                f"`{node.value}` is a boolean to YAML 1.1 readers; rulesdsl reads the "
                f"word '{node.value}'",
                f'quote it ("{node.value}") so every YAML reader agrees',
                "warning",
            )
        return node.value

    def _entry(self, key: str, key_node: yaml.Node, node: yaml.Node) -> None:
        if key == RULES_KEY:
            self._rules(node)
            return
        assumed, note = False, None
        value_node = node
        if isinstance(node, yaml.MappingNode):
            parts = {k.value: v for k, v in node.value if isinstance(k, yaml.ScalarNode)}
            for name, part in parts.items():
                if name not in ENTRY_KEYS:
                    self.error(
                        _pos(part),
                        "yaml-shape",
                        f"`{key}` has an unknown part `{name}`",
                        "an option's mapping holds value, assumed and note",
                    )
            value_node = parts.get("value", node)
            if "value" not in parts:
                self.error(_pos(node), "yaml-shape", f"`{key}` needs a `value`")
                return
            assumed_text = self._scalar(parts["assumed"], "assumed") if "assumed" in parts else None
            flag = assumed_text.lower() if assumed_text is not None else "false"
            assumed = flag not in ASSUMED_FALSE
            if assumed and flag not in ASSUMED_TRUE:
                note = assumed_text
            if "note" in parts:
                if note is not None:
                    self.error(
                        _pos(parts["note"]),
                        "yaml-shape",
                        f"`{key}` has a reason in `assumed` and a `note`: one would be lost",
                        "write `assumed: true` and keep the text in `note`",
                    )
                note = self._scalar(parts["note"], "note")
        value = self._scalar(value_node, f"`{key}`")
        entry = Entry(key, value, _pos(key_node), _pos(value_node), assumed, note)
        if key in ("profile", "extends") and (assumed or note is not None):
            self.error(
                _pos(key_node),
                "metadata-note",
                f"`{key}` takes no note and cannot be assumed",
                f"write `{key}: {value}` and any remark as a # comment",
            )
        if key == "profile":
            self.doc.name, self.doc.name_pos = value, entry.value_pos
        elif key == "extends":
            self.doc.extends, self.doc.extends_pos = value, entry.value_pos
        else:
            self.doc.entries.append(entry)

    # The rules a profile states itself (RULES.md section 5): `rules:` maps each rule's name
    # to its clauses (`refuse: card if ...`, `say: {en: "..."}`), or to `removed`.

    def _rules(self, node: yaml.Node) -> None:
        if not isinstance(node, yaml.MappingNode):
            self.error(_pos(node), "yaml-shape", "`rules` maps each rule's name to its clauses")
            return
        for name_node, body in node.value:
            if not isinstance(name_node, yaml.ScalarNode) or not RULE_NAME.fullmatch(
                name_node.value
            ):
                self.error(
                    _pos(name_node),
                    "rule-name",
                    "a rule's name is letters, digits, `-` and `_`, not starting with a digit",
                    "e.g. must-overtrump",
                )
                continue
            entries = self._clauses(body)
            if entries is not None:
                end = max(_pos(body).line, body.end_mark.line)
                rule = RuleBlock(name_node.value, _pos(name_node), tuple(entries), end)
                self.doc.rules.append(rule)

    def _clauses(self, body: yaml.Node) -> list[Entry] | None:
        if isinstance(body, yaml.ScalarNode) and body.value == Clause.REMOVED:
            return [Entry(Clause.REMOVED, None, _pos(body), _pos(body))]
        if not isinstance(body, yaml.MappingNode):
            self.error(
                _pos(body), "yaml-shape", "a rule maps its clauses to their text, or is `removed`"
            )
            return None
        entries = []
        for key_node, value in body.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.error(_pos(key_node), "yaml-shape", "a clause's name must be a plain word")
                continue
            if key_node.value == Clause.SAY:
                entries += self._sentences(value)
                continue
            text = self._scalar(value, f"`{key_node.value}`")
            odd = NOT_IN_CLAUSE.search(text or "")
            if odd is not None:
                shown = repr(odd.group())[1:-1]
                self.error(
                    _text_pos(value),
                    "rule-syntax",
                    f"`{shown}` cannot appear in a rule's clause",
                    "a clause is one line of the rule language; a sentence goes under `say`",
                )
                continue
            entries.append(Entry(key_node.value, text, _pos(key_node), _text_pos(value)))
        return entries

    def _sentences(self, node: yaml.Node) -> list[Entry]:
        """`say:` maps each language to its sentence: one `say` entry each."""
        if not isinstance(node, yaml.MappingNode):
            self.error(
                _pos(node),
                "yaml-shape",
                "`say` maps each language to its sentence",
                'e.g. say: {en: "...", pt: "..."}',
            )
            return []
        said = []
        for lang, text in node.value:
            sentence = self._scalar(text, "a sentence")
            language = lang.value if isinstance(lang, yaml.ScalarNode) else ""
            if not RULE_NAME.fullmatch(language):
                self.error(_pos(lang), "rule-language", "a language is a word, e.g. en")
                continue
            said.append(Entry(Clause.SAY, language, _pos(lang), _pos(lang), note=sentence))
        return said


RULES_KEY = "rules"
# What the profile language cannot hold in a clause (and the rule language never reads).
NOT_IN_CLAUSE = re.compile(r'["#{}\n\r]')
RULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")  # as NAME in profile.lark


def _text_pos(node: yaml.Node) -> Pos:
    """Where a scalar's text starts: after its opening quote, if it has one."""
    pos = _pos(node)
    if isinstance(node, yaml.ScalarNode) and node.style in ("'", '"'):
        return Pos(pos.line, pos.column + 1, max(1, pos.length - 2))
    return pos


def _comments(text: str) -> list[Comment]:
    """Comments: a `#` at the start of a line or after a space, outside quotes."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        quote = None
        for i, char in enumerate(line):
            if quote:
                quote = None if char == quote else quote
            elif char in "'\"" and (i == 0 or line[i - 1] in " \t:[{,"):
                quote = char
            elif char == "#" and (i == 0 or line[i - 1] in " \t"):
                found.append(Comment(number, line[i:].rstrip(), bool(line[:i].strip())))
                break
    return found


def read_yaml(path: str, text: str) -> Document:
    """Read YAML profile text; problems become diagnostics on the Document."""
    return _Reader(path, text).read()
