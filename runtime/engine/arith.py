"""`arith` on gpuir's values: exact wrap-around, rounding to the result's float type, and a
diagnostic where LLVM leaves a result undefined or poison; with the ops' fast forms."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.interpreter import InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation

from gpuir.ir import integers
from gpuir.ir.integers import Undefined, cmpi
from gpuir.runtime.engine.closures import Compiler, Frame, Step, fast
from gpuir.runtime.engine.machine import Machine, fail, result_width, undefined
from gpuir.runtime.scalars import (
    float_dtype,
    format_value,
    from_attr,
    int_to_float,
    int_width,
    signed,
    unsigned,
    wrap,
)


def _int_binary(op_type: type[Operation]):
    fn = integers.BINARY[op_type]

    def run(self: Any, machine: Machine, op: Operation, args: PythonValues) -> PythonValues:
        width = result_width(op)
        try:
            return (wrap(fn(args[0], args[1], width), width),)
        except Undefined as e:
            raise undefined(op, e) from None

    return impl(op_type)(run)


def _cmpf(predicate: int, x: np.floating, y: np.floating) -> bool:
    unordered = bool(np.isnan(x) or np.isnan(y))
    results = {
        1: x == y,
        2: x > y,
        3: x >= y,
        4: x < y,
        5: x <= y,
        6: x != y,
    }
    match predicate:
        case 0:
            return False
        case 7:
            return not unordered
        case 14:
            return unordered
        case 15:
            return True
        case p if 1 <= p <= 6:
            return bool(results[p]) and not unordered
        case p:
            return unordered or bool(results[p - 7])


FloatBinary = Callable[[np.floating, np.floating], Any]
FLOAT_BINARY: dict[type[Operation], FloatBinary] = {}
"""`fn(x, y)` of each float binary op (before rounding to the type)."""


def float_binary(op_type: type[Operation], fn: FloatBinary):
    FLOAT_BINARY[op_type] = fn

    def run(self: Any, machine: Machine, op: Operation, args: PythonValues) -> PythonValues:
        dtype = float_dtype(op.results[0].type)
        if dtype is None:
            raise fail(op, f"'{op.name}' on {op.results[0].type} is not supported")
        with np.errstate(all="ignore"):
            return (dtype(fn(args[0], args[1])),)

    return impl(op_type)(run)


def _maximum(x: np.floating, y: np.floating) -> np.floating:
    if np.isnan(x) or np.isnan(y):
        return x + y  # NaN
    if x == y == 0:
        return y if np.signbit(x) else x
    return x if x > y else y


def _minimum(x: np.floating, y: np.floating) -> np.floating:
    if np.isnan(x) or np.isnan(y):
        return x + y
    if x == y == 0:
        return x if np.signbit(x) else y
    return x if x < y else y


def maxnum(x: np.floating, y: np.floating) -> np.floating:
    return y if np.isnan(x) else x if np.isnan(y) else _maximum(x, y)


def minnum(x: np.floating, y: np.floating) -> np.floating:
    return y if np.isnan(x) else x if np.isnan(y) else _minimum(x, y)


def _bits_type(width: int) -> type[np.unsignedinteger]:
    return {16: np.uint16, 32: np.uint32, 64: np.uint64}[width]


def _fp_to_int(op: Operation, value: np.floating, is_signed: bool) -> int:
    width = result_width(op)
    low, high = (-(1 << (width - 1)), 1 << (width - 1)) if is_signed else (0, 1 << width)
    if not np.isfinite(value) or not low <= math.trunc(float(value)) < high:
        kind = "signed" if is_signed else "unsigned"
        raise fail(
            op,
            f"'{op.name}': {format_value(value, op.operands[0].type)} does not fit in a "
            f"{kind} i{width} (poison)",
            "poison",
        )
    return wrap(math.trunc(float(value)), width)


def _resize(op: Operation, value: int, read: Callable[[int, int], int]) -> int:
    source, target = int_width(op.operands[0].type), result_width(op)
    if source is None:
        raise fail(op, f"'{op.name}' from {op.operands[0].type} is not supported", "not supported")
    return wrap(read(value, source), target)


def _int_to_fp(op: Operation, value: int, read: Callable[[int, int], int]) -> np.floating:
    width, dtype = int_width(op.operands[0].type), float_dtype(op.results[0].type)
    if width is None or dtype is None:
        raise fail(op, f"'{op.name}' to {op.results[0].type} is not supported")
    return int_to_float(read(value, width), dtype)


def _float_cast(op: Operation, value: np.floating) -> np.floating:
    dtype = float_dtype(op.results[0].type)
    if dtype is None:
        raise fail(op, f"'{op.name}' to {op.results[0].type} is not supported")
    with np.errstate(all="ignore"):
        return dtype(value)


def _cast(op_type: type[Operation], convert: Callable[..., Any], *extra: Any):
    """The impl of a cast: `convert(op, operand, *extra)`."""

    def run(self: Any, machine: Machine, op: Operation, args: PythonValues) -> PythonValues:
        return (convert(op, args[0], *extra),)

    return impl(op_type)(run)


@register_impls
class ArithFunctions(InterpreterFunctions):
    @impl(arith.ConstantOp)
    def run_constant(self, machine: Machine, op: arith.ConstantOp, args: PythonValues):
        try:
            return (from_attr(op.value),)
        except ValueError as e:
            raise fail(op, str(e)) from None

    run_addi = _int_binary(arith.AddiOp)
    run_subi = _int_binary(arith.SubiOp)
    run_muli = _int_binary(arith.MuliOp)
    run_divui = _int_binary(arith.DivUIOp)
    run_divsi = _int_binary(arith.DivSIOp)
    run_remui = _int_binary(arith.RemUIOp)
    run_remsi = _int_binary(arith.RemSIOp)
    run_floordivsi = _int_binary(arith.FloorDivSIOp)
    run_ceildivsi = _int_binary(arith.CeilDivSIOp)
    run_ceildivui = _int_binary(arith.CeilDivUIOp)
    run_minsi = _int_binary(arith.MinSIOp)
    run_maxsi = _int_binary(arith.MaxSIOp)
    run_minui = _int_binary(arith.MinUIOp)
    run_maxui = _int_binary(arith.MaxUIOp)
    run_andi = _int_binary(arith.AndIOp)
    run_ori = _int_binary(arith.OrIOp)
    run_xori = _int_binary(arith.XOrIOp)
    run_shli = _int_binary(arith.ShLIOp)
    run_shrui = _int_binary(arith.ShRUIOp)
    run_shrsi = _int_binary(arith.ShRSIOp)

    @impl(arith.AddUIExtendedOp)
    def run_addui_extended(self, machine: Machine, op: Operation, args: PythonValues):
        width = result_width(op)
        total = unsigned(args[0], width) + unsigned(args[1], width)
        return (wrap(total, width), int(total >> width != 0))

    @impl(arith.MulUIExtendedOp)
    def run_mului_extended(self, machine: Machine, op: Operation, args: PythonValues):
        width = result_width(op)
        product = unsigned(args[0], width) * unsigned(args[1], width)
        return (wrap(product, width), wrap(product >> width, width))

    @impl(arith.MulSIExtendedOp)
    def run_mulsi_extended(self, machine: Machine, op: Operation, args: PythonValues):
        width = result_width(op)
        product = signed(args[0], width) * signed(args[1], width)
        return (wrap(product, width), wrap(product >> width, width))

    @impl(arith.CmpiOp)
    def run_cmpi(self, machine: Machine, op: arith.CmpiOp, args: PythonValues):
        width = int_width(op.lhs.type)
        if width is None:
            raise fail(op, f"'{op.name}' on {op.lhs.type} is not supported")
        return (int(cmpi(op.predicate.value.data, args[0], args[1], width)),)

    @impl(arith.CmpfOp)
    def run_cmpf(self, machine: Machine, op: arith.CmpfOp, args: PythonValues):
        return (int(_cmpf(op.predicate.value.data, args[0], args[1])),)

    @impl(arith.SelectOp)
    def run_select(self, machine: Machine, op: arith.SelectOp, args: PythonValues):
        return (args[1] if args[0] else args[2],)

    run_addf = float_binary(arith.AddfOp, lambda x, y: x + y)
    run_subf = float_binary(arith.SubfOp, lambda x, y: x - y)
    run_mulf = float_binary(arith.MulfOp, lambda x, y: x * y)
    run_divf = float_binary(arith.DivfOp, lambda x, y: x / y)
    run_maximumf = float_binary(arith.MaximumfOp, _maximum)
    run_minimumf = float_binary(arith.MinimumfOp, _minimum)
    run_maxnumf = float_binary(arith.MaxnumfOp, maxnum)
    run_minnumf = float_binary(arith.MinnumfOp, minnum)

    @impl(arith.NegfOp)
    def run_negf(self, machine: Machine, op: Operation, args: PythonValues):
        return (-args[0],)

    run_extsi = _cast(arith.ExtSIOp, _resize, signed)
    run_extui = _cast(arith.ExtUIOp, _resize, unsigned)
    run_trunci = _cast(arith.TruncIOp, _resize, signed)
    run_index_cast = _cast(arith.IndexCastOp, _resize, signed)
    run_sitofp = _cast(arith.SIToFPOp, _int_to_fp, signed)
    run_uitofp = _cast(arith.UIToFPOp, _int_to_fp, unsigned)
    run_fptosi = _cast(arith.FPToSIOp, _fp_to_int, True)
    run_fptoui = _cast(arith.FPToUIOp, _fp_to_int, False)
    run_extf = _cast(arith.ExtFOp, _float_cast)
    run_truncf = _cast(arith.TruncFOp, _float_cast)

    @impl(arith.BitcastOp)
    def run_bitcast(self, machine: Machine, op: Operation, args: PythonValues):
        source, target = op.operands[0].type, op.results[0].type
        value = args[0]
        if (width := int_width(source)) is not None:
            bits = unsigned(value, width)
        elif float_dtype(source) is not None:
            bits = int(np.array(value).view(_bits_type(np.dtype(type(value)).itemsize * 8)))
        else:
            raise fail(op, f"'{op.name}' from {source} is not supported")
        if (width := int_width(target)) is not None:
            return (wrap(bits, width),)
        if (dtype := float_dtype(target)) is not None:
            size = np.dtype(dtype).itemsize * 8
            return (np.array(bits, _bits_type(size)).view(dtype)[()],)
        raise fail(op, f"'{op.name}' to {target} is not supported")


# --- fast forms (`gpuir.runtime.engine.closures`) -----------------------------------------------
# Each computes what the op's impl above computes, with what can be known before the run (widths,
# types, slots) worked out once.


@fast(*integers.BINARY)
def _fast_int_binary(c: Compiler, op: Operation) -> Step | None:
    width = int_width(op.results[0].type)
    if width is None:
        return None
    fn = integers.BINARY[type(op)]
    (a, b), (o,) = c.ins(op), c.outs(op)
    if width > 1 and isinstance(op, arith.AddiOp | arith.SubiOp | arith.MuliOp):
        low, high = -(1 << (width - 1)), 1 << (width - 1)
        exact = {arith.AddiOp: operator.add, arith.SubiOp: operator.sub}.get(type(op), operator.mul)

        def ring(m: Any, f: Frame) -> None:
            value = exact(f[a], f[b])
            f[o] = value if low <= value < high else wrap(value, width)

        return ring

    def step(m: Any, f: Frame) -> None:
        try:
            f[o] = wrap(fn(f[a], f[b], width), width)
        except Undefined as e:
            raise undefined(op, e) from None

    return step


@fast(*FLOAT_BINARY)
def fast_float_binary(c: Compiler, op: Operation) -> Step | None:
    dtype = float_dtype(op.results[0].type)
    if dtype is None:
        return None
    fn = FLOAT_BINARY[type(op)]
    (a, b), (o,) = c.ins(op), c.outs(op)

    def step(m: Any, f: Frame) -> None:  # under np.errstate(all="ignore"): Machine.call
        f[o] = dtype(fn(f[a], f[b]))

    return step


@fast(arith.ConstantOp)
def _fast_constant(c: Compiler, op: Operation) -> Step | None:
    assert isinstance(op, arith.ConstantOp)
    try:
        value = from_attr(op.value)
    except ValueError:
        return None  # the impl reports it, if the op runs
    (o,) = c.outs(op)

    def step(m: Any, f: Frame) -> None:
        f[o] = value

    return step


_SIGNED_ORDER = {2: operator.lt, 3: operator.le, 4: operator.gt, 5: operator.ge}


@fast(arith.CmpiOp)
def _fast_cmpi(c: Compiler, op: Operation) -> Step | None:
    assert isinstance(op, arith.CmpiOp)
    width = int_width(op.lhs.type)
    if width is None:
        return None
    predicate = op.predicate.value.data
    (a, b), (o,) = c.ins(op), c.outs(op)
    order = {0: operator.eq, 1: operator.ne}.get(predicate)
    if order is None and width > 1:  # canonical values are signed: compare them as they are
        order = _SIGNED_ORDER.get(predicate)
    if order is not None:
        compare = order

        def direct(m: Any, f: Frame) -> None:
            f[o] = 1 if compare(f[a], f[b]) else 0

        return direct

    def step(m: Any, f: Frame) -> None:
        f[o] = int(cmpi(predicate, f[a], f[b], width))

    return step


@fast(arith.SelectOp)
def _fast_select(c: Compiler, op: Operation) -> Step:
    (p, x, y), (o,) = c.ins(op), c.outs(op)

    def step(m: Any, f: Frame) -> None:
        f[o] = f[x] if f[p] else f[y]

    return step


@fast(arith.IndexCastOp, arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp)
def _fast_resize(c: Compiler, op: Operation) -> Step | None:
    source, target = int_width(op.operands[0].type), int_width(op.results[0].type)
    if source is None or target is None:
        return None
    read = unsigned if isinstance(op, arith.ExtUIOp) else signed
    (a,), (o,) = c.ins(op), c.outs(op)
    if read is signed and 1 < source <= target:  # a canonical value stays what it is

        def same(m: Any, f: Frame) -> None:
            f[o] = f[a]

        return same

    def step(m: Any, f: Frame) -> None:
        f[o] = wrap(read(f[a], source), target)

    return step
