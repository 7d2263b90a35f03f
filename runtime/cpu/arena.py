"""The cpu provider's device memory: an arena of its own, apart from the process's heap, as a
GPU's memory is apart from the host's.

The arena is one range of address space reserved at the first allocation (`reserve_size()`:
four times the machine's memory, within an address-space limit; `PROT_NONE`, `MAP_NORESERVE`:
it costs no memory, but counts towards `ulimit -v`).
Each allocation takes whole pages of it, made readable and writable, followed by one guard page
that stays `PROT_NONE`; its bytes end at the end of its pages (rounded up to `ALIGNMENT`), so
that a kernel that runs past the end of an array touches the guard page, and faults, within
`ALIGNMENT` bytes. Everything around the allocations is inaccessible, so a wild address near
device memory faults too (`gpuir.runtime.cpu.faults` turns the fault into a located error);
an overrun can corrupt only device memory, never the interpreter's.

Large allocations ask for transparent huge pages (`HUGE`). A freed allocation's pages are given back to the system (`MADV_DONTNEED`: they read as zeros
next time) and stay mapped, so that a stale view of them cannot crash the process; the range is
reused by later allocations (first fit, neighbours merged). New allocations are zeroed, as
`interp`'s are.

Where the system has no such mapping calls (not Linux, or the reservation is refused down to
`MIN_RESERVE`), `Arena.make()` returns None and the provider keeps its bytes in numpy arrays.
"""

from __future__ import annotations

import bisect
import ctypes
import mmap
import threading
from dataclasses import dataclass

import numpy as np

PAGE = mmap.PAGESIZE
RESERVE_PER_RAM = 4
MAX_RESERVE = 1 << 40
MIN_RESERVE = 1 << 30
"""Address space reserved: 4 times the machine's memory, from 1 GiB to 1 TiB, and at most half
of what an address-space limit (`ulimit -v`, `RLIMIT_AS`) leaves; below 1 GiB, no arena."""
ALIGNMENT = 64

PROT_NONE = 0
PROT_READ_WRITE = 0x1 | 0x2
MAP_PRIVATE_ANONYMOUS_NORESERVE = 0x02 | 0x20 | 0x4000  # Linux
MADV_DONTNEED = 4
MADV_HUGEPAGE = 14
HUGE = 2 << 20
"""Allocations of at least this many bytes ask for transparent huge pages (`MADV_HUGEPAGE`), as
numpy does for its large arrays: a kernel that streams through 100 MB then takes one TLB entry
per 2 MiB instead of per 4 KiB."""
MAP_FAILED = ctypes.c_void_p(-1).value


@dataclass
class Block:
    """An allocation's pages: `start` (page-aligned), `span` bytes readable and writable, then
    the guard page; its bytes are `[data, data + nbytes)` at the end of the span."""

    start: int
    span: int
    data: int
    nbytes: int


