"""`math` on gpuir's values: elementary functions of `f16`/`f32` computed in `f64` and rounded
once to the type; `sqrt`, `fma` correctly rounded; the integer functions wrap."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
from xdsl.dialects import math as mathd
from xdsl.interpreter import InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation

from gpuir.runtime.engine.arith import fast_float_binary, float_binary
from gpuir.runtime.engine.closures import fast
from gpuir.runtime.engine.machine import Machine, fail, result_width
from gpuir.runtime.scalars import float_dtype, int_width, round_exact, signed, unsigned, wrap


def _float_unary(fn: Callable[[np.float64], Any], in_type: bool = False):
    """An elementary function: computed in f64 and rounded once to the result type, or (with
    `in_type`) computed by numpy in the type itself (exact or correctly rounded)."""

    def run(self: Any, machine: Machine, op: Operation, args: PythonValues) -> PythonValues:
        dtype = float_dtype(op.results[0].type)
        if dtype is None:
            raise fail(op, f"'{op.name}' on {op.results[0].type} is not supported")
        with np.errstate(all="ignore"):
            value = fn(args[0]) if in_type else fn(np.float64(args[0]))
            return (dtype(value),)

    return run


def _round_half_away(x: np.float64) -> np.float64:
    if not np.isfinite(x):
        return x
    magnitude = abs(float(x))
    whole = math.floor(magnitude)
    if magnitude - whole >= 0.5:
        whole += 1
    return np.float64(math.copysign(whole, float(x)))


def _erf(x: np.float64) -> float:
    return math.erf(float(x))


def _fma(a: np.floating, b: np.floating, c: np.floating, dtype: type[np.floating]) -> np.floating:
    if all(np.isfinite(v) for v in (a, b, c)):
        exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
        if exact == 0:  # the sign of a zero result follows IEEE's rules for a*b + c
            with np.errstate(all="ignore"):
                return dtype(np.float64(a) * np.float64(b) + np.float64(c))
        return round_exact(exact, dtype)
    with np.errstate(all="ignore"):
        return dtype(np.float64(a) * np.float64(b) + np.float64(c))


def _ipow(base: int, exponent: int, width: int, op: Operation) -> int:
    base, exponent = signed(base, width), signed(exponent, width)
    if exponent >= 0:
        return pow(base, exponent, 1 << width)
    if base == 0:
        raise fail(op, f"'{op.name}': 0 to a negative power (division by zero)", "division by zero")
    if base == 1:
        return 1
    if base == -1:
        return -1 if exponent % 2 else 1
    return 0


def _bit_count(fn: Callable[[int, int], int]):
    """A count of the operand's bits: `fn(bits, width)`, the operand read unsigned at the
    result's width."""

    def run(self: Any, machine: Machine, op: Operation, args: PythonValues) -> PythonValues:
        width = result_width(op)
        return (fn(unsigned(args[0], width), width),)

    return run


def _ctlz(value: int, width: int) -> int:
    return width - value.bit_length()


def _cttz(value: int, width: int) -> int:
    return width if value == 0 else (value & -value).bit_length() - 1


def _ctpop(value: int, width: int) -> int:
    return bin(value).count("1")


