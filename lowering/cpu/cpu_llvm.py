"""The `cpu` provider's lowering: a device module to optimized LLVM IR for the host CPU.

`host_program(device)` runs the stages on a private copy of the device module (the module is
left alone):

1. `cpu-workgroup-loops` (`gpuir.lowering.cpu.workgroup_loops`): each kernel becomes a work-group
   function whose work-items run as loops; a kernel that cannot run on the CPU is left out and
   its error kept (`HostProgram.errors`), so that only its launches fail;
2. `CPU_TO_LLVM`: device-to-llvm's stages without `convert-gpu-to-nvvm` (no NVVM: ids come
   from the loops, shared memory from parameters, and no barrier is left);
3. the translation of `gpuir.lowering.llvm.llvm_ir`, retargeted to the host
   (`translate_for_host`: its triple and data layout, no `convergent`), with libdevice's
   `__nv_*` math as libm calls (`__nv_expf` → `expf`; `rsqrt` is `1 / sqrt`, `powi` LLVM's
   `llvm.powi`), and per kernel a launch entry:

       void @__gpuir_launch_<k>(i64 first_group, i64 end_group, i64 n_items,
                                ptr shared, ptr smem, ptr args, ptr progress)

   which calls the work-group function for each group in `[first_group, end_group)`, storing
   the group's number at `progress` (an `i64`) before it runs (a fault names the group). `shared`
   is the group's static shared memory (`HostKernel.shared_bytes`, 16-aligned) and `smem` its
   dynamic shared memory; a runtime gives each thread its own. `args` points to one 8-byte
   slot per kernel argument, the value in its low bytes (little-endian): integers (`i1` as 0/1),
   floats, pointers as addresses; for a struct argument, the address of its bytes, in C's
   layout (`gpuir.runtime.structs`), which the entry loads by value;
   A kernel with write-only outputs (`gpuir.lowering.cpu.streaming`) has a second entry,
   `__gpuir_launch_<k>.stream`, the same with non-temporal stores to them;
4. with `check`, `check_accesses.FAST_PATH` linked in: the definition of the checker's
   `@__gpuir_check_access`, whose common case LLVM inlines into each access;
5. `optimize` (`gpuir.lowering.llvm.native`): LLVM's `default<O3>` for the host CPU, then
   `!nontemporal` on the stream entries' aligned vector stores to write-only outputs.

`host_program(device, index_bitwidth=32)` lowers with 32-bit index values, as
`device-to-llvm{index-bitwidth=32}` does for NVPTX (the same stages read the module's
`gpu.index_bitwidth`): the launch entry keeps its `i64` parameters and argument slots and
truncates for the work-group function, whose `index` parameters are `i32` (an `index` argument
is read from the low 4 bytes of its slot). It runs the NVPTX lowering's 32-bit index semantics
on the CPU (the cpu provider's `index_bitwidth`).

Address spaces stay as they are: x86-64 treats `addrspace(1/3/5)` pointers as plain pointers and
`addrspacecast` as a no-op. Device `malloc`/`free` are libc's. No fast math and no contraction
(LLVM fuses no `fmul` + `fadd` by default), so float results are those of `interp`.

    gpu-opt device.mlir -p cpu-workgroup-loops     # stage 1 of a device module
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.context import Context
from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.ir import Attribute

from gpuir.ir.diagnostics import OpError
from gpuir.ir.pipelines import CPU_TO_LLVM
from gpuir.lowering.cpu.mma import expand_mma
from gpuir.lowering.cpu.resume import BARRIERS_ATTR, STATE_ATTR
from gpuir.lowering.cpu.streaming import (
    STREAM_SUFFIX,
    assume_stream_launch,
    mark_nontemporal,
    stream_variant,
    streams,
    tag_stream_stores,
    write_only_of,
)
from gpuir.lowering.cpu.warp_vectors import DEFERRED_ATTR
from gpuir.lowering.cpu.workgroup_loops import workgroup_loops
from gpuir.lowering.cpu.workgroups import SHARED_BYTES_ATTR, WORKGROUP_ATTR
from gpuir.lowering.llvm.conversion import (
    DEVICE_ATTR,
    KERNEL_ATTR,
    check_index_bitwidth,
    check_lowered,
    set_index_bitwidth,
)
from gpuir.lowering.llvm.native import host_machine, optimize
from gpuir.lowering.llvm.print_abi import FORMATS_ATTR

if TYPE_CHECKING:
    from llvmlite import binding, ir

LAUNCH_PREFIX = "__gpuir_launch_"
ARG_SLOT = 8
"""Bytes per kernel argument in a launch entry's `args`."""


