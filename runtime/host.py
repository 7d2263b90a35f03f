"""The host executor: runs `@host`'s functions on xDSL's interpreter and drives a provider.

After the default pipeline the program is `builtin.module { @host, @device }`; a program that
was not split is both its own host and device module. Host code runs on a `HostMachine`:
- `arith`, `math`, `scf`, `cf`, `func`, `printf` as everywhere (`gpuir.runtime.engine`);
  `printf` and `buffer.print` write to one output stream (`out`, default `sys.stdout`), in
  program order;
- `mem` in space 0 on host allocations (checked: `out of bounds`, `use after free`); a host
  `mem.alloc`/`mem.malloc`/`mem.free` in space 1 goes to the provider; host code never loads or
  stores device memory itself;
- `gpu` ops call the provider: `init`/`auto_init` open the device (nested sessions share it; a
  device that is open already, e.g. by the Python API, stays open), `deinit`/`auto_deinit`
  synchronize and close it, streams, allocation, copies (a `!mem.array<? x T>` copies the bytes
  its source allocation holds from the pointer on), the composites (`alloc_copy`,
  `with_streams`, `buf_alloc_copy`, `buf_copy_to_host`) when no pass expanded them, and
  `gpu.launch`, which loads the device module once per session and passes the launch's
  arguments as `(value, type)`;
- `buffer` ops, when no pass lowered them: a buffer is a pointer to its nested arrays in host
  memory, exactly as `buffer-lower-ptr` makes it, and prints as that pass's loops print. A view
  is a pointer to the start of the storage it views (typed as nested arrays of its own shape);
  its elements are where its type's layout puts them. A view goes to the device only through
  a dense copy (`gpu.buf_alloc_copy` of a strided buffer is an error).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import IO

from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.interpreter import (
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Attribute, Operation

from gpuir.dialects import buffer, gpu
from gpuir.dialects.buffer import BufType
from gpuir.dialects.gpu import buffer_array_type
from gpuir.dialects.mem import GLOBAL, HOST, ArrayType, MemType, PtrType
from gpuir.passes.device_code import launched_name
from gpuir.runtime import memory
from gpuir.runtime.eager import EagerHostProvider
from gpuir.runtime.engine import STANDARD_FUNCTIONS, Machine, fail, make_machine
from gpuir.runtime.engine.token_order import Token, entry_tokens, region_tokens
from gpuir.runtime.memory import Allocation, Pointer, alloc_size, size_of, space_name, store_size
from gpuir.runtime.provider import LoadedModule, Provider, ProviderError, Stream
from gpuir.runtime.scalars import TOKEN, float_dtype, format_fixed2, from_attr
from gpuir.runtime.session import (  # noqa: F401  # split_modules: re-exported
    DeviceSession,
    called_function,
    check_entry,
    copy_size,
    host_function,
    scalar_params,
    split_modules,
)

# --- the machine ---------------------------------------------------------------------------------


class HostMachine(Machine):
    """Host code: host memory here, device memory through the executor's provider."""

    who = "host code"

    def attach(self, executor: HostExecutor) -> None:
        self.executor = executor

    def write(self, text: str) -> None:
        (self.executor.out or sys.stdout).write(text)

    def _host_only(self, op: Operation, ptr: Pointer, verb: str) -> None:
        space = ptr.space
        if space is not None and space != HOST:
            raise ProviderError(
                op,
                f"host code {verb} {space_name(space)} memory, which it cannot access directly "
                "(copy it with gpu.copy_to_host / gpu.copy_to_device)",
                "invalid address space",
            )

    def touch(self, op: Operation, ptr: Pointer, nbytes: int, write: bool) -> None:
        """Record an access of `nbytes` at `ptr` by a copy, for the token-order check."""
        if self.order is not None:
            self.order.access(self, op, ptr, nbytes, write)

    def load(self, op: Operation, ptr: Pointer) -> object:
        self._host_only(op, ptr, "loads from")
        value = memory.load(ptr, op, self.who)
        if self.order is not None:
            self.order.access(self, op, ptr, store_size(ptr.pointee), False)
        self._stream_order(op, ptr, False)
        return value

    def store(self, op: Operation, ptr: Pointer, value: object) -> None:
        self._host_only(op, ptr, "stores to")
        memory.store(ptr, value, op, self.who)
        if self.order is not None:
            self.order.access(self, op, ptr, store_size(ptr.pointee), True)
        self._stream_order(op, ptr, True)

    def _stream_order(self, op: Operation, ptr: Pointer, write: bool) -> None:
        """The provider's stream-order check of a host access (interp's `streams`), if any."""
        streams = getattr(self.executor.provider, "stream_order", None)
        if streams is not None:
            streams.host_op(op)
            streams.access(ptr, store_size(ptr.pointee), write)

    def allocate(
        self, op: Operation, space: int, pointee: Attribute, extent: int | None, nbytes: int
    ) -> Pointer:
        if space == HOST:
            allocation = Allocation(HOST, nbytes, pointee, extent, op=op, what="host allocation")
            return Pointer(allocation, 0, pointee)
        if space == GLOBAL:
            return self.executor.provider.alloc(nbytes, pointee, extent, op=op)
        raise ProviderError(
            op, f"host code cannot allocate {space_name(space)} memory", "invalid address space"
        )

    def free(self, op: Operation, ptr: Pointer) -> None:
        ptr_type = op.operands[1].type
        assert isinstance(ptr_type, PtrType)
        if ptr_type.space.data == GLOBAL:
            self.executor.provider.free(ptr, op=op)
        else:
            memory.free(ptr, op, ptr_type.space.data, self.who)
            if self.order is not None:
                self.order.free(self, op, ptr)
            streams = getattr(self.executor.provider, "stream_order", None)
            if streams is not None:
                streams.host_op(op)
                streams.free(ptr)

    def slot(self, op: Operation, space: int, pointee: Attribute, nbytes: int) -> Pointer:
        if space != HOST:
            raise ProviderError(
                op,
                f"host code cannot make a slot in {space_name(space)} memory",
                "invalid address space",
            )
        allocation = Allocation(HOST, nbytes, pointee, op=op, what="host slot")
        self.frames[-1].append(allocation)
        return Pointer(allocation, 0, pointee)


