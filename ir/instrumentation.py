"""The pass manager's instrumentation, with mlir-opt's output: IR printing around passes
(`--mlir-print-ir-*`), the timing tree (`--mlir-timing`), pass statistics
(`--mlir-pass-statistics`) and crash reproducers (`--mlir-pass-pipeline-crash-reproducer`,
read back by `--run-reproducer`). Each is a `PassInstrumentation` of `gpuir.ir.pass_manager`;
the tools turn their flags into these (`gpuir.tools.pass_flags`).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import IO, TextIO, TypeVar

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from gpuir.ir.pass_manager import (
    ANY,
    MODULE,
    Failure,
    PassInstrumentation,
    PassManager,
    Path,
    PathKey,
    Timer,
    display_name,
    failure_of,
    op_name_of,
    pass_text,
    statistics_of,
)

RULE = "===" + "-" * 73 + "==="


def report_header(title: str) -> list[str]:
    """MLIR's banner over a report (`... Execution time report ...`)."""
    return [RULE, " " * ((80 - len(title)) // 2) + title, RULE]


def print_op(op: Operation, stream: IO[str]) -> None:
    from xdsl.printer import Printer

    Printer(stream=stream).print_op(op)
    stream.write("\n")


def top_of(op: Operation) -> Operation:
    while op.parent_op() is not None:
        op = op.parent_op()  # type: ignore[assignment]
    return op


def symbol_of(op: Operation) -> str | None:
    name = op.attributes.get("sym_name") or op.properties.get("sym_name")
    return name.data if isinstance(name, StringAttr) else None


# --- IR printing -------------------------------------------------------------------------------


@dataclass
class IRPrinting(PassInstrumentation):
    """`--mlir-print-ir-before=` / `-after=` (pass names), `…-before-all` / `…-after-all`,
    `…-after-change` (only when the pass changed the IR), `…-after-failure`,
    `…-module-scope` (the whole top-level module, whatever the pass ran on) and
    `…-tree-dir=DIR` (a file per dump, in a folder per op: `builtin_module_host/…`)."""

    before: frozenset[str] = frozenset()
    after: frozenset[str] = frozenset()
    before_all: bool = False
    after_all: bool = False
    after_change: bool = False
    after_failure: bool = False
    module_scope: bool = False
    tree_dir: str | None = None
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    snapshots: dict[Path, str] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)

    def prints_before(self, p: ModulePass) -> bool:
        return self.before_all or p.name in self.before

    def prints_after(self, p: ModulePass) -> bool:
        return self.after_all or p.name in self.after

    def run_before_pass(self, p: ModulePass, op: Operation, path: Path) -> None:
        if self.prints_before(p):
            self.dump(f"IR Dump Before {display_name(p)} ({p.name})", op, p)
        if self.after_change and self.prints_after(p):
            self.snapshots[path] = str(op)

    def run_after_pass(self, p: ModulePass, op: Operation, path: Path) -> None:
        if not self.prints_after(p):
            return
        if self.after_change and self.snapshots.pop(path, None) == str(op):
            return
        self.dump(f"IR Dump After {display_name(p)} ({p.name})", op, p)

    def run_after_pass_failed(
        self, p: ModulePass, op: Operation, path: Path, error: BaseException
    ) -> None:
        self.snapshots.pop(path, None)
        failure = failure_of(error)
        if self.after_failure and failure is not None and failure.path == path:
            self.dump(f"IR Dump After {display_name(p)} Failed ({p.name})", op, p)

    def dump(self, title: str, op: Operation, p: ModulePass) -> None:
        from io import StringIO

        text = StringIO()
        text.write(f"// -----// {title}")
        shown = op
        if self.module_scope:
            symbol = symbol_of(op)
            text.write(f" ('{op.name}' operation" + (f": @{symbol}" if symbol else "") + ")")
            shown = top_of(op)
        text.write(" //----- //\n")
        print_op(shown, text)
        text.write("\n")
        if self.tree_dir is None:
            self.stream.write(text.getvalue())
            self.stream.flush()
            return
        folder = os.path.join(self.tree_dir, *tree_folders(op))
        os.makedirs(folder, exist_ok=True)
        number = self.counters.get(folder, 0)
        self.counters[folder] = number + 1
        with open(os.path.join(folder, f"{number}_{p.name}.mlir"), "w", encoding="utf-8") as f:
            f.write(text.getvalue())


def tree_folders(op: Operation) -> list[str]:
    """The folders of `--mlir-print-ir-tree-dir` for `op`: one per op from the top down,
    `<dialect>_<op>_<symbol>` (`no-symbol-name` without one), as mlir-opt names them."""
    chain = []
    current: Operation | None = op
    while current is not None:
        chain.append(current)
        current = current.parent_op()
    return [
        f"{o.name.replace('.', '_')}_{symbol_of(o) or 'no-symbol-name'}" for o in reversed(chain)
    ]


# --- timing ------------------------------------------------------------------------------------


@dataclass
class TimingNode:
    name: str
    wall: float = 0.0
    user: float = 0.0
    children: dict[PathKey, TimingNode] = field(default_factory=dict)


@dataclass
class Timing(PassInstrumentation):
    """`--mlir-timing`: the wall and CPU time of each pass, nested as the pipeline runs
    (composite passes hold their stages), beside the tool's own phases (`Parser`, `Output`);
    `display`: `tree` (MLIR's default) or `list` (per name, the slowest first)."""

    display: str = "tree"
    root: TimingNode = field(default_factory=lambda: TimingNode("root"))
    started: Timer = field(default_factory=Timer)
    running: dict[Path, Timer] = field(default_factory=dict)

    def node(self, path: Path) -> TimingNode:
        return node_at(self.root, path, TimingNode)

    def add(self, name: str, wall: float, user: float) -> None:
        """Time the tool spent in one of its own phases (`Parser`, `Output`)."""
        key = PathKey(-1, name)  # the tool's phases: one node each, however often they run
        node = self.root.children.get(key)
        if node is None:
            node = self.root.children[key] = TimingNode(name)
        node.wall += wall
        node.user += user

    def start(self, path: Path) -> None:
        self.running[path] = Timer()

    def stop(self, path: Path) -> None:
        timer = self.running.pop(path, None)
        if timer is None:
            return
        wall, user = timer.elapsed()
        node = self.node(path)
        node.wall += wall
        node.user += user

    def run_before_pipeline(self, anchor: str, op: Operation | None, path: Path) -> None:
        self.start(path)

    def run_after_pipeline(self, anchor: str, op: Operation | None, path: Path) -> None:
        self.stop(path)

    def run_before_pass(self, p: ModulePass, op: Operation, path: Path) -> None:
        self.start(path)

    def run_after_pass(self, p: ModulePass, op: Operation, path: Path) -> None:
        self.stop(path)

    def run_after_pass_failed(
        self, p: ModulePass, op: Operation, path: Path, error: BaseException
    ) -> None:
        self.stop(path)

    def report(self) -> str:
        """MLIR's execution time report: per node user and wall time and their share of the
        whole, then `Rest` (the time no node holds) and `Total`."""
        total_wall, total_user = self.started.elapsed()
        rows: list[tuple[int, str, float, float]] = []
        if self.display == "list":
            merged: dict[str, list[float]] = {}
            for _, node in walk(self.root):
                times = merged.setdefault(node.name, [0.0, 0.0])
                times[0] += node.wall
                times[1] += node.user
            for name, (wall, user) in sorted(merged.items(), key=lambda item: -item[1][0]):
                rows.append((0, name, wall, user))
        else:
            rows = [(depth, node.name, node.wall, node.user) for depth, node in walk(self.root)]
        top_wall = sum(node.wall for node in self.root.children.values())
        top_user = sum(node.user for node in self.root.children.values())
        rows.append((0, "Rest", max(total_wall - top_wall, 0.0), max(total_user - top_user, 0.0)))
        rows.append((0, "Total", total_wall, total_user))
        lines = [*report_header("... Execution time report ..."), ""]
        lines[-1:] = [f"  Total Execution Time: {total_wall:.4f} seconds", ""]
        lines.append("  ----User Time----  ----Wall Time----  ----Name----")
        for depth, name, wall, user in rows:
            lines.append(
                f"{user:10.4f} ({share(user, total_user):5.1f}%)"
                f"{wall:10.4f} ({share(wall, total_wall):5.1f}%)  {'  ' * depth}{name}"
            )
        return "\n".join(lines)


def share(part: float, whole: float) -> float:
    return 100 * part / whole if whole > 0 else 0.0


Node = TypeVar("Node", TimingNode, "StatisticsNode")


def node_at(root: Node, path: Path, make: Callable[[str], Node]) -> Node:
    """The node of the report tree at `path` (each key a pass's place), made if need be."""
    node = root
    for key in path:
        child = node.children.get(key)
        if child is None:
            child = node.children[key] = make(key.name)
        node = child
    return node


def walk(node: Node, depth: int = 0) -> Iterable[tuple[int, Node]]:
    """Each node under `node`, depth first, with its depth."""
    for child in node.children.values():
        yield depth, child
        yield from walk(child, depth + 1)


# --- statistics --------------------------------------------------------------------------------


@dataclass
class StatisticsNode:
    name: str
    values: dict[int, list] = field(default_factory=dict)
    """Each pass object's statistics, by `id` (a pass at this place may be several objects:
    a composite makes its stages anew each time it runs)."""
    children: dict[PathKey, StatisticsNode] = field(default_factory=dict)
    keep: list[ModulePass] = field(default_factory=list)


@dataclass
class PassStatistics(PassInstrumentation):
    """`--mlir-pass-statistics`: each pass's statistics (`gpuir.ir.pass_manager.Statistic`),
    summed over the times it ran, under the pipeline (`display=pipeline`, MLIR's default) or
    per pass name (`list`)."""

    display: str = "pipeline"
    root: StatisticsNode = field(default_factory=lambda: StatisticsNode("root"))

    def node(self, path: Path) -> StatisticsNode:
        return node_at(self.root, path, StatisticsNode)

    def record(self, p: ModulePass, path: Path) -> None:
        node = self.node(path)
        if id(p) not in node.values:
            node.keep.append(p)  # the id stays the object's while it is kept
        node.values[id(p)] = statistics_of(p)

    def run_before_pipeline(self, anchor: str, op: Operation | None, path: Path) -> None:
        if op is not None:  # a nested pipeline; a tool's section shows only if a pass ran in it
            self.node(path)

    def run_after_pass(self, p: ModulePass, op: Operation, path: Path) -> None:
        self.record(p, path)

    def run_after_pass_failed(
        self, p: ModulePass, op: Operation, path: Path, error: BaseException
    ) -> None:
        self.record(p, path)

    def report(self) -> str:
        lines = report_header("... Pass statistics report ...")
        if self.display == "list":
            merged: dict[str, dict[tuple[str, str], int]] = {}
            for _, node in walk(self.root):
                for name, description, value in summed(node):
                    stats = merged.setdefault(node.name, {})
                    stats[name, description] = stats.get((name, description), 0) + value
            for pass_name in sorted(merged):
                stats = [(n, d, v) for (n, d), v in merged[pass_name].items()]
                lines += entry(0, pass_name, stats)
        else:
            for depth, node in walk(self.root):
                lines += entry(depth * 2, node.name, summed(node))
        return "\n".join(lines)


def summed(node: StatisticsNode) -> list[tuple[str, str, int]]:
    totals: dict[tuple[str, str], int] = {}
    for values in node.values.values():
        for name, description, value in values:
            totals[name, description] = totals.get((name, description), 0) + value
    return [(name, description, value) for (name, description), value in totals.items()]


def entry(indent: int, title: str, stats: list[tuple[str, str, int]]) -> list[str]:
    """A pass and its statistics, as MLIR prints them: sorted by name, values right-aligned,
    names left-aligned."""
    lines = [" " * indent + title]
    if not stats:
        return lines
    stats = sorted(stats)
    name_width = max(len(name) for name, _, _ in stats)
    value_width = max(len(str(value)) for _, _, value in stats)
    for name, description, value in stats:
        lines.append(
            " " * (indent + 2) + f"(S) {value:>{value_width}} {name:<{name_width}} - {description}"
        )
    return lines


# --- crash reproducers -------------------------------------------------------------------------


@dataclass
class CrashReproducer(PassInstrumentation):
    """`--mlir-pass-pipeline-crash-reproducer=FILE`: when a pass fails (raises, or its result
    does not verify), FILE gets the IR the pipeline started from and the whole pipeline
    (`local=False`, mlir-opt's default), or (`local=True`,
    `--mlir-pass-pipeline-local-reproducer`) the IR that the failing pass got and that pass
    alone, anchored as it ran. FILE ends with MLIR's `{-# external_resources: {
    mlir_reproducer: {…} } #-}` block; `--run-reproducer FILE` runs it again.

    `start` takes the pipeline and its input before the run; `note` says, after a failure,
    where the reproducer went (or why it could not be written)."""

    path: str
    local: bool = False
    verify_each: bool = True
    pipeline: PassManager | None = None
    input: Operation | None = None
    before: dict[Path, Operation] = field(default_factory=dict)
    note: str | None = None

    def start(self, pipeline: PassManager, op: Operation) -> None:
        self.pipeline = pipeline
        self.note = None
        self.input = None if self.local else op.clone()

    def run_before_pass(self, p: ModulePass, op: Operation, path: Path) -> None:
        if self.local:
            self.before[path] = op.clone()

    def run_after_pass(self, p: ModulePass, op: Operation, path: Path) -> None:
        self.before.pop(path, None)

    def run_after_pass_failed(
        self, p: ModulePass, op: Operation, path: Path, error: BaseException
    ) -> None:
        snapshot = self.before.pop(path, None)
        failure = failure_of(error)
        if self.note is not None or failure is None or failure.path != path:
            return
        where = f"`{display_name(p)}` on '{op.name}' operation"
        if self.local:
            assert snapshot is not None
            module, pipeline = local_reproducer(snapshot, failure)
            where_text = where
        else:
            assert self.input is not None and self.pipeline is not None
            module, pipeline = self.input, str(self.pipeline)
            where_text = f"[{where}]"
        try:
            write_reproducer(self.path, module, pipeline, self.verify_each)
        except OSError as e:
            self.note = f"could not write the reproducer '{self.path}': {e.strerror}"
            return
        self.note = (
            f"Pipeline failed while executing {where_text}: reproducer generated at `{self.path}`"
        )


def local_reproducer(snapshot: Operation, failure: Failure) -> tuple[Operation, str]:
    """The IR and pipeline that rerun the failing pass alone: on a module as it is, on any
    other op inside a module made for it."""
    text = pass_text(failure.pass_, True)
    if op_name_of(failure.pass_) not in (ANY, snapshot.name):
        return snapshot, text  # an op pass that walked the module: a flat pipeline says so
    if isinstance(snapshot, ModuleOp):
        return snapshot, f"{MODULE}({text})"
    return ModuleOp([snapshot]), f"{MODULE}({snapshot.name}({text}))"


REPRODUCER_KEY = "mlir_reproducer"


def write_reproducer(path: str, op: Operation, pipeline: str, verify_each: bool) -> None:
    from io import StringIO

    text = StringIO()
    print_op(op, text)
    quoted = pipeline.replace("\\", "\\\\").replace('"', '\\"')
    text.write(
        "\n{-#\n  external_resources: {\n"
        f"    {REPRODUCER_KEY}: {{\n"
        f'      pipeline: "{quoted}",\n'
        "      disable_threading: true,\n"
        f"      verify_each: {'true' if verify_each else 'false'}\n"
        "    }\n  }\n#-}\n"
    )
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.getvalue())


