"""gpuir's Python API: compile a program once, run its `@main`, or keep a device open and launch
its kernels on resident buffers.

    import numpy as np
    import gpuir

    program = gpuir.compile(text)              # the default pipeline; provider "interp"
    program.main(3)                            # @main's results, as numpy scalars

    with gpuir.Device("interp") as device:     # "auto", "interp", "cpu", "cuda", or a Provider
        program = device.compile(text)         # or gpuir.compile(text, provider=device)
        x = device.upload(np.arange(16, dtype=np.float32))
        y = device.empty(16, np.float32)
        scale = program.kernel("scale")        # a kernel: launched, or marked `gpu.kernel`
        scale(4, 4, x, y, 2.0)                 # n_groups, n_items, the kernel's arguments
        device.synchronize()
        y.download()                           # a numpy array; np.asarray(y) where host-visible
        y[4:].upload(np.zeros(12))             # views (gpuir.Layout): no device allocation
        y[::-2].download()                     # [y[15], y[13], …], dense

Everything goes through the provider interface (`gpuir.runtime.provider.Provider`); a `Device` is
one provider instance, opened on first use (or by `with`/`open()`) and closed by `close()`.
`main` runs the host executor against the program's device: with the device open, `gpu.init` in
`main` joins that session; otherwise `main` opens and closes the device itself.

Errors: `CompileError` (parse, verifier, pass: the message is the diagnostic gpu-run prints),
`ProviderError` (at run time: `out of bounds`, `race`, …), `KernelNotFound` (a `KeyError` that
lists the kernels there are), `TypeError` for arguments that do not fit.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute
from xdsl.utils.exceptions import DiagnosticException

from gpuir.dialects.gpu import kernel_arguments, smem_param
from gpuir.dialects.mem import GLOBAL, HOST, ArrayType, MemType, PtrType
from gpuir.runtime import get_provider, structs
from gpuir.runtime.executors import make_executor
from gpuir.runtime.layout import Index, Layout
from gpuir.runtime.memory import Allocation, Pointer, size_of
from gpuir.runtime.provider import LoadedModule, Provider, ProviderError, Stream, kernels_of
from gpuir.runtime.scalars import float_dtype, from_python, int_width, to_numpy
from gpuir.runtime.session import scalar_params, split_modules

__all__ = [
    "Buffer",
    "CompileError",
    "Device",
    "Kernel",
    "KernelNotFound",
    "Program",
    "ProviderError",
    "Strided",
    "compile",
]


class CompileError(Exception):
    """A program that does not parse, verify or pass the pipeline; the message is the
    diagnostic (`file:line:col: error: …` with the source line)."""


class KernelNotFound(KeyError):
    """`Program.kernel(name)` of a name that is no kernel; the message lists the kernels."""

    def __str__(self) -> str:
        return str(self.args[0])


# --- element types -------------------------------------------------------------------------------


def element_type(dtype: np.dtype) -> Attribute:
    """The MLIR element type of a numpy dtype (`float32` → `f32`, `int32`/`uint32` → `i32`,
    `bool` → `i1`)."""
    from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, IntegerType

    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return IntegerType(1)
    if dtype.kind in "iu":
        return IntegerType(8 * dtype.itemsize)
    floats = {2: Float16Type, 4: Float32Type, 8: Float64Type}
    if dtype.kind == "f" and dtype.itemsize in floats:
        return floats[dtype.itemsize]()
    raise TypeError(f"no gpuir element type for numpy dtype {dtype}")


def nested_array(shape: Sequence[int], element: Attribute) -> Attribute:
    for extent in reversed(shape):
        element = ArrayType(extent, element)
    return element


def innermost(type_: Attribute) -> Attribute:
    while isinstance(type_, ArrayType):
        type_ = type_.element_type
    return type_


def _fits(dtype: np.dtype, type_: Attribute) -> bool:
    """Whether numpy elements of `dtype` are `type_` elements (same kind and size)."""
    if (width := int_width(type_)) is not None:
        if width == 1:
            return dtype == np.bool_
        return dtype.kind in "iu" and 8 * dtype.itemsize == width
    found = float_dtype(type_)
    return found is not None and np.dtype(found) == dtype


# --- devices and buffers -------------------------------------------------------------------------


class Device:
    """One provider instance: resident buffers, streams, loaded programs."""

    def __init__(self, provider: str | Provider = "interp"):
        self.provider = get_provider(provider) if isinstance(provider, str) else provider
        self._loaded: dict[int, tuple[Program, LoadedModule]] = {}
        self.session = 0
        """How many times the device has been opened (what was loaded before is gone)."""

    @property
    def name(self) -> str:
        return self.provider.name

    @property
    def is_open(self) -> bool:
        return self.provider.is_open

    def open(self) -> Device:
        if not self.provider.is_open:
            self.provider.open()
            self._loaded.clear()
            self.session += 1
        return self

    def close(self) -> None:
        """Finish all work and close the device; its buffers are gone."""
        if self.provider.is_open:
            self.provider.close()
        self._loaded.clear()

    def __enter__(self) -> Device:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Device({self.name!r}, {'open' if self.is_open else 'closed'})"

    def compile(
        self,
        source: str | Path | ModuleOp,
        *,
        pipeline: str | None = None,
        interpret_host: bool = False,
    ) -> Program:
        """`gpuir.compile(source, provider=self)`."""
        return compile(source, provider=self, pipeline=pipeline, interpret_host=interpret_host)

    def empty(self, shape: int | Sequence[int], dtype: np.typing.DTypeLike) -> Buffer:
        """A device buffer of `shape` and `dtype` (its contents are undefined on a real
        device)."""
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        dtype = np.dtype(dtype)
        pointee = nested_array(shape, element_type(dtype))
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        self.open()
        pointer = self.provider.alloc(nbytes, pointee)
        return Buffer(self, pointer, shape, dtype)

    def upload(self, array: np.typing.ArrayLike, *, stream: Stream | None = None) -> Buffer:
        """A device buffer holding a copy of `array`."""
        array = np.asarray(array)
        buffer = self.empty(array.shape, array.dtype)
        buffer.upload(array, stream=stream)
        return buffer

    def stream(self) -> Stream:
        """A new stream (destroyed with the device, or by `destroy_stream`)."""
        self.open()
        return self.provider.create_stream()

    def destroy_stream(self, stream: Stream) -> None:
        self.provider.destroy_stream(stream)

    def synchronize(self, stream: Stream | None = None) -> None:
        """Wait for the work on `stream`, or on every stream."""
        if not self.provider.is_open:
            return
        if stream is None:
            self.provider.synchronize()
        else:
            self.provider.sync_stream(stream)

    def live_allocations(self) -> int:
        """How many device allocations are live (made and not yet freed), for leak checks."""
        live = getattr(self.provider, "live", ())
        if isinstance(live, dict):  # cuda: only the live ones, by serial
            return len(live)
        return sum(not allocation.freed for allocation in live)

    def load(self, program: Program) -> LoadedModule:
        """`program`'s device module, loaded once per session."""
        self.open()
        entry = self._loaded.get(id(program))
        if entry is None or entry[0] is not program:
            entry = (program, self.provider.load_module(program.device_module))
            self._loaded[id(program)] = entry
        return entry[1]


