"""`host-to-llvm`: the host module, from gpuir's IR to the llvm dialect, as one list of stages;
then LLVM IR for this CPU (`host_llvm_ir`, gpu-opt's `-t host-llvm`).

`HOST_TO_LLVM` is the list. It runs on the host module (the `@host` module that `split-apply`
made, or a module that is not split and has no device module), which gets the attribute
`gpu.host_lowering` while it is lowered, so that the stages shared with `device-to-llvm`
(`convert-mem-to-llvm`, `erase-mem-tokens`, …) take it. The `gpu` ops and the host heap
become calls of the runtime's C ABI (`convert-gpu-host-to-llvm`, `gpuir.lowering.host.host_abi`,
`runtime/gpuir_runtime.h`), `printf` calls of its print functions (`convert-printf-to-llvm`);
memory tokens vanish. Every function keeps `external` linkage: `@main` (and any other host
function) is a C function of its scalar parameters, returning its one result, a literal struct
of several, or nothing.

Plain host loads and stores are machine code, unchecked (as C's); the runtime calls are
checked by the runtime, and a failure names the op (its id, `host_abi.OP_ID_ATTR`).

    gpu-opt prog.mlir -p gpu-pipeline,host-to-llvm      # the host module in the llvm dialect
    gpu-opt prog.mlir -t host-llvm                      # … as LLVM IR for this CPU
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from gpuir.ir.pass_manager import run_pass
from gpuir.ir.pipelines import HOST_TO_LLVM
from gpuir.lowering.host.host_abi import runtime_ops
from gpuir.lowering.llvm.conversion import check_lowered, host_module, lowering_host, stage_passes

if TYPE_CHECKING:
    from llvmlite import ir


PREPARE: tuple[str, ...] = ("expand-gpu-composites", "buffer-lower-ptr")
"""The stages that may make new ops that call the runtime: the op ids are given after them."""


def prepare_host(ctx: Context, module: ModuleOp) -> None:
    """The stages of `PREPARE` on the host module `module`, in place."""
    stages = stage_passes(PREPARE)
    with lowering_host(module):
        for name in PREPARE:
            run_pass(ctx, module, stages[name]())


def lower_host(ctx: Context, module: ModuleOp, prepared: bool = False) -> list[Operation]:
    """Lower the host module `module` in place (`prepared`: the caller ran `prepare_host` on
    it already). Returns the ops that call the runtime, by op id, in a copy of the module after
    `PREPARE` (for diagnostics: `runtime_ops` of a module that `prepare_host` made gives the
    same list)."""
    from gpuir.lowering.host.gpu_host_to_llvm import number_ops

    if not prepared:
        prepare_host(ctx, module)
    snapshot = module.clone()
    stages = stage_passes(HOST_TO_LLVM)
    with lowering_host(module):
        number_ops(module)
        for name in HOST_TO_LLVM:
            if name not in PREPARE:
                run_pass(ctx, module, stages[name]())
        check_lowered(module, "host-to-llvm")
    for op in module.ops:
        if isinstance(op, llvm.FuncOp) and op.body.blocks:
            op.properties["linkage"] = llvm.LinkageAttr("external")
    return runtime_ops(snapshot)


@dataclass(frozen=True)
class HostToLlvmPass(ModulePass):
    """Run the stages of `HOST_TO_LLVM` on the host module, then check the result."""

    name = "host-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_host(ctx, host_module(op, self.name))


# --- LLVM IR -----------------------------------------------------------------------------------


def host_llvm_ir(module: ModuleOp, line_info: bool = True) -> ir.Module:
    """The llvmlite module of a lowered host module, for this CPU: its triple and data layout,
    math as libm calls (`gpuir.lowering.llvm.llvm_ir.translate_for_host`); with `line_info`, a DWARF
    line table of the ops' locations (`gpuir.lowering.llvm.line_info`)."""
    from gpuir.lowering.llvm.llvm_ir import translate_for_host

    out = translate_for_host(module, line_info)
    out.name = "host"
    return out


