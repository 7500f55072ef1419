"""Which rules that differ between two profiles can never act, and whether the two
therefore play identical hands, or identical games (for `compare`).

Profiles A and B differ in some options and in some rules they state. RuleChange A into B one
rule at a time: take away A's own rules that B lacks, set each differing option, then add
B's own rules that A lacks. Where each rule changed is proved never to act in the profile
it is changed in (the one it is taken from, or the one it is added to), each step plays
the same games as the one before (the games agree up to the first time the rule acts, and
it never does), so A and B play identical games. Rules that act only between hands (the
score, the match's end, the next dealer) come last: where every other step is proved, the
hands are identical even if the matches are not. Nothing else is claimed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rulesdsl.model.language.rule import HouseRule
from rulesdsl.model.rules import OPTIONS, Rules
from rulesdsl.model.units.base import Step
from rulesdsl.reason.analysis.report import DeadRule, dead_rules, dead_stated_rules

# The player counts a profile allows decide where it can be played, not how.
NOT_PLAYED = ("players",)


class ChangeKind(StrEnum):
    """How a rule changes on the way from A to B."""

    TAKEN_AWAY = "taken_away"  # a rule of A's own that B lacks
    SET = "set"  # an option set to B's value
    ADDED = "added"  # a rule of B's own that A lacks


@dataclass(frozen=True)
class RuleChange:
    """One rule changed on the way from A to B, and the profiles before and after it."""

    name: str
    kind: ChangeKind
    between_hands: bool
    before: Rules
    after: Rules


@dataclass(frozen=True)
class Sameness:
    """Two profiles at one player count: the rules they differ in, those of them proved
    never to act (with the proofs), and what that proves of their hands and games."""

    first: str
    second: str
    players: int
    differing: tuple[str, ...]
    dead: dict[str, DeadRule]  # differing rules proved never to act where they change
    same_hands: bool  # every deal is played the same
    identical: bool  # every match is played the same, too
    match_rules: tuple[str, ...] = ()  # differing rules of the match not proved idle

    def dead_note(self, name: str) -> str:
        return (
            f"{name} differs between {self.first} and {self.second} but never acts with "
            f"{self.players} players: {self.dead[name].proof}"
        )

    @property
    def identical_note(self) -> str:
        return f"{self.first} and {self.second} play identical games with {self.players} players"

    @property
    def same_hands_note(self) -> str:
        return (
            f"{self.first} and {self.second} play the same hands with {self.players} players; "
            f"the rules of their matches differ ({', '.join(self.match_rules)})"
        )

    def notes(self) -> list[str]:
        """What `compare` says of the pair before its table."""
        lines = [self.dead_note(name) for name in self.dead]
        if self.identical:
            lines.append(self.identical_note)
        elif self.same_hands:
            lines.append(self.same_hands_note)
        return lines

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.first,
            "b": self.second,
            "players": self.players,
            "differing": list(self.differing),
            "never_act": {name: dead.proof for name, dead in self.dead.items()},
            "same_hands": self.same_hands,
            "match_rules_differ": list(self.match_rules),
            "identical": self.identical,
            "notes": self.notes(),
        }


def _with_house(rules: Rules, house: Sequence[HouseRule]) -> Rules:
    return dataclasses.replace(rules, house_rules=tuple(house))


def _between_hands(rule: HouseRule) -> bool:
    return set(rule.step_names) <= {Step.SCORE}


def _kept(rules: Rules, other: Rules) -> list[HouseRule]:
    """The rules both profiles state alike and in the same order (rules in another order
    may play otherwise: they count as taken away and added)."""
    both = [r for r in rules.house_rules if r in other.house_rules]
    return both if both == [r for r in other.house_rules if r in both] else []


@dataclass(frozen=True)
class RuleEdit:
    """A change to make: a rule of A's own to take away, an option to set, a rule of B's own
    to add."""

    name: str
    kind: ChangeKind
    between_hands: bool
    rule: HouseRule | None = None


def edits(rules: Rules, other: Rules) -> list[RuleEdit]:
    """The changes to make to `rules` to make `other`, those between hands last."""
    kept = _kept(rules, other)
    added = [r for r in other.house_rules if r not in kept]
    renamed = {r.name for r in added}  # taken away before a rule of its name is added
    found = [
        RuleEdit(r.name, ChangeKind.TAKEN_AWAY, _between_hands(r) and r.name not in renamed, r)
        for r in rules.house_rules
        if r not in kept
    ]
    found += [
        RuleEdit(name, ChangeKind.SET, unit.between_hands)
        for name, unit in OPTIONS.items()
        if name not in NOT_PLAYED and getattr(rules, name) != getattr(other, name)
    ]
    found += [RuleEdit(r.name, ChangeKind.ADDED, _between_hands(r), r) for r in added]
    return sorted(found, key=lambda step: step.between_hands)


def apply(rules: Rules, step: RuleEdit, other: Rules) -> Rules:
    """`rules` with the change `step` made (an added rule in its place among `other`'s)."""
    if step.kind is ChangeKind.SET:
        return dataclasses.replace(rules, **{step.name: getattr(other, step.name)})
    if step.kind is ChangeKind.TAKEN_AWAY:
        return _with_house(rules, [r for r in rules.house_rules if r != step.rule])
    placed = [r for r in other.house_rules if r in rules.house_rules or r == step.rule]
    return _with_house(rules, placed + [r for r in rules.house_rules if r not in placed])


def changes(rules: Rules, other: Rules) -> list[RuleChange]:
    """The changes that take `rules` to `other`: rules of A's own taken away, options set,
    rules of B's own added (each in its place among B's); those that act only between
    hands after all the others."""
    found, current = [], rules
    for step in edits(rules, other):
        after = apply(current, step, other)
        found.append(RuleChange(step.name, step.kind, step.between_hands, current, after))
        current = after
    return found


def sameness(first: tuple[str, Rules], second: tuple[str, Rules], players: int) -> Sameness:
    (a, rules), (b, other) = first, second
    unproved: dict[bool, list[str]] = {False: [], True: []}
    dead = {}
    path = changes(rules, other)
    for change in path:
        proof = _dead(
            change.after if change.kind is ChangeKind.ADDED else change.before, change, players
        )
        if proof is None:
            unproved[change.between_hands].append(change.name)
        elif change.kind is not ChangeKind.SET or _dead(change.after, change, players) is not None:
            dead[change.name] = proof
    same_hands = not unproved[False]
    identical = same_hands and not unproved[True]
    differing = tuple(change.name for change in path)
    match_rules = tuple(unproved[True])
    return Sameness(a, b, players, differing, dead, same_hands, identical, match_rules)


def never_acts(change: RuleChange, players: int) -> bool:
    """Whether the analysis proves the changed rule never to act where it changes: in the
    profile it is taken from or added to; an option, under both its values."""
    if change.kind is ChangeKind.ADDED:
        where = [change.after]
    elif change.kind is ChangeKind.TAKEN_AWAY:
        where = [change.before]
    else:
        where = [change.before, change.after]
    return all(_dead(rules, change, players) is not None for rules in where)


def _dead(rules: Rules, change: RuleChange, players: int) -> DeadRule | None:
    """The proof that the changed rule never acts in `rules` at `players`, if the analysis
    has one."""
    if change.kind is ChangeKind.SET:
        return dead_rules(rules, [players]).get(change.name)
    return dead_stated_rules(rules, [players]).get(change.name)


def samenesses(
    profiles: Sequence[tuple[str, Rules]],
    players: int,
    pairs: Sequence[tuple[int, int]] | None = None,
) -> list[Sameness]:
    """Each pair (a, b) of `pairs`, by index into `profiles`, at `players`; without
    `pairs`, each profile against the first."""
    found = pairs if pairs is not None else [(0, b) for b in range(1, len(profiles))]
    return [sameness(profiles[a], profiles[b], players) for a, b in found]


def sameness_lines(found: Sequence[Sameness]) -> list[str]:
    """What `compare` says before its table: for each pair compared, the differing rules
    that never act, and which pairs play identical games or hands."""
    lines = [line for same in found for line in same.notes()]
    return lines + ([""] if lines else [])
