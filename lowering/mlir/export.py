"""A gpuir program as upstream MLIR 22 (`export_program`; `docs/export.md`): the program goes
through `gpu-pipeline` (unless it is split already), then its `@device` module is written as
`gpu.module @device` with its `#nvvm.target` and its `@host` functions as `func.func`s.

- Kernels are `gpu.func … kernel`s without the tokens, the group and item ids
  (`gpu.block_id x`, `gpu.thread_id x`); `mem.slot`s in spaces 3 and 5 are workgroup and
  private attributions. Other device functions are `func.func`s in the `gpu.module`.
- `@main` takes and returns its scalars without the token; `gpu.init` / `deinit` vanish.
- Streams are chains of async tokens: an op on a stream depends on the stream's last token
  (`gpu.wait async` when it has none) and gives its next; a blocking op (`.block`) depends on
  every stream's last token and is waited for (`gpu.wait`); `stream_sync` and
  `stream_deinit` wait for their stream. Each token is used once. Before an op with regions,
  and at the end of a region, every pending stream is waited for.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from gpuir.dialects import gpu, mem
from gpuir.dialects.gpu import DEVICE_ATTR, KERNEL_ATTR, StreamType
from gpuir.dialects.mem import PtrType
from gpuir.ir.diagnostics import OpError
from gpuir.lowering.mlir.body import (
    Memref,
    Stream,
    StreamSlot,
    Writer,
    attr_text,
    is_token,
    memref_type,
    refuse,
)
from gpuir.lowering.mlir.kernel import KernelWriter


class HostWriter(Writer):
    """A host function: memory, copies and launches on the streams' async tokens."""

    table: dict[str, Callable[[Writer, Operation], None]] = {}

    def __init__(self, depth: int):
        super().__init__(depth)
        self.pending: dict[Stream, str] = {}
        self.default = Stream()

    # -- tokens --

    def token(self, stream: Stream) -> str:
        """The token an op on `stream` depends on: its last, or a fresh one."""
        found = self.pending.pop(stream, None)
        if found is not None:
            return found
        name = self.fresh("t")
        self.emit(f"{name} = gpu.wait async")
        return name

    def join(self) -> str:
        """One token that depends on every pending stream (`gpu.wait async [...]`)."""
        name = self.fresh("t")
        deps = ", ".join(self.pending.values())
        self.emit(f"{name} = gpu.wait async [{deps}]" if deps else f"{name} = gpu.wait async")
        self.pending.clear()
        return name

    def flush(self) -> None:
        """Wait for every pending stream."""
        if self.pending:
            self.emit(f"gpu.wait [{', '.join(self.pending.values())}]")
            self.pending.clear()

    def before_region(self, op: Operation) -> None:
        self.flush()

    def before_terminator(self, op: Operation) -> None:
        self.flush()

    def stream(self, op: Operation) -> Stream:
        found = self.get(op, op.stream)  # type: ignore[attr-defined]
        if not isinstance(found, Stream):
            raise refuse(
                op, "its stream is not known here (streams are exported within a function)"
            )
        return found

    def run(self, op: Operation, stream: Stream | None, text: str, results: str = "") -> None:
        """`results, %t = text`'s async op on `stream`'s token, or blocking (`stream` None):
        after every stream, then waited for."""
        dep = self.token(stream) if stream is not None else self.join()
        name = self.fresh("t")
        head, _, rest = text.partition(" ")
        self.emit(f"{results}{', ' if results else ''}{name} = {head} async [{dep}] {rest}")
        if stream is None:
            self.emit(f"gpu.wait [{name}]")
        else:
            self.pending[stream] = name

    # -- ops --

    def vanish(self, op: Operation) -> None:
        for result in op.results:
            self.values[result] = None

    def deinit(self, op: Operation) -> None:
        self.flush()
        self.vanish(op)

    def default_stream(self, op: Operation) -> None:
        self.values[op.results[0]] = self.default

    def host_alloc(self, op: Operation) -> None:
        assert isinstance(op, mem.AllocOp | mem.SlotOp)
        ptr = op.res.type
        assert isinstance(ptr, PtrType)
        self.values[op.res_mem] = None
        if isinstance(ptr.pointee, StreamType):
            self.values[op.res] = StreamSlot()
            return
        if ptr.space.data != 0:
            raise refuse(op, f"host code allocates in address space {ptr.space.data}")
        type_ = memref_type(ptr, op)
        name = self.fresh(op.res.name_hint)
        self.values[op.res] = Memref(name, type_, (), ptr.pointee)
        extent = getattr(op, "extent", None)
        size = self.scalar(op, extent) if extent is not None else ""
        kind = "memref.alloc" if isinstance(op, mem.AllocOp) else "memref.alloca"
        self.emit(f"{name} = {kind}({size}) : {type_}")

    def host_free(self, op: Operation) -> None:
        assert isinstance(op, mem.FreeOp)
        self.values[op.res_mem] = None
        if isinstance(self.get(op, op.ptr), StreamSlot):
            return
        ref = self.memref(op, op.ptr, whole=True)
        self.emit(f"memref.dealloc {ref.name} : {ref.type}")

    def gpu_alloc(self, op: Operation) -> None:
        assert isinstance(op, gpu.AllocBlockOp | gpu.AllocAsynOp)
        ptr = op.res.type
        assert isinstance(ptr, PtrType)
        stream = self.stream(op) if isinstance(op, gpu.AllocAsynOp) else None
        type_ = memref_type(ptr, op)
        name = self.fresh(op.res.name_hint)
        self.values[op.res], self.values[op.res_mem] = Memref(name, type_, (), ptr.pointee), None
        size = self.scalar(op, op.extent) if op.extent is not None else ""
        self.run(op, stream, f"gpu.alloc ({size}) : {type_}", name)

    def copy(self, op: Operation) -> None:
        assert isinstance(
            op,
            gpu.CopyToDeviceBlockOp
            | gpu.CopyToDeviceAsynOp
            | gpu.CopyToHostBlockOp
            | gpu.CopyToHostAsynOp,
        )
        stream = self.stream(op) if "asyn" in op.name else None
        src, dst = self.memref(op, op.src, whole=True), self.memref(op, op.dst, whole=True)
        self.vanish(op)
        self.run(op, stream, f"gpu.memcpy {dst.name}, {src.name} : {dst.type}, {src.type}")

    def gpu_free(self, op: Operation) -> None:
        assert isinstance(op, gpu.FreeBlockOp | gpu.FreeAsynOp)
        stream = self.stream(op) if isinstance(op, gpu.FreeAsynOp) else None
        ref = self.memref(op, op.ptr, whole=True)
        self.vanish(op)
        self.run(op, stream, f"gpu.dealloc {ref.name} : {ref.type}")

    def launch(self, op: Operation) -> None:
        assert isinstance(op, gpu.LaunchOp)
        if op.smem is not None:
            raise refuse(
                op,
                "a launch with dynamic shared memory (smem) is not exported (yet): the upstream "
                "importer cannot read gpu.dynamic_shared_memory back",
            )
        stream = self.stream(op)
        groups, items = self.scalar(op, op.n_groups), self.scalar(op, op.n_items)
        args = ", ".join(
            f"{self.operand_list(op, [a])} : {self.types_of(op, [a])}" for a in op.args
        )
        self.vanish(op)
        one = self.constant(1)
        kernel = "::".join(
            ["@" + op.kernel.root_reference.data]
            + ["@" + r.data for r in op.kernel.nested_references.data]
        )
        sizes = f"blocks in ({groups}, {one}, {one}) threads in ({items}, {one}, {one})"
        self.run(
            op, stream, f"gpu.launch_func {kernel} {sizes}" + (f" args({args})" if args else "")
        )

    def stream_init(self, op: Operation) -> None:
        assert isinstance(op, gpu.StreamInitOp)
        slot = self.get(op, op.slot)
        if not isinstance(slot, StreamSlot):
            raise refuse(op, "its slot is not a host allocation of a !gpu.stream")
        slot.stream = Stream()
        self.vanish(op)

    def stream_sync(self, op: Operation) -> None:
        stream = self.stream(op)
        found = self.pending.pop(stream, None)
        if found is not None:
            self.emit(f"gpu.wait [{found}]")
        self.vanish(op)

    def host_return(self, op: Operation) -> None:
        values = self.kept(op.operands)
        self.flush()
        if values:
            self.emit(f"func.return {self.operand_list(op, values)} : {self.types_of(op, values)}")
        else:
            self.emit("func.return")


