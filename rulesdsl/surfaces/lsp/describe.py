"""What the text at a position is, what to say of it, and where it was defined.

`chain` is a resolved profile followed by its ancestors, nearest first: the places an
option's value, or a rule the profile states, can come from.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from rulesdsl.model.language.rule import STEP_PLACES, Clause
from rulesdsl.model.language.vocab import ATTRIBUTES, NAMES, Attribute, Name, Type
from rulesdsl.model.rules import OPTIONS, option_values
from rulesdsl.model.text import Pos
from rulesdsl.read.language.settings import RuleSetting
from rulesdsl.read.profile import Profile, Setting
from rulesdsl.read.sources import short_path
from rulesdsl.read.syntax.document import Document, Entry, RuleBlock
from rulesdsl.reason.analysis.lint import LINT_BUDGET
from rulesdsl.reason.analysis.report import dead_rules, dead_stated_rules
from rulesdsl.surfaces.lsp.slots import QUOTES, clause_slot
from rulesdsl.words.explain import DEFAULT_LANGUAGE, house_sentence, phrases
from rulesdsl.words.highlight import pattern
from rulesdsl.words.rule_words import in_words

# A card named in a rule (`QS`, `10H`), as the rule grammar reads it.
CARD = re.compile(r"\b" + pattern("CARD"))
# A name of the rule language as written: `card`, `trick.number`, `hand.winner.tricks`;
# or a card named.
PATH = re.compile(CARD.pattern + r"|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


class Part(Enum):
    KEY = "key"
    VALUE = "value"
    EXTENDS = "extends"
    RULE = "rule"  # the name of a rule the profile states
    CLAUSE = "clause"  # any other text of the rule's block


@dataclass(frozen=True)
class HoverTarget:
    """The statement (or the `extends` clause, or the rule block) under the cursor; in a
    rule's clause, the name of the rule language under it (`trick.number`, up to the part
    the cursor is on)."""

    part: Part
    entry: Entry | None = None
    rule: RuleBlock | None = None
    word: str | None = None
    bound: Mapping[str, Type] = field(default_factory=dict)  # the letters bound at the word


@dataclass(frozen=True)
class HoverPlace:
    """A line and column (1-based) of a file."""

    path: str
    line: int
    column: int = 1


def _covers(pos: Pos | None, line: int, column: int) -> bool:
    """Whether 0-based `line`, `column` lies on `pos` (its end included)."""
    return (
        pos is not None
        and pos.line - 1 == line
        and pos.column - 1 <= column <= pos.column - 1 + pos.length
    )


def target_at(doc: Document, line: int, column: int) -> HoverTarget | None:
    if _covers(doc.extends_pos, line, column):
        return HoverTarget(Part.EXTENDS)
    for entry in doc.entries:
        if _covers(entry.key_pos, line, column):
            return HoverTarget(Part.KEY, entry)
        if _covers(entry.value_pos, line, column):
            return HoverTarget(Part.VALUE, entry)
    for block in doc.rules:
        if _covers(block.name_pos, line, column):
            return HoverTarget(Part.RULE, rule=block)
        if block.name_pos.line - 1 <= line < _last_line(block):
            word, bound = _word_at(doc, block, line, column)
            return HoverTarget(Part.CLAUSE, rule=block, word=word, bound=bound)
    return None


def _last_line(block: RuleBlock) -> int:
    """The block's last line (1-based): its closing brace, or its last clause in YAML."""
    return max([block.end_line, *(e.key_pos.line for e in block.entries)])


