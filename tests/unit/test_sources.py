"""The repository carries the sources its profiles cite: every `docs/...#anchor` a shipped
profile names exists, every profile cites one, and the rules reference covers every option."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesdsl.model.rules import OPTIONS
from rulesdsl.read.profile import load_file, shipped_files

ROOT = Path(__file__).parents[2]
DOCS = ROOT / "docs"
CITATION = re.compile(r"docs/([\w.-]+\.md)(?:#([\w-]+))?")
PROFILE_FILES = shipped_files()


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to `-`."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(doc: Path) -> set[str]:
    text = doc.read_text(encoding="utf-8")
    return {slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, re.M)}


def test_slugs_follow_githubs_rule():
    assert slug("DominoRules.com") == "dominorulescom"
    assert slug("The rules sheet's variants") == "the-rules-sheets-variants"
    assert slug("Hoyle-type compendium") == "hoyle-type-compendium"


@pytest.mark.parametrize("path", PROFILE_FILES, ids=lambda p: p.name)
def test_every_docs_anchor_a_profile_cites_exists(path):
    cited = CITATION.findall(path.read_text(encoding="utf-8"))
    assert cited, f"{path.name} cites nothing in docs/"
    for name, anchor in cited:
        doc = DOCS / name
        assert doc.is_file(), f"{path.name} cites docs/{name}, which is missing"
        assert not anchor or anchor in anchors(doc), f"{path.name}: no #{anchor} in docs/{name}"


@pytest.mark.parametrize("path", PROFILE_FILES, ids=lambda p: p.name)
def test_every_profile_source_points_into_docs(path):
    source = load_file(path).source or ""
    assert re.search(r"docs/[\w.-]+\.md#[\w-]+", source), source


@pytest.mark.parametrize("doc", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_the_docs_links_between_themselves_resolve(doc):
    text = doc.read_text(encoding="utf-8")
    for target, anchor in re.findall(r"\]\(([\w.-]*\.md)?(?:#([\w-]+))?\)", text):
        linked = DOCS / target if target else doc
        assert linked.is_file(), f"{doc.name} links to {target}"
        assert not anchor or anchor in anchors(linked), f"{doc.name}: no #{anchor} in {target}"


def test_the_rules_reference_has_a_section_for_every_option_naming_its_values():
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^### (\w+)\n(.*?)(?=^##)", text, re.M | re.S))
    for name, option in OPTIONS.items():
        assert name in sections, f"docs/rules.md has no section for {name}"
        words = option.kind.words()
        missing = [w for w in words if not re.search(f"`{w}[` ]", sections[name])]
        assert missing == [], f"docs/rules.md#{name} does not name {missing}"