class Buffer:
    """Device memory seen as an array of `shape` and `dtype`: an allocation (its owner), or a
    view of one.

    An owner holds dense row-major storage (a pointer to nested `!mem.array`s in global
    memory). A view (`buf[1:, ::2]`, `buf.T`, `buf.broadcast_to(…)`, `buf.as_strided(…)`,
    `buf.view(layout)`) is the owner's storage seen through another `Layout`: it allocates
    nothing, keeps its owner (`base`) alive, and shares its device pointer. A layout is always
    relative to the owner's storage (`buf.layout.offset` is an element of the allocation).

    - Transfers stay dense: `download()` copies the storage span the view reaches and applies
      the layout on the host; `upload()` writes through the layout (a non-contiguous view is
      read, scattered into on the host and written back, span for span), and a view that maps
      two indices to one element (a broadcast) cannot be uploaded to.
    - `free()` is the owner's: freeing a view is a ValueError. Once the owner is freed (or its
      device closed), its views fail like it does (`use after free`, or a closed device).
    - Kernels: a parameter `!mem.ptr<T, 1>` gets the view's first element; a parameter
      `!mem.ptr<!mem.array<…>, 1>` only a contiguous view (the array starts at its first
      element). A layout-aware kernel takes `view.strided()` for a `!mem.ptr<!mem.array<? x T>,
      1>` and the strides as `index` arguments: `kernel(g, n, view.strided(), *view.strides)`.
    """

    def __init__(
        self,
        device: Device,
        pointer: Pointer,
        shape: tuple[int, ...],
        dtype: np.dtype,
        *,
        layout: Layout | None = None,
        base: Buffer | None = None,
    ):
        self.device = device
        self.pointer = pointer
        self.dtype = np.dtype(dtype)
        self.layout = Layout.dense(shape) if layout is None else layout
        self.base = base
        """The buffer that owns the storage, for a view; None for an owner."""

    @property
    def shape(self) -> tuple[int, ...]:
        return self.layout.shape

    @property
    def strides(self) -> tuple[int, ...]:
        """The strides in elements (numpy's `strides` are in bytes:
        `__array_interface__` has those)."""
        return self.layout.strides

    @property
    def offset(self) -> int:
        """The storage element of index `(0, …, 0)`."""
        return self.layout.offset

    @property
    def ndim(self) -> int:
        return self.layout.ndim

    @property
    def size(self) -> int:
        return self.layout.size

    @property
    def nbytes(self) -> int:
        """The bytes of the logical elements (what `download()` returns)."""
        return self.size * self.dtype.itemsize

    def __repr__(self) -> str:
        if self.base is None:
            return f"Buffer({self.shape}, {self.dtype}, on {self.device.name})"
        return f"Buffer view({self.layout}, {self.dtype}, of {self.base!r})"

    # --- views ---------------------------------------------------------------------------------

    def view(self, layout: Layout) -> Buffer:
        """The owner's storage seen through `layout` (relative to the storage, like
        `self.layout`), without allocating; a ValueError if `layout` reaches past the storage."""
        owner = self if self.base is None else self.base
        if not isinstance(layout, Layout):
            raise TypeError(
                f"a view takes a gpuir.runtime.layout.Layout, got {type(layout).__name__}"
            )
        allocation = owner.pointer.allocation
        if allocation is not None and allocation.freed:
            raise ProviderError(
                None,
                f"use after free: {owner!r} was freed (by free() or by closing its device)",
                "use after free",
            )
        layout.check(owner.size, repr(owner))
        return Buffer(
            self.device, owner.pointer, layout.shape, self.dtype, layout=layout, base=owner
        )

    def __getitem__(self, index: Index | tuple[Index, ...]) -> Buffer:
        """numpy basic indexing as a view (integers, slices with any step, `...`, None)."""
        return self.view(self.layout[index])

    def transpose(self, *axes: int) -> Buffer:
        """The axes permuted (`transpose(1, 0)` or `transpose((1, 0))`); reversed by default."""
        if len(axes) == 1 and not isinstance(axes[0], int):
            axes = tuple(axes[0])
        return self.view(self.layout.transpose(axes or None))

    @property
    def T(self) -> Buffer:  # noqa: N802  # numpy's name
        return self.transpose()

    def broadcast_to(self, shape: int | Sequence[int]) -> Buffer:
        """A read-only view repeating axes of extent 1 (numpy's rules, stride 0)."""
        return self.view(self.layout.broadcast_to(shape))

    def as_strided(
        self, shape: int | Sequence[int], strides: int | Sequence[int], offset: int = 0
    ) -> Buffer:
        """A view of explicit `shape` and `strides` (in elements) from this view's first
        element, moved by `offset` elements."""
        return self.view(self.layout.as_strided(shape, strides, offset))

    def strided(self) -> Strided:
        """This buffer for a layout-aware kernel (see `Strided`)."""
        return Strided(self)

    # --- transfers -----------------------------------------------------------------------------

    def _host(self, count: int | None = None) -> Pointer:
        """A host staging buffer of `count` elements (default: the whole buffer)."""
        count = self.size if count is None else count
        pointee = ArrayType(count, element_type(self.dtype))
        allocation = Allocation(
            HOST, count * self.dtype.itemsize, pointee, what="host staging buffer"
        )
        return Pointer(allocation, 0, pointee)

    def _element(self, index: int) -> Pointer:
        """The device address of storage element `index`."""
        step = self.dtype.itemsize
        return Pointer(
            self.pointer.allocation, self.pointer.offset + index * step, self.pointer.pointee
        )

    def _read_span(self, stream: Stream | None) -> tuple[np.ndarray, int]:
        """The storage span the layout reaches, copied to the host, and its first element."""
        start, end = self.layout.span
        host = self._host(end - start)
        provider = self.device.provider
        provider.copy_to_host(
            host, self._element(start), (end - start) * self.dtype.itemsize, stream=stream
        )
        if stream is not None:
            provider.sync_stream(stream)
        assert host.allocation is not None and host.allocation.data is not None
        return host.allocation.data.view(self.dtype), start

    def upload(self, array: np.typing.ArrayLike, *, stream: Stream | None = None) -> None:
        """Copy `array` (of this buffer's shape; cast to its dtype) to the device, through the
        layout. A non-contiguous view reads the span it reaches, scatters `array` into it on
        the host and writes the span back (do not let a kernel write between its elements
        meanwhile); a view mapping two indices to one element is read-only (a ValueError)."""
        data = np.ascontiguousarray(np.asarray(array), dtype=self.dtype)
        if data.shape != self.shape:
            raise ValueError(f"cannot upload an array of shape {data.shape} to {self!r}")
        layout = self.layout
        if layout.is_contiguous:
            start, host = layout.span[0], self._host()
            assert host.allocation is not None and host.allocation.data is not None
            host.allocation.data[:] = data.reshape(-1).view(np.uint8)
        else:
            if not layout.is_injective:
                kind = "a broadcast (stride 0)" if layout.is_broadcast else "overlapping"
                raise ValueError(
                    f"cannot upload to {self!r}: it is {kind}, several of its indices are one "
                    "element, so it is read-only"
                )
            span, start = self._read_span(stream)
            span[layout.indices() - start] = data
            host = self._host(span.size)
            assert host.allocation is not None and host.allocation.data is not None
            host.allocation.data[:] = span.view(np.uint8)
        nbytes = host.allocation.nbytes
        self.device.provider.copy_to_device(self._element(start), host, nbytes, stream=stream)

    def download(self, *, stream: Stream | None = None) -> np.ndarray:
        """A dense numpy copy of the logical elements (after the work on `stream`, or all work,
        is done): the storage span the layout reaches is transferred, then the layout is
        applied on the host."""
        span, start = self._read_span(stream)
        if self.layout.is_contiguous:
            return span.reshape(self.shape).copy()
        return span[self.layout.indices() - start]

    def free(self) -> None:
        """Free the allocation (an owner only: a view owns no memory)."""
        if self.base is not None:
            raise ValueError(f"cannot free {self!r}: a view owns no memory; free its base")
        self.device.provider.free(self.pointer)

    # --- zero-copy interfaces ------------------------------------------------------------------

    def _interface(self, address: int) -> dict[str, object]:
        """The fields `__array_interface__` and `__cuda_array_interface__` share; `address`
        is that of the storage's first element."""
        contiguous = self.layout.is_contiguous
        step = self.dtype.itemsize
        return {
            "shape": self.shape,
            "typestr": self.dtype.str,
            "data": (address + self.offset * step, self.layout.is_broadcast),
            "strides": None if contiguous else tuple(s * step for s in self.strides),
            "version": 3,
        }

    @property
    def __array_interface__(self) -> dict[str, object]:
        """The device bytes themselves, for providers whose device memory is host memory
        (strides in bytes; a broadcast view is read-only)."""
        allocation = self.pointer.allocation
        if not self.device.provider.host_visible or allocation is None or allocation.data is None:
            raise AttributeError(
                f"{self!r} is not host-visible (the {self.device.name} provider's memory, or "
                "freed); use download()"
            )
        return self._interface(allocation.data.ctypes.data + self.pointer.offset)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError(f"len() of {self!r}, which has no dimension")
        return self.shape[0]

    def __array__(self, dtype: object = None, copy: bool | None = None) -> np.ndarray:
        """numpy's conversion on any provider: a copy of the elements (`download()`).
        `numpy.asarray` of a host-visible buffer takes `__array_interface__` instead, without
        a copy."""
        if copy is False:
            raise ValueError(f"{self!r}: numpy.array(copy=False) needs __array_interface__")
        array = self.download()
        return array if dtype is None else array.astype(dtype)  # type: ignore[call-overload]

    def __dlpack_device__(self) -> tuple[int, int]:
        """DLPack's device of the memory: `(1, 0)` (kDLCPU) for a host-visible provider's,
        `(2, 0)` (kDLCUDA, device 0: the one the cuda provider uses) for the cuda provider's."""
        return (2, 0) if self.device.provider.name == "cuda" else (1, 0)

    def __dlpack__(self, *, stream: object = None, **kwargs: object) -> object:
        """DLPack export without a copy (`numpy.from_dlpack`, PyTorch, JAX, CuPy take it).
        Host-visible memory goes through numpy's exporter of the bytes `__array_interface__`
        gives; cuda memory as a `kDLCUDA` tensor of the device bytes (`gpuir.runtime.dlpack`),
        after the device is synchronized (so the consumer's `stream` need not wait). Either
        capsule keeps this buffer alive until the consumer lets it go."""
        if self.device.provider.name != "cuda":
            view = np.asarray(_HostView(self))
            return view.__dlpack__(stream=stream, **kwargs)
        from gpuir.runtime import dlpack

        allocation = self.pointer.allocation
        if allocation is None or allocation.freed:
            raise BufferError(f"{self!r}: its memory is freed")
        self.device.synchronize()
        address = allocation.address + self.pointer.offset + self.offset * self.dtype.itemsize
        strides = None if self.layout.is_contiguous else tuple(self.strides)
        return dlpack.capsule(
            self, address, self.__dlpack_device__(), self.shape, strides, self.dtype
        )

    @property
    def __cuda_array_interface__(self) -> dict[str, object]:
        """The device bytes themselves, for the `cuda` provider (CuPy, Numba, PyTorch read them
        without a copy; strides in bytes, None when contiguous). The device is synchronized
        first, so no stream needs waiting for."""
        allocation = self.pointer.allocation
        if self.device.provider.name != "cuda" or allocation is None or allocation.freed:
            raise AttributeError(
                f"{self!r} is not CUDA device memory (the {self.device.name} provider's memory, "
                "or freed); use download()"
            )
        self.device.synchronize()
        return {**self._interface(allocation.address + self.pointer.offset), "stream": None}


