"""The wheel carries the grammar and the shipped profiles: install it fresh and run it."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """A fresh virtual environment with only the built wheel of rulesdsl installed in it."""
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(work),
            str(ROOT),
        ],
        check=True,
    )
    (wheel,) = work.glob("rulesdsl-*.whl")
    env_dir = work / "env"
    # No pip of its own (setting one up takes most of the time): this pip installs into it.
    venv.create(env_dir, with_pip=False)
    bin_dir = env_dir / "bin"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(bin_dir / "python"),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        check=True,
    )
    # The dependencies come from the test's own environment; rulesdsl only from the wheel.
    env = {**os.environ, "PYTHONPATH": sysconfig.get_paths()["purelib"]}
    return bin_dir, env


def run(installed, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    bin_dir, env = installed
    return subprocess.run(
        [str(bin_dir / "rulesdsl"), *args], capture_output=True, text=True, env=env, cwd=cwd
    )


def test_the_installed_wheel_reads_profiles_with_its_own_grammar(installed, tmp_path):
    profile = tmp_path / "house.rules"
    profile.write_text('profile "house" extends "bicycle" {\n    hand_size players + 1\n}\n')
    result = run(installed, "validate", str(profile), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    bin_dir, env = installed
    where = subprocess.run(
        [str(bin_dir / "python"), "-c", "import rulesdsl; print(rulesdsl.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert str(bin_dir.parent) in where.stdout


def test_the_installed_wheel_plays_a_shipped_profile(installed, tmp_path):
    result = run(
        installed,
        "play",
        "--profile",
        "seven-card-hands",
        "--bots",
        "lowest",
        "--seed",
        "1",
        "--json",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert '"match_winners": [' in result.stdout.splitlines()[-1]
    listing = run(installed, "list", cwd=tmp_path)
    assert "bicycle" in listing.stdout


def test_the_installed_wheel_carries_every_file_of_the_page(installed, tmp_path):
    bin_dir, env = installed
    code = (
        "import rulesdsl.surfaces.web, pathlib; "
        "print(pathlib.Path(rulesdsl.surfaces.web.__file__).parent)"
    )
    where = subprocess.run(
        [str(bin_dir / "python"), "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=True,
    )
    static = Path(where.stdout.strip()) / "static"
    assert str(bin_dir.parent) in str(static)
    ours = ROOT / "rulesdsl" / "surfaces" / "web" / "static"
    files = sorted(p.relative_to(ours) for p in ours.rglob("*") if p.is_file())
    assert {"index.html", "app.js", "style.css"} <= {str(p) for p in files}
    for name in files:
        assert (static / name).read_bytes() == (ours / name).read_bytes(), name