def _stream_arg(op: Operation, args: PythonValues) -> Stream:
    for value, operand in zip(args, op.operands, strict=True):
        if isinstance(operand.type, gpu.StreamType):
            assert isinstance(value, Stream)
            return value
    raise AssertionError(f"{op.name} has no stream operand")


def _result_ptr_type(op: Operation) -> PtrType:
    ptr_type = op.results[-1].type
    assert isinstance(ptr_type, PtrType)
    return ptr_type


def _init(self: object, machine: HostMachine, op: Operation, args: PythonValues):
    machine.executor.open(op)
    return (TOKEN, TOKEN, TOKEN)


def _deinit(self: object, machine: HostMachine, op: Operation, args: PythonValues):
    machine.executor.close(op)
    return (TOKEN,)


def _copy(self: object, machine: HostMachine, op: Operation, args: PythonValues):
    """Both directions: `copy_to_device` and `copy_to_host`, blocking or on a stream."""
    stream = _stream_arg(op, args) if len(args) > 4 else None
    src, dst = args[2], args[3]
    nbytes = copy_size(src)
    provider = machine.executor.provider
    to_device = isinstance(op, gpu.CopyToDeviceBlockOp | gpu.CopyToDeviceAsynOp)
    copy = provider.copy_to_device if to_device else provider.copy_to_host
    copy(dst, src, nbytes, stream=stream, op=op)
    machine.touch(op, src, nbytes, False)
    machine.touch(op, dst, nbytes, True)
    return (TOKEN, TOKEN)


def _alloc_copy_op(self: object, machine: HostMachine, op: Operation, args: PythonValues):
    stream = _stream_arg(op, args) if len(args) > 3 else None
    return (TOKEN, TOKEN, _alloc_copy(machine, op, args[2], stream))


