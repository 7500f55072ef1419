"""How reading, checking and writing profiles scales with their size, up to the 1 MB limit.

For each kind of large profile (comment lines, many statements, one long line; in both
syntaxes) and each size, doubling up to the limit, this times `validate` (read, check and
resolve), `fmt` (write in the file's own syntax and read back) and `convert` (the other
syntax), and prints the seconds and the ratio to the size before: about 2 is linear.

    .venv/bin/python benchmarks/reader_scaling.py [--max-bytes N]
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rulesdsl.read.profile import clear_cache, load_file, read_document, read_source
from rulesdsl.read.sources import MAX_BYTES
from rulesdsl.service import rewrite

HEADS = {
    ".rules": ('profile "big" extends "equal-hands" {\n', "}\n"),
    ".yaml": ("profile: big\n", ""),
}


def comments(suffix: str, size: int) -> str:
    head, tail = HEADS[suffix]
    line = "# a comment line that says nothing much\n"
    return head + line * (size // len(line)) + tail


def statements(suffix: str, size: int) -> str:
    """Many statements: unknown options, so that each gets a diagnostic with its line."""
    head, tail = HEADS[suffix]
    colon = ":" if suffix == ".yaml" else ""
    lines, total, i = [], 0, 0
    while total < size:
        line = f"option{i}{colon} value  # why\n"
        lines.append(line)
        total += len(line)
        i += 1
    return head + "".join(lines) + tail


def long_line(suffix: str, size: int) -> str:
    head, tail = HEADS[suffix]
    colon = ":" if suffix == ".yaml" else ""
    return head + f'title{colon} "{"x" * size}"\n' + tail


KINDS: dict[str, Callable[[str, int], str]] = {
    "comments": comments,
    "statements": statements,
    "long line": long_line,
}


def validate(path: Path) -> None:
    clear_cache()
    load_file(path)


def fmt(path: Path) -> None:
    text, _ = read_source(path)
    doc = read_document(path, text)
    rewrite(doc, doc.syntax, path)


def convert(path: Path) -> None:
    text, _ = read_source(path)
    doc = read_document(path, text)
    rewrite(doc, "yaml" if doc.syntax == "dsl" else "dsl", path)


STEPS = {"validate": validate, "fmt": fmt, "convert": convert}


def seconds(step: Callable[[Path], None], path: Path) -> float:
    start = time.perf_counter()
    step(path)
    return time.perf_counter() - start


def sizes(largest: int) -> list[int]:
    found = [largest]
    while found[-1] > largest // 16:
        found.append(found[-1] // 2)
    return found[::-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-bytes", type=int, default=MAX_BYTES - 1_000)
    largest = parser.parse_args().max_bytes
    print(f"{'kind':<20} {'step':<9}" + "".join(f"{s:>16,}" for s in sizes(largest)))
    with tempfile.TemporaryDirectory() as folder:
        for suffix in HEADS:
            for kind, make in KINDS.items():
                paths = []
                for size in sizes(largest):
                    path = Path(folder) / f"{kind.replace(' ', '-')}-{size}{suffix}"
                    path.write_text(make(suffix, size), encoding="utf-8")
                    paths.append(path)
                for name, step in STEPS.items():
                    times = [seconds(step, path) for path in paths]
                    cells = [f"{times[0]:8.3f}s       "]
                    cells += [
                        f"{t:8.3f}s x{t / max(p, 1e-9):4.1f}" for p, t in itertools.pairwise(times)
                    ]
                    print(
                        f"{kind + ' ' + suffix:<20} {name:<9}" + "".join(f"{c:>16}" for c in cells)
                    )


if __name__ == "__main__":
    main()
