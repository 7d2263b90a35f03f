"""`convert-gpu-host-to-llvm`: the `gpu` ops of host code (and its heap ops) to calls of the
runtime's C ABI (`gpuir.lowering.host.host_abi`, `runtime/gpuir_runtime.h`).

Per op (every call passes the op's id last, `host_abi.OP_ID_ATTR`, numbered by `number_ops`):

| op | becomes |
| --- | --- |
| `gpu.init` / `gpu.auto_init` | `gpuirInit(op)`; the three result tokens are the operand token |
| `gpu.deinit` / `gpu.auto_deinit` | `gpuirDeinit(op)` |
| `gpu.default_stream` | a null `!llvm.ptr` (the default stream) |
| `gpu.stream_init` | `gpuirStreamCreate(op)`, stored into the slot |
| `gpu.stream_sync` / `gpu.stream_deinit` | `gpuirStreamSynchronize` / `gpuirStreamDestroy` |
| `gpu.alloc.block` / `.asyn` | `gpuirMemAlloc(nbytes, op)` / `gpuirMemAllocAsync(nbytes, stream, op)` (a `?` array: extent × element size) |
| `gpu.free.block` / `.asyn` | `gpuirMemFree` / `gpuirMemFreeAsync` |
| `gpu.copy_to_device.*` / `gpu.copy_to_host.*` | `gpuirMemcpyHtoD[Async]` / `gpuirMemcpyDtoH[Async]`(dst, src, nbytes): the pointee's size, or -1 for a `!mem.array<? x T>` (the runtime copies what the source allocation holds from the pointer on, as the host executor does) |
| `gpu.launch` | the arguments into 8-byte slots (an `alloca` at the function's entry; the value in the slot's low bytes, a struct stored in a slot of its own and its address in the argument's slot), then `gpuirLaunchKernel(name, n_groups, n_items, smem_bytes, stream, slots, count, op)`; the kernel's name is a constant string |
| `mem.print_memref` | `gpuirPrintMemref(ptr, op)`: the runtime reads the op's type for the shape |
| `mem.alloc` / `mem.malloc` / `mem.free`, space 0 | `gpuirHostAlloc(nbytes, op)` / `gpuirHostFree(ptr, op)`: the runtime knows each host allocation's size (for a `?` copy) and finds a double free |
| the same, space 1 (host code that `host-malloc-to-gpualloc` did not see) | `gpuirMemAlloc` / `gpuirMemFree` |

Host code reads and writes host memory only: a `mem.load` or `mem.store` in another space is an
error at the op (the host executor's words). The composites must be expanded first
(`expand-gpu-composites`), and buffers lowered (`buffer-lower-ptr`); a `gpu` op that is left is
an error at the op.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import cf, llvm
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, f64, i8, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from gpuir.dialects import gpu, mem
from gpuir.dialects.mem import GLOBAL, HOST, SPACE_NAMES, ArrayType, PtrType
from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import Counter, Statistic
from gpuir.lowering.host.host_abi import BY_NAME, OP_ID_ATTR, runtime_ops
from gpuir.lowering.llvm.conversion import (
    constant,
    declare_function,
    from_llvm,
    host_module,
    llvm_type,
    lowering_host,
    parent_module,
    ptr_type,
    size_and_align,
    to_llvm,
    to_memory,
)
from gpuir.lowering.llvm.mem_to_llvm import entry_alloca, space_cast, wide
from gpuir.passes.locations import rewrite_once

ABI_TYPES: dict[str, Attribute] = {"i64": i64, "i32": i32, "f64": f64, "ptr": ptr_type(HOST)}


def number_ops(module: Operation) -> None:
    """Give each runtime op of `module` its id (`OP_ID_ATTR`): its position in `runtime_ops`."""
    for i, op in enumerate(runtime_ops(module)):
        op.attributes[OP_ID_ATTR] = IntegerAttr(i, i64)


def call_runtime(
    b: PatternRewriter, op: Operation, name: str, args: Sequence[SSAValue]
) -> SSAValue | None:
    """`name(args…, op id)`, declared in the module; its result, if any."""
    abi = BY_NAME[name]
    inputs = [ABI_TYPES[t] for t in abi.params]
    output = None if abi.result is None else ABI_TYPES[abi.result]
    declare_function(parent_module(op), name, inputs, output, op)
    op_id = op.attributes.get(OP_ID_ATTR)
    ident = op_id.value.data if isinstance(op_id, IntegerAttr) else -1
    call = b.insert(llvm.CallOp(name, *args, constant(b, ident), return_type=output))
    return call.returned


def generic(b: PatternRewriter, value: SSAValue, op: Operation) -> SSAValue:
    """A pointer (or stream) operand as the ABI's generic `ptr`."""
    return space_cast(b, to_llvm(b, value, op), HOST)


