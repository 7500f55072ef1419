"""The analysis of a profile told for people: per player count, the bounds, then every
rule's verdict with its proof, and the hands that replay the witnesses."""

from __future__ import annotations

from rulesdsl.reason.analysis.counts import unsettled
from rulesdsl.reason.analysis.report import Analysis
from rulesdsl.reason.analysis.verdicts import PlayersReport, Verdict
from rulesdsl.reason.analysis.witness import Witness
from rulesdsl.words.layout import PIPED_WIDTH, wrap

# The narrowest the proof column may be (or half the width, if more) before a long rule
# name takes a line of its own.
PROOF_MIN = 30
INDENT = "    "


def _summary(report: PlayersReport, width: int) -> list[str]:
    m = report.model
    most = "no end" if m.max_tricks is None else str(m.max_tricks)
    least = "no end" if m.min_tricks is None else str(m.min_tricks)
    longest = f"; the longest hand found lasts {report.longest.trick}" if report.longest else ""
    flags = f"stock runs out: {report.stock_runs_out.verdict}; all out: {report.all_out.verdict}"
    if not m.complete:
        lines = [
            f"{report.players} players: {unsettled(m)}, so no bound is proved{longest}",
            flags,
        ]
    else:
        lines = [
            f"{report.players} players: a hand lasts {least} to {most} tricks "
            f"({m.states} count states{longest})",
            f"least stock left {m.min_stock}; {flags}",
        ]
    lines += [
        f"hand can fail to end: {report.hand_fails_to_end.verdict} "
        f"({report.hand_fails_to_end.proof})",
        f"match can fail to end: {report.match_fails_to_end.verdict} "
        f"({report.match_fails_to_end.proof})",
    ]
    first = wrap(lines[0], width, "  ", INDENT)
    return first + [row for line in lines[1:] for row in wrap(line, width, INDENT, INDENT + "  ")]


def _rule_lines(report: PlayersReport, profile: str, width: int) -> list[str]:
    """One row per rule: verdict, name and proof in columns, the proof wrapped in its
    column (a name too long for its column stands on a line of its own); a witness named
    by its number; then the witnesses, each once, with the command that replays it (one
    line, to copy whole)."""
    numbers: dict[tuple, int] = {}
    hands: list[Witness] = []
    verdict_width = max(len(v) for v in Verdict)
    room = width - len(INDENT) - verdict_width - 2 - max(PROOF_MIN, width // 2)
    name_width = max((len(n) for n in report.rules if len(n) <= room), default=max(room, 1))
    column = " " * (len(INDENT) + verdict_width + 1 + name_width + 1)
    lines = []
    for name, finding in report.rules.items():
        shown = finding.proof
        found = finding.witness
        if found is not None:
            key = (found.deck, found.dealer, found.bots)
            if key not in numbers:
                numbers[key] = len(hands) + 1
                hands.append(found)
            shown += f" [hand {numbers[key]}]"
        head = f"{INDENT}{finding.verdict:<{verdict_width}} {name:<{name_width}} "
        if len(name) > name_width:
            lines.append(head.rstrip())
            head = column
        lines += wrap(shown, width, head, column)
    if hands:
        lines.append(f"{INDENT}hands, to replay:")
    lines += [f"{INDENT}  {n}: {found.command(profile)}" for n, found in enumerate(hands, 1)]
    return lines


def text(analysis: Analysis, profile_ref: str | None = None, width: int = PIPED_WIDTH) -> str:
    """The analysis for people, laid out for `width` columns: per player count, the
    bounds, then every rule's verdict."""
    ref = profile_ref or analysis.profile
    lines = [analysis.profile]
    for report in analysis.players.values():
        lines += _summary(report, width)
        lines += _rule_lines(report, ref, width)
    return "\n".join(lines)
