"""Fuzz the readers: every input ends in a Profile or in diagnostics, never an exception.

Inputs come from four sources, each written to a `.rules` and a `.yaml` file and loaded:

- DSL texts shaped like grammar/profile.lark (header, statements with names from the option
  registry, values from each option kind's words, numbers, ranges, expressions, junk, comments),
  then a few random perturbations (dropped braces, unclosed strings, stray characters, CRLF...);
- YAML texts built the same way (scalars, value/assumed/note mappings, anchors and aliases, tags,
  deep nesting, duplicate keys, YAML 1.1 booleans), perturbed the same way;
- every shipped profile, in both syntaxes, with characters and lines deleted, inserted, replaced,
  swapped, or the text truncated;
- raw bytes: random bytes, invalid UTF-8, NUL bytes, empty and whitespace-only files.

Each input must end in a Profile whose diagnostics have a position, a code, a message and
render; a Profile without errors must build its Rules and read back once written.

Sizing (a few seconds each on one core): 4 x EXAMPLES = 600 inputs, each loaded as both
syntaxes; HYPOTHESIS_PROFILE=thorough draws ten times as many.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.model.kinds import Choice, CountOrWord, DeckRanks, IntExpr, MatchKind, PlayerRange
from rulesdsl.model.rules import OPTIONS, Rules
from rulesdsl.model.units.base import MAX_VALUE, METADATA
from rulesdsl.read.diagnostics import Diagnostic
from rulesdsl.read.profile import (
    SYNTAXES,
    Profile,
    load_file,
    read_document,
    read_source,
    shipped_files,
    shipped_names,
)
from rulesdsl.read.syntax.dsl import read_dsl
from rulesdsl.read.syntax.writer import write
from rulesdsl.surfaces.main import main

# RULESDSL_FUZZ_EXAMPLES=5000 for a deeper run still.
EXAMPLES = int(os.environ.get("RULESDSL_FUZZ_EXAMPLES", examples(150)))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
_serial = itertools.count()


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


# --- checking one input ---------------------------------------------------------------------


def check_input(folder: Path, data: bytes) -> None:
    """Load `data` as both syntaxes; it must end in a Profile with well-formed diagnostics."""
    # A fresh folder per input: profiles are cached by path, modification time and size.
    here = folder / f"case{next(_serial)}"
    here.mkdir()
    for suffix in (".rules", ".yaml"):
        path = here / f"input{suffix}"
        path.write_bytes(data)
        profile = load_file(path)
        assert isinstance(profile, Profile)
        check_diagnostics(profile.diagnostics)
        text, _ = read_source(path)
        if text is not None:
            assert read_document(path, text).syntax == SYNTAXES[suffix]
        if profile.ok:
            check_round_trip(profile)
    # The readers on their own, with whatever read_source would have refused, and sniffing.
    text = data.decode("utf-8", errors="replace")
    for name in ("input.rules", "input.yaml", "input.txt"):
        check_diagnostics(read_document(here / name, text).diagnostics)


def check_diagnostics(diagnostics: list[Diagnostic]) -> None:
    for d in diagnostics:
        assert d.line >= 1 and d.column >= 1, d
        assert d.code and d.message, d
        assert isinstance(d.text(), str)


def check_round_trip(profile: Profile) -> None:
    """A profile without errors builds its Rules, and reads back without errors once written
    in either syntax."""
    assert profile.document is not None
    assert isinstance(profile.rules, Rules)
    for syntax, suffix in (("dsl", ".rules"), ("yaml", ".yaml")):
        written = write(profile.document, syntax)
        doc = read_document(Path(profile.path).with_suffix(suffix), written)
        assert doc.ok, (written, [d.text() for d in doc.diagnostics])


# --- perturbations ---------------------------------------------------------------------------

STRAY = [
    "{", "}", '"', "#", "\\", "\t", "\r", "\n", "\r\n", "\0", "..", ",", ":", "-", " ",
    "é", "²", "٣", "\u00a0", "\u2028", "\x85", "\ufeff", "\x0c", "\x01", "\x7f", "♠", "🂡",
]  # fmt: skip


@st.composite
def perturbed(draw, texts: st.SearchStrategy[str]) -> str:
    """A text with up to three small slips: a lost brace or quote, a stray character, a
    doubled or dropped line, tabs for spaces, CRLF or CR line ends, or a cut-off end."""
    text = draw(texts)
    for _ in range(draw(st.integers(0, 3))):
        text = draw(st.sampled_from(SLIPS))(draw, text)
    return text


def _at(draw, text: str) -> int:
    return draw(st.integers(0, len(text)))


def _drop_one(draw, text: str, chars: str) -> str:
    places = [i for i, c in enumerate(text) if c in chars]
    if not places:
        return text
    i = draw(st.sampled_from(places))
    return text[:i] + text[i + 1 :]


def _stray(draw, text: str) -> str:
    i = _at(draw, text)
    return text[:i] + draw(st.sampled_from(STRAY)) + text[i:]


def _line_slip(draw, text: str) -> str:
    lines = text.split("\n")
    i = draw(st.integers(0, len(lines) - 1))
    how = draw(st.sampled_from(["drop", "double", "swap"]))
    if how == "drop":
        del lines[i]
    elif how == "double":
        lines.insert(i, lines[i])
    else:
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


SLIPS = [
    lambda draw, text: _drop_one(draw, text, "{}"),
    lambda draw, text: _drop_one(draw, text, '"'),
    _stray,
    _line_slip,
    lambda draw, text: text.replace("    ", "\t"),
    lambda draw, text: text.replace("\n", draw(st.sampled_from(["\r\n", "\r", "\n\n"]))),
    lambda draw, text: text[: _at(draw, text)],
]


# --- shared pieces: names and values ---------------------------------------------------------
# Hypothesis favours the ends of an integer range, so rates are set with sampled_from.


def one_in(odds: int) -> st.SearchStrategy[bool]:
    """True about one time in `odds`."""
    return st.sampled_from([False] * (odds - 1) + [True])


def mostly(common: st.SearchStrategy, rare: st.SearchStrategy, odds: int = 10) -> st.SearchStrategy:
    """`common`, except about one time in `odds`, `rare`."""
    return one_in(odds).flatmap(lambda hit: rare if hit else common)


OPTION_NAMES = sorted(OPTIONS)
PARSED_NAMES = [n for n in OPTION_NAMES if not isinstance(OPTIONS[n].kind, Choice)]
SHIPPED_NAMES = shipped_names()
ALL_WORDS = sorted({w for o in OPTIONS.values() for w in o.kind.words()})
YAML11 = ["yes", "no", "on", "off", "y", "n", "true", "false", "Yes", "OFF", "~", "null"]
ANY_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
PRINTABLE = st.text(st.characters(categories=("L", "N", "P", "S", "Zs")), max_size=20)
JUNK = mostly(PRINTABLE, ANY_TEXT, 3)


@st.composite
def near_miss(draw) -> str:
    """An option name with one slip: a letter lost, added or changed, `-` for `_`, capitals."""
    name = draw(st.sampled_from([*OPTION_NAMES, *METADATA]))
    i = draw(st.integers(0, len(name) - 1))
    letter = draw(st.sampled_from("abcdefghijklmnopqrstuvwxyz_-0"))
    slips = [
        name[:i] + name[i + 1 :],
        name[:i] + letter + name[i:],
        name[:i] + letter + name[i + 1 :],
        name.replace("_", "-"),
        name.upper(),
    ]
    return draw(st.sampled_from(slips))


NAMES = mostly(
    st.one_of(st.sampled_from(OPTION_NAMES), st.sampled_from(PARSED_NAMES)),
    st.one_of(
        st.sampled_from(METADATA),
        near_miss(),
        st.from_regex(r"[A-Za-z_][A-Za-z0-9_\-]{0,10}", fullmatch=True),
    ),
    3,
)
NUMBERS = st.one_of(
    st.integers(-3, 60).map(str),
    st.text("0123456789", min_size=1, max_size=30),
    st.sampled_from(["-0", "+3", "3.5", "1e3", "0x10", "--5", "²", "٣", "1_000", "4.."]),
)
RANGES = st.builds(
    "{}{}{}".format,
    st.integers(-1, 12),
    st.sampled_from(["..", "..", " .. ", "...", ".", "-", "..²"]),
    st.integers(-1, 12),
)
EXPRESSIONS = st.recursive(
    st.one_of(st.just("players"), st.integers(0, 20).map(str), st.sampled_from(["plyers", "x"])),
    lambda inner: st.one_of(
        st.builds("{} {} {}".format, inner, st.sampled_from(["+", "-", "*", "/", "**"]), inner),
        inner.map("({})".format),
        inner.map("-{}".format),
        st.builds(
            "{}({})".format,
            st.sampled_from(["min", "max", "mni", "abs", ""]),
            st.lists(inner, min_size=0, max_size=3).map(", ".join),
        ),
    ),
    max_leaves=8,
)
RANKS = st.builds(
    str.join,
    st.sampled_from([" ", ", ", ",", "  "]),
    st.lists(
        st.sampled_from(["A", "K", "Q", "J", "10", "T", "9", "7", "2", "1", "11", "x", "♠", "²"]),
        max_size=14,
    ),
)
MATCHES = st.builds(
    "{} {}".format,
    st.sampled_from(["target", "hands", "targt", ""]),
    st.one_of(NUMBERS, EXPRESSIONS),
)
# Values at the size limits: deep expressions, numbers of thousands of digits.
LONG = st.builds(
    lambda unit, n: unit * n if len(unit) < 3 else unit.join(["1"] * n),
    st.sampled_from(["-", "9", "(", "players ", " + ", " * ", "min(1, ", "max("]),
    st.integers(100, 5000),
)


def kind_values(name: str) -> st.SearchStrategy[str]:
    """Values shaped for the option's kind: its words, ranges, expressions, ranks, matches."""
    option = OPTIONS.get(name)
    if option is None:
        return st.sampled_from(ALL_WORDS)
    kind = option.kind
    shaped = {
        IntExpr: st.one_of(EXPRESSIONS, NUMBERS),
        PlayerRange: st.one_of(RANGES, NUMBERS),
        DeckRanks: st.one_of(RANKS, st.just("standard")),
        CountOrWord: NUMBERS,
        MatchKind: MATCHES,
    }.get(type(kind), st.nothing())
    words = st.sampled_from(kind.words()) if kind.words() else st.nothing()
    return st.one_of(words, shaped)


