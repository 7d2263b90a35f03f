"""The llvm ops that build and read struct values (Python tuples, `gpuir.runtime.structs`):
`llvm.mlir.undef`, `llvm.mlir.zero`, `llvm.insertvalue`, `llvm.extractvalue`."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.interpreter import InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation

from gpuir.runtime.engine.machine import Machine, fail
from gpuir.runtime.structs import undef


def _struct_path(op: Operation, value: tuple, position: tuple[int, ...]) -> None:
    """A diagnostic when `position` is not a field of the struct `value`."""
    inner: object = value
    for i in position:
        if not isinstance(inner, tuple) or not 0 <= i < len(inner):
            raise fail(op, f"'{op.name}': position {list(position)} is not a field of the struct")
        inner = inner[i]


def _insert(value: tuple, position: tuple[int, ...], field: object) -> tuple:
    head, rest = position[0], position[1:]
    replaced = field if not rest else _insert(value[head], rest, field)
    return (*value[:head], replaced, *value[head + 1 :])


@register_impls
class LlvmStructFunctions(InterpreterFunctions):
    """The llvm ops that build and read struct values (Python tuples, `runtime.structs`):
    `llvm.mlir.undef` / `llvm.mlir.zero` (zeros), `llvm.insertvalue`, `llvm.extractvalue`."""

    @impl(llvm.UndefOp)
    def run_undef(self, machine: Machine, op: llvm.UndefOp, args: PythonValues):
        return (undef(op.res.type),)

    @impl(llvm.ZeroOp)
    def run_zero(self, machine: Machine, op: llvm.ZeroOp, args: PythonValues):
        return (undef(op.res.type),)

    @impl(llvm.InsertValueOp)
    def run_insertvalue(self, machine: Machine, op: llvm.InsertValueOp, args: PythonValues):
        position = tuple(op.position.get_values())
        _struct_path(op, args[0], position)
        return (_insert(args[0], position, args[1]),)

    @impl(llvm.ExtractValueOp)
    def run_extractvalue(self, machine: Machine, op: llvm.ExtractValueOp, args: PythonValues):
        position = tuple(op.position.get_values())
        _struct_path(op, args[0], position)
        value = args[0]
        for i in position:
            value = value[i]
        return (value,)
