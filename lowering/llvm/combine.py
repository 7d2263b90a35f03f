"""How a work-group collective combines two values: the one rule that both of its lowerings
build on, the NVPTX one (`gpuir.lowering.nvptx.collectives`, shuffles and shared memory) and the cpu
provider's (`gpuir.lowering.cpu.workgroups`, loops over the items), so that the two give the same
bits.

The kinds are the dialect's (`gpu.COLLECTIVE_KINDS`): `add`, `mul`, `min`, `max` on integers
(`iN`, `index`) and floats, `and`, `or`, `xor` on integers only (the verifier checks it).
`x ⊕ y` is an `arith` op, which the later stages lower as any other:

| kind | integers | floats |
| --- | --- | --- |
| `add`, `mul` | `arith.addi`, `arith.muli` (they wrap) | `arith.addf`, `arith.mulf` |
| `min`, `max` | `arith.minsi`, `arith.maxsi` (signed) | `arith.minimumf`, `arith.maximumf` |
| `and`, `or`, `xor` | `arith.andi`, `arith.ori`, `arith.xori` | (none) |

Float `min` / `max` are LLVM's `llvm.minimum` / `llvm.maximum`: a NaN operand wins (the result
is a NaN) and -0 < +0, as interp's `combine` (`gpuir.runtime.interp.collectives`).
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Operation, SSAValue


def combine(b: Builder, kind: str, x: SSAValue, y: SSAValue) -> SSAValue:
    """`x ⊕ y` of a collective: integers wrap and compare signed, floats as
    `arith.minimumf` / `maximumf` (as interp's `combine`)."""
    is_int = isinstance(x.type, IntegerType | IndexType)
    ops: dict[str, tuple[type[Operation], type[Operation] | None]] = {
        "add": (arith.AddiOp, arith.AddfOp),
        "mul": (arith.MuliOp, arith.MulfOp),
        "min": (arith.MinSIOp, arith.MinimumfOp),
        "max": (arith.MaxSIOp, arith.MaximumfOp),
        "and": (arith.AndIOp, None),
        "or": (arith.OrIOp, None),
        "xor": (arith.XOrIOp, None),
    }
    int_op, float_op = ops[kind]
    kind_op = int_op if is_int else float_op
    assert kind_op is not None
    return b.insert(kind_op(x, y)).results[0]  # type: ignore[call-arg]
