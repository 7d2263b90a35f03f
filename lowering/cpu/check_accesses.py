"""`cpu-check-accesses`: the instrumentation of `--provider cpu --check` (`CpuProvider(check=True)`).

Before the cpu lowering (`cpu-workgroup-loops`), in every kernel of a device module:
- each access to global, shared or local memory (`mem.load`, `mem.store`, `mem.atomic_rmw`,
  `mem.cmpxchg` through a `!mem.ptr<T, 1>`, `<T, 3>` or `<T, 5>`) is preceded by a call
  `@__gpuir_check_access(address, bytes, kind, value, group, item)`: its address, its store
  size, what it does (0 read, 1 write, 2 atomic, + 4 when the value written is not known: an
  atomic's, a pointer's, one wider than 8 bytes), the value a store writes (its bits, in an
  `i64`), and the work-group and work-item ids (+ 8 in the kind for local memory: bounds only);
- each barrier (`gpu.sync_work_items`, the entry and the exit of `gpu.synced_scope`,
  `gpu.workgroup_reduce`, `gpu.workgroup_scan`) is preceded by a call
  `@__gpuir_check_barrier(group, item)` (after it, for a synced scope's exit);
- each shared array and local slot (`mem.slot` / `mem.mslot` in space 3 or 5) is followed by a
  call `@__gpuir_check_slot(address, bytes)`: it is an allocation of its own, as in interp;
  each device-heap allocation (`mem.alloc` / `mem.malloc` in space 1) by
  `@__gpuir_check_heap_alloc(address, bytes)`, and each `mem.free` of one is preceded by
  `@__gpuir_check_heap_free(address)`;
- the functions a kernel calls that access memory are inlined first (their accesses then know
  the ids);
- the kernel is marked `gpu.checked`: `cpu-workgroup-loops` leaves a red zone after each of its
  shared arrays and local slots, so that an overrun of one is not an access to the next.

The calls go to the checker (`runtime/cpu/check.c`), which finds the suspect accesses (the cpu
lowering defines `@__gpuir_check_access` as `FAST_PATH`, the checker's common case inline, which
calls the checker's `__gpuir_check_slow` for the rest); the
provider runs a launch with one again under `interp` (`gpuir.runtime.cpu`). The calls are
`llvm.call`s of `i64` values (the address: the pointer cast to `!llvm.ptr<space>`, then
`llvm.ptrtoint`), which the rest of the cpu lowering keeps as they are.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, llvm
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    UnitAttr,
    UnrealizedConversionCastOp,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from gpuir.dialects import gpu, mem
from gpuir.dialects.mem import GLOBAL, LOCAL, SHARED, PtrType
from gpuir.lowering.cpu.workgroups import CHECKED_ATTR
from gpuir.lowering.llvm.conversion import FLOAT_TYPES, ptr_type, size_and_align

ACCESS = "__gpuir_check_access"
SLOW_ACCESS = "__gpuir_check_slow"
BARRIER = "__gpuir_check_barrier"
SLOT = "__gpuir_check_slot"
HEAP_ALLOC = "__gpuir_check_heap_alloc"
HEAP_FREE = "__gpuir_check_heap_free"
READ, WRITE, ATOMIC, UNKNOWN_VALUE, BOUNDS_ONLY = 0, 1, 2, 4, 8
CHECKED_SPACES = (GLOBAL, SHARED, LOCAL)
"""Local memory (5) is checked for bounds only: an item's own memory has no races."""
ACCESS_OPS = (mem.LoadOp, mem.StoreOp, mem.AtomicRmwOp, mem.CmpxchgOp)
BARRIER_OPS = (gpu.SyncWorkItemsOp, gpu.SyncedScopeOp, gpu.WorkgroupReduceOp, gpu.WorkgroupScanOp)


def check_accesses(module: ModuleOp, kernels: set[str]) -> None:
    """Instrument the kernels named `kernels` of the device module `module` in place (module
    docstring)."""
    from gpuir.lowering.cpu.blocks import inline_calls

    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    accessing = {
        name: f
        for name, f in functions.items()
        if name not in kernels and any(_checked(op) for op in f.walk())
    }
    declared = False
    for name in sorted(kernels):
        kernel = functions.get(name)
        if kernel is None or not kernel.body.blocks:
            continue
        if accessing:
            inline_calls(kernel, accessing)
        kernel.attributes[CHECKED_ATTR] = UnitAttr()  # its shared arrays get red zones
        group, item = kernel.body.blocks[0].args[4], kernel.body.blocks[0].args[5]
        for op in list(kernel.walk()):
            if _checked(op):
                _check_access(op, group, item)
            elif isinstance(op, BARRIER_OPS):
                _check_barrier(op, group, item)
            elif isinstance(op, mem.SlotOp | mem.MslotOp) and _space(op.res) in (SHARED, LOCAL):
                _check_allocation(op)
            elif isinstance(op, mem.AllocOp | mem.MallocOp) and _space(op.res) == GLOBAL:
                _check_allocation(op)
            elif isinstance(op, mem.FreeOp) and _space(op.ptr) == GLOBAL:
                b = Builder(InsertPoint.before(op))
                b.insert(llvm.CallOp(HEAP_FREE, _address(b, op.ptr)))
        declared = True
    if declared:
        _declare(module)


