"""The package's layers, checked on its source: data flows one way, `dialects` → `ir` →
`passes` → `lowering` → `runtime` → `tools`, with `api.py` on top, and no module imports one of
a higher layer (at its top or inside a function; imports only for type checking do not count),
nor do two modules import each other, directly or around a circle (a package's `__init__`, a
registry that imports its own modules when a name is looked up, is not part of a circle).

Within `lowering`, one folder per target (`LOWERING_ROOMS`): `nvptx` and `cpu` never import each
other, `host` imports neither, and all three build on `llvm`, which imports none of them."""

from __future__ import annotations

import ast
from collections.abc import Callable
from functools import cache
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
LOWERING_ROOMS: dict[str, set[str]] = {
    "llvm": set(),
    "nvptx": {"llvm"},
    "cpu": {"llvm"},
    "host": {"llvm"},
}
"""The folders of `lowering/` and the others each may import: the conversions and the
translation that every target shares (`llvm`), the NVPTX device path, the cpu provider's, the
host code's. The modules at the top of `lowering/` (the registry, `targets.py`) tie them
together and may import any; no folder imports them (importing the package `gpuir.lowering`
itself, to fill the registry of passes, is allowed)."""


def package_modules() -> dict[str, Path]:
    """`gpuir.x.y` → its file, for every module of the package's layers (their folders only:
    never the virtual environment or anything else under the root)."""
    paths = [ROOT / f"{name}.py" for name in RANKS if (ROOT / f"{name}.py").exists()]
    for name in RANKS:
        if (ROOT / name).is_dir():
            paths += sorted((ROOT / name).rglob("*.py"))
    found = {}
    for path in paths:
        parts = ["gpuir", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


@cache
def syntax_tree(path: Path) -> ast.Module:
    """The file's syntax, read once per session: five of these tests read every file."""
    return ast.parse(path.read_text(encoding="utf-8"))


def imported(path: Path) -> list[str]:
    """The gpuir modules a file imports, outside `if TYPE_CHECKING:` blocks."""
    tree = syntax_tree(path)
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


@cache
def graph() -> dict[str, set[str]]:
    """Each module → the modules of the package it imports (shared by the tests: not to be
    changed)."""
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


def crossings(
    edges: dict[str, set[str]], room: Callable[[str], str | None], rooms: dict[str, set[str]]
) -> list[str]:
    """`source imports target` for each import from a module in one of `rooms` (`room(module)`)
    to a module of a room that it may not import (None: outside all rooms, which anyone may)."""
    return sorted(
        f"{source} imports {target}"
        for source, targets in edges.items()
        if (here := room(source)) in rooms
        for target in targets
        if room(target) not in (None, here, *rooms[here])
    )


def allowed_rooms(rooms: dict[str, set[str]], word: str) -> str:
    """What each of `rooms` may import, in words (a room is a `word`), for an assertion."""
    return "; ".join(
        f"{room} imports {', '.join(sorted(others)) or f'no other {word}'}"
        for room, others in rooms.items()
    )


def lowering_room(module: str) -> str | None:
    """The folder of `lowering/` that `module` is in, `"top"` for a module at the top of
    `lowering/` (`gpuir.lowering.targets`), None outside `lowering/` and for the package itself."""
    parts = module.split(".")
    if parts[:2] != ["gpuir", "lowering"] or len(parts) < 3:
        return None
    return parts[2] if parts[2] in LOWERING_ROOMS else "top"


def test_lowering_targets_do_not_import_each_other():
    edges = graph()
    assert "gpuir.lowering.llvm.conversion" in edges["gpuir.lowering.nvptx.gpu_to_nvvm"]
    offending = crossings(edges, lowering_room, LOWERING_ROOMS)
    allowed = allowed_rooms(LOWERING_ROOMS, "folder")
    assert offending == [], (
        f"lowering/: a folder imports one it may not ({allowed}; none imports the top of "
        "lowering/). Move what both need to lowering/llvm/:\n  " + "\n  ".join(offending)
    )


RUNTIME_ROOMS = {
    "engine": set(),
    "interp": {"engine"},
    "cpu": {"engine", "interp"},
    "cuda": {"engine"},
    "native": {"cpu"},
}
"""Each provider's folder of `runtime/` and the folders it may import: the engine none, no
provider another (the cpu provider reruns a launch it suspects under interp); the native
executables link the cpu provider's kernels, and no provider imports them. Everyone may
import the shared modules at the top of `runtime/`."""


def runtime_room(module: str) -> str | None:
    """The room of `runtime/` that `module` is in (a folder, or the provider's module at the top
    before it had one: `gpuir.runtime.cpu_pool` is `cpu`), None for the shared modules."""
    parts = module.split(".")
    if parts[:2] != ["gpuir", "runtime"] or len(parts) < 3:
        return None
    name = parts[2]
    for room in RUNTIME_ROOMS:
        if name == room or name.startswith(room + "_"):
            return room
    return None


def test_runtime_providers_do_not_import_each_other():
    edges = graph()
    assert any(t.startswith("gpuir.runtime.engine") for t in edges["gpuir.runtime.interp.items"])
    offending = crossings(edges, runtime_room, RUNTIME_ROOMS)
    allowed = allowed_rooms(RUNTIME_ROOMS, "room")
    assert offending == [], (
        f"runtime/: a room imports one it may not ({allowed}). Move what both need to the "
        "top of runtime/:\n  " + "\n  ".join(offending)
    )
    shared = sorted(
        f"{source} imports {target}"
        for source, targets in edges.items()
        if source.startswith("gpuir.runtime.") and runtime_room(source) is None
        for target in targets
        if runtime_room(target) in ("cpu", "cuda")
    )
    assert shared == [], "runtime/: a shared module imports a provider:\n  " + "\n  ".join(shared)


def test_no_two_modules_import_each_other():
    # the package's lazy `gpuir.compile` & co. are its front (a copy: the graph is shared)
    edges = {name: targets - {"gpuir"} for name, targets in graph().items() if name != "gpuir"}
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


def test_attribute_names_have_one_definition():
    """Each attribute name gpuir gives ops (`NAME_ATTR = "gpu.kernel"`) is defined once, and no
    other module of the package writes it as a literal (it imports the constant)."""
    definitions: dict[str, list[str]] = {}
    literals: dict[str, list[str]] = {}
    for name, path in package_modules().items():
        tree = syntax_tree(path)
        defining: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
                if any(t.endswith("_ATTR") for t in targets) and isinstance(node.value.value, str):
                    definitions.setdefault(node.value.value, []).append(name)
                    defining.add(id(node.value))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) not in defining:
                    literals.setdefault(node.value, []).append(name)
    assert "gpu.kernel" in definitions
    twice = {value: where for value, where in definitions.items() if len(where) > 1}
    assert twice == {}, f"attribute names defined more than once: {twice}"
    written = {value: literals[value] for value in definitions if value in literals}
    assert written == {}, (
        f"attribute names written as literals instead of their constant: {written}"
    )


MAX_LINES = 800
"""A source file's lines, at most (CONTRIBUTING: split a bigger one at its seams)."""
MAX_MODULES = 16
"""A source folder's Python files, at most (CONTRIBUTING: a room per target and provider)."""


def test_no_source_file_or_folder_outgrows_its_limit():
    files = list(package_modules().values())
    too_long = [
        f"{path.relative_to(ROOT)}: {n} lines"
        for path in files
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    ]
    folders: dict[Path, int] = {}
    for path in files:
        folders[path.parent] = folders.get(path.parent, 0) + 1
    too_full = [
        f"{folder.relative_to(ROOT)}/: {n} Python files"
        for folder, n in folders.items()
        if n > MAX_MODULES and folder != ROOT
    ]
    assert not too_long and not too_full, "\n".join(too_long + too_full)
