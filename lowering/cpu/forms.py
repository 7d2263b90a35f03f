"""Which form the cpu provider gives a kernel, chosen before any form rewrites it (as pocl's
`WorkitemHandlerChooser`): an analysis of the kernel as `cpu-workgroup-loops` has prepared it
(calls that wait inlined, `gpu.lane_id` as `item_id % 32`, a `cf` tail after the last barrier
outlined). The forms, fastest first:

- `item-loops`: no barrier and no warp operation, one block: `Fission` without barriers (item
  loops inline, guards as loop bounds, interchanged loops);
- `item-calls`: no barrier, but `cf` blocks or a local slot of a run-time size: the body stays a
  function, called per item in one loop;
- `warp-vectors`: warp operations (`gpu.shuffle`, `gpu.ballot`), all at the top level of the
  kernel's one block, no barrier, and only ops with a form on a warp's 32 lanes as vectors
  (`warp_vector_misfit`): one warp after another, its lanes as LLVM vectors
  (`gpuir.lowering.cpu.warp_vectors`); not under `--check`, whose calls check each item;
- `fission`: every barrier and collective sits where the whole group reaches it together (the
  entry block, or `scf.for` / `scf.if` with uniform bounds and conditions), every warp
  operation (`gpu.shuffle`, `gpu.ballot`) where whole warps do (also under a condition or
  bounds the same for the 32 lanes of each warp, such as `item < 32`: that branch or loop runs
  once per warp): item loops between them (`gpuir.lowering.cpu.fission`), a warp operation a
  loop over the group's or the warp's lanes (`gpuir.lowering.cpu.warps`);
- `resumable`: any other (a barrier, or a warp operation, under a condition that varies
  between the items (within a warp, for a warp operation), in `scf.while`, in a `cf` block): `gpuir.lowering.cpu.resume`, whose run-time
  checks find the divergence that a varying condition may cause.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, IndexType, IntegerType
from xdsl.ir import Block, Operation, SSAValue

from gpuir.dialects import gpu, mem
from gpuir.dialects.mem import LOCAL
from gpuir.lowering.cpu.fission import Fission
from gpuir.lowering.cpu.workgroups import (
    CHECKED_ATTR,
    ITEM_ID,
    Helpers,
    constant_index,
    first_barrier,
    is_token,
    space_of,
)

WARP_VECTORS = "warp-vectors"
ITEM_LOOPS = "item-loops"
ITEM_CALLS = "item-calls"
FISSION = "fission"
RESUMABLE = "resumable"


@dataclass(frozen=True)
class Form:
    """A kernel's form (one of the names above), why, and the op that decided it (for
    `resumable`, the barrier or warp operation in `Fission`'s way; for `fission`, the first
    branch or loop that runs once per warp, if any)."""

    name: str
    why: str
    op: Operation | None = None


def choose_form(kernel: func.FuncOp, helpers: Helpers) -> Form:
    """The form of `kernel` (module docstring); nothing is rewritten."""
    misfit = warp_vector_misfit(kernel)
    if misfit is None:
        return Form(
            WARP_VECTORS,
            "whole warps reach its warp operations, and each of its ops has a form on a warp's "
            "lanes as vectors",
        )
    barrier = first_barrier(kernel)
    if barrier is None and not fissionable(kernel):
        return Form(ITEM_CALLS, "no barrier, but cf blocks or a local slot of a run-time size")
    if barrier is None:
        return Form(ITEM_LOOPS, "no barrier")
    fission = Fission(kernel, helpers)
    found = fission.placement()
    if found is not None:
        return Form(RESUMABLE, str(found), found.op)
    if fission.found_per_warp:
        op = fission.found_per_warp[0]
        what = "condition" if isinstance(op, scf.IfOp) else "bounds"
        return Form(
            FISSION,
            f"warp operations in '{op.name}' whose {what} is the same for the 32 lanes of each "
            "warp run once per warp; the whole group reaches each barrier",
            op,
        )
    return Form(
        FISSION,
        f"the whole group reaches each barrier and warp operation ('{barrier.name}', …); not "
        f"warp vectors: {misfit}",
        misfit.op,
    )


def fissionable(kernel: func.FuncOp) -> bool:
    """Whether a kernel without barriers is one block without local slots of a run-time size:
    then `Fission` makes its work-group function (item loops inline, guards as loop bounds,
    interchanged loops), else its body stays a function called per item."""
    if len(kernel.body.blocks) != 1:
        return False
    return not any(
        isinstance(op, mem.MslotOp) and space_of(op) == LOCAL and constant_index(op.size) is None
        for op in kernel.walk()
    )


# --- the warp-vector form --------------------------------------------------------------------------

WARP_VECTOR_OPS = (
    mem.LeaOp,
    mem.LoadOp,
    mem.StoreOp,
    mem.AtomicRmwOp,
    mem.CmpxchgOp,
    gpu.ShuffleOp,
    gpu.BallotOp,
    scf.IfOp,
    scf.ForOp,
    scf.YieldOp,
    func.ReturnOp,
)
"""The ops besides `arith` and `math` that `gpuir.lowering.cpu.warp_vectors` takes."""
PER_LANE_TYPES = (IntegerType, IndexType, Float16Type, Float32Type, Float64Type)
"""The types of the values that may differ between a warp's lanes (an LLVM vector each)."""


