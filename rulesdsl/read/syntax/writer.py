"""Write a Document in the canonical layout of either syntax, keeping every comment.

Canonical layout: the name and `extends` first, then the metadata, then the options in
the registry's order; values and notes are kept as written. A comment on its own line
stays above the statement that followed it; a comment at the end of a line stays there.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from dataclasses import dataclass, field

import yaml

from rulesdsl.model.language.rule import LANGUAGES, Clause
from rulesdsl.model.rules import OPTIONS
from rulesdsl.model.units.base import METADATA
from rulesdsl.read.syntax.document import RULES_KEY, Comment, Document, Entry, RuleBlock
from rulesdsl.read.syntax.yamlform import MAX_DEPTH
from rulesdsl.read.syntax.yamltypes import YAML11_BOOLEANS, CoreLoader

ORDER = {key: i for i, key in enumerate((*METADATA, *OPTIONS))}


@dataclass
class _Item:
    """One statement to write, with the comments that belong to it."""

    line: int
    entry: Entry | None
    above: list[str] = field(default_factory=list)
    trailing: list[str] = field(default_factory=list)

    @property
    def after(self) -> str:
        return " ".join(self.trailing)

    def add_trailing(self, text: str) -> None:
        """A comment at the end of one of the item's lines: one stays at the end of the
        line written; any more go above it, so that each reads back as the comment it was."""
        (self.above if self.trailing else self.trailing).append(text)


@dataclass
class _Layout:
    """The header, the statements in canonical order, the rules the profile states (in the
    order written), and the comments that belong to no statement: before the header, after
    the last statement, and after the last line's code (on the closing `}`)."""

    header: _Item
    body: list[_Item]
    rules: list[_RuleItems] = field(default_factory=list)
    extends_key: _Item | None = None  # YAML's `extends:` line, with its comments
    rules_key: _Item | None = None  # YAML's `rules:` line, with its comments
    before: list[str] = field(default_factory=list)
    tail: list[str] = field(default_factory=list)
    closing: list[str] = field(default_factory=list)


def _layout(doc: Document) -> _Layout:
    header_line = doc.name_pos.line if doc.name_pos else 1
    header = _Item(header_line, None)
    body = [_Item(e.key_pos.line, e) for e in doc.entries]
    rules = [_rule_items(block, doc.syntax) for block in doc.rules]
    by_line = [header, *body, *(item for rule in rules for item in rule.items)]
    yaml_extends = doc.syntax == "yaml" and doc.extends_pos is not None
    extends_key = _Item(doc.extends_pos.line, None) if yaml_extends else None
    rules_key = None if doc.rules_line is None else _Item(doc.rules_line, None)
    by_line += [key for key in (extends_key, rules_key) if key is not None]
    by_line.sort(key=lambda i: i.line)
    layout = _Layout(header, body, rules, extends_key, rules_key)
    _attach(doc.comments, by_line, layout, closing_brace=doc.syntax == "dsl")
    _place_rules_key(layout)
    for rule in rules:  # a `say:` with no sentence under it is not written again
        if rule.say_key is not None and not any(c.entry.key == Clause.SAY for c in rule.clauses):
            rule.head.above += rule.sentence_comments()
            rule.say_key = None
    body.sort(key=lambda i: (ORDER.get(i.entry.key, len(ORDER)), i.line))
    return layout


def _place_rules_key(layout: _Layout) -> None:
    """The comments of YAML's `rules:` line stay on it; with no rule to write (nor a `rules:`
    line), they go above the first rule, or after the last statement."""
    key = layout.rules_key
    if key is None or (layout.rules and not (key.above or key.trailing)):
        return
    if not layout.rules:
        layout.tail[:0] = [*key.above, *key.trailing]
        layout.rules_key = None


def _attach(
    comments: list[Comment], items: list[_Item], layout: _Layout, closing_brace: bool
) -> None:
    """Give each comment to the statement it belongs to (`items` in line order): a comment
    at the end of a line to the statement on or above that line (or, below the last one
    in the profile language, to the closing brace), a comment on its own line to the
    statement below it."""
    lines = [i.line for i in items]
    for comment in comments:
        if comment.trailing:
            if closing_brace and comment.line > lines[-1]:
                layout.closing.append(comment.text)
            else:
                items[max(0, bisect_right(lines, comment.line) - 1)].add_trailing(comment.text)
            continue
        below = bisect_right(lines, comment.line)
        if below == len(items):
            layout.tail.append(comment.text)
        elif below == 0:
            layout.before.append(comment.text)
        else:
            items[below].above.append(comment.text)


