"""The memory model every provider shares: layout, allocations, pointers, loads and stores.

Layout is `gpuir.ir.data_layout`'s (the one the lowering emits); `!mem.array<? x T>` has the
extent its allocation was made with.

An `Allocation` is one contiguous, byte-addressed block: its address space, byte size, the type
it was allocated for (and the run-time extent of a `?` array), and, where the host can see it,
its bytes as a numpy `uint8` array (`data`; a CUDA provider's device memory has none). Every
allocation has an address (a virtual one, above 2**52, unless its provider gives a real one) and
is entered in `ADDRESSES`, so that a pointer stored in memory can be read back. Freeing marks it
(`freed_by`) and drops its bytes; it stays known, so a later access is a `use after free`.

A `Pointer` is (allocation, byte offset, pointee type). `lea` moves it; `load` / `store` check
the access against the allocation (`out of bounds`, `use after free`) before touching bytes.
"""

from __future__ import annotations

import bisect
import itertools
import weakref

import numpy as np
from xdsl.ir import Attribute, Operation

from gpuir.dialects.gpu import StreamType
from gpuir.dialects.mem import GLOBAL, SPACE_NAMES, ArrayType, PtrType
from gpuir.ir.data_layout import (  # noqa: F401  # the layout, re-exported for the providers
    MAX_ALIGN,
    POINTER_SIZE,
    LayoutError,
    align_of,
    alloc_size,
    size_of,
    store_size,
)
from gpuir.ir.diagnostics import describe_op
from gpuir.runtime.provider import (
    ProviderError,
    Stream,
)
from gpuir.runtime.scalars import float_dtype, int_width, unsigned, wrap

VIRTUAL_BASE = 1 << 52
"""Virtual addresses start here: above any user-space address of a 64-bit process, so that
they never meet the real addresses a `cpu` or `cuda` provider gives its allocations."""
GUARD = 256
"""Bytes left unused after each virtual allocation: an address just past one allocation is in
none."""


def space_name(space: int) -> str:
    return SPACE_NAMES.get(space, f"space-{space}")


# --- allocations and addresses -----------------------------------------------------------------


_serials = itertools.count(1)


class Allocation:
    """One contiguous block of memory. See the module docstring.

    `host_visible`: the bytes live in a numpy array (`data`); otherwise `data` is None (device
    memory the host cannot address). `address`: the address pointers into it carry (a CUDA
    provider passes the device address); None gives a virtual one, or with `real_address` the
    address of `data` (what a `cpu` provider passes to compiled code). `op`/`what` say where
    it comes from, for diagnostics.
    """

    def __init__(
        self,
        space: int,
        nbytes: int,
        pointee: Attribute,
        extent: int | None = None,
        *,
        host_visible: bool = True,
        address: int | None = None,
        real_address: bool = False,
        op: Operation | None = None,
        what: str = "",
    ):
        if nbytes < 0:
            raise ProviderError(op, f"cannot allocate {nbytes} bytes", "invalid value")
        self.serial = next(_serials)
        self.space = space
        self.nbytes = nbytes
        self.pointee = pointee
        self.extent = extent
        self.data: np.ndarray | None = None
        if host_visible:  # a byte more than asked for: even an empty one has its own address
            try:
                self.data = np.zeros(nbytes + 1, np.uint8)[:nbytes]
            except (MemoryError, ValueError) as e:  # ValueError: over numpy's largest array
                what = what or f"{space_name(space)} allocation"
                message = f"out of memory: cannot make a {nbytes}-byte {what}"
                raise ProviderError(op, message, "out of memory") from e
            if real_address and address is None:
                address = self.data.ctypes.data
        self.op = op
        self.what = what or f"{space_name(space)} allocation"
        self.freed_by: Operation | None = None
        self.freed = False
        self.views: dict[np.dtype, tuple[np.ndarray, np.ndarray]] = {}
        """dtype → (`data`, `data` viewed as that dtype): what interp's loads read through."""
        self.address = ADDRESSES.add(self, address)

    @classmethod
    def device(
        cls,
        nbytes: int,
        pointee: Attribute,
        extent: int | None,
        address: int,
        op: Operation | None = None,
        what: str = "",
    ) -> Allocation:
        """Global memory at a device's `address`, which the host does not reach through
        `data` (a provider's `alloc`)."""
        return cls(
            GLOBAL, nbytes, pointee, extent, host_visible=False, address=address, op=op, what=what
        )

    def describe(self) -> str:
        """`a 16-byte global allocation (by 'gpu.alloc.block' at f.mlir:3:7)`."""
        made = f" (by {describe_op(self.op)})" if self.op is not None else ""
        return f"a {self.nbytes}-byte {self.what}{made}"

    def mark_freed(self, op: Operation | None) -> None:
        self.freed = True
        self.freed_by = op
        self.data = None
        self.views = {}

    def __repr__(self) -> str:
        state = ", freed" if self.freed else ""
        return f"<Allocation #{self.serial} {space_name(self.space)} {self.nbytes} B{state}>"


