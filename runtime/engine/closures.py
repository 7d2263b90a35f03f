"""Compiled interpretation: each function's body turned once into Python closures over a frame
(`Code`, `Compiler`), and the registry of the ops' fast forms (`fast`, `FAST`), which each
dialect's module of the engine fills. docs/interp.md, "Compiled interpretation", says how.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.interpreter import ReturnedValues, Successor
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import IsTerminator

from gpuir.runtime.provider import ProviderError

Frame = list[Any]
Step = Callable[[Any, Frame], None]
Terminator = Callable[[Any, Frame], tuple[int, tuple[Any, ...]]]

RETURN = -1
"""A terminator's target when its region ends (the values are the region's results)."""


class CompiledBlock:
    __slots__ = ("args", "ops", "steps", "terminator")

    def __init__(self, args: list[int], ops: list[Operation]):
        self.args = args
        self.ops = ops
        self.steps: list[Step] = []
        self.terminator: Terminator = _falls_off


def _falls_off(machine: Any, frame: Frame) -> tuple[int, tuple[Any, ...]]:
    return RETURN, ()


class CompiledRegion:
    """A region's blocks; `run` executes it in a frame (its entry block takes `args`)."""

    __slots__ = ("blocks",)

    def __init__(self, blocks: list[CompiledBlock]):
        self.blocks = blocks

    def run(self, machine: Any, frame: Frame, args: tuple[Any, ...] | list[Any]) -> Any:
        blocks = self.blocks
        if not blocks:
            return ()
        block = blocks[0]
        while True:
            for slot, value in zip(block.args, args, strict=False):
                frame[slot] = value
            k = -1
            try:
                for k, step in enumerate(block.steps):  # noqa: B007
                    step(machine, frame)
                k = -1
                target, args = block.terminator(machine, frame)
            except (ProviderError, OSError):
                raise
            except Exception as e:
                raise internal_error(machine, block.ops[k], e) from e
            if target == RETURN:
                return args
            block = blocks[target]


def internal_error(machine: Any, op: Operation, e: Exception) -> ProviderError:
    """What `Machine._run_op` makes of an exception that is not a diagnostic."""
    if isinstance(e, RecursionError):
        return ProviderError(
            op,
            f"stack overflow: {machine.who} recurses deeper than the interpreter can follow",
            "stack overflow",
        )
    return ProviderError(
        op, f"internal error while running '{op.name}': {type(e).__name__}: {e}", "internal error"
    )


class FunctionCode:
    """A compiled function: its body and the size of its frame."""

    __slots__ = ("body", "size", "slots")

    def __init__(self, body: CompiledRegion, size: int, slots: dict[SSAValue, int]):
        self.body = body
        self.size = size
        self.slots = slots


FastForm = Callable[["Compiler", Operation], Step | Terminator | None]
FAST: dict[type[Operation], FastForm] = {}
"""Fast forms by op type: `form(compiler, op)` gives the op's step (or terminator), or None
when this op has none (then its impl runs)."""


def fast(*op_types: type[Operation]) -> Callable[[FastForm], FastForm]:
    def register(form: FastForm) -> FastForm:
        for op_type in op_types:
            FAST[op_type] = form
        return form

    return register


