"""What every `rulesdsl` command shares: the group, the profile option, user errors."""

from __future__ import annotations

from collections.abc import Sequence

import click

from rulesdsl.bots import UnknownBot
from rulesdsl.cards import CardError
from rulesdsl.diagnostics import render
from rulesdsl.options import OptionError
from rulesdsl.profile import DEFAULT_PROFILE, Profile, load
from rulesdsl.rules import Rules, RulesError, parse_assignments

USER_ERRORS = (OptionError, CardError, RulesError, UnknownBot)


class UsageProblem(Exception):
    """A problem with what the user asked for: reported in one line, exit status 2."""


class ProfileProblem(Exception):
    """A profile that cannot be used: its diagnostics are shown, exit status 2."""


def profile_option(command):
    return click.option(
        "--profile",
        "-p",
        default=DEFAULT_PROFILE,
        show_default=True,
        help="A shipped profile's name or a profile file.",
    )(command)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulesdsl")
def cli() -> None:
    """Write, check and play the rules of Linger Longer."""


def load_profile(ref: str) -> Profile:
    """A profile by name or path; a profile with errors stops the command (status 2)."""
    profile = load(ref)
    errors = [d for d in profile.diagnostics if d.is_error]
    if errors:
        raise ProfileProblem(render(errors, "text"))
    return profile


def build_rules(profile: str, settings: Sequence[str]) -> Rules:
    """The profile's rules with each `--set NAME=VALUE` applied."""
    rules = load_profile(profile).rules
    for item in settings:
        try:
            rules = rules.with_options(parse_assignments([item]))
        except OptionError as error:
            raise UsageProblem(f"--set {item}: {error}") from None
    return rules
