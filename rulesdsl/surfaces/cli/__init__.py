"""The `rulesdsl` command: arguments in, a library call, output formatted."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Sequence

import click

from rulesdsl.model.text import safe_lines
from rulesdsl.read.diagnostics import SAID
from rulesdsl.surfaces.cli.common import USER_ERRORS, ProfileProblem, UsageProblem, cli

__all__ = ["cli", "main"]

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
