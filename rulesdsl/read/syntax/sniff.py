"""Which syntax a text looks written in, for a hint when a file is named for the other one."""

from __future__ import annotations

import re

_YAML_LINE = re.compile(r"(---|-\s|[\"']?[A-Za-z_][\w\- ]*[\"']?\s*:(\s|$))")
_DSL_LINE = re.compile(r"profile\s+(\"|[A-Za-z_][\w\-]*\s*(extends\b|\{|$))")


def first_line(text: str) -> tuple[int, str]:
    """The number and the text of the first line that is neither blank nor a comment."""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return number, line
    return 1, ""


def looks_like_yaml(text: str) -> bool:
    return bool(_YAML_LINE.match(first_line(text)[1].strip()))


def looks_like_dsl(text: str) -> bool:
    return bool(_DSL_LINE.match(first_line(text)[1].strip()))