def value_for(name: str) -> st.SearchStrategy[str]:
    """A value, usually one the option's kind might accept, sometimes anything at all."""
    anything = st.one_of(
        st.sampled_from([*ALL_WORDS, *YAML11]),
        NUMBERS,
        RANGES,
        EXPRESSIONS,
        RANKS,
        MATCHES,
        JUNK,
        LONG,
    )
    return mostly(kind_values(name), anything, 4)


# --- DSL texts shaped like the grammar -------------------------------------------------------

NOTE_TEXT = st.text(st.characters(exclude_categories=("Cs",), exclude_characters='"\\\n'))
DSL_STRINGS = mostly(
    PRINTABLE.map(lambda t: '"' + t.replace("\\", "/").replace('"', "'") + '"'),
    st.one_of(NOTE_TEXT.map('"{}"'.format), st.just('"a \\" quote"'), st.just('"unclosed')),
)
LABELS = mostly(
    st.one_of(
        st.sampled_from(SHIPPED_NAMES).map('"{}"'.format),
        st.sampled_from(SHIPPED_NAMES),
        near_miss().map('"{}"'.format),
    ),
    st.one_of(
        st.sampled_from(['"input.yaml"', '"input.rules"', '"../x.rules"', '""', '"/"', '"."']),
        st.integers(250, 400).map(lambda n: f'"{"x" * n}"'),
        DSL_STRINGS,
    ),
    5,
)
COMMENTS = st.one_of(
    st.just(""), mostly(PRINTABLE, NOTE_TEXT.map(lambda t: t.replace("\r", ""))).map("# {}".format)
)
INDENT = st.sampled_from(["", "    ", "  ", "\t", " \t "])


