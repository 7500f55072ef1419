"""Profile commands: validate, show, list, convert, fmt and schema."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import click

from rulesdsl.model.text import safe_lines, safe_text
from rulesdsl.read.diagnostics import Diagnostic, render
from rulesdsl.read.language.settings import RuleSetting
from rulesdsl.read.outputs import OutputError, check_output, write_text
from rulesdsl.read.profile import (
    SYNTAXES,
    Profile,
    Setting,
    exists,
    load,
    outside_root,
    read_document,
    read_laid_source,
    shipped_names,
)
from rulesdsl.read.schema import profile_schema
from rulesdsl.read.sources import TextForm
from rulesdsl.read.syntax.document import Document
from rulesdsl.reason.analysis.report import DeadRule, dead_rules, dead_stated_rules
from rulesdsl.service import LinkedPath, ProfileProblem, UsageProblem, checked_file, rewrite
from rulesdsl.surfaces.cli.common import (
    current_root,
    load_profile,
    root_option,
    width_option,
    write_failed,
)
from rulesdsl.words.explain import dead_mark, note_mark, phrases, wrap
from rulesdsl.words.layout import Page

# A path holding one of these, and not there as written, is a pattern to match (as a shell
# would, `**` included), for a shell that passed it on unexpanded.
GLOB = re.compile(r"[*?[]")
# How a text is laid down when no file says otherwise: "\n" line ends, no byte-order mark.


@dataclass(frozen=True)
class ProfileFiles:
    """The profile files named or found in the folders named, each with its collection's
    root (the folder named, or the folder of a file named on its own); the folders without
    any, and the patterns that match nothing."""

    files: list[tuple[Path, Path]]
    empty: list[Path]
    unmatched: list[Path]

    @property
    def paths(self) -> list[Path]:
        return [file for file, _ in self.files]

    @property
    def nothing_found(self) -> bool:
        return bool(self.empty or self.unmatched)


def profile_files(paths: Iterable[Path]) -> ProfileFiles:
    """The profile files named, and those found (recursively) in the folders named; each
    folder without any, and each pattern that matches nothing, is said on stderr."""
    named, unmatched = _expand(paths)
    files: list[tuple[Path, Path]] = []
    empty: list[Path] = []
    for path in named:
        if path.is_dir():
            found = [
                (p, path)
                for p in sorted(path.rglob("*"))
                if p.suffix in SYNTAXES
                and not p.is_dir()
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            ]
            if not found:
                empty.append(path)
            files += found
        elif exists(path):  # the reader names what it is, if not a file (or a link cycle)
            files.append((path, path.parent))
        else:
            raise UsageProblem(f"{path}: no such file or folder")
    suffixes = ", ".join(f"*{suffix}" for suffix in SYNTAXES)
    for folder in empty:
        warning = f"rulesdsl: warning: {folder}: no profile files here ({suffixes})"
        click.echo(safe_text(warning), err=True)
    for pattern in unmatched:
        click.echo(safe_text(f"rulesdsl: warning: {pattern}: matches no file"), err=True)
    return ProfileFiles(files, empty, unmatched)


def _expand(paths: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    """The paths named, each pattern replaced by what it matches; and the patterns that
    match nothing."""
    named: list[Path] = []
    unmatched: list[Path] = []
    for path in paths:
        if exists(path) or path.is_symlink() or not GLOB.search(str(path)):
            named.append(path)
            continue
        matches = _matches(path)
        named += matches
        if not matches:
            unmatched.append(path)
    return named, unmatched


def _matches(pattern: Path) -> list[Path]:
    """The paths a pattern matches, as a shell matches them (`**` any folders deep, a
    wildcard never matching a name that starts with a dot), never going into a folder
    through a symbolic link: links in a cycle would be walked round and round."""
    parts = pattern.parts
    fixed = next(i for i, part in enumerate(parts) if GLOB.search(part))
    base = Path(*parts[:fixed]) if fixed else Path()
    wild = parts[fixed:]
    dotted = any(part.startswith(".") for part in wild)
    try:
        found = sorted(base.glob(str(Path(*wild))))
    except (OSError, ValueError):  # a name the system refuses, a pattern pathlib refuses
        return []
    return [
        match
        for match in found
        if dotted or not any(p.startswith(".") for p in match.relative_to(base).parts)
    ]


def _diagnostics(task: tuple[Path, Path | None]) -> list[Diagnostic]:
    """The problems `validate` finds in one file (read under its root)."""
    return checked_file(*task).diagnostics


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "form",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
    help="How to print the problems.",
)
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
@click.option(
    "--workers", "-j", type=click.IntRange(min=1), help="Processes (default: every core)."
)
@root_option
@click.pass_context
def validate(
    ctx: click.Context, paths: tuple[Path, ...], form: str, strict: bool, workers: int | None
) -> None:
    """Check profile files (and folders of them); exit 1 when problems are found."""
    from rulesdsl.reason.executors import default_workers, results

    found = profile_files(paths)
    files = found.files
    tasks = [(path, current_root() or root) for path, root in files]
    checked = results(_diagnostics, tasks, workers or default_workers())
    problems = [d for diagnostics in checked for d in diagnostics]
    errors = sum(d.is_error for d in problems)
    warnings = len(problems) - errors
    if problems or form == "json":
        click.echo(render(problems, form))
    if form == "text":
        summary = f"{len(files)} file(s) checked: {errors} error(s), {warnings} warning(s)"
        click.echo(("\n" if problems else "") + summary, err=True)
    ctx.exit(1 if errors or (strict and (warnings or found.nothing_found)) else 0)


@click.command()
@click.argument("profile")
@root_option
@click.option("--json", "as_json", is_flag=True, help="Print the settings as JSON.")
@width_option
def show(profile: str, as_json: bool, width: int | None) -> None:
    """Print every option of a resolved profile, its value and where it came from."""
    resolved = load_profile(profile)
    dead, dead_stated = dead_rules(resolved.rules), dead_stated_rules(resolved.rules)
    if as_json:
        data = {
            "profile": resolved.name,
            "path": resolved.path,
            "extends": resolved.extends,
            "chain": list(resolved.chain),
            "title": resolved.title,
            "source": resolved.source,
            "options": {
                s.name: {
                    "value": s.text,
                    "origin": s.origin,
                    "profile": s.profile,
                    "line": s.line,
                    "assumed": s.assumed,
                    "note": s.note,
                    "note_from": s.note_from,
                    "never_acts": str(dead[s.name]) if s.name in dead else None,
                }
                for s in resolved.settings.values()
            },
            "rules": [
                {
                    "name": s.name,
                    "kind": s.rule.kind.value,
                    "clauses": dict(s.rule.clauses),
                    "say": dict(s.rule.sentences),
                    "origin": s.origin,
                    "profile": s.profile,
                    "line": s.line,
                    "never_acts": str(dead_stated[s.name]) if s.name in dead_stated else None,
                }
                for s in resolved.house
            ],
        }
        click.echo(json.dumps(data, indent=2))
        return
    lines = show_lines(resolved, Page.for_stdout(width).width, dead, dead_stated)
    click.echo("\n".join(safe_text(line) for line in lines))


def show_lines(
    profile: Profile,
    width: int,
    dead: Mapping[str, DeadRule] | None = None,
    dead_stated: Mapping[str, DeadRule] | None = None,
) -> list[str]:
    """The profile's header, then one entry per option: name, value, status and where it
    was set on one line while they fit, then the note wrapped beneath, and the mark of a
    rule in `dead` (one that can never act); then the rules the profile states, each with
    its mark when it is in `dead_stated`."""
    dead, dead_stated = dead or {}, dead_stated or {}
    lines = wrap(f"{profile.name}: {profile.title or '(no title)'}", width, "", "  ")
    for label, value in (
        ("file", profile.path),
        ("source", profile.source or "-"),
        ("chain", " -> ".join(profile.chain)),
    ):
        lines += wrap(value, width, f"  {label:<7}  ", " " * 11)
    lines.append("")
    name_width = max(len(name) for name in profile.settings)
    value_width = min(max(len(s.text) for s in profile.settings.values()), 18)
    for s in profile.settings.values():
        lines += _setting_lines(s, name_width, value_width, width)
        mark = dead_mark(phrases(), dead.get(s.name))
        lines += wrap(mark, width, " " * 6, " " * 7) if mark else []
    lines += [""] if profile.house else []
    for rule in profile.house:
        lines += _rule_lines(rule, width)
        mark = dead_mark(phrases(), dead_stated.get(rule.name))
        lines += wrap(mark, width, " " * 6, " " * 7) if mark else []
    return lines


def _rule_lines(setting: RuleSetting, width: int) -> list[str]:
    """A rule the profile states: its name and where it was stated, then its clauses."""
    indent = " " * 6
    lines = wrap(f"rule {setting.name}  {setting.where()}", width, "  ", indent)
    for word, text in setting.rule.clauses:
        lines += wrap(f"{word} {text}", width, indent, indent + "    ")
    return lines


def _setting_lines(s: Setting, name_width: int, value_width: int, width: int) -> list[str]:
    status = "assumed" if s.assumed else ("default" if s.origin == "default" else "stated")
    where = s.where() if s.origin != "default" else "registry default"
    indent = " " * 6
    row = f"  {s.name:<{name_width}}  {s.text:<{value_width}}  {status:<7}"
    if len(row) + 2 + len(where) <= width:
        lines = [f"{row}  {where}"]
    elif len(row.rstrip()) <= width:
        lines = [row.rstrip(), *wrap(where, width, indent, indent)]
    else:
        lines = [f"  {s.name}", *wrap(f"{s.text}  {status}  {where}", width, indent, indent)]
    return lines + _note_lines(s, indent, width)


def _note_lines(s: Setting, indent: str, width: int) -> list[str]:
    """The option's note, marked with the profile it comes from when inherited, wrapped
    under it."""
    mark = note_mark(phrases(), s.note, s.note_from)
    return wrap(mark, width, indent, indent + "      ") if mark else []


@click.command(name="list")
@width_option
def list_profiles(width: int | None) -> None:
    """List the shipped profiles with their titles."""
    names = shipped_names()
    column = max(len(n) for n in names)
    page = Page.for_stdout(width)
    for name in names:
        title = load(name).title or ""
        lines = wrap(title, page.width, f"{name:<{column}}  ", " " * (column + 2)) or [name]
        click.echo("\n".join(safe_text(line) for line in lines))


class Read(NamedTuple):
    """A profile file read for rewriting: its text, how the file lays it down, its
    document, and the problems that stop rewriting it (if any)."""

    text: str
    form: TextForm
    doc: Document
    problems: list[Diagnostic]


def _read(path: Path) -> Read:
    text, form, problems = read_laid_source(path)
    if text is None:
        return Read("", form, Document(str(path), "dsl"), problems)
    doc = read_document(path, text)
    return Read(text, form, doc, [] if doc.ok else doc.diagnostics)


@click.command()
@click.argument("path", type=LinkedPath(exists=True, dir_okay=False, path_type=Path))
@click.option("--to", "syntax", type=click.Choice(["dsl", "yaml"]), required=True)
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path),
    help="Write here instead of stdout (never over the input).",
)
def convert(path: Path, syntax: str, output: Path | None) -> None:
    """Convert a profile between the DSL and YAML, keeping values, notes and comments."""
    if output is not None:
        check_output(output, [path], "-o")
    read = _read(path)
    if read.problems:
        raise ProfileProblem(render(read.problems, "text"))
    text = rewrite(read.doc, syntax, path, read.form)
    if output is None:
        click.echo(read.form.lines(text), nl=False)
        return
    try:
        write_text(output, read.form.marked(read.form.lines(text)))
    except OutputError as error:
        write_failed(error)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@root_option
@click.option(
    "--check", is_flag=True, help="Change nothing; say which files would change, exit 1 if any."
)
@click.option(
    "--diff", is_flag=True, help="Change nothing; print the changes as a diff, exit 1 if any."
)
@click.pass_context
def fmt(ctx: click.Context, paths: tuple[Path, ...], check: bool, diff: bool) -> None:
    """Rewrite profile files in the canonical layout, keeping every comment.

    A file that cannot be read or written is reported and left as it was; the other files
    are still done, and the exit status is 1."""
    failed = changed = False
    for path, root in profile_files(paths).files:
        outside = outside_root(path, current_root() or root)
        if outside:
            click.echo(render([outside], "text"), err=True)
            failed = True
            continue
        text, form, doc, problems = _read(path)
        if problems:
            click.echo(render(problems, "text"), err=True)
            failed = True
            continue
        try:
            new = form.lines(rewrite(doc, doc.syntax, path, form))
            if new != text and not (check or diff):
                check_output(path)
                write_text(path, form.marked(new))
        except (UsageProblem, OutputError) as error:
            click.echo(safe_text(f"rulesdsl: error: {error}"), err=True)
            failed = True
            continue
        if new == text:
            continue
        changed = True
        if diff:
            click.echo(safe_lines(unified_diff(path, text, new)), nl=False)
        elif check:
            click.echo(safe_text(f"would reformat {path}"))
        else:
            click.echo(safe_text(f"reformatted {path}"))
    ctx.exit(1 if failed or ((check or diff) and changed) else 0)


def unified_diff(path: Path, old: str, new: str) -> str:
    """The change from `old` to `new` as a unified diff, as `diff -u` and `ruff --diff` print."""
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), str(path), str(path)
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


@click.command()
def schema() -> None:
    """Print the JSON Schema (draft-07) of YAML profiles."""
    click.echo(json.dumps(profile_schema(), indent=2))
