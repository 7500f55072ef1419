"""Profiles: read a file, resolve `extends`, remember where every value came from.

A profile is found by the name of a shipped profile (`profiles/`) or by a path; a
relative `extends` path is taken from the folder of the file that says it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from rulesdsl.check import check_entries, check_rules
from rulesdsl.diagnostics import TOP, Diagnostic, Located, offset_pos
from rulesdsl.hints import suggest
from rulesdsl.rules import OPTIONS, Rules
from rulesdsl.syntax.chars import CONTROL, control_refusal
from rulesdsl.syntax.document import Document

SHIPPED = Path(__file__).parent / "profiles"
SYNTAXES = {".rules": "dsl", ".yaml": "yaml", ".yml": "yaml"}
MAX_BYTES = 1_000_000
DEFAULT_PROFILE = "equal-hands"


@dataclass(frozen=True)
class Setting:
    """One option's value in a resolved profile and where it came from.

    `origin` is `default` (the registry), `set` (in this profile's file) or `inherited`
    (from `profile`, the ancestor that set it).
    """

    name: str
    value: Any
    origin: str
    profile: str | None = None
    path: str | None = None
    line: int | None = None
    assumed: bool = False
    note: str | None = None

    @property
    def text(self) -> str:
        return OPTIONS[self.name].text(self.value)

    def where(self) -> str:
        if self.origin == "default":
            return "default"
        place = f"{short_path(self.path)}:{self.line}"
        return (
            f"set in {place}"
            if self.origin == "set"
            else f"inherited from {self.profile} ({place})"
        )


@dataclass
class Profile:
    """A resolved profile: every option's Setting, its metadata and its problems."""

    name: str
    path: str
    document: Document | None
    settings: dict[str, Setting]
    chain: tuple[str, ...] = ()
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def title(self) -> str | None:
        return self.document.meta("title") if self.document else None

    @property
    def source(self) -> str | None:
        return self.document.meta("source") if self.document else None

    @property
    def extends(self) -> str | None:
        return self.document.extends if self.document else None

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)

    @property
    def rules(self) -> Rules:
        return Rules(**{name: s.value for name, s in self.settings.items()})


def short_path(path: str | None) -> str:
    """The path relative to the working folder when it lies inside it."""
    if path is None:
        return "-"
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return path


def default_settings() -> dict[str, Setting]:
    return {name: Setting(name, opt.default, "default") for name, opt in OPTIONS.items()}


def shipped_names() -> list[str]:
    return sorted({p.stem for p in SHIPPED.iterdir() if p.suffix in SYNTAXES})


def is_path(ref: str) -> bool:
    return "/" in ref or "\\" in ref or Path(ref).suffix in SYNTAXES


def is_file(path: Path) -> bool:
    """Whether `path` is a file; a name the system refuses (too long, ...) is none."""
    try:
        return path.is_file()
    except OSError:
        return False


def find(ref: str, base: Path | None = None) -> Path | None:
    """The file a profile reference names: a shipped name or a path (from `base`)."""
    if is_path(ref):
        path = (base / ref) if base is not None and not Path(ref).is_absolute() else Path(ref)
        return path if is_file(path) else None
    for suffix in SYNTAXES:
        candidate = SHIPPED / f"{ref}{suffix}"
        if is_file(candidate):
            return candidate
    return None