HostWriter.table = {
    **Writer.table,
    "gpu.init": HostWriter.vanish,
    "gpu.auto_init": HostWriter.vanish,
    "gpu.deinit": HostWriter.deinit,
    "gpu.auto_deinit": HostWriter.deinit,
    "gpu.default_stream": HostWriter.default_stream,
    "mem.alloc": HostWriter.host_alloc,
    "mem.slot": HostWriter.host_alloc,
    "mem.free": HostWriter.host_free,
    "gpu.alloc.block": HostWriter.gpu_alloc,
    "gpu.alloc.asyn": HostWriter.gpu_alloc,
    "gpu.copy_to_device.block": HostWriter.copy,
    "gpu.copy_to_device.asyn": HostWriter.copy,
    "gpu.copy_to_host.block": HostWriter.copy,
    "gpu.copy_to_host.asyn": HostWriter.copy,
    "gpu.free.block": HostWriter.gpu_free,
    "gpu.free.asyn": HostWriter.gpu_free,
    "gpu.launch": HostWriter.launch,
    "gpu.stream_init": HostWriter.stream_init,
    "gpu.stream_sync": HostWriter.stream_sync,
    "gpu.stream_deinit": HostWriter.stream_sync,
    "func.return": HostWriter.host_return,
}


def function(writer: Writer, op: func.FuncOp) -> list[str]:
    """A host function, or a device function (not a kernel) in the gpu.module."""
    if op.is_declaration:
        raise refuse(op, "a declaration is not exported")
    entry = op.body.blocks[0]
    params = writer.bind_args(op, entry.args)
    outputs = [t for t in op.function_type.outputs.data if not is_token(t)]
    results = ", ".join(writer.type_text(op, t) for t in outputs)
    head = f"func.func @{op.sym_name.data}({params})" + (f" -> ({results})" if outputs else "")
    writer.blocks_of(op, op.body)
    indent = "  " * (writer.depth - 1)
    return [f"{indent}{head} {{", *writer.lines, f"{indent}}}"]


