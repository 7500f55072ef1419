"""What a hand's searches work on, for CPython (`search.play_dealt`, `search.replay`): the
record of what the seats see, the search's rows, the states and the seats' streams; and
the error of a search that cannot be made (`SearchError`, `searched`)."""

from __future__ import annotations

from typing import Any

from rulesdsl.model.rules import RulesError
from rulesdsl.play.kernel.state import SEATS, Seen, State
from rulesdsl.play.kernel.worlds import Work


class SearchError(RulesError):
    """A hand a search bot cannot search: one not dealt by `Hand.deal`, a profile the
    kernel cannot play, or a seat for which no consistent world was found."""


def not_searchable(reason: object) -> SearchError:
    """The SearchError of a profile the kernel cannot play, for `reason`."""
    return SearchError(f"search bots cannot play this profile: {reason}")


class States(dict[int, Any]):
    """The states a search works on, for CPython, by index: each made as it is first asked
    for."""

    def __missing__(self, k: int) -> Any:
        return self.setdefault(k, State())


def search_rows() -> tuple[Any, Any, States, list[Any]]:
    """`g`, `w`, `states` and `streams`, for CPython."""
    return Seen(), Work(), States(), [None] * SEATS


def searched(gave_up: int) -> None:
    """SearchError where a search of the hand found no world consistent with what its
    seat saw (`gave_up` decisions, as the search's rows count them)."""
    if gave_up:
        raise SearchError("a search found no world consistent with what its seat saw")