def _quote(text: str) -> str:
    """A string of the profile language: in double quotes, `\\` and `"` escaped."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _with_comment(line: str, comment: str) -> str:
    return f"{line}  {comment}" if comment else line


def write_dsl(doc: Document) -> str:
    layout = _layout(doc)
    header, body = layout.header, layout.body
    if layout.extends_key is not None:  # YAML's `extends:` line is the header's here
        header.above += layout.extends_key.above
        for text in layout.extends_key.trailing:
            header.add_trailing(text)
    out = layout.before + header.above
    head = f"profile {_quote(doc.name or '')}"
    if doc.extends is not None:
        head += f" extends {_quote(doc.extends)}"
    out.append(_with_comment(head + " {", header.after))
    previous_meta = None
    for item in body:
        entry = item.entry
        is_meta = entry.key in METADATA
        if previous_meta and not is_meta:
            out.append("")
        previous_meta = is_meta
        out += ["    " + c for c in item.above]
        out.append("    " + _with_comment(_dsl_statement(entry), item.after))
    if layout.rules and layout.rules_key is not None:  # the profile language has no such line
        key = layout.rules_key
        layout.rules[0].head.above[:0] = [*key.above, *key.trailing]
    for index, rule in enumerate(layout.rules):
        out += ["", *_dsl_rule(rule)] if body or index else _dsl_rule(rule)
    out += ["    " + c for c in layout.tail]
    out.append(_with_comment("}", " ".join(layout.closing)))
    return "\n".join(out) + "\n"


def _dsl_statement(entry: Entry) -> str:
    words = ["assumed"] if entry.assumed else []
    words.append(entry.key)
    if entry.value is not None:
        words.append(_quote(entry.value) if entry.key in METADATA else entry.value)
    if entry.note is not None:
        words.append(_quote(entry.note))
    return " ".join(words)


def _nests(text: str) -> bool:
    """Whether a YAML reader could see more than a few levels of nesting in `text` (which is
    then quoted, so that reading it back stays shallow)."""
    return sum(text.count(c) for c in "[{") > MAX_DEPTH


def _reads_plain(text: str, number: bool) -> bool:
    """Whether every YAML reader (1.1 and 1.2) reads `text`, written plain, as this very
    text, or (where `number`) as the whole number it writes."""
    if not text or "\n" in text or text.lower() in YAML11_BOOLEANS or _nests(text):
        return False
    tags = {"tag:yaml.org,2002:str"}
    if number and text.isascii() and text.isdigit():
        tags.add("tag:yaml.org,2002:int")
    for loader in (yaml.SafeLoader, CoreLoader):
        try:
            root = yaml.compose(f"k: {text}", Loader=loader)
        except yaml.YAMLError:
            return False
        node = root.value[0][1] if isinstance(root, yaml.MappingNode) else None
        if not isinstance(node, yaml.ScalarNode) or node.value != text or node.tag not in tags:
            return False
    return True


def _yaml_scalar(text: str, number: bool = False) -> str:
    """Plain where every YAML reader reads it back as written, else in double quotes."""
    return text if _reads_plain(text, number) else json.dumps(text, ensure_ascii=False)


def write_yaml(doc: Document) -> str:
    layout = _layout(doc)
    _without_braces(layout)
    header, body = layout.header, layout.body
    out = layout.before + header.above
    out.append(_with_comment(f"profile: {_yaml_scalar(doc.name or '')}", header.after))
    if doc.extends is not None:
        key = layout.extends_key or _Item(0, None)
        out += key.above
        out.append(_with_comment(f"extends: {_yaml_scalar(doc.extends)}", key.after))
    for item in body:
        out += item.above
        out += _yaml_entry(item.entry, item.after)
    if layout.rules:
        key = layout.rules_key or _Item(0, None)
        out += key.above
        out.append(_with_comment(f"{RULES_KEY}:", key.after))
        for rule in layout.rules:
            out += _yaml_rule(rule)
    out += layout.tail + layout.closing
    return "\n".join(out) + "\n"


def _yaml_entry(entry: Entry, comment: str) -> list[str]:
    # No value is written as none (`key:`), which YAML reads back as none.
    value = "" if entry.value is None else _yaml_scalar(entry.value, entry.key not in METADATA)
    if not entry.assumed and entry.note is None:
        return [_with_comment(f"{entry.key}:{value and ' '}{value}", comment)]
    lines = [_with_comment(f"{entry.key}:", comment), f"  value:{value and ' '}{value}"]
    if entry.assumed:
        lines.append("  assumed: true")
    if entry.note is not None:
        lines.append(f"  note: {_yaml_scalar(entry.note)}")
    return lines


def write(doc: Document, syntax: str) -> str:
    return write_dsl(doc) if syntax == "dsl" else write_yaml(doc)


# The rules a profile states itself: in the order written (a play filter's place is its
# meaning), each rule's clauses in canonical order: its kind, `winner`, then the sentences
# by language.

CLAUSE_ORDER = tuple(Clause)
LANGUAGE_ORDER = LANGUAGES


@dataclass
class _RuleItem(_Item):
    """A rule's header or closing line, which comments may belong to."""


