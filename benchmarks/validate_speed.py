"""How fast `rulesdsl validate` checks profiles, with yamllint as the yardstick.

Generates N profile files (half DSL, half YAML) from the option registry in a temporary
folder, then times, best of 3 each:

- our validator in-process (`load_file` on every file, the profile cache cleared before
  each repeat, so the shipped `equal-hands` parent is loaded again as part of the work)
  and via its command line (`rulesdsl validate DIR`, wall time with start-up);
- yamllint over the same YAML files in-process (`linter.run` with the default config)
  and via its command line (`yamllint -d default DIR`, wall time with start-up).

Run: .venv/bin/python benchmarks/validate_speed.py [--files N]
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from yamllint import linter
from yamllint.config import YamlLintConfig

from rulesdsl.model.rules import OPTIONS, Option
from rulesdsl.model.text import Pos
from rulesdsl.model.units.base import METADATA
from rulesdsl.read import profile as profiles
from rulesdsl.read.syntax.document import Comment, Document, Entry
from rulesdsl.read.syntax.writer import write

REPEATS = 3
SEED = 2026
PARENT = "equal-hands"
SUFFIX = {"dsl": ".rules", "yaml": ".yaml"}
# Value fragments tried against every option's kind, besides its own words and default;
# only those the registry accepts are used.
FRAGMENTS = ("1", "2", "3", "5", "7", "2..4", "3..5", "4", "players + 1", "A K Q J 10 9 8 7")
NOTES = ("not stated; the rules sheet's value", "as the manual says", "silent; assumed")
ERROR_CHANCE = 0.15  # a file gets one deliberate mistake


def accepts(opt: Option, text: str) -> bool:
    try:
        opt.parse(text)
    except ValueError:
        return False
    return True


def value_texts(opt: Option) -> tuple[str, ...]:
    """The values we write for an option: its words, its default and the fragments it accepts."""
    words = opt.kind.words()
    pairs = (f"{word} {n}" for word in words for n in FRAGMENTS[:4])
    candidates = (*words, opt.text(opt.default), *FRAGMENTS, *pairs)
    return tuple(dict.fromkeys(c for c in candidates if accepts(opt, c)))


VALUES = {name: value_texts(opt) for name, opt in OPTIONS.items()}


def misspell(word: str, rng: random.Random) -> str:
    """The word with two neighbouring letters swapped, or one dropped."""
    i = rng.randrange(len(word) - 1)
    swapped = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return swapped if swapped != word else word[:i] + word[i + 1 :]


@dataclass
class Builder:
    """Builds one Document, handing out line numbers so the writer places comments."""

    rng: random.Random
    line: int = 1
    entries: list[Entry] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def comment(self, text: str, p: float) -> None:
        if self.chance(p):
            self.comments.append(Comment(self.line, f"# {text}", False))
            self.line += 1

    def entry(self, key: str, value: str, assumed: bool = False, note: str | None = None) -> None:
        self.comment(f"why {key} is set", 0.15)
        key_pos = Pos(self.line, 5, len(key))
        value_pos = Pos(self.line, 6 + len(key), len(value))
        self.entries.append(Entry(key, value, key_pos, value_pos, assumed, note))
        if self.chance(0.1):
            self.comments.append(Comment(self.line, f"# {key} checked", True))
        self.line += 1


def option_entry(b: Builder, name: str) -> None:
    assumed = b.chance(0.2)
    note = b.rng.choice(NOTES) if b.chance(0.25) else None
    b.entry(name, b.rng.choice(VALUES[name]), assumed, note)


def make_doc(index: int, rng: random.Random) -> Document:
    """A varied profile: some extend equal-hands, some set every option, some have notes."""
    b = Builder(rng)
    b.comment(f"generated profile {index}", 0.5)
    name_pos, extends = Pos(b.line, 9), PARENT if b.chance(0.5) else None
    b.line += 1
    if b.chance(0.6):
        b.entry("title", f"Generated variant {index}")
    if b.chance(0.4):
        b.entry("source", "benchmarks/validate_speed.py")
    names = list(OPTIONS)
    count = rng.randint(1, len(names)) if extends or b.chance(0.5) else len(names)
    for name in rng.sample(names, count):
        option_entry(b, name)
    doc = Document("<generated>", "dsl", "", f"gen-{index:04d}", name_pos, extends)
    doc.extends_pos = Pos(name_pos.line, 20) if extends else None
    doc.entries, doc.comments = b.entries, b.comments
    return doc


def add_mistake(doc: Document, rng: random.Random) -> None:
    """A misspelt key, value or parent name."""
    options = [e for e in doc.entries if e.key not in METADATA]
    kind = rng.choice(("key", "value", "parent") if doc.extends else ("key", "value"))
    if kind == "parent":
        doc.extends = misspell(doc.extends or PARENT, rng)
        return
    old = rng.choice(options)
    key, value = old.key, old.value or ""
    if kind == "key":
        key = misspell(key, rng)
    elif len(value) > 1:
        value = misspell(value, rng)
    doc.entries[doc.entries.index(old)] = Entry(
        key, value, old.key_pos, old.value_pos, old.assumed, old.note
    )


def break_syntax(text: str, syntax: str) -> str:
    """A DSL profile without its closing brace, or YAML with an unclosed flow list."""
    if syntax == "dsl":
        return text.rstrip().removesuffix("}")
    return text + "extra: [unclosed\n"


def profile_text(index: int, syntax: str, rng: random.Random) -> str:
    doc = make_doc(index, rng)
    if rng.random() < ERROR_CHANCE:
        add_mistake(doc, rng)
    text = write(doc, syntax)
    return break_syntax(text, syntax) if rng.random() < ERROR_CHANCE / 5 else text


@dataclass(frozen=True)
class Corpus:
    root: Path
    dsl: list[Path]
    yaml: list[Path]

    @property
    def all(self) -> list[Path]:
        return self.dsl + self.yaml


def generate(root: Path, count: int) -> Corpus:
    """`count` files, alternately DSL (root/dsl) and YAML (root/yaml)."""
    rng = random.Random(SEED)
    files: dict[str, list[Path]] = {"dsl": [], "yaml": []}
    for syntax in files:
        (root / syntax).mkdir()
    for index in range(count):
        syntax = "dsl" if index % 2 == 0 else "yaml"
        path = root / syntax / f"gen-{index:04d}{SUFFIX[syntax]}"
        path.write_text(profile_text(index, syntax, rng), encoding="utf-8")
        files[syntax].append(path)
    return Corpus(root, files["dsl"], files["yaml"])


def best_of(run: Callable[[], object], setup: Callable[[], object] = lambda: None) -> float:
    """The shortest wall time of REPEATS runs, `setup` untimed before each."""
    times = []
    for _ in range(REPEATS):
        setup()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def clear_cache() -> None:
    profiles.clear_cache()


def validate_all(files: Sequence[Path]) -> None:
    for path in files:
        profiles.load_file(path)


def lint_all(files: Sequence[Path], config: YamlLintConfig) -> None:
    for path in files:
        list(linter.run(path.read_text(encoding="utf-8"), config))


def tool(name: str) -> str:
    """The console script beside this Python, else the one on PATH."""
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} is not installed: .venv/bin/pip install -e '.[dev]'")
    return found


def run_command(args: list[str]) -> None:
    """Run a checker; exit 1 (problems found) is expected, anything else is a failure."""
    done = subprocess.run(args, capture_output=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed:\n{done.stderr.decode()}")


@dataclass(frozen=True)
class Timing:
    label: str
    seconds: float
    files: int

    @property
    def per_second(self) -> float:
        return self.files / self.seconds

    @property
    def ms_per_file(self) -> float:
        return 1000 * self.seconds / self.files

    def row(self) -> str:
        return (
            f"  {self.label:<36} {self.files:>5} {self.seconds:>8.3f} s "
            f"{self.per_second:>9.0f} {self.ms_per_file:>9.3f}"
        )


def ours_in_process(label: str, files: Sequence[Path]) -> Timing:
    return Timing(label, best_of(lambda: validate_all(files), clear_cache), len(files))


def yamllint_in_process(label: str, files: Sequence[Path]) -> Timing:
    config = YamlLintConfig("extends: default")
    return Timing(label, best_of(lambda: lint_all(files, config)), len(files))


def command(label: str, args: list[str], files: Sequence[Path]) -> Timing:
    return Timing(label, best_of(lambda: run_command(args)), len(files))


def in_process_timings(corpus: Corpus) -> dict[str, Timing]:
    return {
        "ours all": ours_in_process("rulesdsl in-process, ALL", corpus.all),
        "ours yaml": ours_in_process("rulesdsl in-process, YAML", corpus.yaml),
        "ours dsl": ours_in_process("rulesdsl in-process, DSL", corpus.dsl),
        "lint yaml": yamllint_in_process("yamllint in-process, YAML", corpus.yaml),
    }


def command_timings(corpus: Corpus) -> dict[str, Timing]:
    ours, lint, root = tool("rulesdsl"), tool("yamllint"), corpus.root
    return {
        "ours all": command(
            "rulesdsl validate DIR, ALL", [ours, "validate", str(root)], corpus.all
        ),
        "ours yaml": command(
            "rulesdsl validate DIR/yaml, YAML", [ours, "validate", str(root / "yaml")], corpus.yaml
        ),
        "lint yaml": command(
            "yamllint -d default DIR/yaml, YAML",
            [lint, "-d", "default", str(root / "yaml")],
            corpus.yaml,
        ),
    }


def ratio_line(label: str, ours: Timing, yardstick: Timing) -> str:
    ratio = ours.ms_per_file / yardstick.ms_per_file
    verdict = "ours slower" if ratio > 1 else "ours faster"
    return f"  {label:<40} {ratio:>6.2f}x  ({verdict}; {1 / ratio:.2f}x as many files/s)"


def corpus_summary(corpus: Corpus) -> str:
    clear_cache()
    loaded = [profiles.load_file(p) for p in corpus.all]
    errors = sum(not p.ok for p in loaded)
    warned = sum(p.ok and bool(p.diagnostics) for p in loaded)
    extending = sum(p.extends == PARENT for p in loaded)
    misspelt = sum(p.extends not in (None, PARENT) for p in loaded)
    return (
        f"corpus: {len(corpus.all)} files ({len(corpus.dsl)} DSL, {len(corpus.yaml)} YAML); "
        f"{extending} extend {PARENT}, {misspelt} a misspelt parent; {errors} with errors, "
        f"{warned} with warnings only, {len(loaded) - errors - warned} clean"
    )


def report(corpus: Corpus, inner: dict[str, Timing], outer: dict[str, Timing]) -> None:
    print(f"rulesdsl validate vs yamllint: best of {REPEATS} repeats per timing")
    print(corpus_summary(corpus))
    print(f"\n  {'timing':<36} {'files':>5} {'time':>10} {'files/s':>9} {'ms/file':>9}")
    for timing in (*inner.values(), *outer.values()):
        print(timing.row())
    print("\nours/yamllint, time per file (below 1: ours is faster):")
    pairs = (
        ("in-process, YAML files", inner, "ours yaml"),
        ("in-process, all files (ours) / YAML", inner, "ours all"),
        ("command line, YAML files", outer, "ours yaml"),
        ("command line, all files (ours) / YAML", outer, "ours all"),
    )
    for label, timings, ours in pairs:
        print(ratio_line(label, timings[ours], timings["lint yaml"]))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000, help="how many files (default 1000)")
    args = parser.parse_args(argv)
    if args.files < 2:
        parser.error("--files must be at least 2 (one DSL, one YAML)")
    with tempfile.TemporaryDirectory(prefix="validate-speed-") as folder:
        corpus = generate(Path(folder), args.files)
        report(corpus, in_process_timings(corpus), command_timings(corpus))


if __name__ == "__main__":
    main()
