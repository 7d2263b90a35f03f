"""The `cuda` provider: gpuir programs on an NVIDIA GPU, through PyCUDA (the CUDA driver API).

tinygrad's split (STYLE.md): `gpuir.lowering` renders the device module to PTX (the compiler),
and this provider is the device: a session, global memory, copies, streams, module loading and
launches, every driver call made through the one status-check helper `check`.

What each host op becomes (as MimIR's `ll_nvptx` back end emits it, reference §7):

| op | driver call (PyCUDA) |
| --- | --- |
| `gpu.init` | `cuInit`, `cuDeviceGet(0)`, `cuDevicePrimaryCtxRetain`, `cuCtxPushCurrent` |
| `gpu.deinit` | `cuCtxSynchronize`, `cuMemFree` of what is left, `cuCtxPopCurrent`, `cuDevicePrimaryCtxRelease` |
| `gpu.alloc.block` / `gpu.free.block` | `cuMemAlloc` / `cuMemFree` |
| `gpu.alloc.asyn` | `cuMemAlloc` (PyCUDA has no `cuMemAllocAsync`; memory that exists at once is valid for all later work on the stream) |
| `gpu.free.asyn` | `cuStreamSynchronize` of the stream (`cuCtxSynchronize` for the default one), then `cuMemFree` (PyCUDA has no `cuMemFreeAsync`) |
| `gpu.copy_to_device` / `gpu.copy_to_host` | `cuMemcpyHtoD` / `cuMemcpyDtoH`; `.asyn`: `cuMemcpyHtoDAsync` / `cuMemcpyDtoHAsync` on the stream |
| `gpu.stream_init` / `stream_sync` / `stream_deinit` | `cuStreamCreate` / `cuStreamSynchronize` / `cuStreamSynchronize` + `cuStreamDestroy` |
| `gpu.default_stream` | the null stream (handle 0) |
| `gpu.launch` | `cuLaunchKernel` of a prepared function: grid `(n_groups, 1, 1)`, block `(n_items, 1, 1)`, `sharedMemBytes` = `smem_bytes`, the arguments packed by the format of the kernel's parameters, computed once per kernel |
| loading the device module | PTX from `gpuir.lowering` for the device's `sm` (capped to what LLVM knows) and a PTX ISA version the driver accepts, then `cuModuleLoadDataEx` |

Copies come from and go to the host allocation's numpy bytes, which are pageable memory: the
driver stages an asynchronous copy from pageable memory (`cuMemcpyHtoDAsync` returns once the
source is read, `cuMemcpyDtoHAsync` once the copy is done), so the `.asyn` copies are correct
in every order but do not overlap with the host.

Errors. Every failed driver call is a `ProviderError` at the op that made it, named after the
CUDA error (`CUDA_ERROR_ILLEGAL_ADDRESS`, `CUDA_ERROR_OUT_OF_MEMORY`, …). A kernel that faults is
reported by the first driver call after the fault (a synchronize, a copy, the next launch),
at the op that made that call, with notes at the launches that had not been waited for. The
device is unusable after a fault: the session ends (`close` releases the context, and the next
`open` starts a fresh one). Launches are checked before they reach the driver: the kernel's
arguments, at most as many work-items per group as the kernel can run on this device, the
grid's extent and the dynamic shared memory.

Kernel arguments follow the kernel ABI (`gpuir.lowering`): each launch argument in order,
`index` as `u64`, pointers as their 64-bit device address, `f16` as its 16 bits, other scalars
as they are, a struct as its bytes in C's layout (`gpuir.runtime.structs`, the same bytes the
`cpu` provider passes); `arg_format` gives the `struct` format PyCUDA packs them with,
computed once per kernel, with the kernel's argument buffer: each launch packs its arguments
into it and hands it to `Function._launch_kernel` (what PyCUDA's `prepared_async_call` calls
after packing a new buffer; `cuLaunchKernel` copies the bytes). Nothing of a launch is kept
but its entry in `pending`, until the next sync.
"""