class _HostView:
    """The bytes of a host-visible buffer for numpy (`__array_interface__`), keeping it
    alive."""

    def __init__(self, buffer: Buffer):
        self.buffer = buffer
        self.__array_interface__ = buffer.__array_interface__


@dataclass(frozen=True)
class Strided:
    """A buffer passed to a layout-aware kernel (`buffer.strided()`): a parameter
    `!mem.ptr<!mem.array<? x T>, 1>` gets the pointer to its first element whatever its layout,
    and the kernel indexes it with the strides it takes as arguments."""

    buffer: Buffer


# --- programs and kernels -----------------------------------------------------------------------


class Program:
    """A compiled program on a device: `main(...)`, and its kernels by name."""

    def __init__(
        self,
        module: ModuleOp,
        device: Device,
        out: IO[str] | None = None,
        interpret_host: bool = False,
    ):
        self.module = module
        self.device = device
        self.out = out
        self.interpret_host = interpret_host
        self.host_module, self.device_module = split_modules(module)
        self._kernels, _ = kernels_of(self.device_module)
        self._host: object = None
        """The machine code of the host module, once a call made it (the module is compiled
        once: change a program by compiling it again)."""

    @property
    def kernels(self) -> tuple[str, ...]:
        return tuple(sorted(self._kernels))

    def kernel(self, name: str) -> Kernel:
        """The kernel `name` (a function that a launch names or that is marked `gpu.kernel`)."""
        if name not in self._kernels:
            known = ", ".join(self.kernels) or "none (launch one, or mark it gpu.kernel)"
            raise KernelNotFound(f"no kernel named '{name}'; the kernels are: {known}")
        return Kernel(self, self._kernels[name])

    def main(self, *args: object, name: str = "main") -> object:
        """Call `@name` with `args` (one per non-token parameter, numbers or numpy scalars);
        its non-token results as numpy scalars: None, one value, or a tuple of several."""
        loaded = self.device.load(self) if self.device.is_open else None
        executor = make_executor(
            self.module,
            self.device.provider,
            self.out,
            loaded,
            compiled=not self.interpret_host,
            host=self._host,
        )
        if executor.compiled:
            self._host = executor.program  # type: ignore[attr-defined]  # the next call's
        if name not in executor.functions:
            raise KeyError(f"the program has no function @{name}")
        func = executor.function(name)
        values = convert_args(func, scalar_params(func), args, self.device)
        results = executor.run_main(values, name)
        converted = tuple(to_numpy(value, type_) for value, type_ in results)
        if not converted:
            return None
        return converted[0] if len(converted) == 1 else converted


