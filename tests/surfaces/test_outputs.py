"""Files the commands write: checked before the work, never an input, written whole."""

from __future__ import annotations

import itertools
import json
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizing import examples
from support import deck_order, deck_text

import rulesdsl.surfaces.cli.sim as sim_cli
from rulesdsl.read import outputs, sources
from rulesdsl.read.outputs import OutputError, OutputStream, check_output, replacing, write_text
from rulesdsl.surfaces.main import COMMANDS, cli, main

ORDER = deck_text(deck_order(["2C 9C 4H 8S", "3C 10C 5H JD", "4C QC 6H 9D", "5C KC 3S 7H"]))
FULL = Path("/dev/full")
needs_dev_full = pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")
PARENT = 'profile "parent" extends "equal-hands" {\n    hand_size 5\n}\n'
CHILD = 'profile "child" extends "parent.rules" {\n    elimination immediate\n}\n'


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    """The single line a failure leaves on stderr (no traceback)."""
    assert "Traceback" not in err
    (line,) = err.splitlines()
    assert line.startswith("rulesdsl: error: ")
    return line


@pytest.fixture
def chain(tmp_path: Path) -> dict[str, Path]:
    """A profile that extends a profile file, and a file of deck orders."""
    files = {"parent": PARENT, "profile": CHILD, "decks": ORDER + "\n"}
    names = {"parent": "parent.rules", "profile": "child.rules", "decks": "decks.txt"}
    paths = {role: tmp_path / names[role] for role in files}
    for role, path in paths.items():
        path.write_text(files[role], encoding="utf-8")
    return paths


@pytest.fixture
def no_simulation(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the simulation ran although its output was refused")

    monkeypatch.setattr(sim_cli, "played", refuse)


# --- check_output -------------------------------------------------------------------------


def test_a_new_file_in_an_existing_folder_may_be_written(tmp_path):
    check_output(tmp_path / "new.yaml")
    assert list(tmp_path.iterdir()) == []  # the probe leaves nothing behind


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing/x.yaml", "the folder {tmp}/missing does not exist"),
        (".", "this is a folder; name a file"),
        ("file.txt/x.yaml", "cannot write here: Not a directory"),
    ],
)
def test_an_output_that_cannot_be_written_is_refused(tmp_path, name, message):
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(OutputError) as caught:
        check_output(tmp_path / name, label="-o")
    assert str(caught.value) == f"-o {tmp_path / name}: " + message.format(tmp=tmp_path)


def test_a_read_only_file_is_refused(tmp_path):
    path = tmp_path / "x.rules"
    path.write_text("x")
    path.chmod(0o444)
    with pytest.raises(OutputError, match="read-only"):
        check_output(path)


@pytest.mark.skipif(not Path("/sys").is_dir(), reason="needs a /sys to try")
def test_a_folder_that_refuses_new_files_is_refused():
    try:
        check_output(Path("/sys/rulesdsl-probe.png"))
    except OutputError as error:
        assert "cannot write in the folder /sys" in str(error)
    else:
        pytest.skip("this system lets /sys be written")


def test_a_device_is_written_as_it_stands(tmp_path):
    check_output(Path(os.devnull))


@pytest.mark.parametrize("link", ["same", "symlink", "hardlink", "relative"])
def test_an_output_that_is_an_input_by_any_name_is_refused(tmp_path, monkeypatch, link):
    source = tmp_path / "in.rules"
    source.write_text(CHILD)
    monkeypatch.chdir(tmp_path)
    output = name_for(source, link, tmp_path / "out.yaml")
    with pytest.raises(OutputError, match="which the command reads"):
        check_output(output, [source])


def name_for(source: Path, link: str, other: Path) -> Path:
    """Another name for `source`: itself, a symbolic or hard link, or a relative path."""
    if link == "same":
        return source
    if link == "relative":
        return Path(os.path.relpath(source))
    if link == "symlink":
        other.symlink_to(source)
    else:
        os.link(source, other)
    return other


