"""`check-addr-spaces`: reject memory ops in address spaces where they cannot work (MimIR's
`gpu.check_addr_spaces_repl`).

- `mem.alloc`, `mem.malloc`, `mem.free` in 3 (shared), 4 (const), 5 (local): only host and global
  memory have a heap (a space-1 allocation in device code is a device-side `malloc`);
- `mem.slot`, `mem.mslot` in 1 (global) and 4 (const): slots live in host, shared or local memory;
- `mem.store` in 4: const memory is read-only.

The pass inspects and never rewrites. It reports the first violation in program order, anchored
at the op, as MimIR's newer message: "`mem.malloc` cannot be used in address space 3: `T`", where
`T` is the op's pointer type. (MimIR checks `malloc`/`mslot` after `alloc2malloc`; we have no such
step, so `alloc`/`slot` are checked as themselves.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from gpuir.dialects.mem import (
    CONST,
    GLOBAL,
    LOCAL,
    SHARED,
    AllocOp,
    FreeOp,
    MallocOp,
    MslotOp,
    PtrType,
    SlotOp,
    StoreOp,
)
from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import Statistic

NO_HEAP = frozenset({SHARED, CONST, LOCAL})
NO_SLOT = frozenset({GLOBAL, CONST})
READ_ONLY = frozenset({CONST})

FORBIDDEN: dict[type[Operation], frozenset[int]] = {
    AllocOp: NO_HEAP,
    MallocOp: NO_HEAP,
    FreeOp: NO_HEAP,
    SlotOp: NO_SLOT,
    MslotOp: NO_SLOT,
    StoreOp: READ_ONLY,
}


def pointer_type(op: Operation) -> PtrType:
    """The pointer an allocation returns, or that a free or store goes through."""
    ptr = op.ptr.type if isinstance(op, FreeOp | StoreOp) else op.res.type
    assert isinstance(ptr, PtrType)  # the ops' definitions guarantee it
    return ptr


def check_op(op: Operation) -> bool:
    """Whether `op` is one of the ops the pass checks; raise at it when it breaks a rule."""
    forbidden = FORBIDDEN.get(type(op))
    if forbidden is None:
        return False
    ptr = pointer_type(op)
    space = ptr.space.data
    if space in forbidden:
        raise OpError(op, f"`{op.name}` cannot be used in address space {space}: `{ptr}`")
    return True


@dataclass(frozen=True)
class CheckAddrSpacesPass(ModulePass):
    """Reject heap, slot and store ops in address spaces that do not support them."""

    name = "check-addr-spaces"
    PRESERVES_IR: ClassVar[bool] = True
    """An analysis: it reports and leaves the IR as it is (not verified again after it)."""

    checked = Statistic("num-ops-checked", "Number of heap, slot and store ops checked")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            if check_op(inner):
                self.checked.add()