class AddressMap:
    """Every allocation's address range, for reading pointers back out of memory.

    Virtual addresses grow monotonically and are never reused; a provider that gives real
    addresses may reuse them once the old allocation is freed (the old entry is dropped)."""

    def __init__(self) -> None:
        self._next = VIRTUAL_BASE
        self._bases: list[int] = []
        self._entries: dict[int, weakref.ref[Allocation]] = {}

    def add(self, allocation: Allocation, address: int | None) -> int:
        if address is None:
            address = self._next
            self._next = _align_up(address + allocation.nbytes + GUARD, GUARD)
        old = self._entries.get(address)
        if old is None:
            bisect.insort(self._bases, address)
        self._entries[address] = weakref.ref(allocation)
        if len(self._bases) > 4096 and len(self._bases) % 4096 == 0:
            self._prune()
        return address

    def resolve(self, address: int) -> tuple[Allocation | None, int]:
        """The allocation holding `address` and the offset in it; (None, address) when there
        is none."""
        i = bisect.bisect_right(self._bases, address) - 1
        if i >= 0:
            base = self._bases[i]
            allocation = self._entries[base]()
            if allocation is not None and address < base + max(allocation.nbytes, 1):
                return allocation, address - base
        return None, address

    def _prune(self) -> None:
        dead = [base for base, ref in self._entries.items() if ref() is None]
        for base in dead:
            del self._entries[base]
        self._bases = sorted(self._entries)


def _align_up(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


ADDRESSES = AddressMap()


# --- pointers ------------------------------------------------------------------------------------


class Pointer:
    """A pointer value: `offset` bytes into `allocation` (None: an address in no allocation,
    then `offset` is the address), pointing to a `pointee`. A value: never changed once made
    (a plain class rather than a frozen dataclass, which takes three times as long to make,
    and interp makes one at every `mem.lea`)."""

    __slots__ = ("allocation", "offset", "pointee")

    def __init__(self, allocation: Allocation | None, offset: int, pointee: Attribute):
        self.allocation = allocation
        self.offset = offset
        self.pointee = pointee

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pointer):
            return NotImplemented
        return (
            self.allocation is other.allocation
            and self.offset == other.offset
            and self.pointee == other.pointee
        )

    def __hash__(self) -> int:
        return hash((id(self.allocation), self.offset, self.pointee))

    @property
    def address(self) -> int:
        base = 0 if self.allocation is None else self.allocation.address
        return base + self.offset

    @property
    def space(self) -> int | None:
        return None if self.allocation is None else self.allocation.space

    def lea(self, index: int) -> Pointer:
        """The address of element `index` of the array this points to (pure arithmetic, no
        check: only an access can be out of bounds)."""
        pointee = self.pointee
        assert isinstance(pointee, ArrayType)
        step = size_of(pointee.element_type)
        return Pointer(self.allocation, self.offset + index * step, pointee.element_type)

    def with_pointee(self, pointee: Attribute) -> Pointer:
        return Pointer(self.allocation, self.offset, pointee)

    def extent_bytes(self) -> int:
        """The bytes of the pointee: its static size, or for a `?` array what its allocation
        holds from here on."""
        pointee = self.pointee
        if isinstance(pointee, ArrayType) and pointee.is_dynamic:
            if self.allocation is None:
                return 0
            stride = size_of(pointee.element_type)
            return max(self.allocation.nbytes - self.offset, 0) // stride * stride
        return size_of(pointee)

    def __repr__(self) -> str:
        where = "null" if self.allocation is None else f"#{self.allocation.serial}"
        return f"Pointer({where}+{self.offset}: {self.pointee})"