@register_impls
class GpuHostFunctions(InterpreterFunctions):
    """The `gpu` ops of host code: each one provider call (or a few, for a composite)."""

    run_init = impl(gpu.InitOp)(_init)
    run_auto_init = impl(gpu.AutoInitOp)(_init)
    run_deinit = impl(gpu.DeinitOp)(_deinit)
    run_auto_deinit = impl(gpu.AutoDeinitOp)(_deinit)

    @impl(gpu.DefaultStreamOp)
    def run_default_stream(self, machine: HostMachine, op: Operation, args: PythonValues):
        return (machine.executor.provider.default_stream(),)

    @impl(gpu.StreamInitOp)
    def run_stream_init(self, machine: HostMachine, op: Operation, args: PythonValues):
        stream = machine.executor.provider.create_stream(op=op)
        machine.store(op, args[2], stream)
        return (TOKEN, TOKEN)

    @impl(gpu.StreamDeinitOp)
    def run_stream_deinit(self, machine: HostMachine, op: Operation, args: PythonValues):
        machine.executor.provider.destroy_stream(args[2], op=op)
        return (TOKEN, TOKEN)

    @impl(gpu.StreamSyncOp)
    def run_stream_sync(self, machine: HostMachine, op: Operation, args: PythonValues):
        machine.executor.provider.sync_stream(args[2], op=op)
        return (TOKEN, TOKEN)

    @impl(gpu.WithStreamsOp)
    def run_with_streams(self, machine: HostMachine, op: gpu.WithStreamsOp, args: PythonValues):
        provider = machine.executor.provider
        streams = [provider.create_stream(op=op) for _ in range(op.count.value.data)]
        tokens = region_tokens(machine, op)
        results = machine.run_ssacfg_region(op.body, (*tokens, *streams), "with_streams")
        for stream in streams:
            provider.destroy_stream(stream, op=op)
        return tuple(results)

    @impl_terminator(gpu.YieldOp)
    def run_yield(self, machine: HostMachine, op: Operation, args: PythonValues):
        return ReturnedValues(args), ()

    @impl(gpu.AllocBlockOp)
    def run_alloc_block(self, machine: HostMachine, op: gpu.AllocBlockOp, args: PythonValues):
        return (TOKEN, _device_alloc(machine, op, args[1] if len(args) > 1 else None, None))

    @impl(gpu.AllocAsynOp)
    def run_alloc_asyn(self, machine: HostMachine, op: gpu.AllocAsynOp, args: PythonValues):
        extent = args[2] if len(args) > 2 else None
        return (TOKEN, _device_alloc(machine, op, extent, args[1]))

    @impl(gpu.FreeBlockOp)
    def run_free_block(self, machine: HostMachine, op: Operation, args: PythonValues):
        machine.executor.provider.free(args[1], op=op)
        if machine.order is not None:
            machine.order.free(machine, op, args[1])
        return (TOKEN,)

    @impl(gpu.FreeAsynOp)
    def run_free_asyn(self, machine: HostMachine, op: Operation, args: PythonValues):
        machine.executor.provider.free(args[1], stream=args[2], op=op)
        if machine.order is not None:
            machine.order.free(machine, op, args[1])
        return (TOKEN,)

    run_copy_to_device = impl(gpu.CopyToDeviceBlockOp)(_copy)
    run_copy_to_device_asyn = impl(gpu.CopyToDeviceAsynOp)(_copy)
    run_copy_to_host = impl(gpu.CopyToHostBlockOp)(_copy)
    run_copy_to_host_asyn = impl(gpu.CopyToHostAsynOp)(_copy)
    run_alloc_copy = impl(gpu.AllocCopyBlockOp)(_alloc_copy_op)
    run_alloc_copy_asyn = impl(gpu.AllocCopyAsynOp)(_alloc_copy_op)

    @impl(gpu.BufAllocCopyOp)
    def run_buf_alloc_copy(self, machine: HostMachine, op: gpu.BufAllocCopyOp, args: PythonValues):
        _expect_dense(op, op.buf.type)
        return (TOKEN, TOKEN, _alloc_copy(machine, op, args[2], None))

    @impl(gpu.BufCopyToHostOp)
    def run_buf_copy_to_host(
        self, machine: HostMachine, op: gpu.BufCopyToHostOp, args: PythonValues
    ):
        _expect_dense(op, op.dst.type)
        src, dst = args[2], args[3]
        nbytes = copy_size(src)
        machine.executor.provider.copy_to_host(dst, src, nbytes, op=op)
        machine.touch(op, src, nbytes, False)
        machine.touch(op, dst, nbytes, True)
        return (TOKEN, TOKEN)

    @impl(gpu.LaunchOp)
    def run_launch(self, machine: HostMachine, op: gpu.LaunchOp, args: PythonValues):
        executor = machine.executor
        n_groups, n_items, stream = args[0], args[1], args[2]
        has_extent = op.smem_extent is not None
        smem_bytes = 0
        if op.smem is not None:
            extent = args[3] if has_extent else None
            if extent is not None and extent < 0:
                raise fail(op, f"'{op.name}' asks for a negative shared extent ({extent})")
            smem_bytes = alloc_size(op.smem, extent)
        values = args[3 + has_extent + 3 :]
        typed = list(zip(values, op.args.types, strict=True))
        provider = executor.provider
        tracked = isinstance(provider, EagerHostProvider) and isinstance(
            machine.events.get(GLOBAL), Token
        )  # the launch consumed a tracked token of global memory
        if tracked:
            provider.launched_by = (machine, op)  # the kernel's accesses are the launch's
        try:
            provider.launch(
                executor.module_for(op),
                launched_name(op.kernel),
                n_groups,
                n_items,
                smem_bytes,
                stream,
                typed,
                op=op,
            )
        finally:
            if tracked:
                provider.launched_by = None
        return (TOKEN, TOKEN, TOKEN)