def _space(value: SSAValue) -> int | None:
    return value.type.space.data if isinstance(value.type, PtrType) else None


def _checked(op: Operation) -> bool:
    if not isinstance(op, ACCESS_OPS):
        return False
    ptr = op.operands[1].type
    return isinstance(ptr, PtrType) and ptr.space.data in CHECKED_SPACES


def _ids(b: Builder, group: SSAValue, item: SSAValue) -> list[SSAValue]:
    return [_to_i64(b, group), _to_i64(b, item)]


def _to_i64(b: Builder, value: SSAValue) -> SSAValue:
    if isinstance(value.type, IndexType):
        return b.insert(arith.IndexCastOp(value, i64)).result
    return value


def _constant(b: Builder, value: int) -> SSAValue:
    return b.insert(arith.ConstantOp(IntegerAttr(value, i64))).result


def _bits(b: Builder, value: SSAValue) -> SSAValue | None:
    """The bits of a stored scalar as an `i64` (None: not a scalar of at most 8 bytes)."""
    type_ = value.type
    if isinstance(type_, FLOAT_TYPES):
        width = type_.bitwidth
        bits = b.insert(arith.BitcastOp(value, IntegerType(width))).result
        return bits if width == 64 else b.insert(arith.ExtUIOp(bits, i64)).result
    if isinstance(type_, IndexType):
        return b.insert(arith.IndexCastOp(value, i64)).result
    if isinstance(type_, IntegerType):
        width = type_.width.data
        if width == 64:
            return value
        return b.insert(arith.ExtUIOp(value, i64)).result if width < 64 else None
    return None


def _check_access(op: Operation, group: SSAValue, item: SSAValue) -> None:
    ptr = op.operands[1]
    assert isinstance(ptr.type, PtrType)
    nbytes, _ = size_and_align(ptr.type.pointee, op)
    if isinstance(ptr.type.pointee, IntegerType):
        nbytes = (ptr.type.pointee.width.data + 7) // 8  # the store size: i1 is one byte
    b = Builder(InsertPoint.before(op))
    address = _address(b, ptr)
    value: SSAValue | None = None
    if isinstance(op, mem.StoreOp):
        kind = WRITE
        value = _bits(b, op.operands[2]) if nbytes <= 8 else None
        if value is None:
            kind |= UNKNOWN_VALUE
    elif isinstance(op, mem.LoadOp):
        kind = READ
    else:
        kind = ATOMIC | UNKNOWN_VALUE
    if ptr.type.space.data == LOCAL:
        kind |= BOUNDS_ONLY
    if value is None:
        value = _constant(b, 0)
    operands = [address, _constant(b, nbytes), _constant(b, kind), value, *_ids(b, group, item)]
    b.insert(llvm.CallOp(ACCESS, *operands))


def _check_barrier(op: Operation, group: SSAValue, item: SSAValue) -> None:
    b = Builder(InsertPoint.before(op))
    b.insert(llvm.CallOp(BARRIER, *_ids(b, group, item)))
    if isinstance(op, gpu.SyncedScopeOp):  # its exit is a barrier too
        after = Builder(InsertPoint.after(op))
        after.insert(llvm.CallOp(BARRIER, *_ids(after, group, item)))


def _address(b: Builder, ptr: SSAValue) -> SSAValue:
    """`ptr` as an `i64` (cast to `!llvm.ptr<space>`, then `llvm.ptrtoint`)."""
    assert isinstance(ptr.type, PtrType)
    as_llvm = b.insert(UnrealizedConversionCastOp.get([ptr], [ptr_type(ptr.type.space.data)]))
    return b.insert(llvm.PtrToIntOp(as_llvm.results[0], i64)).results[0]