def _word_at(
    doc: Document, block: RuleBlock, line: int, column: int
) -> tuple[str | None, dict[str, Type]]:
    """The rule language's name written under 0-based `line`, `column` in one of the
    block's expressions, cut after the part the cursor is on (`trick` or `trick.number`),
    and the letters the aggregates around it bind, each with its type."""
    entry = next(
        (
            e
            for e in block.entries
            if e.key != Clause.SAY
            and e.value is not None
            and e.value_pos.line - 1 == line
            and _covers(e.value_pos, line, column)
        ),
        None,
    )
    if entry is None:
        return None, {}
    text = doc.source.splitlines()[line]
    for found in PATH.finditer(text):
        if found.start() <= column <= found.end():
            cut = text.find(".", column, found.end())
            before = text[entry.value_pos.column - 1 : found.start()].lstrip(QUOTES)
            slot = clause_slot(entry.key, before)
            bound = dict(slot.bound) if slot is not None else {}
            return text[found.start() : cut if cut >= 0 else found.end()], bound
    return None, {}


def vocabulary(word: str, bound: Mapping[str, Type] | None = None) -> Name | Attribute | None:
    """The name or attribute of the rule language a written path ends with: `trick.number`
    is a name; `card.trump` (or `c.trump`, for a letter `c` bound to a card) the attribute
    `trump`; of a letter whose type is not known, the one attribute of that name."""
    if word in NAMES:
        return NAMES[word]
    head, _, last = word.rpartition(".")
    if not head:
        return None
    said = vocabulary(head, bound)
    owner = (bound or {}).get(head) or (said.type if said is not None else None)
    if (owner, last) in ATTRIBUTES:
        return ATTRIBUTES[(owner, last)]
    named = [a for (_, name), a in ATTRIBUTES.items() if name == last]
    return named[0] if len(named) == 1 else None


def stated(name: str, chain: list[Profile]) -> list[Setting]:
    """Where each profile of the chain states the option, nearest first."""
    found = [p.settings.get(name) for p in chain]
    return [s for s in found if s is not None and s.origin == "set"]


def definition(target: HoverTarget, chain: list[Profile]) -> HoverPlace | None:
    """The parent's file for `extends`; for an option, where the chain above this profile
    sets the value (the one this statement overrides, or inherits); for a rule's name,
    where the rule it restates, overrides or removes is stated up the chain (else its own
    block); for an option's name in a rule's clause, where the profile's value is set."""
    if target.part is Part.EXTENDS:
        parent = chain[1] if len(chain) > 1 else None
        return HoverPlace(parent.path, 1) if parent is not None else None
    if target.part is Part.RULE:
        assert target.rule is not None
        above = inherited_rule(target.rule.name, chain)
        if above is not None:
            return HoverPlace(above.path, above.line, above.column)
        return HoverPlace(chain[0].path, target.rule.name_pos.line, target.rule.name_pos.column)
    if target.part is Part.CLAUSE:
        places = stated(target.word, chain) if target.word in OPTIONS else []
        return HoverPlace(places[0].path, places[0].line) if places and places[0].path else None
    assert target.entry is not None
    above = stated(target.entry.key, chain[1:])
    return HoverPlace(above[0].path, above[0].line) if above and above[0].path else None


def inherited_rule(name: str, chain: list[Profile]) -> RuleSetting | None:
    """The rule of that name the parent has (stated there or further up), if any."""
    parent = chain[1].house if len(chain) > 1 else ()
    return next((s for s in parent if s.name == name), None)


def hover(target: HoverTarget, chain: list[Profile]) -> str | None:
    """Markdown: the option's meaning, values and default, and where its value comes from
    through the `extends` chain; for `extends`, the parent and its chain; for a rule the
    profile states, its sentence, its step and what reach analysis says of it."""
    if target.part is Part.EXTENDS:
        return _parent(chain)
    if target.rule is not None:
        return _rule(target, chain)
    assert target.entry is not None
    option = OPTIONS.get(target.entry.key)
    if option is None:
        return None
    lines = [
        f"**{option.name}**: {option.description}",
        "",
        f"values: {option_values(option)}  ",
        f"default: `{option.text(option.default)}`",
    ]
    places = stated(option.name, chain)
    if places:
        lines += ["", "set through the `extends` chain, nearest first:", ""]
        lines += [f"- {_setting(s)}" for s in places]
    lines += ["", _reach(option.name, chain[0])]
    return "\n".join(lines)