def _device_alloc(
    machine: HostMachine, op: Operation, extent: int | None, stream: Stream | None
) -> Pointer:
    pointee = _result_ptr_type(op).pointee
    if extent is not None and extent < 0:
        raise fail(op, f"'{op.name}' of a negative extent ({extent})", "invalid value")
    nbytes = alloc_size(pointee, extent)
    return machine.executor.provider.alloc(nbytes, pointee, extent, stream=stream, op=op)


def _alloc_copy(
    machine: HostMachine, op: Operation, src: Pointer, stream: Stream | None
) -> Pointer:
    pointee = _result_ptr_type(op).pointee
    nbytes = copy_size(src)
    extent = None
    if isinstance(pointee, ArrayType) and pointee.is_dynamic:
        extent = nbytes // size_of(pointee.element_type)
    provider = machine.executor.provider
    dst = provider.alloc(nbytes, pointee, extent, stream=stream, op=op)
    provider.copy_to_device(dst, src, nbytes, stream=stream, op=op)
    machine.touch(op, src, nbytes, False)
    return dst


# --- buffers -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DynamicView:
    """A view whose type has a `?` offset or extent (`BufType.is_dynamic_view`): the pointer
    to the start of the storage it views, with the run-time offset and shape its view ops gave
    it (its strides are in its type)."""

    root: Pointer
    offset: int
    shape: tuple[int, ...]


def _view_parts(
    buf: Pointer | DynamicView, type_: BufType, op: Operation
) -> tuple[Pointer, int, tuple[int, ...]]:
    """The storage, offset and shape of the buffer or view `buf` of type `type_`."""
    if isinstance(buf, DynamicView):
        return buf.root, buf.offset, buf.shape
    return buf, type_.offset(), tuple(_buffer_shape(buf, type_, op))


def _buffer_shape(buf: Pointer | DynamicView, type_: Attribute, op: Operation) -> list[int]:
    assert isinstance(type_, BufType)
    if isinstance(buf, DynamicView):
        return list(buf.shape)
    shape = list(type_.get_shape())
    if any(extent == DYNAMIC_INDEX for extent in shape[1:]):
        raise fail(op, f"cannot run {type_}: only the outermost extent of a buffer may be '?'")
    if shape and shape[0] == DYNAMIC_INDEX:
        element = buffer_array_type(type_)
        assert isinstance(element, ArrayType)
        shape[0] = buf.extent_bytes() // max(size_of(element.element_type), 1)
    return shape


def _element(
    buf: Pointer | DynamicView, indices: Sequence[int], type_: Attribute | None = None
) -> Pointer:
    """Element `indices` of the buffer `buf` of type `type_` (dense when not given)."""
    if isinstance(type_, BufType) and not type_.is_dense():
        root, offset = (buf.root, buf.offset) if isinstance(buf, DynamicView) else (buf, None)
        position = (type_.offset() if offset is None else offset) + sum(
            i * s for i, s in zip(indices, type_.strides(), strict=True)
        )
        element = type_.element_type
        return Pointer(root.allocation, root.offset + position * size_of(element), element)
    assert isinstance(buf, Pointer)
    for index in indices:
        buf = buf.lea(index)
    return buf