class Kernel:
    """A kernel of a program: `kernel(n_groups, n_items, *args, smem_bytes=, stream=)`.

    What does not change between launches is prepared once, here: one converter per parameter
    (a buffer's pointer is kept for the next launch with the same buffer), the default shared
    memory size; the device keeps the loaded module and the provider its prepared kernel (the
    `cpu` provider: the argument buffer it fills in place). A launch allocates no device
    memory and keeps nothing (`tests/test_launch_allocations.py`, `benchmarks/launch.py`)."""

    def __init__(self, program: Program, func: FuncOp):
        self.program = program
        self.func = func
        self.name = func.sym_name.data
        inputs = func.function_type.inputs.data
        self.takes_smem = smem_param(inputs) is not None
        self.params: tuple[Attribute, ...] = kernel_arguments(inputs)
        self._convert = _converters(func, self.params, program.device)
        self._default_smem = self._smem_bytes(None) if not self._dynamic_smem() else None
        self._launcher: tuple[int, Callable[..., None] | None] = (-1, None)
        """The provider's launcher of this kernel (`CpuProvider.launcher`) and the device's
        session it is of, made at the first launch of a session on the default stream."""

    def __repr__(self) -> str:
        return f"Kernel(@{self.name}, ({', '.join(map(str, self.params))}))"

    def __call__(
        self,
        n_groups: int,
        n_items: int,
        *args: object,
        smem_bytes: int | None = None,
        stream: Stream | None = None,
    ) -> None:
        """Launch on a 1-D grid of `n_groups` x `n_items`. Buffers pass as pointers; numbers
        as the parameter's type; a struct as a tuple (or numpy structured scalar) of its
        fields. `smem_bytes`: the dynamic shared memory (default: the size of a static shared
        pointee)."""
        session, launch = self._launcher
        device = self.program.device
        if launch is not None and stream is None and smem_bytes is None:
            if session == device.session and launch(n_groups, n_items, args):
                return
        if len(args) != len(self.params):
            _wrong_arity(self.func, self.params, args)
        values = [convert(arg) for convert, arg in zip(self._convert, args, strict=True)]
        smem = self._default_smem
        if smem_bytes is not None or smem is None:
            smem = self._smem_bytes(smem_bytes)
        provider = device.provider
        if session != device.session and provider.is_open and smem is not None:
            make = getattr(provider, "launcher", None)
            launch = None
            if make is not None and self._default_smem is not None:
                loaded = device.load(self.program)
                launch = make(loaded, self.name, self.params, self._convert, self._default_smem)
            self._launcher = (device.session, launch)
        provider.launch(
            device.load(self.program),
            self.name,
            int(n_groups),
            int(n_items),
            smem,
            stream if stream is not None else provider.default_stream(),
            list(zip(values, self.params, strict=True)),
        )

    def _dynamic_smem(self) -> bool:
        pointee = smem_param(self.func.function_type.inputs.data)
        return isinstance(pointee, PtrType) and (
            isinstance(pointee.pointee, ArrayType) and pointee.pointee.is_dynamic
        )

    def _smem_bytes(self, requested: int | None) -> int:
        if not self.takes_smem:
            if requested:
                raise TypeError(f"@{self.name} takes no shared memory, got smem_bytes={requested}")
            return 0
        pointee = smem_param(self.func.function_type.inputs.data)
        assert pointee is not None
        if requested is not None:
            return int(requested)
        if isinstance(pointee.pointee, ArrayType) and pointee.pointee.is_dynamic:
            raise TypeError(f"@{self.name} takes dynamic shared memory: pass smem_bytes=")
        return size_of(pointee.pointee)