@dataclass
class HostKernel:
    """What a runtime needs to launch kernel `name` of a `HostProgram`."""

    name: str
    entry: str
    shared_bytes: int
    params: tuple[Attribute, ...]
    """The kernel's argument types (after the tokens, the ids and `smem`)."""
    resume_state: int | None = None
    """In resumable form (`gpuir.lowering.cpu.resume`): where its items' stops are in a group's
    static shared memory."""
    barriers: tuple[tuple[str, str, int, int], ...] = ()
    """In resumable form: per barrier number `b` (at `b - 1`) its op's name, file, line and
    column."""
    write_only: tuple[int, ...] = ()
    """Its write-only pointer arguments (`gpuir.lowering.cpu.streaming`), when it has a stream
    entry, `entry + STREAM_SUFFIX`, whose stores to them are non-temporal."""


@dataclass
class HostProgram:
    """The device module as LLVM IR for the host (`llvm_ir`, optimized), its kernels, and the
    kernels left out with their errors."""

    llvm_ir: str
    kernels: dict[str, HostKernel] = field(default_factory=dict[str, HostKernel])
    errors: dict[str, OpError] = field(default_factory=dict[str, OpError])
    print_formats: Attribute | None = None
    """The module's `gpu.print_formats` when its kernels print (`device_printf`)."""


def device_only(module: ModuleOp) -> ModuleOp:
    """A copy of the device module: the module when it is one (`gpu.device`), else its device
    functions (the kernels marked `gpu.kernel`) in a new one."""
    if DEVICE_ATTR in module.attributes:
        return module.clone()
    from gpuir.passes.device_code import device_functions, kernels

    names = device_functions(module)
    launched = kernels(module)
    copy = ModuleOp([])
    copy.attributes[DEVICE_ATTR] = UnitAttr()
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data in names:
            clone = op.clone()
            if op.sym_name.data in launched:
                clone.attributes[KERNEL_ATTR] = UnitAttr()
            copy.body.block.add_op(clone)
    return copy


def lower(module: ModuleOp) -> None:
    """The stages of `CPU_TO_LLVM` on a module after `cpu-workgroup-loops`."""
    from gpuir.ir.pass_manager import run_pass
    from gpuir.ir.registry import all_passes

    factories = all_passes(CPU_TO_LLVM)
    ctx = Context()
    for name in CPU_TO_LLVM:
        run_pass(ctx, module, factories[name]()())
    check_lowered(module)


