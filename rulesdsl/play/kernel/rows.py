"""What a hand's searches work on, for CPython (`search.play_dealt`, `search.replay`): the
record of what the seats see, the search's rows, the states and the seats' streams; and
the error of a search that cannot be made (`SearchError`, `searched`)."""

from __future__ import annotations

from typing import Any

from rulesdsl.model.rules import Rules, RulesError
from rulesdsl.play.engine.plan import plan_for
from rulesdsl.play.kernel.state import SEATS, Seen, State
from rulesdsl.play.kernel.worlds import Work


class SearchError(RulesError):
    """A hand a search bot cannot search: one not dealt by `Hand.deal`, a profile the
    kernel cannot play, or a seat for which no consistent world was found."""


def not_searchable(reason: object) -> SearchError:
    """The SearchError of a profile the kernel cannot play, for `reason`."""
    return SearchError(f"search bots cannot play this profile: {reason}")


def check_searchable(rules: Rules) -> None:
    """SearchError where a search's worlds would not keep what its seat saw: a rule that
    decides who leads from the dealt hands, which the worlds are not drawn to agree with,
    or one that has a player draw too or puts a player out with cards, whose draws and
    cards out of play the sampler does not draw."""
    plan = plan_for(rules)
    if plan.first_lead:
        raise not_searchable(
            f"the rule {plan.first_lead[0].rule} decides who leads from the dealt hands, "
            "which the search's worlds are not drawn to agree with"
        )
    for rules_at, what in ((plan.also_draws, "who draws too"), (plan.out_rules, "who is out")):
        if rules_at:
            raise not_searchable(
                f"the rule {rules_at[0].rule} says {what}, which the search's worlds are not "
                "drawn to agree with"
            )


class States(list[Any]):
    """The states a search works on, for CPython: each made as it is first asked for."""

    def __getitem__(self, k: Any) -> Any:
        while len(self) <= k:
            self.append(State())
        return super().__getitem__(k)


def search_rows() -> tuple[Any, Any, States, list[Any]]:
    """`g`, `w`, `states` and `streams`, for CPython."""
    return Seen(), Work(), States(), [None] * SEATS


def searched(gave_up: int) -> None:
    """SearchError where a search of the hand found no world consistent with what its
    seat saw (`gave_up` decisions, as the search's rows count them)."""
    if gave_up:
        raise SearchError("a search found no world consistent with what its seat saw")