def _expect_dense(op: Operation, type_: Attribute) -> None:
    if isinstance(type_, BufType) and not type_.is_dense():
        raise fail(op, f"'{op.name}' copies dense buffers only, found the view {type_}")


def _new_buffer(machine: HostMachine, op: Operation, type_: Attribute, extent: int | None):
    assert isinstance(type_, BufType)
    pointee = buffer_array_type(type_)
    return machine.allocate(op, HOST, pointee, extent, alloc_size(pointee, extent))


def _print_element(value: object, type_: Attribute) -> str:
    if float_dtype(type_) is not None:
        return f"{format_fixed2(value, type_)}, "  # C's %.2f, as buffer-lower-ptr
    return f"{value}, "


def _run_view(
    self: InterpreterFunctions, machine: HostMachine, op: buffer.ViewOp, args: PythonValues
) -> PythonValues:
    """A view is the pointer to its storage, typed as nested arrays of the view's shape (a
    `DynamicView` when its type has a `?`)."""
    result, source = op.res.type, op.source.type
    assert isinstance(result, BufType) and isinstance(source, BufType)
    root, offset, shape = _view_parts(args[0], source, op)
    if isinstance(op, buffer.SubviewOp):
        values = iter(args[1:])
        offsets = [
            next(values) if o == DYNAMIC_INDEX else o for o in op.static_offsets.get_values()
        ]
        sizes = [next(values) if z == DYNAMIC_INDEX else z for z in op.static_sizes.get_values()]
        for d, (o, z, t, n) in enumerate(
            zip(offsets, sizes, op.static_strides.get_values(), shape, strict=True)
        ):
            if o < 0 or z < 0 or (z and o + (z - 1) * t >= n) or o > n:
                raise fail(
                    op,
                    f"'{op.name}' at offset {o}, size {z}, stride {t} leaves dimension {d} of "
                    f"extent {n}",
                )
        offset += sum(o * s for o, s in zip(offsets, source.strides(), strict=True))
        shape = tuple(sizes)
    elif isinstance(op, buffer.TransposeOp):
        shape = tuple(shape[p] for p in op.permutation.get_values())
    if result.is_dynamic_view():
        return (DynamicView(root, offset, shape),)
    return (root.with_pointee(buffer_array_type(result)),)  # its type has the whole offset