class Compiler:
    """Compiles one function: slots for its values, closures for its ops."""

    def __init__(self, code: Code):
        self.code = code
        self.slots: dict[SSAValue, int] = {}
        self.index: dict[int, int] = {}
        """The blocks of the region being compiled, by `id`: where its branches go."""

    def slot(self, value: SSAValue) -> int:
        found = self.slots.get(value)
        if found is None:
            found = self.slots[value] = len(self.slots)
        return found

    def ins(self, op: Operation) -> list[int]:
        return [self.slot(v) for v in op.operands]

    def outs(self, op: Operation) -> list[int]:
        return [self.slot(v) for v in op.results]

    def region(self, region: Region) -> CompiledRegion:
        found = self.code.regions.get(id(region))
        if found is not None:
            return found
        blocks = list(region.blocks)
        compiled = CompiledRegion(
            [CompiledBlock([self.slot(a) for a in b.args], list(b.ops)) for b in blocks]
        )
        self.code.regions[id(region)] = compiled  # before the body: nested ops may ask
        index = {id(b): i for i, b in enumerate(blocks)}
        for block, target in zip(blocks, compiled.blocks, strict=False):
            self.block(block, target, index)
        return compiled

    def block(self, block: Block, target: CompiledBlock, index: dict[int, int]) -> None:
        ops = target.ops
        if ops and ops[-1].has_trait(IsTerminator):
            *body, last = ops
            target.terminator = self.terminator(last, index)
        else:
            body = ops
        target.steps = [self.step(op) for op in body]

    def step(self, op: Operation) -> Step:
        wrap = self.code.wrap
        step = self.plain_step(op)
        return step if wrap is None else wrap(self, op, step)

    def plain_step(self, op: Operation) -> Step:
        form = FAST.get(type(op))
        if form is not None:
            found = form(self, op)
            if found is not None:
                return found  # type: ignore[return-value]
        for region in op.regions:
            self.region(region)
        return self.generic_step(op)

    def generic_step(self, op: Operation) -> Step:
        """Run the op's impl on its operands; store its results."""
        entry = self.code.impls.get(type(op))
        ins, outs = self.ins(op), self.outs(op)
        if entry is None:
            return _no_semantics(op)
        ft, run = entry
        if len(outs) == 1:
            (out,) = outs
            if len(ins) == 2:
                a, b = ins

                def step2(m: Any, f: Frame) -> None:
                    f[out] = run(ft, m, op, (f[a], f[b])).values[0]

                return step2

            def step1(m: Any, f: Frame) -> None:
                f[out] = run(ft, m, op, tuple([f[i] for i in ins])).values[0]

            return step1

        def step(m: Any, f: Frame) -> None:
            values = run(ft, m, op, tuple([f[i] for i in ins])).values
            for slot, value in zip(outs, values, strict=False):
                f[slot] = value

        return step

    def terminator(self, op: Operation, index: dict[int, int]) -> Terminator:
        form = FAST.get(type(op))
        if form is not None:
            self.index = index
            found = form(self, op)
            if found is not None:
                return found  # type: ignore[return-value]
        entry = self.code.impls.get(type(op))
        ins = self.ins(op)
        if entry is None:
            step = _no_semantics(op)

            def missing(m: Any, f: Frame) -> tuple[int, tuple[Any, ...]]:
                step(m, f)
                return RETURN, ()

            return missing
        ft, run = entry

        def terminate(m: Any, f: Frame) -> tuple[int, tuple[Any, ...]]:
            value = run(ft, m, op, tuple([f[i] for i in ins])).terminator_value
            if isinstance(value, Successor):
                return index[id(value.block)], tuple(value.args)
            if isinstance(value, ReturnedValues):
                return RETURN, tuple(value.values)
            return RETURN, ()

        return terminate

    def returns(self, op: Operation) -> Terminator:
        """A terminator that ends its region with its operands."""
        ins = self.ins(op)
        if len(ins) == 1:
            (a,) = ins
            return lambda m, f: (RETURN, (f[a],))
        return lambda m, f: (RETURN, tuple([f[i] for i in ins]))


def _no_semantics(op: Operation) -> Step:
    def step(m: Any, f: Frame) -> None:
        m._run_op(op, tuple(None for _ in op.operands))  # the machine's own diagnostic

    return step


class Code:
    """The compiled functions and regions of one module for one table of impls (shared by
    every machine made from the same prototype)."""

    def __init__(
        self,
        impls: dict[type[Operation], tuple[Any, Any]],
        wrap: Callable[[Compiler, Operation, Step], Step] | None = None,
    ):
        self.impls = impls
        self.wrap = wrap
        """Wraps every op's step (the token-order check, `gpuir.runtime.engine.token_order`)."""
        self.functions: dict[int, FunctionCode] = {}
        self.regions: dict[int, CompiledRegion] = {}

    def function(self, callee: Operation, body: Region) -> FunctionCode:
        found = self.functions.get(id(callee))
        if found is None:
            compiler = Compiler(self)
            region = compiler.region(body)
            found = FunctionCode(region, len(compiler.slots), compiler.slots)
            self.functions[id(callee)] = found
        return found