@st.composite
def dsl_statement(draw) -> str:
    name = draw(NAMES)
    words = ["assumed"] if draw(one_in(6)) else []
    words.append(name)
    if not draw(one_in(10)):
        value = draw(value_for(name))
        words.append(draw(DSL_STRINGS) if name in METADATA and draw(st.booleans()) else value)
    if draw(one_in(4)):
        words.append(draw(DSL_STRINGS))
    line = draw(INDENT) + " ".join(words)
    comment = draw(COMMENTS)
    return f"{line}  {comment}" if comment else line


@st.composite
def dsl_texts(draw) -> str:
    lines = [draw(COMMENTS) for _ in range(draw(st.integers(0, 2)))]
    header = f"profile {draw(LABELS)}"
    if draw(st.booleans()):
        header += f" extends {draw(LABELS)}"
    lines.append(header + draw(st.sampled_from([" {", "{", "\n{", " { # c"])))
    body = mostly(dsl_statement(), st.one_of(COMMENTS, st.just("")), 4)
    lines += draw(st.lists(body, max_size=12))
    lines.append(draw(st.sampled_from(["}", "}\n", "} # end", "  }  "])))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\n\n"]))


# --- YAML texts built the same way -----------------------------------------------------------

YAML_KEYS = mostly(NAMES, st.sampled_from(["profile", "extends", "value", "? a", '"q"', "1", "-"]))
TAGS = st.sampled_from(
    ["!!python/object:os.system", "!!python/name:os.system", "!!str", "!!int", "!!binary", "!x"]
)
PLAIN, ODD = "plain", "odd"
SCALAR_STYLES = mostly(
    st.sampled_from([PLAIN, PLAIN, PLAIN, "double", "single", "block"]),
    st.sampled_from(["tag", "anchor"]),
    20,
)


