"""`rulesdsl simulate` and `rulesdsl compare`: paired simulation of profiles."""

from __future__ import annotations

import importlib.util
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TypeVar

import click

from rulesdsl.model.hints import did_you_mean
from rulesdsl.model.text import safe_text
from rulesdsl.play.players.registry import bot_names
from rulesdsl.read.outputs import OutputError, check_output, replacing
from rulesdsl.reason.analysis.sameness import Sameness, sameness_lines, samenesses
from rulesdsl.reason.attribution import Attribution, attributions
from rulesdsl.reason.executors import default_workers
from rulesdsl.reason.sequence import Stopping
from rulesdsl.reason.sequential import (
    ALPHA,
    MAX_HANDS,
    MAX_SLOW_HANDS,
)
from rulesdsl.reason.sim import Result, Spec
from rulesdsl.reason.verdict import COUNT_MARGIN, SHARE_MARGIN
from rulesdsl.service import (
    UsageProblem,
    checked_executor,
    checked_rotation,
    checked_spec,
    checked_stopping,
    known_metric,
    labels,
    most_played,
    played,
    printed,
)
from rulesdsl.surfaces.cli.common import (
    build_rules,
    profile_inputs,
    root_option,
    width_option,
    write_failed,
)
from rulesdsl.words.explain import wrap
from rulesdsl.words.layout import Page

GOOD_PLAY = "pimc:10"
"""The bot of `--good-play` given without one."""
CLI_STOPPING = {"alpha": "--alpha", "metrics": "--metrics"}
"""The options of `--until-decided`, as a refusal names them."""


def sim_options(command):
    options = [
        click.option("--players", "-n", type=int, default=4, show_default=True),
        click.option("--hands", type=int, help="Paired hands to play (default 10,000)."),
        click.option("--matches", type=int, help="Paired matches to play, instead of hands."),
        click.option(
            "--bots",
            default="random",
            show_default=True,
            help=f"One bot for every seat, or one per seat: {', '.join(bot_names())}.",
        ),
        click.option("--seed", type=int, default=0, show_default=True),
        click.option(
            "--set",
            "settings",
            multiple=True,
            metavar="NAME=VALUE",
            help="Set an option in every profile simulated.",
        ),
        click.option("--workers", "-j", type=int, help="Processes (default: every core)."),
        click.option(
            "--executor",
            default="local",
            show_default=True,
            help="local, or dask://HOST:PORT to run on a Dask cluster.",
        ),
        click.option(
            "--good-play",
            is_flag=False,
            flag_value=GOOD_PLAY,
            metavar="[BOT]",
            help="Also play every deal with this bot at every seat (default "
            f"{GOOD_PLAY}; one search bot hand takes about as long as thousands of random "
            "ones): the next step of skill, seat shares, comebacks and rule coverage under "
            "good play.",
        ),
        click.option(
            "--rotate-seats",
            is_flag=True,
            help="Play each deal once from every seat, the hands turned a seat each time "
            "(the number of hands a multiple of the players): narrower seat shares.",
        ),
        click.option(
            "--skill/--no-skill",
            default=True,
            show_default=True,
            help="Also measure the heuristic bot against random bots.",
        ),
        click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout."),
        click.option("--csv", "as_csv", is_flag=True, help="Print CSV on stdout."),
        click.option(
            "--plot",
            type=click.Path(dir_okay=False, path_type=Path),
            help="Draw each measure's difference from the baseline and the hand lengths "
            "to a .png or .svg file.",
        ),
        width_option,
    ]
    for option in reversed(options):
        command = option(command)
    return root_option(command)


@click.command()
@click.argument("profile")
@sim_options
def simulate(profile: str, **options) -> None:
    """Simulate one profile: win shares by seat, hand lengths, endings, rule coverage."""
    simulate_profiles([profile], **options)


