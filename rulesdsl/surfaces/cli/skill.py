"""`rulesdsl skill PROFILE`: what skill is worth under a profile, and how much is luck."""

from __future__ import annotations

import json
import math
from functools import partial

import click

from rulesdsl.model.text import safe_text
from rulesdsl.reason.estimate import Estimate
from rulesdsl.reason.executors import default_workers
from rulesdsl.reason.skill import SOLVE_BUDGET, Skill, SkillSpec, figures, play
from rulesdsl.service import UsageProblem, checked_executor
from rulesdsl.surfaces.cli.common import root_option
from rulesdsl.surfaces.cli.diverge import read_rules
from rulesdsl.surfaces.cli.play import choose_players
from rulesdsl.surfaces.cli.sim import with_progress

MOST_WORLDS = 1_000
"""The largest --worlds and --pimc."""


@click.command("skill")
@root_option
@click.argument("profile")
@click.option("--players", "-n", type=int, help="Number of players (default 4).")
@click.option("--deals", type=int, default=400, show_default=True, help="Deals to play.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the deals.")
@click.option(
    "--worlds",
    type=int,
    default=50,
    show_default=True,
    help="Worlds (playouts for the seat that sees everything) the solver's bots try a card in.",
)
@click.option(
    "--pimc", type=int, default=50, show_default=True, help="Worlds of the playout pimc bot."
)
@click.option(
    "--budget",
    type=int,
    default=SOLVE_BUDGET,
    show_default=True,
    help="The most positions a seat's question of a deal may visit; past it, unsolved.",
)
@click.option("--workers", "-j", type=int, help="Processes (default: every core).")
@click.option(
    "--executor",
    default="local",
    show_default=True,
    help="local, or dask://HOST:PORT to run on a Dask cluster.",
)
@click.option("--json", "as_json", is_flag=True, help="The figures as one JSON object.")
def skill_command(
    profile: str,
    players: int | None,
    deals: int,
    seed: int,
    worlds: int,
    pimc: int,
    budget: int,
    workers: int | None,
    executor: str,
    as_json: bool,
) -> None:
    """What skill is worth: the share of deals decided before play, and the win share
    against three heuristic bots of a seat that sees everything, every hand but not the
    stock, its own cards (pimc scored by the solver, and by playouts), and the heuristic;
    and a luck index."""
    rules = read_rules(profile)
    count = choose_players(profile, rules, players)
    _check(deals, worlds, pimc, budget, workers)
    checked_executor(executor)
    spec = SkillSpec(safe_text(profile), rules, count, deals, seed, worlds, pimc, budget)
    run = partial(play, spec, workers or default_workers())
    found = figures(spec, with_progress(run, executor, spec.deals, "playing"))
    if as_json:
        click.echo(json.dumps(found.to_dict(), indent=2))
    else:
        click.echo("\n".join(lines(found)))


def _check(deals: int, worlds: int, pimc: int, budget: int, workers: int | None) -> None:
    if deals < 2:
        raise UsageProblem("--deals must be at least 2")
    for name, value in (("--worlds", worlds), ("--pimc", pimc)):
        if not 1 <= value <= MOST_WORLDS:
            raise UsageProblem(f"{name} {value}: expected a whole number from 1 to {MOST_WORLDS:,}")
    if budget < 1:
        raise UsageProblem("--budget must be at least 1")
    if workers is not None and workers < 1:
        raise UsageProblem("--workers must be at least 1")


def lines(found: Skill) -> list[str]:
    """The figures as text."""
    spec = found.spec
    fair = 1 / spec.players
    decided = found.decided
    out = [
        f"{spec.label}, {spec.players} players, {found.deals:,} deals, seed {spec.seed}: "
        "what skill is worth (95% intervals)",
        f"decided before play (some seat can force a win, every card known): "
        f"{_share(decided.share)} ({_share(decided.low)}..{_share(decided.high)})",
    ]
    if decided.unsolved:
        out.append(
            f"  unsolved within the budget: {decided.unsolved:,} of the deals; the interval counts "
            "them both ways"
        )
    out.append(f"win share of one seat against three heuristic bots (an even share is {fair:.1%}):")
    width = max(len(f"{r.rung.name} ({r.rung.bot})") for r in found.rungs)
    for rung in found.rungs:
        said = f"{rung.rung.name} ({rung.rung.bot})"
        gain = "" if rung.rung.bot == "heuristic" else f"   {_signed(rung.gain)} over the heuristic"
        out.append(f"  {said:<{width}}  {_estimate(rung.share)}{gain}")
    luck = found.luck
    out.append(
        f"luck index: {_plain(luck.mean)} ({_plain(luck.low)}..{_plain(luck.high)}): of the wins "
        "the heuristic seat leaves to the others, the share that the seat that sees everything "
        "still cannot take (1: the deal decides all, 0: seeing everything wins every hand)"
    )
    return out


def _share(value: float) -> str:
    return "unknown" if math.isnan(value) else f"{value:.1%}"


def _plain(value: float) -> str:
    return "unknown" if math.isnan(value) else f"{value:.2f}"


def _estimate(estimate: Estimate) -> str:
    return f"{_share(estimate.mean)} ({_share(estimate.low)}..{_share(estimate.high)})"


def _signed(estimate: Estimate) -> str:
    def points(value: float) -> str:
        return f"{100 * value:+.1f}"

    return f"{points(estimate.mean)} points ({points(estimate.low)}..{points(estimate.high)})"
