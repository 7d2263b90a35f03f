"""Run-time semantics of the standard dialects (`arith`, `math`, `scf`, `cf`, `func`, `printf`),
of `mem`, and of the llvm ops that build and read struct kernel arguments (values: tuples,
`gpuir.runtime.structs`), on xDSL's interpreter framework, for host code and `interp` kernels
alike.

`Machine` is xDSL's `Interpreter` with four changes:
- values are those of `gpuir.runtime.scalars` (Python ints, numpy floats), not xDSL's
  `IntegerAttr`/`FloatAttr`, so every `arith`/`math` op here is ours: exact wrap-around,
  rounding to the result's float type, and a diagnostic for what LLVM calls undefined or poison
  (division by zero, signed division overflow, a shift by the bit width or more, `fptosi` of a
  value that does not fit); xDSL's own impls are kept only for `scf.if/while/yield/condition`,
  `cf.br/cond_br` and `func.return`, which do not look at values;
- an error in an op is a `ProviderError` at that op (xDSL would print the whole module into a
  note at every enclosing op); any other exception becomes one, named `internal error`;
- it keeps a call stack (for barrier identity and diagnostics) and a frame per function call
  (a `mem.slot` lives until its function returns);
- memory ops call the machine's `load` / `store` / `allocate` / `free` / `slot`, which the
  host executor and `interp`'s work-items implement differently.

Math functions of `f16`/`f32` (`exp`, `sin`, …) are computed in `f64` and rounded once to the
type; `sqrt`, `fma`, `+ - * /` are correctly rounded.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import IO, Any

import numpy as np
from xdsl.dialects import arith, cf, func, llvm, printf, scf
from xdsl.dialects import math as mathd
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    OpImplResult,
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
from xdsl.ir import Attribute, Operation

from gpuir.dialects import mem
from gpuir.dialects.mem import PtrType
from gpuir.runtime.memory import Allocation, Pointer, alloc_size
from gpuir.runtime.provider import ProviderError
from gpuir.runtime.scalars import (
    TOKEN,
    float_dtype,
    format_value,
    from_attr,
    int_to_float,
    int_width,
    round_exact,
    signed,
    unsigned,
    wrap,
)
from gpuir.runtime.structs import undef


def fail(op: Operation, message: str, name: str = "error") -> ProviderError:
    return ProviderError(op, message, name)


def result_width(op: Operation) -> int:
    """The bit width of an integer op's result; a diagnostic for any other type (vectors)."""
    width = int_width(op.results[0].type)
    if width is None:
        raise fail(op, f"'{op.name}' on {op.results[0].type} is not supported", "not supported")
    return width


# --- the machine ---------------------------------------------------------------------------------


class Machine(Interpreter):
    """xDSL's interpreter with gpuir's values, errors, call stack and frames (module docstring).

    Subclasses give `who` (for messages) and the memory methods."""

    who: str = "host code"
    out: IO[str] | None = None

    def setup(self, functions: dict[str, func.FuncOp]) -> None:
        self.functions = functions
        self.call_stack: list[Operation] = []
        self.frames: list[list[Allocation]] = []

    def _run_op(self, op: Operation, inputs: PythonValues) -> OpImplResult:
        entry = self._impls._impl_dict.get(type(op))  # pyright: ignore[reportPrivateUsage]
        if entry is None:
            raise fail(op, f"'{op.name}' cannot run here: {self.who} has no semantics for it")
        ft, run = entry
        try:
            return run(ft, self, op, inputs)
        except (ProviderError, OSError):  # OSError: the output went away (a closed pipe)
            raise
        except RecursionError:
            raise ProviderError(
                op,
                f"stack overflow: {self.who} recurses deeper than the interpreter can follow",
                "stack overflow",
            ) from None
        except Exception as e:
            raise ProviderError(
                op,
                f"internal error while running '{op.name}': {type(e).__name__}: {e}",
                "internal error",
            ) from e

    def function(self, name: str, op: Operation) -> func.FuncOp:
        found = self.functions.get(name)
        if found is None:
            raise fail(op, f"@{name} is not a function of the module {self.who} runs")
        return found

    def call(self, callee: func.FuncOp, args: PythonValues) -> PythonValues:
        """Call a function: a new frame, its body, then the frame's slots die."""
        if not callee.body.blocks or not callee.body.blocks[0].ops:
            raise fail(callee, f"@{callee.sym_name.data} has no body to run")
        self.frames.append([])
        try:
            return self.run_ssacfg_region(callee.body, args, callee.sym_name.data)
        finally:
            for allocation in self.frames.pop():
                if not allocation.freed:
                    allocation.mark_freed(None)

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


# --- arith -----------------------------------------------------------------------------------


