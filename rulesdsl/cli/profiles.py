"""Profile commands: validate, show, list, convert, fmt and schema."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import click

from rulesdsl.cli.common import (
    ProfileProblem,
    UsageProblem,
    cli,
    current_root,
    load_profile,
    root_option,
)
from rulesdsl.diagnostics import Diagnostic, render, safe_text
from rulesdsl.profile import SYNTAXES, load, load_file, read_document, read_source, shipped_names
from rulesdsl.schema import profile_schema
from rulesdsl.syntax.document import Document
from rulesdsl.syntax.writer import write


def profile_files(paths: Iterable[Path]) -> list[Path]:
    """The profile files named, and those found (recursively) in the folders named."""
    return [file for file, _ in collection(paths)]


def collection(paths: Iterable[Path]) -> list[tuple[Path, Path]]:
    """Each profile file named or found in a folder named, with its collection's root: the
    folder named, or the folder of a file named on its own."""
    files: list[tuple[Path, Path]] = []
    for path in paths:
        if path.is_dir():
            found = [
                (p, path)
                for p in sorted(path.rglob("*"))
                if p.suffix in SYNTAXES
                and not p.is_dir()
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            ]
            files += found
        elif path.exists():  # the reader names what it is, if not a file
            files.append((path, path.parent))
        else:
            raise UsageProblem(f"{path}: no such file or folder")
    return files


@cli.command()
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
@root_option
@click.pass_context
def validate(ctx: click.Context, paths: tuple[Path, ...], form: str, strict: bool) -> None:
    """Check profile files (and folders of them); exit 1 when problems are found."""
    files = collection(paths)
    problems: list[Diagnostic] = []
    for path, root in files:
        problems += load_file(path, current_root() or root).diagnostics
    errors = sum(d.is_error for d in problems)
    warnings = len(problems) - errors
    if problems or form == "json":
        click.echo(render(problems, form))
    if form == "text":
        summary = f"{len(files)} file(s) checked: {errors} error(s), {warnings} warning(s)"
        click.echo(("\n" if problems else "") + summary, err=True)
    ctx.exit(1 if errors or (strict and warnings) else 0)


@cli.command()
@click.argument("profile")
@root_option
@click.option("--json", "as_json", is_flag=True, help="Print the settings as JSON.")
def show(profile: str, as_json: bool) -> None:
    """Print every option of a resolved profile, its value and where it came from."""
    resolved = load_profile(profile)
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
                }
                for s in resolved.settings.values()
            },
        }
        click.echo(json.dumps(data, indent=2))
        return
    lines = [
        f"{resolved.name}: {resolved.title or '(no title)'}",
        f"  file     {resolved.path}",
        f"  source   {resolved.source or '-'}",
        f"  chain    {' -> '.join(resolved.chain)}",
        "",
    ]
    width = max(len(name) for name in resolved.settings)
    value_width = max(len(s.text) for s in resolved.settings.values())
    for s in resolved.settings.values():
        status = "assumed" if s.assumed else ("default" if s.origin == "default" else "stated")
        where = s.where() if s.origin != "default" else "registry default"
        note = f"  ({s.note})" if s.note else ""
        lines.append(f"  {s.name:<{width}}  {s.text:<{value_width}}  {status:<7}  {where}{note}")
    click.echo("\n".join(safe_text(line) for line in lines))


@cli.command(name="list")
def list_profiles() -> None:
    """List the shipped profiles with their titles."""
    names = shipped_names()
    width = max(len(n) for n in names)
    for name in names:
        click.echo(safe_text(f"{name:<{width}}  {load(name).title or ''}"))


def _read(path: Path) -> tuple[str, Document, list[Diagnostic]]:
    """The file's text and document, and the problems that stop rewriting it (if any)."""
    text, problems = read_source(path)
    if text is None:
        return "", Document(str(path), "dsl"), problems
    doc = read_document(path, text)
    return text, doc, [] if doc.ok else doc.diagnostics


def _same_content(a: Document, b: Document) -> bool:
    """The same profile and the same comments: what converting and formatting must keep."""

    def content(doc: Document):
        entries = Counter((e.key, e.value, e.assumed, e.note) for e in doc.entries)
        return doc.name, doc.extends, entries, Counter(c.text for c in doc.comments)

    return content(a) == content(b)


def rewrite(doc: Document, syntax: str, path: Path) -> str:
    """The document in `syntax`, checked to say the same thing with every comment kept."""
    text = write(doc, syntax)
    suffix = ".rules" if syntax == "dsl" else ".yaml"
    again = read_document(path.with_suffix(suffix), text)
    if not again.ok or not _same_content(doc, again):
        raise UsageProblem(f"{path}: cannot be rewritten without changing it; please report this")
    return text


@cli.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--to", "syntax", type=click.Choice(["dsl", "yaml"]), required=True)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write here instead of stdout.",
)
def convert(path: Path, syntax: str, output: Path | None) -> None:
    """Convert a profile between the DSL and YAML, keeping values, notes and comments."""
    _, doc, problems = _read(path)
    if problems:
        raise ProfileProblem(render(problems, "text"))
    text = rewrite(doc, syntax, path)
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--check", is_flag=True, help="Change nothing; exit 1 if a file would change.")
@click.pass_context
def fmt(ctx: click.Context, paths: tuple[Path, ...], check: bool) -> None:
    """Rewrite profile files in the canonical layout, keeping every comment."""
    failed = changed = False
    for path in profile_files(paths):
        text, doc, problems = _read(path)
        if problems:
            click.echo(render(problems, "text"), err=True)
            failed = True
            continue
        new = rewrite(doc, doc.syntax, path)
        if new == text:
            continue
        changed = True
        if check:
            click.echo(f"would reformat {path}")
        else:
            path.write_text(new, encoding="utf-8")
            click.echo(f"reformatted {path}")
    ctx.exit(1 if failed or (check and changed) else 0)


@cli.command()
def schema() -> None:
    """Print the JSON Schema (draft-07) of YAML profiles."""
    click.echo(json.dumps(profile_schema(), indent=2))
