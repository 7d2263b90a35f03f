"""Buffers: device memory seen as numpy-like arrays, their views, and strided host views."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from gpuir.api.elements import element_type
from gpuir.dialects.mem import HOST, ArrayType
from gpuir.runtime.layout import Index, Layout
from gpuir.runtime.memory import Allocation, Pointer
from gpuir.runtime.provider import ProviderError, Stream

if TYPE_CHECKING:
    from gpuir.api import Device


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
