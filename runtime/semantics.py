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
import operator
from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import partial
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
from xdsl.ir import Attribute, Operation, Region, SSAValue

from gpuir.dialects import mem
from gpuir.dialects.gpu import format_text
from gpuir.dialects.mem import PtrType
from gpuir.ir import integers
from gpuir.ir.integers import Undefined, cmpi
from gpuir.runtime.closures import (
    Code,
    Compiler,
    Frame,
    FunctionCode,
    Step,
    Terminator,
    fast,
    internal_error,
)
from gpuir.runtime.memory import Allocation, Pointer, alloc_size, size_of
from gpuir.runtime.provider import ProviderError
from gpuir.runtime.scalars import (
    TOKEN,
    float_dtype,
    format_value,
    from_attr,
    int_to_float,
    int_width,
    print_text,
    round_exact,
    signed,
    unsigned,
    wrap,
)
from gpuir.runtime.structs import undef
from gpuir.runtime.token_order import TokenOrder, tracking_step


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
    quiet_floats: bool = False
    """numpy's float errors are already silenced around every call of this machine."""

    def setup(
        self,
        functions: dict[str, func.FuncOp],
        code: Code | None = None,
        tokens: frozenset[int] = frozenset(),
    ) -> None:
        """`tokens`: the address spaces whose token chains to track
        (`gpuir.runtime.token_order`)."""
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
        """The frame of the function running now (`gpuir.runtime.closures`); None outside."""
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


# --- arith -----------------------------------------------------------------------------------


def _int_binary(op_type: type[Operation]):
    fn = integers.BINARY[op_type]

    def run(self: Any, machine: Machine, op: Operation, args: PythonValues) -> PythonValues:
        width = result_width(op)
        try:
            return (wrap(fn(args[0], args[1], width), width),)
        except Undefined as e:
            raise undefined(op, e) from None

    return impl(op_type)(run)


def undefined(op: Operation, e: Undefined) -> ProviderError:
    """The diagnostic of an integer op whose result LLVM leaves undefined."""
    return fail(op, f"'{op.name}': {e}", e.name)


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


def _float_binary(op_type: type[Operation], fn: FloatBinary):
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

    run_addf = _float_binary(arith.AddfOp, lambda x, y: x + y)
    run_subf = _float_binary(arith.SubfOp, lambda x, y: x - y)
    run_mulf = _float_binary(arith.MulfOp, lambda x, y: x * y)
    run_divf = _float_binary(arith.DivfOp, lambda x, y: x / y)
    run_maximumf = _float_binary(arith.MaximumfOp, _maximum)
    run_minimumf = _float_binary(arith.MinimumfOp, _minimum)
    run_maxnumf = _float_binary(arith.MaxnumfOp, _maxnum)
    run_minnumf = _float_binary(arith.MinnumfOp, _minnum)

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
    run_atan2 = _float_binary(mathd.Atan2Op, lambda y, x: np.arctan2(np.float64(y), np.float64(x)))
    run_powf = _float_binary(mathd.PowFOp, lambda x, y: np.power(np.float64(x), y))
    run_copysign = _float_binary(mathd.CopySignOp, np.copysign)

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


@register_impls
class PrintfFunctions(InterpreterFunctions):
    """`printf` to the machine's output: `{}` is a value as gpu-run prints results."""

    @impl(printf.PrintFormatOp)
    def run_print_format(self, machine: Machine, op: printf.PrintFormatOp, args: PythonValues):
        types = [o.type for o in op.format_vals]
        try:
            machine.write(print_text(format_text(op), args, types))
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


# --- fast forms (`gpuir.runtime.closures`) ------------------------------------------------------
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
def _fast_float_binary(c: Compiler, op: Operation) -> Step | None:
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
        machine.setup(shared.functions, shared.code)
        return machine
    machine = machine_type(module=module, index_bitwidth=64)
    for functions_type in functions:
        machine.register_implementations(functions_type(), override=True)
    from gpuir.passes.check_tokens import forked_spaces
    from gpuir.passes.device_code import functions as module_functions

    machine.setup(module_functions(module), tokens=forked_spaces(module))
    return machine