Converter = Callable[[object], object]


def convert_args(
    func: FuncOp, types: Sequence[Attribute], args: Sequence[object], device: Device
) -> list[object]:
    """Python arguments as run-time values of `types` (buffers as pointers, structs as
    tuples)."""
    if len(args) != len(types):
        _wrong_arity(func, types, args)
    converters = _converters(func, types, device)
    return [convert(arg) for convert, arg in zip(converters, args, strict=True)]


def _wrong_arity(func: FuncOp, types: Sequence[Attribute], args: Sequence[object]) -> None:
    expected = ", ".join(map(str, types)) or "none"
    raise TypeError(
        f"@{func.sym_name.data} takes {len(types)} argument(s) ({expected}), got {len(args)}"
    )


def _converters(func: FuncOp, types: Sequence[Attribute], device: Device) -> list[Converter]:
    """One function per parameter that turns a Python argument into its run-time value, or
    raises a `TypeError` that names the argument (and the field of a struct)."""
    name = func.sym_name.data
    return [_converter(type_, device, f"argument {i} of @{name}") for i, type_ in enumerate(types)]


def _converter(type_: Attribute, device: Device, where: str) -> Converter:
    if isinstance(type_, PtrType):
        return _pointer_converter(type_, device, where)
    if isinstance(type_, MemType):

        def token(arg: object) -> object:
            raise TypeError(f"{where} is a memory token, which cannot be passed")

        return token
    if structs.is_struct(type_):

        def pointer_field(arg: object, field: PtrType, field_where: str) -> object:
            return _pointer_arg(arg, field, device, field_where)

        return lambda arg: structs.from_python(arg, type_, pointer_field, where)
    exact = {np.float16: Float16Type, np.float32: Float32Type, np.float64: Float64Type}

    def scalar(arg: object) -> object:
        kind = exact.get(type(arg))  # type: ignore[call-overload]
        if kind is not None and isinstance(type_, kind):
            return arg  # a numpy float of the parameter's type is its run-time value
        try:
            return from_python(arg, type_)
        except ValueError as e:
            raise ArgumentError(f"{where}: {e}") from None

    return scalar