class ReproducerError(ValueError):
    """A reproducer's `{-# … #-}` block that gpu-opt cannot read; `line` is where (1-based)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Reproducer:
    text: str
    """The IR, with the `{-# … #-}` block blanked out (lines keep their numbers)."""
    pipeline: str
    verify_each: bool


METADATA = re.compile(r"\{-#(.*?)#-\}", re.DOTALL)
PIPELINE = re.compile(r'\bpipeline\s*:\s*"((?:[^"\\]|\\.)*)"')
VERIFY_EACH = re.compile(r"\bverify_each\s*:\s*(true|false)\b")


def split_reproducer(text: str) -> Reproducer | None:
    """The reproducer in `text`: its IR and its `mlir_reproducer` pipeline; None when `text`
    has no file metadata that names `mlir_reproducer`. A block that names it but is not one
    MLIR would write is a `ReproducerError`."""
    for match in METADATA.finditer(text):
        body = match.group(1)
        if REPRODUCER_KEY not in body:
            continue
        line = text.count("\n", 0, match.start()) + 1
        if not re.search(r"\bexternal_resources\s*:", body):
            raise ReproducerError(
                f"the file metadata names '{REPRODUCER_KEY}' outside 'external_resources'", line
            )
        found = PIPELINE.search(body)
        if found is None:
            raise ReproducerError(
                f"the '{REPRODUCER_KEY}' resource has no 'pipeline: \"…\"' entry", line
            )
        pipeline = re.sub(r"\\(.)", r"\1", found.group(1))
        verify = VERIFY_EACH.search(body)
        blank = re.sub(r"[^\n]", " ", match.group(0))
        rest = text[: match.start()] + blank + text[match.end() :]
        return Reproducer(rest, pipeline, verify is None or verify.group(1) == "true")
    return None