# --- writing whole ------------------------------------------------------------------------


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path):
    path = tmp_path / "x.rules"
    path.write_text("old\n")
    with pytest.raises(OutputError, match="No space left"), replacing(path) as temp:
        temp.write_text("half")
        raise OSError(28, "No space left on device")
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["x.rules"]


def test_a_write_that_fails_as_it_lands_becomes_one_message(tmp_path, monkeypatch):
    path = tmp_path / "x.rules"
    path.write_text("old\n")

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(outputs.os, "fsync", full)
    with pytest.raises(OutputError) as caught:
        write_text(path, "new\n")
    assert str(caught.value) == f"{path}: cannot write: No space left on device"
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["x.rules"]


# The steps of a write, each of which a full disk or a failing device can stop.
STEPS = ["write", "chmod", "fsync", "replace"]


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    old=st.text(max_size=200),
    new=st.text(max_size=200),
    failing=st.sampled_from([None, *STEPS]),
)
def test_a_file_is_either_the_old_one_or_the_new_one(tmp_path, monkeypatch, old, new, failing):
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "x.rules"
    path.write_text(old, encoding="utf-8", newline="")

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        if failing == "write":
            patch.setattr(outputs, "open", fail, raising=False)
        elif failing is not None:
            patch.setattr(outputs.os, failing, fail)
        try:
            write_text(path, new)
        except OutputError:
            assert failing is not None
    assert path.read_bytes() == (old if failing else new).encode("utf-8")
    assert [p.name for p in folder.iterdir()] == ["x.rules"]


def test_a_rewritten_file_keeps_its_mode_and_a_link_to_it_stays_a_link(tmp_path):
    path = tmp_path / "x.rules"
    path.write_text("old\n")
    path.chmod(0o640)
    link = tmp_path / "link.rules"
    link.symlink_to(path)
    write_text(link, "new\n")
    assert link.is_symlink() and path.read_text() == "new\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_new_file_gets_the_mode_the_umask_gives(tmp_path):
    mask = os.umask(0o027)
    try:
        write_text(tmp_path / "new.yaml", "x\n")
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "new.yaml").stat().st_mode) == 0o640


@needs_dev_full
def test_a_full_device_is_one_message():
    with pytest.raises(OutputError, match="No space left on device"):
        write_text(FULL, "x\n")


@needs_dev_full
def test_a_stream_keeps_its_failure_until_it_is_closed():
    stream = OutputStream(FULL)
    for _ in range(10_000):
        stream.write("a line of the trace\n")
    with pytest.raises(OutputError, match="No space left on device"):
        stream.close()


# --- every command, before the work -------------------------------------------------------


def test_compare_refuses_a_plot_in_a_missing_folder_before_simulating(capsys, no_simulation):
    args = ["compare", "equal-hands", "instant-elimination", "--plot", "/nonexistent/dir/x.png"]
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert "the folder /nonexistent/dir does not exist" in one_error_line(err)


def test_convert_refuses_an_output_in_a_missing_folder(tmp_path, capsys, chain):
    code, out, err = run(capsys, "convert", chain["parent"], "--to", "yaml", "-o", "/nope/x.yaml")
    assert code == 2 and out == ""
    assert "the folder /nope does not exist" in one_error_line(err)


def test_play_refuses_a_trace_in_a_missing_folder_before_playing(capsys):
    code, out, err = run(capsys, "play", "--bots", "lowest", "--trace", "/nope/t.jsonl")
    assert code == 2 and out == ""
    assert "the folder /nope does not exist" in one_error_line(err)


def test_plot_without_matplotlib_is_refused_before_simulating(capsys, monkeypatch, no_simulation):
    monkeypatch.setattr(sim_cli.importlib.util, "find_spec", lambda name: None)
    code, _, err = run(capsys, "simulate", "equal-hands", "--plot", "x.png")
    assert code == 2 and "pip install 'rulesdsl[plot]'" in one_error_line(err)


