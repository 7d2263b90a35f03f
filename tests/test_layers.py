"""The package's layers, checked on its source: data flows one way, `dialects` → `ir` →
`passes` → `lowering` → `runtime` → `tools`, with `api.py` on top, and no module imports one of
a higher layer (at its top or inside a function; imports only for type checking do not count),
nor do two modules import each other, directly or around a circle (a package's `__init__`, a
registry that imports its own modules when a name is looked up, is not part of a circle)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RANKS = {
    "dialects": 1,
    "ir": 2,
    "passes": 3,
    "lowering": 4,
    "runtime": 5,
    "tools": 6,
    "api": 7,
}
"""Each top-level module or folder of the package, by layer (a module may import its own
layer and the ones below)."""


def package_modules() -> dict[str, Path]:
    """`gpuir.x.y` → its file, for every module of the package's layers."""
    found = {}
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT)
        if rel.parts[0] not in RANKS and rel.stem not in RANKS:
            continue
        parts = ["gpuir", *rel.with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imported(path: Path) -> list[str]:
    """The gpuir modules a file imports, outside `if TYPE_CHECKING:` blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            skipped.update(id(child) for child in ast.walk(node))
    names = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    return [n for n in names if n.startswith("gpuir.")]


def layer(module: str) -> str:
    return module.split(".")[1]


def graph() -> dict[str, set[str]]:
    modules = package_modules()
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = {n for n in imported(path) if n in modules and n != name}
        if path.name == "__init__.py":  # a package's registry imports its own modules lazily
            targets = {n for n in targets if not n.startswith(name + ".")}
        edges[name] = targets
    return edges


def test_no_module_imports_a_higher_layer():
    upward = sorted(
        f"{source} imports {target}"
        for source, targets in graph().items()
        if source != "gpuir"
        for target in targets
        if RANKS[layer(target)] > RANKS[layer(source)]
    )
    assert upward == []


def test_no_two_modules_import_each_other():
    edges = graph()
    edges.pop("gpuir", None)  # the package's lazy `gpuir.compile` & co. are its front
    for targets in edges.values():
        targets.discard("gpuir")
    cycles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                cycles.append(" -> ".join([*stack[stack.index(target) :], target]))
            elif target not in state:
                visit(target)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert cycles == []


def test_the_check_sees_the_layers():
    edges = graph()
    assert "gpuir.ir.registry" in edges["gpuir.passes"]
    assert "gpuir.ir.source" in edges["gpuir.api"]
