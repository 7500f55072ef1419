"""`rulesdsl explain`, `diff` and `options`: profiles as rule sheets, compared, and the
options they are written in."""

from __future__ import annotations

from collections.abc import Callable

import click
from click import Command

from rulesdsl.model.rules import OPTIONS, option_values, options_table
from rulesdsl.model.text import safe_json, safe_lines
from rulesdsl.surfaces.cli.common import load_profile, root_option, width_option
from rulesdsl.words.diff import diff_profiles, diff_rules, render_json, render_text
from rulesdsl.words.explain import DEFAULT_LANGUAGE, WIDTH, languages, rule_sheet, wrap
from rulesdsl.words.layout import Page


def lang_option(help_text: str) -> Callable[[Command], Command]:
    """`--lang`: one of the languages of the phrase files, English by default."""
    return click.option(
        "--lang",
        type=click.Choice(languages()),
        default=DEFAULT_LANGUAGE,
        show_default=True,
        help=help_text,
    )


@click.command()
@click.argument("profile")
@root_option
@lang_option("The language of the sheet.")
@width_option
def explain(profile: str, lang: str, width: int | None) -> None:
    """Print a profile as a readable rule sheet; assumed values are marked."""
    text = rule_sheet(load_profile(profile), lang, Page.for_stdout(width, WIDTH).width)
    click.echo(safe_lines(text), nl=False)


@click.command(name="diff")
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
@width_option
@click.pass_context
def diff_command(ctx: click.Context, a: str, b: str, form: str, width: int | None) -> None:
    """Compare two profiles option by option; exit 1 when they differ."""
    first, second = load_profile(a), load_profile(b)
    differences = diff_profiles(first, second)
    rules = diff_rules(first, second)
    if form == "json":
        click.echo(safe_json(render_json(differences, rules)))
    else:
        names = (first.name, second.name) if first.name != second.name else (a, b)
        page = Page.for_stdout(width, WIDTH)
        text = render_text(differences, *names, page.width, rules)
        click.echo(safe_lines(text), nl=False)
    ctx.exit(1 if differences or rules else 0)


@click.command()
@click.option("--markdown", is_flag=True, help="As one Markdown table.")
@width_option
def options(markdown: bool, width: int | None) -> None:
    """List every option with its values, default and meaning."""
    click.echo(options_table() if markdown else options_text(Page.for_stdout(width, WIDTH).width))


def options_text(width: int) -> str:
    """One block per option: its name and default, then its values and meaning wrapped."""
    lines: list[str] = []
    for opt in OPTIONS.values():
        lines += wrap(f"{opt.name} (default {opt.text(opt.default)})", width, "", "    ")
        lines += wrap(f"values: {option_values(opt)}", width, "    ", "            ")
        lines += wrap(opt.description, width, "    ", "    ")
    return "\n".join(lines)