def _check_allocation(op: mem.AllocOp | mem.MallocOp | mem.SlotOp | mem.MslotOp) -> None:
    """An allocation, its address and bytes: a device-heap one (`mem.alloc`, `mem.malloc`) is
    live until a `mem.free` of it; a shared array or a local slot is an allocation of its own
    (as interp has it)."""
    ptr = op.res
    assert isinstance(ptr.type, PtrType)
    b = Builder(InsertPoint.after(op))
    address = _address(b, ptr)
    if isinstance(op, mem.MallocOp | mem.MslotOp):
        nbytes = _to_i64(b, op.size)
    elif isinstance(op, mem.AllocOp) and op.extent is not None:
        pointee = ptr.type.pointee
        assert isinstance(pointee, mem.ArrayType)
        element = _constant(b, size_and_align(pointee.element_type, op)[0])
        nbytes = b.insert(arith.MuliOp(_to_i64(b, op.extent), element)).result
    else:
        nbytes = _constant(b, size_and_align(ptr.type.pointee, op)[0])
    callee = HEAP_ALLOC if isinstance(op, mem.AllocOp | mem.MallocOp) else SLOT
    b.insert(llvm.CallOp(callee, address, nbytes))


def _declare(module: ModuleOp) -> None:
    void = llvm.LLVMVoidType()
    for name, arity in ((ACCESS, 6), (BARRIER, 2), (SLOT, 2), (HEAP_ALLOC, 2), (HEAP_FREE, 1)):
        signature = llvm.LLVMFunctionType([i64] * arity, void)
        module.body.block.add_op(llvm.FuncOp(name, signature, linkage=llvm.LinkageAttr("external")))


class CpuCheckAccessesPass(ModulePass):
    """The instrumentation of `--check` on the device modules (module docstring)."""

    name = "cpu-check-accesses"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from gpuir.lowering.llvm.conversion import device_modules
        from gpuir.passes.device_code import kernels

        for module in device_modules(op, self.name):
            check_accesses(module, set(kernels(module)))


# The owners' bits (runtime/cpu/check.c), in the high 16 bits of an owner.
_OWN_READ, _OWN_WRITE, _OWN_VALUES, _OWN_SLOW, _OWN_LIVE = (b << 48 for b in (1, 2, 4, 8, 16))