def compare_options(command):
    options = [
        click.option(
            "--baseline",
            metavar="NAME",
            help="Compare every other profile with this one (default: the first).",
        ),
        click.option(
            "--all-pairs",
            is_flag=True,
            help="Compare every profile with every other, not with a baseline.",
        ),
        click.option(
            "--margin",
            "margins",
            multiple=True,
            metavar="METRIC=VALUE",
            help=f"Within how much METRIC counts as the same (default: {SHARE_MARGIN}, one "
            f"point, for a share; {COUNT_MARGIN} for a count per hand).",
        ),
        click.option(
            "--attribute",
            is_flag=True,
            help="Split each difference among the rules in which the profiles differ "
            "(Shapley values, every profile on the way played on the same deals).",
        ),
        click.option(
            "--until-decided",
            is_flag=True,
            help="Play in rounds until every measure of --metrics has a verdict, with "
            "intervals valid however the run stops.",
        ),
        click.option(
            "--alpha",
            type=float,
            default=ALPHA,
            show_default=True,
            help="Under --until-decided: the chance that any verdict is wrong.",
        ),
        click.option(
            "--max-hands",
            type=int,
            help=f"Under --until-decided: the most hands to play (default {MAX_HANDS:,}; "
            f"{MAX_SLOW_HANDS:,} with a search bot or --good-play).",
        ),
        click.option(
            "--metrics",
            "judged",
            multiple=True,
            metavar="METRIC,...",
            help="Under --until-decided: the measures to decide (default: seat win shares, "
            "hand length, how hands end, the skill gap).",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@click.command()
@click.argument("profiles", nargs=-1, required=True)
@compare_options
@sim_options
def compare(profiles: tuple[str, ...], **options) -> None:
    """Play the same deals under two or more profiles and report, against the first (or
    the baseline), each paired difference and the verdict on it."""
    if len(profiles) < 2:
        raise UsageProblem("compare needs at least two profiles")
    simulate_profiles(list(profiles), **options)


def simulate_profiles(
    refs: list[str],
    players: int,
    hands: int | None,
    matches: int | None,
    bots: str,
    seed: int,
    settings: tuple[str, ...],
    workers: int | None,
    executor: str,
    skill: bool,
    good_play: str | None,
    rotate_seats: bool,
    as_json: bool,
    as_csv: bool,
    plot: Path | None,
    width: int | None,
    baseline: str | None = None,
    all_pairs: bool = False,
    margins: tuple[str, ...] = (),
    attribute: bool = False,
    until_decided: bool = False,
    alpha: float = ALPHA,
    max_hands: int | None = None,
    judged: tuple[str, ...] = (),
) -> None:
    _check_until(until_decided, hands, matches, alpha, max_hands, judged)
    if hands is not None and matches is not None:
        raise UsageProblem("give --hands or --matches, not both")
    if as_json and as_csv:
        raise UsageProblem("give --json or --csv, not both")
    if attribute and matches is not None:
        raise UsageProblem("--attribute splits the differences of hands: give --hands")
    units = matches if matches is not None else (hands if hands is not None else 10_000)
    if units < 1:
        raise UsageProblem("the number of hands or matches must be at least 1")
    names = labels(refs)
    first = _baseline(baseline, all_pairs, names, refs)
    labelled = [(label, build_rules(ref, settings)) for label, ref in zip(names, refs, strict=True)]
    spec = checked_spec(
        labelled,
        players,
        units,
        matches is not None,
        bots,
        seed,
        skill,
        good_play,
        first,
        all_pairs,
        rotate_seats,
    )
    given = _margins(margins, spec)
    stopping = _stopping(spec, alpha, max_hands, judged) if until_decided else None
    checked_rotation(spec, most_played(spec, stopping))
    checked_executor(executor)
    if plot is not None:
        _check_plot(plot, refs)
    same = samenesses(spec.profiles, players, spec.pairs)
    if not (as_json or as_csv):
        columns = Page.for_stdout(width).width
        for line in sameness_lines(same):
            click.echo("\n".join(wrap(line, columns, "", "  ")))
    play = partial(played, spec, stopping, same, given, workers or default_workers())
    result = with_progress(play, executor, most_played(spec, stopping))
    asked = attribute and not result.interrupted
    split = attributions(spec, same, result.units.n) if asked else None
    _output(result, as_json, as_csv, plot, Page.for_stdout(width), same, given, split)
    if result.interrupted:
        click.get_current_context().exit(130)


def _check_until(
    until_decided: bool,
    hands: int | None,
    matches: int | None,
    alpha: float,
    max_hands: int | None,
    judged: tuple[str, ...],
) -> None:
    """Refuse options of `--until-decided` that do not go together."""
    if not until_decided:
        if max_hands is not None or judged or alpha != ALPHA:
            raise UsageProblem("--alpha, --max-hands and --metrics go with --until-decided")
        return
    if hands is not None or matches is not None:
        raise UsageProblem(
            "--until-decided chooses how many hands to play: give --max-hands, not "
            "--hands or --matches"
        )
    if max_hands is not None and max_hands < 1:
        raise UsageProblem("--max-hands must be at least 1")


def _stopping(spec: Spec, alpha: float, max_hands: int | None, judged: tuple[str, ...]) -> Stopping:
    """How `--until-decided` plays `spec`: the measures it decides, its rounds, its cap."""
    names = [n.strip() for text in judged for n in text.split(",") if n.strip()]
    return checked_stopping(spec, alpha, max_hands, names, CLI_STOPPING)


def _baseline(chosen: str | None, all_pairs: bool, names: list[str], refs: list[str]) -> int:
    """The index of the profile `--baseline` names, by its label or as given."""
    if chosen is None:
        return 0
    if all_pairs:
        raise UsageProblem("give --baseline or --all-pairs, not both")
    for found in (names, refs):
        if chosen in found:
            return found.index(chosen)
    raise UsageProblem(
        f"--baseline {safe_text(chosen)}: it must be one of the profiles compared "
        f"({', '.join(names)}){did_you_mean(chosen, names)}"
    )


def _margins(given: tuple[str, ...], spec: Spec) -> dict[str, float]:
    """The margins `--margin METRIC=VALUE` gives, by metric name."""
    from rulesdsl.words.report import measured

    known = {m.name: m for m in measured(spec)}
    margins = {}
    for text in given:
        name, equals, value = text.partition("=")
        name = name.strip()
        if not equals:
            raise UsageProblem(f"--margin {safe_text(text)}: give METRIC=VALUE")
        metric = known_metric(known, name, f"--margin {safe_text(text)}")
        margins[name] = _margin_value(text, value, metric.share)
    return margins


def _margin_value(text: str, value: str, share: bool) -> float:
    """A margin as given: a number from 0, below 1 for a share (0.01 is one point)."""
    try:
        margin = float(value)
    except ValueError:
        margin = math.nan
    if not 0 <= margin < (1 if share else math.inf):
        need = "of a share must be from 0 to below 1 (0.01 is one point)" if share else ""
        raise UsageProblem(
            f"--margin {safe_text(text)}: the margin {need or 'must be a number from 0'}"
        )
    return margin


def _check_plot(plot: Path, refs: list[str]) -> None:
    """Refuse, before the simulation, a plot that could not be written."""
    if plot.suffix.lower() not in (".png", ".svg"):
        raise UsageProblem(f"--plot {plot}: the file must end in .png or .svg")
    if importlib.util.find_spec("matplotlib") is None:
        raise UsageProblem("--plot needs matplotlib: pip install 'rulesdsl[plot]'")
    check_output(plot, profile_inputs(refs), "--plot")


Done = TypeVar("Done")


def with_progress(
    play: Callable[..., Done], executor: str, total: int, doing: str = "simulating"
) -> Done:
    """`play(progress, executor)`, with a progress bar of `total` units on a terminal's
    stderr."""
    if not sys.stderr.isatty():
        return play(None, executor)
    from rich.progress import Progress

    with Progress(transient=True, console=_stderr_console()) as bar:
        task = bar.add_task(doing, total=total)
        update: Callable[[int], None] = lambda done: bar.update(task, completed=done)  # noqa: E731
        return play(update, executor)


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)


def _output(
    result: Result,
    as_json: bool,
    as_csv: bool,
    plot: Path | None,
    page: Page,
    same: Sequence[Sameness] = (),
    margins: Mapping[str, float] | None = None,
    split: Sequence[Attribution] | None = None,
) -> None:
    from rulesdsl.words import attribution, forest, report

    if result.interrupted:
        click.echo(f"interrupted: reporting the {result.units.n:,} units done", err=True)
    if as_json or as_csv:
        click.echo(printed(result, same, as_csv, margins, split), nl=False)
    else:
        click.echo(report.render(result, page, same, margins), nl=False)
        for found in split or ():
            said = attribution.lines(found, result.spec)
            wrapped = [part for line in said for part in wrap(line, page.width, "", "    ")]
            click.echo("\n" + "\n".join(wrapped))
    if plot is not None:
        try:
            with replacing(plot) as temp:
                forest.plot(result, str(temp), same)
        except OutputError as error:
            write_failed(error)
