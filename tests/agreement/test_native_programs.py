"""The stated rules as native code (`native/programs.py`): the interpreter written out for a
plan's programs plays the hands the interpreter plays, picks every word's meaning as its text
is made, works out only what the compiled code would compute alike, and is kept in the
kernel cache like the kernel."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizing import examples

pytest.importorskip("numba", reason="numba is not installed: pip install 'rulesdsl[fast]'")

import numba
from numba.core.ccallback import CFunc
from numba.core.errors import NumbaError

from rulesdsl.play.kernel.compiled import chunks, compiled_profile
from rulesdsl.play.kernel.machine import WIDTH
from rulesdsl.play.kernel.plan import kernel_plan
from rulesdsl.play.native import ENV, programs
from rulesdsl.read.profile import load, load_text, shipped_names

STATING = [name for name in shipped_names() if load(name).rules.house_rules]


def rules_text(name: str) -> str:
    plan = kernel_plan(load(name).rules)
    return programs.function_text(plan.program[: plan.program_len * WIDTH])


def test_the_shipped_profiles_that_state_rules_are_many():
    assert len(STATING) >= 10


@pytest.mark.parametrize("name", STATING)
def test_a_profiles_rules_as_native_code_play_the_hands_of_the_interpreter(name, monkeypatch):
    monkeypatch.setenv(ENV, "1")
    profile = compiled_profile(load(name).rules, 4, ("random", "heuristic", "random", "random"))
    played = chunks([7, 8], [9, 10], [0, 300], [300, 300])
    assert profile.record["native"] != 0
    native = profile.chunks(played)
    interpreted = profile.record.copy()
    interpreted["native"] = 0  # the kernel's interpreter
    assert (native == profile._replace(record=interpreted).chunks(played)).all()


@pytest.mark.parametrize("name", STATING)
def test_the_code_of_a_profiles_rules_picks_each_meaning_and_reads_no_program(name):
    text = rules_text(name)
    read = {n.id for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name)}
    assert not read & set(programs.MEANINGS)
    assert "p.program" not in text and "s.stack" not in text
    assert "fold_value(" not in text  # each aggregate's own kind of fold, written in


SIDES = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    st.integers(-70, 70),
    st.sampled_from([2**62, 2**63 - 1, -(2**63), 2**32, -1]),
)
OPERATORS = ["+", "-", "*", "<<", ">>", "&", "|", "^", "<", "<=", "==", "!=", ">", ">="]


@numba.njit
def compiled(op: int, a: int, b: int) -> int:
    """What the compiled code computes of `a OPERATORS[op] b`, on 64-bit ints."""
    if op == 0:
        return a + b
    if op == 1:
        return a - b
    if op == 2:
        return a * b
    if op == 3:
        return a << b
    if op == 4:
        return a >> b
    if op == 5:
        return a & b
    if op == 6:
        return a | b
    if op == 7:
        return a ^ b
    if op == 8:
        return int(a < b)
    if op == 9:
        return int(a <= b)
    if op == 10:
        return int(a == b)
    if op == 11:
        return int(a != b)
    if op == 12:
        return int(a > b)
    return int(a >= b)


@settings(max_examples=examples(300, 3000), deadline=None)
@given(st.sampled_from(range(len(OPERATORS))), SIDES, SIDES)
def test_numbers_are_worked_out_as_the_compiled_code_computes_them(op, a, b):
    node = ast.parse(f"a {OPERATORS[op]} b", mode="eval").body
    worked = programs.Written({"a": a, "b": b}).visit(node)
    if isinstance(worked, ast.Constant):
        assert worked.value == compiled(op, a, b)
    shift = OPERATORS[op] in ("<<", ">>")
    exact = eval(f"({a}) {OPERATORS[op]} ({b})") if not shift or 0 <= b < 64 else None
    if shift and not 0 <= b < 64:
        assert not isinstance(worked, ast.Constant)  # numba leaves it to the machine
    elif exact is not None and -(2**63) <= exact < 2**63:
        assert isinstance(worked, ast.Constant)
    else:
        assert not isinstance(worked, ast.Constant)


def test_a_choice_worked_out_reads_only_the_side_it_picks():
    node = ast.parse("1 << 200 if 3 < 2 else 7 >> 1", mode="eval").body
    assert ast.unparse(programs.Written({}).visit(node)) == "3"


def test_the_c_function_of_a_profiles_rules_is_read_back_from_the_cache_in_another_run():
    run = (
        "from rulesdsl.play.kernel.compiled import compiled_profile\n"
        "from rulesdsl.read.profile import load\n"
        "import sys\n"
        "compiled_profile(load('must-overtrump').rules, 4, ('random',) * 4)\n"
        "module = next(m for n, m in sys.modules.items() if n.startswith('rulesdsl_rules_'))\n"
        "print(module.rules._cache_hits)\n"
    )
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"


def test_a_program_laid_out_otherwise_than_the_compiler_does_is_interpreted_and_said(capsys):
    from rulesdsl.play.kernel import machine

    stray = [machine.PUSH, 1, 0, 0, machine.JUMP, 2, 0, 0, machine.RETURN, 0, 0, 0]
    with pytest.raises(programs.Unstructured, match="instruction 1"):
        programs.function_text(stray)
    assert programs.native_rules(tuple(stray)) == 0
    said = capsys.readouterr().err.splitlines()
    assert said == ["rulesdsl: a profile's rules run on the kernel's interpreter: Unstructured"]


def test_rules_numba_cannot_compile_are_interpreted_and_said_once(monkeypatch, capsys):
    def refused(self: CFunc) -> None:
        raise NumbaError("refused")

    monkeypatch.setattr(CFunc, "compile", refused)
    rule = "rule barred { refuse lead if card.suit == previous.led and trick.number != 4321 }"
    read = load_text(Path("/refused.rules"), f'profile "refused" {{\n    {rule}\n}}\n')
    profiles = [compiled_profile(read.rules, 4, ("random",) * 4) for _ in range(2)]
    assert [int(p.record["native"]) for p in profiles] == [0, 0]
    said = capsys.readouterr().err.splitlines()
    assert said == ["rulesdsl: a profile's rules run on the kernel's interpreter: NumbaError"]
    assert len(profiles[0].chunks(chunks([3], [4], [0], [50]))) == 50