@st.composite
def yaml_scalar(draw, name: str, block: bool = True) -> str:
    """A scalar in any style: plain, quoted, a block scalar (where `block`), tagged, anchored."""
    value = draw(value_for(name))
    style = draw(SCALAR_STYLES)
    if style == "block" and not block:
        style = PLAIN
    if style == "double":
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if style == "single":
        return "'" + value.replace("'", "''") + "'"
    if style == "block":
        return draw(st.sampled_from(["|", ">", "|-"])) + "\n    " + value
    if style == "tag":
        return f"{draw(TAGS)} {value}"
    if style == "anchor":
        return f"&a {value}"
    return value


@st.composite
def yaml_entry(draw, name: str) -> str:
    """A mapping of value, assumed and note (sometimes with a part missing or one too many)."""
    block = draw(st.booleans())
    parts = [] if draw(one_in(10)) else [f"value: {draw(yaml_scalar(name, block))}"]
    if draw(st.booleans()):
        parts.append(f"assumed: {draw(st.sampled_from([*YAML11, 'the manual is silent']))}")
    if draw(st.booleans()):
        parts.append(f"note: {draw(yaml_scalar('note', block))}")
    if draw(one_in(10)):
        parts.append(f"{draw(NAMES)}: {draw(yaml_scalar(name, block))}")
    if block:
        return "".join(f"\n  {p}" for p in parts)
    return "{" + ", ".join(parts) + "}"


