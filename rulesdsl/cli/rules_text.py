"""`rulesdsl explain` and `rulesdsl diff`: profiles as rule sheets, and compared."""

from __future__ import annotations

import click

from rulesdsl.cli.common import cli, load_profile, root_option
from rulesdsl.diagnostics import safe_json, safe_lines
from rulesdsl.diff import diff_profiles, render_json, render_text
from rulesdsl.explain import DEFAULT_LANGUAGE, languages, rule_sheet


@cli.command()
@click.argument("profile")
@root_option
@click.option(
    "--lang",
    type=click.Choice(languages()),
    default=DEFAULT_LANGUAGE,
    show_default=True,
    help="The language of the sheet.",
)
def explain(profile: str, lang: str) -> None:
    """Print a profile as a readable rule sheet; assumed values are marked."""
    click.echo(safe_lines(rule_sheet(load_profile(profile), lang)), nl=False)


@cli.command(name="diff")
@click.argument("a")
@click.argument("b")
@root_option
@click.option(
    "--format",
    "form",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="How to print the differences.",
)
@click.pass_context
def diff_command(ctx: click.Context, a: str, b: str, form: str) -> None:
    """Compare two profiles option by option; exit 1 when they differ."""
    first, second = load_profile(a), load_profile(b)
    differences = diff_profiles(first, second)
    if form == "json":
        click.echo(safe_json(render_json(differences)))
    else:
        names = (first.name, second.name) if first.name != second.name else (a, b)
        click.echo(safe_lines(render_text(differences, *names)), nl=False)
    ctx.exit(1 if differences else 0)
