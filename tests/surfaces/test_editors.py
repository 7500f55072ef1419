"""The editor files: generated from the grammar and the registry, and used by a real editor."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.model.language.rule import Clause
from rulesdsl.model.language.vocab import ATTRIBUTES, NAMES, Aggregate
from rulesdsl.model.rules import OPTIONS
from rulesdsl.read.profile import load_file
from rulesdsl.words import highlight

ROOT = Path(__file__).resolve().parents[2]
EDITORS = ROOT / "editors"


@pytest.mark.parametrize("name", sorted(highlight.files()))
def test_the_committed_editor_files_are_what_the_generator_writes(name):
    assert (EDITORS / name).read_text() == highlight.files()[name], "run: make generate"


def test_the_grammars_name_every_option_keyword_and_value():
    textmate = json.dumps(highlight.textmate())
    vim = highlight.vim_syntax()
    for word in [*OPTIONS, "profile", "extends", "assumed", "trump_if_able", "per_card_in_trick"]:
        assert word in textmate and f" {word}" in vim


def test_the_grammars_name_the_words_of_a_stated_rule():
    textmate = json.dumps(highlight.textmate())
    vim = highlight.vim_syntax()
    parts = [part for name in NAMES for part in name.split(".")]
    for word in [*Clause, *parts, *(a for _, a in ATTRIBUTES), *Aggregate]:
        assert word in textmate and f" {word}" in vim, word


def test_the_textmate_patterns_read_a_rules_clause():
    repository = highlight.textmate()["repository"]
    clause = re.match(repository["clause"]["match"], "        refuse follow if card.trump")
    assert clause.group(1) == "refuse"
    found = re.findall(repository["rule_word"]["match"], "if card.beats_best and trick.number")
    assert found == ["card", "beats_best", "trick", "number"]


def test_a_card_named_in_a_rule_is_coloured_as_a_card_in_every_editor():
    """`QS` and `10H` as the rule grammar reads them, not `QSX` nor a part of a name; the
    Vim rule says the same (Vim reads `\\<`, `\\>` as word ends)."""
    line = "    refuse card if card == QS or card == 10H or card.rank >= queen and AQSX > 1"
    found = highlight.tokens(f'profile "p" {{\n  rule q {{\n{line}\n  }}\n}}')
    cards = [(t.column, t.length) for t in found if t.kind is highlight.WordKind.CARD]
    assert cards == [(line.index("QS") + 1, 2), (line.index("10H") + 1, 3)]
    vim = highlight.vim_syntax()
    assert r"syn match rulesdslCard /\<\(10\|[2-9TJQKA]\)[CDHS]\>/" in vim
    assert "hi def link rulesdslCard" in vim


def test_the_textmate_patterns_read_a_statement():
    repository = highlight.textmate()["repository"]
    statement = re.match(repository["statement"]["match"], "    assumed hand_size players + 1")
    assert statement.groups() == ("assumed", "hand_size")
    assert re.fullmatch(repository["string"]["match"], '"a \\"quoted\\" note"')
    assert (
        re.search(repository["value"]["match"], "opening_lead trump_if_able")[0] == "trump_if_able"
    )
    assert re.match(repository["comment"]["match"], "# a comment")[0] == "# a comment"


def test_a_grammar_pattern_the_vim_file_was_not_written_for_stops_the_generator(monkeypatch):
    monkeypatch.setitem(highlight.VIM_RULES, "STRING", ("'[^']*'", "syn region x"))
    with pytest.raises(highlight.GrammarChanged, match="STRING"):
        highlight.vim_syntax()


def test_the_vscode_manifest_points_at_files_that_exist():
    manifest = json.loads((EDITORS / "vscode/package.json").read_text())
    folder = EDITORS / "vscode"
    assert (folder / manifest["main"]).is_file()
    (grammar,) = manifest["contributes"]["grammars"]
    (language,) = manifest["contributes"]["languages"]
    assert (folder / grammar["path"]).is_file() and (folder / language["configuration"]).is_file()
    assert grammar["language"] == language["id"] == highlight.LANGUAGE


NVIM = shutil.which("nvim")
NEOVIM_HEADING = "**Neovim** (0.7 or later), in `init.lua`:"


def docs_init_lua() -> str:
    """The Neovim configuration docs/editors.md gives, pointed at this checkout's editors/vim."""
    lines = (ROOT / "docs" / "editors.md").read_text().splitlines()
    start = lines.index(NEOVIM_HEADING) + 2
    end = next(i for i in range(start, len(lines)) if lines[i] and not lines[i].startswith(" "))
    code = "\n".join(line.removeprefix("    ") for line in lines[start:end])
    return code.replace("/path/to/rulesdsl/editors/vim", str(EDITORS / "vim"))


BROKEN = 'profile "broken" extends "equal-hands" {\n    elimination immediat\n}\n'


def test_neovim_shows_the_diagnostics_and_applies_the_servers_fix(tmp_path):
    if NVIM is None:
        if os.environ.get("CI"):
            pytest.fail("nvim is missing: .ci/run installs it (apt-get install neovim)")
        pytest.skip("nvim is not installed: apt-get install neovim")
    profile = tmp_path / "broken.rules"
    profile.write_text(BROKEN)
    report = tmp_path / "report.json"
    init = tmp_path / "init.lua"
    init.write_text(docs_init_lua())
    env = {
        **os.environ,
        # The `rulesdsl lsp` of docs/editors.md: this environment's.
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "RULESDSL_PROFILE": str(profile),
        "RULESDSL_REPORT": str(report),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    script = ROOT / "tests/editor/fix_profile.lua"
    subprocess.run(
        [NVIM, "--headless", "--clean", "-u", str(init), "-c", f"luafile {script}"],
        env=env,
        cwd=tmp_path,
        timeout=120,
        check=True,
        capture_output=True,
    )
    result = json.loads(report.read_text())
    assert "error" not in result, result.get("error")
    assert result["filetype"] == "rulesdsl" and result["syntax"] == "rulesdslKeyword"
    assert result["before"] == [{"code": "bad-value", "severity": 1, "range": [1, 16, 1, 24]}]
    assert result.get("applied") == "Replace with 'immediate'"
    assert result["after"] == []
    assert profile.read_text() == BROKEN.replace("immediat", "immediate")
    assert load_file(profile).diagnostics == []
