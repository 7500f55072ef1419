"""`rulesdsl play` and `rulesdsl options`: games in the terminal, as JSON, or traced."""

from __future__ import annotations

import json
import random
import shlex
import sys
from pathlib import Path

import click
from click.core import ParameterSource

from rulesdsl.model.cards import ORDER_EXPECTED, Card, CardError, parse_deck
from rulesdsl.model.rules import Rules
from rulesdsl.model.seeds import derive
from rulesdsl.play.engine.driver import Listener, Player, play_hand
from rulesdsl.play.engine.events import Event
from rulesdsl.play.engine.hand import Hand
from rulesdsl.play.engine.match import Match
from rulesdsl.play.players.registry import bot_names, make_bot
from rulesdsl.read.outputs import OutputError, OutputStream, check_output
from rulesdsl.read.sources import SourceError, read_text
from rulesdsl.service import UsageProblem
from rulesdsl.surfaces.cli.common import (
    build_rules,
    profile_inputs,
    profile_option,
    write_failed,
)
from rulesdsl.surfaces.cli.rules_text import lang_option
from rulesdsl.words.explain import DEFAULT_LANGUAGE
from rulesdsl.words.terminal import HumanPlayer, prompt_reader
from rulesdsl.words.transcript import Style, Trace, Transcript

DECK_FILE = "a deck file"


def read_decks(path: Path, rules: Rules) -> list[list[Card]]:
    """One deck order per line; blank lines and lines starting with # are skipped. A file
    that is not one is refused naming the line and column, its text escaped and cut."""
    try:
        lines = read_text(path, what=DECK_FILE).split("\n")
    except SourceError as error:
        place = f"{path}:{error.pos.line}:{error.pos.column}" if error.line else str(path)
        hint = f"; {error.hint}" if error.hint else ""
        raise UsageProblem(f"--decks {place}: {error.message}{hint}") from None
    decks = []
    for number, line in enumerate(lines, 1):
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                decks.append(parse_deck(line, rules.cards))
            except CardError as error:
                column = f":{error.column}" if error.column else ""
                raise UsageProblem(f"--decks {path}:{number}{column}: {error}") from None
    if not decks:
        raise UsageProblem(f"--decks {path} holds no deck order; expected {ORDER_EXPECTED}")
    return decks


def read_deck(text: str, rules: Rules) -> list[Card]:
    """The deck order given with --deck."""
    try:
        return parse_deck(text, rules.cards)
    except CardError as error:
        column = f" (column {error.column})" if error.column else ""
        raise UsageProblem(f"--deck{column}: {error}") from None


def seat_players(
    spec: str, players: int, seed: int, style: Style, lang: str = DEFAULT_LANGUAGE
) -> tuple[list[Player], list[int]]:
    """Players from `--bots`: one name for every seat, or one per seat; `human` is a person,
    told in `lang` why a card is refused."""
    names = [n.strip() for n in spec.split(",")]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise UsageProblem(f"--bots names {len(names)} seats, but there are {players} players")
    seats: list[Player] = []
    humans = []
    for seat, name in enumerate(names):
        if name == "human":
            humans.append(seat)
            seats.append(HumanPlayer(style, prompt_reader, click.echo, lang))
        else:
            seats.append(make_bot(name, derive(seed, "bot", seat)))
    return seats, humans


# Options that do not change the game played, left out of the replay command.
NOT_REPLAYED = ("trace",)


def replay_command(seed: int) -> str:
    """The command line that replays this game: the options given, and the seed used."""
    ctx = click.get_current_context()
    words = ["rulesdsl", ctx.info_name or "play"]
    for param in ctx.command.params:
        if not isinstance(param, click.Option) or param.name in NOT_REPLAYED:
            continue
        given = ctx.get_parameter_source(param.name) is ParameterSource.COMMANDLINE
        if param.name == "seed":
            words += [param.opts[0], str(seed)]
        elif given:
            words += option_words(param, ctx.params[param.name])
    return shlex.join(words)


def option_words(param: click.Option, value: object) -> list[str]:
    """An option and its value as typed: a flag, its `--no-` form, or each value given."""
    name = max(param.opts, key=len)
    if param.is_flag:
        return [name if value else max(param.secondary_opts, key=len)]
    values = value if param.multiple else (value,)
    return [word for v in values for word in (name, str(v))]


def default_seed(seed: int | None, deck_given: bool) -> int:
    """The seed asked for; 0 when a deck order is given, so the deal replays exactly
    (reshuffles and random bots included); otherwise a fresh one, which is printed."""
    if seed is not None:
        return seed
    return 0 if deck_given else random.SystemRandom().randrange(2**32)


def choose_players(profile: str, rules: Rules, players: int | None) -> int:
    low, high = rules.players
    count = players if players is not None else min(max(4, low), high)
    rules.check_players_of(profile, count)
    return count