def static_bytes(pointee: Attribute, op: Operation) -> int | None:
    """The bytes of one `pointee`; None for a `!mem.array<? x T>`."""
    if isinstance(pointee, ArrayType) and pointee.is_dynamic:
        return None
    return size_and_align(pointee, op)[0]


def alloc_bytes(
    b: PatternRewriter, op: Operation, pointee: Attribute, extent: SSAValue | None
) -> SSAValue:
    """The bytes an allocation of `pointee` takes: static, or extent × element size."""
    size = static_bytes(pointee, op)
    if size is not None:
        return constant(b, size)
    assert isinstance(pointee, ArrayType) and extent is not None
    element, _ = size_and_align(pointee.element_type, op)
    count = wide(b, to_llvm(b, extent, op))
    return b.insert(llvm.MulOp(count, constant(b, element))).res


def result_pointer(b: PatternRewriter, address: SSAValue | None, result: SSAValue) -> SSAValue:
    assert address is not None and isinstance(result.type, PtrType)
    return from_llvm(b, space_cast(b, address, result.type.space.data), result.type)


class InitLowering(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if isinstance(op, gpu.InitOp | gpu.AutoInitOp):
            call_runtime(rewriter, op, "gpuirInit", [])
            rewriter.replace(op, [], [op.mem, op.mem, op.mem])
        elif isinstance(op, gpu.DeinitOp | gpu.AutoDeinitOp):
            call_runtime(rewriter, op, "gpuirDeinit", [])
            rewriter.replace(op, [], [op.m0])


class StreamLowering(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if isinstance(op, gpu.DefaultStreamOp):
            null = rewriter.insert(llvm.ZeroOp(result_types=[ptr_type(HOST)])).res
            rewriter.replace(op, [], [from_llvm(rewriter, null, op.res.type)])
        elif isinstance(op, gpu.StreamInitOp):
            stream = call_runtime(rewriter, op, "gpuirStreamCreate", [])
            assert stream is not None
            rewriter.insert(llvm.StoreOp(stream, to_llvm(rewriter, op.slot, op)))
            rewriter.replace(op, [], [op.m0, op.m1])
        elif isinstance(op, gpu.StreamSyncOp | gpu.StreamDeinitOp):
            name = (
                "gpuirStreamSynchronize"
                if isinstance(op, gpu.StreamSyncOp)
                else "gpuirStreamDestroy"
            )
            call_runtime(rewriter, op, name, [to_llvm(rewriter, op.stream, op)])
            rewriter.replace(op, [], [op.m0, op.m1])


class DeviceMemoryLowering(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if isinstance(op, gpu.AllocBlockOp | gpu.AllocAsynOp):
            assert isinstance(op.res.type, PtrType)
            nbytes = alloc_bytes(rewriter, op, op.res.type.pointee, op.extent)
            if isinstance(op, gpu.AllocAsynOp):
                stream = to_llvm(rewriter, op.stream, op)
                address = call_runtime(rewriter, op, "gpuirMemAllocAsync", [nbytes, stream])
            else:
                address = call_runtime(rewriter, op, "gpuirMemAlloc", [nbytes])
            rewriter.replace(op, [], [op.mem, result_pointer(rewriter, address, op.res)])
        elif isinstance(op, gpu.FreeBlockOp | gpu.FreeAsynOp):
            ptr = generic(rewriter, op.ptr, op)
            if isinstance(op, gpu.FreeAsynOp):
                stream = to_llvm(rewriter, op.stream, op)
                call_runtime(rewriter, op, "gpuirMemFreeAsync", [ptr, stream])
            else:
                call_runtime(rewriter, op, "gpuirMemFree", [ptr])
            rewriter.replace(op, [], [op.mem])


COPIES: dict[type[Operation], str] = {
    gpu.CopyToDeviceBlockOp: "gpuirMemcpyHtoD",
    gpu.CopyToDeviceAsynOp: "gpuirMemcpyHtoDAsync",
    gpu.CopyToHostBlockOp: "gpuirMemcpyDtoH",
    gpu.CopyToHostAsynOp: "gpuirMemcpyDtoHAsync",
}


class CopyLowering(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        name = COPIES.get(type(op))
        if name is None:
            return
        assert isinstance(op, gpu.CopyOp)
        src, dst = op.operands[2], op.operands[3]
        assert isinstance(src.type, PtrType)
        size = static_bytes(src.type.pointee, op)
        args = [generic(rewriter, dst, op), generic(rewriter, src, op)]
        args.append(constant(rewriter, -1 if size is None else size))
        if len(op.operands) > 4:
            args.append(to_llvm(rewriter, op.operands[4], op))
        call_runtime(rewriter, op, name, args)
        rewriter.replace(op, [], [op.operands[0], op.operands[1]])


def declare_string(module: ModuleOp, symbol: str, text: str) -> None:
    """Declare the internal constant global `symbol` holding the UTF-8 bytes of `text` at the
    start of `module`."""
    glob = llvm.GlobalOp(
        llvm.LLVMArrayType(len(text.encode()), i8),
        symbol,
        "internal",
        constant=True,
        value=StringAttr(text),
    )
    Rewriter.insert_op(glob, InsertPoint.at_start(module.body.block))


def kernel_name(op: gpu.LaunchOp) -> llvm.AddressOfOp:
    """The address of a constant string of the launched kernel's name (one global per name)."""
    from gpuir.passes.device_code import launched_name

    name = launched_name(op.kernel)
    module = parent_module(op)
    symbol = f"__gpuir_kernel_name_{name}"
    if SymbolTable.lookup_symbol(module, symbol) is None:
        declare_string(module, symbol, name + "\0")
    return llvm.AddressOfOp(symbol, ptr_type(HOST))


@dataclass(frozen=True)
class LaunchLowering(RewritePattern):
    launches: Counter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: gpu.LaunchOp, rewriter: PatternRewriter):
        args = list(op.args)
        count = max(len(args), 1)
        slots = entry_alloca(op, llvm.LLVMArrayType(count, i64), 16, HOST)
        for i, arg in enumerate(args):
            slot = rewriter.insert(
                llvm.GEPOp.from_mixed_indices(slots, [i], i64, result_type=ptr_type(0))
            ).result
            value = to_memory(rewriter, arg, op)
            if isinstance(arg.type, llvm.LLVMStructType):
                struct_type = llvm_type(arg.type)
                assert struct_type is not None
                bytes_ = entry_alloca(op, struct_type, 16, HOST)
                rewriter.insert(llvm.StoreOp(value, bytes_))
                value = bytes_
            rewriter.insert(llvm.StoreOp(value, slot))
        smem_bytes = constant(rewriter, 0)
        if op.smem is not None:
            smem_bytes = alloc_bytes(rewriter, op, op.smem, op.smem_extent)
        address = rewriter.insert(kernel_name(op)).result
        call_runtime(
            rewriter,
            op,
            "gpuirLaunchKernel",
            [
                address,
                to_llvm(rewriter, op.n_groups, op),
                to_llvm(rewriter, op.n_items, op),
                smem_bytes,
                to_llvm(rewriter, op.stream, op),
                slots,
                constant(rewriter, len(args)),
            ],
        )
        rewriter.replace(op, [], [op.m0, op.m1, op.m4])
        self.launches.add()


def heap_space(op: Operation, ptr: SSAValue) -> int:
    assert isinstance(ptr.type, PtrType)
    space = ptr.type.space.data
    if space not in (HOST, GLOBAL):
        raise OpError(
            op,
            f"'{op.name}' cannot be used in address space {space} ({SPACE_NAMES[space]})",
        )
    return space


class HostHeapLowering(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if isinstance(op, mem.AllocOp | mem.MallocOp):
            space = heap_space(op, op.res)
            assert isinstance(op.res.type, PtrType)
            if isinstance(op, mem.MallocOp):
                nbytes = wide(rewriter, to_llvm(rewriter, op.size, op))
            else:
                nbytes = alloc_bytes(rewriter, op, op.res.type.pointee, op.extent)
            name = "gpuirHostAlloc" if space == HOST else "gpuirMemAlloc"
            address = call_runtime(rewriter, op, name, [nbytes])
            rewriter.replace(op, [], [op.mem, result_pointer(rewriter, address, op.res)])
        elif isinstance(op, mem.FreeOp):
            space = heap_space(op, op.ptr)
            name = "gpuirHostFree" if space == HOST else "gpuirMemFree"
            call_runtime(rewriter, op, name, [generic(rewriter, op.ptr, op)])
            rewriter.replace(op, [], [op.mem])
        elif isinstance(op, mem.PrintMemrefOp):
            call_runtime(rewriter, op, "gpuirPrintMemref", [generic(rewriter, op.ptr, op)])
            rewriter.replace(op, [], [op.mem])


class AssertLowering(RewritePattern):
    """`cf.assert %c, "msg"` → `gpuirAssert(zext %c, id)`: the runtime fails at the op."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.AssertOp, rewriter: PatternRewriter):
        flag = rewriter.insert(llvm.ZExtOp(to_llvm(rewriter, op.arg, op), i32)).results[0]
        call_runtime(rewriter, op, "gpuirAssert", [flag])
        rewriter.erase(op)


def check_host_code(module: ModuleOp) -> None:
    """Host code touches host memory only, and no composite or buffer op is left."""
    for op in module.walk():
        if isinstance(op, mem.LoadOp | mem.StoreOp):
            assert isinstance(op.ptr.type, PtrType)
            space = op.ptr.type.space.data
            if space != HOST:
                verb = "loads from" if isinstance(op, mem.LoadOp) else "stores to"
                raise OpError(
                    op,
                    f"host code {verb} {SPACE_NAMES.get(space, space)} memory, which it cannot "
                    "access directly (copy it with gpu.copy_to_host / gpu.copy_to_device)",
                )
        elif op.name.startswith("buffer.") or isinstance(
            op, gpu.BufAllocCopyOp | gpu.BufCopyToHostOp
        ):
            raise OpError(op, f"'{op.name}' must be lowered first: run buffer-lower-ptr")
        elif isinstance(
            op, gpu.AllocCopyOp | gpu.WithStreamsOp | gpu.SyncedScopeOp
        ) or op.name.startswith("btensor."):
            raise OpError(op, f"'{op.name}' must be expanded first: run expand-gpu-composites")


def check_lowered_host(module: ModuleOp) -> None:
    for op in module.walk():
        if op.name.startswith("gpu.") and not isinstance(op, gpu.YieldOp):
            raise OpError(op, f"'{op.name}' is not lowered: host code cannot run it")


@dataclass(frozen=True)
class ConvertGpuHostToLlvmPass(ModulePass):
    """The host's `gpu` ops and heap ops to runtime calls (module docstring)."""

    name = "convert-gpu-host-to-llvm"

    lowered = Statistic(
        "num-ops-lowered", "Number of host gpu and heap ops lowered to the llvm dialect"
    )
    launches = Statistic("num-launches-lowered", "Number of gpu.launch ops made gpuirLaunchKernel")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = [
            InitLowering(),
            StreamLowering(),
            DeviceMemoryLowering(),
            CopyLowering(),
            LaunchLowering(self.launches),
            HostHeapLowering(),
            AssertLowering(),
        ]
        with lowering_host(host_module(op, self.name)) as module:
            check_host_code(module)
            if not any(OP_ID_ATTR in o.attributes for o in runtime_ops(module)):
                number_ops(module)
            rewrite_once(module, patterns, self.lowered)
            check_lowered_host(module)
            for inner in module.walk():
                inner.attributes.pop(OP_ID_ATTR, None)
