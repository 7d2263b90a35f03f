"""`convert-mem-to-llvm`: the `mem` ops of device code to the llvm dialect.

A `!mem.ptr<T, a>` becomes an `!llvm.ptr<a>`; every op's result token is its operand token (the
tokens stay until `erase-mem-tokens`). Per op:

| op | becomes |
| --- | --- |
| `mem.load` / `mem.store` | `llvm.load` / `llvm.store` through the `addrspace(a)` pointer (an `index` is an `i64` in memory: truncated after a load, sign-extended before a store when index values are `i32`) |
| `mem.lea %p, %i` | `llvm.getelementptr inbounds %p[%i]` over the element type (an `i32` index is sign-extended by the GEP) |
| `mem.slot` / `mem.mslot`, space 3 | the address of an `internal addrspace(3)` global, one per op (`@__shared_<function>_<n>`); a `mem.mslot` needs a constant size |
| `mem.slot` / `mem.mslot`, spaces 5 and 0 | an `llvm.alloca` (at the function's entry when its size is static), then `llvm.addrspacecast` to `addrspace(5)` for space 5 |
| `mem.alloc` / `mem.malloc`, spaces 1 and 0 | a call of the device `malloc(i64) -> ptr` (size in bytes, an `i32` index sign-extended), then `llvm.addrspacecast` to `addrspace(1)` for space 1 |
| `mem.free`, spaces 1 and 0 | `llvm.addrspacecast` to the generic space, a call of the device `free(ptr)` |
| `mem.remem` | its operand |

Spaces where an op makes no sense (heap ops in 3, 4 or 5, slots in 1 or 4) are errors, as in
`check-addr-spaces`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    i1,
    i8,
    i64,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from gpuir.dialects import mem
from gpuir.dialects.mem import GLOBAL, HOST, LOCAL, SHARED, SPACE_NAMES, ArrayType, PtrType
from gpuir.ir.data_layout import align_of
from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import Counter, Statistic
from gpuir.lowering.llvm.conversion import (
    DeviceModulePass,
    constant,
    declare_function,
    element_type,
    from_llvm,
    from_memory,
    parent_module,
    ptr_type,
    require_llvm_type,
    size_and_align,
    to_llvm,
    to_memory,
)
from gpuir.lowering.llvm.llvm_ext import AddrSpaceCastOp
from gpuir.passes.locations import rewrite_once

INBOUNDS_FLAGS = 3
"""MLIR's `GEPNoWrapFlags::inbounds` (inboundsFlag | nusw); xDSL spells it as a unit property."""
GENERIC = HOST
"""Address space 0 is the host's in gpuir and the generic space on the device."""


def space_error(op: Operation, space: int) -> OpError:
    return OpError(
        op, f"'{op.name}' cannot be used in address space {space} ({SPACE_NAMES[space]})"
    )


def space_cast(b: Builder, value: SSAValue, space: int) -> SSAValue:
    """`value` (an `!llvm.ptr<…>`) cast to `space` when it is in another one."""
    assert isinstance(value.type, llvm.LLVMPointerType)
    if value.type == ptr_type(space):
        return value
    return b.insert(AddrSpaceCastOp(value, ptr_type(space))).res


def enclosing_function(op: Operation) -> FuncOp:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, FuncOp):
        parent = parent.parent_op()
    if parent is None:
        raise OpError(op, f"'{op.name}' must be inside a function to be lowered")
    return parent


def fresh_symbol(module: ModuleOp, base: str) -> str:
    n = 0
    while SymbolTable.lookup_symbol(module, f"{base}_{n}") is not None:
        n += 1
    return f"{base}_{n}"


def constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def vector_align(type_: Attribute) -> int | None:
    """A vector's alignment in gpuir's data layout (at most 16 bytes: a `vector<8xf32>` that a
    work-item array or slot holds is 16-aligned, where LLVM's own would be 32); None for any
    other type, whose alignment is LLVM's."""
    return align_of(type_) if isinstance(type_, VectorType) else None


class LoadLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mem.LoadOp, rewriter: PatternRewriter):
        assert isinstance(op.ptr.type, PtrType)
        ptr = to_llvm(rewriter, op.ptr, op)
        pointee = op.ptr.type.pointee
        load = rewriter.insert(llvm.LoadOp(ptr, element_type(pointee, op), vector_align(pointee)))
        value = from_memory(rewriter, load.dereferenced_value, op.res.type, op)
        rewriter.replace(op, [], [op.mem, value])


class StoreLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mem.StoreOp, rewriter: PatternRewriter):
        ptr = to_llvm(rewriter, op.ptr, op)
        value = to_memory(rewriter, op.value, op)
        rewriter.insert(llvm.StoreOp(value, ptr, vector_align(op.value.type)))
        rewriter.replace(op, [], [op.mem])