@register_impls
class MathFunctions(InterpreterFunctions):
    run_absf = impl(mathd.AbsFOp)(_float_unary(np.abs, in_type=True))
    run_ceil = impl(mathd.CeilOp)(_float_unary(np.ceil, in_type=True))
    run_floor = impl(mathd.FloorOp)(_float_unary(np.floor, in_type=True))
    run_trunc = impl(mathd.TruncOp)(_float_unary(np.trunc, in_type=True))
    run_roundeven = impl(mathd.RoundEvenOp)(_float_unary(np.rint, in_type=True))
    run_round = impl(mathd.RoundOp)(_float_unary(_round_half_away))
    run_sqrt = impl(mathd.SqrtOp)(_float_unary(np.sqrt, in_type=True))
    run_rsqrt = impl(mathd.RsqrtOp)(_float_unary(lambda x: 1 / np.sqrt(x)))
    run_exp = impl(mathd.ExpOp)(_float_unary(np.exp))
    run_exp2 = impl(mathd.Exp2Op)(_float_unary(np.exp2))
    run_expm1 = impl(mathd.ExpM1Op)(_float_unary(np.expm1))
    run_log = impl(mathd.LogOp)(_float_unary(np.log))
    run_log2 = impl(mathd.Log2Op)(_float_unary(np.log2))
    run_log10 = impl(mathd.Log10Op)(_float_unary(np.log10))
    run_log1p = impl(mathd.Log1pOp)(_float_unary(np.log1p))
    run_sin = impl(mathd.SinOp)(_float_unary(np.sin))
    run_cos = impl(mathd.CosOp)(_float_unary(np.cos))
    run_tan = impl(mathd.TanOp)(_float_unary(np.tan))
    run_sinh = impl(mathd.SinhOp)(_float_unary(np.sinh))
    run_cosh = impl(mathd.CoshOp)(_float_unary(np.cosh))
    run_tanh = impl(mathd.TanhOp)(_float_unary(np.tanh))
    run_asin = impl(mathd.AsinOp)(_float_unary(np.arcsin))
    run_acos = impl(mathd.AcosOp)(_float_unary(np.arccos))
    run_atan = impl(mathd.AtanOp)(_float_unary(np.arctan))
    run_asinh = impl(mathd.AsinhOp)(_float_unary(np.arcsinh))
    run_acosh = impl(mathd.AcoshOp)(_float_unary(np.arccosh))
    run_atanh = impl(mathd.AtanhOp)(_float_unary(np.arctanh))
    run_cbrt = impl(mathd.CbrtOp)(_float_unary(np.cbrt))
    run_erf = impl(mathd.ErfOp)(_float_unary(_erf))
    run_atan2 = float_binary(mathd.Atan2Op, lambda y, x: np.arctan2(np.float64(y), np.float64(x)))
    run_powf = float_binary(mathd.PowFOp, lambda x, y: np.power(np.float64(x), y))
    run_copysign = float_binary(mathd.CopySignOp, np.copysign)

    @impl(mathd.FPowIOp)
    def run_fpowi(self, machine: Machine, op: Operation, args: PythonValues):
        dtype = float_dtype(op.results[0].type)
        width = int_width(op.operands[1].type)
        assert dtype is not None and width is not None
        with np.errstate(all="ignore"):
            return (dtype(np.power(np.float64(args[0]), float(signed(args[1], width)))),)

    @impl(mathd.IPowIOp)
    def run_ipowi(self, machine: Machine, op: Operation, args: PythonValues):
        width = result_width(op)
        return (wrap(_ipow(args[0], args[1], width, op), width),)

    @impl(mathd.FmaOp)
    def run_fma(self, machine: Machine, op: Operation, args: PythonValues):
        dtype = float_dtype(op.results[0].type)
        if dtype is None:
            raise fail(op, f"'{op.name}' on {op.results[0].type} is not supported")
        return (_fma(*args, dtype),)

    @impl(mathd.AbsIOp)
    def run_absi(self, machine: Machine, op: Operation, args: PythonValues):
        width = result_width(op)
        return (wrap(abs(signed(args[0], width)), width),)

    run_ctlz = impl(mathd.CountLeadingZerosOp)(_bit_count(_ctlz))
    run_cttz = impl(mathd.CountTrailingZerosOp)(_bit_count(_cttz))
    run_ctpop = impl(mathd.CtPopOp)(_bit_count(_ctpop))


# --- fast forms (`gpuir.runtime.engine.closures`): the float binaries share arith's

fast(mathd.Atan2Op, mathd.PowFOp, mathd.CopySignOp)(fast_float_binary)