def host_program(device: ModuleOp, index_bitwidth: int = 64, check: bool = False) -> HostProgram:
    """The device module compiled for the host (module docstring), with `index_bitwidth`-bit
    index values; with `check`, its kernels' accesses and barriers call the checker
    (`gpuir.lowering.cpu.check_accesses`). A structural error of a kernel is kept in `errors`; an
    error of the module as a whole (an op that cannot be lowered) is raised as an `OpError`."""
    check_index_bitwidth(index_bitwidth)
    module = device_only(device)
    set_index_bitwidth(module, index_bitwidth)
    expand_mma(module)  # before the check, which then sees each lane's loads and stores
    if check:
        from gpuir.lowering.cpu.check_accesses import check_accesses

        names = {
            f.sym_name.data
            for f in module.ops
            if isinstance(f, func.FuncOp) and KERNEL_ATTR in f.attributes
        }
        check_accesses(module, names)
    errors = workgroup_loops(module)
    kernels: dict[str, HostKernel] = {}
    deferred: dict[str, tuple[int, int]] = {}
    for op in module.ops:
        if isinstance(op, func.FuncOp) and WORKGROUP_ATTR in op.attributes:
            name = op.sym_name.data
            if DEFERRED_ATTR in op.attributes:
                deferred[name] = deferred_atomic_of(op)
            shared = op.attributes[SHARED_BYTES_ATTR]
            params = tuple(op.function_type.inputs.data[8:])
            kernels[name] = HostKernel(name, LAUNCH_PREFIX + name, shared.value.data, params)  # type: ignore[attr-defined]
            if STATE_ATTR in op.attributes:
                kernels[name].resume_state = op.attributes[STATE_ATTR].value.data  # type: ignore[attr-defined]
                kernels[name].barriers = barrier_table(op.attributes[BARRIERS_ATTR])
    lower(module)
    entries: dict[str, tuple[int, ...]] = {name: () for name in kernels}
    if not check:
        entries |= add_stream_variants(module, kernels)
    text = str(translate_with_launch_entries(module, entries, deferred))
    parsed = parse(text)
    if check:
        from gpuir.lowering.cpu.check_accesses import ACCESS, FAST_PATH

        fast = parse(
            f'target triple = "{parsed.triple}"\ntarget datalayout = "{parsed.data_layout}"\n'
            + FAST_PATH
        )
        parsed.link_in(fast)
        parsed.get_function(ACCESS).linkage = "internal"  # inlined everywhere, then gone
    optimized = str(optimize(parsed))
    if len(entries) > len(kernels):
        optimized = mark_nontemporal(optimized)
        for kernel in kernels.values():  # a stream entry without aligned stores is not taken
            if kernel.write_only and not streams(optimized, kernel.entry + STREAM_SUFFIX):
                kernel.write_only = ()
    formats = module.attributes.get(FORMATS_ATTR)
    return HostProgram(optimized, kernels, errors, formats)


def add_stream_variants(
    module: ModuleOp, kernels: dict[str, HostKernel]
) -> dict[str, tuple[int, ...]]:
    """`@k.stream` after each lowered work-group function with write-only parameters
    (`gpuir.lowering.cpu.streaming`), noted in its `HostKernel`: their names and write-only
    parameters."""
    added = {}
    for op in list(module.ops):
        variant = stream_variant(op) if isinstance(op, llvm.FuncOp) else None
        if variant is None or op.sym_name.data not in kernels:
            continue
        module.body.block.insert_op_after(variant, op)
        kernels[op.sym_name.data].write_only = added[variant.sym_name.data] = write_only_of(op)
    return added


def barrier_table(attr: Attribute) -> tuple[tuple[str, str, int, int], ...]:
    """`gpu.resume_barriers` as tuples."""
    table = []
    for entry in attr.data:  # type: ignore[attr-defined]
        name, file, line, column = entry.data
        table.append((name.data, file.data, line.value.data, column.value.data))
    return tuple(table)


# --- LLVM IR ---------------------------------------------------------------------------------------


def deferred_atomic_of(function: func.FuncOp) -> tuple[int, int]:
    """A work-group function's deferred atomic (`warp_vectors.DEFERRED_ATTR`): the kernel
    argument it adds to, and the bits of its integers."""
    index = function.attributes[DEFERRED_ATTR].value.data  # type: ignore[attr-defined]
    pointer = function.function_type.inputs.data[8 + index]
    return index, pointer.pointee.width.data  # type: ignore[attr-defined]


def translate_with_launch_entries(
    module: ModuleOp,
    kernels: dict[str, tuple[int, ...]],
    deferred: dict[str, tuple[int, int]] | None = None,
) -> ir.Module:
    """The llvmlite module of a lowered module, for the host
    (`gpuir.lowering.llvm.llvm_ir.translate_for_host`), with the launch entries of `kernels`
    (each name with the write-only parameters that its stores stream to, in a stream
    variant; `deferred`: the kernels with a deferred atomic, `deferred_atomic_of`)."""
    from gpuir.lowering.llvm.llvm_ir import translate_for_host

    out = translate_for_host(module)
    for name, write_only in kernels.items():
        if write_only:
            tag_stream_stores(out.get_global(name), write_only)
        add_launch_entry(out, name, write_only, (deferred or {}).get(name))
    return out


