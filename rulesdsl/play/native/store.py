"""The kernel cache: a folder per kernel (its entry) in the cache folder, holding the
kernel module's text and numba's compiled code of its functions, trusted no more than the
user's own files (`trust.py`).

The cache folder (`cache_dir`) holds a secret key (`key`: random bytes, readable by
the user alone, made on first use) and the entries, each named as its kernel's module: the
module's text (`<name>.py`, for people to read: the kernel is executed from the text it was
made from, never from a file) and a file per function and signature (`<function>-<digest>
.nbc`) holding numba's compiled code, a pickle. Each such file starts with an HMAC of its
entry, its name and its contents under the key, checked on the bytes read before they are
unpickled: a file rulesdsl did not write with this key is never unpickled. numba's own
cache, whose `.nbi` index is a pickle it reads unchecked, is not used: each function of a
kernel is given an `EntryCache` instead, and Python's bytecode cache is not used either.

Whatever is wrong is said in one line on stderr and the run goes on, with the same figures:
a damaged or foreign file of the cache's own kinds is removed and its function compiled
again; anything else in an entry (a folder, a link, a pipe, another user's file), or a cache
folder that cannot be trusted or written, and the kernel is compiled in memory for this
process. A kernel module is made once a process whatever number of threads ask for it, and
put in `sys.modules` only once made; processes may fill one entry at once, as every file is
written whole and renamed into place.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import linecache
import os
import pickle
import re
import secrets
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from numba.core import caching, compiler
from numba.core.ccallback import CFunc
from numba.core.dispatcher import Dispatcher
from numba.core.serialize import dumps

from rulesdsl.play.native.trust import (
    TEMP_PREFIX,
    TEMP_SUFFIX,
    Distrusted,
    check_above,
    check_file,
    existing,
    make_folders,
    problem,
    read_file,
    removable,
    remove,
    say,
    shown,
    write_file,
)

SOURCE_LOCK = threading.Lock()
"""Held while the kernel's text is made (`build.kernel`) and compiled (`executed`): Python
3.11 cannot parse in two threads at once."""
KEY = "key"
KEY_SIZE = 32
MAGIC = b"rulesdsl kernel cache 1\n"
DATA = re.compile(r"[A-Za-z_][A-Za-z0-9_]*-[0-9a-f]{20}\.nbc")
TEMP = re.compile(re.escape(TEMP_PREFIX) + r"[A-Za-z0-9_]+" + re.escape(TEMP_SUFFIX))
IN_MEMORY = "this kernel is compiled in memory"
NOT_USED = "the kernel cache is not used, kernels are compiled in memory"


@dataclass(frozen=True)
class CacheEntry:
    """A folder of the cache found trustworthy, and the key its files are sealed with: the
    cache folder itself (resolved: no link in its path), or a kernel's entry in it."""

    folder: Path
    key: bytes

    def read(self, name: str) -> bytes | None:
        """The contents of the entry's file `name`, if it is there and was written with the
        key; else None, and a file of the wrong kind or contents is thrown away."""
        try:
            body = unsealed(self.key, self.label(name), read_file(self.folder / name))
            reason = "is damaged or was not written by rulesdsl"
        except FileNotFoundError:
            return None
        except Distrusted as refusal:
            body, reason = None, refusal.reason
        except OSError as error:
            body, reason = None, f"cannot be read ({problem(error)})"
        if body is None:
            self.thrown(name, reason)
        return body

    def write(self, name: str, body: bytes) -> None:
        """Keep `body` as the entry's file `name`, sealed; said once if it cannot be."""
        kept(self.folder / name, sealed(self.key, self.label(name), body))

    def thrown(self, name: str, reason: str) -> None:
        """Say why the file `name` is not used, and remove it if the cache may."""
        path = self.folder / name
        done = "removed" if remove(path) else "left alone"
        say(f"{shown(path)} {reason}: {done}, its function compiled again")

    def label(self, name: str) -> bytes:
        return f"{self.folder.name}/{name}".encode()


def sealed(key: bytes, label: bytes, body: bytes) -> bytes:
    """`body` as a file of the cache named `label`: MAGIC, its tag under `key`, itself."""
    return MAGIC + hmac.new(key, label + b"\0" + body, hashlib.sha256).digest() + body


def unsealed(key: bytes, label: bytes, data: bytes) -> bytes | None:
    """The body of `data` if it is a file of the cache named `label` sealed with `key`: the
    file as it would be sealed, compared whole in constant time."""
    body = data[len(MAGIC) + hashlib.sha256().digest_size :]
    return body if hmac.compare_digest(data, sealed(key, label, body)) else None


