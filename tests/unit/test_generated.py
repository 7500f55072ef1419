"""Every generated file the repository keeps is what the code makes now (`make generate`
writes them), and the generator writes nowhere but the repository's own files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.words import generate

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize("path", sorted(map(str, generate.files(ROOT))))
def test_each_generated_file_is_current(path):
    assert (ROOT / path).read_text(encoding="utf-8") == generate.files(ROOT)[Path(path)], (
        f"{path} is stale: run make generate"
    )


def test_a_stale_file_is_named_and_written_back(tmp_path):
    for path in ("pyproject.toml", *map(str, generate.files(ROOT))):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text((ROOT / path).read_text(encoding="utf-8"), encoding="utf-8")
    page = tmp_path / generate.OPTIONS_PAGE
    page.write_text(page.read_text().replace("| `draw` |", "| `drawn` |"), encoding="utf-8")
    (tmp_path / "schema/profile.schema.json").unlink()
    run = [sys.executable, "-m", "rulesdsl.words.generate"]
    checked = subprocess.run([*run, "--check"], cwd=tmp_path, capture_output=True, text=True)
    assert checked.returncode == 1
    assert "docs/profiles.md is stale" in checked.stderr
    assert "schema/profile.schema.json is stale" in checked.stderr
    assert subprocess.run(run, cwd=tmp_path, capture_output=True).returncode == 0
    assert generate.stale(tmp_path) == []


@pytest.mark.parametrize("argv", [["--help"], ["-h"], ["--output", "x"], ["somewhere"]])
def test_no_argument_makes_it_write_into_a_folder_named_after_it(tmp_path, argv):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "rulesdsl"\n')
    ran = subprocess.run(
        [sys.executable, "-m", "rulesdsl.words.generate", *argv],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert "usage:" in ran.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pyproject.toml"]


def test_outside_the_repository_it_writes_nothing(tmp_path):
    ran = subprocess.run(
        [sys.executable, "-m", "rulesdsl.words.generate"], cwd=tmp_path, capture_output=True
    )
    assert ran.returncode == 2 and list(tmp_path.iterdir()) == []