def _int_binary(fn: Callable[[int, int, int, Operation], int]):
    def run(self: Any, machine: Machine, op: Operation, args: PythonValues) -> PythonValues:
        width = result_width(op)
        return (wrap(fn(args[0], args[1], width, op), width),)

    return run


def _nonzero(b: int, op: Operation) -> None:
    if b == 0:
        raise fail(op, f"'{op.name}': division by zero", "division by zero")


def _no_signed_overflow(a: int, b: int, width: int, op: Operation) -> None:
    if b == -1 and a == -(1 << (width - 1)):
        raise fail(op, f"'{op.name}': signed division overflow ({a} / -1 in i{width})", "overflow")


def _divui(a: int, b: int, w: int, op: Operation) -> int:
    _nonzero(b, op)
    return unsigned(a, w) // unsigned(b, w)


def _remui(a: int, b: int, w: int, op: Operation) -> int:
    _nonzero(b, op)
    return unsigned(a, w) % unsigned(b, w)


def _ceildivui(a: int, b: int, w: int, op: Operation) -> int:
    _nonzero(b, op)
    return -(-unsigned(a, w) // unsigned(b, w))


def _trunc_div(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def _divsi(a: int, b: int, w: int, op: Operation) -> int:
    a, b = signed(a, w), signed(b, w)
    _nonzero(b, op)
    _no_signed_overflow(a, b, w, op)
    return _trunc_div(a, b)


def _remsi(a: int, b: int, w: int, op: Operation) -> int:
    a, b = signed(a, w), signed(b, w)
    _nonzero(b, op)
    return a - _trunc_div(a, b) * b


def _floordivsi(a: int, b: int, w: int, op: Operation) -> int:
    a, b = signed(a, w), signed(b, w)
    _nonzero(b, op)
    _no_signed_overflow(a, b, w, op)
    return a // b


def _ceildivsi(a: int, b: int, w: int, op: Operation) -> int:
    a, b = signed(a, w), signed(b, w)
    _nonzero(b, op)
    _no_signed_overflow(a, b, w, op)
    return -(-a // b)


def _shift_amount(b: int, w: int, op: Operation) -> int:
    amount = unsigned(b, w)
    if amount >= w:
        raise fail(
            op,
            f"'{op.name}': shift by {amount}, not less than the bit width {w} (poison)",
            "poison",
        )
    return amount


def _cmpi(predicate: int, a: int, b: int, w: int) -> bool:
    """`arith.cmpi`: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge (predicates 0 to 9)."""
    if predicate == 0:
        return a == b
    if predicate == 1:
        return a != b
    read = signed if predicate < 6 else unsigned
    x, y = read(a, w), read(b, w)
    match (predicate - 2) % 4:
        case 0:
            return x < y
        case 1:
            return x <= y
        case 2:
            return x > y
        case _:
            return x >= y


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


def _float_binary(fn: Callable[[np.floating, np.floating], Any]):
    def run(self: Any, machine: Machine, op: Operation, args: PythonValues) -> PythonValues:
        dtype = float_dtype(op.results[0].type)
        if dtype is None:
            raise fail(op, f"'{op.name}' on {op.results[0].type} is not supported")
        with np.errstate(all="ignore"):
            return (dtype(fn(args[0], args[1])),)

    return run


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


def _maxnum(x: np.floating, y: np.floating) -> np.floating:
    return y if np.isnan(x) else x if np.isnan(y) else _maximum(x, y)


def _minnum(x: np.floating, y: np.floating) -> np.floating:
    return y if np.isnan(x) else x if np.isnan(y) else _minimum(x, y)


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
            found = {"add": lambda: old + value, "max": lambda: _maxnum(old, value)}.get(kind)
            return dtype(found() if found is not None else _minnum(old, value))  # type: ignore[operator]
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


def _bits_type(width: int) -> type[np.unsignedinteger]:
    return {16: np.uint16, 32: np.uint32, 64: np.uint64}[width]


def _fp_to_int(op: Operation, value: np.floating, width: int, is_signed: bool) -> int:
    low, high = (-(1 << (width - 1)), 1 << (width - 1)) if is_signed else (0, 1 << width)
    if not np.isfinite(value) or not low <= math.trunc(float(value)) < high:
        kind = "signed" if is_signed else "unsigned"
        raise fail(
            op,
            f"'{op.name}': {format_value(value, op.operands[0].type)} does not fit in a "
            f"{kind} i{width} (poison)",
            "poison",
        )
    return math.trunc(float(value))


@register_impls
class ArithFunctions(InterpreterFunctions):
    @impl(arith.ConstantOp)
    def run_constant(self, machine: Machine, op: arith.ConstantOp, args: PythonValues):
        try:
            return (from_attr(op.value),)
        except ValueError as e:
            raise fail(op, str(e)) from None

    run_addi = impl(arith.AddiOp)(_int_binary(lambda a, b, w, op: a + b))
    run_subi = impl(arith.SubiOp)(_int_binary(lambda a, b, w, op: a - b))
    run_muli = impl(arith.MuliOp)(_int_binary(lambda a, b, w, op: a * b))
    run_divui = impl(arith.DivUIOp)(_int_binary(_divui))
    run_divsi = impl(arith.DivSIOp)(_int_binary(_divsi))
    run_remui = impl(arith.RemUIOp)(_int_binary(_remui))
    run_remsi = impl(arith.RemSIOp)(_int_binary(_remsi))
    run_floordivsi = impl(arith.FloorDivSIOp)(_int_binary(_floordivsi))
    run_ceildivsi = impl(arith.CeilDivSIOp)(_int_binary(_ceildivsi))
    run_ceildivui = impl(arith.CeilDivUIOp)(_int_binary(_ceildivui))
    run_minsi = impl(arith.MinSIOp)(
        _int_binary(lambda a, b, w, op: min(signed(a, w), signed(b, w)))
    )
    run_maxsi = impl(arith.MaxSIOp)(
        _int_binary(lambda a, b, w, op: max(signed(a, w), signed(b, w)))
    )
    run_minui = impl(arith.MinUIOp)(
        _int_binary(lambda a, b, w, op: min(unsigned(a, w), unsigned(b, w)))
    )
    run_maxui = impl(arith.MaxUIOp)(
        _int_binary(lambda a, b, w, op: max(unsigned(a, w), unsigned(b, w)))
    )
    run_andi = impl(arith.AndIOp)(_int_binary(lambda a, b, w, op: a & b))
    run_ori = impl(arith.OrIOp)(_int_binary(lambda a, b, w, op: a | b))
    run_xori = impl(arith.XOrIOp)(_int_binary(lambda a, b, w, op: a ^ b))
    run_shli = impl(arith.ShLIOp)(_int_binary(lambda a, b, w, op: a << _shift_amount(b, w, op)))
    run_shrui = impl(arith.ShRUIOp)(
        _int_binary(lambda a, b, w, op: unsigned(a, w) >> _shift_amount(b, w, op))
    )
    run_shrsi = impl(arith.ShRSIOp)(
        _int_binary(lambda a, b, w, op: signed(a, w) >> _shift_amount(b, w, op))
    )

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
        return (int(_cmpi(op.predicate.value.data, args[0], args[1], width)),)

    @impl(arith.CmpfOp)
    def run_cmpf(self, machine: Machine, op: arith.CmpfOp, args: PythonValues):
        return (int(_cmpf(op.predicate.value.data, args[0], args[1])),)

    @impl(arith.SelectOp)
    def run_select(self, machine: Machine, op: arith.SelectOp, args: PythonValues):
        return (args[1] if args[0] else args[2],)

    run_addf = impl(arith.AddfOp)(_float_binary(lambda x, y: x + y))
    run_subf = impl(arith.SubfOp)(_float_binary(lambda x, y: x - y))
    run_mulf = impl(arith.MulfOp)(_float_binary(lambda x, y: x * y))
    run_divf = impl(arith.DivfOp)(_float_binary(lambda x, y: x / y))
    run_maximumf = impl(arith.MaximumfOp)(_float_binary(_maximum))
    run_minimumf = impl(arith.MinimumfOp)(_float_binary(_minimum))
    run_maxnumf = impl(arith.MaxnumfOp)(_float_binary(_maxnum))
    run_minnumf = impl(arith.MinnumfOp)(_float_binary(_minnum))

    @impl(arith.NegfOp)
    def run_negf(self, machine: Machine, op: Operation, args: PythonValues):
        return (-args[0],)

    @impl(arith.ExtSIOp)
    def run_extsi(self, machine: Machine, op: Operation, args: PythonValues):
        return (_resize(op, args[0], signed),)

    @impl(arith.ExtUIOp)
    def run_extui(self, machine: Machine, op: Operation, args: PythonValues):
        return (_resize(op, args[0], unsigned),)

    @impl(arith.TruncIOp)
    def run_trunci(self, machine: Machine, op: Operation, args: PythonValues):
        return (_resize(op, args[0], signed),)

    @impl(arith.IndexCastOp)
    def run_index_cast(self, machine: Machine, op: Operation, args: PythonValues):
        return (_resize(op, args[0], signed),)

    @impl(arith.SIToFPOp)
    def run_sitofp(self, machine: Machine, op: Operation, args: PythonValues):
        return (_int_to_fp(op, args[0], signed),)

    @impl(arith.UIToFPOp)
    def run_uitofp(self, machine: Machine, op: Operation, args: PythonValues):
        return (_int_to_fp(op, args[0], unsigned),)

    @impl(arith.FPToSIOp)
    def run_fptosi(self, machine: Machine, op: Operation, args: PythonValues):
        width = result_width(op)
        return (wrap(_fp_to_int(op, args[0], width, True), width),)

    @impl(arith.FPToUIOp)
    def run_fptoui(self, machine: Machine, op: Operation, args: PythonValues):
        width = result_width(op)
        return (wrap(_fp_to_int(op, args[0], width, False), width),)

    @impl(arith.ExtFOp)
    def run_extf(self, machine: Machine, op: Operation, args: PythonValues):
        return (_float_cast(op, args[0]),)

    @impl(arith.TruncFOp)
    def run_truncf(self, machine: Machine, op: Operation, args: PythonValues):
        return (_float_cast(op, args[0]),)

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


# --- math ----------------------------------------------------------------------------------------


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


def _count(op: Operation, value: int, fn: Callable[[int, int], int]) -> int:
    width = result_width(op)
    return fn(unsigned(value, width), width)


def _ctlz(value: int, width: int) -> int:
    return width - value.bit_length()


def _cttz(value: int, width: int) -> int:
    return width if value == 0 else (value & -value).bit_length() - 1


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
    run_atan2 = impl(mathd.Atan2Op)(
        _float_binary(lambda y, x: np.arctan2(np.float64(y), np.float64(x)))
    )
    run_powf = impl(mathd.PowFOp)(_float_binary(lambda x, y: np.power(np.float64(x), y)))
    run_copysign = impl(mathd.CopySignOp)(_float_binary(np.copysign))

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

    @impl(mathd.CountLeadingZerosOp)
    def run_ctlz(self, machine: Machine, op: Operation, args: PythonValues):
        return (_count(op, args[0], _ctlz),)

    @impl(mathd.CountTrailingZerosOp)
    def run_cttz(self, machine: Machine, op: Operation, args: PythonValues):
        return (_count(op, args[0], _cttz),)

    @impl(mathd.CtPopOp)
    def run_ctpop(self, machine: Machine, op: Operation, args: PythonValues):
        return (_count(op, args[0], lambda v, w: bin(v).count("1")),)


# --- scf, cf, func, printf -----------------------------------------------------------------------


@register_impls
class ScfFunctions(XdslScfFunctions):
    """xDSL's `scf` impls, with `for` and `index_switch` on gpuir's values."""

    @impl(scf.ForOp)
    def run_for(self, machine: Machine, op: scf.ForOp, args: PythonValues) -> PythonValues:
        lb, ub, step, *loop_args = args
        width = int_width(op.lb.type)
        assert width is not None
        lb, ub, step = signed(lb, width), signed(ub, width), signed(step, width)
        if step <= 0:
            raise fail(op, f"'{op.name}' needs a positive step, found {step}")
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


@register_impls
class PrintfFunctions(InterpreterFunctions):
    """`printf` to the machine's output: `{}` is a value as gpu-run prints results."""

    @impl(printf.PrintFormatOp)
    def run_print_format(self, machine: Machine, op: printf.PrintFormatOp, args: PythonValues):
        texts = [format_value(v, o.type) for v, o in zip(args, op.format_vals, strict=True)]
        try:
            machine.write(op.format_str.data.format(*texts))
        except (IndexError, ValueError) as e:
            raise fail(op, f"bad format string {op.format_str.data!r}: {e}") from None
        return ()

    @impl(printf.PrintCharOp)
    def run_print_char(self, machine: Machine, op: printf.PrintCharOp, args: PythonValues):
        machine.write(chr(unsigned(args[0], 8)))
        return ()

    @impl(printf.PrintIntOp)
    def run_print_int(self, machine: Machine, op: printf.PrintIntOp, args: PythonValues):
        machine.write(str(args[0]))
        return ()


# --- mem ---------------------------------------------------------------------------------------


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


# --- llvm structs ------------------------------------------------------------------------------


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


STANDARD_FUNCTIONS: tuple[type[InterpreterFunctions], ...] = (
    ArithFunctions,
    MathFunctions,
    ScfFunctions,
    CfFunctions,
    FuncFunctions,
    PrintfFunctions,
    MemFunctions,
    LlvmStructFunctions,
)


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
        machine.setup(shared.functions)
        return machine
    machine = machine_type(module=module, index_bitwidth=64)
    for functions_type in functions:
        machine.register_implementations(functions_type(), override=True)
    from gpuir.passes.device_code import functions as module_functions

    machine.setup(module_functions(module))
    return machine
