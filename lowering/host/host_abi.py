"""The C ABI between compiled host code and a runtime: one table, read by the host lowering
(which declares and calls these functions), by the JIT shim (`host_to_llvm.add_runtime_shim`)
and by the Python runtime that implements them (`gpuir.runtime.compiled_host`).

`runtime/gpuir_runtime.h` is the same contract in C, for a runtime written in C; a test checks
that the two agree. Every function takes `op` last: the id of the op it runs for (the host
lowering numbers the ops that call the runtime, in walk order: `runtime_ops`; -1 for a print,
which cannot fail), so that a runtime maps a failure back to the op's location. A function that fails does not return: the
runtime records its error and unwinds to the program's entry (`__gpuir_main` returns 1).

Types: `i64` (`int64_t`), `i32` (`int32_t`), `f64` (`double`), `ptr` (a pointer; a
`gpuirStream` is an opaque pointer, null for the default stream).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import cf
from xdsl.ir import Operation

from gpuir.dialects import gpu, mem


@dataclass(frozen=True)
class AbiFunction:
    """A runtime function: its name, its result type (None: void), its own parameters' types
    (`args`) and what it does."""

    name: str
    result: str | None
    args: tuple[str, ...]
    doc: str

    @property
    def params(self) -> tuple[str, ...]:
        """The types of all its parameters: `args`, then the op's id (`i64`)."""
        return (*self.args, "i64")


def copies(direction: str, op: str) -> tuple[AbiFunction, AbiFunction]:
    """The blocking and the stream-ordered copy in `direction` (`gpuirMemcpyHtoD`,
    `gpuirMemcpyHtoDAsync`; `DtoH`), for `op`'s two forms."""
    return (
        AbiFunction(
            f"gpuirMemcpy{direction}",
            None,
            ("ptr", "ptr", "i64"),
            f"{op}.block: dst, src, nbytes (-1: the rest of src's allocation)",
        ),
        AbiFunction(
            f"gpuirMemcpy{direction}Async",
            None,
            ("ptr", "ptr", "i64", "ptr"),
            f"{op}.asyn: dst, src, nbytes, stream",
        ),
    )


ABI: tuple[AbiFunction, ...] = (
    AbiFunction("gpuirInit", None, (), "gpu.init / gpu.auto_init: open the device"),
    AbiFunction("gpuirDeinit", None, (), "gpu.deinit / gpu.auto_deinit: finish all work, close"),
    AbiFunction("gpuirStreamCreate", "ptr", (), "gpu.stream_init: a new stream"),
    AbiFunction("gpuirStreamSynchronize", None, ("ptr",), "gpu.stream_sync"),
    AbiFunction("gpuirStreamDestroy", None, ("ptr",), "gpu.stream_deinit"),
    AbiFunction("gpuirMemAlloc", "ptr", ("i64",), "gpu.alloc.block: nbytes of global memory"),
    AbiFunction("gpuirMemAllocAsync", "ptr", ("i64", "ptr"), "gpu.alloc.asyn: nbytes, stream"),
    AbiFunction("gpuirMemFree", None, ("ptr",), "gpu.free.block"),
    AbiFunction("gpuirMemFreeAsync", None, ("ptr", "ptr"), "gpu.free.asyn: ptr, stream"),
    *copies("HtoD", "gpu.copy_to_device"),
    *copies("DtoH", "gpu.copy_to_host"),
    AbiFunction(
        "gpuirLaunchKernel",
        None,
        ("ptr", "i64", "i64", "i64", "ptr", "ptr", "i64"),
        "gpu.launch: kernel name, n_groups, n_items, dynamic shared bytes, stream, argument "
        "slots (8 bytes each: the value in its low bytes, a struct's address), their count",
    ),
    AbiFunction("gpuirHostAlloc", "ptr", ("i64",), "host mem.alloc / mem.malloc: nbytes, zeroed"),
    AbiFunction("gpuirHostFree", None, ("ptr",), "host mem.free"),
    AbiFunction(
        "gpuirPrintString",
        None,
        ("ptr", "i64"),
        "printf: text, its length in bytes (UTF-8)",
    ),
    AbiFunction(
        "gpuirPrintInt", None, ("i64",), "printf: a signed integer (i1 as 0/1), in decimal"
    ),
    AbiFunction(
        "gpuirPrintFloat",
        None,
        ("f64", "i32"),
        "printf: a float of 16, 32 or 64 bits (widened exactly), as its shortest decimal",
    ),
    AbiFunction(
        "gpuirPrintFloatSpec",
        None,
        ("f64", "i32"),
        "printf: a float (widened exactly) with a C conversion ('f', 'e' or 'g', as a character)",
    ),
    AbiFunction(
        "gpuirPrintMemref", None, ("ptr",), "mem.print_memref: the pointer (the op's type)"
    ),
    AbiFunction("gpuirAssert", None, ("i32",), "cf.assert: fails at the op where it is 0"),
)

BY_NAME: dict[str, AbiFunction] = {f.name: f for f in ABI}

ENTRY = "__gpuir_main"
"""`i32 __gpuir_main(ptr args, ptr results)`: the JIT entry the shim adds, around `@main`."""
CALLBACK_PREFIX = "__gpuir_cb_"
"""The shim's global that holds the implementation of ABI function `f`: `__gpuir_cb_f`."""
JMPBUF = "__gpuir_jmpbuf"
"""The shim's global: the `jmp_buf` that a failing runtime call unwinds to."""
OP_ID_ATTR = "gpuir.op_id"


RUNTIME_OPS: tuple[type[Operation], ...] = (
    gpu.InitOp,
    gpu.AutoInitOp,
    gpu.DeinitOp,
    gpu.AutoDeinitOp,
    gpu.StreamInitOp,
    gpu.StreamSyncOp,
    gpu.StreamDeinitOp,
    gpu.AllocBlockOp,
    gpu.AllocAsynOp,
    gpu.FreeBlockOp,
    gpu.FreeAsynOp,
    gpu.CopyToDeviceBlockOp,
    gpu.CopyToDeviceAsynOp,
    gpu.CopyToHostBlockOp,
    gpu.CopyToHostAsynOp,
    gpu.LaunchOp,
    mem.AllocOp,
    mem.MallocOp,
    mem.FreeOp,
    mem.PrintMemrefOp,
    cf.AssertOp,
)
"""The ops whose lowering calls the runtime with an op id."""


def runtime_ops(module: Operation) -> list[Operation]:
    """The ops of `module` that call the runtime, in walk order: op id `i` is element `i`."""
    return [op for op in module.walk() if isinstance(op, RUNTIME_OPS)]