from __future__ import annotations

import atexit
import struct
import sys
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import numpy as np
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import DiagnosticException

from gpuir.dialects.mem import GLOBAL, HOST
from gpuir.lowering.llvm import print_abi
from gpuir.runtime import device_print, memory, structs
from gpuir.runtime.cuda import driver_api
from gpuir.runtime.cuda.arguments import arg_format, arg_value, min_smem_bytes, smem_pointee
from gpuir.runtime.cuda.driver_api import (
    FAULTS,
    DriverError,
    check,
    first_line,
)
from gpuir.runtime.cuda.targets import PTX_REJECTED, choose_target
from gpuir.runtime.memory import Allocation, Pointer
from gpuir.runtime.provider import (
    Launch,
    LoadedModule,
    Provider,
    ProviderError,
    Stream,
    check_launch,
    kernels_of,
)


@dataclass
class PreparedKernel:
    """A kernel ready to launch: its PyCUDA function, prepared with the argument format, its
    limits on this device, and its argument buffer (`params`: the format as a `struct.Struct`,
    `buffer`: the bytes each launch packs its arguments into and hands to `cuLaunchKernel`,
    which copies them)."""

    function: Any
    max_items: int
    max_dynamic_smem: int
    dynamic_smem_allowed: int
    params: struct.Struct | None = None
    buffer: bytearray = field(default_factory=bytearray)


@dataclass
class CudaModule:
    """What the cuda provider keeps of a loaded device module."""

    module: Any
    ptx: str
    sm: int
    ptx_version: float
    session: int
    prepared: dict[str, PreparedKernel] = field(default_factory=dict[str, PreparedKernel])
    printing: CudaPrinting | None = None
    """How the module's kernels print, when they do."""


@dataclass
class CudaPrinting:
    """A printing module's print buffer in device memory (`gpuir.runtime.device_print`): the
    device addresses of its globals, its formats, and the buffer (made on first use)."""

    globals_: dict[str, int]
    formats: list[device_print.Format]
    buffer: Any = None


_OPEN: weakref.WeakSet[CudaProvider] = weakref.WeakSet()


@atexit.register
def _close_open_providers() -> None:
    """PyCUDA aborts the process if a context is still pushed when it unloads."""
    for provider in list(_OPEN):
        try:
            provider.close()
        except Exception:
            pass