LLVM_ATOMICS = {"add": "add", "max": "max", "min": "min", "xchg": "xchg"}
LLVM_FLOAT_ATOMICS = {"add": "fadd", "max": "fmax", "min": "fmin", "xchg": "xchg"}


class AtomicRmwLowering(RewritePattern):
    """`mem.atomic_rmw` → `llvm.atomicrmw … monotonic` (relaxed, as CUDA's `atomicAdd`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mem.AtomicRmwOp, rewriter: PatternRewriter):
        from gpuir.lowering.llvm.llvm_ext import AtomicRMWOp

        kind = op.kind.data
        is_float = isinstance(op.value.type, AnyFloat)
        bin_op = LLVM_FLOAT_ATOMICS[kind] if is_float else LLVM_ATOMICS.get(kind, kind)
        ptr = to_llvm(rewriter, op.ptr, op)
        value = to_memory(rewriter, op.value, op)
        old = rewriter.insert(AtomicRMWOp(bin_op, ptr, value)).res
        rewriter.replace(op, [], [op.mem, from_memory(rewriter, old, op.res.type, op)])


class CmpxchgLowering(RewritePattern):
    """`mem.cmpxchg` → `llvm.cmpxchg … monotonic monotonic` and its two fields; of a float, on
    its bits (an integer of its width, as LLVM's cmpxchg takes)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mem.CmpxchgOp, rewriter: PatternRewriter):
        from gpuir.lowering.llvm.llvm_ext import CmpXchgOp

        ptr = to_llvm(rewriter, op.ptr, op)
        expected = to_memory(rewriter, op.expected, op)
        desired = to_memory(rewriter, op.desired, op)
        float_type = expected.type if isinstance(expected.type, AnyFloat) else None
        if float_type is not None:
            bits = IntegerType(float_type.bitwidth)
            expected = rewriter.insert(llvm.BitcastOp(expected, bits)).result
            desired = rewriter.insert(llvm.BitcastOp(desired, bits)).result
        pair = rewriter.insert(CmpXchgOp(ptr, expected, desired)).res
        old = rewriter.insert(
            llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [0]), pair, expected.type)
        ).res
        if float_type is not None:
            old = rewriter.insert(llvm.BitcastOp(old, float_type)).result
        stored = rewriter.insert(
            llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [1]), pair, i1)
        ).res
        rewriter.replace(op, [], [op.mem, from_memory(rewriter, old, op.res.type, op), stored])


class LeaLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mem.LeaOp, rewriter: PatternRewriter):
        assert isinstance(op.ptr.type, PtrType)
        ptr = to_llvm(rewriter, op.ptr, op)
        index = to_llvm(rewriter, op.index, op)
        gep = rewriter.insert(
            llvm.GEPOp.from_mixed_indices(
                ptr,
                [index],
                element_type(op.ptr.type.pointee, op),
                result_type=ptr_type(op.ptr.type.space.data),
                inbounds=True,
            )
        )
        gep.properties["noWrapFlags"] = IntegerAttr(INBOUNDS_FLAGS, 32)  # MLIR's spelling of it
        rewriter.replace(op, [], [from_llvm(rewriter, gep.result, op.res.type)])


def shared_global(op: mem.SlotOp | mem.MslotOp, pointee: Attribute, align: int) -> llvm.AddressOfOp:
    """An `internal addrspace(3)` global for the slot `op`; its address."""
    function = enclosing_function(op)
    module = parent_module(function)
    name = fresh_symbol(module, f"__shared_{function.sym_name.data}")
    glob = llvm.GlobalOp(pointee, name, "internal", addr_space=SHARED, alignment=align)
    Rewriter.insert_op(glob, InsertPoint.before(function))
    return llvm.AddressOfOp(name, ptr_type(SHARED))


def entry_alloca(op: Operation, pointee: Attribute, align: int, space: int) -> SSAValue:
    """A static `llvm.alloca` of one `pointee` at the entry of the function, in `space`."""
    entry = enclosing_function(op).body.blocks[0]
    b = Builder(InsertPoint.at_start(entry))
    one = constant(b, 1)
    alloca = b.insert(llvm.AllocaOp(one, pointee, alignment=align))
    return space_cast(b, alloca.res, space)


def slot_pointee(op: mem.SlotOp | mem.MslotOp) -> tuple[Attribute | None, int]:
    """The llvm type of what a slot holds (bytes for a `mem.mslot` of constant size; None for
    one of another size) and its alignment."""
    if isinstance(op, mem.MslotOp):
        size = constant_index(op.size)
        return (None if size is None else llvm.LLVMArrayType(size, i8)), 16
    assert isinstance(op.res.type, PtrType)
    pointee = require_llvm_type(op.res.type.pointee, op)
    return pointee, size_and_align(pointee, op)[1]