class ArgumentError(TypeError, ValueError):
    """A scalar argument its parameter does not take (not a number, or out of the type's
    range): both a `TypeError` and a `ValueError`, so either `except` takes it."""


def _pointer_converter(type_: PtrType, device: Device, where: str) -> Converter:
    """`_pointer_arg`, remembered for the last buffer passed (by identity, weakly: a launch
    with the same buffer as the last one converts nothing)."""
    last: list[object] = [None, None]

    def pointer(arg: object) -> object:
        ref = last[0]
        if ref is not None and ref() is arg:  # type: ignore[operator]
            return last[1]
        converted = _pointer_arg(arg, type_, device, where)
        try:
            last[0], last[1] = weakref.ref(arg), converted
        except TypeError:  # no weak reference to it (a Pointer): convert it each time
            last[0] = last[1] = None
        return converted

    return pointer


def _pointer_arg(arg: object, type_: PtrType, device: Device, where: str) -> Pointer:
    """A buffer or view as a pointer argument: the address of its first element."""
    if isinstance(arg, Pointer):
        return arg.with_pointee(type_.pointee)
    strided = isinstance(arg, Strided)
    buffer = arg.buffer if strided else arg
    if not isinstance(buffer, Buffer):
        raise TypeError(f"{where} is {type_}: pass a Buffer, got {type(arg).__name__}")
    if buffer.device is not device:
        raise TypeError(f"{where}: the buffer lives on another device")
    if type_.space.data != GLOBAL:
        raise TypeError(f"{where} is {type_}, a pointer into address space {type_.space.data}")
    pointee = type_.pointee
    if not _fits(buffer.dtype, innermost(pointee)):
        raise TypeError(f"{where} is {type_}, got a buffer of {buffer.dtype}")
    dynamic = isinstance(pointee, ArrayType) and pointee.is_dynamic
    if strided and not dynamic:
        raise TypeError(
            f"{where} is {type_}: a strided() buffer passes as !mem.ptr<!mem.array<? x T>, 1>"
        )
    if isinstance(pointee, ArrayType) and not strided and not buffer.layout.is_contiguous:
        raise TypeError(
            f"{where} is {type_}, an array, but the view's {buffer.layout} is not contiguous; "
            "pass the strides explicitly: view.strided() to a !mem.ptr<!mem.array<? x T>, 1> "
            "parameter and *view.strides as index arguments"
        )
    if not dynamic and size_of(pointee) > buffer.nbytes:
        raise TypeError(f"{where} is {type_} ({size_of(pointee)} bytes), got {buffer!r}")
    return buffer._element(buffer.offset).with_pointee(pointee)


