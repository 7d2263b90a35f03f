"""Which form the cpu provider gives a kernel, chosen before any form rewrites it (as pocl's
`WorkitemHandlerChooser`): an analysis of the kernel as `cpu-workgroup-loops` has prepared it
(calls that wait inlined, `gpu.lane_id` as `item_id % 32`, a `cf` tail after the last barrier
outlined). The forms, fastest first:

- `item-loops`: no barrier and no warp operation, one block: `Fission` without barriers (item
  loops inline, guards as loop bounds, interchanged loops);
- `item-calls`: no barrier, but `cf` blocks or a local slot of a run-time size: the body stays a
  function, called per item in one loop;
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

from dataclasses import dataclass

from xdsl.dialects import func, scf
from xdsl.ir import Operation

from gpuir.dialects import mem
from gpuir.dialects.mem import LOCAL
from gpuir.lowering.cpu.fission import Fission
from gpuir.lowering.cpu.workgroups import Helpers, constant_index, first_barrier, space_of

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
        FISSION, f"the whole group reaches each barrier and warp operation ('{barrier.name}', …)"
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