CACHE_ENV = "RULESDSL_CACHE"


def cache_dir() -> Path:
    """Where kernels are kept: $RULESDSL_CACHE, else the user's cache folder."""
    if given := os.environ.get(CACHE_ENV):
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rulesdsl" / "native"


def opened_cache(given: Path) -> CacheEntry | None:
    """The cache folder `given`, made if missing, with its key; None (said) if it cannot be
    trusted or used."""
    try:
        check_above(Path(os.path.realpath(existing(given))) / "_")
        make_folders(given)
        root = Path(os.path.realpath(given))
        check_file(root, os.lstat(root), folder=True)
        check_above(root)
        return CacheEntry(root, cache_key(root))
    except Distrusted as refusal:
        say(f"{refusal}: {NOT_USED}")
    except OSError as error:
        say(f"kernel cache {shown(error.filename or given)} ({problem(error)}): {NOT_USED}")
    return None


def cache_key(root: Path) -> bytes:
    """The cache's key, made on first use; a key others could read or write, or of the
    wrong size, is replaced (Distrusted for anything else than a regular file of ours)."""
    path = root / KEY
    try:
        key = read_file(path, private=True)
    except FileNotFoundError:
        return new_key(path)
    except Distrusted as refusal:
        if not removable(path):
            raise
        say(f"{refusal}: replaced by a new key")
        return new_key(path, replace=True)
    if len(key) != KEY_SIZE:
        say(f"{shown(path)} is damaged: replaced by a new key")
        return new_key(path, replace=True)
    return key


def new_key(path: Path, replace: bool = False) -> bytes:
    """A new key written at `path`; the key another process wrote first, if it did."""
    key = secrets.token_bytes(KEY_SIZE)
    if replace:
        write_file(path, key)
        return key
    temp = path.with_name(f"{TEMP_PREFIX}{secrets.token_hex(8)}{TEMP_SUFFIX}")
    write_file(temp, key)
    try:
        os.link(temp, path)  # made whole, or not at all if another process was first
    except FileExistsError:
        return read_file(path, private=True)
    except OSError:  # no hard links here: the last process to make a key keeps it
        os.replace(temp, path)
    finally:
        remove(temp)
    return key


def opened_entry(cache: CacheEntry, name: str, text: str) -> CacheEntry | None:
    """The kernel `name`'s entry, made if missing, with its module's text kept there; None
    (said) if the entry holds what the cache does not use or cannot be made."""
    folder = cache.folder / name
    try:
        if remove(folder):  # a stray file of ours where the entry's folder belongs
            say(f"{shown(folder)} is a file where a kernel's folder belongs: removed")
        make_folders(folder)
        check_file(folder, os.lstat(folder), folder=True)
        checked_contents(folder, name)
        kept_source(folder / f"{name}.py", text)
        return CacheEntry(folder, cache.key)
    except Distrusted as refusal:
        say(f"{refusal}: {IN_MEMORY}")
    except OSError as error:
        say(f"kernel cache entry {shown(folder)} ({problem(error)}): {IN_MEMORY}")
    return None


def checked_contents(folder: Path, name: str) -> None:
    """Distrusted unless every file in the entry is a regular file of ours; each file of ours
    that the cache does not write, or that others could write, is removed (said)."""
    for item in list(os.scandir(folder)):
        path = Path(item.path)
        try:
            check_file(path, item.stat(follow_symlinks=False))
        except Distrusted as refusal:
            if not remove(path):
                raise
            say(f"{refusal}: removed")
            continue
        if not expected(item.name, name):
            say(f"{shown(path)} is not a file of the kernel cache: removed")
            remove(path)


def expected(file: str, name: str) -> bool:
    """Whether the cache writes a file named `file` in the entry of the kernel `name`."""
    return file == f"{name}.py" or bool(DATA.fullmatch(file) or TEMP.fullmatch(file))


def kept_source(path: Path, text: str) -> None:
    """Keep the module's text at `path` for people to read (said if it cannot be)."""
    data = text.encode("utf-8")
    with contextlib.suppress(Distrusted, OSError):  # missing, or changed since it was checked
        if read_file(path) == data:
            return
        say(f"{shown(path)} differs from its kernel's text: written again")
    kept(path, data)