def add_launch_entry(
    out: ir.Module,
    name: str,
    streamed: tuple[int, ...] = (),
    deferred: tuple[int, int] | None = None,
) -> None:
    """`void @__gpuir_launch_<name>(i64 first, i64 end, i64 n_items, ptr shared, ptr smem,
    ptr args, ptr progress)`: the work-group function `@name` for each group in `[first, end)`,
    each group's number stored at `progress` before it runs. With `streamed` (a stream
    variant's write-only parameters), what a streaming launch guarantees, and a fence at the
    end (`gpuir.lowering.cpu.streaming`). With `deferred` (argument, bits), the groups add a
    deferred atomic's values into the first integer of the thread's `shared`, which the
    entry zeroes first and adds to that argument with one atomic at the end
    (`gpuir.lowering.cpu.warp_vectors.WarpVectors.add_to_launch`)."""
    from llvmlite import ir

    from gpuir.lowering.llvm.line_info import wrapper_location

    workgroup = out.get_global(name)
    i64 = ir.IntType(64)
    opaque = ir.PointerType()
    entry_type = ir.FunctionType(ir.VoidType(), [i64, i64, i64, opaque, opaque, opaque, opaque])
    entry = ir.Function(out, entry_type, LAUNCH_PREFIX + name)
    entry.attributes.add("nounwind")
    first, end, n_items, shared, smem, argv, progress = entry.args
    names = ("first", "end", "n_items", "shared", "smem", "args", "progress")
    for arg, arg_name in zip(entry.args, names, strict=True):
        arg.name = arg_name
    params = workgroup.function_type.args
    layout = host_machine().target_data
    start = entry.append_basic_block("entry")
    head = entry.append_basic_block("head")
    body = entry.append_basic_block("body")
    done = entry.append_basic_block("done")
    b = ir.IRBuilder(start)
    b.debug_metadata = wrapper_location(out, entry, workgroup)
    values = [b.addrspacecast(shared, params[2]), b.addrspacecast(smem, params[3])]
    for i, type_ in enumerate(params[4:]):
        slot = b.gep(argv, [ir.Constant(i64, i)], inbounds=True, source_etype=i64)
        if isinstance(type_, ir.LiteralStructType):  # the slot holds the struct's address
            bytes_ = b.load(slot, typ=opaque, align=ARG_SLOT)
            values.append(b.load(bytes_, typ=type_, align=type_.get_abi_alignment(layout)))
            continue
        values.append(b.load(slot, typ=type_, align=ARG_SLOT))
    if streamed:
        assume_stream_launch(b, n_items, [values[2 + i] for i in streamed])
    if deferred is not None:
        b.store(ir.Constant(ir.IntType(deferred[1]), 0), shared, align=8)
    b.branch(head)
    b.position_at_end(head)
    group = b.phi(i64, "group")
    group.add_incoming(first, start)
    b.cbranch(b.icmp_signed("<", group, end), body, done)
    b.position_at_end(body)
    b._insert(volatile_store(b.block, group, progress))  # kept, in order: read after a fault
    ids = [group, n_items]
    if params[0] != i64:  # 32-bit index values: the work-group function takes i32 ids
        ids = [b.trunc(group, params[0]), b.trunc(n_items, params[1])]
    b.call(workgroup, [*ids, *values])
    following = b.add(group, ir.Constant(i64, 1), flags=["nsw"])
    group.add_incoming(following, body)
    b.branch(head)
    b.position_at_end(done)
    if deferred is not None:  # the thread's groups' sum, with one atomic
        total = b.load(shared, typ=ir.IntType(deferred[1]), align=8)
        b.atomic_rmw("add", values[2 + deferred[0]], total, "monotonic")
    if streamed:
        b.fence("seq_cst")  # the non-temporal stores seen before the launch ends
    b.ret_void()


def volatile_store(block: ir.Block, value: ir.Value, ptr: ir.Value) -> ir.Instruction:
    """`store volatile <value>, ptr <ptr>, align 8` (llvmlite has no volatile stores)."""
    from llvmlite import ir

    class VolatileStore(ir.instructions.StoreInstr):
        def descr(self, buf: list[str]) -> None:
            val, pointer = self.operands
            buf.append(
                f"store volatile {val.type} {val.get_reference()}, "
                f"{pointer.type} {pointer.get_reference()}, align 8\n"
            )

    return VolatileStore(block, value, ptr)


def parse(text: str) -> binding.ModuleRef:
    from gpuir.lowering.llvm.llvm_ir import parse as parse_llvm

    return parse_llvm(text)