@st.composite
def yaml_odd(draw) -> str:
    """An alias, deep nesting or a list where a value belongs."""
    depth = draw(st.integers(2, 14))
    return draw(
        st.sampled_from(
            [
                "*a",
                "[" * depth + "1" + "]" * depth,
                "{a: " * depth + "1" + "}" * depth,
                "".join(f"\n{'  ' * (i + 1)}k{i}:" for i in range(depth)) + " 1",
                "\n  - a\n  - {b: c}",
                "",
            ]
        )
    )


def yaml_value(name: str) -> st.SearchStrategy[str]:
    seq = st.lists(yaml_scalar(name, block=False), max_size=4).map(", ".join).map("[{}]".format)
    return mostly(
        st.one_of(yaml_scalar(name), yaml_scalar(name), yaml_entry(name)),
        st.one_of(seq, yaml_odd()),
        8,
    )


@st.composite
def yaml_texts(draw) -> str:
    lines = [draw(COMMENTS) for _ in range(draw(st.integers(0, 2)))]
    lines += draw(mostly(st.just([]), st.sampled_from([["---"], ["%YAML 1.1\n---"], ["<<: *a"]])))
    if not draw(one_in(10)):
        lines.append(f"profile: {draw(yaml_scalar('profile'))}")
    if draw(st.booleans()):
        lines.append(f"extends: {draw(LABELS)}")
    keys = draw(st.lists(YAML_KEYS, max_size=10, unique=True))
    if keys and draw(one_in(5)):
        keys.insert(draw(st.integers(0, len(keys))), draw(st.sampled_from(keys)))
    for key in keys:
        comment = draw(COMMENTS)
        line = f"{key}: {draw(yaml_value(key))}"
        lines.append(f"{line}  {comment}" if comment and "\n" not in line else line)
    lines += draw(mostly(st.just([]), st.sampled_from([["..."], ["---\nb: 2"], ["- x"]])))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))


# --- shipped profiles, mutated ---------------------------------------------------------------


def shipped_texts() -> list[str]:
    """Every shipped profile as written, and each `.rules` one converted to YAML."""
    texts = []
    for path in shipped_files():
        if path.suffix not in SYNTAXES:
            continue
        text = path.read_text(encoding="utf-8")
        texts.append(text)
        if path.suffix == ".rules":
            texts.append(write(read_dsl(str(path), text), "yaml"))
    return texts


SHIPPED_TEXTS = shipped_texts()


@st.composite
def mutated(draw) -> str:
    text = draw(st.sampled_from(SHIPPED_TEXTS))
    for _ in range(draw(st.integers(1, 4))):
        text = draw(st.sampled_from(MUTATIONS))(draw, text)
    return text


def _span(draw, text: str) -> tuple[int, int]:
    i = _at(draw, text)
    return i, min(len(text), i + draw(st.integers(1, 8)))


def _delete(draw, text: str) -> str:
    i, j = _span(draw, text)
    return text[:i] + text[j:]


def _insert(draw, text: str) -> str:
    i = _at(draw, text)
    return text[:i] + draw(st.one_of(st.sampled_from(STRAY), JUNK)) + text[i:]


def _replace(draw, text: str) -> str:
    i, j = _span(draw, text)
    return text[:i] + draw(st.one_of(st.sampled_from(STRAY), JUNK)) + text[j:]


def _foreign_line(draw, text: str) -> str:
    lines = text.split("\n")
    other = draw(st.sampled_from(SHIPPED_TEXTS)).split("\n")
    lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(other)))
    return "\n".join(lines)


MUTATIONS = [_delete, _insert, _replace, _line_slip, _foreign_line, *SLIPS]


# --- raw bytes -------------------------------------------------------------------------------

