"""What every `rulesdsl` command shares: the group, the profile option, user errors."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rulesdsl.model.kinds import OptionError
from rulesdsl.model.rules import parse_assignments
from rulesdsl.read.outputs import OutputError
from rulesdsl.read.profile import DEFAULT_PROFILE
from rulesdsl.service import LinkedPath, ProfileProblem, UsageProblem

if TYPE_CHECKING:
    from rulesdsl.model.rules import Rules
    from rulesdsl.read.profile import Profile


def profile_option(command):
    return root_option(
        click.option(
            "--profile",
            "-p",
            default=DEFAULT_PROFILE,
            show_default=True,
            help="A shipped profile's name or a profile file.",
        )(command)
    )


_ROOT = "rulesdsl.root"


def _remember_root(ctx: click.Context, param: click.Parameter, value: Path | None) -> None:
    if value is not None:
        ctx.meta[_ROOT] = value


def root_option(command):
    """`--root DIR`: the folder a profile's `extends` paths must stay inside."""
    return click.option(
        "--root",
        type=LinkedPath(exists=True, file_okay=False, path_type=Path),
        expose_value=False,
        callback=_remember_root,
        help="The collection's folder: `extends` paths must stay inside it "
        "(default: the folder of the profile file).",
    )(command)


def current_root() -> Path | None:
    """The `--root` of the command running, if it was given."""
    ctx = click.get_current_context(silent=True)
    return ctx.meta.get(_ROOT) if ctx is not None else None


def load_profile(ref: str) -> Profile:
    """A profile by name or path; a profile with errors stops the command (status 2)."""
    from rulesdsl.read.diagnostics import render
    from rulesdsl.read.profile import load

    profile = load(ref, root=current_root())
    errors = [d for d in profile.diagnostics if d.is_error]
    if errors:
        raise ProfileProblem(render(errors, "text"))
    return profile


def playable_rules(ref: str) -> Rules:
    """A profile's rules for a command that plays them."""
    return load_profile(ref).rules


def build_rules(profile: str, settings: Sequence[str]) -> Rules:
    """The profile's rules with each `--set NAME=VALUE` applied, checked as `validate`
    checks a file: a value it would refuse, or an option set twice, is a UsageProblem."""
    from rulesdsl.read.check import rule_problems

    rules = playable_rules(profile)
    given: dict[str, str] = {}
    for item in settings:
        try:
            ((name, value),) = parse_assignments([item]).items()
            rules = rules.with_options({name: value})
        except OptionError as error:
            raise UsageProblem(f"--set {item}: {error}") from None
        if name in given:
            raise UsageProblem(f"--set {item}: {name} is set twice (also --set {given[name]})")
        given[name] = item
    for problem in rule_problems(rules) if given else ():
        if problem.is_error:
            blamed = [given[n] for n in problem.options if n in given] or list(given.values())
            hint = f"; {problem.hint}" if problem.hint else ""
            raise UsageProblem(f"--set {blamed[-1]} on {profile}: {problem.message}{hint}")
    return rules


def profile_inputs(refs: Iterable[str]) -> list[Path]:
    """Every file the profiles named are read from: each one's file and its `extends` chain."""
    return [path for ref in refs for path in load_profile(ref).files]


def write_failed(error: OutputError) -> None:
    """A write that failed after the work, once its results are shown: one line, exit 1."""
    click.echo(f"rulesdsl: error: {error}", err=True)
    click.get_current_context().exit(1)


def width_option(command):
    return click.option(
        "--width",
        type=click.IntRange(min=20),
        help="Lay the report out for this many columns "
        "(default: the terminal's width, or 100 when not on a terminal).",
    )(command)