def read_source(path: Path) -> tuple[str | None, list[Diagnostic]]:
    """The file's text, or a diagnostic: too large, binary, not UTF-8, empty."""
    shown = str(path)
    where = Located(shown, "")
    try:
        data = path.read_bytes()
    except OSError as error:
        return None, [where.at(TOP, "unreadable", f"cannot read the file: {error.strerror}")]
    if len(data) > MAX_BYTES:
        return None, [
            where.at(
                TOP, "too-large", f"the file is {len(data):,} bytes; a profile may be 1 MB at most"
            )
        ]
    if b"\0" in data:
        return None, [where.at(TOP, "binary", "this is a binary file, not a profile")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return None, [
            where.at(
                offset_pos(data, error.start),
                "encoding",
                f"byte 0x{data[error.start]:02x} is not valid UTF-8",
                "save the file as UTF-8",
            )
        ]
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return None, [
            where.at(
                TOP,
                "empty-file",
                "the file is empty",
                'a profile starts: profile "name" extends "equal-hands" {',
            )
        ]
    odd = CONTROL.search(text)
    if odd is not None:
        refused = control_refusal(odd.group())
        return None, [
            Located(shown, text).at(
                offset_pos(text, odd.start()), refused.code, refused.message, refused.hint
            )
        ]
    return text, []


def read_document(path: Path, text: str) -> Document:
    syntax = SYNTAXES.get(path.suffix.lower())
    if syntax is None:
        syntax = "dsl" if text.lstrip().startswith(("profile", "#")) else "yaml"
    if syntax == "dsl":
        from rulesdsl.syntax.dsl import read_dsl

        return read_dsl(str(path), text)
    from rulesdsl.syntax.yamlform import read_yaml

    return read_yaml(str(path), text)


def load(ref: str, base: Path | None = None) -> Profile:
    """Find, read, check and resolve a profile by name or path."""
    path = find(ref, base)
    if path is None:
        return _missing(ref)
    return _load_path(path.resolve(), str(path))


def load_file(path: Path) -> Profile:
    return _load_path(path.resolve(), str(path))


def _missing(ref: str) -> Profile:
    hint = suggest(ref, shipped_names()) or "`rulesdsl list` shows the shipped profiles"
    problem = Located(ref, "").at(TOP, "unknown-profile", f"no profile named `{ref}`", hint)
    return Profile(ref, ref, None, default_settings(), diagnostics=[problem])


def _load_path(real: Path, shown: str) -> Profile:
    """A profile, read once per process (and again when the file changes), shown as `shown`."""
    stat = real.stat()
    cached = _load_cached(real, stat.st_mtime_ns, stat.st_size)
    if cached.path == shown:
        return cached
    moved = [
        dataclasses.replace(d, path=shown) if d.path == cached.path else d
        for d in cached.diagnostics
    ]
    settings = {
        k: dataclasses.replace(s, path=shown) if s.path == cached.path else s
        for k, s in cached.settings.items()
    }
    return dataclasses.replace(cached, path=shown, diagnostics=moved, settings=settings)


# The files being resolved, outermost first: an `extends` naming one of them is a cycle.
_RESOLVING: list[str] = []


@cache
def _load_cached(real: Path, mtime: int, size: int) -> Profile:
    """A profile, resolved once per file version (the cache key holds its time and size)."""
    del mtime, size
    _RESOLVING.append(str(real))
    try:
        return _resolve(real)
    finally:
        _RESOLVING.pop()


def _resolve(real: Path) -> Profile:
    shown = str(real)
    text, problems = read_source(real)
    if text is None:
        return Profile(real.stem, shown, None, default_settings(), diagnostics=problems)
    doc = read_document(real, text)
    name = doc.name or real.stem
    problems = list(doc.diagnostics)
    parsed, entry_problems = check_entries(doc)
    problems += entry_problems
    settings, parent_problems, parent_chain = _inherit(doc, real)
    problems += parent_problems
    for key, item in parsed.items():
        settings[key] = Setting(
            key,
            item.value,
            "set",
            name,
            shown,
            item.entry.key_pos.line,
            item.entry.assumed,
            item.entry.note,
        )
    profile = Profile(name, shown, doc, settings, (*parent_chain, name), problems)
    if doc.ok:
        profile.diagnostics += check_rules(profile.rules, doc)
    profile.diagnostics.sort(key=lambda d: (d.line, d.column))
    return profile


def _inherit(
    doc: Document, real: Path
) -> tuple[dict[str, Setting], list[Diagnostic], tuple[str, ...]]:
    """The parent's settings, marked inherited, and any problem with the parent."""
    if doc.extends is None:
        return default_settings(), [], ()
    where = Located(doc.path, doc.source)
    pos = doc.extends_pos or TOP
    parent_path = find(doc.extends, real.parent)
    if parent_path is None:
        names = shipped_names()
        hint = suggest(doc.extends, names) or "shipped profiles: " + ", ".join(names)
        problem = where.at(
            pos,
            "unknown-profile",
            f"extends `{doc.extends}`, which is not a shipped profile or a file",
            hint,
        )
        return default_settings(), [problem], ()
    parent_real = parent_path.resolve()
    if str(parent_real) in _RESOLVING:
        start = _RESOLVING.index(str(parent_real))
        loop = " -> ".join(Path(p).name for p in (*_RESOLVING[start:], str(parent_real)))
        problem = where.at(
            pos,
            "extends-cycle",
            f"profiles extend each other in a cycle: {loop}",
            "one profile in the chain must extend another, or none",
        )
        return default_settings(), [problem], ()
    parent = _load_path(parent_real, str(parent_path))
    problems = []
    errors = [d for d in parent.diagnostics if d.is_error]
    if errors:
        cycle = [d for d in errors if d.code == "extends-cycle"]
        message = (
            cycle[0].message
            if cycle
            else (f"extends `{doc.extends}`, which has {len(errors)} error(s): {errors[0].message}")
        )
        problems.append(
            where.at(
                pos,
                cycle[0].code if cycle else "bad-parent",
                message,
                f"run: rulesdsl validate {parent_path}",
            )
        )
    inherited = {
        key: s if s.origin == "default" else dataclasses.replace(s, origin="inherited")
        for key, s in parent.settings.items()
    }
    return inherited, problems, parent.chain