@dataclass(frozen=True)
class Misfit:
    """Why a kernel does not take the warp-vector form, and the op in the way (if one)."""

    why: str
    op: Operation | None = None

    def __str__(self) -> str:
        return self.why


def warp_vector_misfit(kernel: func.FuncOp) -> Misfit | None:
    """Why `kernel` cannot run in the warp-vector form, or None when it can: it has warp
    operations, all in its one block's top level (every warp reaches them with all its lanes),
    no barrier, and only ops that `gpuir.lowering.cpu.warp_vectors` takes, whose values that
    vary between lanes are numbers and addresses made by `mem.lea` from a uniform pointer."""
    if CHECKED_ATTR in kernel.attributes:
        return Misfit("under --check, whose calls check each item's accesses")
    if len(kernel.body.blocks) != 1:
        return Misfit("cf blocks")
    entry = kernel.body.blocks[0]
    warp_ops = [op for op in kernel.walk() if isinstance(op, gpu.WARP_OPS)]
    if not warp_ops:
        return Misfit("no warp operation")
    for op in warp_ops:
        parent = op.parent_op()
        while isinstance(parent, scf.ForOp):  # whose bounds must be the warp's (`LaneAnalysis`)
            parent = parent.parent_op()
        if parent is not kernel:
            where = parent.name if parent is not None else "?"
            return Misfit(
                f"'{op.name}' inside '{where}', not at the kernel's top level (nor in loops there)",
                op,
            )
    return LaneAnalysis(entry.args[ITEM_ID]).block(entry)


class LaneAnalysis:
    """Which values vary between a warp's lanes, and whether each op has a vector form."""

    def __init__(self, item_id: SSAValue):
        self.varying: set[SSAValue] = {item_id}

    def block(self, block: Block) -> Misfit | None:
        for op in block.ops:
            found = self.op(op)
            if found is not None:
                return found
        return None

    def op(self, op: Operation) -> Misfit | None:
        if op.dialect_name() not in ("arith", "math") and not isinstance(op, WARP_VECTOR_OPS):
            return Misfit(f"'{op.name}' has no form on a warp's lanes as vectors", op)
        if op.dialect_name() in ("arith", "math") and any(is_token(v) for v in op.operands):
            return Misfit(f"'{op.name}' on a memory token", op)
        varies = any(v in self.varying for v in op.operands) or isinstance(
            op, gpu.ShuffleOp | mem.AtomicRmwOp | mem.CmpxchgOp
        )
        if isinstance(op, gpu.BallotOp):
            varies = False  # the warp's mask: the same for its lanes
        if isinstance(op, mem.LeaOp) and op.ptr in self.varying:
            return Misfit(f"'{op.name}' of an address that differs between lanes", op)
        if isinstance(op, mem.StoreOp | mem.AtomicRmwOp) and not self.per_lane(op.value):
            return Misfit(f"'{op.name}' of a {op.value.type} that differs between lanes", op)
        if isinstance(op, scf.ForOp):
            return self.loop(op)
        if isinstance(op, scf.IfOp):
            for region in op.regions:
                found = self.block(region.block)
                if found is not None:
                    return found
            varies = varies or any(
                y in self.varying
                for region in op.regions
                for y in region.block.last_op.operands  # type: ignore[union-attr]
            )
        if not varies:
            return None
        return self.vary(op.results, op)

    def per_lane(self, value: SSAValue) -> bool:
        """Whether `value` is uniform, or a per-lane value of a type that lanes can hold."""
        return value not in self.varying or isinstance(value.type, PER_LANE_TYPES)

    def loop(self, op: scf.ForOp) -> Misfit | None:
        """An `scf.for` whose bounds are the same for a warp's lanes: which carried values
        vary (a fixed point over its body)."""
        if any(v in self.varying for v in (op.lb, op.ub, op.step)):
            return Misfit(f"'{op.name}' whose bounds differ between a warp's lanes", op)
        body = op.body.block
        carried = body.args[1:]
        self.varying.update(
            a for a, init in zip(carried, op.iter_args, strict=True) if init in self.varying
        )
        while True:
            found = self.block(body)
            if found is not None:
                return found
            yielded = body.last_op.operands  # type: ignore[union-attr]
            grown = [
                a
                for a, y in zip(carried, yielded, strict=True)
                if y in self.varying and a not in self.varying
            ]
            if not grown:
                break
            self.varying.update(grown)
        varying = [r for r, a in zip(op.results, carried, strict=True) if a in self.varying]
        return self.vary(varying, op)

    def vary(self, results: Sequence[SSAValue], op: Operation) -> Misfit | None:
        """Mark `results` of `op` per lane; one of a type that lanes cannot hold is a misfit."""
        for result in results:
            if is_token(result):
                continue
            if not isinstance(result.type, PER_LANE_TYPES) and not isinstance(op, mem.LeaOp):
                return Misfit(f"'{op.name}' makes a {result.type} per lane", op)
            self.varying.add(result)
        return None