@dataclass(frozen=True)
class SlotLowering(RewritePattern):
    """`mem.slot` / `mem.mslot`: a shared global (counted in `shared`), or an alloca."""

    shared: Counter
    OP_TYPES = (mem.SlotOp, mem.MslotOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if not isinstance(op, mem.SlotOp | mem.MslotOp):
            return
        assert isinstance(op.res.type, PtrType)
        space = op.res.type.space.data
        pointee, align = slot_pointee(op)
        if space == SHARED:
            if pointee is None:
                raise OpError(op, f"'{op.name}' in shared memory needs a constant size")
            address = rewriter.insert(shared_global(op, pointee, align)).result
            self.shared.add()
        elif space in (LOCAL, GENERIC) and pointee is not None:
            address = entry_alloca(op, pointee, align, space)
        elif space in (LOCAL, GENERIC):
            assert isinstance(op, mem.MslotOp)
            count = to_llvm(rewriter, op.size, op)
            alloca = rewriter.insert(llvm.AllocaOp(count, i8, alignment=align))
            address = space_cast(rewriter, alloca.res, space)
        else:
            raise space_error(op, space)
        rewriter.replace(op, [], [op.mem, from_llvm(rewriter, address, op.res.type)])


def heap_space(op: Operation, space: int) -> int:
    if space not in (GLOBAL, GENERIC):
        raise space_error(op, space)
    return space


def wide(rewriter: PatternRewriter, value: SSAValue) -> SSAValue:
    """An index value as the `i64` that sizes take: sign-extended when it is narrower."""
    if value.type == i64:
        return value
    return rewriter.insert(llvm.SExtOp(value, i64)).results[0]


def call_malloc(rewriter: PatternRewriter, op: Operation, size: SSAValue, space: int) -> SSAValue:
    declare_function(parent_module(op), "malloc", [i64], ptr_type(GENERIC), op)
    call = rewriter.insert(llvm.CallOp("malloc", size, return_type=ptr_type(GENERIC)))
    assert call.returned is not None
    return space_cast(rewriter, call.returned, space)


class AllocLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mem.AllocOp, rewriter: PatternRewriter):
        assert isinstance(op.res.type, PtrType)
        space = heap_space(op, op.res.type.space.data)
        pointee = op.res.type.pointee
        if isinstance(pointee, ArrayType) and pointee.is_dynamic:
            assert op.extent is not None
            element_size, _ = size_and_align(pointee.element_type, op)
            extent = wide(rewriter, to_llvm(rewriter, op.extent, op))
            size = rewriter.insert(llvm.MulOp(extent, constant(rewriter, element_size))).res
        else:
            size = constant(rewriter, size_and_align(pointee, op)[0])
        address = call_malloc(rewriter, op, size, space)
        rewriter.replace(op, [], [op.mem, from_llvm(rewriter, address, op.res.type)])


class MallocLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mem.MallocOp, rewriter: PatternRewriter):
        assert isinstance(op.res.type, PtrType)
        space = heap_space(op, op.res.type.space.data)
        address = call_malloc(rewriter, op, wide(rewriter, to_llvm(rewriter, op.size, op)), space)
        rewriter.replace(op, [], [op.mem, from_llvm(rewriter, address, op.res.type)])


class FreeLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mem.FreeOp, rewriter: PatternRewriter):
        assert isinstance(op.ptr.type, PtrType)
        heap_space(op, op.ptr.type.space.data)
        declare_function(parent_module(op), "free", [ptr_type(GENERIC)], None, op)
        address = space_cast(rewriter, to_llvm(rewriter, op.ptr, op), GENERIC)
        rewriter.insert(llvm.CallOp("free", address))
        rewriter.replace(op, [], [op.mem])


class RememLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mem.RememOp, rewriter: PatternRewriter):
        rewriter.replace(op, [], [op.mem])


@dataclass(frozen=True)
class ConvertMemToLlvmPass(DeviceModulePass):
    """`mem` ops to loads, stores, GEPs, globals, allocas and malloc/free calls."""

    name = "convert-mem-to-llvm"

    lowered = Statistic("num-ops-lowered", "Number of mem ops lowered to the llvm dialect")
    shared = Statistic("num-shared-globals", "Number of shared-memory slots made globals")

    def lower_module(self, module: ModuleOp) -> None:
        patterns = [
            LoadLowering(),
            StoreLowering(),
            AtomicRmwLowering(),
            CmpxchgLowering(),
            LeaLowering(),
            SlotLowering(self.shared),
            AllocLowering(),
            MallocLowering(),
            FreeLowering(),
            RememLowering(),
        ]
        rewrite_once(module, patterns, self.lowered)
