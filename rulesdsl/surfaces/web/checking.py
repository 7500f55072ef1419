"""What the editor shows for a profile's text, in one answer: the checker's diagnostics
(with the language server's fixes), highlighting, the rule sheet, the diff against the
parent, and the rules reach analysis proves can never act."""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rulesdsl.model.text import Pos, safe_lines, shorten
from rulesdsl.read.diagnostics import SAID, Diagnostic
from rulesdsl.read.edits import fix_edit, span
from rulesdsl.read.profile import SYNTAXES, Profile, load
from rulesdsl.reason.analysis.report import dead_rules, dead_stated_rules
from rulesdsl.service import checked_text
from rulesdsl.words.diff import diff_profiles, diff_rules, render_json
from rulesdsl.words.explain import rule_sheet
from rulesdsl.words.highlight import tokens

UNWRAPPED = 100_000
"""The width the rule sheet is laid out for: each item on one line, for the page to flow."""
# The file name of a text that has none yet, by syntax: the first suffix of each.
UNTITLED = {syntax: f"untitled{suffix}" for suffix, syntax in reversed(SYNTAXES.items())}


def check_text(text: str, path: Path, root: Path, lang: str) -> dict[str, Any]:
    """The editor's answer for `text` as if saved at `path` (in the workspace `root`)."""
    profile = checked_text(path, text)
    lines = text.splitlines()
    own = [d for d in profile.diagnostics if d.path == profile.path]
    syntax = SYNTAXES[path.suffix]
    answer: dict[str, Any] = {
        "ok": profile.ok,
        "profile": profile.name,
        "diagnostics": [diagnostic(d, lines) for d in own],
        "tokens": [{**asdict(t), "kind": str(t.kind)} for t in tokens(text, syntax)],
        "sheet": None,
        "parent": profile.extends,
        "diff": None,
        "dead": [],
    }
    if profile.ok:
        answer["sheet"] = safe_lines(rule_sheet(profile, lang, UNWRAPPED))
        answer["diff"] = parent_diff(profile, path, root)
        answer["dead"] = dead(profile)
    return answer


def diagnostic(d: Diagnostic, lines: list[str]) -> dict[str, Any]:
    """A diagnostic with 1-based start and end, as `validate` counts them, and its fix."""
    line_text = lines[d.line - 1] if 0 < d.line <= len(lines) else ""
    start, end = span(Pos(d.line, d.column, d.length), line_text)
    edit = fix_edit(d, lines)
    fix = None
    if edit is not None:
        fix = {
            "line": edit.start.line + 1,
            "column": edit.start.column + 1,
            "end_line": edit.end.line + 1,
            "end_column": edit.end.column + 1,
            "text": edit.text,
            "title": f"Replace with '{d.replacement}'",
        }
    return {
        "severity": d.severity,
        "code": d.code,
        "message": shorten(d.message, SAID),
        "line": d.line,
        "column": d.column,
        "end_line": end.line + 1,
        "end_column": end.column + 1 if end.column > start.column else d.column + d.length,
        "hint": shorten(str(d.hint), SAID) if d.hint else None,
        "fix": fix,
    }


def parent_diff(profile: Profile, path: Path, root: Path) -> list[dict[str, Any]] | None:
    """The options and rules that differ from the parent, as `diff --json PARENT FILE`
    lists them run in the workspace (a workspace file is named from there); None without a
    parent."""
    if profile.extends is None:
        return None
    parent = load(profile.extends, base=path.parent, root=root)
    if not parent.ok:
        return None
    text = render_json(diff_profiles(parent, profile), diff_rules(parent, profile))
    return json.loads(text.replace(json.dumps(f"{root}{os.sep}")[1:-1], ""))


def dead(profile: Profile) -> list[dict[str, str]]:
    """The options and stated rules that can never act, with reach analysis's proof."""
    rules = profile.rules
    found = {**dead_rules(rules), **dead_stated_rules(rules)}
    return [{"rule": name, "reason": str(rule)} for name, rule in found.items()]
