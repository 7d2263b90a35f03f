"""The gpu rules that every target builds the same way in IR, so that each gives the same bits.

## How a work-group collective combines two values

How a work-group collective combines two values: the one rule that both of its lowerings
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

## The lane a `gpu.shuffle` reads

The lane a `gpu.shuffle` reads, built in IR: the one rule that both of its lowerings build on,
the NVPTX one (`gpuir.lowering.nvptx.gpu_to_nvvm`, `shfl.sync.idx` from that lane) and the cpu
provider's resumable form (`gpuir.lowering.cpu.resume`, a loop over the warp's lanes); interp
computes the same in Python (`gpuir.dialects.gpu.shuffle_source`).

The warp's `count` lanes are cut into segments of `width` lanes (1 to 32; any other width makes
no lane valid); the source of lane `l`, in the segment that starts at `s = l / width * width`,
is `l ^ offset`, `l - offset`, `l + offset` or `s + offset` (`xor`, `up`, `down`, `idx`), and
it is valid when it lies in `[s, min(s + width, count))`.

## The elements a `vector.broadcast` copies

`broadcast_sources`: for each element of the result, the element of the source it copies, in
Python: the shuffle mask of `convert-vector-to-llvm` and interp's gather
(`gpuir.runtime.engine.vector`).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Operation, SSAValue

from gpuir.dialects import gpu


def combine(b: Builder, kind: str, x: SSAValue, y: SSAValue) -> SSAValue:
    """`x ⊕ y` of a collective: the `arith` op `gpu.COMBINE_OPS` gives for `kind` and the
    values' type."""
    int_op, float_op = gpu.COMBINE_OPS[kind]
    op = int_op if isinstance(x.type, IntegerType | IndexType) else float_op
    assert op is not None  # the verifier allows the bitwise kinds on integers only
    return b.insert(op(x, y)).results[0]  # type: ignore[call-arg]


SOURCES: dict[str, type[Operation]] = {
    "xor": arith.XOrIOp,
    "up": arith.SubiOp,
    "down": arith.AddiOp,
    "idx": arith.AddiOp,
}
"""How each mode computes the source from the lane (`idx`: from the segment's start)."""


def shuffle_source(
    b: Builder,
    mode: str,
    lane: SSAValue,
    offset: SSAValue,
    width: SSAValue,
    count: SSAValue,
    one: SSAValue,
    warp: SSAValue,
) -> tuple[SSAValue, SSAValue]:
    """The lane that lane `lane` reads (itself where none is valid) and whether the read is
    valid, all values of one integer type (`one` and `warp`: its constants 1 and 32)."""
    fits = b.insert(
        arith.AndIOp(
            b.insert(arith.CmpiOp(width, one, "sge")).result,
            b.insert(arith.CmpiOp(width, warp, "sle")).result,
        )
    ).result
    safe = b.insert(arith.SelectOp(fits, width, one)).result
    start = b.insert(arith.MuliOp(b.insert(arith.DivUIOp(lane, safe)).result, safe)).result
    base = start if mode == "idx" else lane
    source = b.insert(SOURCES[mode](base, offset)).results[0]  # type: ignore[call-arg]
    end = b.insert(arith.MinSIOp(b.insert(arith.AddiOp(start, safe)).result, count)).result
    inside = b.insert(
        arith.AndIOp(
            b.insert(arith.CmpiOp(source, start, "sge")).result,
            b.insert(arith.CmpiOp(source, end, "slt")).result,
        )
    ).result
    valid = b.insert(arith.AndIOp(fits, inside)).result
    read = b.insert(arith.SelectOp(valid, source, lane)).result
    return read, valid


def broadcast_sources(shape: Sequence[int], source: Sequence[int]) -> list[int]:
    """The row-major index in `source` of the element that each element of a `vector.broadcast`
    to `shape` copies: `source` is `shape`'s trailing dimensions, each its extent or 1 (one
    element, stretched)."""
    lead = len(shape) - len(source)
    sources = []
    for k in range(prod(shape)):
        rest, at = k, []
        for extent in reversed(shape):
            at.append(rest % extent)
            rest //= extent
        at.reverse()
        offset = 0
        for j, s in enumerate(source):
            offset = offset * s + (0 if s == 1 else at[lead + j])
        sources.append(offset)
    return sources
