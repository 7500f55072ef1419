"""The `rulesdsl` command: arguments in, a library call, output formatted."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from rulesdsl.cli.common import USER_ERRORS, ProfileProblem, UsageProblem, cli
from rulesdsl.diagnostics import SAID, safe_lines

__all__ = ["cli", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; user mistakes become a clear message on stderr and exit status 2."""
    args = list(sys.argv[1:] if argv is None else argv) or ["--help"]
    try:
        code = cli.main(args=args, prog_name="rulesdsl", standalone_mode=False)
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
    return code if isinstance(code, int) else 0