def split_program(ctx, module: ModuleOp) -> tuple[ModuleOp, ModuleOp]:  # noqa: ANN001
    """The `@host` and `@device` modules of `module`, through `gpu-pipeline` if not split."""
    from gpuir.ir.pass_manager import run_pass
    from gpuir.passes.gpu_pipeline import GpuPipelinePass

    def parts() -> tuple[ModuleOp | None, ModuleOp | None]:
        host = device = None
        for op in module.ops:
            if isinstance(op, ModuleOp):
                if DEVICE_ATTR in op.attributes:
                    device = op
                elif op.sym_name is not None and op.sym_name.data == "host":
                    host = op
        return host, device

    host, device = parts()
    if host is None or device is None:
        run_pass(ctx, module, GpuPipelinePass())
        host, device = parts()
    if host is None or device is None:
        raise OpError(module, "exporting to upstream MLIR: the program has no @host and @device")
    return host, device


def export_program(ctx, module: ModuleOp, target: str) -> str:  # noqa: ANN001
    """`module` (a gpuir program) as upstream MLIR's text; `target` is the gpu.module's
    `#nvvm.target<…>`. An `OpError` at the first op that cannot be exported."""
    host, device = split_program(ctx, module)
    lines = ["module attributes {gpu.container_module} {"]
    lines.append(f"  gpu.module @device [{target}] {{")
    for op in device.ops:
        if not isinstance(op, func.FuncOp):
            raise refuse(op, "only functions are exported from the device module")
        if KERNEL_ATTR in op.attributes:
            lines += KernelWriter(3).kernel(op)
        else:
            lines += function(KernelWriter(3), op)
    lines.append("  }")
    if not device.ops:  # no kernels: no gpu.module (an empty one has no block to read back)
        lines = lines[:1]
    for op in host.ops:
        if not isinstance(op, func.FuncOp):
            raise refuse(op, "only functions are exported from the host module")
        lines += function(HostWriter(2), op)
    lines.append("}")
    return "\n".join(lines) + "\n"


__all__ = ["HostWriter", "attr_text", "export_program"]
