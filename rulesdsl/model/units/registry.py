"""Where the rule units come from: the entry points of the group `rulesdsl.rules`.

rulesdsl declares its own units there (pyproject.toml), and so can any installed package.
The built-in units come first, in their fixed order (the order of the play filters and of
the rule sheet); then every other package's units, sorted by name. Each unit from another
package is checked as it is loaded; one that fails a check is refused: it is left out, and
the refusal is said once on stderr, naming the package and the entry point.

The built-in units are declared in the group too, as one family (the entry point
`rulesdsl = rulesdsl.model.units:BUILT_IN_UNITS`: the modules of rulesdsl/model/units that declare a
UNIT, in the order of their places), but they are taken from that tuple itself: so they are
found from a source tree without the package's metadata, or with metadata older than the
source, and in their fixed order; a new built-in rule is its module alone. The metadata is
read only when a package other than rulesdsl declares the group.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from rulesdsl.model.kinds import Choice
from rulesdsl.model.result import EndReason
from rulesdsl.model.units.base import (
    COMPOSITION,
    ENDING_STEPS,
    PROFILE_WORDS,
    Composition,
    Step,
    Unit,
)
from rulesdsl.model.units.shape import shape_problem

GROUP = "rulesdsl.rules"
OWN_PACKAGE = "rulesdsl"


class UnitRefused(ValueError):
    """A unit from another package that cannot be used as a rule."""


@dataclass(frozen=True)
class UnitRefusal:
    """A unit left out: which package and entry point offered it, and why."""

    package: str
    entry_point: str
    reason: str

    def __str__(self) -> str:
        return (
            f"rulesdsl: warning: the rule unit '{self.entry_point}' of package {self.package} "
            f"(entry point group {GROUP}) is refused and left out: {self.reason}"
        )


@dataclass(frozen=True)
class Registry:
    """The units to use, in order, and the units refused."""

    units: tuple[Unit, ...]
    refused: tuple[UnitRefusal, ...]


def load(built_in: Sequence[Unit], points: Iterable[Any] | None = None) -> Registry:
    """The built-in units in their order, then the other packages' units sorted by name.

    `points` are entry points of the group (by default, the installed ones)."""
    points = list(_installed() if points is None else points)
    units = list(built_in)
    taken = dict.fromkeys((unit.name for unit in units), f"{OWN_PACKAGE} (a built-in rule)")
    refused = []
    others = sorted((p for p in points if _package(p) != OWN_PACKAGE), key=_order)
    for point in others:
        try:
            unit = checked(point, taken)
            clash = next(step_clashes(unit, units), None)
            if clash is not None:
                raise UnitRefused(clash)
            units.append(unit)
            taken[point.name] = _package(point)
        except UnitRefused as error:
            refused.append(
                UnitRefusal(_package(point), f"{point.name} = {point.value}", str(error))
            )
    return Registry(tuple(units), tuple(refused))


def report(registry: Registry) -> None:
    """Say each refusal on stderr, one line each."""
    for refusal in registry.refused:
        print(refusal, file=sys.stderr)


def _installed() -> Iterable[Any]:
    """The installed entry points of the group; none if no other package declares it (then
    the built-ins are the very units their entry points name)."""
    if not others_declare(sys.path):
        return ()
    from importlib.metadata import entry_points  # a fifth of the start-up time

    return entry_points(group=GROUP)


def others_declare(path: Iterable[str]) -> bool:
    """Whether a package other than rulesdsl on `path` may declare entry points of the
    group: read from the packages' entry_points.txt, with a yes for what cannot be read so
    (a zip file on the path)."""
    header = f"[{GROUP}]".encode()
    for entry in path:
        folder = Path(entry or ".")
        if folder.is_file():
            return True
        for info in _metadata_folders(folder):
            if info.name.partition("-")[0] == OWN_PACKAGE:
                continue
            points = info / "entry_points.txt"
            if points.is_file() and header in points.read_bytes():
                return True
    return False


def _metadata_folders(folder: Path) -> Iterator[Path]:
    try:
        with os.scandir(folder) as found:
            names = [e.name for e in found if e.name.endswith((".dist-info", ".egg-info"))]
    except OSError:  # a path entry that is no folder, or one that cannot be read
        return
    yield from (folder / name for name in names)


def _package(point: Any) -> str:
    dist = getattr(point, "dist", None)
    return dist.name if dist is not None else "(unknown package)"


def _order(point: Any) -> tuple[str, str]:
    return point.name, _package(point)


def checked(point: Any, taken: Mapping[str, str]) -> Unit:
    """The unit an entry point names, if it can be used alongside the rules `taken` (each
    name and the package that registered it)."""
    try:
        unit = point.load()
    except Exception as error:  # whatever a package's import raises, it is refused whole
        raise UnitRefused(f"it cannot be loaded: {type(error).__name__}: {error}") from None
    if not isinstance(unit, Unit):
        raise UnitRefused(f"it is a {type(unit).__name__}, not a rulesdsl.model.units.base.Unit")
    if unit.name != point.name:
        raise UnitRefused(f"the entry point is named '{point.name}' but the unit '{unit.name}'")
    if not unit.name.isidentifier() or unit.name != unit.name.lower():
        raise UnitRefused(f"'{unit.name}' is not a rule name (lower case letters, digits, _)")
    if unit.name in PROFILE_WORDS:
        raise UnitRefused(f"'{unit.name}' is a word of every profile, not a rule name")
    if unit.name in taken:
        raise UnitRefused(f"the rule '{unit.name}' is already registered by {taken[unit.name]}")
    problem = next(shape_problems(unit), None)
    if problem is not None:
        raise UnitRefused(problem)
    return unit


def step_clashes(unit: Unit, units: Iterable[Unit]) -> Iterator[str]:
    """Each step `unit` declares that only one rule may decide and one of `units` already
    decides, named with both rules."""
    for other in units:
        for step in sorted(unit.steps & other.steps):
            if COMPOSITION[step] is Composition.EXCLUSIVE:
                yield (
                    f"it acts at the step '{step}', where one rule decides, and the rule "
                    f"'{other.name}' already decides it; only play filters and end checks "
                    "compose"
                )


def shape_problems(unit: Unit) -> Iterator[str]:
    """What keeps a unit from both engines and the rule sheet, for each value it names."""
    if not unit.steps or not all(isinstance(step, Step) for step in unit.steps):
        yield "its steps must be a non-empty set of rulesdsl.model.units.base.Step"
        return
    ending = unit.steps & ENDING_STEPS
    if set(unit.ends) != ending or not all(isinstance(r, EndReason) for r in unit.ends.values()):
        steps = ", ".join(sorted(ending)) or "none"
        yield f"its ends must give an EndReason for each step where it may end a hand ({steps})"
    yield from step_problems(unit)
    yield from phrase_problems(unit)


def phrase_problems(unit: Unit) -> Iterator[str]:
    """A unit of another package brings its rule sheet's sentences, English at least, and a
    refusal's sentence for each value that filters cards, and only for those."""
    if "en" not in unit.phrases:
        yield "it brings no English phrases (Unit(phrases={'en': {...}}))"
    if isinstance(unit.kind, Choice):
        for lang, table in unit.phrases.items():
            for word in unit.kind.words():
                if word not in table:
                    yield f"its phrases in '{lang}' have no sentence for the value '{word}'"
    yield from refusal_problems(unit)


