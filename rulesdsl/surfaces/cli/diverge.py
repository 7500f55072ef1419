"""`rulesdsl diverge A B`: one deal under two profiles, and where they part ways."""

from __future__ import annotations

import json

import click

from rulesdsl.model.cards import Card
from rulesdsl.model.result import HandResult
from rulesdsl.model.rules import Rules
from rulesdsl.model.text import safe_json, safe_lines
from rulesdsl.play.players import registry
from rulesdsl.service import ProfileProblem, UsageProblem
from rulesdsl.surfaces.cli.common import playable_rules, root_option, width_option
from rulesdsl.surfaces.cli.play import choose_players, default_seed, read_deck, seat_players
from rulesdsl.surfaces.cli.rules_text import lang_option
from rulesdsl.words.diverge import Divergence, first_divergence
from rulesdsl.words.explain import WIDTH, Phrases, phrases, wrap
from rulesdsl.words.layout import Page
from rulesdsl.words.transcript import Style


def read_rules(ref: str) -> Rules:
    """A profile's rules; a broken profile is reported in one line (its first problem)."""
    try:
        return playable_rules(ref)
    except ProfileProblem as problem:
        first, *others = str(problem).split("\n\n")
        lines = first.splitlines()
        hints = [line.split("= hint: ", 1)[1] for line in lines if "= hint: " in line]
        text = lines[0] + (f" ({hints[0]})" if hints else "")
        more = f"; {len(others)} more: `rulesdsl validate {ref}`" if others else ""
        raise ProfileProblem(text + more) from None


def read_order(deck: str, rules_a: Rules, rules_b: Rules) -> list[Card]:
    if rules_a.cards != rules_b.cards:
        raise UsageProblem(
            f"--deck: A plays {len(rules_a.cards)} cards and B {len(rules_b.cards)}, "
            "so no one deck order fits both; compare them with --seed"
        )
    return read_deck(deck, rules_a)


def bot_names(spec: str, players: int, seed: int) -> list[str]:
    seats, humans = seat_players(spec, players, seed, Style(False, []))
    if humans:
        raise UsageProblem("--bots: diverge needs a bot at every seat, not human")
    return [seat.name for seat in seats]


def outcome_text(outcome: HandResult, words: Phrases) -> str:
    if outcome.winner is None:
        return words.diverge("outcome_none", count=outcome.tricks, reason=outcome.reason)
    return words.diverge(
        "outcome_win", count=outcome.tricks, seat=outcome.winner, reason=outcome.reason
    )


def report_lines(
    found: Divergence | None, refs: tuple[str, str], width: int, words: Phrases
) -> list[str]:
    """Where the two profiles part and each hand's outcome, wrapped at spaces to `width`."""
    if found is None:
        return wrap(words.diverge("same"), width)
    lines = wrap(found.sentence, width, "", "  ")
    for label, ref, outcome in zip("AB", refs, (found.outcome_a, found.outcome_b), strict=True):
        told = outcome_text(outcome, words)
        line = words.diverge("outcome", side=label, profile=ref, outcome=told)
        lines += wrap(line, width, "  ", "    ")
    return lines


@click.command("diverge")
@root_option
@click.argument("profile_a", metavar="A")
@click.argument("profile_b", metavar="B")
@click.option("--seed", type=int, help="Seed for the shuffle, the dealer, the bots and the hand.")
@click.option("--deck", help='One deck order, top card first: "AS 10H 2C ...".')
@click.option(
    "--bots",
    default="random",
    show_default=True,
    help=f"Bot for every seat, or one per seat: {', '.join(registry.bot_names())}.",
)
@click.option("--players", "-n", type=int, help="Number of players (default 4).")
@click.option("--dealer", type=int, help="The dealer's seat (default: 0 with --deck, else seeded).")
@click.option("--json", "as_json", is_flag=True, help="The first divergence as one JSON object.")
@lang_option("The language of the sentences.")
@width_option
def diverge_command(
    profile_a: str,
    profile_b: str,
    seed: int | None,
    deck: str | None,
    bots: str,
    players: int | None,
    dealer: int | None,
    as_json: bool,
    lang: str,
    width: int | None,
) -> None:
    """Play one deal under profiles A and B with the same bots; show where they part ways."""
    rules_a, rules_b = read_rules(profile_a), read_rules(profile_b)
    count = choose_players(profile_a, rules_a, players)
    choose_players(profile_b, rules_b, count)
    order = read_order(deck, rules_a, rules_b) if deck is not None else None
    if dealer is None and order is not None:
        dealer = 0
    if seed is None and order is None and not as_json:
        seed = default_seed(seed, False)
        click.echo(f"Seed {seed}")
    seed = default_seed(seed, order is not None)
    names = bot_names(bots, count, seed)
    found = first_divergence(
        rules_a, rules_b, count, seed=seed, dealer=dealer, order=order, bots=names, lang=lang
    )
    # A rule's sentence comes from its profile: its control characters are shown as escapes.
    if as_json:
        click.echo(safe_json(json.dumps(found.to_dict() if found else {"diverged": False})))
    else:
        page = Page.for_stdout(width, WIDTH).width
        lines = report_lines(found, (profile_a, profile_b), page, phrases(lang))
        click.echo(safe_lines("\n".join(lines)))