# Every option that names a file (profiles, named by name or path, are read), by command:
# whether the command reads it or writes it. A new file option fails
# test_every_file_option_is_known until it is listed here, and each output below.
FILE_OPTIONS = {
    ("play", "decks"): "input",
    ("play", "trace"): "output",
    ("simulate", "plot"): "output",
    ("compare", "plot"): "output",
    ("convert", "path"): "input",
    ("convert", "output"): "output",
    ("validate", "paths"): "input",
    ("fmt", "paths"): "input",
    # The folder the web app lists and loads profiles from; its saves are the workspace's,
    # by name, each checked (tests/surfaces/test_web_workspace.py).
    ("serve", "workspace"): "input",
    **{
        (command, "root"): "input"
        for command in (
            "analyze",
            "compare",
            "diff",
            "diverge",
            "explain",
            "fmt",
            "play",
            "show",
            "simulate",
            "skill",
            "solve",
            "validate",
        )
    },
}


def test_every_file_option_is_known():
    ctx = click.Context(cli)
    found = set()
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None
        for param in command.params:
            if isinstance(param.type, click.Path | click.File):
                found.add((name, param.name))
    assert found == set(FILE_OPTIONS)


# The files each output option's command reads, by role in the `chain` fixture.
INPUTS = {
    ("play", "trace"): ["profile", "parent", "decks"],
    ("simulate", "plot"): ["profile", "parent"],
    ("compare", "plot"): ["profile", "parent"],
    ("convert", "output"): ["profile"],
}


def test_every_output_is_tried_against_the_inputs():
    assert set(INPUTS) == {key for key, kind in FILE_OPTIONS.items() if kind == "output"}


def writing_commands(paths: dict[str, Path], output: Path) -> dict[tuple[str, str], list[object]]:
    """Each output option, with `output` given to it, in a command reading `paths`."""
    sim = ["--hands", "20", "--no-skill", "--workers", "1", "--plot", output]
    play = ["play", "--profile", paths["profile"], "--decks", paths["decks"], "--bots", "lowest"]
    return {
        ("play", "trace"): [*play, "--trace", output],
        ("simulate", "plot"): ["simulate", paths["profile"], *sim],
        ("compare", "plot"): ["compare", "equal-hands", paths["profile"], *sim],
        ("convert", "output"): ["convert", paths["profile"], "--to", "yaml", "-o", output],
    }


@pytest.mark.parametrize(
    ("command", "role", "link"),
    [
        pytest.param(command, role, link, id=f"{command[0]}-{command[1]}-{role}-{link}")
        for command, roles in INPUTS.items()
        for role, link in itertools.product(roles, ["same", "symlink", "hardlink", "relative"])
    ],
)
def test_no_command_writes_over_a_file_it_reads(
    tmp_path, capsys, monkeypatch, chain, no_simulation, command, role, link
):
    before = {path: path.read_bytes() for path in chain.values()}
    suffix = ".png" if command[1] == "plot" else ".out"
    monkeypatch.chdir(tmp_path)
    output = name_for(chain[role], link, tmp_path / f"other{suffix}")
    code, out, err = run(capsys, *writing_commands(chain, output)[command])
    assert (code, out) == (2, "")
    line = one_error_line(err)
    assert "which the command reads" in line or "must end in .png" in line
    assert {path: path.read_bytes() for path in chain.values()} == before


def test_the_writing_commands_write_when_the_output_is_another_file(tmp_path, capsys, chain):
    for command, args in writing_commands(chain, tmp_path / "result.png").items():
        code, _, err = run(capsys, *args)
        assert code == 0, (command, err)
        assert (tmp_path / "result.png").stat().st_size > 0


def test_a_trace_may_go_to_standard_output(capsys):
    code, out, _ = run(capsys, "play", "--deck", ORDER, "--bots", "lowest", "--trace", "-")
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert code == 0 and events[0]["event"] == "deal" and events[-1]["event"] == "hand_end"


# --- a write that fails after the work still shows the results ----------------------------