def refusal_problems(unit: Unit) -> Iterator[str]:
    """Each value that filters cards says why in `refusals`, in English at least."""
    said = unit.refusals.get("en", {})
    try:
        refusing = {unit.text(value) for value in values(unit) if unit.refuses(value)}
    except Exception:  # a unit's own code may raise anything; step_problems names it
        return
    for word in sorted(refusing ^ set(said)):
        yield (
            "a value that filters cards says why in refusals, in English, and only such a "
            f"value: '{word}' (Unit(refusals={{'en': {{'{word}': ...}}}}))"
        )
    for lang, table in unit.refusals.items():
        for word in sorted(refusing - set(table)):
            yield f"its refusals in '{lang}' have no sentence for the value '{word}'"


def step_problems(unit: Unit) -> Iterator[str]:
    """What keeps the step functions of a unit's values from both engines."""
    for value in values(unit):
        word = unit.text(value)
        try:
            given = dict(unit.plays(value))
        except Exception as error:  # a unit's own code may raise anything
            yield f"plays({word!r}) raises {type(error).__name__}: {error}"
            continue
        if not set(given) <= unit.steps:
            yield f"plays({word!r}) gives steps it does not declare"
        for fn in step_functions(given.values()):
            problem = shape_problem(fn)
            if problem:
                yield f"the step function {getattr(fn, '__qualname__', fn)} {problem}"


def values(unit: Unit) -> list[Any]:
    """The default and every value a word of the kind names."""
    found = [unit.default]
    for word in unit.kind.words():
        try:
            value = unit.parse(word)
        except ValueError:
            continue
        if value not in found:
            found.append(value)
    return found


def step_functions(contributions: Iterable[Any]) -> Iterator[Callable]:
    """The functions in step contributions: inside partials and tuples (a Refill)."""
    for value in contributions:
        if isinstance(value, partial):
            yield value.func
        elif isinstance(value, tuple):
            yield from step_functions(value)
        elif callable(value):
            yield value
