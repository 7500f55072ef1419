"""The readers keep no state one read could see of another's: profiles read at once in many
threads read exactly as they do one after another, comments, problems and chains alike."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from rulesdsl.read.profile import clear_cache, load_file


def collection(folder: Path, count: int) -> list[Path]:
    """Profiles with comments at many places, problems of their own, and `extends` chains
    three deep, some in a cycle."""
    paths = []
    for i in range(count):
        parent = f'"p{i - 1}.rules"' if i % 4 else '"equal-hands"'
        if i % 7 == 6:
            parent = f'"p{i + 1}.rules"'  # p6 -> p7 -> p6: a cycle
        if i % 7 == 0 and i:
            parent = f'"p{i - 1}.rules"'
        body = "\n".join(
            f"    # comment {i}.{k}\n    hand_size {3 + (i + k) % 3}  # after {k}"
            for k in range(i % 5)
        )
        typo = "    folow suit\n" if i % 3 == 0 else ""
        text = f'# profile {i}\nprofile "p{i}" extends {parent} {{\n{body}\n{typo}}}\n'
        path = folder / f"p{i}.rules"
        path.write_text(text)
        paths.append(path)
    return paths


def read(path: Path) -> tuple:
    profile = load_file(path)
    doc = profile.document
    comments = [(c.line, c.text) for c in doc.comments] if doc is not None else []
    problems = [(d.line, d.column, d.code, d.message) for d in profile.diagnostics]
    return profile.chain, comments, problems


def test_profiles_read_at_once_read_as_they_do_one_after_another(tmp_path):
    paths = collection(tmp_path, 40)
    clear_cache()
    alone = [read(path) for path in paths]
    for _ in range(3):
        clear_cache()
        with ThreadPoolExecutor(8) as pool:
            together = list(pool.map(read, paths * 3))
        assert together == alone * 3
    assert any(problems for _, _, problems in alone)
    assert any(comments for _, comments, _ in alone)
