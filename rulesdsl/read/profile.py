"""Profiles: read a file, resolve `extends`, remember where every value came from.

A profile is found by the name of a shipped profile (`profiles/`) or by a path; a
relative `extends` path is taken from the folder of the file that says it.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rulesdsl.model.hints import closest, mean, suggest
from rulesdsl.model.rules import OPTIONS, Rules
from rulesdsl.model.text import TOP
from rulesdsl.read.check import Parsed, check_entries, check_rules
from rulesdsl.read.diagnostics import Diagnostic, Located, capped, line_index
from rulesdsl.read.language.settings import RuleSetting, resolve_rules, rule_warnings
from rulesdsl.read.sources import (
    CYCLE_HINT,
    MAX_BYTES,
    SourceError,
    TextForm,
    check_size,
    cycle_message,
    decode,
    looping_link,
    read_bytes,
    read_text,
    short_path,
)
from rulesdsl.read.syntax.chars import CONTROL, control_refusal
from rulesdsl.read.syntax.document import Document

SHIPPED = Path(__file__).parent / "profiles"
# The folders of shipped profiles, each found by its bare name: the versions of the rules,
# then (in house/) one profile per rule of section 5 of docs/rules.md that a profile states itself.
SHIPPED_FOLDERS = (SHIPPED, SHIPPED / "house")
SYNTAXES = {".rules": "dsl", ".yaml": "yaml", ".yml": "yaml"}
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

    @property
    def note_from(self) -> str | None:
        """The ancestor whose note this is, when the note came with an inherited value."""
        return self.profile if self.note is not None and self.origin == "inherited" else None

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
    # The real paths of the files read: every ancestor's, then this profile's own.
    files: tuple[Path, ...] = ()
    # The rules the profile states itself (section 5 of docs/rules.md), inherited ones included.
    house: tuple[RuleSetting, ...] = ()
    # What the file itself chooses, and the values it would otherwise have (its parent's,
    # or the defaults): what the lint of `rulesdsl.reason.analysis.lint` reads.
    chosen: Mapping[str, Parsed] = field(default_factory=dict)
    inherited: Mapping[str, Any] = field(default_factory=dict)

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
        values = {name: s.value for name, s in self.settings.items()}
        return Rules(**values, house_rules=tuple(s.rule for s in self.house))


def default_settings() -> dict[str, Setting]:
    return {name: Setting(name, opt.default, "default") for name, opt in OPTIONS.items()}


def shipped_files() -> list[Path]:
    """Every shipped profile file, in name order."""
    files = [p for f in SHIPPED_FOLDERS for p in f.iterdir() if p.suffix in SYNTAXES]
    return sorted(files, key=lambda p: (p.stem, p.suffix))


def shipped_names() -> list[str]:
    return sorted({p.stem for p in shipped_files()})


def is_path(ref: str) -> bool:
    return "/" in ref or "\\" in ref or Path(ref).suffix in SYNTAXES


def is_file(path: Path) -> bool:
    """Whether `path` is a file; a name the system refuses (too long, ...) is none."""
    try:
        return path.is_file()
    except OSError:
        return False


def exists(path: Path) -> bool:
    """Whether anything (a file, a folder, a pipe...) is at `path`, or a cycle of symbolic
    links is on the way to it (which the reader then names)."""
    try:
        return path.exists() or looping_link(path) is not None
    except OSError:
        return False


def find(ref: str, base: Path | None = None) -> Path | None:
    """The file a profile reference names: a shipped name or a path (from `base`)."""
    if is_path(ref):
        path = (base / ref) if base is not None and not Path(ref).is_absolute() else Path(ref)
        return path if exists(path) else None
    for folder in SHIPPED_FOLDERS:
        for suffix in SYNTAXES:
            candidate = folder / f"{ref}{suffix}"
            if is_file(candidate):
                return candidate
    return None


def read_source(path: Path) -> tuple[str | None, list[Diagnostic]]:
    """The file's text, or a diagnostic: not a file, too large, binary, not UTF-8, empty."""
    text, _, problems = read_laid_source(path)
    return text, problems