def null_pointer(pointee: Attribute) -> Pointer:
    return Pointer(None, 0, pointee)


def check_copy_spaces(
    who: str, dst: Pointer, src: Pointer, spaces: tuple[int, int], op: Operation | None
) -> None:
    """A copy's source and destination are in the spaces it copies between (`spaces`: the
    source's, the destination's); a null pointer is left to the access check."""
    for ptr, space, role in ((src, spaces[0], "source"), (dst, spaces[1], "destination")):
        if ptr.allocation is not None and ptr.space != space:
            raise ProviderError(
                op,
                f"{who}: the copy's {role} is {space_name(ptr.space or 0)} memory, expected "
                f"{space_name(space)} memory",
                "invalid value",
            )


def use_after_free(op: Operation | None, what: str, allocation: Allocation) -> ProviderError:
    """The error for `what` ("item 3 reads") touching `allocation` after it was freed, with a
    note at the op that freed it."""
    by, notes = freed_by(allocation)
    return ProviderError(
        op, f"use after free: {what} {allocation.describe()}, freed{by}", "use after free", notes
    )


def freed_by(allocation: Allocation) -> tuple[str, list[tuple[Operation, str]]]:
    """` by <the op that freed allocation>` (or nothing, where no op did), and the note at it."""
    if allocation.freed_by is None:
        return "", []
    return f" by {describe_op(allocation.freed_by)}", [(allocation.freed_by, "freed here")]


def check_access(
    ptr: Pointer, nbytes: int, op: Operation | None, verb: str, who: str = ""
) -> tuple[Allocation, int]:
    """The allocation and offset of an access of `nbytes` at `ptr`; a `ProviderError` named
    `use after free` or `out of bounds` when it is not within a live allocation.

    `verb` says what the access does (`loads 4 bytes from`), `who` who does it."""
    subject = f"{who} " if who else ""
    allocation = ptr.allocation
    if allocation is None:
        raise ProviderError(
            op,
            f"out of bounds: {subject}{verb} address {ptr.offset:#x}, which is in no allocation",
            "out of bounds",
        )
    if allocation.freed:
        raise use_after_free(op, f"{subject}{verb}", allocation)
    if ptr.offset < 0 or ptr.offset + nbytes > allocation.nbytes:
        raise ProviderError(
            op,
            f"out of bounds: {subject}{verb} byte offset {ptr.offset} of {allocation.describe()}"
            f" (bytes {ptr.offset} to {ptr.offset + nbytes - 1}, valid 0 to "
            f"{allocation.nbytes - 1})",
            "out of bounds",
            [(allocation.op, "allocated here")] if allocation.op else [],
        )
    return allocation, ptr.offset


def host_bytes(allocation: Allocation, op: Operation | None) -> np.ndarray:
    """The bytes of a host-visible allocation."""
    if allocation.data is None:
        raise ProviderError(
            op,
            f"{describe_op(op)} cannot access {allocation.describe()} from the host",
            "not host visible",
        )
    return allocation.data


# --- values in memory ------------------------------------------------------------------------


