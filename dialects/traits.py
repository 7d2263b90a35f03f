"""What passes, lowerings and providers ask of an op, declared on the op as a trait.

- `WorkgroupBarrier`: the op waits until every work-item of its group reaches it (the barrier,
  the collectives, a synced scope's entry and exit);
- `WarpCollective`: it waits for the other lanes of its warp (the warp operations);
- memory effects are xDSL's traits (`MemoryReadEffect`, `MemoryWriteEffect`,
  `MemoryAllocEffect`, `MemoryFreeEffect`, `Pure`), asked with `reads`, `writes`, `frees` and
  `allocates`.

So a new op states its facts where it is defined, and every rule that depends on one (where
interp's work-items wait, which ops the divergence check follows, which accesses the cpu
provider's `--check` instruments) finds it there.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.traits import MemoryEffectKind, OpTrait, has_effects


class WorkgroupBarrier(OpTrait):
    """Every work-item of the group waits at this op for the others."""


class WarpCollective(OpTrait):
    """Every lane of the warp waits at this op for the others."""


def is_barrier(op: Operation) -> bool:
    return op.has_trait(WorkgroupBarrier)


def is_warp_op(op: Operation) -> bool:
    return op.has_trait(WarpCollective)


def waits(op: Operation) -> bool:
    """Whether a work-item stops at `op` until others arrive (its group's, or its warp's)."""
    return op.has_trait(WorkgroupBarrier) or op.has_trait(WarpCollective)


def reads(op: Operation) -> bool:
    return has_effects(op, MemoryEffectKind.READ)


def writes(op: Operation) -> bool:
    return has_effects(op, MemoryEffectKind.WRITE)


def frees(op: Operation) -> bool:
    return has_effects(op, MemoryEffectKind.FREE)


def allocates(op: Operation) -> bool:
    return has_effects(op, MemoryEffectKind.ALLOC)
