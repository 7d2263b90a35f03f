"""interp's work-group collectives: `combine` (`x ⊕ y` of a kind, rounded to the value's type),
the fixed tree of `gpu.workgroup_reduce` (`tree_reduce`) and the left fold of
`gpu.workgroup_scan` (`left_scan`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import Attribute

from gpuir.runtime.scalars import float_dtype, int_width, signed, wrap


def combine(kind: str, x: object, y: object, type_: Attribute) -> object:
    """`x ⊕ y` for a collective of `kind` on values of `type_`."""
    if (width := int_width(type_)) is not None:
        a, b = signed(x, width), signed(y, width)  # type: ignore[arg-type]
        match kind:
            case "add":
                return wrap(a + b, width)
            case "mul":
                return wrap(a * b, width)
            case "min":
                return wrap(min(a, b), width)
            case "max":
                return wrap(max(a, b), width)
            case "and":
                return wrap(a & b, width)
            case "or":
                return wrap(a | b, width)
            case _:
                return wrap(a ^ b, width)
    dtype = float_dtype(type_)
    assert dtype is not None
    fx, fy = dtype(x), dtype(y)
    with np.errstate(all="ignore"):
        match kind:
            case "add":
                return dtype(fx + fy)
            case "mul":
                return dtype(fx * fy)
            case "min":
                return (
                    fx + fy
                    if np.isnan(fx) or np.isnan(fy)
                    else (fx if (fx < fy or (fx == fy and np.signbit(fx))) else fy)
                )
            case _:
                return (
                    fx + fy
                    if np.isnan(fx) or np.isnan(fy)
                    else (fx if (fx > fy or (fx == fy and not np.signbit(fx))) else fy)
                )


def tree_reduce(kind: str, values: Sequence[object], type_: Attribute) -> object:
    """`t(0, n)` with `t(lo, hi) = t(lo, mid) ⊕ t(mid, hi)`, `mid = (lo + hi) // 2`."""

    def t(lo: int, hi: int) -> object:
        if hi - lo == 1:
            return values[lo]
        mid = (lo + hi) // 2
        return combine(kind, t(lo, mid), t(mid, hi), type_)

    return t(0, len(values))


def left_scan(kind: str, values: Sequence[object], type_: Attribute) -> list[object]:
    """The inclusive scan as a left fold in item order."""
    out: list[object] = []
    for value in values:
        out.append(value if not out else combine(kind, out[-1], value, type_))
    return out