BLANK = [b"", b" ", b"\n", b"\t \r\n  \n", b"\xef\xbb\xbf", b"\xef\xbb\xbf \n", b"\x0c\x0b"]
BAD_BYTES = [b"\xff", b"\x00", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\x80"]


@st.composite
def spoiled(draw) -> bytes:
    """A plausible profile with a byte that is not UTF-8, or a NUL, somewhere in it."""
    data = draw(st.one_of(st.sampled_from(SHIPPED_TEXTS), dsl_texts())).encode("utf-8")
    i = draw(st.integers(0, len(data)))
    return data[:i] + draw(st.sampled_from(BAD_BYTES)) + data[i:]


RAW = st.one_of(st.binary(max_size=200), st.sampled_from(BLANK), spoiled())


# --- the tests -------------------------------------------------------------------------------


@FUZZ
@given(text=st.one_of(dsl_texts(), perturbed(dsl_texts())))
def test_dsl_texts_end_in_a_profile_or_diagnostics(folder, text):
    check_input(folder, text.encode("utf-8"))


@FUZZ
@given(text=st.one_of(yaml_texts(), perturbed(yaml_texts())))
def test_yaml_texts_end_in_a_profile_or_diagnostics(folder, text):
    check_input(folder, text.encode("utf-8"))


@FUZZ
@given(text=mutated())
def test_mutated_shipped_profiles_end_in_a_profile_or_diagnostics(folder, text):
    check_input(folder, text.encode("utf-8"))


@FUZZ
@given(data=RAW)
@example(data=b"")
@example(data=b"\0")
def test_raw_bytes_end_in_a_profile_or_diagnostics(folder, data):
    check_input(folder, data)


@settings(FUZZ, max_examples=max(50, EXAMPLES // 4))
@given(
    text=st.one_of(dsl_texts(), yaml_texts(), mutated(), perturbed(yaml_texts())),
    suffix=st.sampled_from([".rules", ".yaml"]),
)
def test_what_reads_clean_converts_and_formats(folder, text, suffix):
    """A file whose text reads without a syntax error (whatever its values) converts to
    either syntax and formats: never "cannot be rewritten without changing it"."""
    here = folder / f"case{next(_serial)}"
    here.mkdir()
    path = here / f"input{suffix}"
    path.write_text(text, encoding="utf-8", newline="")
    source, _ = read_source(path)
    if source is None or not read_document(path, source).ok:
        return
    for syntax in ("dsl", "yaml"):
        assert main(["convert", str(path), "--to", syntax]) == 0, (syntax, text)
    assert main(["fmt", str(path)]) == 0


def test_the_shipped_profiles_survive_the_checks(folder):
    for text in SHIPPED_TEXTS:
        check_input(folder, text.encode("utf-8"))


# --- what the fuzzer found -------------------------------------------------------------------

LONG_NAME = "x" * 300
CRASHES = [
    # yaml.reader.ReaderError escaped: control characters are refused before parsing.
    ("ctrl.yaml", "profile: x\ntitle: a\x01b\n", "control-character", 2, 9),
    ("ctrl-comment.yaml", "# \x1f\nprofile: x\n", "control-character", 1, 3),
    ("ctrl-in-dsl.yaml", '# \x1b\nprofile "bicycle" {\n}', "control-character", 1, 3),
    # OSError (file name too long) escaped while looking for the parent.
    ("long.rules", f'profile "x" extends "{LONG_NAME}" {{\n}}\n', "unknown-profile", 1, 21),
    ("long.yaml", f"profile: x\nextends: {LONG_NAME}\n", "unknown-profile", 2, 10),
    # ValueError escaped: int() of text that str.isdigit() accepts but int() does not.
    ("dashes.rules", 'profile "x" {\n    draw --5\n}\n', "bad-value", 2, 10),
    ("square.rules", 'profile "x" {\n    draw ²\n}\n', "bad-value", 2, 10),
    ("square-range.rules", 'profile "x" {\n    players ²..6\n}\n', "bad-value", 2, 13),
    ("square-rank.rules", 'profile "x" {\n    deck A K ²\n}\n', "bad-value", 2, 10),
    ("square-expr.rules", 'profile "x" {\n    hand_size ²\n}\n', "bad-value", 2, 15),
    ("square-match.yaml", "profile: x\nmatch: target ²\n", "bad-value", 2, 8),
    # ValueError (more than 4300 digits) and RecursionError (deep expressions) escaped.
    ("digits.rules", f'profile "x" {{\n    draw {"9" * 5000}\n}}\n', "bad-value", 2, 10),
    ("digits-expr.rules", f'profile "x" {{\n    hand_size {"9" * 5000}\n}}\n', "bad-value", 2, 15),
    (
        "sum.rules",
        f'profile "x" {{\n    hand_size {"+".join("1" * 3000)}\n}}\n',
        "bad-value",
        2,
        15,
    ),
    ("neg.yaml", f"profile: x\nhand_size: {'-' * 3000}1\n", "bad-value", 2, 12),
    # Not a crash: a note on metadata was accepted, and the writer made it unreadable DSL.
    ("meta-note.rules", 'profile "x" {\n    title .. "a note"\n}\n', "metadata-note", 2, 5),
    # Not a crash: `assumed` on metadata was accepted, and the writer made it unreadable YAML.
    ("meta-assumed.rules", 'profile "x" {\n    assumed title t\n}\n', "metadata-assumed", 2, 13),
    # In YAML the title is text, not a mapping (as the schema says).
    ("meta-note.yaml", "profile: x\ntitle:\n  value: a\n  note: b\n", "yaml-shape", 3, 3),
    # Not a crash: a rule's clause said twice read as a document without errors, and YAML
    # could not hold it ("cannot be rewritten": the reader reports it, as it does an option).
    (
        "twice.rules",
        'profile "x" {\n    rule r {\n        end after trick 8\n        end after trick 8\n'
        "        winner none\n    }\n}\n",
        "duplicate-key",
        4,
        9,
    ),
    (
        "said-twice.rules",
        'profile "x" {\n    rule r {\n        draw 2\n        say en "a"\n        say pt "b"\n'
        '        say en "c"\n    }\n}\n',
        "duplicate-key",
        6,
        9,
    ),
]


@pytest.mark.parametrize(("name", "text", "code", "line", "column"), CRASHES)
def test_what_the_fuzzer_found_ends_in_a_diagnostic(folder, name, text, code, line, column):
    path = folder / name
    path.write_text(text, encoding="utf-8")
    profile = load_file(path)
    assert [(d.code, d.line, d.column) for d in profile.diagnostics] == [(code, line, column)]
    check_input(folder, text.encode("utf-8"))


def test_values_up_to_the_length_limit_are_read(folder):
    expression = "players" + " + 0" * 47 + " - 00"  # MAX_VALUE characters
    assert len(expression) == MAX_VALUE
    for value, ok in ((expression, True), (expression + "0", False)):
        path = folder / f"limit{len(value)}.rules"
        path.write_text(f'profile "x" {{\n    hand_size {value}\n}}\n', encoding="utf-8")
        profile = load_file(path)
        assert profile.ok is ok, profile.diagnostics
        if ok:
            assert profile.rules.hand_size_for(4) == 4


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ('profile "x" {\n    # a\x01b\n}\n', "control-character"),
        ('profile "x" {\n    # a\u2028b: [\n}\n', "control-character"),
        ('# a\rb: [\nprofile "x" {\n}\n', "control-character"),
        ("profile: x\nplayers: '3\n\n  ..6'\n", "multi-line"),
    ],
)
def test_what_the_other_syntax_could_not_keep_is_refused(folder, text, code):
    path = folder / ("convert.rules" if text.startswith("profile ") else "convert.yaml")
    path.write_text(text, encoding="utf-8")
    assert [d.code for d in load_file(path).diagnostics] == [code]


def test_a_clause_said_twice_stops_convert_with_its_diagnostic(folder, capsys):
    path = folder / "twice-convert.rules"
    path.write_text('profile "x" {\n    rule r {\n        draw 1\n        draw 2\n    }\n}\n')
    assert main(["convert", str(path), "--to", "yaml"]) == 2
    err = capsys.readouterr().err
    assert "error[duplicate-key]: `draw` is said twice in this rule" in err
    assert "please report" not in err
