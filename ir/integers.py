"""The integer semantics of `arith`, for every layer that computes with integers: interp and
its fast forms (`runtime/engine/arith.py`) and `check-barrier-divergence`'s evaluation of a
kernel's ids (`passes/checks/check_barrier_divergence.py`).

A value is a Python int that stands for its bits modulo `2**width`: the functions read their
operands with `signed` or `unsigned`, so any representative will do, and return the exact
result, which `wrap` brings to the canonical form (signed; `i1` as 0 or 1). What LLVM calls
undefined behaviour or poison (a division by zero, a signed division that overflows, a shift by
the bit width or more) raises `Undefined`: interp reports it at the op, the divergence check
leaves the value to the run.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.ir import Operation


class Undefined(Exception):
    """An integer op whose result LLVM leaves undefined (`name`: its kind, as interp names
    its diagnostic)."""

    def __init__(self, message: str, name: str):
        super().__init__(message)
        self.name = name


def wrap(value: int, width: int) -> int:
    """`value` modulo `2**width`, in canonical form (signed; `i1` as 0/1)."""
    if width == 1:
        return value & 1
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def unsigned(value: int, width: int) -> int:
    """The unsigned reading of a value."""
    return value & ((1 << width) - 1)


def signed(value: int, width: int) -> int:
    """The signed reading of a value (`i1` 1 reads as -1)."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def _nonzero(b: int) -> None:
    if b == 0:
        raise Undefined("division by zero", "division by zero")


def _no_signed_overflow(a: int, b: int, width: int) -> None:
    if b == -1 and a == -(1 << (width - 1)):
        raise Undefined(f"signed division overflow ({a} / -1 in i{width})", "overflow")


def _shift_amount(b: int, width: int) -> int:
    amount = unsigned(b, width)
    if amount >= width:
        raise Undefined(
            f"shift by {amount}, not less than the bit width {width} (poison)", "poison"
        )
    return amount


def _trunc_div(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def _divui(a: int, b: int, w: int) -> int:
    _nonzero(unsigned(b, w))
    return unsigned(a, w) // unsigned(b, w)


def _remui(a: int, b: int, w: int) -> int:
    _nonzero(unsigned(b, w))
    return unsigned(a, w) % unsigned(b, w)


def _ceildivui(a: int, b: int, w: int) -> int:
    _nonzero(unsigned(b, w))
    return -(-unsigned(a, w) // unsigned(b, w))


def _divsi(a: int, b: int, w: int) -> int:
    a, b = signed(a, w), signed(b, w)
    _nonzero(b)
    _no_signed_overflow(a, b, w)
    return _trunc_div(a, b)


def _remsi(a: int, b: int, w: int) -> int:
    a, b = signed(a, w), signed(b, w)
    _nonzero(b)
    return a - _trunc_div(a, b) * b


def _floordivsi(a: int, b: int, w: int) -> int:
    a, b = signed(a, w), signed(b, w)
    _nonzero(b)
    _no_signed_overflow(a, b, w)
    return a // b


def _ceildivsi(a: int, b: int, w: int) -> int:
    a, b = signed(a, w), signed(b, w)
    _nonzero(b)
    _no_signed_overflow(a, b, w)
    return -(-a // b)


Binary = Callable[[int, int, int], int]
"""`fn(a, b, width)`: an integer binary op's exact result (before `wrap`)."""

BINARY: dict[type[Operation], Binary] = {
    arith.AddiOp: lambda a, b, w: a + b,
    arith.SubiOp: lambda a, b, w: a - b,
    arith.MuliOp: lambda a, b, w: a * b,
    arith.DivUIOp: _divui,
    arith.DivSIOp: _divsi,
    arith.RemUIOp: _remui,
    arith.RemSIOp: _remsi,
    arith.FloorDivSIOp: _floordivsi,
    arith.CeilDivSIOp: _ceildivsi,
    arith.CeilDivUIOp: _ceildivui,
    arith.MinSIOp: lambda a, b, w: min(signed(a, w), signed(b, w)),
    arith.MaxSIOp: lambda a, b, w: max(signed(a, w), signed(b, w)),
    arith.MinUIOp: lambda a, b, w: min(unsigned(a, w), unsigned(b, w)),
    arith.MaxUIOp: lambda a, b, w: max(unsigned(a, w), unsigned(b, w)),
    arith.AndIOp: lambda a, b, w: a & b,
    arith.OrIOp: lambda a, b, w: a | b,
    arith.XOrIOp: lambda a, b, w: a ^ b,
    arith.ShLIOp: lambda a, b, w: a << _shift_amount(b, w),
    arith.ShRUIOp: lambda a, b, w: unsigned(a, w) >> _shift_amount(b, w),
    arith.ShRSIOp: lambda a, b, w: signed(a, w) >> _shift_amount(b, w),
}


def cmpi(predicate: int, a: int, b: int, w: int) -> bool:
    """`arith.cmpi`: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge (predicates 0 to 9)."""
    if predicate == 0:
        return unsigned(a, w) == unsigned(b, w)
    if predicate == 1:
        return unsigned(a, w) != unsigned(b, w)
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
