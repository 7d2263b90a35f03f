"""The engine's interpreter: `Machine` (xDSL's `Interpreter` with gpuir's values, errors, call
stack and frames, docs/interp.md "The engine"), `make_machine`, and the diagnostics every
dialect's semantics raise (`fail`, `undefined`, `result_width`)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import IO, Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter, InterpreterFunctions, OpImplResult, PythonValues
from xdsl.ir import Attribute, Operation, Region, SSAValue

from gpuir.ir.integers import Undefined
from gpuir.runtime.engine.closures import Code, FunctionCode, internal_error
from gpuir.runtime.engine.token_order import TokenOrder, tracking_step
from gpuir.runtime.memory import Allocation, Pointer
from gpuir.runtime.provider import ProviderError
from gpuir.runtime.scalars import int_width


def fail(op: Operation, message: str, name: str = "error") -> ProviderError:
    return ProviderError(op, message, name)


def result_width(op: Operation) -> int:
    """The bit width of an integer op's result; a diagnostic for any other type (vectors)."""
    width = int_width(op.results[0].type)
    if width is None:
        raise fail(op, f"'{op.name}' on {op.results[0].type} is not supported", "not supported")
    return width


def undefined(op: Operation, e: Undefined) -> ProviderError:
    """The diagnostic of an integer op whose result LLVM leaves undefined."""
    return fail(op, f"'{op.name}': {e}", e.name)


# --- the machine ---------------------------------------------------------------------------------


class Machine(Interpreter):
    """xDSL's interpreter with gpuir's values, errors, call stack and frames (docs/interp.md,
    "The engine").

    Subclasses give `who` (for messages) and the memory methods."""

    who: str = "host code"
    out: IO[str] | None = None
    quiet_floats: bool = False
    """numpy's float errors are already silenced around every call of this machine."""

    def setup(
        self,
        functions: dict[str, func.FuncOp],
        code: Code | None = None,
        tokens: frozenset[int] = frozenset(),
    ) -> None:
        """`tokens`: the address spaces whose token chains to track
        (`gpuir.runtime.engine.token_order`)."""
        self.functions = functions
        self.call_stack: list[Operation] = []
        self.frames: list[list[Allocation]] = []
        if code is None:
            wrap = partial(tracking_step, spaces=tokens) if tokens else None
            code = Code(self._impls._impl_dict, wrap)  # pyright: ignore[reportPrivateUsage]
        self.code = code
        self.events: dict[int, Any] = {}
        """The tokens that the running op consumed, by address space (tracked tokens only)."""
        self.order = TokenOrder() if code.wrap is not None else None
        """The accesses of this machine, when it tracks tokens."""
        self.frame: list[Any] | None = None
        """The frame of the function running now (`gpuir.runtime.engine.closures`); None
        outside."""
        self.frame_code: FunctionCode | None = None

    def _run_op(self, op: Operation, inputs: PythonValues) -> OpImplResult:
        entry = self._impls._impl_dict.get(type(op))  # pyright: ignore[reportPrivateUsage]
        if entry is None:
            raise fail(op, f"'{op.name}' cannot run here: {self.who} has no semantics for it")
        ft, run = entry
        try:
            return run(ft, self, op, inputs)
        except (ProviderError, OSError):  # OSError: the output went away (a closed pipe)
            raise
        except Exception as e:
            raise internal_error(self, op, e) from e

    def function(self, name: str, op: Operation) -> func.FuncOp:
        found = self.functions.get(name)
        if found is None:
            raise fail(op, f"@{name} is not a function of the module {self.who} runs")
        return found

    def call(self, callee: func.FuncOp, args: PythonValues) -> PythonValues:
        """Call a function: a new frame, its compiled body, then the frame's slots die."""
        code = self.code.functions.get(id(callee))
        if code is None:
            if not callee.body.blocks or not callee.body.blocks[0].ops:
                raise fail(callee, f"@{callee.sym_name.data} has no body to run")
            code = self.code.function(callee, callee.body)
        outer, outer_code = self.frame, self.frame_code
        frame = self.frame = [None] * code.size
        self.frame_code = code
        self.frames.append([])
        try:
            if outer is None and not self.quiet_floats:
                with np.errstate(all="ignore"):  # float ops round: overflow is no warning
                    return code.body.run(self, frame, args)
            return code.body.run(self, frame, args)
        finally:
            self.frame, self.frame_code = outer, outer_code
            for allocation in self.frames.pop():
                if not allocation.freed:
                    allocation.mark_freed(None)

    def run_ssacfg_region(
        self, region: Region, args: PythonValues, name: str = "unknown"
    ) -> PythonValues:
        """A region of the running function (an impl runs its op's regions): compiled, in the
        function's frame."""
        frame = self.frame
        if frame is not None:
            compiled = self.code.regions.get(id(region))
            if compiled is not None:
                return compiled.run(self, frame, args)
        return super().run_ssacfg_region(region, args, name)

    def get_values(self, values: Iterable[SSAValue]) -> tuple[Any, ...]:
        code, frame = self.frame_code, self.frame
        if code is not None and frame is not None:
            return tuple(frame[code.slots[v]] for v in values)
        return super().get_values(values)

    # memory: the host executor and interp's work-items implement these
    def load(self, op: Operation, ptr: Pointer) -> object:
        raise NotImplementedError

    def store(self, op: Operation, ptr: Pointer, value: object) -> None:
        raise NotImplementedError

    def allocate(
        self, op: Operation, space: int, pointee: Attribute, extent: int | None, nbytes: int
    ) -> Pointer:
        raise NotImplementedError

    def free(self, op: Operation, ptr: Pointer) -> None:
        raise NotImplementedError

    def slot(self, op: Operation, space: int, pointee: Attribute, nbytes: int) -> Pointer:
        raise NotImplementedError

    def write(self, text: str) -> None:
        out = self.out
        if out is None:
            raise RuntimeError("no output stream")
        out.write(text)


def make_machine(
    machine_type: type[Machine],
    module: ModuleOp,
    functions: tuple[type[InterpreterFunctions], ...],
    shared: Machine | None = None,
) -> Machine:
    """A machine over `module` with the impls of `functions` (registered once: a machine made
    with `shared=` reuses that machine's impls and function table)."""
    if shared is not None:
        machine = machine_type(module=module, index_bitwidth=64, _impls=shared._impls)
        machine.setup(shared.functions, shared.code)
        return machine
    machine = machine_type(module=module, index_bitwidth=64)
    for functions_type in functions:
        machine.register_implementations(functions_type(), override=True)
    from gpuir.passes.checks.check_tokens import forked_spaces
    from gpuir.passes.device_code import functions as module_functions

    machine.setup(module_functions(module), tokens=forked_spaces(module))
    return machine