FAST_PATH = f"""
; `@{ACCESS}` with the checker's common case inline (runtime/cpu/check.c, "owners"): a plain
; read or write of one or two aligned 4-byte words, each a live arena word that no other item
; touched in this launch (or only this item, in this stamp), updates the word's owner; a first
; write also logs the word's old value. Anything else calls the checker. `@gpuir_check_fast` is its `Fast` state.
@gpuir_check_fast = external global [9 x i64]
declare void @{SLOW_ACCESS}(i64, i64, i64, i64, i64, i64)

define void @{ACCESS}(i64 %address, i64 %nbytes, i64 %kind, i64 %value, i64 %group,
                               i64 %item) alwaysinline {{
entry:
  %plain = icmp ult i64 %kind, 2
  %four = icmp eq i64 %nbytes, 4
  %eight = icmp eq i64 %nbytes, 8
  %word = and i1 %four, %plain
  %words = and i1 %eight, %plain
  br i1 %word, label %one, label %not.one
one:
  call void @__gpuir_check_word(i64 %address, i64 %kind, i64 %value, i64 %group, i64 %item)
  ret void
not.one:
  br i1 %words, label %two, label %slow
two:
  call void @__gpuir_check_word(i64 %address, i64 %kind, i64 %value, i64 %group, i64 %item)
  %second = add i64 %address, 4
  %high = lshr i64 %value, 32
  call void @__gpuir_check_word(i64 %second, i64 %kind, i64 %high, i64 %group, i64 %item)
  ret void
slow:
  call void @{SLOW_ACCESS}(i64 %address, i64 %nbytes, i64 %kind, i64 %value, i64 %group,
                            i64 %item)
  ret void
}}

; One aligned word of a plain access (its value's low 32 bits are the word's).
define internal void @__gpuir_check_word(i64 %address, i64 %kind, i64 %value, i64 %group,
                                         i64 %item) alwaysinline {{
entry:
  %lo = load i64, ptr @gpuir_check_fast
  %span.at = getelementptr i8, ptr @gpuir_check_fast, i64 8
  %span = load i64, ptr %span.at
  %offset = sub i64 %address, %lo
  %in = icmp ult i64 %offset, %span
  %low = and i64 %address, 3
  %aligned = icmp eq i64 %low, 0
  %now.at = getelementptr i8, ptr @gpuir_check_fast, i64 24
  %group.now = load i64, ptr %now.at
  %entered = icmp eq i64 %group.now, %group
  %ok.a = and i1 %in, %aligned
  %ok = and i1 %ok.a, %entered
  br i1 %ok, label %cell, label %slow
cell:
  %shadow.at = getelementptr i8, ptr @gpuir_check_fast, i64 16
  %shadow = load ptr, ptr %shadow.at
  %word = lshr i64 %offset, 2
  %owner.at = getelementptr i64, ptr %shadow, i64 %word
  %owner = load i64, ptr %owner.at
  %epochs.at = getelementptr i8, ptr @gpuir_check_fast, i64 32
  %epochs = load ptr, ptr %epochs.at
  %epoch.at = getelementptr i32, ptr %epochs, i64 %item
  %epoch = load i32, ptr %epoch.at
  %base.at = getelementptr i8, ptr @gpuir_check_fast, i64 40
  %group.base = load i32, ptr %base.at
  %launch.at = getelementptr i8, ptr @gpuir_check_fast, i64 44
  %launch.base = load i32, ptr %launch.at
  %stamp.now = add i32 %group.base, %epoch
  %stamp.wide = zext i32 %stamp.now to i64
  %item.low = and i64 %item, 65535
  %item.high = shl i64 %item.low, 32
  %mine.bare = or i64 %stamp.wide, %item.high
  %mine = or i64 %mine.bare, {_OWN_LIVE}
  %stamp = trunc i64 %owner to i32
  %stale = icmp ult i32 %stamp, %launch.base
  %live.bit = and i64 %owner, {_OWN_LIVE}
  %live = icmp ne i64 %live.bit, 0
  %free = and i1 %stale, %live
  %key = and i64 %owner, {0xFFFFFFFFFFFF | _OWN_SLOW | _OWN_LIVE}
  %same = icmp eq i64 %key, %mine
  %writes = icmp ne i64 %kind, 0
  br i1 %writes, label %write, label %read
read:
  br i1 %free, label %read.claim, label %read.same
read.claim:
  %claimed = or i64 %mine, {_OWN_READ}
  store i64 %claimed, ptr %owner.at
  ret void
read.same:
  br i1 %same, label %read.again, label %slow
read.again:
  %read.owner = or i64 %owner, {_OWN_READ}
  store i64 %read.owner, ptr %owner.at
  ret void
write:
  br i1 %free, label %first, label %write.same
write.same:
  br i1 %same, label %write.mine, label %slow
write.mine:
  %written.bit = and i64 %owner, {_OWN_WRITE}
  %written = icmp ne i64 %written.bit, 0
  br i1 %written, label %write.again, label %first
write.again:
  %here = inttoptr i64 %address to ptr
  %was = load i32, ptr %here
  %new = trunc i64 %value to i32
  %differs = icmp ne i32 %was, %new
  %values = select i1 %differs, i64 {_OWN_VALUES}, i64 0
  %again = or i64 %owner, %values
  store i64 %again, ptr %owner.at
  ret void
first:
  %before = phi i64 [%mine, %write], [%owner, %write.mine]
  %log.at = getelementptr i8, ptr @gpuir_check_fast, i64 48
  %log = load ptr, ptr %log.at
  %count.at = getelementptr i8, ptr @gpuir_check_fast, i64 56
  %count = load i64, ptr %count.at
  %room.at = getelementptr i8, ptr @gpuir_check_fast, i64 64
  %room = load i64, ptr %room.at
  %full = icmp uge i64 %count, %room
  br i1 %full, label %slow, label %log.it
log.it:
  %entry.index = shl i64 %count, 1
  %entry.at = getelementptr i64, ptr %log, i64 %entry.index
  store i64 %address, ptr %entry.at
  %old.at = getelementptr i64, ptr %entry.at, i64 1
  %old.ptr = inttoptr i64 %address to ptr
  %old = load i32, ptr %old.ptr
  %old.wide = zext i32 %old to i64
  store i64 %old.wide, ptr %old.at
  %count.next = add i64 %count, 1
  store i64 %count.next, ptr %count.at
  %first.owner = or i64 %before, {_OWN_WRITE}
  store i64 %first.owner, ptr %owner.at
  ret void
slow:
  call void @{SLOW_ACCESS}(i64 %address, i64 4, i64 %kind, i64 %value, i64 %group, i64 %item)
  ret void
}}
"""
"""LLVM IR that defines `@__gpuir_check_access` for the cpu provider: linked into a checked
module before LLVM optimizes it (`gpuir.lowering.cpu.cpu_llvm`), so each call becomes the inline
fast path, and the checker's `__gpuir_check_slow` is called only off it."""