@register_impls
class BufferHostFunctions(InterpreterFunctions):
    """`buffer` ops, for programs that reach the executor without `buffer-lower-ptr`."""

    @impl(buffer.AllocOp)
    def run_alloc(self, machine: HostMachine, op: buffer.AllocOp, args: PythonValues):
        extent = args[1] if len(args) > 1 else None
        return (TOKEN, _new_buffer(machine, op, op.res.type, extent))

    @impl(buffer.LitOp)
    def run_lit(self, machine: HostMachine, op: buffer.LitOp, args: PythonValues):
        buf = _new_buffer(machine, op, op.res.type, None)
        for index in product(*map(range, _buffer_shape(buf, op.res.type, op))):
            machine.store(op, _element(buf, index), args[1])
        return (TOKEN, buf)

    @impl(buffer.InitOp)
    def run_init(self, machine: HostMachine, op: buffer.InitOp, args: PythonValues):
        buf = _new_buffer(machine, op, op.res.type, None)
        indices = product(*map(range, _buffer_shape(buf, op.res.type, op)))
        attrs = op.value.get_attrs()
        if len(attrs) == 1:
            attrs = attrs * max(1, _count(_buffer_shape(buf, op.res.type, op)))
        for index, attr in zip(indices, attrs, strict=False):
            machine.store(op, _element(buf, index), from_attr(attr))
        return (TOKEN, buf)

    @impl(buffer.ReadOp)
    def run_read(self, machine: HostMachine, op: buffer.ReadOp, args: PythonValues):
        return (TOKEN, machine.load(op, _element(args[1], args[2:], op.buf.type)))

    @impl(buffer.WriteOp)
    def run_write(self, machine: HostMachine, op: buffer.WriteOp, args: PythonValues):
        machine.store(op, _element(args[1], args[2:-1], op.buf.type), args[-1])
        return (TOKEN, args[1])

    @impl(buffer.ShapeOp)
    def run_shape(self, machine: HostMachine, op: buffer.ShapeOp, args: PythonValues):
        return (_buffer_shape(args[0], op.buf.type, op)[op.dim.value.data],)

    @impl(buffer.CopyOp)
    def run_copy(self, machine: HostMachine, op: buffer.CopyOp, args: PythonValues):
        dst, src = args[1], args[2]
        dst_type, src_type = op.dst.type, op.src.type
        assert isinstance(dst_type, BufType) and isinstance(src_type, BufType)
        if dst_type.is_dense() and src_type.is_dense():
            data = memory.read_bytes(src, src.extent_bytes(), op, machine.who)
            memory.write_bytes(dst, data, op, machine.who)
            machine.touch(op, src, len(data), False)
            machine.touch(op, dst, len(data), True)
            return (TOKEN,)
        shape = _buffer_shape(src, src_type, op)
        if shape != _buffer_shape(dst, dst_type, op):
            raise fail(
                op,
                f"'{op.name}' copies a buffer of shape {shape} into one of shape "
                f"{_buffer_shape(dst, dst_type, op)}",
            )
        for index in product(*map(range, shape)):
            value = machine.load(op, _element(src, index, src_type))
            machine.store(op, _element(dst, index, dst_type), value)
        return (TOKEN,)

    @impl(buffer.PrintOp)
    def run_print(self, machine: HostMachine, op: buffer.PrintOp, args: PythonValues):
        buf = args[1]
        type_ = op.buf.type
        assert isinstance(type_, BufType)
        shape = _buffer_shape(buf, type_, op)
        rows, columns = shape[:-1], shape[-1:]
        for row in product(*map(range, rows)):
            line = "".join(
                _print_element(
                    machine.load(op, _element(buf, (*row, *column), type_)), type_.element_type
                )
                for column in product(*map(range, columns))
            )
            machine.write(line + "\n")
        return (TOKEN,)

    run_subview = impl(buffer.SubviewOp)(_run_view)
    run_transpose = impl(buffer.TransposeOp)(_run_view)
    run_broadcast = impl(buffer.BroadcastOp)(_run_view)
    run_view = impl(buffer.ViewStorageOp)(_run_view)


def _count(shape: Sequence[int]) -> int:
    total = 1
    for extent in shape:
        total *= extent
    return total


HOST_FUNCTIONS = (*STANDARD_FUNCTIONS, GpuHostFunctions, BufferHostFunctions)


# --- the executor ------------------------------------------------------------------------------


class HostExecutor(DeviceSession):
    """Runs host functions of a compiled program on xDSL's interpreter against a provider."""

    compiled = False

    def __init__(
        self,
        module: ModuleOp,
        provider: Provider,
        out: IO[str] | None = None,
        loaded: LoadedModule | None = None,
    ):
        self.host, device = split_modules(module)
        super().__init__(device, provider, loaded)
        self.out = out
        machine = make_machine(HostMachine, self.host, HOST_FUNCTIONS)
        assert isinstance(machine, HostMachine)
        machine.attach(self)
        self.machine = machine
        self.functions: dict[str, FuncOp] = dict(machine.functions)

    # calls
    def function(self, name: str = "main") -> FuncOp:
        return host_function(self.functions, name)

    def call(self, name: str, args: Sequence[object]) -> tuple[object, ...]:
        """Call host function `name` with run-time values (tokens included); its results."""
        func = self.function(name)
        try:
            return tuple(self.machine.call(func, tuple(args)))
        finally:
            self.finish()

    def run_main(
        self, scalars: Sequence[object], name: str = "main"
    ) -> list[tuple[object, Attribute]]:
        """Call `name` with a token for each token parameter and `scalars` (run-time values)
        for the others; its non-token results as `(value, type)`."""
        func, expected = called_function(self.functions, name, scalars)
        args: list[object] = []
        given = iter(scalars)
        params = func.function_type.inputs.data
        tokens = iter(entry_tokens(self.machine, params))
        for param in params:
            args.append(next(tokens) if isinstance(param, MemType) else next(given))
        results = self.call(name, args)
        types = func.function_type.outputs.data
        return [(v, t) for v, t in zip(results, types, strict=True) if not isinstance(t, MemType)]
