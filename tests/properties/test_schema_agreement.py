"""`rulesdsl validate` and the JSON Schema of `rulesdsl schema` give the same verdict.

Documents are drawn with keys from the registry and misspelt ones, and values of every
type: words, numbers, booleans, nulls, lists, text with escapes and line breaks, and
mappings of value, assumed and note with wrong types and extra keys. Each is judged by the
validator (errors only; warnings do not fail it) and by a JSON Schema validator on the
document as YAML 1.2 reads it (as editors and schema checkers do), with the tests' own
loader of the YAML 1.2 core schema (conftest.py) rather than the one rulesdsl uses.

What the schema cannot say is not drawn, and is stated here:
- a key given twice (JSON objects have none; the validator reports it);
- whether `extends` names a profile that exists (only shipped names are drawn);
- checks across options: the deal must fit the deck for every player count (only player
  counts, hand sizes and decks that fit together are drawn, and no other integer hand
  size);
- within an option's kind, the schema's patterns are looser than the kind: a player range
  beyond 10, an expression naming something other than `players`, a match rule's count,
  a word padded with spaces, `deck: [standard]`. Misspelt values are drawn for the
  options of fixed words;
- of the rules a profile states (`rules:`), whether a clause reads and type-checks in the
  rule language, that a rule has one kind clause (and an end rule a winner), that a
  profile counts draws and scores once each, and whether `removed` names an inherited
  rule: the rules drawn are the shipped ones (a count may be a whole number), misshapen
  (wrong types, unknown clauses, languages and names, refused text), never `removed`.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples
from support import Yaml12Loader

from rulesdsl.model.kinds import Choice
from rulesdsl.model.language.rule import Clause, RuleKind
from rulesdsl.model.rules import OPTIONS
from rulesdsl.read.profile import SHIPPED_FOLDERS, load_file
from rulesdsl.read.schema import profile_schema
from rulesdsl.read.syntax.document import RULES_KEY
from rulesdsl.read.syntax.dsl import read_dsl

_serial = itertools.count()


# --- documents as data, then as YAML text ----------------------------------------------------


@dataclass(frozen=True)
class Raw:
    """YAML source written as it is: a plain scalar, an escape, an empty value."""

    text: str


@dataclass(frozen=True)
class Block:
    """A block scalar: `|`, `|-`, `>` or `>-` and its lines."""

    style: str
    lines: tuple[str, ...]


def flow(value) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "~"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    return repr(value)


def block(value, indent: str) -> str:
    """What follows `key:` for `value`, its nested lines indented under `indent`."""
    if isinstance(value, dict):
        return "".join(f"\n{indent}  {k}:{block(v, indent + '  ')}" for k, v in value.items())
    if isinstance(value, Block):
        return f" {value.style}" + "".join(f"\n{indent}  {line}" for line in value.lines)
    text = flow(value)
    return f" {text}" if text else ""


def render(document) -> str:
    if not isinstance(document, dict):
        return flow(document) + "\n"
    return "".join(f"{k}:{block(v, '')}\n" for k, v in document.items())


# --- what is drawn ---------------------------------------------------------------------------


def mostly(common: st.SearchStrategy, rare: st.SearchStrategy) -> st.SearchStrategy:
    """`common` four times in five, else `rare`."""
    return st.integers(0, 4).flatmap(lambda i: rare if i == 0 else common)


CHOICES = sorted(n for n, o in OPTIONS.items() if isinstance(o.kind, Choice))
# Values that fit together for every option that is not a fixed word.
FITTING = {
    "players": [Raw("3..6"), "3..6", Raw("4..5"), 4, 5, 6, "4"],
    "deck": [
        Raw("standard"),
        "standard",
        Raw("A K Q J 10 9 8 7 6 5 4 3 2"),
        ["A", "K", "Q", "J", 10, 9, 8, 7, 6, 5, 4, 3, 2],
    ],
    "hand_size": [Raw("players"), Raw("players + 1"), 5, "5", Raw("min(players, 6)")],
    "draw": [0, 1, 2, "1", Raw("per_card_in_trick")],
    "match": [Raw("target 3"), Raw("hands players"), "hands 2"],
}
WRONG_FOR_ALL = [None, Raw(""), True, False, 2.5, "", ["a", "b"], []]
# Wrong for every option but hand_size, where the deal (counts) or the expression (names)
# refuses them, which the schema cannot say.
NOT_FOR_HAND_SIZE = [0, -1, 11, Raw("x")]
ERRORS_IN_TEXT = [
    Raw('"a\\nb"'),
    Raw('"\\e]0;title\\a"'),
    Raw('"\\x1b[31mred"'),
    Raw('"a\\u202eb"'),
    Raw('"\\u2066x"'),
    Block("|", ("one line",)),
    Block(">", ("two", "lines")),
]
GOOD_TEXT = [
    "Our rules",
    Raw("Our rules"),
    Raw("'single: quoted'"),
    'with # and "quotes" and : colons',
    "ünïcødé ♠",
    Raw('"tab\\there"'),
    Block("|-", ("a block # not a comment",)),
    Block(">-", ("folded", "lines")),
    Raw("no"),
    "",
]
TEXT = mostly(
    st.sampled_from(GOOD_TEXT),
    st.sampled_from([*ERRORS_IN_TEXT, 1984, 2.5, True, None, ["a"], {"a": "b"}]),
)


def words(name: str) -> list:
    option = OPTIONS[name]
    if isinstance(option.kind, Choice):
        chosen = list(option.kind.words())
        return [*map(Raw, chosen), *chosen, Raw(chosen[0].upper()), Raw(chosen[0][:-1] + "x")]
    return FITTING[name]


def scalar_value(name: str) -> st.SearchStrategy:
    return mostly(
        st.sampled_from(words(name)),
        st.one_of(
            st.sampled_from(WRONG_FOR_ALL + ([] if name == "hand_size" else NOT_FOR_HAND_SIZE)),
            # deck takes a list of ranks, drawn with its words; `[standard]` is its kind's
            # own question (the kind reads it, the schema's ranks refuse it).
            st.lists(st.sampled_from(words(name)), min_size=1, max_size=3)
            if name != "deck"
            else st.just(["a", "b"]),
        ),
    )


def option_value(name: str) -> st.SearchStrategy:
    """A value: plain, or a mapping of value, assumed and note, right or wrong."""
    part = {
        "value": st.one_of(scalar_value(name), st.just({"a": "b"})),
        "assumed": mostly(
            st.sampled_from([True, False, Raw("yes"), "no", "the manual is silent"]),
            st.sampled_from([3, None, ["x"], Raw('"\\a"')]),
        ),
        "note": TEXT,
        "asumed": st.just(True),
        "notes": st.just("a note"),
    }
    keys = st.lists(
        st.sampled_from(["value"] * 3 + ["assumed", "note", "asumed", "notes"]),
        unique=True,
        max_size=3,
    )
    detailed = keys.flatmap(lambda ks: st.fixed_dictionaries({k: part[k] for k in ks}))
    return mostly(scalar_value(name), detailed)


def shipped_rules() -> dict[str, dict]:
    """Each rule a shipped profile states, as YAML data: its name to its clauses."""
    found = {}
    for path in sorted(SHIPPED_FOLDERS[-1].glob("*.rules")):
        for block in read_dsl(str(path), path.read_text(encoding="utf-8")).rules:
            body: dict = {}
            for e in block.entries:
                if e.key == Clause.SAY:
                    body.setdefault(Clause.SAY, {})[e.value] = e.note
                else:
                    body[e.key] = e.value
            found[block.name] = body
    return found


RULES = shipped_rules()
WRONG_CLAUSE = [True, None, 2.5, ["a"], {"a": "b"}, "draw 1 # one", "a {b}", *ERRORS_IN_TEXT]


def misshapen(body: dict) -> st.SearchStrategy:
    """The rule with one thing wrong: a clause's value, an unknown clause or language, a
    sentence that is not text, `removed` as a clause, or no clause at all."""
    clause = sorted(k for k in body if k != Clause.SAY)[0]
    return st.one_of(
        st.sampled_from(WRONG_CLAUSE).map(lambda v: {**body, clause: v}),
        st.just({**body, "drow": "1"}),
        st.just({**body, Clause.SAY: {"fr": "un"}}),
        st.sampled_from([1984, None, True, ["a"], *ERRORS_IN_TEXT[:3]]).map(
            lambda v: {**body, Clause.SAY: {"en": v}}
        ),
        st.just({**body, Clause.SAY: "one"}),
        st.just({**body, Clause.REMOVED: True}),
        st.just({}),
    )


def rule_body(name: str) -> st.SearchStrategy:
    body = RULES[name]
    counts = [k for k in (RuleKind.DRAW, RuleKind.SCORE) if k in body]
    good = st.sampled_from([body, *({k: 2} for k in counts)])
    return mostly(good, st.one_of(misshapen(body), st.sampled_from([None, ["draw"], 3, "x"])))


@st.composite
def rules_value(draw):
    """The `rules` mapping: shipped rules, right or wrong, a misspelt name, or no mapping."""
    if draw(st.integers(0, 10)) == 0:
        return draw(st.sampled_from([None, ["a"], "x", 3, {}]))
    names = draw(st.lists(st.sampled_from(sorted(RULES)), unique=True, min_size=1, max_size=3))
    value = {name: draw(rule_body(name)) for name in names}
    if draw(st.integers(0, 10)) == 0:
        value["2r"] = {RuleKind.DRAW: 1}
    return value


KEYS = st.sampled_from(
    [*OPTIONS, *OPTIONS, "hadn_size", "Trump", "title", "source", *[RULES_KEY] * 2]
)
HEADER = {
    "profile": mostly(TEXT, st.sampled_from([3, None, ["a", "b"], {"value": "x"}])),
    "extends": mostly(
        st.sampled_from(["equal-hands", Raw("bicycle"), Raw("seven-card-hands")]),
        st.sampled_from([["equal-hands"], 7, None, {"value": "bicycle"}]),
    ),
}


@st.composite
def documents(draw):
    if draw(st.integers(0, 30)) == 0:
        return draw(st.sampled_from([["a", "b"], Raw("just text"), Raw("")]))
    document = {}
    for key in ("profile", "extends"):
        if draw(st.integers(0, 5)) > (0 if key == "profile" else 3):
            document[key] = draw(HEADER[key])
    for key in draw(st.lists(KEYS, unique=True, max_size=6)):
        if key in OPTIONS:
            document[key] = draw(option_value(key))
        elif key == RULES_KEY:
            document[key] = draw(rules_value())
        else:
            document[key] = draw(TEXT if key in ("title", "source") else scalar_value("trump"))
    return document


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("agree")


SCHEMA = jsonschema.Draft7Validator(profile_schema())


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=documents())
def test_validate_and_the_schema_agree(folder, document):
    text = render(document)
    path = folder / f"p{next(_serial)}.yaml"
    path.write_text(text, encoding="utf-8")
    profile = load_file(path)
    instance = yaml.load(text, Loader=Yaml12Loader)
    schema_errors = [e.message for e in SCHEMA.iter_errors(instance)]
    validator_errors = [d.text() for d in profile.diagnostics if d.is_error]
    assert (not validator_errors) == (not schema_errors), (text, validator_errors, schema_errors)


@pytest.mark.parametrize(
    "text",
    [
        "profile: [a, b]\n",
        "profile: x\nextends: [equal-hands]\n",
        "profile: x\ntrump:\n  value: none\n  note: 3\n",
        "profile: x\ntitle: 1984\n",
        "profile: x\ntrump: [none]\n",
        "profile: x\ntrump:\n  value: none\n  assumed: 3\n",
        "profile: x\ntrump:\n  value: none\n  assumed: silent\n  note: a\n",
        "profile: x\ntitle:\n",
        'profile: x\ntitle: "a\\u202eb"\n',
        "profile: x\nrules:\n  r:\n    draw: true\n",
        "profile: x\nrules:\n  r:\n    draw: '1 # one'\n",
        "profile: x\nrules:\n  r:\n    draw: 1\n    say: {fr: un}\n",
        "profile: x\nrules:\n  r: {}\n",
    ],
)
def test_what_the_schema_refuses_validate_refuses(folder, text):
    path = folder / f"p{next(_serial)}.yaml"
    path.write_text(text, encoding="utf-8")
    assert not SCHEMA.is_valid(yaml.load(text, Loader=Yaml12Loader))
    assert not load_file(path).ok


def test_what_validate_accepts_the_schema_accepts(folder):
    text = 'profile: x\ndraw: "2"\nmust_head: no\ndeck: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2]\n'
    text += "rules:\n  two:\n    draw: 2\n    say: {en: Two cards.}\n"
    path = folder / f"p{next(_serial)}.yaml"
    path.write_text(text, encoding="utf-8")
    assert load_file(path).ok
    assert SCHEMA.is_valid(yaml.load(text, Loader=Yaml12Loader))
