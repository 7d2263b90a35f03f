"""`mem` through the machine's memory methods (`load`, `store`, `allocate`, `free`, `slot`,
which the host executor and interp's work-items implement), the atomics' updates, and the fast
forms of `lea`, `load` and `store`."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Attribute, Operation

from gpuir.dialects import mem
from gpuir.dialects.mem import PtrType
from gpuir.runtime.engine.arith import maxnum, minnum
from gpuir.runtime.engine.closures import Compiler, Frame, Step, fast
from gpuir.runtime.engine.machine import Machine, fail
from gpuir.runtime.memory import Pointer, alloc_size, size_of
from gpuir.runtime.scalars import TOKEN, float_dtype, int_width, signed, unsigned, wrap


def atomic_update(kind: str, type_: Attribute, old: object, value: object) -> object:
    """`old ⊕ value` of `mem.atomic_rmw`'s `kind` on a `type_` (integers wrap; `umax`/`umin`
    compare unsigned; float `max`/`min` are `maxnum`/`minnum`, as LLVM's `atomicrmw fmax`)."""
    if kind == "xchg":
        return value
    width = int_width(type_)
    if width is None:
        dtype = float_dtype(type_)
        assert dtype is not None
        with np.errstate(all="ignore"):
            found = {"add": lambda: old + value, "max": lambda: maxnum(old, value)}.get(kind)
            return dtype(found() if found is not None else minnum(old, value))  # type: ignore[operator]
    x, y = int(old), int(value)  # type: ignore[call-overload]
    if kind in ("umax", "umin"):
        pick = max if kind == "umax" else min
        return wrap(pick(unsigned(x, width), unsigned(y, width)), width)
    results = {
        "add": lambda: x + y,
        "sub": lambda: x - y,
        "max": lambda: max(x, y),
        "min": lambda: min(x, y),
        "and": lambda: x & y,
        "or": lambda: x | y,
        "xor": lambda: x ^ y,
    }
    return wrap(results[kind](), width)


def _ptr_type(value_type: Attribute) -> PtrType:
    assert isinstance(value_type, PtrType)
    return value_type


@register_impls
class MemFunctions(InterpreterFunctions):
    """`mem` ops through the machine's memory methods."""

    @impl(mem.AllocOp)
    def run_alloc(self, machine: Machine, op: mem.AllocOp, args: PythonValues):
        ptr_type = _ptr_type(op.res.type)
        extent = args[1] if len(args) > 1 else None
        if extent is not None and extent < 0:
            raise fail(op, f"'{op.name}' of a negative extent ({extent})", "invalid value")
        nbytes = alloc_size(ptr_type.pointee, extent)
        space = ptr_type.space.data
        return (TOKEN, machine.allocate(op, space, ptr_type.pointee, extent, nbytes))

    @impl(mem.MallocOp)
    def run_malloc(self, machine: Machine, op: mem.MallocOp, args: PythonValues):
        ptr_type = _ptr_type(op.res.type)
        size = args[1]
        if size < 0:
            raise fail(op, f"'{op.name}' of a negative size ({size})", "invalid value")
        return (TOKEN, machine.allocate(op, ptr_type.space.data, ptr_type.pointee, None, size))

    @impl(mem.FreeOp)
    def run_free(self, machine: Machine, op: mem.FreeOp, args: PythonValues):
        machine.free(op, args[1])
        return (TOKEN,)

    @impl(mem.PrintMemrefOp)
    def run_print_memref(self, machine: Machine, op: mem.PrintMemrefOp, args: PythonValues):
        from gpuir.runtime.print_memref import pointee_text

        machine.write(pointee_text(args[1], op))
        return (TOKEN,)

    @impl(mem.SlotOp)
    def run_slot(self, machine: Machine, op: mem.SlotOp, args: PythonValues):
        ptr_type = _ptr_type(op.res.type)
        nbytes = alloc_size(ptr_type.pointee)
        return (TOKEN, machine.slot(op, ptr_type.space.data, ptr_type.pointee, nbytes))

    @impl(mem.MslotOp)
    def run_mslot(self, machine: Machine, op: mem.MslotOp, args: PythonValues):
        ptr_type = _ptr_type(op.res.type)
        if args[1] < 0:
            raise fail(op, f"'{op.name}' of a negative size ({args[1]})", "invalid value")
        return (TOKEN, machine.slot(op, ptr_type.space.data, ptr_type.pointee, args[1]))

    @impl(mem.LoadOp)
    def run_load(self, machine: Machine, op: mem.LoadOp, args: PythonValues):
        return (TOKEN, machine.load(op, args[1]))

    @impl(mem.StoreOp)
    def run_store(self, machine: Machine, op: mem.StoreOp, args: PythonValues):
        machine.store(op, args[1], args[2])
        return (TOKEN,)

    @impl(mem.AtomicRmwOp)
    def run_atomic_rmw(self, machine: Machine, op: mem.AtomicRmwOp, args: PythonValues):
        """A load and a store of one work-item's step: nothing runs between them (interp runs
        one item at a time), so the update is atomic, and sequentially consistent."""
        ptr: Pointer = args[1]
        old = machine.load(op, ptr)
        machine.store(op, ptr, atomic_update(op.kind.data, ptr.pointee, old, args[2]))
        return (TOKEN, old)

    @impl(mem.CmpxchgOp)
    def run_cmpxchg(self, machine: Machine, op: mem.CmpxchgOp, args: PythonValues):
        ptr: Pointer = args[1]
        old = machine.load(op, ptr)
        if isinstance(old, np.floating):  # by the bits
            stored = old.tobytes() == type(old)(args[2]).tobytes()
        else:
            stored = old == args[2]
        if stored:
            machine.store(op, ptr, args[3])
        return (TOKEN, old, int(stored))

    @impl(mem.LeaOp)
    def run_lea(self, machine: Machine, op: mem.LeaOp, args: PythonValues):
        ptr: Pointer = args[0]
        return (ptr.lea(signed(args[1], 64)),)

    @impl(mem.RememOp)
    def run_remem(self, machine: Machine, op: mem.RememOp, args: PythonValues):
        return (TOKEN,)


# --- fast forms (`gpuir.runtime.engine.closures`) -----------------------------------------------
# Each computes what the op's impl above computes, with what can be known before the run (widths,
# types, slots) worked out once.


@fast(mem.LeaOp)
def _fast_lea(c: Compiler, op: Operation) -> Step:
    (p, i), (o,) = c.ins(op), c.outs(op)
    last: Attribute | None = None
    stride, element = 0, None

    def step(m: Any, f: Frame) -> None:
        nonlocal last, stride, element
        ptr = f[p]
        pointee = ptr.pointee
        if pointee is not last:
            if not isinstance(pointee, mem.ArrayType):
                f[o] = ptr.lea(f[i])  # Pointer.lea's own check
                return
            stride, element, last = size_of(pointee.element_type), pointee.element_type, pointee
        f[o] = Pointer(ptr.allocation, ptr.offset + f[i] * stride, element)  # index: canonical

    return step


@fast(mem.LoadOp)
def _fast_load(c: Compiler, op: Operation) -> Step:
    (_, p), (t, o) = c.ins(op), c.outs(op)

    def step(m: Any, f: Frame) -> None:
        f[o] = m.load(op, f[p])
        f[t] = TOKEN

    return step


@fast(mem.StoreOp)
def _fast_store(c: Compiler, op: Operation) -> Step:
    (_, p, v), (t,) = c.ins(op), c.outs(op)

    def step(m: Any, f: Frame) -> None:
        m.store(op, f[p], f[v])
        f[t] = TOKEN

    return step
