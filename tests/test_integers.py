"""`gpuir.ir.integers`, the one home of `arith`'s integer semantics (interp, its fast forms and
check-barrier-divergence use it), against numpy's fixed-width integers on random operands."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith

from gpuir.ir.integers import BINARY, Undefined, cmpi, signed, unsigned, wrap

WIDTHS = {
    8: (np.int8, np.uint8),
    16: (np.int16, np.uint16),
    32: (np.int32, np.uint32),
    64: (np.int64, np.uint64),
}
NUMPY = {
    arith.AddiOp: lambda s, u, a, b: s(a) + s(b),
    arith.SubiOp: lambda s, u, a, b: s(a) - s(b),
    arith.MuliOp: lambda s, u, a, b: s(a) * s(b),
    arith.AndIOp: lambda s, u, a, b: s(a) & s(b),
    arith.OrIOp: lambda s, u, a, b: s(a) | s(b),
    arith.XOrIOp: lambda s, u, a, b: s(a) ^ s(b),
    arith.MinSIOp: lambda s, u, a, b: min(s(a), s(b)),
    arith.MaxUIOp: lambda s, u, a, b: max(u(a), u(b)),
    arith.DivUIOp: lambda s, u, a, b: u(a) // u(b),
    arith.RemUIOp: lambda s, u, a, b: u(a) % u(b),
    arith.DivSIOp: lambda s, u, a, b: np.fix(np.float64(s(a)) / np.float64(s(b))),
    arith.ShLIOp: lambda s, u, a, b: s(a) << s(b),
    arith.ShRUIOp: lambda s, u, a, b: u(a) >> u(b),
    arith.ShRSIOp: lambda s, u, a, b: s(a) >> s(b),
}


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("op", list(NUMPY), ids=lambda o: o.name)
def test_each_op_computes_what_fixed_width_integers_compute(op, width: int):
    rng = np.random.default_rng(width)
    s_type, u_type = WIDTHS[width]
    edges = [0, 1, -1, 2, (1 << (width - 1)) - 1, -(1 << (width - 1))]
    values = edges + [int(v) for v in rng.integers(-(1 << (width - 1)), 1 << (width - 1), 40)]
    for a in values:
        for b in values[:12]:
            if op in (arith.ShLIOp, arith.ShRUIOp, arith.ShRSIOp):
                b = b % width
            try:
                ours = wrap(BINARY[op](a, b, width), width)
            except Undefined:
                assert unsigned(b, width) == 0 or op is arith.DivSIOp
                continue
            if op is arith.DivSIOp and (signed(a, width), signed(b, width)) == (edges[5], -1):
                pytest.fail("INT_MIN / -1 must be undefined")

            def as_signed(x: int):
                return np.array(x % (1 << width), dtype=u_type).view(s_type)[()]

            def as_unsigned(x: int):
                return u_type(x % (1 << width))

            with np.errstate(all="ignore"):
                expected = NUMPY[op](as_signed, as_unsigned, a, b)
            if op is arith.DivSIOp:  # numpy's float quotient is exact only for small widths
                if width == 64:
                    continue
                expected = int(expected)
            assert ours == wrap(int(expected), width), (op.name, a, b)


def test_comparisons_read_signed_or_unsigned():
    assert cmpi(2, -1, 0, 8) and not cmpi(6, -1, 0, 8)  # slt, ult: 255 is not < 0
    assert cmpi(0, 255, -1, 8)  # eq on any representative
    assert cmpi(5, 0, 1, 1) and not cmpi(9, 0, 1, 1)  # sge: i1 1 reads as -1; uge: 0 < 1


def test_undefined_results_are_named():
    with pytest.raises(Undefined) as caught:
        BINARY[arith.DivSIOp](-128, -1, 8)
    assert caught.value.name == "overflow"
    with pytest.raises(Undefined) as caught:
        BINARY[arith.ShLIOp](1, 8, 8)
    assert caught.value.name == "poison"
    with pytest.raises(Undefined) as caught:
        BINARY[arith.RemUIOp](1, 256, 8)  # 256 is 0 in i8
    assert caught.value.name == "division by zero"