class CudaProvider(Provider):
    """The CUDA device 0 (module docstring)."""

    name = "cuda"
    host_visible = False

    @classmethod
    def unavailable_reason(cls) -> str | None:
        try:
            drv = driver_api.driver()
        except ModuleNotFoundError as e:
            if e.name is not None and e.name.split(".")[0] == "pycuda":
                return "PyCUDA is not installed (pip install pycuda; see scripts/gpu_check.sh)"
            return f"PyCUDA cannot be imported: {first_line(e)}"
        except Exception as e:  # ImportError of libcuda.so.1, a broken build, …
            return f"PyCUDA cannot load the CUDA driver: {first_line(e)}"
        try:
            drv.init()
            count = drv.Device.count()
        except Exception as e:
            return f"no CUDA device ({DriverError.parse(str(e)).describe()})"
        if count == 0:
            return "no CUDA device"
        return None

    def __init__(self, out: IO[str] | None = None) -> None:
        """`out` receives the output of kernels' `printf` (default: `sys.stdout` at the time of
        the launch)."""
        super().__init__()
        self.out = out
        self.index_bitwidth = 64
        """64, or 32: device code with 32-bit index values (`PtxOptions.index_bitwidth`; the
        kernel ABI is the same, so nothing else here changes)."""
        self.session = 0
        self.live: dict[int, tuple[Allocation, Any]] = {}
        self.streams: dict[int, Any] = {}
        self.pending: list[tuple[int, str, Operation | None]] = []
        """Launches not yet waited for: (stream handle, kernel, op)."""
        self.faulted = False
        self.context: Any = None
        self.device: Any = None

    # --- the session ------------------------------------------------------------------------

    def open(self, *, op: Operation | None = None) -> None:
        if self.is_open:
            raise ProviderError(op, "cuda: the device is open already", "already open")
        try:
            drv = driver_api.driver()
        except Exception as e:
            reason = self.unavailable_reason() or first_line(e)
            raise ProviderError(op, f"cuda: {reason}", "not available") from None
        check(op, drv.init)
        self.device = check(op, drv.Device, 0)
        attribute = drv.device_attribute
        self.max_items = check(op, self.device.get_attribute, attribute.MAX_THREADS_PER_BLOCK)
        self.max_groups = check(op, self.device.get_attribute, attribute.MAX_GRID_DIM_X)
        self.max_smem = check(
            op, self.device.get_attribute, attribute.MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
        )
        self.capability: tuple[int, int] = check(op, self.device.compute_capability)
        self.driver_version: int = check(op, drv.get_driver_version)
        self.context = check(op, self.device.retain_primary_context)
        try:
            check(op, self.context.push)
        except ProviderError:
            self.context.detach()
            raise
        self.session += 1
        self.live, self.streams, self.pending = {}, {}, []
        self.faulted = False
        self.is_open = True
        _OPEN.add(self)

    def close(self, *, op: Operation | None = None) -> None:
        self.check_open(op)
        drv = driver_api.driver()
        error: ProviderError | None = None
        if not self.faulted:
            try:
                self.synchronize(op=op)
            except ProviderError as e:
                error = e
        for allocation, device_allocation in self.live.values():
            allocation.mark_freed(op)
            try:
                device_allocation.free()
            except drv.Error:
                pass  # a faulted context frees everything with itself
        self.live, self.streams, self.pending = {}, {}, []
        try:
            self.context.pop()
            self.context.detach()
        except drv.Error:
            pass
        self.context = None
        self.is_open = False
        _OPEN.discard(self)
        if error is not None:
            raise error

    def _call(self, op: Operation | None, fn: Callable[..., Any], *args: Any, **kwargs: Any):
        """`check`, and after a kernel fault: notes at the launches not yet waited for, and the
        session marked unusable."""
        try:
            return check(op, fn, *args, **kwargs)
        except ProviderError as e:
            if e.name in FAULTS:
                self.faulted = True
                recent = self.pending[-3:]
                kernels = ", ".join(f"@{kernel}" for _, kernel, _ in recent) or "none"
                e.args = (
                    f"{e.args[0]}; a kernel faulted, and the device reports a fault at the first "
                    f"call after it (launches not yet waited for: {kernels})",
                )
                e.related.extend(
                    (o, f"launch of @{k}, not yet waited for") for _, k, o in recent if o
                )
                self.pending = []
            raise

    def _usable(self, op: Operation | None) -> None:
        self.check_open(op)
        if self.faulted:
            raise ProviderError(
                op,
                "cuda: the device faulted earlier in this session; close it and open it again",
                "device faulted",
            )

    # --- global memory ----------------------------------------------------------------------

    def alloc(self, nbytes, pointee, extent=None, *, stream=None, op=None) -> Pointer:
        self._usable(op)
        self._stream(stream, op)
        if nbytes < 0:
            raise ProviderError(op, f"cuda: cannot allocate {nbytes} bytes", "invalid value")
        device_allocation = self._call(op, driver_api.driver().mem_alloc, max(nbytes, 1))
        address = int(device_allocation)
        allocation = Allocation.device(nbytes, pointee, extent, address, op, "global allocation")
        self.live[allocation.serial] = (allocation, device_allocation)
        return Pointer(allocation, 0, pointee)

    def free(self, ptr, *, stream=None, op=None) -> None:
        self._usable(op)
        cu_stream = self._stream(stream, op)
        if ptr.allocation is not None and not ptr.allocation.freed:
            self._own(ptr.allocation, op, "the pointer freed is")
        allocation = memory.free(ptr, op, GLOBAL)
        _, device_allocation = self.live.pop(allocation.serial)
        if stream is not None:  # stream-ordered: after the work queued on the stream
            self._call(
                op, cu_stream.synchronize if cu_stream else driver_api.driver().Context.synchronize
            )
            self._forget_launches(stream)
        self._call(op, device_allocation.free)

    def _own(
        self, allocation: Allocation, op: Operation | None, role: str, what: str = "global memory"
    ) -> None:
        """`allocation` (the `role` of `op`: `the pointer freed is`) must be `what` of this
        device: one it allocated (a freed one is a use after free, said elsewhere)."""
        if allocation.serial not in self.live and not allocation.freed:
            raise ProviderError(
                op,
                f"cuda: {role} {allocation.describe()}, which is not {what} of this device",
                "invalid value",
            )

    def _check_copy(
        self, device: Pointer, host: Pointer, nbytes: int, op: Operation | None, to_device: bool
    ) -> tuple[int, np.ndarray]:
        """The device address and the host bytes of a copy, both checked."""
        if to_device:
            memory.check_copy_spaces("cuda", device, host, (HOST, GLOBAL), op)
        else:
            memory.check_copy_spaces("cuda", host, device, (GLOBAL, HOST), op)
        verb = "reads" if to_device else "writes"
        host_allocation, host_offset = memory.check_access(
            host, nbytes, op, f"{verb} {nbytes} bytes {'from' if to_device else 'to'}"
        )
        device_allocation, device_offset = memory.check_access(
            device, nbytes, op, f"{'writes' if to_device else 'reads'} {nbytes} bytes at"
        )
        self._own(device_allocation, op, "the copy's device side is")
        data = memory.host_bytes(host_allocation, op)[host_offset : host_offset + nbytes]
        return device_allocation.address + device_offset, data

    def copy_to_device(self, dst, src, nbytes, *, stream=None, op=None) -> None:
        self._copy(dst, src, nbytes, stream, op, to_device=True)

    def copy_to_host(self, dst, src, nbytes, *, stream=None, op=None) -> None:
        self._copy(src, dst, nbytes, stream, op, to_device=False)

    def _copy(self, device, host, nbytes, stream, op, *, to_device: bool) -> None:
        """A copy between `host` memory and `device` memory, blocking or on `stream`."""
        self._usable(op)
        cu_stream = self._stream(stream, op)
        address, data = self._check_copy(device, host, nbytes, op, to_device=to_device)
        if nbytes == 0:
            return
        drv = driver_api.driver()
        if to_device:
            args = (address, data) if stream is None else (address, data, cu_stream)
            self._call(op, drv.memcpy_htod if stream is None else drv.memcpy_htod_async, *args)
        else:
            args = (data, address) if stream is None else (data, address, cu_stream)
            self._call(op, drv.memcpy_dtoh if stream is None else drv.memcpy_dtoh_async, *args)

    # --- streams ------------------------------------------------------------------------------

    def _stream(self, stream: Stream | None, op: Operation | None) -> Any:
        """The PyCUDA stream of a handle (None for the default stream and for blocking calls)."""
        if stream is None or stream.handle == 0:
            return None
        found = self.streams.get(stream.handle)
        if found is None:
            raise ProviderError(
                op, f"cuda: {stream} does not exist (never created, or destroyed)", "invalid stream"
            )
        return found

    def _forget_launches(self, stream: Stream | None) -> None:
        handle = 0 if stream is None else stream.handle
        self.pending = [launch for launch in self.pending if launch[0] != handle]

    def create_stream(self, *, op=None) -> Stream:
        self._usable(op)
        cu_stream = self._call(op, driver_api.driver().Stream)
        self.streams[cu_stream.handle] = cu_stream
        return Stream(cu_stream.handle)

    def sync_stream(self, stream, *, op=None) -> None:
        self._usable(op)
        cu_stream = self._stream(stream, op)
        if cu_stream is None:
            self._call(op, driver_api.driver().Context.synchronize)
            self.pending = []
            return
        self._call(op, cu_stream.synchronize)
        self._forget_launches(stream)

    def destroy_stream(self, stream, *, op=None) -> None:
        self._usable(op)
        if stream.handle == 0:
            raise ProviderError(
                op, "cuda: the default stream cannot be destroyed", "invalid stream"
            )
        cu_stream = self._stream(stream, op)
        self._call(op, cu_stream.synchronize)
        self._forget_launches(stream)
        del self.streams[stream.handle]  # PyCUDA destroys the stream with its last reference

    def output(self) -> IO[str]:
        return self.out if self.out is not None else sys.stdout

    def synchronize(self, *, op=None) -> None:
        self._usable(op)
        self._call(op, driver_api.driver().Context.synchronize)
        self.pending = []

    # --- code ---------------------------------------------------------------------------------

    def load_module(self, module: ModuleOp, *, op=None) -> LoadedModule:
        self._usable(op)
        kernels, functions = kernels_of(module)
        try:
            sm, ptx_version = choose_target(self.capability, self.driver_version)
        except ValueError as e:
            raise ProviderError(op, f"cuda: {e}", "unsupported device") from None
        ptx, formats = self.compile(module, sm, ptx_version, op)
        try:
            cu_module = check(op, driver_api.driver().module_from_buffer, ptx.encode() + b"\0")
        except ProviderError as e:
            from gpuir.lowering.nvptx.ptx import MIN_PTX_FOR_SM

            lowest = MIN_PTX_FOR_SM[sm] / 10
            if e.name not in PTX_REJECTED or lowest == ptx_version:
                raise
            ptx_version = lowest  # the driver knows less than its version says: the oldest
            ptx, formats = self.compile(module, sm, ptx_version, op)
            cu_module = self._call(op, driver_api.driver().module_from_buffer, ptx.encode() + b"\0")
        payload = CudaModule(cu_module, ptx, sm, ptx_version, self.session)
        if formats:
            names = (print_abi.BUFFER, print_abi.CAPACITY_GLOBAL, print_abi.CURSOR)
            found = {name: int(self._call(op, cu_module.get_global, name)[0]) for name in names}
            payload.printing = CudaPrinting(found, formats)
        return LoadedModule(module, kernels, payload, functions)

    def compile(
        self, module: ModuleOp, sm: int, ptx_version: float, op: Operation | None
    ) -> tuple[str, list[device_print.Format] | None]:
        """The PTX of the device module (a copy of it is lowered), and its print formats."""
        from gpuir.dialects import make_context
        from gpuir.lowering.nvptx.ptx import PtxOptions, compile_ptx
        from gpuir.lowering.targets import lowered_device_module

        try:
            options = PtxOptions(sm=sm, ptx=ptx_version, index_bitwidth=self.index_bitwidth)
            device = lowered_device_module(
                make_context(), module.clone(), options.index_bitwidth, options.sm
            )
            return compile_ptx(device, options), device_print.formats_of(device)
        except Exception as e:  # a lowering diagnostic, an option the lowering rejects, LLVM
            anchor = getattr(e, "op", None) if isinstance(e, DiagnosticException) else None
            located = anchor is not None and isinstance(anchor.location, FileLineColLoc)
            related = [(op, "loading the device module for this launch")] if op else []
            raise ProviderError(
                anchor if located else op,
                f"cuda: cannot compile the device module to PTX for sm_{sm}: "
                f"{e if isinstance(e, DiagnosticException) else f'{type(e).__name__}: {e}'}",
                "compile error",
                related if located else [],
            ) from None

    def _prepare(self, module: LoadedModule, kernel: str, op: Operation | None) -> PreparedKernel:
        payload = module.payload
        assert isinstance(payload, CudaModule)
        found = payload.prepared.get(kernel)
        if found is not None:
            return found
        func = module.kernel(kernel, op)
        inputs = func.function_type.inputs.data
        fixed = 7 if smem_pointee(inputs) is not None else 6
        try:
            fmt = arg_format(inputs[fixed:])
        except ValueError as e:
            raise ProviderError(op, f"cuda: @{kernel}: {e}", "invalid kernel arguments") from None
        drv = driver_api.driver()
        function = self._call(op, payload.module.get_function, kernel)
        function.prepare(fmt)
        attribute = drv.function_attribute
        max_items = self._call(op, function.get_attribute, attribute.MAX_THREADS_PER_BLOCK)
        static_smem = self._call(op, function.get_attribute, attribute.SHARED_SIZE_BYTES)
        default_smem = self._call(
            op, function.get_attribute, attribute.MAX_DYNAMIC_SHARED_SIZE_BYTES
        )
        prepared = PreparedKernel(
            function, min(max_items, self.max_items), self.max_smem - static_smem, default_smem
        )
        if hasattr(function, "_launch_kernel"):  # PyCUDA's launch of a packed buffer
            prepared.params = struct.Struct(fmt)
            prepared.buffer = bytearray(prepared.params.size)
        payload.prepared[kernel] = prepared
        return prepared

    def launch(
        self, module, kernel, n_groups, n_items, smem_bytes, stream, args, *, op=None
    ) -> None:
        self._usable(op)
        cu_stream = self._stream(stream, op)
        payload = module.payload
        if not isinstance(payload, CudaModule):
            raise ProviderError(op, "cuda: the module was not loaded by cuda", "invalid handle")
        if payload.session != self.session:
            raise ProviderError(
                op, "cuda: the module was loaded before the device was closed", "invalid handle"
            )
        func = module.kernel(kernel, op)
        prepared = self._prepare(module, kernel, op)
        if n_items > prepared.max_items:
            raise ProviderError(
                op,
                f"cuda: invalid launch configuration of @{kernel}: {n_items} work-items per "
                f"group, but this device runs at most {prepared.max_items} per group of "
                f"@{kernel}",
                "invalid launch configuration",
            )
        launch = Launch(module, kernel, n_groups, n_items, smem_bytes, args, op)
        check_launch(self.name, launch, prepared.max_items)
        if n_groups > self.max_groups:
            raise ProviderError(
                op,
                f"cuda: invalid launch configuration of @{kernel}: {n_groups} work-groups, but "
                f"this device runs at most {self.max_groups} in a 1-D grid",
                "invalid launch configuration",
            )
        self._check_smem(func.function_type.inputs.data, kernel, smem_bytes, prepared, op)
        values = []
        for i, (value, type_) in enumerate(args):
            if isinstance(value, Pointer) and value.allocation is not None:
                self._check_pointer_arg(value.allocation, kernel, i, op)
            if not structs.is_struct(type_):
                values.append(arg_value(value, type_))
                continue

            def address(ptr: object, field: int, i: int = i) -> int:
                assert isinstance(ptr, Pointer)
                if ptr.allocation is not None:
                    self._check_pointer_arg(ptr.allocation, kernel, i, op, field)
                return ptr.address

            values.append(arg_value(value, type_, address))
        if payload.printing is not None:
            self._start_printing(payload.printing, op)
        if prepared.params is not None:  # the kernel's buffer, packed in place
            prepared.params.pack_into(prepared.buffer, 0, *values)
            self._call(
                op,
                prepared.function._launch_kernel,  # noqa: SLF001  # what prepared_async_call calls
                (n_groups, 1),
                (n_items, 1, 1),
                prepared.buffer,
                smem_bytes,
                cu_stream,
            )
        else:
            self._call(
                op,
                prepared.function.prepared_async_call,
                (n_groups, 1),
                (n_items, 1, 1),
                cu_stream,
                *values,
                shared_size=smem_bytes,
            )
        self.pending.append((stream.handle, kernel, op))
        if payload.printing is not None:
            self._finish_printing(payload.printing, kernel, op)

    # printing: a launch of a kernel that prints runs alone, and its output is written at its end

    def _start_printing(self, printing: CudaPrinting, op: Operation | None) -> None:
        """Wait for earlier work (and its output), then give the launch an empty buffer."""
        drv = driver_api.driver()
        self.synchronize(op=op)
        if printing.buffer is None:
            size = device_print.CAPACITY
            printing.buffer = self._call(op, drv.mem_alloc, size)
        values = {
            print_abi.BUFFER: int(printing.buffer),
            print_abi.CAPACITY_GLOBAL: device_print.CAPACITY,
            print_abi.CURSOR: 0,
        }
        for name, value in values.items():
            data = np.array([value], np.uint64).view(np.uint8)
            self._call(op, drv.memcpy_htod, printing.globals_[name], data)

    def _finish_printing(self, printing: CudaPrinting, kernel: str, op: Operation | None) -> None:
        """Wait for the launch; write its output."""
        drv = driver_api.driver()
        self.synchronize(op=op)
        cursor = np.zeros(8, np.uint8)
        self._call(op, drv.memcpy_dtoh, cursor, printing.globals_[print_abi.CURSOR])
        claimed = int(cursor.view(np.uint64)[0])
        data = np.zeros(min(claimed, device_print.CAPACITY), np.uint8)
        if len(data):
            self._call(op, drv.memcpy_dtoh, data, int(printing.buffer))
        output = device_print.text(data, claimed, device_print.CAPACITY, printing.formats)
        device_print.write(output, self.output(), f"cuda: the printf output of @{kernel}", op)

    def _check_smem(
        self,
        inputs: Sequence[Attribute],
        kernel: str,
        smem_bytes: int,
        prepared: PreparedKernel,
        op: Operation | None,
    ) -> None:
        pointee = smem_pointee(inputs)
        least = 0 if pointee is None else min_smem_bytes(pointee)
        if smem_bytes < least:
            raise ProviderError(
                op,
                f"cuda: @{kernel} takes a shared pointer to {pointee} ({least} bytes); the launch "
                f"gives it {smem_bytes} bytes of shared memory",
                "invalid launch configuration",
            )
        if smem_bytes > prepared.max_dynamic_smem:
            raise ProviderError(
                op,
                f"cuda: invalid launch configuration of @{kernel}: {smem_bytes} bytes of dynamic "
                f"shared memory, but this device gives a group of @{kernel} at most "
                f"{prepared.max_dynamic_smem}",
                "invalid launch configuration",
            )
        if smem_bytes > prepared.dynamic_smem_allowed:  # above 48 KiB: opt in, once per kernel
            attribute = driver_api.driver().function_attribute.MAX_DYNAMIC_SHARED_SIZE_BYTES
            self._call(op, prepared.function.set_attribute, attribute, smem_bytes)
            prepared.dynamic_smem_allowed = smem_bytes

    def _check_pointer_arg(
        self,
        allocation: Allocation,
        kernel: str,
        index: int,
        op: Operation | None,
        field: int | None = None,
    ) -> None:
        where = f"{'' if field is None else f'field {field} of '}argument {index} of @{kernel}"
        if allocation.space == HOST:
            raise ProviderError(
                op,
                f"cuda: {where} points to {allocation.describe()}, which device code cannot access",
                "invalid address space",
            )
        self._own(allocation, op, f"{where} points to", "memory")

    def __repr__(self) -> str:
        state = "open" if self.is_open else "closed"
        return f"<CudaProvider {state}{', faulted' if self.faulted else ''}>"


__all__ = ["CudaProvider"]
