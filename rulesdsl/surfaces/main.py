"""The `rulesdsl` command: every surface's commands under one name, each module imported
only when its command runs (so a command starts quickly), and the errors a command can end
with said in one line.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import sys
from collections.abc import Sequence

import click

from rulesdsl.model.text import safe_lines
from rulesdsl.read.diagnostics import SAID
from rulesdsl.service import USER_ERRORS, ProfileProblem, UsageProblem

COMMANDS = {
    "play": ("rulesdsl.surfaces.cli.play", "play"),
    "options": ("rulesdsl.surfaces.cli.rules_text", "options"),
    "validate": ("rulesdsl.surfaces.cli.profiles", "validate"),
    "show": ("rulesdsl.surfaces.cli.profiles", "show"),
    "list": ("rulesdsl.surfaces.cli.profiles", "list_profiles"),
    "convert": ("rulesdsl.surfaces.cli.profiles", "convert"),
    "fmt": ("rulesdsl.surfaces.cli.profiles", "fmt"),
    "schema": ("rulesdsl.surfaces.cli.profiles", "schema"),
    "explain": ("rulesdsl.surfaces.cli.rules_text", "explain"),
    "diff": ("rulesdsl.surfaces.cli.rules_text", "diff_command"),
    "diverge": ("rulesdsl.surfaces.cli.diverge", "diverge_command"),
    "simulate": ("rulesdsl.surfaces.cli.sim", "simulate"),
    "compare": ("rulesdsl.surfaces.cli.sim", "compare"),
    "analyze": ("rulesdsl.surfaces.cli.analyze", "analyze"),
    "solve": ("rulesdsl.surfaces.cli.solve", "solve_command"),
    "skill": ("rulesdsl.surfaces.cli.skill", "skill_command"),
    "lsp": ("rulesdsl.surfaces.lsp.command", "lsp"),
    "serve": ("rulesdsl.surfaces.web.command", "serve"),
}
"""Each command, the module that defines it and its name there. tests/surfaces/test_cli.py checks
this against the commands."""


class Commands(click.Group):
    """The commands of every surface, each imported when it is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attribute = COMMANDS[name]
        return getattr(importlib.import_module(module), attribute)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulesdsl")
def cli() -> None:
    """Write, check and play the rules of Linger Longer."""


# How writing to standard output fails: a closed pipe, a full disk, a broken device.
OUTPUT_FAILURES = {errno.EPIPE, errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; user mistakes become a clear message on stderr and exit status 2."""
    args = list(sys.argv[1:] if argv is None else argv) or ["--help"]
    try:
        code = cli.main(args=args, prog_name="rulesdsl", standalone_mode=False)
        sys.stdout.flush()
    except (click.UsageError, click.FileError) as error:
        click.echo(safe_lines(f"rulesdsl: error: {error.format_message()}", SAID), err=True)
        return 2
    except (UsageProblem, *USER_ERRORS) as error:
        click.echo(safe_lines(f"rulesdsl: error: {error}", SAID), err=True)
        return 2
    except ProfileProblem as error:
        click.echo(str(error), err=True)
        return 2
    except click.Abort:
        click.echo("", err=True)
        return 130
    except OSError as error:
        if error.filename is not None or error.errno not in OUTPUT_FAILURES:
            raise
        return _stdout_failed(error)
    return code if isinstance(code, int) else 0


def _stdout_failed(error: OSError) -> int:
    """Standard output that cannot be written (a full disk, a closed pipe): one line on
    stderr, exit status 1, and nothing more sent there."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if not isinstance(error, BrokenPipeError):
        click.echo(f"rulesdsl: error: cannot write the output: {error.strerror}", err=True)
    return 1