@dataclass
class _RuleItems:
    name: str
    head: _RuleItem
    clauses: list[_Item]
    close: _RuleItem | None
    say_key: _RuleItem | None = None  # YAML's `say:` line

    @property
    def items(self) -> list[_Item]:
        lines = (self.say_key, self.close)
        return [self.head, *self.clauses, *(item for item in lines if item is not None)]

    def sentence_comments(self) -> list[str]:
        """The comments of YAML's `say:` line, for the profile language, which has none:
        above the first sentence."""
        key = self.say_key
        return [] if key is None else [*key.above, *key.trailing]


def _clause_key(item: _Item) -> tuple[int, int, str, int]:
    entry = item.entry
    kind = CLAUSE_ORDER.index(entry.key) if entry.key in CLAUSE_ORDER else len(CLAUSE_ORDER)
    value = entry.value or ""
    say = entry.key == Clause.SAY
    lang = LANGUAGE_ORDER.index(value) if say and value in LANGUAGE_ORDER else len(LANGUAGE_ORDER)
    return kind, lang, value if say else "", item.line


def _rule_items(block: RuleBlock, syntax: str) -> _RuleItems:
    clauses = sorted((_Item(e.key_pos.line, e) for e in block.entries), key=_clause_key)
    close = _RuleItem(block.end_line, None) if syntax == "dsl" else None
    said = None if block.say_line is None else _RuleItem(block.say_line, None)
    return _RuleItems(block.name, _RuleItem(block.name_pos.line, None), clauses, close, said)


def _dsl_rule(rule: _RuleItems) -> list[str]:
    out = ["    " + c for c in rule.head.above]
    out.append("    " + _with_comment(f"rule {rule.name} {{", rule.head.after))
    said = False
    for item in rule.clauses:
        if item.entry.key == Clause.SAY and not said:
            out += ["        " + c for c in rule.sentence_comments()]
            said = True
        out += ["        " + c for c in item.above]
        out.append("        " + _with_comment(_dsl_clause(item.entry), item.after))
    close = rule.close or _RuleItem(0, None)
    out += ["        " + c for c in close.above]
    out.append("    " + _with_comment("}", close.after))
    return out


def _dsl_clause(entry: Entry) -> str:
    words = [entry.key]
    if entry.value is not None:
        words.append(entry.value)
    if entry.note is not None:
        words.append(_quote(entry.note))
    return " ".join(words)


def _without_braces(layout: _Layout) -> None:
    """Move the comments on and above a rule's closing brace (which YAML has not) to where
    YAML reads them back: above the next rule, or after the last statement."""
    for index, rule in enumerate(layout.rules):
        if rule.close is None:
            continue
        moved = [*rule.close.above, *rule.close.trailing]
        rule.close = None
        if index + 1 < len(layout.rules):
            layout.rules[index + 1].head.above[:0] = moved
        else:
            layout.tail[:0] = moved


def _yaml_rule(rule: _RuleItems) -> list[str]:
    out = ["  " + c for c in rule.head.above]
    if [i.entry.key for i in rule.clauses] == [Clause.REMOVED]:
        (item,) = rule.clauses
        comment = " ".join(c for c in (rule.head.after, item.after) if c)
        return [
            *out,
            *["  " + c for c in item.above],
            _with_comment(f"  {_yaml_scalar(rule.name)}: {Clause.REMOVED}", comment),
        ]
    out.append(_with_comment(f"  {_yaml_scalar(rule.name)}:", rule.head.after))
    said = False
    for item in rule.clauses:
        entry = item.entry
        if entry.key == Clause.SAY:
            if not said:
                key = rule.say_key or _RuleItem(0, None)
                out += ["    " + c for c in key.above]
                out.append(_with_comment("    say:", key.after))
                said = True
            out += ["      " + c for c in item.above]
            line = f"      {_yaml_scalar(entry.value or '')}: {_yaml_scalar(entry.note or '')}"
        else:
            out += ["    " + c for c in item.above]
            line = f"    {entry.key}: {_yaml_scalar(entry.value or '', number=True)}"
        out.append(_with_comment(line, item.after))
    return out