@needs_dev_full
def test_a_plot_that_cannot_be_written_comes_after_the_results(tmp_path, capsys):
    plot = tmp_path / "seats.png"
    plot.symlink_to(FULL)
    args = ["compare", "equal-hands", "instant-elimination", "--hands", "20", "--no-skill"]
    code, out, err = run(capsys, *args, "--workers", "1", "--json", "--plot", plot)
    assert code == 1
    assert json.loads(out)["units"] == 20
    assert "No space left on device" in one_error_line(err)


@needs_dev_full
def test_a_trace_that_cannot_be_written_comes_after_the_game(capsys):
    code, out, err = run(
        capsys, "play", "--deck", ORDER, "--bots", "lowest", "--json", "--trace", FULL
    )
    assert code == 1
    assert json.loads(out)["hand"] == 1
    assert "No space left on device" in one_error_line(err)


@needs_dev_full
def test_convert_to_a_full_device_is_one_line(capsys, chain):
    code, _, err = run(capsys, "convert", chain["parent"], "--to", "yaml", "-o", FULL)
    assert code == 1 and "No space left on device" in one_error_line(err)


# --- fmt: one file's trouble is reported, the others are done -----------------------------

UNFORMATTED = "profile x {\n  draw 1   # one\n}\n"
FORMATTED = 'profile "x" {\n    draw 1  # one\n}\n'


def test_fmt_reports_a_read_only_file_and_formats_the_others(tmp_path, capsys):
    locked, other = tmp_path / "a.rules", tmp_path / "b.rules"
    for path in (locked, other):
        path.write_text(UNFORMATTED)
    locked.chmod(0o444)
    code, out, err = run(capsys, "fmt", locked, other)
    assert code == 1
    assert one_error_line(err) == f"rulesdsl: error: {locked}: the file is read-only"
    assert locked.read_text() == UNFORMATTED and other.read_text() == FORMATTED
    assert out == f"reformatted {other}\n"


def test_fmt_leaves_a_formatted_read_only_file_alone(tmp_path, capsys):
    path = tmp_path / "a.rules"
    path.write_text(FORMATTED)
    path.chmod(0o444)
    assert run(capsys, "fmt", path) == (0, "", "")


def test_fmt_reports_an_unreadable_file_and_formats_the_others(tmp_path, capsys, monkeypatch):
    hidden, other = tmp_path / "a.rules", tmp_path / "b.rules"
    for path in (hidden, other):
        path.write_text(UNFORMATTED)
    real_open = os.open

    def refuse(path, *args, **kwargs):
        if Path(path) == hidden:
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(sources.os, "open", refuse)
    code, _, err = run(capsys, "fmt", hidden, other)
    assert code == 1
    assert f"{hidden}" in err and "Permission denied" in err and "Traceback" not in err
    assert other.read_text() == FORMATTED


def test_fmt_keeps_the_mode_of_the_file_it_rewrites(tmp_path, capsys):
    path = tmp_path / "x.rules"
    path.write_text(UNFORMATTED)
    path.chmod(0o600)
    assert run(capsys, "fmt", path)[0] == 0
    assert path.read_text() == FORMATTED
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# --- standard output ----------------------------------------------------------------------


@needs_dev_full
@pytest.mark.parametrize("args", [["list"], ["schema"], ["options"]])
def test_standard_output_on_a_full_disk_is_one_line(args):
    with FULL.open("w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "rulesdsl.surfaces", *args],
            stdout=full,
            stderr=subprocess.PIPE,
        )
    assert result.returncode == 1
    assert result.stderr.decode() == (
        "rulesdsl: error: cannot write the output: No space left on device\n"
    )


def test_a_closed_pipe_ends_the_command_quietly():
    # A match long enough that its output (240 KB) overfills the pipe.
    match = ["play", "--bots", "lowest", "--json", "--set", "match=target 300"]
    command = [sys.executable, "-m", "rulesdsl.surfaces", *match]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.readline()
        process.stdout.close()
        err = process.stderr.read()
    assert process.returncode == 1
    assert err == b""
