"""A Graphviz picture of a program: `gpu-opt FILE -t dot | dot -Tsvg > program.svg`.

`module_to_dot(module)` is the emitter (IR → dot text, pure); `DotTarget` exposes it to gpu-opt
as the target `dot`.

- Each function is a box labelled with its name and its kind: `host`, `kernel`, `device` (called
  only from kernels) or `host+device` (called from both sides); a declaration says so. Kernels
  have a double border, device functions rounded corners.
- After `split-apply`, the functions of each nested module (`@host`, `@device`) are drawn in a
  cluster of that name (`subgraph cluster_host`, `subgraph cluster_device`).
- A call is an edge `call` (one per caller and callee); each `gpu.launch` is a bold edge from the
  launching function to its kernel, labelled with its grid (the number where an operand is an
  `arith.constant`, else its SSA name as gpu-opt prints it), its stream (`default` for
  `gpu.default_stream`) and, if any, its shared memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import StringIO
from typing import IO

from xdsl.context import Context
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.printer import Printer
from xdsl.traits import SymbolTable
from xdsl.utils.target import Target

from gpuir.dialects.gpu import DEVICE_ATTR, DefaultStreamOp, LaunchOp, lookup_kernel
from gpuir.passes.device_code import (
    KERNEL_ATTR,
    device_functions,
    host_functions,
    kernels,
)


def quote(text: str) -> str:
    """A dot string: `"…"`, lines joined by `\\n`."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n") + '"'


class SsaNames:
    """The names gpu-opt prints for the values of a module."""

    def __init__(self, module: ModuleOp):
        self.printer = Printer(stream=StringIO())
        self.printer.print_op(module)

    def __call__(self, value: SSAValue) -> str:
        return "%" + self.printer.print_ssa_value(value)


def function_kinds(module: ModuleOp) -> dict[str, str]:
    """The kind of each top-level function of `module`: host, kernel, device or host+device."""
    functions = [op.sym_name.data for op in module.ops if isinstance(op, FuncOp)]
    if DEVICE_ATTR in module.attributes:
        return {name: "device" for name in functions} | {
            op.sym_name.data: "kernel"
            for op in module.ops
            if isinstance(op, FuncOp) and KERNEL_ATTR in op.attributes
        }
    launched, device, host = kernels(module), device_functions(module), host_functions(module)
    kinds: dict[str, str] = {}
    for name in functions:
        if name in launched:
            kinds[name] = "kernel"
        elif name in device and name in host:
            kinds[name] = "host+device"
        elif name in device:
            kinds[name] = "device"
        else:
            kinds[name] = "host"
    return kinds


STYLE = {
    "host": "",
    "kernel": ", peripheries=2",
    "device": ', style="rounded"',
    "host+device": ', style="rounded,dashed"',
}


@dataclass
class DotWriter:
    module: ModuleOp
    names: SsaNames
    lines: list[str]
    node_ids: dict[FuncOp, str]

    def emit(self) -> str:
        self.lines.append("digraph gpuir {")
        self.lines.append('  graph [fontname="monospace"];')
        self.lines.append('  node [shape=box, fontname="monospace"];')
        self.lines.append('  edge [fontname="monospace"];')
        self.nodes(self.module, prefix="", indent="  ")
        for i, inner in enumerate(op for op in self.module.ops if isinstance(op, ModuleOp)):
            name = inner.sym_name.data if inner.sym_name is not None else None
            cluster = name if name is not None and name.isidentifier() else str(i)
            self.lines.append(f"  subgraph cluster_{cluster} {{")
            self.lines.append(f"    label={quote('@' + name if name else 'module')};")
            self.nodes(inner, prefix=f"@{name}::" if name else f"module{i}::", indent="    ")
            self.lines.append("  }")
        for function, node in self.node_ids.items():
            self.edges(function, node)
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"

    def nodes(self, module: ModuleOp, prefix: str, indent: str) -> None:
        kinds = function_kinds(module)
        for function in module.ops:
            if not isinstance(function, FuncOp):
                continue
            name = function.sym_name.data
            node = f"{prefix}@{name}"
            self.node_ids[function] = node
            kind = kinds[name]
            label = f"@{name}\n{kind}" + (", declaration" if function.is_declaration else "")
            self.lines.append(f"{indent}{quote(node)} [label={quote(label)}{STYLE[kind]}];")

    def edges(self, function: FuncOp, node: str) -> None:
        called: set[str] = set()
        for op in function.walk():
            if isinstance(op, CallOp):
                callee = self.node_of(SymbolTable.lookup_symbol(op, op.callee))
                if callee is not None and callee not in called:
                    called.add(callee)
                    self.lines.append(f'  {quote(node)} -> {quote(callee)} [label="call"];')
            elif isinstance(op, LaunchOp):
                kernel = self.node_of(lookup_kernel(op, op.kernel)) or str(op.kernel)
                label = quote(self.launch_label(op))
                self.lines.append(
                    f"  {quote(node)} -> {quote(kernel)} [label={label}, style=bold];"
                )

    def node_of(self, op: Operation | None) -> str | None:
        return self.node_ids.get(op) if isinstance(op, FuncOp) else None

    def launch_label(self, launch: LaunchOp) -> str:
        grid = f"grid({self.operand(launch.n_groups)}, {self.operand(launch.n_items)})"
        stream = launch.stream.owner
        stream_text = "default" if isinstance(stream, DefaultStreamOp) else None
        lines = [f"launch {grid}", f"stream {stream_text or self.names(launch.stream)}"]
        if launch.smem is not None:
            extent = launch.smem_extent
            lines.append(f"smem {launch.smem}" + (f" ({self.operand(extent)})" if extent else ""))
        return "\n".join(lines)

    def operand(self, value: SSAValue) -> str:
        """A constant's value, or the value's SSA name."""
        owner = value.owner
        if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
            return str(owner.value.value.data)
        return self.names(value)


def module_to_dot(module: ModuleOp) -> str:
    """The dot text of `module`'s functions, launches and calls."""
    return DotWriter(module, SsaNames(module), [], {}).emit()


@dataclass(frozen=True)
class DotTarget(Target):
    """`-t dot`: the program as a Graphviz digraph."""

    name = "dot"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(module_to_dot(module))