def kept(path: Path, data: bytes) -> None:
    """Write `path` whole; said once if it cannot be."""
    try:
        write_file(path, data)
    except OSError as error:
        say(f"cannot write in {shown(path.parent)} ({problem(error)}): compiled code is not kept")


class EntryCache(getattr(caching, "_Cache", object)):  # type: ignore[misc]
    """numba's cache of one function of a kernel: its compiled code for each signature in
    a file of the kernel's entry, read back only when sealed with the cache's key."""

    def __init__(self, entry: CacheEntry, py_func: Any) -> None:
        self._entry = entry
        self._py_func = py_func
        self._enabled = True

    @property
    def cache_path(self) -> str:
        return str(self._entry.folder)

    def enable(self) -> None:
        self._enabled = True

    def disable(self) -> None:
        self._enabled = False

    def flush(self) -> None:
        """Forget the function's compiled code (numba asks before it compiles anew)."""
        for path in self._entry.folder.glob(f"{self._py_func.__qualname__}-*.nbc"):
            remove(path)

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        if not self._enabled:
            return None
        target_context.refresh()
        name = data_name(self._py_func, sig, target_context.codegen())
        if (body := self._entry.read(name)) is None:
            return None
        try:
            return compiler.CompileResult._rebuild(target_context, *pickle.loads(body))
        except Exception as error:  # sealed with the key, yet numba cannot rebuild it
            self._entry.thrown(name, f"cannot be read back by numba ({type(error).__name__})")
            return None

    def save_overload(self, sig: Any, data: Any) -> None:
        if not self._enabled or not cacheable(data):
            return
        name = data_name(self._py_func, sig, data.codegen)
        try:
            body = dumps(data._reduce())
        except Exception as error:  # numba could not pickle it: it is not kept
            say(f"numba cannot keep {shown(name)} ({type(error).__name__})")
            return
        self._entry.write(name, body)


def data_name(py_func: Any, sig: Any, codegen: Any) -> str:
    """The file of `py_func`'s compiled code for `sig` on this machine (numba's cache keys
    it by the signature, the target machine and the function's bytecode)."""
    key = (str(sig), codegen.magic_tuple(), hashlib.sha256(py_func.__code__.co_code).hexdigest())
    digest = hashlib.blake2b(repr(key).encode(), digest_size=10).hexdigest()
    return f"{py_func.__qualname__}-{digest}.nbc"


def cacheable(cres: Any) -> bool:
    """Whether numba can keep this compiled code (as numba's own cache decides)."""
    return all(part.can_cache for part in cres.lifted) and not cres.library.has_dynamic_globals


_locks: dict[str, threading.Lock] = {}
_locks_lock = threading.Lock()


def _locks_anew() -> None:
    global _locks, _locks_lock
    _locks, _locks_lock = {}, threading.Lock()  # a fork may copy them held


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_locks_anew)


def loaded(text: str, name: str, cache: Path) -> ModuleType:
    """The kernel module `name`, made from its `text` once in this process whatever number
    of threads ask, put in `sys.modules` once made; its functions keep their compiled code
    in its entry of the cache folder `cache`, or in memory where the entry cannot be used."""
    with _locks_lock:
        lock = _locks.setdefault(name, threading.Lock())  # held while the module is made
    with lock:
        module = sys.modules.get(name)
        if module is None:
            opened = opened_cache(cache)
            entry = None if opened is None else opened_entry(opened, name, text)
            module = sys.modules[name] = executed(text, name, entry)
        return module


def executed(text: str, name: str, entry: CacheEntry | None) -> ModuleType:
    """The module of `text`, executed; with an entry, each of its functions compiled by
    numba keeps its code there."""
    filename = str(entry.folder / f"{name}.py") if entry else f"<rulesdsl kernel {name}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    module = ModuleType(name)
    module.__file__ = filename
    with SOURCE_LOCK:  # Python 3.11 cannot parse in two threads at once
        code = compile(text, filename, "exec")
    exec(code, module.__dict__)
    for value in vars(module).values():
        if entry and own_function(value, name):
            value._cache = EntryCache(entry, value.__wrapped__)
    return module


def own_function(value: object, name: str) -> bool:
    """Whether `value` is a function of the module `name` compiled by numba (or a C function
    numba compiles from it)."""
    if not isinstance(value, Dispatcher | CFunc) or not hasattr(value, "_cache"):
        return False
    function = value.__wrapped__
    plain = function.__closure__ is None and function.__qualname__.isidentifier()
    return function.__module__ == name and plain
