"""Write a Document in the canonical layout of either syntax, keeping every comment.

Canonical layout: the name and `extends` first, then the metadata, then the options in
the registry's order; values and notes are kept as written. A comment on its own line
stays above the statement that followed it; a comment at the end of a line stays there.
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field

import yaml

from rulesdsl.house.unit import LANGUAGES, Clause
from rulesdsl.rules import OPTIONS
from rulesdsl.syntax.document import METADATA, Comment, Document, Entry, RuleBlock
from rulesdsl.syntax.yamlform import LOADER, MAX_DEPTH, YAML11_BOOLEANS

ORDER = {key: i for i, key in enumerate((*METADATA, *OPTIONS))}


@dataclass
class _Item:
    """One statement to write, with the comments that belong to it."""

    line: int
    entry: Entry | None
    above: list[str] = field(default_factory=list)
    after: str = ""


def _items(doc: Document) -> tuple[_Item, list[_Item], list[str], list[str]]:
    """The header item, the statements in canonical order, and comments before the header
    and after the last statement."""
    header, body, _, before, tail = _all_items(doc)
    return header, body, before, tail


def _all_items(
    doc: Document,
) -> tuple[_Item, list[_Item], list[_RuleItems], list[str], list[str]]:
    """`_items`, and the items of the rules the profile states, in the order written."""
    header_line = doc.name_pos.line if doc.name_pos else 1
    header = _Item(header_line, None)
    body = [_Item(e.key_pos.line, e) for e in doc.entries]
    rules = [_rule_items(block, doc.syntax) for block in doc.rules]
    rule_items = [item for rule in rules for item in rule.items]
    by_line = sorted([header, *body, *rule_items], key=lambda i: i.line)
    if doc.syntax == "yaml" and doc.extends_pos is not None:
        by_line.append(_Item(doc.extends_pos.line, None))
        by_line.sort(key=lambda i: i.line)
    before, tail = _attach(doc.comments, by_line)
    body.sort(key=lambda i: (ORDER.get(i.entry.key, len(ORDER)), i.line))
    return header, body, rules, before, tail


def _attach(comments: list[Comment], items: list[_Item]) -> tuple[list[str], list[str]]:
    """Give each comment to its item (`items` sorted by line), by binary search."""
    before: list[str] = []
    tail: list[str] = []
    lines = [i.line for i in items]
    for comment in comments:
        at = bisect.bisect_right(lines, comment.line)
        if comment.trailing:
            target = items[at - 1] if at else items[0]
            target.after = (target.after + " " + comment.text).strip()
            continue
        if at == len(items):
            tail.append(comment.text)
        elif at == 0:
            before.append(comment.text)
        else:
            items[at].above.append(comment.text)
    # A YAML `extends` line folds into the header.
    for extra in items:
        if extra.entry is None and extra is not items[0] and not isinstance(extra, _RuleItem):
            items[0].above += extra.above
            items[0].after = (items[0].after + " " + extra.after).strip()
    return before, tail


def _quote(text: str) -> str:
    """A string of the profile language: a backslash makes the next character plain (so a
    tab stays a tab; JSON's escapes would read back as the letter). A line break has no
    spelling there: it is written as JSON would, and `rewrite` sees the change."""
    if "\n" in text or "\r" in text:
        return _yaml_quote(text)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _yaml_quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _with_comment(line: str, comment: str) -> str:
    return f"{line}  {comment}" if comment else line


def write_dsl(doc: Document) -> str:
    header, body, rules, before, tail = _all_items(doc)
    out = list(before) + header.above
    head = f"profile {_quote(doc.name or '')}"
    if doc.extends:
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
    for index, rule in enumerate(rules):
        out += ["", *_dsl_rule(rule)] if body or index else _dsl_rule(rule)
    out += ["    " + c for c in tail]
    out.append("}")
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
    """Whether a YAML reader could see more than a line or more than a few levels of nesting
    in `text` (which is then quoted, so that reading it back stays shallow)."""
    return "\n" in text or sum(text.count(c) for c in "[{") > MAX_DEPTH


def _yaml_scalar(text: str) -> str:
    """Plain when every YAML reader reads it back as this very text (or number), else quoted."""
    if text and text.lower() not in YAML11_BOOLEANS and not _nests(text):
        try:
            back = yaml.load(f"k: {text}", Loader=LOADER)
        except yaml.YAMLError:
            back = None
        if isinstance(back, dict) and not isinstance(back.get("k"), bool):
            value = back.get("k")
            if (isinstance(value, str) and value == text) or (
                isinstance(value, int) and str(value) == text
            ):
                return text
    return _yaml_quote(text)


def write_yaml(doc: Document) -> str:
    header, body, rules, before, tail = _all_items(doc)
    out = list(before) + header.above
    out.append(_with_comment(f"profile: {_yaml_scalar(doc.name or '')}", header.after))
    if doc.extends:
        out.append(f"extends: {_yaml_scalar(doc.extends)}")
    for item in body:
        out += item.above
        out += _yaml_entry(item.entry, item.after)
    if rules:
        out.append("rules:")
        for rule in rules:
            out += _yaml_rule(rule)
    out += tail
    return "\n".join(out) + "\n"


def _yaml_entry(entry: Entry, comment: str) -> list[str]:
    value = _yaml_scalar(entry.value or "")
    if not entry.assumed and entry.note is None:
        return [_with_comment(f"{entry.key}: {value}", comment)]
    lines = [_with_comment(f"{entry.key}:", comment), f"  value: {value}"]
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

    @property
    def items(self) -> list[_Item]:
        return [self.head, *self.clauses, *([self.close] if self.close else [])]


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
    return _RuleItems(block.name, _RuleItem(block.name_pos.line, None), clauses, close)


def _dsl_rule(rule: _RuleItems) -> list[str]:
    out = ["    " + c for c in rule.head.above]
    out.append("    " + _with_comment(f"rule {rule.name} {{", rule.head.after))
    for item in rule.clauses:
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


def _yaml_rule(rule: _RuleItems) -> list[str]:
    out = ["  " + c for c in rule.head.above]
    if [i.entry.key for i in rule.clauses] == [Clause.REMOVED]:
        (item,) = rule.clauses
        comment = " ".join(c for c in (rule.head.after, item.after) if c)
        return [
            *out,
            *["  " + c for c in item.above],
            _with_comment(f"  {rule.name}: removed", comment),
        ]
    out.append(_with_comment(f"  {rule.name}:", rule.head.after))
    said = False
    for item in rule.clauses:
        entry = item.entry
        if entry.key == Clause.SAY:
            if not said:
                out.append("    say:")
                said = True
            out += ["      " + c for c in item.above]
            line = f"      {_yaml_scalar(entry.value or '')}: {_yaml_scalar(entry.note or '')}"
        else:
            out += ["    " + c for c in item.above]
            line = f"    {entry.key}: {_yaml_scalar(entry.value or '')}"
        out.append(_with_comment(line, item.after))
    return out
