"""Hostile input: files that are not files, too large, too deep, too long, or out of bounds,
and text that would take over a terminal or a CI log. None may hang, crash, or leak."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples

from rulesdsl.model.cards import FULL_DECK
from rulesdsl.model.text import UNSAFE, safe_text
from rulesdsl.read import diagnostics
from rulesdsl.read.diagnostics import MAX_PROBLEMS, Diagnostic, excerpt, render
from rulesdsl.read.profile import load_file, read_source
from rulesdsl.read.sources import MAX_BYTES, SourceError, read_bytes
from rulesdsl.read.syntax.dsl import MAX_SYNTAX_ERRORS
from rulesdsl.surfaces.main import main

BAD = 'profile "x" {\n    trump hart\n}\n'
GOOD = 'profile "x" extends "equal-hands" {\n    draw 2\n}\n'
ONE_DECK = " ".join(str(card) for card in FULL_DECK)


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def sparse(path: Path, size: int = 3 * 2**30) -> Path:
    """A file of `size` bytes that takes no disk space."""
    path.touch()
    os.truncate(path, size)
    return path


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def raw(text: str) -> bool:
    """Whether printed text holds an unescaped unsafe character within a line."""
    return any(UNSAFE.search(line) for line in text.split("\n"))


def codes(path: Path, root: Path | None = None) -> list[str]:
    return [d.code for d in load_file(path, root).diagnostics]


# --- size and kind before reading ------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "code", "words"),
    [
        (fifo, "not-a-file", "named pipe"),
        (sparse, "too-large", "the file is 3.2 GB; a profile is 1 MB at most"),
        (lambda p: (p.mkdir(), p)[1], "not-a-file", "folder"),
    ],
)
def test_a_file_is_checked_for_kind_and_size_before_it_is_read(tmp_path, make, code, words):
    path = make(tmp_path / "odd.rules")
    (problem,) = load_file(path).diagnostics
    assert (problem.code, problem.line, problem.column) == (code, 1, 1)
    assert words in problem.message
    child = write(tmp_path / "child.rules", 'profile "c" extends "./odd.rules" {\n}\n')
    (problem,) = load_file(child).diagnostics
    assert problem.code == "bad-parent" and words in problem.message


def test_a_device_is_refused_by_name():
    (problem,) = load_file(Path("/dev/zero")).diagnostics
    assert problem.code == "not-a-file" and "character device" in problem.message


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_no_more_than_the_limit_is_read_whatever_the_size_says():
    # A /proc file says it holds 0 bytes and holds more: the reader stops at the limit.
    assert os.stat("/proc/self/status").st_size == 0
    with pytest.raises(SourceError, match="10 bytes at most"):
        read_bytes(Path("/proc/self/status"), limit=10)


def test_a_file_one_byte_over_the_limit_is_refused(tmp_path):
    path = write(tmp_path / "big.rules", b"#" * (MAX_BYTES + 1))
    assert codes(path) == ["too-large"]


@pytest.mark.parametrize(
    ("data", "code", "line", "column"),
    [
        (b'profile "x" {\n    ti\0tle "a"\n}\n', "binary", 2, 7),
        (b'profile "x" {\n    title "\xc3\xa9\xff"\n}\n', "encoding", 2, 13),
    ],
)
def test_a_bad_byte_is_reported_where_it_is(tmp_path, data, code, line, column):
    (problem,) = load_file(write(tmp_path / "x.rules", data)).diagnostics
    assert (problem.code, problem.line, problem.column) == (code, line, column)
    assert problem.source_line.startswith("    ti")
    assert not raw(problem.text())


def test_one_byte_order_mark_is_dropped(tmp_path):
    text, _ = read_source(write(tmp_path / "x.rules", "\ufeff" + GOOD))
    assert text == GOOD


def test_decks_files_are_read_like_profiles(tmp_path, capsys):
    play = ["play", "--bots", "lowest", "--json", "--decks"]
    decks = write(tmp_path / "decks.txt", "\ufeff" + ONE_DECK + "\n")
    code, out, _ = run(capsys, *play, decks)
    assert code == 0 and len(out.splitlines()) == 1
    for path, words in (
        (fifo(tmp_path / "pipe"), "named pipe"),
        (sparse(tmp_path / "huge"), "the file is 3.2 GB; a deck file is 1 MB at most"),
        (Path("/dev/zero"), "character device"),
        (write(tmp_path / "nul.txt", b"# x\n2C\0\n"), "decks:2:3"),
    ):
        code, out, err = run(capsys, *play, path)
        assert code == 2 and out == ""
        assert words in err.replace("--decks ", "decks:").replace(f"{path}:", "decks:")


def test_a_long_bad_deck_line_is_quoted_in_part(tmp_path, capsys):
    decks = write(tmp_path / "decks.txt", "X" * 500_000 + "\n")
    code, _, err = run(capsys, "play", "--bots", "lowest", "--decks", decks)
    assert code == 2 and len(err) < 1000


# --- depth -----------------------------------------------------------------------------------

NESTED = ["(" * 10_000, "[" * 10_000, "{" * 10_000, "[{(" * 3_000]


@pytest.mark.parametrize("nest", NESTED)
@pytest.mark.parametrize(
    "template",
    [
        'profile "x" {{\n    title {quoted}\n    source {quoted}\n    draw 1 {quoted}\n}}\n',
        "profile: x\ntitle: {quoted}\nsource: {quoted}\ndraw:\n  value: 1\n  note: {quoted}\n",
        "profile: x\ntitle: {raw}\n",
        "profile: x\nhand_size: {raw}\n",
        'profile "x" {{\n    hand_size {raw}\n}}\n',
    ],
)
def test_deep_nesting_never_ends_in_a_traceback(tmp_path, capsys, nest, template):
    suffix = ".rules" if template.startswith("profile ") else ".yaml"
    text = template.format(quoted=json.dumps(nest), raw=nest)
    path = write(tmp_path / f"deep{suffix}", text)
    for command in (
        ["validate", path],
        ["show", path],
        ["explain", path],
        ["fmt", "--check", path],
        ["convert", path, "--to", "yaml"],
        ["convert", path, "--to", "dsl"],
    ):
        code, _, _ = run(capsys, *command)
        assert code in (0, 1, 2)


# --- what is printed -------------------------------------------------------------------------


def test_a_huge_value_is_quoted_within_a_line(tmp_path, capsys):
    text = 'profile "x" {\n    trump ' + "h" * 900_000 + "\n}\n"
    code, out, _ = run(capsys, "validate", write(tmp_path / "x.rules", text))
    assert code == 1 and len(out) < 2_000


def test_a_caret_points_at_the_culprit_in_a_shortened_line():
    line = "a" * 5000 + "BAD" + "b" * 5000
    shown, column, width = excerpt(line, 5001, 3)
    assert len(shown) <= 202
    assert shown[column - 1 : column - 1 + width] == "BAD"
    problem = Diagnostic("p", 2, 5001, "c", "m", source_line=line, length=3)
    source, caret = problem.text().splitlines()[1:3]
    assert source[caret.index("^") : caret.rindex("^") + 1] == "BAD"


def test_an_escaped_culprit_keeps_its_caret():
    shown, column, width = excerpt("ab\x1b[2Jcd", 3, 1)
    assert shown == "ab\\x1b[2Jcd" and shown[column - 1 : column - 1 + width] == "\\x1b"


HOSTILE = st.text(
    st.one_of(
        st.sampled_from(list("\x1b\x07\r\n\x00\x85\u202e\u2066\u2028%:,=\\ ")), st.characters()
    ),
    max_size=40,
)


@settings(max_examples=examples(150), deadline=None)
@given(path=HOSTILE, message=HOSTILE, hint=HOSTILE, line=HOSTILE, column=st.integers(1, 50))
def test_diagnostics_print_nothing_unescaped_in_any_format(path, message, hint, line, column):
    found = [
        Diagnostic(path, 1, column, "syntax", message, hint, "error", line),
        Diagnostic(path, 2, 1, "yaml-boolean", message, "", "warning"),
    ]
    for form in ("text", "json", "github"):
        assert not raw(render(found, form))
    assert [d["message"] for d in json.loads(render(found, "json"))] == [message] * 2
    commands = render(found, "github").split("\n")
    assert len(commands) == 2
    for command, d in zip(commands, found, strict=True):
        head, _, data = command[2:].partition("::")
        level, _, properties = head.partition(" ")
        assert level == ("error" if d.is_error else "warning")
        fields = dict(item.split("=", 1) for item in properties.split(","))
        assert list(fields) == ["file", "line", "col", "title"]
        assert unescape(fields["file"]) == safe_text(path)
        assert unescape(data).startswith(safe_text(message))


def unescape(text: str) -> str:
    for code, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(code, char)
    return text


NAMES = st.text(
    st.one_of(st.sampled_from(list("\n\r:,%=\x1b\u202e")), st.characters(codec="utf-8")),
    min_size=1,
    max_size=30,
).filter(lambda n: "/" not in n and "\0" not in n and n not in (".", ".."))


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(name=NAMES)
def test_a_hostile_file_name_cannot_write_its_own_workflow_command(tmp_path, capsys, name):
    folder = tmp_path / f"case{abs(hash(name))}"
    try:
        path = write(folder / (name + ".rules"), BAD + "# ::error file=x::fake\n")
    except OSError:
        return  # a name the file system refuses
    code, out, _ = run(capsys, "validate", "--format", "github", path)
    assert code == 1
    commands = [line for line in out.splitlines() if line.startswith("::")]
    assert len(commands) == len(out.splitlines()) == 1
    assert commands[0].startswith("::error file=") and "title=bad-value::" in commands[0]


def test_shown_text_from_a_file_is_escaped_everywhere(tmp_path, capsys):
    # YAML escapes put control and bidi characters past a reader that checks the raw text;
    # whether the reader refuses them or a command prints them, nothing reaches the terminal.
    text = (
        'profile: evil\nextends: equal-hands\ntitle: "\\e]0;owned\\a\\u202e"\n'
        'source: "\\e[2J"\ndraw:\n  value: 2\n  note: "\\x9b31m\\u2066"\n'
    )
    path = write(tmp_path / "evil.yaml", text)
    for command in (
        ["show", path],
        ["show", path, "--json"],
        ["explain", path],
        ["diff", "equal-hands", path],
        ["diff", "equal-hands", path, "--format", "json"],
        ["validate", path],
        ["validate", path, "--format", "github"],
    ):
        _, out, err = run(capsys, *command)
        assert not raw(out + err), command
        if out and ("json" in command or "--json" in command):
            assert json.loads(out)


# --- reading outside the collection ----------------------------------------------------------


@pytest.fixture
def collection(tmp_path) -> Path:
    """A collection in `rules/`, and a secret beside it."""
    write(tmp_path / "secret" / "token.txt", "ghp_SECRET_TOKEN\n")
    write(tmp_path / "secret" / "deploy.yaml", "api_key: SECRET_KEY\n")
    write(tmp_path / "secret" / "outside.rules", GOOD)
    write(tmp_path / "rules" / "base.rules", GOOD)
    return tmp_path / "rules"


@pytest.mark.parametrize(
    ("ref", "code"),
    [
        ("../secret/token.txt", "not-a-profile"),
        ("../secret/deploy.yaml", "extends-outside"),
        ("../secret/outside.rules", "extends-outside"),
        ("{tmp}/secret/outside.rules", "extends-outside"),
        ("link/outside.rules", "extends-outside"),
        ("token.rules", "extends-outside"),
    ],
)
def test_extends_stays_inside_the_collection(collection, capsys, ref, code):
    (collection / "link").symlink_to(collection.parent / "secret")
    (collection / "token.rules").symlink_to(collection.parent / "secret" / "token.txt")
    ref = ref.format(tmp=collection.parent)
    child = write(collection / "child.rules", f'profile "c" extends "{ref}" {{\n}}\n')
    assert codes(child) == [code]
    for target in (child, collection):
        status, out, err = run(capsys, "validate", target)
        assert status == 1 and "SECRET" not in out + err
        assert f"error[{code}]" in out
    status, out, err = run(capsys, "show", child)
    assert status == 2 and "SECRET" not in out + err


def test_root_widens_the_collection(collection, capsys):
    text = 'profile "c" extends "../secret/outside.rules" {\n}\n'
    child = write(collection / "child.rules", text)
    assert codes(child) == ["extends-outside"]
    assert codes(child, collection.parent) == []
    code, out, _ = run(capsys, "show", "--root", collection.parent, child)
    assert code == 0 and "draw" in out
    for command in (
        ["explain", child],
        ["diff", child, "equal-hands"],
        ["diverge", child, "equal-hands", "--seed", "1"],
        ["play", "--profile", child, "--bots", "lowest", "--seed", "1", "--json"],
        ["simulate", child, "--hands", "10", "--workers", "1", "--no-skill", "--json"],
    ):
        assert run(capsys, *command)[0] == 2, command
        assert run(capsys, *command, "--root", collection.parent)[0] in (0, 1), command
    assert run(capsys, "validate", "--root", collection.parent, child)[0] == 0


def test_a_folder_validated_is_the_root_of_its_files(collection, capsys):
    child = write(collection / "sub" / "child.rules", 'profile "c" extends "../base.rules" {\n}\n')
    assert run(capsys, "validate", collection)[0] == 0
    assert run(capsys, "validate", child)[0] == 1


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("notes.txt", "password=hunter2_SECRET\n"),
        ("notes.yaml", "password: SECRET\n"),
        ("notes.rules", "SECRET = 1\n"),
    ],
)
def test_a_parent_that_is_not_a_profile_is_named_never_quoted(collection, capsys, name, text):
    write(collection / name, text)
    child = write(collection / "child.rules", f'profile "c" extends "./{name}" {{\n}}\n')
    (problem,) = load_file(child).diagnostics
    assert problem.code in ("bad-parent", "not-a-profile") and name in problem.message
    for command in (["validate", child], ["show", child], ["validate", "--format", "json", child]):
        _, out, err = run(capsys, *command)
        assert "SECRET" not in out + err


# --- the cache -------------------------------------------------------------------------------


def test_a_changed_parent_is_seen_through_its_child(tmp_path):
    parent = write(tmp_path / "parent.rules", 'profile "p" {\n    draw 1\n}\n')
    grandchild = write(tmp_path / "gc.rules", 'profile "g" extends "./child.rules" {\n}\n')
    write(tmp_path / "child.rules", 'profile "c" extends "./parent.rules" {\n}\n')
    assert load_file(grandchild).settings["draw"].value == 1
    write(parent, 'profile "p" {\n    draw 2\n}\n')  # same size, maybe the same mtime
    assert load_file(grandchild).settings["draw"].value == 2
    parent.unlink()
    assert codes(grandchild) == ["bad-parent"]


def test_an_unchanged_chain_is_read_from_the_cache(tmp_path):
    write(tmp_path / "parent.rules", 'profile "p" {\n    draw 1\n}\n')
    child = write(tmp_path / "child.rules", 'profile "c" extends "./parent.rules" {\n}\n')
    first = load_file(child)
    assert load_file(child) is first


# --- linear work -----------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".rules", ".yaml"])
def test_every_position_in_a_file_comes_from_one_line_index(tmp_path, monkeypatch, suffix):
    built = []
    real = diagnostics.LineIndex.__init__

    def counting(self, text):
        built.append(len(text))
        real(self, text)

    monkeypatch.setattr(diagnostics.LineIndex, "__init__", counting)
    diagnostics.line_index.cache_clear()
    colon = ":" if suffix == ".yaml" else ""
    body = "".join(f"# note {i}\ncolour{i}{colon} red  # why\n" for i in range(150))
    text = f'profile "x" {{\n{body}}}\n' if suffix == ".rules" else f"profile: x\n{body}"
    profile = load_file(write(tmp_path / f"many{suffix}", text))
    assert len([d for d in profile.diagnostics if d.code == "unknown-option"]) == 150
    assert len(profile.document.comments) == 300
    assert built == [len(text)]


def test_commands_name_what_a_path_is_when_it_is_not_a_file(tmp_path, capsys):
    pipe = fifo(tmp_path / "pipe.rules")
    for command in (["validate", pipe], ["validate", tmp_path], ["fmt", "--check", tmp_path]):
        code, out, err = run(capsys, *command)
        assert code == 1 and "named pipe" in out + err, command
    code, _, err = run(capsys, "show", pipe)
    assert code == 2 and "named pipe" in err


def test_a_long_command_line_value_is_quoted_in_part(capsys):
    code, _, err = run(capsys, "play", "--bots", "random", "--set", "hand_size=" + "(" * 50_000)
    assert code == 2 and "hand_size" in err and len(err) < 1000


def test_a_link_that_loops_is_named_in_a_folder_validated(tmp_path, capsys):
    (tmp_path / "loop.rules").symlink_to(tmp_path / "loop.rules")
    write(tmp_path / "child.rules", 'profile "c" extends "./loop.rules" {\n}\n')
    code, out, _ = run(capsys, "validate", tmp_path)
    assert code == 1 and "loop.rules:1:1: error[link-cycle]" in out
    assert "child.rules:1:21: error[link-cycle]" in out


@pytest.mark.parametrize("line", ["@@", "= =", "}", "draw", "draw 2"])
def test_reading_stops_after_too_many_problems(tmp_path, line):
    text = 'profile "x" {\n' + f"{line}\n" * 10_000 + "}\n"
    found = load_file(write(tmp_path / "x.rules", text)).diagnostics
    assert len(found) <= MAX_SYNTAX_ERRORS + 1
    assert len(found) == 1 or found[-1].code == "too-many-errors"


@pytest.mark.parametrize("name", ["\x1b]0;owned\x07", "\x1b[2J", "\u202eslur", "a\x9bb"])
def test_a_hostile_file_name_is_escaped_by_every_command_that_prints_it(tmp_path, capsys, name):
    path = write(tmp_path / f"{name}.rules", GOOD.replace("    ", "  "))
    sim = ["--hands", "20", "--no-skill", "--workers", "1"]
    for command in (
        ["compare", "equal-hands", path, *sim],
        ["compare", "equal-hands", path, *sim, "--csv"],
        ["simulate", path, *sim],
        ["fmt", "--check", path],
        ["fmt", "--diff", path],
        ["validate", path],
        ["show", path],
    ):
        _, out, err = run(capsys, *command)
        assert not raw(out + err), command


def test_fmt_of_a_folder_never_rewrites_a_file_a_link_leads_to_outside_it(tmp_path, capsys):
    outside = write(tmp_path / "elsewhere" / "theirs.rules", GOOD.replace("    ", "  "))
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "link.rules").symlink_to(outside)
    before = outside.read_text()
    code, _, err = run(capsys, "fmt", folder)
    assert code == 1
    assert "outside-root" in err
    assert outside.read_text() == before
    code, _, _ = run(capsys, "fmt", folder, "--root", tmp_path)
    assert code == 0
    assert outside.read_text() != before


def test_a_yaml_file_of_duplicate_keys_is_reported_in_a_few_pages(tmp_path, capsys):
    text = "profile: x\n" + "draw: 2\n" * 50_000
    code, out, _ = run(capsys, "validate", write(tmp_path / "x.yaml", text))
    assert code == 1
    assert out.count("error[") == MAX_PROBLEMS + 1
    assert "error[too-many-errors]" in out