def _round_up(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


class Arena:
    """Device memory in a reserved range (module docstring). Thread-safe."""

    def __init__(self, libc: ctypes.CDLL, base: int, size: int) -> None:
        self.libc = libc
        self.base = base
        self.size = size
        self.top = base + PAGE  # a guard page before the first block
        self.free_ranges: list[tuple[int, int]] = []  # (start, bytes), sorted, merged
        self.blocks: dict[int, Block] = {}  # by data address
        self.starts: list[int] = []  # the blocks' starts, sorted
        self.by_start: dict[int, Block] = {}
        self.lock = threading.Lock()

    @classmethod
    def make(cls) -> Arena | None:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.mmap.restype = ctypes.c_void_p
            libc.mmap.argtypes = [
                ctypes.c_void_p,
                ctypes.c_size_t,
                ctypes.c_int,
                ctypes.c_int,
                ctypes.c_int,
                ctypes.c_long,
            ]
            for name in ("mprotect", "madvise"):
                getattr(libc, name).argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        except (OSError, AttributeError):
            return None
        size = reserve_size()
        while size >= MIN_RESERVE:
            base = libc.mmap(None, size, PROT_NONE, MAP_PRIVATE_ANONYMOUS_NORESERVE, -1, 0)
            if base not in (None, MAP_FAILED):
                return cls(libc, base, size)
            size //= 4
        return None

    def contains(self, address: int) -> bool:
        return self.base <= address < self.base + self.size

    def allocate(self, nbytes: int) -> tuple[int, np.ndarray]:
        """The address of `nbytes` new zeroed bytes and a numpy view of them; MemoryError when
        the arena or the system has no room."""
        span = _round_up(max(nbytes, 1), PAGE)
        total = span + PAGE
        with self.lock:
            start = self._take_aligned(total, HUGE) if span >= HUGE else self._take(total)
            if self.libc.mprotect(start, span, PROT_READ_WRITE) != 0:
                self._give(start, total)
                raise MemoryError(f"cannot map {span} bytes of device memory")
            self.libc.mprotect(start + span, PAGE, PROT_NONE)  # the guard page
            if span >= HUGE:
                self.libc.madvise(start, span, MADV_HUGEPAGE)  # a hint: fails harmlessly
            data = start + span - _round_up(nbytes, ALIGNMENT)
            block = Block(start, span, data, nbytes)
            self.blocks[data] = block
            self.by_start[start] = block
            bisect.insort(self.starts, start)
        view = np.ctypeslib.as_array((ctypes.c_uint8 * max(nbytes, 1)).from_address(data))
        return data, view[:nbytes]

    def release(self, data: int) -> None:
        """Give back the allocation at `data` (its pages read as zeros when reused)."""
        with self.lock:
            block = self.blocks.pop(data, None)
            if block is None:
                return
            del self.by_start[block.start]
            del self.starts[bisect.bisect_left(self.starts, block.start)]
            self.libc.madvise(block.start, block.span, MADV_DONTNEED)
            self._give(block.start, block.span + PAGE)

    def near(self, address: int) -> tuple[Block | None, Block | None]:
        """The live blocks just before and just after `address` (None where there is none)."""
        with self.lock:
            i = bisect.bisect_right(self.starts, address)
            before = self.by_start[self.starts[i - 1]] if i > 0 else None
            after = self.by_start[self.starts[i]] if i < len(self.starts) else None
        return before, after

    # --- the free ranges ---------------------------------------------------------------------

    def _take(self, total: int) -> int:
        for i, (start, length) in enumerate(self.free_ranges):
            if length >= total:
                if length == total:
                    del self.free_ranges[i]
                else:
                    self.free_ranges[i] = (start + total, length - total)
                return start
        if self.top + total > self.base + self.size:
            raise MemoryError(f"the device arena has no room for {total} more bytes")
        start = self.top
        self.top += total
        return start

    def _take_aligned(self, total: int, alignment: int) -> int:
        """`_take`, at a multiple of `alignment` (what is around it goes back)."""
        start = self._take(total + alignment)
        aligned = _round_up(start, alignment)
        if aligned > start:
            self._give(start, aligned - start)
        end = start + total + alignment
        if end > aligned + total:
            self._give(aligned + total, end - aligned - total)
        return aligned

    def _give(self, start: int, length: int) -> None:
        i = bisect.bisect_left(self.free_ranges, (start, 0))
        if i < len(self.free_ranges) and start + length == self.free_ranges[i][0]:
            length += self.free_ranges.pop(i)[1]
        if i > 0 and self.free_ranges[i - 1][0] + self.free_ranges[i - 1][1] == start:
            start, before = self.free_ranges.pop(i - 1)
            length += before
            i -= 1
        self.free_ranges.insert(i, (start, length))


def reserve_size() -> int:
    """How much address space to reserve (`MIN_RESERVE`'s docstring)."""
    import os
    import resource

    try:
        ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        ram = MIN_RESERVE
    size = min(max(RESERVE_PER_RAM * ram, MIN_RESERVE), MAX_RESERVE)
    limit, _ = resource.getrlimit(resource.RLIMIT_AS)
    if limit != resource.RLIM_INFINITY:
        used = 0
        with open("/proc/self/statm") as statm:  # its first field: the address space, in pages
            used = int(statm.read().split()[0]) * PAGE
        size = min(size, max(limit - used, 0) // 2)
    return size // PAGE * PAGE


_arena: Arena | None = None
_made = False
_lock = threading.Lock()


def arena() -> Arena | None:
    """The process's arena, made on first use (None where there can be none)."""
    global _arena, _made
    with _lock:
        if not _made:
            _arena = Arena.make()
            _made = True
        return _arena


def device_bytes(nbytes: int) -> tuple[int, np.ndarray]:
    """`nbytes` zeroed bytes of device memory, `ALIGNMENT`-aligned: in the device arena
    , or where there is none in a numpy array; their address and a view."""
    found = arena()
    if found is not None:
        return found.allocate(nbytes)
    data = aligned_bytes(nbytes)
    return data.ctypes.data, data


def release_device_bytes(address: int) -> None:
    """Give back what `device_bytes` made at `address` to the arena (numpy bytes go with
    their array)."""
    found = arena()
    if found is not None and found.contains(address):
        found.release(address)


def aligned_bytes(nbytes: int) -> np.ndarray:
    """`nbytes` zeroed bytes whose address is a multiple of `ALIGNMENT`."""
    raw = np.zeros(nbytes + ALIGNMENT, np.uint8)
    start = -raw.ctypes.data % ALIGNMENT
    return raw[start : start + nbytes]
