"""Every file the repository keeps that is made from the code: the JSON Schema of YAML
profiles, the editors' grammars, and the options table of docs/profiles.md.

    python -m rulesdsl.words.generate          # write the files that differ (make generate)
    python -m rulesdsl.words.generate --check  # exit 1 naming each file that is stale

It runs in the repository's root folder (where pyproject.toml names rulesdsl), and writes
nowhere else; tests/unit/test_generated.py fails while a file is stale.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rulesdsl.model.rules import options_table
from rulesdsl.read.schema import profile_schema
from rulesdsl.words import highlight

OPTIONS_PAGE = Path("docs/profiles.md")
TABLE_START = "<!-- generated: the options table (make generate) -->\n"
TABLE_END = "\n<!-- end of the generated table -->"
USAGE = "usage: python -m rulesdsl.words.generate [--check]"


def schema_text() -> str:
    """The schema as `rulesdsl schema` prints it."""
    return json.dumps(profile_schema(), indent=2) + "\n"


def with_table(page: str) -> str:
    """The options page with its table made afresh between its marks."""
    start = page.index(TABLE_START) + len(TABLE_START)
    end = page.index(TABLE_END, start)
    return page[:start] + options_table() + page[end:]


def files(root: Path) -> dict[Path, str]:
    """Each generated file under `root` and the text it should hold."""
    made = {Path("schema/profile.schema.json"): schema_text()}
    made |= {Path("editors") / name: text for name, text in highlight.files().items()}
    made[OPTIONS_PAGE] = with_table((root / OPTIONS_PAGE).read_text(encoding="utf-8"))
    return made


def stale(root: Path) -> list[Path]:
    """The generated files under `root` whose text is not what the code makes."""
    found = []
    for path, text in files(root).items():
        there = root / path
        if not there.is_file() or there.read_text(encoding="utf-8") != text:
            found.append(path)
    return found


def is_repository(root: Path) -> bool:
    project = root / "pyproject.toml"
    return project.is_file() and 'name = "rulesdsl"' in project.read_text(encoding="utf-8")


def main(argv: list[str]) -> int:
    if argv not in ([], ["--check"]):
        print(USAGE, file=sys.stderr)
        return 0 if argv in (["-h"], ["--help"]) else 2
    root = Path.cwd()
    if not is_repository(root):
        print("generate: run it in the rulesdsl repository's root folder", file=sys.stderr)
        return 2
    found = stale(root)
    if argv == ["--check"]:
        for path in found:
            print(f"{path} is stale: run make generate", file=sys.stderr)
        return 1 if found else 0
    for path in found:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(files(root)[path], encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
