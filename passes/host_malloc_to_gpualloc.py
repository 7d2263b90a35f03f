"""`host-malloc-to-gpualloc`: host allocations of global memory become device allocations
(MimIR's `gpu.host_malloc2gpualloc_repl`).

In host code, `mem.alloc`/`mem.malloc` in address space 1 become `gpu.alloc.block` and
`mem.free` in space 1 becomes `gpu.free.block`; other address spaces are left alone. Host code
is every function that is not device code (`gpuir.passes.device_code`), and everything outside
functions, in a module without the `gpu.device` attribute: `split-apply` runs this pass on
`@host`, where everything is host code. Device code keeps its allocations (a space-1 `mem.malloc`
in a kernel is a device-side heap allocation), and so does a function that both sides call until
`split-apply` has copied it into `@host`.

The tokens stay as they are: `gpu.alloc.block` takes and returns the same `!mem.M<1>`.

`mem.alloc` keeps its extent operand. MimIR drops `mem.malloc`'s byte size, and so do we for a
pointee of static size; a `mem.malloc` of `!mem.array<? x T>` has no extent operand to keep, so
the extent is computed as `size / sizeof(T)` (`arith.divui`, rounding down), with the sizes a
64-bit target gives: integers and floats ceil(bits / 8) bytes, `index` and pointers 8, a static
array N times its element. An element type of unknown or zero size is an error.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    FixedBitwidthType,
    IndexType,
    IntegerAttr,
    ModuleOp,
)
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
)

from gpuir.dialects.gpu import DEVICE_ATTR, AllocBlockOp, FreeBlockOp
from gpuir.dialects.mem import GLOBAL, AllocOp, ArrayType, FreeOp, MallocOp, PtrType
from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import Statistic
from gpuir.passes.device_code import device_functions, functions
from gpuir.passes.locations import apply_patterns, keeping

POINTER_SIZE = 8


def device_code(root: ModuleOp) -> frozenset[Operation]:
    """The ops whose bodies are device code: device modules and the device functions of every
    other module in `root`."""
    found: set[Operation] = set()
    for module in root.walk():
        if not isinstance(module, ModuleOp):
            continue
        if DEVICE_ATTR in module.attributes:
            found.add(module)
        else:
            funcs = functions(module)
            found |= {funcs[name] for name in device_functions(module)}
    return frozenset(found)


def in_device_code(op: Operation, device: frozenset[Operation]) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if parent in device:
            return True
        parent = parent.parent_op()
    return False


def byte_size(type_: Attribute) -> int | None:
    """The size of a `type_` in memory, or None where it is not known."""
    if isinstance(type_, FixedBitwidthType):
        return type_.size
    if isinstance(type_, IndexType | PtrType):
        return POINTER_SIZE
    if isinstance(type_, ArrayType) and not type_.is_dynamic:
        element = byte_size(type_.element_type)
        return None if element is None else type_.size.data * element
    return None


def global_pointer(op: AllocOp | MallocOp | FreeOp) -> PtrType | None:
    """The op's pointer type if it is in global memory."""
    ptr = op.ptr.type if isinstance(op, FreeOp) else op.res.type
    assert isinstance(ptr, PtrType)
    return ptr if ptr.space.data == GLOBAL else None


@dataclass(frozen=True)
class HostHeapToGpu(RewritePattern):
    """A heap op (an `OP`) of global memory in host code (not in `device`) becomes the ops of
    `replacement`."""

    device: frozenset[Operation]
    OP: ClassVar[type[AllocOp | MallocOp | FreeOp]]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, self.OP):
            return
        if (ptr := global_pointer(op)) is None or in_device_code(op, self.device):
            return
        rewriter.replace(op, self.replacement(op, ptr))

    @abstractmethod
    def replacement(self, op: Any, ptr: PtrType) -> list[Operation]: ...


class HostAllocToGpuAlloc(HostHeapToGpu):
    OP = AllocOp
    OP_TYPES = (AllocOp,)

    def replacement(self, op: AllocOp, ptr: PtrType) -> list[Operation]:
        return [AllocBlockOp(op.mem, ptr, op.extent)]


class HostMallocToGpuAlloc(HostHeapToGpu):
    OP = MallocOp
    OP_TYPES = (MallocOp,)

    def replacement(self, op: MallocOp, ptr: PtrType) -> list[Operation]:
        array = ptr.pointee
        if not (isinstance(array, ArrayType) and array.is_dynamic):
            return [AllocBlockOp(op.mem, ptr)]
        element_size = byte_size(array.element_type)
        if not element_size:
            raise OpError(
                op,
                f"cannot turn the byte size of `{op.name}` into an extent of {array}: "
                f"{array.element_type} has no known non-zero size",
            )
        element_bytes = arith.ConstantOp(IntegerAttr(element_size, IndexType()))
        extent = arith.DivUIOp(op.size, element_bytes)
        return [element_bytes, extent, AllocBlockOp(op.mem, ptr, extent.result)]


class HostFreeToGpuFree(HostHeapToGpu):
    OP = FreeOp
    OP_TYPES = (FreeOp,)

    def replacement(self, op: FreeOp, ptr: PtrType) -> list[Operation]:
        return [FreeBlockOp(op.mem, op.ptr)]


@dataclass(frozen=True)
class HostMallocToGpuAllocPass(ModulePass):
    """Rewrite host `mem.alloc`, `mem.malloc` and `mem.free` of global memory into
    `gpu.alloc.block` and `gpu.free.block`."""

    name = "host-malloc-to-gpualloc"

    allocs = Statistic("num-allocs-rewritten", "Number of mem.alloc ops made gpu.alloc.block")
    mallocs = Statistic("num-mallocs-rewritten", "Number of mem.malloc ops made gpu.alloc.block")
    frees = Statistic("num-frees-rewritten", "Number of mem.free ops made gpu.free.block")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_code(op)
        patterns = [
            *keeping(self.allocs, HostAllocToGpuAlloc(device)),
            *keeping(self.mallocs, HostMallocToGpuAlloc(device)),
            *keeping(self.frees, HostFreeToGpuFree(device)),
        ]
        apply_patterns(op, patterns)
