"""`rulesdsl analyze`: what each rule of a profile can ever do, with proofs and witnesses."""

from __future__ import annotations

import json

import click

from rulesdsl.reason.analysis.report import analyse
from rulesdsl.surfaces.cli.common import load_profile, root_option, width_option
from rulesdsl.words.analysis import text
from rulesdsl.words.layout import Page


@click.command()
@click.argument("profiles", nargs=-1, required=True)
@click.option("--players", "-n", type=int, help="Analyse this player count only.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per profile on stdout.")
@width_option
@root_option
def analyze(
    profiles: tuple[str, ...], players: int | None, as_json: bool, width: int | None
) -> None:
    """For each player count: how long a hand lasts, how low the stock gets, and for every
    rule whether it can ever act (never, with a proof; can, with a hand that replays)."""
    columns = Page.for_stdout(width).width
    for ref in profiles:
        profile = load_profile(ref)
        analysis = analyse(profile.name, profile.rules, players)
        click.echo(json.dumps(analysis.to_dict()) if as_json else text(analysis, ref, columns))
