"""The one registry of players' names: the simple bots and the bots that search (`KIND:N`),
and the player a name makes."""

from __future__ import annotations

from rulesdsl.model.hints import did_you_mean
from rulesdsl.model.kinds import OptionError
from rulesdsl.model.text import shorten
from rulesdsl.play.engine.driver import Player
from rulesdsl.play.kernel.worlds import MAX_BUDGET
from rulesdsl.play.players.bots import BOTS
from rulesdsl.play.players.search.bot import SEARCH_BOTS, SearchBot


class UnknownBot(OptionError):
    """A bot name that is not one of BOTS, nor a search bot `KIND:N`."""


MAX_SEARCH = MAX_BUDGET
"""The largest N a search bot takes."""


def bot_names() -> list[str]:
    """Every bot name, the search bots as `KIND:N`."""
    return [*BOTS, *(f"{kind}:N" for kind in SEARCH_BOTS)]


def search_size(name: str) -> tuple[str, int] | None:
    """`(kind, N)` for a search bot's name `KIND:N`; None for any other name. Raises
    UnknownBot when N is not a whole number from 1 to MAX_SEARCH."""
    kind, colon, count = name.partition(":")
    if not colon or kind not in SEARCH_BOTS:
        return None
    text = count.strip()
    digits = text.isascii() and text.isdigit() and len(text) <= len(str(MAX_SEARCH))
    if not digits or not 1 <= int(text) <= MAX_SEARCH:
        raise UnknownBot(
            f"bot '{shorten(name, 40)}': N in {kind}:N is how many "
            f"{SEARCH_BOTS[kind]} it searches per decision, a whole "
            f"number from 1 to {MAX_SEARCH:,}; e.g. {kind}:50"
        )
    return kind, int(text)


def is_search_bot(name: str) -> bool:
    return search_size(name) is not None


def make_bot(name: str, seed: int = 0) -> Player:
    size = search_size(name)
    if size is not None:
        kind, count = size
        return SearchBot(kind, count, seed)
    if name not in BOTS:
        hint = did_you_mean(name.partition(":")[0], [*BOTS, *SEARCH_BOTS])
        raise UnknownBot(f"unknown bot '{name}': expected one of {', '.join(bot_names())}{hint}")
    return BOTS[name](seed)