def read_laid_source(path: Path) -> tuple[str | None, TextForm, list[Diagnostic]]:
    """As `read_source`, with how the file lays its text down (for rewriting it)."""
    try:
        data = read_bytes(path)
    except SourceError as error:
        return None, TextForm(), [_source_problem(str(path), error)]
    text, problems = decode_source(str(path), data)
    return text, TextForm.of(data), problems


def _source_problem(shown: str, error: SourceError) -> Diagnostic:
    hint = error.hint or "a profile is a UTF-8 text file of 1 MB at most"
    pos = error.pos
    return Diagnostic(
        shown, pos.line, pos.column, error.code, error.message, hint, "error", error.line
    )


def decode_source(shown: str, data: bytes) -> tuple[str | None, list[Diagnostic]]:
    """The text of a profile's bytes (a file's, or an editor's unsaved text), or a
    diagnostic: too large, binary, not UTF-8, empty."""
    try:
        check_size(len(data), MAX_BYTES)
        text = decode(data)
    except SourceError as error:
        return None, [_source_problem(shown, error)]
    if not text.strip():
        return None, [
            Located(shown, "").at(
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
                line_index(text).pos(odd.start()), refused.code, refused.message, refused.hint
            )
        ]
    return text, []


def read_document(path: Path, text: str) -> Document:
    syntax = SYNTAXES.get(path.suffix.lower())
    if syntax is None:
        syntax = "dsl" if text.lstrip().startswith(("profile", "#")) else "yaml"
    if syntax == "dsl":
        from rulesdsl.read.syntax.dsl import read_dsl

        return read_dsl(str(path), text)
    from rulesdsl.read.syntax.yamlform import read_yaml

    return read_yaml(str(path), text)


def load(ref: str, base: Path | None = None, root: Path | None = None) -> Profile:
    """Find, read, check and resolve a profile by name or path.

    `root` is the collection's folder, which a profile file and its `extends` paths must
    lie in: by default the folder the file is in. A shipped profile's is theirs."""
    path = find(ref, base)
    if path is None:
        return _missing(ref)
    return load_file(path, root if is_path(ref) else SHIPPED)


def load_file(path: Path, root: Path | None = None) -> Profile:
    folder = real_path(root or path.absolute().parent)
    problem = outside_root(path, folder)
    if problem is not None:
        return Profile(path.stem, str(path), None, default_settings(), diagnostics=[problem])
    return _load_path(real_path(path), str(path), folder)