# --- compiling -----------------------------------------------------------------------------------


def compile(  # noqa: A001  # gpuir.compile, as the issue names it
    source: str | Path | ModuleOp,
    provider: str | Provider | Device = "interp",
    *,
    pipeline: str | None = None,
    out: IO[str] | None = None,
    interpret_host: bool = False,
) -> Program:
    """Parse (text, a path, or a module, which is copied), verify and run the default pipeline
    (or `pipeline`); a `Program` on `provider` (a name, a provider, or a `Device` to share).
    `out` receives `printf` and `buffer.print` output (default: `sys.stdout`). On the `cpu`
    and `cuda` providers `main` runs the host code as machine code (compiled on its first
    call); `interpret_host=True` runs it on the host interpreter instead."""
    device = provider if isinstance(provider, Device) else Device(provider)
    parsed = _parse(source)
    from gpuir.dialects import make_context
    from gpuir.ir.source import format_diagnostic
    from gpuir.ir.verifier import verify_input, verify_ops

    try:
        ctx = make_context()
        verify_ops(parsed.module)
        verify_input(parsed.module)
        _pipeline(pipeline).run(ctx, parsed.module)
        parsed.module.verify()
    except DiagnosticException as e:
        raise CompileError(format_diagnostic(e, parsed)) from e
    return Program(parsed.module, device, out, interpret_host)


def _pipeline(pipeline: str | None):
    """The default pipeline (`gpu-pipeline`), or the one `pipeline` names."""
    from gpuir.ir.pass_manager import PipelineError
    from gpuir.ir.plugins import PluginError, load_plugins
    from gpuir.tools.pass_flags import pipeline_from

    if pipeline is not None:
        try:
            load_plugins()  # installed ones and $GPUIR_PLUGINS (each loads once)
        except PluginError as e:
            raise CompileError(str(e)) from e
    try:
        return pipeline_from(pipeline)
    except PipelineError as e:
        raise CompileError(f"bad pass pipeline '{pipeline}': {e}") from e


def _parse(source: str | Path | ModuleOp):
    from gpuir.ir.reader import parse_program
    from gpuir.ir.source import ParsedChunk, SourceError

    if isinstance(source, ModuleOp):
        return ParsedChunk(source.clone(), "<module>", None, 0, {})
    name = "<string>"
    if isinstance(source, Path):
        name, source = str(source), source.read_text()
    try:
        return parse_program(source, name)
    except SourceError as e:
        raise CompileError(str(e)) from e