def encode(value: object, type_: Attribute) -> bytes:
    """The bytes of `value` (a run-time value of `type_`) as a store writes them."""
    if (width := int_width(type_)) is not None:
        assert isinstance(value, int)
        return unsigned(value, width).to_bytes(store_size(type_), "little")
    if (dtype := float_dtype(type_)) is not None:
        return np.array(value, dtype).tobytes()
    if isinstance(type_, PtrType):
        assert isinstance(value, Pointer)
        return (value.address & (2**64 - 1)).to_bytes(POINTER_SIZE, "little")
    if isinstance(type_, StreamType):
        assert isinstance(value, Stream)
        return value.handle.to_bytes(POINTER_SIZE, "little")
    raise LayoutError(f"cannot store a value of type {type_}")


def decode(data: bytes | np.ndarray, type_: Attribute) -> object:
    """The run-time value of `type_` that the bytes `data` hold."""
    raw = bytes(data)
    if (width := int_width(type_)) is not None:
        return wrap(int.from_bytes(raw, "little"), width)
    if (dtype := float_dtype(type_)) is not None:
        return np.frombuffer(raw, dtype)[0]
    if isinstance(type_, PtrType):
        allocation, offset = ADDRESSES.resolve(int.from_bytes(raw, "little"))
        return Pointer(allocation, offset, type_.pointee)
    if isinstance(type_, StreamType):
        return Stream(int.from_bytes(raw, "little"))
    raise LayoutError(f"cannot load a value of type {type_}")


def load(ptr: Pointer, op: Operation | None = None, who: str = "") -> object:
    """Load the `ptr.pointee` at `ptr` from host-visible memory."""
    type_ = ptr.pointee
    nbytes = store_size(type_)
    allocation, offset = check_access(ptr, nbytes, op, f"loads {nbytes} bytes from", who)
    return decode(host_bytes(allocation, op)[offset : offset + nbytes], type_)


def store(ptr: Pointer, value: object, op: Operation | None = None, who: str = "") -> bytes:
    """Store `value` (a `ptr.pointee`) at `ptr` in host-visible memory; returns the bytes."""
    data = encode(value, ptr.pointee)
    allocation, offset = check_access(ptr, len(data), op, f"stores {len(data)} bytes to", who)
    host_bytes(allocation, op)[offset : offset + len(data)] = np.frombuffer(data, np.uint8)
    return data


def read_bytes(ptr: Pointer, nbytes: int, op: Operation | None, who: str = "") -> np.ndarray:
    """A copy of `nbytes` at `ptr` (host-visible memory), checked."""
    allocation, offset = check_access(ptr, nbytes, op, f"reads {nbytes} bytes from", who)
    return host_bytes(allocation, op)[offset : offset + nbytes].copy()


def write_bytes(ptr: Pointer, data: np.ndarray, op: Operation | None, who: str = "") -> None:
    """Write `data` (uint8) at `ptr` (host-visible memory), checked."""
    nbytes = len(data)
    allocation, offset = check_access(ptr, nbytes, op, f"writes {nbytes} bytes to", who)
    host_bytes(allocation, op)[offset : offset + nbytes] = data


def free(ptr: Pointer, op: Operation | None, space: int, who: str = "") -> Allocation:
    """Check that `ptr` may be freed (the start of a live allocation in `space`), mark its
    allocation freed and return it."""
    allocation = ptr.allocation
    subject = f"{who} " if who else ""
    if allocation is None:
        if ptr.offset == 0:
            raise ProviderError(op, f"{subject}frees a null pointer", "invalid value")
        raise ProviderError(
            op,
            f"{subject}frees address {ptr.offset:#x}, which is in no allocation",
            "invalid value",
        )
    if allocation.freed:
        by, notes = freed_by(allocation)
        message = f"use after free: {subject}frees {allocation.describe()} a second time"
        raise ProviderError(op, f"{message} (freed{by})", "use after free", notes)
    if allocation.space != space:
        raise ProviderError(
            op,
            f"{subject}frees {allocation.describe()} as {space_name(space)} memory",
            "invalid value",
        )
    if ptr.offset != 0:
        raise ProviderError(
            op,
            f"{subject}frees byte offset {ptr.offset} of {allocation.describe()}, not its start",
            "invalid value",
        )
    allocation.mark_freed(op)
    return allocation
