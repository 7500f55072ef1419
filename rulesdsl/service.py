"""What a surface asks for, in one place: the command line, the language server and the web
page each ask here, and none of them asks another.

A profile as the surfaces show it (read, then linted: the rules that can never act), a
rewrite of a document that is checked to say the same thing, a simulation's spec checked
as `simulate` checks it, and what its result prints; the problems a surface reports.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rulesdsl.model.cards import CardError
from rulesdsl.model.hints import did_you_mean
from rulesdsl.model.kinds import OptionError
from rulesdsl.model.rules import Rules, RulesError
from rulesdsl.model.text import safe_text
from rulesdsl.read.outputs import OutputError
from rulesdsl.read.sources import (
    CYCLE_HINT,
    MAX_BYTES,
    PLAIN,
    TextForm,
    cycle_message,
    looping_link,
    sizes,
)
from rulesdsl.reason.executors import ExecutorError

if TYPE_CHECKING:
    from rulesdsl.read.profile import Profile
    from rulesdsl.read.syntax.document import Document
    from rulesdsl.reason.analysis.sameness import Sameness
    from rulesdsl.reason.attribution import Attribution
    from rulesdsl.reason.executors import Workers
    from rulesdsl.reason.sequence import Stopping
    from rulesdsl.reason.sim import Result, Spec
    from rulesdsl.words.report import Metric

# The readers, the analysis, the simulation and the reports are imported by the functions
# that use them, so that every command starts quickly: the `rulesdsl` command imports
# this module for the problems it reports.

USER_ERRORS = (OptionError, CardError, RulesError, ExecutorError, OutputError)


class UsageProblem(Exception):
    """A problem with what the user asked for: reported in one line, exit status 2."""


class ProfileProblem(Exception):
    """A profile that cannot be used: its diagnostics are shown, exit status 2."""


class LinkedPath(click.Path):
    """A path that must exist, and whose cycle of symbolic links, if it runs into one, is
    named (click would say only that the path does not exist)."""

    def convert(self, value, param, ctx):  # type: ignore[no-untyped-def]
        link = looping_link(Path(value)) if self.exists else None
        if link is not None:
            self.fail(f"{cycle_message(link)}; {CYCLE_HINT}", param, ctx)
        return super().convert(value, param, ctx)


def checked_file(path: Path, root: Path | None = None) -> Profile:
    """A profile file as `validate` shows it: read, then linted (the rules in it that can
    never act are warned about)."""
    from rulesdsl.read.profile import load_file
    from rulesdsl.reason.analysis.lint import linted

    return linted(load_file(path, root))


def checked_text(path: Path, text: str, buffers: Mapping[Path, str] | None = None) -> Profile:
    """A profile as an editor holds it, `text` not yet saved at `path`: read, then linted."""
    from rulesdsl.read.profile import load_text
    from rulesdsl.reason.analysis.lint import linted

    return linted(load_text(path, text, buffers))


def _same_content(a: Document, b: Document) -> bool:
    """The same profile and the same comments: what converting and formatting must keep."""

    def content(doc: Document):
        entries = Counter((e.key, e.value, e.assumed, e.note) for e in doc.entries)
        rules = [
            (r.name, Counter((e.key, e.value, e.assumed, e.note) for e in r.entries))
            for r in doc.rules
        ]
        return doc.name, doc.extends, entries, rules, Counter(c.text for c in doc.comments)

    return content(a) == content(b)


def rewrite(doc: Document, syntax: str, path: Path, form: TextForm = PLAIN) -> str:
    """The document in `syntax`, checked to say the same thing with every comment kept, and
    to fit in a profile file (as `form` lays it down)."""
    from rulesdsl.read.profile import read_document
    from rulesdsl.read.syntax.writer import write

    text = write(doc, syntax)
    _check_fits(path, form.marked(form.lines(text)))
    suffix = ".rules" if syntax == "dsl" else ".yaml"
    again = read_document(path.with_suffix(suffix), text)
    if not again.ok or not _same_content(doc, again):
        raise UsageProblem(f"{path}: cannot be rewritten without changing it; please report this")
    return text


def _check_fits(path: Path, text: str) -> None:
    """Refuse a rewrite the readers would refuse as too large (every comment on a line of
    its own takes the indentation of its statement, so a file of bare `#` lines grows)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        shown, most = sizes(size, MAX_BYTES)
        raise UsageProblem(
            f"{path}: in the canonical layout it would be {shown}, and a profile is {most} "
            "at most; it is left as it is"
        )


