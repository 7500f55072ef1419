"""The `lsp` command: the language server for editors."""

from __future__ import annotations

import click

from rulesdsl.service import UsageProblem

NEEDS = ("pygls", "lsprotocol")


@click.command()
@click.option(
    "--stdio", is_flag=True, help="Talk over stdin and stdout (the only way; the default)."
)
def lsp(stdio: bool) -> int:
    """Run the language server for profiles (.rules and YAML) over stdin and stdout."""
    del stdio
    try:
        from rulesdsl.surfaces.lsp.server import serve
    except ImportError as error:
        if (error.name or "").partition(".")[0] not in NEEDS:
            raise
        raise UsageProblem("the language server needs pygls: pip install 'rulesdsl[lsp]'") from None
    return serve()
