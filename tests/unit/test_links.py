"""Every link in README.md and docs/*.md resolves: a relative target is a file or folder of the
repository, and an anchor `#...` names a heading of the page it points into, by GitHub's rule
for a heading's anchor. Code (fenced, indented or inline) holds no links, so paths written as
code are not checked."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# [text](target) and ![alt](target), the text on one line or more; a title after the
# target ("...") is allowed.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)


def prose(text: str) -> str:
    """The text without its code: fenced blocks, indented blocks and inline code spans."""
    text = FENCE.sub("", text)
    kept, in_block, blank_before = [], False, True
    for line in text.split("\n"):
        indented = line.startswith("    ") or line.startswith("\t")
        # An indented block starts after a blank line (a list item's continuation is
        # indented by two spaces in these pages, never four after a blank line).
        in_block = indented and (in_block or blank_before)
        kept.append("" if in_block else line)
        blank_before = not line.strip()
    return INLINE_CODE.sub("", "\n".join(kept))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text without Markdown marks, in lower case, with
    every character but letters, digits, `_`, `-` and spaces dropped, and spaces made `-`."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings; a slug met again gets `-1`, `-2`, ... as on GitHub."""
    seen: dict[str, int] = {}
    found = set()
    for match in re.finditer(
        r"^#{1,6}[ \t]+(.+?)[ \t#]*$", FENCE.sub("", page.read_text(encoding="utf-8")), re.M
    ):
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[str]:
    return LINK.findall(prose(page.read_text(encoding="utf-8")))


def test_slugs_follow_githubs_rule():
    assert slug("The language server: `rulesdsl lsp`") == "the-language-server-rulesdsl-lsp"
    assert slug("The rules sheet's variants") == "the-rules-sheets-variants"
    assert slug("Rules in Python: a unit in your own package") == (
        "rules-in-python-a-unit-in-your-own-package"
    )
    assert slug('What "acts" means') == "what-acts-means"
    assert slug("DominoRules.com") == "dominorulescom"
    assert slug("next_lead") == "next_lead"


def test_a_heading_met_twice_gets_a_number(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# A\n\n## Notes\n\n```\n# not a heading\n```\n\n## Notes\n")
    assert anchors(page) == {"a", "notes", "notes-1"}


def test_code_holds_no_links():
    text = "[a](a.md) `[b](b.md)`\n\n    [c](c.md)\n\n```\n[d](d.md)\n```\n[e](e.md#x)\n"
    assert LINK.findall(prose(text)) == ["a.md", "e.md#x"]


def test_every_page_has_links():
    for page in PAGES:
        assert links(page), f"{page.name} links to nothing"


def test_the_readme_links_to_every_page_of_docs():
    linked = {target.split("#")[0] for target in links(ROOT / "README.md")}
    for page in PAGES[1:]:
        assert f"docs/{page.name}" in linked, f"the README does not link to docs/{page.name}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_resolves(page: Path):
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:: not ours to check
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / unquote(path)).resolve() if path else page
        assert linked.exists(), f"{page.name} links to {target}, which is missing"
        assert ROOT.resolve() in [linked, *linked.parents], f"{page.name}: {target} leaves the repo"
        if anchor:
            assert linked.suffix == ".md", f"{page.name}: #{anchor} into {path}, not a page"
            assert unquote(anchor) in anchors(linked), f"{page.name}: no #{anchor} in {linked.name}"