def checked_spec(
    profiles: Sequence[tuple[str, Rules]],
    players: int,
    units: int,
    matches: bool,
    bots: str,
    seed: int,
    skill: bool = True,
    good_play: str | None = None,
    baseline: int = 0,
    all_pairs: bool = False,
    rotate: bool = False,
) -> Spec:
    """What to simulate, checked as `simulate` and `compare` check it: a UsageProblem says
    what is wrong (a player count a profile refuses, a bot unknown or missing)."""
    from rulesdsl.reason.sim import Spec, check_spec

    spec = Spec(
        profiles=tuple(profiles),
        players=players,
        units=units,
        matches=matches,
        bots=tuple(b.strip() for b in bots.split(",")),
        seed=seed,
        skill=skill,
        good_play=good_play,
        baseline=baseline,
        all_pairs=all_pairs,
        rotate=rotate,
    )
    try:
        check_spec(spec)
    except (ValueError, *USER_ERRORS) as error:
        raise UsageProblem(str(error)) from None
    return spec


def checked_rotation(spec: Spec, most: int) -> None:
    """A UsageProblem where seat rotation would split a deal's turns: `most`, the most
    hands to be played, not a multiple of the players."""
    from rulesdsl.reason.sim import check_rotation

    try:
        check_rotation(spec, most)
    except ValueError as error:
        raise UsageProblem(str(error)) from None


def checked_stopping(
    spec: Spec, alpha: float, max_units: int | None, names: Sequence[str], said: Mapping[str, str]
) -> Stopping:
    """How `--until-decided` plays `spec`: the measures `names` (every default one where
    none is given), at error `alpha`, up to `max_units`; a UsageProblem says what is wrong,
    naming each option as `said` spells it (`alpha`, `metrics`)."""
    from rulesdsl.reason.sequential import stopping_for
    from rulesdsl.words.report import default_judged, measured

    if not 0 < alpha < 1:
        raise UsageProblem(f"{said['alpha']} {alpha:g}: it must lie between 0 and 1")
    known = {m.name: m for m in measured(spec)}
    for name in names:
        if not known_metric(known, name, said["metrics"]).per_hand:
            raise UsageProblem(
                f"{said['metrics']} {name}: a ratio of means, which --until-decided does not"
                " decide; it decides measures per hand"
            )
    chosen = tuple(dict.fromkeys(names)) or tuple(default_judged(spec))
    return stopping_for(spec, alpha, max_units, chosen)


def known_metric(known: Mapping[str, Metric], name: str, option: str) -> Metric:
    """The metric `option` names, or a UsageProblem naming those there are."""
    if name not in known:
        raise UsageProblem(
            f"{option}: no metric is named {safe_text(name)}"
            f"{did_you_mean(name, known)}; the metrics are {', '.join(known)}"
        )
    return known[name]


def checked_executor(name: str) -> None:
    """A UsageProblem where the executor `name` cannot run here."""
    from rulesdsl.reason.executors import check_executor

    try:
        check_executor(name)
    except ExecutorError as error:
        raise UsageProblem(str(error)) from None


def labels(refs: Sequence[str]) -> list[str]:
    """Short names for the profiles: the name, or the file name for a path; escaped, as
    anything a report prints from a file or a command line is."""
    labels = [Path(ref).stem if ("/" in ref or "." in ref) else ref for ref in refs]
    if len(set(labels)) != len(labels):
        labels = list(refs)
    return [safe_text(label) for label in labels]


def printed(
    result: Result,
    same: Sequence[Sameness],
    as_csv: bool,
    margins: Mapping[str, float] | None = None,
    split: Sequence[Attribution] | None = None,
) -> str:
    """What `--json` (or `--csv`) prints for the result, to the last byte; `split`, the
    attributions `compare --attribute` asked for."""
    from rulesdsl.words import attribution, report

    if as_csv:
        return report.to_csv(result, same, margins, attribution.csv_rows(split or ()))
    extra = None if split is None else attribution.json_fields(split, result.spec)
    return report.to_json(result, same, margins, extra) + "\n"


def most_played(spec: Spec, stopping: Stopping | None) -> int:
    """The most deals `played` plays: the spec's, or under `--until-decided` its cap."""
    return spec.units if stopping is None else stopping.max_units


def played(
    spec: Spec,
    stopping: Stopping | None,
    same: Sequence[Sameness],
    margins: Mapping[str, float],
    workers: int,
    progress: Callable[[int], None] | None = None,
    executor: str = "local",
    stop: Callable[[], bool] | None = None,
    kept: Workers | None = None,
) -> Result:
    """The deals of `spec` played as `compare` plays them (`stop` and `kept` as `sim.run`
    takes them): all of them, or under `--until-decided` (`stopping`) in rounds until every
    verdict, judged with `same` and `margins`, is decided."""
    from rulesdsl.reason.sequential import run_until
    from rulesdsl.reason.sim import run
    from rulesdsl.words.report import decided

    if stopping is None:
        return run(spec, workers, progress, executor, stop, kept)
    judged = partial(decided, same=same, margins=margins)
    return run_until(spec, stopping, judged, workers, progress, executor, stop, kept)