def add_runtime_shim(out: ir.Module, entries: list[str]) -> None:
    """Make `out` runnable in a JIT with the ABI implemented elsewhere (the Python runtime):

    - each ABI function `f` is defined: it calls the function pointer in the global
      `__gpuir_cb_f` with its arguments (and a pointer to its result), and when that returns
      non-zero (the call failed; the runtime keeps the error) `longjmp`s to `__gpuir_jmpbuf`;
    - per host function `m` of `entries`, `i32 __gpuir_main_m(ptr args, ptr results)`: sets the
      jump buffer (`_setjmp`), reads `m`'s parameters from 8-byte slots at `args` (the value in
      a slot's low bytes), calls `m`, writes its results into slots at `results`; returns 0, or
      1 when a runtime call failed.
    """
    from llvmlite import ir

    from gpuir.lowering.host.host_abi import ABI, CALLBACK_PREFIX, ENTRY, JMPBUF

    opaque = ir.PointerType()
    i32, i64 = ir.IntType(32), ir.IntType(64)
    kinds = {"i64": i64, "i32": i32, "f64": ir.DoubleType(), "ptr": opaque}
    jmpbuf = ir.GlobalVariable(out, opaque, JMPBUF)
    jmpbuf.initializer = ir.Constant(opaque, None)
    longjmp = ir.Function(out, ir.FunctionType(ir.VoidType(), [opaque, i32]), "longjmp")
    longjmp.attributes.add("noreturn")
    setjmp = ir.Function(out, ir.FunctionType(i32, [opaque]), "_setjmp")
    setjmp.attributes.add("returns_twice")
    for abi in ABI:
        params = [kinds[t] for t in abi.params]
        result = None if abi.result is None else kinds[abi.result]
        callback = ir.GlobalVariable(out, opaque, CALLBACK_PREFIX + abi.name)
        callback.initializer = ir.Constant(opaque, None)
        found = out.globals.get(abi.name)
        function = (
            found
            if isinstance(found, ir.Function)
            else ir.Function(out, ir.FunctionType(result or ir.VoidType(), params), abi.name)
        )
        function.attributes.discard("nounwind")
        b = ir.IRBuilder(function.append_basic_block("entry"))
        slot = b.alloca(result) if result is not None else None
        callee = ir.FunctionType(i32, params + ([opaque] if result is not None else []))
        target = b.load(callback, typ=ir.PointerType(callee))  # prints as `ptr`; typed for call
        status = b.call(target, [*function.args, *([slot] if slot is not None else [])])
        failed, done = function.append_basic_block("failed"), function.append_basic_block("done")
        b.cbranch(b.icmp_signed("!=", status, ir.Constant(i32, 0)), failed, done)
        b.position_at_end(failed)
        b.call(longjmp, [b.load(jmpbuf, typ=opaque), ir.Constant(i32, 1)])
        b.unreachable()
        b.position_at_end(done)
        if slot is None:
            b.ret_void()
        else:
            b.ret(b.load(slot, typ=result))
    for name in entries:
        add_entry(out, name, ENTRY + "_" + name, jmpbuf, setjmp)


def add_entry(out: ir.Module, name: str, entry_name: str, jmpbuf, setjmp) -> None:
    from llvmlite import ir

    from gpuir.lowering.llvm.line_info import wrapper_location

    opaque = ir.PointerType()
    i32, i64 = ir.IntType(32), ir.IntType(64)
    main = out.get_global(name)
    entry = ir.Function(out, ir.FunctionType(i32, [opaque, opaque]), entry_name)
    entry.attributes.add("noinline")
    args, results = entry.args
    b = ir.IRBuilder(entry.append_basic_block("entry"))
    b.debug_metadata = wrapper_location(out, entry, main)
    buffer = b.alloca(ir.ArrayType(i64, 64))
    buffer.align = 16
    b.store(buffer, jmpbuf)
    jumped = b.call(setjmp, [buffer])
    run, failed = entry.append_basic_block("run"), entry.append_basic_block("failed")
    b.cbranch(b.icmp_signed("==", jumped, ir.Constant(i32, 0)), run, failed)
    b.position_at_end(failed)
    b.ret(ir.Constant(i32, 1))
    b.position_at_end(run)
    values = []
    for i, type_ in enumerate(main.function_type.args):
        slot = b.gep(args, [ir.Constant(i64, i)], inbounds=True, source_etype=i64)
        values.append(b.load(slot, typ=type_, align=8))
    returned = b.call(main, values)
    kind = main.function_type.return_type
    outputs = []
    if isinstance(kind, ir.LiteralStructType):
        outputs = [b.extract_value(returned, i) for i in range(len(kind.elements))]
    elif not isinstance(kind, ir.VoidType):
        outputs = [returned]
    for i, value in enumerate(outputs):
        slot = b.gep(results, [ir.Constant(i64, i)], inbounds=True, source_etype=i64)
        b.store(value, slot, align=8)
    b.ret(ir.Constant(i32, 0))
