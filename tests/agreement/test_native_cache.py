"""The kernel cache trusts nothing more than the user's own files (`native/store.py`,
`native/trust.py`): whatever is found in it or in its place, the run goes on with the same
figures, nothing planted there runs, nothing but a regular file is opened, and each thing
refused is said in one line on stderr, its path escaped.

The first tests draw many hostile things of each kind against a tiny kernel, compiled in a
fraction of a second, and race two processes filling one entry of it; the last run
`simulate` on the real kernel, in other processes too, and compare its `--json` output byte
for byte with the pure-Python path's. The real kernel takes minutes to compile: `make test`
reads it from the user's cache (compiling it there once, where no run did before) and
compiles it again in part (damaged files, on a copy); a thorough run
(HYPOTHESIS_PROFILE=thorough) also compiles it from nothing twice at once (two processes,
one cache folder), in two threads at once, and in memory for each cache that cannot be
used, with the functions that measure skill."""

from __future__ import annotations

import contextlib
import errno
import io
import itertools
import os
import pickle
import shutil
import subprocess
import sys
import threading
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sizing import THOROUGH, examples

pytest.importorskip("numba", reason="numba is not installed: pip install 'rulesdsl[fast]'")

from numba.core import compiler

import rulesdsl
from rulesdsl.model.text import UNSAFE
from rulesdsl.play.kernel import build
from rulesdsl.play.native import ENV, store, trust
from rulesdsl.play.native.store import CACHE_ENV, KEY, KEY_SIZE, loaded, sealed
from rulesdsl.read.profile import load
from rulesdsl.reason import sim
from rulesdsl.words import report

ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0
OTHER_USER = 65534  # nobody: a file only root can give away
TINY = "import numba\n\n\n@numba.njit()\ndef add(x):\n    return x + {k}\n"
REPO = Path(rulesdsl.__file__).resolve().parents[1]
SKILL = THOROUGH
"""Whether the simulations measure skill too: the kernel's skill functions double the time
it takes to compile, so only a thorough run compiles them."""
SIMULATE = (
    *("simulate", "equal-hands", "--hands", "600", "--json", "--workers", "2"),
    "--skill" if SKILL else "--no-skill",
)
"""Three chunks of deals: three tasks for the two workers, forked once the parent made the
kernel (so each thing refused is said once, not once a worker)."""
_numbers = itertools.count()
HOSTILE = settings(
    max_examples=examples(30, 120),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


class Planted:
    """A pickle that, once loaded, leaves the file `marker` behind."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self) -> tuple:
        return (open, (self.marker, "w"))


@dataclass
class Tiny:
    """A tiny kernel `add` in the cache folder `cache`, a fresh module name each."""

    cache: Path
    k: int
    name: str

    @property
    def text(self) -> str:
        return TINY.format(k=self.k)

    @property
    def entry(self) -> Path:
        return self.cache / self.name

    def adds(self) -> bool:
        """Made anew in this process (as a new run makes it), whether it adds its k."""
        sys.modules.pop(self.name, None)
        return loaded(self.text, self.name, self.cache).add(2) == 2 + self.k


def tiny(base: Path) -> Tiny:
    number = next(_numbers)
    return Tiny(base / f"run{number}" / "cache", number, f"tiny_kernel_{number}")


def warm(base: Path) -> Tiny:
    """A tiny kernel compiled once, its code kept in its entry."""
    made = tiny(base)
    assert said(made.adds) == (True, [])
    return made


def said(action: Callable[[], object]) -> tuple[object, list[str]]:
    """What `action` returns, and the lines it writes on stderr."""
    with contextlib.redirect_stderr(io.StringIO()) as err:
        result = action()
    return result, err.getvalue().splitlines()


def assert_lines(lines: list[str], named: Path) -> None:
    """Lines of refusal: at least one, the first naming `named`, each escaped."""
    assert lines, "nothing was said"
    assert trust.shown(named) in lines[0]
    for line in lines:
        assert line.startswith("rulesdsl: ")
        assert not UNSAFE.search(line)


@contextlib.contextmanager
def opened_paths() -> Iterator[list[str]]:
    """Each path `os.open` is asked to open meanwhile."""
    paths: list[str] = []
    real = os.open

    def spy(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        paths.append(os.fspath(path))
        return real(path, *args, **kwargs)

    os.open = spy
    try:
        yield paths
    finally:
        os.open = real


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("kernel-cache").resolve()


def clear(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif os.path.lexists(path):
        path.unlink()


DAMAGED = ("pickle", "sealed elsewhere", "garbage", "truncated", "flipped")
REGULAR = (*DAMAGED, "open to others")
OTHER = ("named pipe", "folder", "link", "foreign")


def plant(data: st.DataObject, path: Path, kind: str, marker: Path, key: bytes) -> bytes:
    """Put a hostile thing of `kind` at `path`; the bytes of a regular file put there."""
    good = path.read_bytes() if path.is_file() else b"good"
    mode = path.stat().st_mode & 0o777 if path.is_file() else 0o644
    evil = pickle.dumps(Planted(marker))
    clear(path)
    if kind == "named pipe":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
        (path / "inside").write_bytes(evil)
    elif kind == "link":
        elsewhere = marker.with_name(f"elsewhere{next(_numbers)}")  # out of the cache
        elsewhere.write_bytes(good)
        target = data.draw(st.sampled_from([elsewhere, Path("/dev/zero")]), label="target")
        path.symlink_to(target)
    elif kind == "foreign":
        path.write_bytes(good)
        os.chown(path, OTHER_USER, OTHER_USER)
    else:
        path.write_bytes(regular_bytes(data, kind, good, evil, key))
        path.chmod(0o666 if kind == "open to others" else mode)
    return path.read_bytes() if path.is_file() and not path.is_symlink() else b""


def regular_bytes(data: st.DataObject, kind: str, good: bytes, evil: bytes, key: bytes) -> bytes:
    if kind == "pickle":
        return evil
    if kind == "sealed elsewhere":  # sealed with the key, for another file
        return sealed(key, b"another_kernel/add-00000000000000000000.nbc", evil)
    if kind == "garbage":
        return data.draw(st.binary(max_size=300).filter(lambda b: b != good), label="garbage")
    if kind == "truncated":
        return good[: data.draw(st.integers(0, 2**20), label="cut") % len(good)]
    if kind == "flipped":
        at = data.draw(st.integers(0, 2**20), label="at") % len(good)
        return good[:at] + bytes([good[at] ^ 0x20]) + good[at + 1 :]
    return good  # open to others: the very file, writable by anyone


def targets(made: Tiny) -> dict[str, Path]:
    (data,) = made.entry.glob("add-*.nbc")
    return {
        "module text": made.entry / f"{made.name}.py",
        "compiled code": data,
        "key": made.cache / KEY,
        "stray index": made.entry / f"{made.name}.add-7.py311.nbi",
        "stray folder": made.entry / "__pycache__",
    }


@HOSTILE
@given(
    data=st.data(),
    target=st.sampled_from(["module text", "compiled code", "key", "stray index", "stray folder"]),
    kind=st.sampled_from(REGULAR + OTHER),
)
def test_whatever_is_put_in_a_kernels_entry_the_kernel_runs_and_nothing_planted_runs(
    base, data, target, kind
):
    assume(kind != "foreign" or ROOT_USER)
    made = warm(base)
    path = targets(made)[target]
    marker = base / f"marker{next(_numbers)}"
    key = (made.cache / KEY).read_bytes()
    planted = plant(data, path, kind, marker, key)
    with opened_paths() as opened:
        works, lines = said(made.adds)
    assert works
    assert not marker.exists()
    # a key of the right size, but not the one its files were sealed with
    another_key = target == "key" and kind in DAMAGED and len(planted) == KEY_SIZE
    assert_lines(lines, targets(made)["compiled code"] if another_key else path)
    if kind in OTHER:  # refused by its kind or owner: never opened, never removed
        assert str(path) not in opened
        assert os.path.lexists(path)
    elif os.path.lexists(path) and not another_key:  # thrown away: removed, or made again
        assert path.read_bytes() != planted or kind == "open to others"
        assert not path.stat().st_mode & 0o022


def hostile_name() -> st.SearchStrategy[str]:
    """Names of folders with control, bidirectional and non-UTF-8 characters."""
    parts = ["a", " ", "é", "\x1b[31m", "\n", "\t", "\u202e", os.fsdecode(b"\xff")]
    return st.lists(st.sampled_from(parts), min_size=1, max_size=6).map("".join)


ROOTS = {
    "a file": True,
    "a named pipe": True,
    "a link to a file": True,
    "a folder anyone can write": True,
    "a folder its group can write": True,
    "another user's folder": True,
    "a folder below a file": True,
    "a folder below one of ours anyone can write": True,
    "a folder below a sticky folder anyone can write": False,
    "a link to a folder of ours": False,
}
"""The places a cache folder may be, and whether each is refused."""


def place_root(where: str, path: Path) -> Path:
    """Make the cache folder `path` as `where` says; the path a refusal names."""
    path.parent.mkdir(parents=True)
    if where == "a file":
        path.write_bytes(b"not a folder")
    elif where == "a named pipe":
        os.mkfifo(path)
    elif where == "a link to a file":
        path.with_name("file").write_bytes(b"")
        path.symlink_to(path.with_name("file"))
        return path.with_name("file")
    elif where in ("a folder anyone can write", "a folder its group can write"):
        path.mkdir()
        path.chmod(0o777 if where == "a folder anyone can write" else 0o770)
    elif where == "another user's folder":
        path.mkdir(0o700)
        os.chown(path, OTHER_USER, OTHER_USER)
    elif where == "a folder below a file":
        path.parent.rmdir()
        path.parent.write_bytes(b"")
    elif where.startswith("a folder below"):
        sticky = "sticky" in where
        path.parent.chmod(0o1777 if sticky else 0o777)
        return path.parent
    elif where == "a link to a folder of ours":
        path.with_name("real").mkdir(0o700)
        path.symlink_to(path.with_name("real"))
    return path


@HOSTILE
@given(where=st.sampled_from(sorted(ROOTS)), name=hostile_name())
def test_a_cache_folder_others_could_change_is_refused_in_one_escaped_line(base, where, name):
    assume(where != "another user's folder" or ROOT_USER)
    made = tiny(base)
    made.cache = made.cache.with_name(name)
    named = place_root(where, made.cache)
    with opened_paths() as opened:
        works, lines = said(made.adds)
    assert works
    assert str(made.cache) not in opened
    if ROOTS[where]:
        assert_lines(lines, named)
        assert len(lines) == 1
        if made.cache.is_dir() and not made.cache.is_symlink():
            assert list(made.cache.iterdir()) == []  # nothing written in it
    else:
        assert lines == []
        assert (made.cache / KEY).is_file()


@settings(max_examples=examples(8, 16), deadline=None)
@given(code=st.sampled_from([errno.ENOSPC, errno.EACCES, errno.EROFS, errno.EDQUOT]))
def test_a_cache_that_cannot_be_written_is_said_once_and_the_kernel_runs(base, code):
    def failing(path: Path, data: bytes) -> None:
        raise OSError(code, os.strerror(code))

    first = tiny(base)
    later = tiny(base)
    later.cache = first.cache
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, "write_file", failing)
        works, lines = said(first.adds)  # no key can be made: the cache is not used
        assert works
        assert_lines(lines, first.cache)
        assert os.strerror(code) in lines[0] and len(lines) == 1
    assert said(first.adds) == (True, [])  # the disk has room again
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, "write_file", failing)
        works, lines = said(later.adds)  # the key is there, not room for the code
    assert works
    assert_lines(lines, later.entry)
    assert len(lines) == 1


@pytest.mark.skipif(ROOT_USER, reason="root can write any folder")
def test_a_cache_folder_this_user_cannot_write_is_read_and_the_kernel_runs(base):
    made = warm(base)
    later = tiny(base)
    later.cache = made.cache
    made.cache.chmod(0o500)
    try:
        assert said(made.adds) == (True, [])  # read from the cache
        works, lines = said(later.adds)  # compiled in memory
    finally:
        made.cache.chmod(0o700)
    assert works
    assert_lines(lines, later.entry)
    assert len(lines) == 1


def test_a_kernel_module_is_made_once_and_seen_only_when_whole(base, monkeypatch):
    """While one thread makes a kernel's module, the module is not in sys.modules, and
    another thread asking for it gets it whole, made once."""
    gate = types.ModuleType("rulesdsl_test_gate")
    gate.visible, gate.started, gate.go = [], threading.Event(), threading.Event()
    monkeypatch.setitem(sys.modules, gate.__name__, gate)
    text = (
        "import sys\nimport rulesdsl_test_gate as gate\n\n"
        "gate.visible.append(__name__ in sys.modules)\ngate.started.set()\ngate.go.wait()\n"
        "WHOLE = True\n"
    )
    name = f"gated_kernel_{next(_numbers)}"
    got: list[types.ModuleType] = []

    def ask() -> None:
        got.append(loaded(text, name, base / "gated"))

    first = threading.Thread(target=ask)
    first.start()
    assert gate.started.wait(timeout=300)
    second = threading.Thread(target=ask)
    second.start()
    gate.go.set()
    first.join()
    second.join()
    assert gate.visible == [False]
    assert len(got) == 2 and got[0] is got[1] and got[0].WHOLE


def simulating(cache: Path | None, native: bool = True) -> subprocess.Popen[str]:
    """`rulesdsl simulate` of 600 hands of equal-hands in another process."""
    env = {**os.environ, "PYTHONPATH": str(REPO), ENV: "1" if native else "0"}
    if cache is not None:
        env[CACHE_ENV] = str(cache)
    command = [sys.executable, "-m", "rulesdsl.surfaces", *SIMULATE]
    return subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


@dataclass
class Finished:
    code: int
    out: str
    lines: list[str]


def finished(process: subprocess.Popen[str]) -> Finished:
    out, err = process.communicate(timeout=900)  # a guard against a hang, not a measure
    return Finished(process.returncode, out, err.splitlines())


@pytest.fixture(scope="module")
def pure() -> str:
    done = finished(simulating(None, native=False))
    assert done.code == 0
    return done.out


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Finished]]:
    """A cache folder holding the real kernel, and the runs that filled it. In a thorough
    run, two processes simulate at once on a cache folder of their own, compiling the
    kernel from nothing into it; in `make test`, one process simulates on the user's cache
    (compiling the kernel there only where no run did before) and the folder is a copy of
    its key and the kernel's entry."""
    if THOROUGH:
        cache = tmp_path_factory.mktemp("two-at-once").resolve() / "cache"
        started = [simulating(cache) for _ in range(2)]
        return cache, [finished(process) for process in started]
    done = finished(simulating(None))
    cache = tmp_path_factory.mktemp("filled").resolve() / "cache"
    cache.mkdir(0o700)
    users = store.cache_dir()
    name = build.module_name(build.source())
    shutil.copy2(users / KEY, cache / KEY)
    shutil.copytree(users / name, cache / name, symlinks=True)
    return cache, [done]


def test_processes_filling_the_kernel_cache_print_the_pure_figures(pure, filled):
    _, done = filled
    assert [(d.code, d.out, d.lines) for d in done] == [(0, pure, [])] * len(done)


def test_two_processes_filling_one_entry_at_once_both_run_its_functions(base):
    """Two processes start at once on a kernel whose functions call each other, one cache
    folder: both run it, neither says anything, and a third reads every function from the
    entry they filled, compiling none."""
    made = tiny(base)
    text = CHAIN.format(k=made.k)
    go = base / f"go{made.k}"
    started = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, str(go), text, made.name, str(made.cache)],
            env={**os.environ, "PYTHONPATH": str(REPO)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    go.touch()
    done = [finished(process) for process in started]
    assert [(d.code, d.out, d.lines) for d in done] == [(0, f"{2 + 3 * made.k}\n", [])] * 2
    files = sorted(p.name for p in made.entry.iterdir())
    assert [f for f in files if f.endswith(".nbc")] and all(
        f.endswith(".nbc") or f == f"{made.name}.py" for f in files
    )
    with compiling_forbidden():
        sys.modules.pop(made.name, None)
        kernel, lines = said(lambda: loaded(text, made.name, made.cache))
        assert (kernel.outer(2), lines) == (2 + 3 * made.k, [])


CHAIN = (
    "import numba\n\n\n@numba.njit()\ndef inner(x):\n    return x + {k}\n\n\n"
    "@numba.njit()\ndef middle(x):\n    return inner(x) + {k}\n\n\n"
    "@numba.njit()\ndef outer(x):\n    return middle(x) + {k}\n"
)
"""A tiny kernel of three functions, each calling the next."""
RACER = """
import pathlib, sys, time
from rulesdsl.play.native.store import loaded
go, text, name, cache = sys.argv[1:]
while not pathlib.Path(go).exists():
    time.sleep(0.005)
print(loaded(text, name, pathlib.Path(cache)).outer(2))
"""
"""A process that waits for the file `go`, then runs the kernel `text` on a cache folder."""


@contextlib.contextmanager
def compiling_forbidden() -> Iterator[None]:
    """Fail the test if numba compiles anything meanwhile."""
    real = compiler.compile_extra

    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("a function was compiled, not read from the cache")

    compiler.compile_extra = refuse
    try:
        yield
    finally:
        compiler.compile_extra = real


def test_two_threads_asking_for_one_kernel_not_yet_made_both_get_the_pure_figures(
    filled, tmp_path, monkeypatch
):
    """The kernel's module is not yet made in this process: in a thorough run its code is
    not compiled either (a cache folder of its own); in `make test` it is, on disk (a copy
    of the cache the two processes filled), and the threads race to make the module."""
    rules = load("equal-hands").rules
    spec = sim.Spec(profiles=(("equal-hands", rules),), units=600, skill=SKILL)
    expected = report.to_json(sim.run(spec, 1))
    cache = tmp_path / "cache" if THOROUGH else copied(filled, tmp_path)[0]
    monkeypatch.setenv(ENV, "1")
    monkeypatch.setenv(CACHE_ENV, str(cache))
    monkeypatch.delitem(sys.modules, build.module_name(build.source()), raising=False)
    build.kernel.cache_clear()
    start = threading.Barrier(2)
    results: dict[int, str] = {}

    def run(index: int) -> None:
        start.wait()
        results[index] = report.to_json(sim.run(spec, 1))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {0: expected, 1: expected}


def copied(filled: tuple[Path, list[Finished]], to: Path) -> tuple[Path, Path]:
    """A copy of the cache the two processes filled, and its kernel's entry."""
    cache = to.resolve() / "cache"
    shutil.copytree(filled[0], cache, symlinks=True)
    (entry,) = (p for p in cache.iterdir() if p.is_dir())
    return cache, entry


def test_planted_and_damaged_files_never_run_and_are_rebuilt_with_one_line_each(
    pure, filled, tmp_path
):
    cache, entry = copied(filled, tmp_path)
    marker = tmp_path / "marker"
    evil = pickle.dumps(Planted(marker))
    (code,) = entry.glob("play_deals-*.nbc")
    (trick_code,) = entry.glob("finish_trick-*.nbc")  # what play_deals calls, and it calls
    (drawers_code,) = entry.glob("drawers_at-*.nbc")
    code.write_bytes(evil)
    trick_code.write_bytes(b"\x80\x04garbage")
    drawers_code.write_bytes(drawers_code.read_bytes()[:1000])
    stray = entry / f"{entry.name}.play_deals-9.py311.nbi"
    stray.write_bytes(evil)
    (cache / "__pycache__").mkdir()  # where numba read its index beside a module before
    (cache / "__pycache__" / f"{entry.name}.play_deals-9.py311.nbi").write_bytes(evil)
    (cache / f"{entry.name}.py").write_text(f"open({str(marker)!r}, 'w')\n")
    done = finished(simulating(cache))
    assert (done.code, done.out) == (0, pure)
    assert not marker.exists()
    assert all(line.startswith("rulesdsl: ") and not UNSAFE.search(line) for line in done.lines)
    for path in (code, trick_code, drawers_code, stray):
        assert sum(trust.shown(path) in line for line in done.lines) == 1
    assert len(done.lines) == 4
    again = finished(simulating(cache))
    assert (again.code, again.out, again.lines) == (0, pure, [])


@pytest.mark.skipif(not THOROUGH, reason="compiles the whole kernel in memory: a thorough run")
@pytest.mark.parametrize("where", ["a named pipe as the module", "a file as the cache folder"])
def test_a_cache_that_cannot_be_used_compiles_in_memory_with_the_pure_figures(
    pure, filled, tmp_path, where
):
    cache, entry = copied(filled, tmp_path)
    if where == "a named pipe as the module":
        named = entry / f"{entry.name}.py"
        named.unlink()
        os.mkfifo(named)
    else:
        shutil.rmtree(cache)
        cache.write_bytes(b"")
        named = cache
    done = finished(simulating(cache))
    assert (done.code, done.out) == (0, pure)
    assert len(done.lines) == 1 and trust.shown(named) in done.lines[0]
    assert "in memory" in done.lines[0]
