"""The package's folders follow the data: no module imports from a folder later in the flow,
no imports close a circle (imports inside functions and under TYPE_CHECKING count), no
surface imports another, and the package root has at most eight entries."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[2] / "rulesdsl"
FLOW = ("model", "read", "play", "reason", "words", "service", "surfaces")
"""The folders (and the service module) in the order data moves through them."""
ENTRY = "rulesdsl.surfaces.__main__"
"""What `python -m rulesdsl.surfaces` runs: the one module that may import the command."""


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


MODULES = modules()


def imported(path: Path) -> Iterator[str]:
    """Every rulesdsl module `path` imports, wherever the import stands."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rulesdsl"):
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                yield full if full in MODULES else node.module
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.startswith("rulesdsl"))


EDGES = {name: set(imported(path)) - {name} for name, path in MODULES.items()}


def place(module: str) -> int:
    parts = module.split(".")
    return FLOW.index(parts[1]) if len(parts) > 1 else len(FLOW)


def test_every_module_lies_in_a_folder_of_the_flow():
    assert {m.split(".")[1] for m in MODULES if "." in m} <= set(FLOW)


def test_no_import_runs_up_the_flow():
    upward = [
        f"{a} -> {b}" for a, bs in EDGES.items() for b in bs if place(b) > place(a) and a != ENTRY
    ]
    assert upward == []


def test_no_surface_imports_another():
    crossing = [
        f"{a} -> {b}"
        for a, bs in EDGES.items()
        for b in bs
        if place(a) == place(b) == FLOW.index("surfaces")
        and a.split(".")[2] != b.split(".")[2]
        and a not in (ENTRY, "rulesdsl.surfaces.main")
    ]
    assert crossing == []


def test_no_imports_close_a_circle():
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in EDGES.get(module, ()):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in MODULES:
        if module not in index:
            visit(module)
    assert circles == []


def test_the_package_root_has_at_most_eight_entries():
    entries = [p.name for p in PACKAGE.iterdir() if p.name != "__pycache__"]
    assert len(entries) <= 8, entries


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.endswith("__init__") is False))
def test_no_package_loads_its_names_lazily(module):
    """No `__getattr__` at module level: a name is imported where it is used."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    assert not any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in tree.body)
