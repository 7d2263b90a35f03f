"""What the warp-vector form (`gpuir.lowering.cpu.warp_vectors`) asks of a kernel's IR, and the
llvm ops of vectors it makes that xDSL's llvm dialect has only for scalars:

- `lane_of`: the lane of an `if (lane == c)`;
- `warp_total`: whether a value at a lane is the sum of a root value's 32 lanes (a warp
  reduction), by following which lanes each lane adds up through the shuffles;
- `deferred_atomic`: a lane-0 atomic add that may become one per group;
- `LaneSelectOp`, `LaneFCmpOp`: `llvm.select` on a vector condition, `llvm.fcmp` on vectors.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith, func, llvm, scf
from xdsl.dialects.builtin import I1, AnyFloatConstr, IntegerAttr, IntegerType, VectorType, i1, i64
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from gpuir.dialects import gpu, mem
from gpuir.lowering.cpu.workgroups import constant_index, is_token

WARP = gpu.WARP


@irdl_op_definition
class LaneSelectOp(llvm.SelectOp):
    """`llvm.select` of a `vector<N x i1>` condition, lane by lane (xDSL's takes an `i1`)."""

    name = "llvm.select"
    T: ClassVar = VarConstraint("T", AnyAttr())
    cond = operand_def(VectorType.constr(I1))
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(llvm.FastMathAttr, default_value=llvm.FastMathAttr(None))
    traits = traits_def(Pure())
    assembly_format = None

    def verify_(self) -> None:
        return  # the fields above say it all (not xDSL's `llvm.select`'s verifier)


@irdl_op_definition
class LaneFCmpOp(llvm.FCmpOp):
    """`llvm.fcmp` of two float vectors, lane by lane (xDSL's compares scalars)."""

    name = "llvm.fcmp"
    T: ClassVar = VarConstraint("T", VectorType.constr(AnyFloatConstr))
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(VectorType.constr(I1))
    predicate = prop_def(IntegerAttr[i64])
    fastmathFlags = prop_def(llvm.FastMathAttr, default_value=llvm.FastMathAttr(None))
    traits = traits_def(Pure())
    irdl_options = ()

    def __init__(self, lhs: SSAValue, rhs: SSAValue, predicate: int, flags: llvm.FastMathAttr):
        assert isinstance(lhs.type, VectorType)
        IRDLOperation.__init__(
            self,
            operands=[lhs, rhs],
            result_types=[VectorType(i1, lhs.type.get_shape())],
            properties={"predicate": IntegerAttr(predicate, i64), "fastmathFlags": flags},
        )

    def verify_(self) -> None:
        return  # the fields above say it all (not xDSL's `llvm.fcmp`'s verifier)


def lane_of(cond: SSAValue, item_id: SSAValue) -> int | None:
    """c where `cond` is `lane == c` (`lane` as `item_id % 32`, `cpu-workgroup-loops`' form of
    `gpu.lane_id`), either way round, with 0 <= c < 32."""
    op = cond.owner
    if not isinstance(op, arith.CmpiOp) or op.predicate.value.data != 0:  # eq
        return None
    for lane, other in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
        c = constant_index(other)
        if is_lane_id(lane, item_id) and c is not None and 0 <= c < WARP:
            return c
    return None


def is_lane_id(value: SSAValue, item_id: SSAValue) -> bool:
    op = value.owner
    return isinstance(op, arith.RemUIOp) and op.lhs is item_id and constant_index(op.rhs) == WARP


ACCESSES = (mem.LoadOp, mem.StoreOp, mem.AtomicRmwOp, mem.CmpxchgOp)
TERMS_DEPTH = 64
"""How many ops `warp_total` follows."""


def warp_total(value: SSAValue, lane: int) -> SSAValue | None:
    """`x` when `value` at lane `lane` of a whole warp is the integer sum of the 32 lanes of
    `x`, each once: `value` is made from `x` by `gpu.shuffle`s of constant offsets and widths,
    `arith.addi` and `arith.select`s on the shuffles' `valid` (a warp reduction, as five "down"
    shuffles by 16, 8, 4, 2, 1). Found by following which lanes of `x` each lane adds up."""
    roots: list[SSAValue] = []
    found = lane_terms(value, roots, {})
    if found is None or len(roots) != 1 or not isinstance(roots[0].type, IntegerType):
        return None
    return roots[0] if found[lane] == (1,) * WARP else None


Terms = list[tuple[int, ...]]
"""Per lane, how many times it adds each lane of the root."""


def lane_terms(value: SSAValue, roots: list[SSAValue], seen: dict[SSAValue, Terms]) -> Terms | None:
    if value in seen:
        return seen[value]
    if len(seen) > TERMS_DEPTH:
        return None
    op = value.owner
    found: Terms | None
    if isinstance(op, gpu.ShuffleOp) and value is op.res:
        reads = shuffle_reads(op)
        source = lane_terms(op.value, roots, seen) if reads is not None else None
        if reads is None or source is None:
            return None
        found = [source[lane if read is None else read] for lane, read in enumerate(reads)]
    elif isinstance(op, arith.AddiOp):
        lhs, rhs = lane_terms(op.lhs, roots, seen), lane_terms(op.rhs, roots, seen)
        if lhs is None or rhs is None:
            return None
        found = [tuple(map(sum, zip(x, y, strict=True))) for x, y in zip(lhs, rhs, strict=True)]
    elif isinstance(op, arith.SelectOp) and isinstance(op.cond.owner, gpu.ShuffleOp):
        reads = shuffle_reads(op.cond.owner) if op.cond is op.cond.owner.valid else None
        then = lane_terms(op.lhs, roots, seen)
        other = lane_terms(op.rhs, roots, seen)
        if reads is None or then is None or other is None:
            return None
        found = [then[k] if read is not None else other[k] for k, read in enumerate(reads)]
    else:  # the root: each lane its own
        if roots and roots[0] is not value:
            return None
        roots[:] = [value]
        found = [tuple(int(k == lane) for k in range(WARP)) for lane in range(WARP)]
    seen[value] = found
    return found


def shuffle_reads(op: gpu.ShuffleOp) -> list[int | None] | None:
    """The lane each lane of a whole warp reads (None: not valid), for constant offsets."""
    offset, width = constant_index(op.offset), constant_index(op.width)
    if offset is None or width is None:
        return None
    return [gpu.shuffle_source(op.mode.data, k, offset, width, WARP) for k in range(WARP)]


def deferred_atomic(kernel: func.FuncOp) -> mem.AtomicRmwOp | None:
    """The kernel's one atomic when its warps' atomics may become one per group: an integer
    "add" whose old value no one uses, the then-branch's own op of an `if (lane == c)` at the
    kernel's top level, in a kernel without other accesses to its memory space. The group's
    warps (one thread, one after another) then add into one sum, and one atomic adds it at the
    group's end: the total of any run of the warps, and no access of the group sees the
    difference. (The caller checks that the address is the group's.)"""
    atomics = [op for op in kernel.walk() if isinstance(op, mem.AtomicRmwOp)]
    if len(atomics) != 1:
        return None
    op = atomics[0]
    if op.kind.data != "add" or op.res.uses or not isinstance(op.res.type, IntegerType):
        return None
    branch = op.parent_op()
    entry = kernel.body.blocks[0]
    if (
        not isinstance(branch, scf.IfOp)
        or branch.parent_block() is not entry
        or op.parent_block() is not branch.true_region.block
        or lane_of(branch.cond, entry.args[5]) is None
        or len(branch.false_region.block.ops) != 1
    ):
        return None
    space = op.ptr.type.space.data  # type: ignore[attr-defined]
    for other in kernel.walk():
        if isinstance(other, ACCESSES) and other is not op:
            if other.ptr.type.space.data == space:  # type: ignore[attr-defined]
                return None
    return op


def is_pure_op(op: Operation) -> bool:
    """An `arith` or `math` op without tokens, or `mem.lea`."""
    if any(is_token(v) for v in (*op.operands, *op.results)):
        return False
    return op.dialect_name() in ("arith", "math") or isinstance(op, mem.LeaOp)