@click.command()
@profile_option
@click.option("--players", "-n", type=int, help="Number of players (default 4).")
@click.option(
    "--bots",
    help=f"Bot for every seat, or one per seat: {', '.join(bot_names())}, "
    "or human for a person (default: you at seat 0 against heuristic bots).",
)
@click.option("--seed", type=int, help="Seed for the shuffle, the first dealer and the bots.")
@click.option("--dealer", type=int, help="The dealer's seat (default: from the seed).")
@click.option("--deck", help='One deck order, top card first: "AS 10H 2C ...".')
@click.option(
    "--decks",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A file of deck orders, one per line: plays one hand per line.",
)
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE", help="Set an option.")
@click.option(
    "--trace",
    type=click.Path(path_type=Path, allow_dash=True),
    help="Write every event as a JSON line to this file (- for stdout).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand on stdout.")
@click.option("--color/--no-color", default=None, help="Colour the transcript.")
@lang_option("The language a person is told why a card is refused in.")
def play(
    profile: str,
    players: int | None,
    bots: str | None,
    seed: int | None,
    dealer: int | None,
    deck: str | None,
    decks: Path | None,
    settings: tuple[str, ...],
    trace: Path | None,
    as_json: bool,
    color: bool | None,
    lang: str,
) -> None:
    """Play a match, or one hand per deck order, with bots or yourself at a seat."""
    rules = build_rules(profile, settings)
    count = choose_players(profile, rules, players)
    if deck is not None and decks is not None:
        raise UsageProblem("give --deck or --decks, not both")
    orders = [read_deck(deck, rules)] if deck is not None else None
    if decks is not None:
        orders = read_decks(decks, rules)
    if dealer is not None and not 0 <= dealer < count:
        raise UsageProblem(f"--dealer {dealer}: seats are 0 to {count - 1}")
    seed = default_seed(seed, orders is not None)
    use_color = sys.stdout.isatty() if color is None else color
    if bots is None and not sys.stdin.isatty():
        raise UsageProblem(
            "no terminal to play at: give a bot for every seat, e.g. --bots heuristic"
        )
    spec = bots or ("human," + ",".join(["heuristic"] * (count - 1)))
    style = Style(use_color, [])
    seats, humans = seat_players(spec, count, seed, style, lang)
    style.names = [p.name for p in seats]
    if humans and as_json:
        raise UsageProblem("--json needs bots at every seat")
    if trace is not None:
        check_output(trace, [*profile_inputs([profile]), *([decks] if decks else [])], "--trace")
    if not as_json:
        click.echo(f"Seed {seed}; to replay: {replay_command(seed)}")
    stream = OutputStream(trace) if trace is not None else None
    listener = event_listener(style, humans, count, as_json, stream, rules)
    if orders is not None:
        play_decks(rules, count, orders, dealer or 0, seed, seats, listener, as_json)
    else:
        play_one_match(rules, count, seed, dealer, seats, listener, as_json)
    if stream is not None:
        try:
            stream.close()
        except OutputError as error:
            write_failed(error)


def event_listener(
    style: Style,
    humans: list[int],
    count: int,
    as_json: bool,
    trace: OutputStream | None,
    rules: Rules | None = None,
) -> Listener:
    """The readers of the event stream: the transcript (unless --json) and the trace.
    A person sees only their own cards."""
    hidden = [s for s in range(count) if s not in humans] if humans else []
    readers: list[Listener] = []
    if not as_json:
        readers.append(Transcript(style, click.echo, hidden, rules))
    if trace is not None:
        readers.append(Trace(trace))

    def listener(event: Event) -> None:
        for reader in readers:
            reader(event)

    return listener


def play_decks(
    rules: Rules,
    count: int,
    orders: list[list[Card]],
    dealer: int,
    seed: int,
    seats: list[Player],
    listener: Listener,
    as_json: bool,
) -> None:
    for number, order in enumerate(orders, 1):
        hand = Hand.deal(rules, count, dealer, order, derive(seed, "hand", number - 1))
        outcome = play_hand(hand, seats, listener)
        if as_json:
            click.echo(json.dumps({"hand": number, "dealer": dealer, **outcome.to_dict()}))


def play_one_match(
    rules: Rules,
    count: int,
    seed: int,
    dealer: int | None,
    seats: list[Player],
    listener: Listener,
    as_json: bool,
) -> None:
    match = Match(rules, count, seed, dealer)
    while not match.over:
        hand_dealer = match.dealer
        outcome = play_hand(match.deal(), seats, listener)
        for event in match.record(outcome):
            listener(event)
        if as_json:
            line = {"hand": match.hands_played, "dealer": hand_dealer, **outcome.to_dict()}
            line["points"] = list(match.points)
            line["match_winners"] = list(match.winners) if match.winners else None
            click.echo(json.dumps(line))
