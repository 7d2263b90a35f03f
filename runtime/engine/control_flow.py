"""`scf`, `cf` and `func`: xDSL's impls where they do not look at values, gpuir's for the rest
(`scf.for` bounds, `index_switch`, `cf.assert`/`switch`, calls through the machine's frames);
with the fast forms of loops, branches and returns."""

from __future__ import annotations

from typing import Any

from xdsl.dialects import cf, func, scf
from xdsl.interpreter import (
    PythonValues,
    Successor,
    impl,
    impl_callable,
    impl_terminator,
    register_impls,
)
from xdsl.interpreters.cf import CfFunctions as XdslCfFunctions
from xdsl.interpreters.func import FuncFunctions as XdslFuncFunctions
from xdsl.interpreters.scf import ScfFunctions as XdslScfFunctions
from xdsl.ir import Operation

from gpuir.runtime.engine.closures import Compiler, Frame, Step, Terminator, fast, internal_error
from gpuir.runtime.engine.machine import Machine, fail
from gpuir.runtime.provider import ProviderError
from gpuir.runtime.scalars import int_width, signed


def for_bounds(op: Operation, lb: int, ub: int, step: int, width: int) -> tuple[int, int, int]:
    """An `scf.for`'s bounds and step as signed integers; a positive step, else a diagnostic."""
    lb, ub, step = signed(lb, width), signed(ub, width), signed(step, width)
    if step <= 0:
        raise fail(op, f"'{op.name}' needs a positive step, found {step}")
    return lb, ub, step


@register_impls
class ScfFunctions(XdslScfFunctions):
    """xDSL's `scf` impls, with `for` and `index_switch` on gpuir's values."""

    @impl(scf.ForOp)
    def run_for(self, machine: Machine, op: scf.ForOp, args: PythonValues) -> PythonValues:
        lb, ub, step, *loop_args = args
        width = int_width(op.lb.type)
        assert width is not None
        lb, ub, step = for_bounds(op, lb, ub, step, width)
        values = tuple(loop_args)
        for i in range(lb, ub, step):
            values = machine.run_ssacfg_region(op.body, (i, *values), "for")
        return values

    @impl(scf.IndexSwitchOp)
    def run_index_switch(
        self, machine: Machine, op: scf.IndexSwitchOp, args: PythonValues
    ) -> PythonValues:
        cases = op.cases.get_values()
        index = args[0]
        region = op.case_regions[cases.index(index)] if index in cases else op.default_region
        return machine.run_ssacfg_region(region, (), "index_switch")

    @impl(scf.ExecuteRegionOp)
    def run_execute_region(
        self, machine: Machine, op: scf.ExecuteRegionOp, args: PythonValues
    ) -> PythonValues:
        return machine.run_ssacfg_region(op.region, (), "execute_region")


@register_impls
class CfFunctions(XdslCfFunctions):
    """xDSL's `cf` impls, plus `assert` and `switch`."""

    @impl(cf.AssertOp)
    def run_assert(self, machine: Machine, op: cf.AssertOp, args: PythonValues):
        if not args[0]:
            raise fail(op, f"assertion failed in {machine.who}: {op.msg.data}", "assertion failed")
        return ()

    @impl_terminator(cf.SwitchOp)
    def run_switch(self, machine: Machine, op: cf.SwitchOp, args: PythonValues):
        flag = args[0]
        values = op.case_values.get_values() if op.case_values is not None else ()
        if flag in values:
            i = list(values).index(flag)
            sizes = op.case_operand_segments.get_values()
            start = sum(sizes[:i])
            operands = op.case_operands[start : start + sizes[i]]
            return Successor(op.case_blocks[i], machine.get_values(operands)), ()
        return Successor(op.default_block, machine.get_values(op.default_operands)), ()


@register_impls
class FuncFunctions(XdslFuncFunctions):
    """`func.call` through the machine's call stack and frames."""

    @impl(func.CallOp)
    def run_call(self, machine: Machine, op: func.CallOp, args: PythonValues) -> PythonValues:
        callee = machine.function(op.callee.root_reference.data, op)
        machine.call_stack.append(op)
        try:
            return machine.call(callee, args)
        finally:
            machine.call_stack.pop()

    @impl_callable(func.FuncOp)
    def call_func(self, machine: Machine, op: func.FuncOp, args: PythonValues) -> PythonValues:
        return machine.call(op, args)


# --- fast forms (`gpuir.runtime.engine.closures`) -----------------------------------------------
# Each computes what the op's impl above computes, with what can be known before the run (widths,
# types, slots) worked out once.


@fast(scf.ForOp)
def _fast_for(c: Compiler, op: Operation) -> Step | None:
    assert isinstance(op, scf.ForOp)
    width = int_width(op.lb.type)
    body = c.region(op.body)
    if width is None or len(body.blocks) != 1:
        return None
    (block,) = body.blocks
    yield_op = op.body.block.last_op
    if not isinstance(yield_op, scf.YieldOp):
        return None
    lb, ub, st, *inits = c.ins(op)
    outs = c.outs(op)
    iv, *carried = block.args
    yielded = c.ins(yield_op)
    steps, ops = block.steps, block.ops
    one = len(carried) == 1

    def step(m: Any, f: Frame) -> None:
        low, high, by = for_bounds(op, f[lb], f[ub], f[st], width)
        for slot, init in zip(carried, inits, strict=False):
            f[slot] = f[init]
        k = 0
        try:
            for i in range(low, high, by):
                f[iv] = i
                for k, inner in enumerate(steps):  # noqa: B007 (k names the failing op)
                    inner(m, f)
                if one:
                    f[carried[0]] = f[yielded[0]]
                else:
                    values = [f[y] for y in yielded]
                    for slot, value in zip(carried, values, strict=False):
                        f[slot] = value
        except (ProviderError, OSError):
            raise
        except Exception as e:
            raise internal_error(m, ops[k], e) from e
        for slot, value in zip(outs, carried, strict=False):
            f[slot] = f[value]

    return step


@fast(scf.IfOp)
def _fast_if(c: Compiler, op: Operation) -> Step:
    assert isinstance(op, scf.IfOp)
    then, other = c.region(op.true_region), c.region(op.false_region)
    (p,), outs = c.ins(op), c.outs(op)

    def step(m: Any, f: Frame) -> None:
        values = (then if f[p] else other).run(m, f, ())
        for slot, value in zip(outs, values, strict=False):
            f[slot] = value

    return step


@fast(scf.YieldOp, func.ReturnOp)
def _fast_return(c: Compiler, op: Operation) -> Terminator:
    return c.returns(op)


@fast(cf.BranchOp)
def _fast_br(c: Compiler, op: Operation) -> Terminator:
    assert isinstance(op, cf.BranchOp)
    target, ins = c.index[id(op.successor)], c.ins(op)
    return lambda m, f: (target, tuple([f[i] for i in ins]))


@fast(cf.ConditionalBranchOp)
def _fast_cond_br(c: Compiler, op: Operation) -> Terminator:
    assert isinstance(op, cf.ConditionalBranchOp)
    then, other = c.index[id(op.then_block)], c.index[id(op.else_block)]
    p = c.slot(op.cond)
    then_args = [c.slot(v) for v in op.then_arguments]
    else_args = [c.slot(v) for v in op.else_arguments]

    def branch(m: Any, f: Frame) -> tuple[int, tuple[Any, ...]]:
        if f[p]:
            return then, tuple([f[i] for i in then_args])
        return other, tuple([f[i] for i in else_args])

    return branch