def _reach(name: str, profile: Profile, stated: bool = False) -> str:
    """What reach analysis says of the option (or of the rule the profile states) in this
    profile: a proof that it never acts, or that the count model leaves it free to;
    nothing is analysed while the profile has errors, as `validate` warns of none then."""
    if not profile.ok:
        return "reach: not analysed while the profile has errors"
    never = dead_stated_rules if stated else dead_rules
    dead = never(profile.rules, budget=LINT_BUDGET).get(name)
    if dead is not None:
        return f"reach: {dead}"
    return (
        "reach: the count model does not rule it out; "
        f"`rulesdsl analyze {profile.name}` looks for a hand where it acts"
    )


def _rule(target: HoverTarget, chain: list[Profile]) -> str:
    """A stated rule: the name under the cursor, the rule's sentence (its own in English,
    else one made from its clauses), where it acts, the inherited rule it restates or takes
    away (a restatement is told as one even while its clauses have errors), the problems
    `validate` finds in its block, and its reach."""
    assert target.rule is not None
    block = target.rule
    lines = []
    said = vocabulary(target.word, target.bound) if target.word else None
    if said is not None:
        lines += [f"`{target.word}`: {said.description} ({said.type})", ""]
    elif target.word and CARD.fullmatch(target.word):
        words = phrases(DEFAULT_LANGUAGE).get("house", "words")
        lines += [f"`{target.word}`: {in_words(target.word, words)} ({Type.CARD})", ""]
    setting = next((s for s in chain[0].house if s.name == block.name and s.origin == "set"), None)
    removed = any(e.key == Clause.REMOVED for e in block.entries)
    above = inherited_rule(block.name, chain)
    deck = chain[0].settings["deck"].value  # cards named by the profile's rank order
    if setting is not None:
        rule = setting.rule
        lines.append(f"**rule** {house_sentence(rule, phrases(DEFAULT_LANGUAGE), deck)}")
        lines += ["", "acts at: " + "; ".join(f"{STEP_PLACES[s]} (`{s}`)" for s in rule.step_names)]
    else:
        state = "removed" if removed else "does not act as written: see its problems below"
        lines.append(f"**rule {block.name}**: {state}")
    if above is not None:
        verb = "takes away" if removed else "in place of" if setting else "restates"
        where = f"{short_path(above.path)}:{above.line}"
        lines += ["", f"{verb} the rule {block.name} of {above.profile} ({where})"]
        if setting is None and not removed:
            sentence = house_sentence(above.rule, phrases(DEFAULT_LANGUAGE), deck)
            lines[-1] += ":"
            lines += ["", f"> {sentence}"]
    problems = _problems(block, chain[0])
    if problems:
        lines += ["", "problems:", "", *problems]
    if setting is not None:
        lines += ["", _reach(block.name, chain[0], stated=True)]
    return "\n".join(lines)


def _problems(block: RuleBlock, profile: Profile) -> list[str]:
    """What `validate` says on the block's lines, one list item each."""
    first, last = block.name_pos.line, _last_line(block)
    return [
        f"- {d.severity} `{d.code}` at {d.line}:{d.column}: {d.shown_message}"
        + (f" ({d.shown_hint})" if d.hint else "")
        for d in profile.diagnostics
        if d.path == profile.path and first <= d.line <= last
    ]


def _setting(s: Setting) -> str:
    status = "assumed" if s.assumed else "stated"
    text = f"`{s.text}`, {status}, in {s.profile} ({short_path(s.path)}:{s.line})"
    return text + (f": {s.note}" if s.note else "")


def _parent(chain: list[Profile]) -> str | None:
    if len(chain) < 2:
        return None
    parent = chain[1]
    lines = [f"**{parent.name}**: {parent.title or '(no title)'}", ""]
    lines.append(f"file: {short_path(parent.path)}  ")
    lines.append("chain: " + " -> ".join(parent.chain))
    return "\n".join(lines)
