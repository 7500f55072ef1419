"""Every reader of a user's file, as a class: files of any size up to a terabyte (sparse),
cycles of symbolic links of any length anywhere on a path, and deck files with a foreign
character, another encoding or a line of any length. Each is refused in the user's terms,
naming the file (and the line and column, where there is one), its text escaped and cut:
no hang, no traceback."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.model.cards import FULL_DECK, MAX_ORDER
from rulesdsl.model.text import UNSAFE
from rulesdsl.read.profile import load_file
from rulesdsl.read.sources import MAX_BYTES, human_size, read_bytes
from rulesdsl.surfaces.main import main
from rulesdsl.surfaces.web.errors import ApiError
from rulesdsl.surfaces.web.workspace import Workspace

GOOD = 'profile "x" extends "equal-hands" {\n    draw 2\n}\n'
ONE_DECK = " ".join(str(card) for card in FULL_DECK)
PLAY = ["play", "--bots", "lowest", "--json", "--decks"]
_serial = itertools.count()
FIXTURES = [HealthCheck.function_scoped_fixture]


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def raw(text: str) -> bool:
    """Whether printed text holds an unescaped control or bidi character within a line."""
    return any(UNSAFE.search(line) for line in text.split("\n"))


def fresh(tmp_path: Path) -> Path:
    """A new folder for one drawn example."""
    folder = tmp_path / f"case{next(_serial)}"
    folder.mkdir()
    return folder


# --- size: said as people say it, before anything is read ----------------------------------

SIZES = st.one_of(
    st.integers(MAX_BYTES + 1, MAX_BYTES + 2000),
    st.integers(MAX_BYTES + 1, 2**40),
    st.sampled_from([100 * 10**6, 8 * 2**30, 2**40]),
)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=FIXTURES)
@given(size=SIZES)
def test_a_file_over_the_limit_is_refused_by_its_size_in_every_reader(tmp_path, capsys, size):
    folder = fresh(tmp_path)
    big = folder / "big.rules"
    big.touch()
    os.truncate(big, size)  # sparse: no disk space, and reading it would take an age
    shown = human_size(size) if human_size(size) != human_size(MAX_BYTES) else f"{size:,} bytes"
    (problem,) = load_file(big).diagnostics
    assert (problem.code, problem.line, problem.column) == ("too-large", 1, 1)
    assert problem.message.startswith(f"the file is {shown}; a profile is ")
    child = folder / "child.rules"
    child.write_text('profile "c" extends "./big.rules" {\n}\n', encoding="utf-8")
    (parent,) = load_file(child).diagnostics
    assert parent.code == "bad-parent" and f"the file is {shown}" in parent.message
    code, out, err = run(capsys, *PLAY, big)
    assert (code, out) == (2, "")
    assert f"--decks {big}: the file is {shown}; a deck file is " in err
    with pytest.raises(ApiError) as refused:
        Workspace(folder, 64 * 1024).read("big.rules")
    assert refused.value.status == 413 and f"the file is {human_size(size)}" in str(refused.value)


def test_sizes_are_said_in_units_people_use():
    said = {n: human_size(n) for n in (1, 999, 1500, 65_536, 10**6, 10**8, 8 * 2**30, 2**40)}
    assert said == {
        1: "1 byte",
        999: "999 bytes",
        1500: "1.5 KB",
        65_536: "66 KB",
        10**6: "1 MB",
        10**8: "100 MB",
        8 * 2**30: "8.6 GB",
        2**40: "1.1 TB",
    }


def test_a_file_just_over_the_limit_is_said_in_bytes(tmp_path):
    path = tmp_path / "x.rules"
    path.write_bytes(b"#" * (MAX_BYTES + 1))
    (problem,) = load_file(path).diagnostics
    assert problem.message == "the file is 1,000,001 bytes; a profile is 1,000,000 bytes at most"


# --- cycles of symbolic links ---------------------------------------------------------------

# Names a link may have: plain, and (on the command line, since a profile refuses them)
# ones that would take over a terminal if printed raw.
PLAIN_NAMES = st.sampled_from(["loop", "a b", "dots..", "ünï"])
LINK_NAMES = st.one_of(PLAIN_NAMES, st.sampled_from(["x\x1b[2J", "\u202eevil", "a\x9bb"]))


def cycle(folder: Path, length: int, name: str) -> Path:
    """`length` links in `folder`, each to the next, the last to the first; the first."""
    links = [folder / f"{name}{i}" for i in range(length)]
    for link, target in zip(links, links[1:] + links[:1], strict=True):
        link.symlink_to(target.name)
    return links[0]


@settings(max_examples=examples(20), deadline=None, suppress_health_check=FIXTURES)
@given(length=st.integers(1, 4), name=PLAIN_NAMES, depth=st.integers(0, 3))
def test_a_cycle_of_links_on_the_way_to_a_parent_is_named(tmp_path, capsys, length, name, depth):
    folder = fresh(tmp_path)
    first = cycle(folder, length, name)
    ref = "/".join([first.name, *["sub"] * depth, "parent.rules"])
    child = folder / "child.rules"
    child.write_text(f'profile "c" extends "./{ref}" {{\n}}\n', encoding="utf-8")
    (problem,) = load_file(child).diagnostics
    assert (problem.code, problem.line, problem.column) == ("link-cycle", 1, 21)
    assert "leads round in a cycle of links" in problem.message
    assert first.name in problem.message
    code, out, err = run(capsys, "validate", folder)
    assert code == 1 and not raw(out + err)
    assert "error[link-cycle]" in out


@settings(max_examples=examples(20), deadline=None, suppress_health_check=FIXTURES)
@given(length=st.integers(1, 4), name=LINK_NAMES, depth=st.integers(0, 2))
def test_a_path_through_a_cycle_of_links_is_named_by_every_command(
    tmp_path, capsys, length, name, depth
):
    folder = fresh(tmp_path)
    first = cycle(folder, length, name)
    inside = Path(first, *["sub"] * depth)
    for command, status in (
        (["validate", inside], 1),
        (["validate", inside / "x.rules"], 1),
        (["show", inside / "x.rules"], 2),
        (["fmt", "--check", inside], 1),
        (["convert", inside / "x.rules", "--to", "yaml"], 2),
        (["validate", "--root", inside, folder / "none.rules"], 2),
        ([*PLAY, inside / "decks.txt"], 2),
    ):
        code, out, err = run(capsys, *command)
        assert code == status, command
        assert "leads round in a cycle of links" in out + err, command
        assert not raw(out + err), command


def test_patterns_never_walk_round_links_in_a_cycle(tmp_path, capsys):
    # Two links back to the top: a walk that followed them would visit 2**40 folders.
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "up").symlink_to("..")
    (tmp_path / "sub" / "again").symlink_to("..")
    (tmp_path / "sub" / "x.rules").write_text(GOOD, encoding="utf-8")
    code, _, err = run(capsys, "validate", tmp_path / "**" / "*.rules")
    assert code == 0 and "1 file(s) checked" in err


def test_a_link_is_refused_where_links_are_not_followed(tmp_path):
    (tmp_path / "x.rules").write_text(GOOD, encoding="utf-8")
    (tmp_path / "link.rules").symlink_to("x.rules")
    with pytest.raises(Exception, match="this is a symbolic link, not a file"):
        read_bytes(tmp_path / "link.rules", follow=False)


# --- deck files -----------------------------------------------------------------------------

FOREIGN = st.one_of(
    st.sampled_from(
        [
            "\u041a",
            "\uff33",
            "\u00a0",
            "\u200b",
            "\u202e",
            "\x1b",
            "\x07",
            "\x85",
            "é",
            "🂡",
            "\u0301",
            ";",
        ]
    ),
    st.characters(
        blacklist_categories=("Cs",),
        blacklist_characters="\n\r\t ,#",
    ).filter(lambda c: not (c.isascii() and c.isalnum()) and c not in "♣♦♥♠♧♢♡♤"),
)
PREAMBLE = st.lists(st.sampled_from(["", "# a comment", "   ", ONE_DECK]), max_size=4)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=FIXTURES)
@given(before=PREAMBLE, char=FOREIGN, at=st.integers(0, len(ONE_DECK)))
def test_a_foreign_character_in_a_deck_is_named_at_its_line_and_column(
    tmp_path, capsys, before, char, at
):
    line = ONE_DECK[:at] + char + ONE_DECK[at:]
    path = fresh(tmp_path) / "decks.txt"
    path.write_text("\n".join([*before, line, ONE_DECK]) + "\n", encoding="utf-8")
    code, out, err = run(capsys, *PLAY, path)
    assert (code, out) == (2, "")
    assert err.startswith(f"rulesdsl: error: --decks {path}:{len(before) + 1}:{at + 1}: ")
    if char == "\x00":
        assert "a NUL byte: this is a binary file" in err
    else:
        assert f"U+{ord(char):04X}" in err and "is not part of a card" in err
    assert len(err.splitlines()) == 1 and not raw(err)


@settings(max_examples=examples(20), deadline=None, suppress_health_check=FIXTURES)
@given(length=st.integers(MAX_ORDER + 1, MAX_BYTES // 2), before=PREAMBLE)
def test_a_deck_line_too_long_is_refused_before_its_cards_are_read(
    tmp_path, capsys, length, before
):
    line = ("AS " * (length // 3 + 1))[:length]
    path = fresh(tmp_path) / "decks.txt"
    path.write_text("\n".join([*before, line]) + "\n", encoding="utf-8")
    code, _, err = run(capsys, *PLAY, path)
    assert code == 2 and len(err) < 400
    assert err.startswith(f"rulesdsl: error: --decks {path}:{len(before) + 1}: ")
    assert f"this is {length:,} characters; a deck order is {MAX_ORDER:,} at most" in err


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (ONE_DECK.replace("QC", "QÇ").encode("latin-1"), ":1:{}: byte 0xc7 is not valid UTF-8"),
        (ONE_DECK.encode("utf-16"), ": this file is UTF-16 text"),
        (ONE_DECK.encode("utf-32"), ": this file is UTF-32 text"),
        (ONE_DECK.encode("utf-16-le"), ":1:2: a NUL byte: this is a binary file"),
        (b"\x7fELF\x02\x01\x01" + bytes(range(256)), ":1:8: a NUL byte"),
        ((("X" * 300 + " ") * 4).encode(), ":1: this is 1,204 characters; a deck order is"),
        (("XXXX" * 100).encode(), ":1:1: 'XXXXX…' is not a card"),
    ],
)
def test_a_deck_file_that_is_not_one_is_refused_in_one_escaped_line(tmp_path, capsys, data, said):
    path = tmp_path / "decks.txt"
    path.write_bytes(data + b"\n")
    code, out, err = run(capsys, *PLAY, path)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and not raw(err) and len(err) < 600
    assert said.format(ONE_DECK.index("QC") + 2) in err


# --- the command line's other readers --------------------------------------------------------

LONG_DIGITS = "9" * 5_000  # past the digits Python reads as a number by default


@pytest.mark.parametrize(
    "args",
    [
        ["--bots", f"pimc:{LONG_DIGITS}"],
        ["--bots", f"ismcts:{LONG_DIGITS}", "--players", "3"],
        ["--bots", "\x1b]0;owned\x07random"],
        ["--bots", "x" * 100_000],
        ["--bots", "random", "--seed", LONG_DIGITS],
        ["--bots", "random", "--set", "x" * 100_000 + "=1"],
        ["--bots", "random", "--deck", "1" * 5_000 + "H"],
        ["--bots", "random", "--deck", "1" * 500 + "H \u202e"],
    ],
)
def test_a_hostile_command_line_value_is_refused_in_one_short_escaped_line(capsys, args):
    code, out, err = run(capsys, "play", *args)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and len(err) < 600 and not raw(err)
