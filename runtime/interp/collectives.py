"""interp's work-group collectives: `combine` (`x ⊕ y` of a kind, rounded to the value's type),
the fixed tree of `gpu.workgroup_reduce` (`tree_reduce`) and the left fold of
`gpu.workgroup_scan` (`left_scan`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import Attribute

from gpuir.dialects.gpu import COMBINE_OPS
from gpuir.ir import integers
from gpuir.runtime.engine.arith import FLOAT_BINARY
from gpuir.runtime.scalars import float_dtype, int_width, wrap


def combine(kind: str, x: object, y: object, type_: Attribute) -> object:
    """`x ⊕ y` for a collective of `kind` on values of `type_`: the semantics of the `arith`
    op `gpu.COMBINE_OPS` gives (what the lowerings build)."""
    int_op, float_op = COMBINE_OPS[kind]
    if (width := int_width(type_)) is not None:
        return wrap(integers.BINARY[int_op](x, y, width), width)  # type: ignore[arg-type]
    dtype = float_dtype(type_)
    assert dtype is not None and float_op is not None
    with np.errstate(all="ignore"):
        return dtype(FLOAT_BINARY[float_op](dtype(x), dtype(y)))


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
