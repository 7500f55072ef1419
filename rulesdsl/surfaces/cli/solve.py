"""`rulesdsl solve PROFILE`: one deal with every card known, and which seat can force a win."""

from __future__ import annotations

import json

import click

from rulesdsl.model.cards import Card
from rulesdsl.model.seeds import shuffle
from rulesdsl.model.stream import Stream
from rulesdsl.model.text import safe_text
from rulesdsl.reason.solver import BUDGET, Solution, solve_deal
from rulesdsl.service import UsageProblem
from rulesdsl.surfaces.cli.common import root_option
from rulesdsl.surfaces.cli.diverge import read_rules
from rulesdsl.surfaces.cli.play import choose_players, read_deck


@click.command("solve")
@root_option
@click.argument("profile")
@click.option("--players", "-n", type=int, help="Number of players (default 4).")
@click.option("--deck", help='The deck order, top card first: "AS 10H 2C ..." (default: shuffled).')
@click.option("--dealer", type=int, default=0, show_default=True, help="The dealer's seat.")
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Seed of the reshuffles, and of the deck order when --deck is not given.",
)
@click.option(
    "--budget",
    type=int,
    default=BUDGET,
    show_default=True,
    help="The most positions one seat's question may visit; past it, the seat is unsolved.",
)
@click.option("--json", "as_json", is_flag=True, help="The answers as one JSON object.")
def solve_command(
    profile: str,
    players: int | None,
    deck: str | None,
    dealer: int,
    seed: int,
    budget: int,
    as_json: bool,
) -> None:
    """Solve one deal with every hand and the stock's order known: for each seat, whether
    it can force a win of the hand whatever the others play, and a line of play that
    shows it."""
    rules = read_rules(profile)
    count = choose_players(profile, rules, players)
    if not 0 <= dealer < count:
        raise UsageProblem(f"--dealer {dealer}: the seats are 0 to {count - 1}")
    if budget < 1:
        raise UsageProblem("--budget must be at least 1")
    order = read_deck(deck, rules) if deck is not None else _shuffled(list(rules.cards), seed)
    solution = solve_deal(rules, count, order, dealer, seed, budget)
    said = {"profile": safe_text(profile), "players": count, "dealer": dealer, "seed": seed}
    if as_json:
        deal = {**said, "deck": " ".join(map(str, order))}
        click.echo(json.dumps({**deal, **solution.to_dict()}, indent=2))
    else:
        click.echo("\n".join(_lines(solution, order)))


def _shuffled(cards: list[Card], seed: int) -> list[Card]:
    shuffle(cards, Stream(seed))
    return cards


def _lines(solution: Solution, order: list[Card]) -> list[str]:
    lines = [f"deck: {' '.join(map(str, order))}"]
    for answer in solution.seats:
        if answer.can_force_win is None:
            verdict = f"unsolved within the budget ({answer.positions:,} positions)"
        else:
            can = "can" if answer.can_force_win else "cannot"
            verdict = f"{can} force a win ({answer.positions:,} positions)"
        lines.append(f"seat {answer.seat}: {verdict}")
        if answer.line:
            lines.append(f"  line: {' '.join(map(str, answer.line))}")
    winner = solution.forced_winner
    if winner is not None:
        lines.append(f"forced winner: seat {winner}")
    elif solution.solved:
        lines.append("forced winner: none (no seat can force a win)")
    else:
        lines.append("forced winner: unknown (some seat is unsolved)")
    return lines
