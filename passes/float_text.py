"""The text of a float as C's `printf("%.2f", (double)v)` (glibc's, for every value), built in
IR from `printf.print_format` and integer arithmetic: `buffer-lower-ptr` prints buffers with it
(`print_element`)."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    Float64Type,
    IndexType,
    IntegerType,
    f64,
    i1,
    i64,
)
from xdsl.dialects.math import AbsFOp
from xdsl.dialects.printf import PrintFormatOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from gpuir.dialects import mem
from gpuir.dialects.mem import HOST, ArrayType, PtrType
from gpuir.ir.builders import INDEX, Constants, element_ptr, for_nest, if_else


def print_element(
    b: Builder, const: Constants, token: SSAValue, value: SSAValue, limbs: SSAValue | None
) -> SSAValue:
    """Print `value` and `, `: an integer in decimal, a float as C's `printf("%.2f", (double)v)`
    (glibc's text, for every value); returns the next token.

    `printf.print_format` has no precision (`{}` prints a float in full), so a float is widened
    to f64 and printed through integers: `-` if its sign bit is set (as glibc: `-0.00`, `-nan`),
    then by magnitude:
    - NaN and infinity: `nan`, `inf`;
    - below 2^53: the integer part `w` (exact, `fptoui`) and the fraction `f = |v| - w` (exact);
      `f * 100` is computed as an exact sum `scaled + error` (Veltkamp's split of `f`: both
      halves times 100 are exact) and rounded half to even, as glibc rounds; printed as
      `(100 w + r) / 100`, `.` and its two last digits;
    - from 2^53 on the double is an integer `m * 2^s` (`m < 2^53`, `s <= 971`): `print_integer`
      writes its exact decimal digits, then `.00`.
    `limbs` is the `mem.slot` `print_integer` works in (`LIMBS_TYPE`; floats only).
    """
    type_ = value.type
    if isinstance(type_, IntegerType | IndexType):
        b.insert(PrintFormatOp("{}, ", value))
        return token
    assert isinstance(type_, AnyFloat) and limbs is not None

    def emit(op: Operation) -> SSAValue:
        return b.insert(op).results[0]

    x = value
    if not isinstance(type_, Float64Type):
        x = emit(arith.ExtFOp(x, f64) if type_.bitwidth < 64 else arith.TruncFOp(x, f64))
    # the sign bit of the value itself: widening need not keep a NaN's sign
    bits = emit(arith.BitcastOp(value, IntegerType(type_.bitwidth)))
    negative = emit(arith.CmpiOp(bits, const(0, IntegerType(type_.bitwidth)), "slt"))
    magnitude = emit(AbsFOp(x))
    b.insert(scf.IfOp(negative, [], [PrintFormatOp("-"), scf.YieldOp()]))
    special = emit(arith.CmpfOp(magnitude, const(float("inf"), f64), "ueq"))  # NaN or inf

    def special_case(b: Builder, token: SSAValue) -> SSAValue:
        is_nan = b.insert(arith.CmpfOp(x, x, "uno")).result
        nan, inf = [PrintFormatOp("nan, "), scf.YieldOp()], [PrintFormatOp("inf, "), scf.YieldOp()]
        b.insert(scf.IfOp(is_nan, [], nan, inf))
        return token

    def finite(b: Builder, token: SSAValue) -> SSAValue:
        huge = b.insert(arith.CmpfOp(magnitude, const(2.0**53, f64), "oge")).result

        def integer(b: Builder, token: SSAValue) -> SSAValue:
            token = print_integer(b, const, token, magnitude, limbs)
            b.insert(PrintFormatOp(".00, "))
            return token

        def fraction(b: Builder, token: SSAValue) -> SSAValue:
            print_below_2_53(b, const, magnitude)
            return token

        return if_else(b, huge, token, integer, fraction)

    return if_else(b, special, token, special_case, finite)


def print_slot(b: Builder, token: SSAValue, element: Attribute) -> tuple[SSAValue, SSAValue | None]:
    """The `mem.slot` `print_element` prints huge floats in (`LIMBS_TYPE`), made once before
    a print's loops; none for integers."""
    if not isinstance(element, AnyFloat):
        return token, None
    slot = b.insert(mem.SlotOp(token, LIMBS_TYPE))
    return slot.res_mem, slot.res


def print_below_2_53(b: Builder, const: Constants, magnitude: SSAValue) -> None:
    """Print `magnitude` (finite, below 2^53) with two decimals, rounded half to even."""

    def emit(op: Operation) -> SSAValue:
        return b.insert(op).results[0]

    whole = emit(arith.FPToUIOp(magnitude, i64))
    part = emit(arith.SubfOp(magnitude, emit(arith.UIToFPOp(whole, f64))))
    # part * 100 = scaled + error, exactly
    split = emit(arith.MulfOp(part, const(134217729.0, f64)))
    high = emit(arith.SubfOp(split, emit(arith.SubfOp(split, part))))
    low = emit(arith.SubfOp(part, high))
    high100 = emit(arith.MulfOp(high, const(100.0, f64)))
    low100 = emit(arith.MulfOp(low, const(100.0, f64)))
    scaled = emit(arith.AddfOp(high100, low100))
    error = emit(arith.SubfOp(low100, emit(arith.SubfOp(scaled, high100))))
    # round half to even: up above one half, or at one half when the error or oddness says so
    truncated = emit(arith.FPToUIOp(scaled, i64))
    fraction = emit(arith.SubfOp(scaled, emit(arith.UIToFPOp(truncated, f64))))
    above_half = emit(arith.CmpfOp(fraction, const(0.5, f64), "ogt"))
    at_half = emit(arith.CmpfOp(fraction, const(0.5, f64), "oeq"))
    error_up = emit(arith.CmpfOp(error, const(0.0, f64), "ogt"))
    exact = emit(arith.CmpfOp(error, const(0.0, f64), "oeq"))
    odd = emit(arith.TruncIOp(truncated, i1))
    tie_up = emit(arith.OrIOp(error_up, emit(arith.AndIOp(exact, odd))))
    up = emit(arith.OrIOp(above_half, emit(arith.AndIOp(at_half, tie_up))))
    cents_up = emit(arith.AddiOp(truncated, emit(arith.ExtUIOp(up, i64))))
    rounded = emit(arith.AddiOp(emit(arith.MuliOp(whole, const(100, i64))), cents_up))
    cents = emit(arith.RemUIOp(rounded, const(100, i64)))
    units = emit(arith.DivUIOp(rounded, const(100, i64)))
    tens = emit(arith.DivUIOp(cents, const(10, i64)))
    ones = emit(arith.RemUIOp(cents, const(10, i64)))
    b.insert(PrintFormatOp("{}.{}{}, ", units, tens, ones))


LIMB = 10**18  # decimal digits per limb: 18; a limb fits an i64, a limb times 2^59 an i128
LIMB_SHIFT = 59
LIMBS_TYPE = PtrType(ArrayType(19, i64), HOST)  # 2^1024 has 309 digits: 18 limbs, one spare
i128 = IntegerType(128)


def print_integer(
    b: Builder, const: Constants, token: SSAValue, magnitude: SSAValue, limbs: SSAValue
) -> SSAValue:
    """Print the exact decimal digits of `magnitude`, a finite f64 integer from 2^53 on.

    It is `m * 2^s` (`m` the significand with its hidden bit, `s >= 1`); the number is built
    in `limbs`, little-endian base 10^18: `m`, times 2^(s mod 59), then `s / 59` times 2^59,
    each a pass over the limbs in use carrying in i128. The top limb prints as it is, every
    other one with its leading zeros to 18 digits."""

    def emit(op: Operation) -> SSAValue:
        return b.insert(op).results[0]

    bits = emit(arith.BitcastOp(magnitude, i64))
    mantissa = emit(arith.OrIOp(emit(arith.AndIOp(bits, const(2**52 - 1, i64))), const(2**52, i64)))
    shift = emit(arith.SubiOp(emit(arith.ShRUIOp(bits, const(52, i64))), const(1075, i64)))
    passes = emit(arith.DivUIOp(shift, const(LIMB_SHIFT, i64)))
    passes = emit(arith.IndexCastOp(emit(arith.AddiOp(passes, const(1, i64))), INDEX))
    first_shift = emit(arith.ExtUIOp(emit(arith.RemUIOp(shift, const(LIMB_SHIFT, i64))), i128))
    first_factor = emit(arith.ShLIOp(const(1, i128), first_shift))
    token = emit(mem.StoreOp(token, element_ptr(b, limbs, [const(0)]), mantissa))

    def times_factor(b: Builder, indices: list[SSAValue], args: list[SSAValue]) -> list[SSAValue]:
        (pass_,), (token, used) = indices, args
        first = b.insert(arith.CmpiOp(pass_, const(0), "eq")).result
        factor = b.insert(arith.SelectOp(first, first_factor, const(2**LIMB_SHIFT, i128))).result

        def limb(b: Builder, indices: list[SSAValue], args: list[SSAValue]) -> list[SSAValue]:
            (token, carry), ptr = args, element_ptr(b, limbs, indices)
            load = b.insert(mem.LoadOp(token, ptr))
            wide = b.insert(arith.ExtUIOp(load.res, i128)).result
            product = b.insert(arith.MuliOp(wide, factor)).result
            product = b.insert(arith.AddiOp(product, carry)).result
            low = b.insert(arith.RemUIOp(product, const(LIMB, i128))).result
            low = b.insert(arith.TruncIOp(low, i64)).result
            token = b.insert(mem.StoreOp(load.res_mem, ptr, low)).res_mem
            return [token, b.insert(arith.DivUIOp(product, const(LIMB, i128))).result]

        token, carry = for_nest(b, const, [used], [token, const(0, i128)], limb)
        top = b.insert(arith.TruncIOp(carry, i64)).result  # below 2^59: one new limb at most
        token = b.insert(mem.StoreOp(token, element_ptr(b, limbs, [used]), top)).res_mem
        grew = b.insert(arith.CmpiOp(carry, const(0, i128), "ne")).result
        more = b.insert(arith.AddiOp(used, const(1))).result
        return [token, b.insert(arith.SelectOp(grew, more, used)).result]

    token, used = for_nest(b, const, [passes], [token, const(1)], times_factor)
    last = emit(arith.SubiOp(used, const(1)))
    load = b.insert(mem.LoadOp(token, element_ptr(b, limbs, [last])))
    b.insert(PrintFormatOp("{}", load.res))

    def padded(b: Builder, indices: list[SSAValue], args: list[SSAValue]) -> list[SSAValue]:
        index = b.insert(arith.SubiOp(last, b.insert(arith.AddiOp(indices[0], const(1))).result))
        load = b.insert(mem.LoadOp(args[0], element_ptr(b, limbs, [index.result])))
        short = b.insert(arith.CmpiOp(load.res, const(LIMB // 10, i64), "ult")).result
        zeros = Block()
        Builder(InsertPoint.at_end(zeros)).insert(scf.YieldOp())
        b.insert(scf.IfOp(short, [], [zeros]))
        print_leading_zeros(Builder(InsertPoint.at_start(zeros)), const, load.res)
        b.insert(PrintFormatOp("{}", load.res))
        return [load.res_mem]

    return for_nest(b, const, [last], [load.res_mem], padded)[0]


def print_leading_zeros(b: Builder, const: Constants, limb: SSAValue) -> None:
    """Print a `0` for each power of ten from 10^17 down to 10 that is above `limb`, so that
    `limb` then prints as 18 digits."""

    def digit(b: Builder, indices: list[SSAValue], args: list[SSAValue]) -> list[SSAValue]:
        below = b.insert(arith.CmpiOp(limb, args[0], "ult")).result
        b.insert(scf.IfOp(below, [], [PrintFormatOp("0"), scf.YieldOp()]))
        return [b.insert(arith.DivUIOp(args[0], const(10, i64))).result]

    for_nest(b, const, [const(17)], [const(LIMB // 10, i64)], digit)