def real_path(path: Path) -> Path:
    """The path with every link followed; as it is when links loop."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def outside_root(path: Path, root: Path) -> Diagnostic | None:
    """The problem with a file that is (or links to) a file outside its collection's root,
    which is named and neither read nor written; None for a file inside it."""
    if inside(real_path(path), real_path(root)):
        return None
    return Located(str(path), "").at(
        TOP,
        "outside-root",
        "this file lies outside the collection's root folder; it is not read",
        f"the root is {short_path(str(root))}; --root FOLDER widens it",
    )


# Texts that stand for files (by real path), as an editor holds them unsaved.
_BUFFERS: ContextVar[Mapping[Path, str]] = ContextVar("buffers", default=MappingProxyType({}))


def load_text(path: Path, text: str, buffers: Mapping[Path, str] | None = None) -> Profile:
    """The profile `text` would be if saved at `path`; each file of its `extends` chain is
    read from `buffers` (texts by real path) where it is there, else from disk."""
    return load_open(path, {**(buffers or {}), path.resolve(): text})


def load_open(path: Path, buffers: Mapping[Path, str], root: Path | None = None) -> Profile:
    """The profile at `path`, it and each file of its `extends` chain read from `buffers`
    (texts by real path) where it is there, else from disk."""
    token = _BUFFERS.set(buffers)
    try:
        return load_file(path, root)
    finally:
        _BUFFERS.reset(token)


def _missing(ref: str) -> Profile:
    hint = suggest(ref, shipped_names()) or "`rulesdsl list` shows the shipped profiles"
    problem = Located(ref, "").at(TOP, "unknown-profile", f"no profile named `{ref}`", hint)
    return Profile(ref, ref, None, default_settings(), diagnostics=[problem])


def _load_path(real: Path, shown: str, root: Path) -> Profile:
    """A profile, read once per process (and again when a file of its chain changes), shown
    as `shown`."""
    return _shown_as(_loaded(real, root).profile, shown)


def _shown_as(cached: Profile, shown: str) -> Profile:
    """The profile with its own file shown as `shown`."""
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
    house = tuple(
        dataclasses.replace(s, path=shown) if s.path == cached.path else s for s in cached.house
    )
    return dataclasses.replace(
        cached, path=shown, diagnostics=moved, settings=settings, house=house
    )


@dataclass(frozen=True)
class Stamp:
    """A file as it was read: its path and a digest of its text (None if it was unreadable)."""

    path: Path
    digest: str | None

    @classmethod
    def of(cls, path: Path, text: str | None) -> Stamp:
        digest = None if text is None else hashlib.blake2b(text.encode()).hexdigest()
        return cls(path, digest)

    def current(self) -> bool:
        """Whether the file still holds the text it held (an unreadable file never does)."""
        if self.digest is None:
            return False
        try:
            text = read_text(self.path)
        except SourceError:
            return False
        return Stamp.of(self.path, text) == self


@dataclass(frozen=True)
class Loaded:
    """A resolved profile and every file of its chain as it was read, the file first; and
    whether its chain runs into a cycle (then it reads as the files being resolved around
    it say, and is not kept)."""

    profile: Profile
    stamps: tuple[Stamp, ...]
    cyclic: bool = False


# Resolved profiles by file and root: a hit counts only while every file of its chain
# holds the text it held.
_CACHE: dict[tuple[Path, Path], Loaded] = {}
# The files being resolved, outermost first: an `extends` naming one of them is a cycle.
_RESOLVING: ContextVar[tuple[str, ...]] = ContextVar("resolving", default=())


def clear_cache() -> None:
    _CACHE.clear()


def _loaded(real: Path, root: Path) -> Loaded:
    """The profile resolved, from the cache while its chain is unchanged; read afresh while
    texts stand for files, which the cache does not know (nor keeps)."""
    buffers = bool(_BUFFERS.get())
    hit = None if buffers else _CACHE.get((real, root))
    if hit is not None and all(stamp.current() for stamp in hit.stamps):
        return hit
    token = _RESOLVING.set((*_RESOLVING.get(), str(real)))
    try:
        loaded = _resolve(real, root)
    finally:
        _RESOLVING.reset(token)
    if not buffers and not loaded.cyclic:
        _CACHE[(real, root)] = loaded
    return loaded


def _resolve(real: Path, root: Path) -> Loaded:
    shown = str(real)
    buffer = _BUFFERS.get().get(real)
    if buffer is None:
        text, problems = read_source(real)
    else:
        text, problems = decode_source(shown, buffer.encode("utf-8", "surrogatepass"))
    stamp = Stamp.of(real, text)
    if text is None:
        profile = Profile(real.stem, shown, None, default_settings(), (), problems, (real,))
        return Loaded(profile, (stamp,))
    doc = read_document(real, text)
    name = doc.name or real.stem
    problems = list(doc.diagnostics)
    parsed, entry_problems = check_entries(doc)
    problems += entry_problems
    parent = _inherit(doc, real, root)
    settings = parent.settings
    before = {key: s.value for key, s in settings.items()}
    problems += parent.problems
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
    house, house_problems = resolve_rules(doc, name, shown, parent.house)
    problems += house_problems
    stamps = (stamp, *parent.stamps)
    files = tuple(s.path for s in reversed(stamps))
    chain = (*parent.chain, name)
    profile = Profile(name, shown, doc, settings, chain, problems, files, house, parsed, before)
    if doc.ok:
        profile.diagnostics += check_rules(profile.rules, doc)
        profile.diagnostics += rule_warnings(house, profile.rules, doc)
    profile.diagnostics.sort(key=lambda d: (d.line, d.column))
    profile.diagnostics[:] = capped(profile.diagnostics)
    return Loaded(profile, stamps, parent.cyclic)


@dataclass
class Inherited:
    """What a profile starts from: its parent's settings (or the defaults), the problems
    with the parent, the parent's chain of names and the files read for it."""

    settings: dict[str, Setting] = field(default_factory=default_settings)
    problems: list[Diagnostic] = field(default_factory=list)
    chain: tuple[str, ...] = ()
    stamps: tuple[Stamp, ...] = ()
    house: tuple[RuleSetting, ...] = ()
    cyclic: bool = False


def inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


@dataclass(frozen=True)
class ExtendsRefused:
    """Why an `extends` path is not read: a code, the reason and a hint."""

    code: str
    reason: str
    hint: str


def _parent_file(
    ref: str, real: Path, root: Path
) -> tuple[Path | None, Path, ExtendsRefused | None]:
    """The parent file `extends` names (or None), the root it resolves under, and, when it
    is refused, why: a path must name a profile file inside the collection's root."""
    if not is_path(ref):
        return find(ref), SHIPPED.resolve(), None
    if Path(ref).suffix.lower() not in SYNTAXES:
        suffixes = ", ".join(SYNTAXES)
        hint = f"extend a shipped profile, or a profile file (its name ends in {suffixes})"
        return None, root, ExtendsRefused("not-a-profile", "it is not named as a profile", hint)
    path = real.parent / ref
    link = looping_link(path)
    if link is not None:
        refused = ExtendsRefused("link-cycle", cycle_message(link), CYCLE_HINT)
        return None, root, refused
    target = real_path(path)
    if not (inside(target, root) or inside(target, SHIPPED.resolve())):
        hint = (
            f"the root is {short_path(str(root))}: extend a shipped profile or a file under "
            "it, or widen it with --root FOLDER"
        )
        return None, root, ExtendsRefused("extends-outside", "it lies outside the collection", hint)
    return (path if exists(path) else None), root, None


def _inherit(doc: Document, real: Path, root: Path) -> Inherited:
    """The parent's settings, marked inherited, and any problem with the parent."""
    if doc.extends is None:
        return Inherited()
    where = Located(doc.path, doc.source)
    pos = doc.extends_pos or TOP
    parent_path, parent_root, refused = _parent_file(doc.extends, real, root)
    if refused is not None:
        message = f"extends `{doc.extends}`, which is not read: {refused.reason}"
        return Inherited(problems=[where.at(pos, refused.code, message, refused.hint)])
    if parent_path is None:
        names = shipped_names()
        fix = closest(doc.extends, names)
        problem = where.at(
            pos,
            "unknown-profile",
            f"extends `{doc.extends}`, which is not a shipped profile or a file",
            mean(fix) or "shipped profiles: " + ", ".join(names),
            replacement=fix,
        )
        return Inherited(problems=[problem])
    parent_real = real_path(parent_path)
    resolving = _RESOLVING.get()
    if str(parent_real) in resolving:
        start = resolving.index(str(parent_real))
        loop = " -> ".join(Path(p).name for p in (*resolving[start:], str(parent_real)))
        problem = where.at(
            pos,
            "extends-cycle",
            f"profiles extend each other in a cycle: {loop}",
            "one profile in the chain must extend another, or none",
        )
        return Inherited(problems=[problem], cyclic=True)
    loaded = _loaded(parent_real, parent_root)
    parent = _shown_as(loaded.profile, str(parent_path))
    problems = []
    errors = [d for d in parent.diagnostics if d.is_error]
    if errors:
        problems.append(
            where.at(
                pos,
                *_parent_problem(doc.extends, parent, errors),
                f"run: rulesdsl validate {parent_path}",
            )
        )
    inherited = {
        key: s if s.origin == "default" else dataclasses.replace(s, origin="inherited")
        for key, s in parent.settings.items()
    }
    return Inherited(inherited, problems, parent.chain, loaded.stamps, parent.house, loaded.cyclic)


def _parent_problem(ref: str, parent: Profile, errors: list[Diagnostic]) -> tuple[str, str]:
    """The code and message for a parent with errors. A file that does not read as a
    profile is named, never quoted: it may be any file, and its lines are no one's business."""
    cycle = [d for d in errors if d.code == "extends-cycle"]
    if cycle:
        return cycle[0].code, cycle[0].message
    doc = parent.document
    if doc is not None and (not doc.ok or doc.name is None):
        return "bad-parent", f"extends `{ref}`, which does not read as a profile"
    return "bad-parent", f"extends `{ref}`, which has {len(errors)} error(s): {errors[0].message}"
