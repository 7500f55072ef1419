"""Every file the repository keeps that is made from the code: the JSON Schema of YAML
profiles, the editors' grammars, the options table of docs/profiles.md and the table of
the rule language's names and attributes in docs/house-rules.md.

    python -m rulesdsl.words.generate          # write the files that differ (make generate)
    python -m rulesdsl.words.generate --check  # exit 1 naming each file that is stale

It runs in the repository's root folder (where pyproject.toml names rulesdsl), and writes
nowhere else; tests/unit/test_generated.py fails while a file is stale.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rulesdsl.model.language.rule import Clause
from rulesdsl.model.language.vocab import (
    ANYWHERE,
    ATTRIBUTES,
    FUNCTIONS,
    NAMES,
    PLAYING,
    Name,
    Where,
)
from rulesdsl.model.rules import options_table
from rulesdsl.read.language.compile import COUNTS, SEAT_CLAUSES, TARGET_WHERE
from rulesdsl.read.schema import profile_schema
from rulesdsl.words import highlight

OPTIONS_PAGE = Path("docs/profiles.md")
NAMES_PAGE = Path("docs/house-rules.md")
TABLE_START = "<!-- generated: the options table (make generate) -->\n"
NAMES_START = "<!-- generated: the names table (make generate) -->\n"
TABLE_END = "\n<!-- end of the generated table -->"
USAGE = "usage: python -m rulesdsl.words.generate [--check]"


def schema_text() -> str:
    """The schema as `rulesdsl schema` prints it."""
    return json.dumps(profile_schema(), indent=2) + "\n"


def with_table(page: str, table: str, start_mark: str = TABLE_START) -> str:
    """The page with the table made afresh between its marks."""
    start = page.index(start_mark) + len(start_mark)
    end = page.index(TABLE_END, start)
    return page[:start] + table + page[end:]


def clause_places() -> dict[Where, str]:
    """Each place a rule acts at, as the clauses that act there are written."""
    places = {where: f"`{Clause.REFUSE} {target}`" for target, where in TARGET_WHERE.items()}
    places |= {where: f"`{kind}`" for kind, (where, _, _) in COUNTS.items()}
    places |= {where: f"`{kind}`" for kind, (where, _) in SEAT_CLAUSES.items()}
    places[Where.OUT] = f"`{Clause.OUT}`"
    places[Where.END] = f"`{Clause.END}`, `{Clause.WINNER}`"
    return places


def _where(where: frozenset[Where]) -> str:
    """The clauses where a value is: `refuse` for the three kinds of play filter."""
    if where == ANYWHERE:
        return "every clause"
    places = clause_places()
    if where >= PLAYING:
        places = {Where.LEAD: f"`{Clause.REFUSE}`"} | {
            place: said for place, said in places.items() if place not in PLAYING
        }
    return ", ".join(places[place] for place in Where if place in where and place in places)


def _grouped(names: list[Name]) -> list[list[Name]]:
    """The names in order, those next to each other of one type and place whose
    descriptions differ only by the name (the suits, the ranks) in one group."""
    groups: list[list[Name]] = []
    for name in names:
        last = groups[-1][-1] if groups else None
        if (
            last is not None
            and (last.type, last.where) == (name.type, name.where)
            and last.name in last.description
            and last.description.replace(last.name, name.name) == name.description
        ):
            groups[-1].append(name)
        else:
            groups.append([name])
    return groups


def names_table() -> str:
    """The rule language's names, its attributes and its functions of values other than
    numbers, as Markdown tables: each with its type, the clauses where it has a value and
    its meaning."""
    rows = ["| name | type | has a value in | meaning |", "|---|---|---|---|"]
    for group in _grouped(list(NAMES.values())):
        first = group[0]
        said = ", ".join(f"`{n.name}`" for n in group)
        meaning = first.description.replace(first.name, "named") if len(group) > 1 else None
        rows.append(
            f"| {said} | {first.type} | {_where(first.where)} | {meaning or first.description} |"
        )
    rows += ["", "| attribute | of | type | has a value in | meaning |", "|---|---|---|---|---|"]
    rows += [
        f"| `.{a.name}` | {a.owner} | {a.type} | {_where(a.where)} | {a.description} |"
        for a in ATTRIBUTES.values()
    ]
    rows += ["", "| function | of | type | meaning |", "|---|---|---|---|"]
    rows += [
        f"| `{f.name}(a, b)` | {', '.join(str(p) for p in f.params)} | {f.type} | {f.description} |"
        for f in FUNCTIONS.values()
    ]
    return "\n".join(rows)


def files(root: Path) -> dict[Path, str]:
    """Each generated file under `root` and the text it should hold."""
    made = {Path("schema/profile.schema.json"): schema_text()}
    made |= {Path("editors") / name: text for name, text in highlight.files().items()}
    made[OPTIONS_PAGE] = with_table(
        (root / OPTIONS_PAGE).read_text(encoding="utf-8"), options_table()
    )
    names_page = (root / NAMES_PAGE).read_text(encoding="utf-8")
    made[NAMES_PAGE] = with_table(names_page, names_table(), NAMES_START)
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
